/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* interpose-stat.c - the LD_PRELOAD shim's stat family, access(), xattrs
 * and directory listing: an emulated node looks like a V4L2 character
 * device (major 81, minor N of /dev/videoN, group video) to
 * stat/lstat/fstat/fstatat/statx, their 64-bit and glibc __xstat variants,
 * access and faccessat, has no xattrs (ls -l), and is listed by
 * readdir of /dev and /sys/class/video4linux (below).  Every wrapper
 * asks one helper which emulated device a call names (a path, or the fd
 * for fstat and AT_EMPTY_PATH) and falls through to libc when none. */
#undef _FILE_OFFSET_BITS
#include "emu.h"
#include "interpose.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#define V4L2_MAJOR 81
#define VIDEO_GID 44

static int (*real_stat) (const char *, struct stat *);
static int (*real_lstat) (const char *, struct stat *);
static int (*real_fstat) (int, struct stat *);
static int (*real_fstatat) (int, const char *, struct stat *, int);
static int (*real_statx) (int, const char *, int, unsigned, struct statx *);
static int (*real_xstat) (int, const char *, struct stat *);
static int (*real_lxstat) (int, const char *, struct stat *);
static int (*real_fxstat) (int, int, struct stat *);
static int (*real_fxstatat) (int, int, const char *, struct stat *, int);
static int (*real_access) (const char *, int);
static int (*real_faccessat) (int, const char *, int, int);

#define RESOLVE(var, name) (*(void **) &(var) = dlsym (RTLD_NEXT, name))
#define G_N_ELEMENTS_EMU(a) (sizeof (a) / sizeof ((a)[0]))

static void xattr_init (void);
static void dir_init (void);

void
interpose_stat_init (void)
{
  RESOLVE (real_stat, "stat");
  RESOLVE (real_lstat, "lstat");
  RESOLVE (real_fstat, "fstat");
  RESOLVE (real_fstatat, "fstatat");
  RESOLVE (real_statx, "statx");
  RESOLVE (real_xstat, "__xstat");
  RESOLVE (real_lxstat, "__lxstat");
  RESOLVE (real_fxstat, "__fxstat");
  RESOLVE (real_fxstatat, "__fxstatat");
  RESOLVE (real_access, "access");
  RESOLVE (real_faccessat, "faccessat");
  xattr_init ();
  dir_init ();
}

/* The emulated device a stat-family call names: `path` if it has one,
 * else (fd calls, AT_EMPTY_PATH) the device behind `fd`; NULL: not ours. */
static struct emu_device *
target (int fd, const char *path, int flags)
{
  const char *volatile vp = path;       /* may be NULL despite nonnull */
  struct emu_device *dev = NULL;
  struct emu_file *f;

  interpose_init ();
  if (vp && *vp)
    return interpose_find_device (vp);
  if (vp && !(flags & AT_EMPTY_PATH))
    return NULL;
  if ((f = interpose_get (fd))) {
    dev = f->dev;
    interpose_put (f);
  }
  return dev;
}

static int
fill_stat (struct emu_device *dev, struct stat *st)
{
  memset (st, 0, sizeof (*st));
  st->st_mode = S_IFCHR | 0660;
  st->st_rdev = makedev (V4L2_MAJOR, dev->minor);
  st->st_dev = makedev (0, 5);
  st->st_ino = 1000 + dev->minor;
  st->st_nlink = 1;
  st->st_gid = VIDEO_GID;
  st->st_blksize = 4096;
  return 0;
}

/* one wrapper: the emulated answer, or the real call */
#define STAT_CALL(fd, path, flags, st, real_call) do { \
    struct emu_device *dev_ = target ((fd), (path), (flags)); \
    return dev_ ? fill_stat (dev_, (struct stat *) (st)) : (real_call); \
  } while (0)

/* struct stat64 is struct stat on the 64-bit ABIs this runs on */
_Static_assert (sizeof (struct stat64) == sizeof (struct stat),
    "stat64 differs from stat");

int
stat (const char *path, struct stat *st)
{
  STAT_CALL (-1, path, 0, st, real_stat (path, st));
}

int
stat64 (const char *path, struct stat64 *st)
{
  return stat (path, (struct stat *) st);
}

int
lstat (const char *path, struct stat *st)
{
  STAT_CALL (-1, path, 0, st, real_lstat (path, st));
}

int
lstat64 (const char *path, struct stat64 *st)
{
  return lstat (path, (struct stat *) st);
}

int
fstat (int fd, struct stat *st)
{
  STAT_CALL (fd, NULL, 0, st, real_fstat (fd, st));
}

int
fstat64 (int fd, struct stat64 *st)
{
  return fstat (fd, (struct stat *) st);
}

int
fstatat (int dirfd, const char *path, struct stat *st, int flags)
{
  STAT_CALL (dirfd, path, flags, st, real_fstatat (dirfd, path, st, flags));
}

int
fstatat64 (int dirfd, const char *path, struct stat64 *st, int flags)
{
  return fstatat (dirfd, path, (struct stat *) st, flags);
}

int
__xstat (int ver, const char *path, struct stat *st)
{
  STAT_CALL (-1, path, 0, st, real_xstat (ver, path, st));
}

int
__xstat64 (int ver, const char *path, struct stat64 *st)
{
  return __xstat (ver, path, (struct stat *) st);
}

int
__lxstat (int ver, const char *path, struct stat *st)
{
  STAT_CALL (-1, path, 0, st, real_lxstat (ver, path, st));
}

int
__lxstat64 (int ver, const char *path, struct stat64 *st)
{
  return __lxstat (ver, path, (struct stat *) st);
}

int
__fxstat (int ver, int fd, struct stat *st)
{
  STAT_CALL (fd, NULL, 0, st, real_fxstat (ver, fd, st));
}

int
__fxstat64 (int ver, int fd, struct stat64 *st)
{
  return __fxstat (ver, fd, (struct stat *) st);
}

int
__fxstatat (int ver, int dirfd, const char *path, struct stat *st, int flags)
{
  STAT_CALL (dirfd, path, flags, st,
      real_fxstatat (ver, dirfd, path, st, flags));
}

int
__fxstatat64 (int ver, int dirfd, const char *path, struct stat64 *st,
    int flags)
{
  return __fxstatat (ver, dirfd, path, (struct stat *) st, flags);
}

int
statx (int dirfd, const char *path, int flags, unsigned mask, struct statx *stx)
{
  struct emu_device *dev = target (dirfd, path, flags);
  struct stat st;

  if (!dev)
    return real_statx (dirfd, path, flags, mask, stx);
  fill_stat (dev, &st);
  memset (stx, 0, sizeof (*stx));
  stx->stx_mask = STATX_BASIC_STATS;
  stx->stx_mode = st.st_mode;
  stx->stx_rdev_major = major (st.st_rdev);
  stx->stx_rdev_minor = minor (st.st_rdev);
  stx->stx_dev_minor = minor (st.st_dev);
  stx->stx_ino = st.st_ino;
  stx->stx_nlink = st.st_nlink;
  stx->stx_gid = st.st_gid;
  stx->stx_blksize = st.st_blksize;
  return 0;
}

int
access (const char *path, int mode)
{
  return target (-1, path, 0) ? 0 : real_access (path, mode);
}

int
faccessat (int dirfd, const char *path, int mode, int flags)
{
  return target (-1, path, 0) ? 0 : real_faccessat (dirfd, path, mode, flags);
}

/* ---- xattrs: ls -l asks for the SELinux label (lgetxattr) and ACLs of
 * the node; a device without them answers ENODATA / an empty list ---- */

static ssize_t (*real_getxattr) (const char *, const char *, void *, size_t);
static ssize_t (*real_lgetxattr) (const char *, const char *, void *, size_t);
static ssize_t (*real_listxattr) (const char *, char *, size_t);
static ssize_t (*real_llistxattr) (const char *, char *, size_t);

static void
xattr_init (void)
{
  RESOLVE (real_getxattr, "getxattr");
  RESOLVE (real_lgetxattr, "lgetxattr");
  RESOLVE (real_listxattr, "listxattr");
  RESOLVE (real_llistxattr, "llistxattr");
}

#define XATTR_GET(path, real_call) do { \
    if (target (-1, (path), 0)) { errno = ENODATA; return -1; } \
    return (real_call); \
  } while (0)

ssize_t
getxattr (const char *path, const char *name, void *value, size_t size)
{
  XATTR_GET (path, real_getxattr (path, name, value, size));
}

ssize_t
lgetxattr (const char *path, const char *name, void *value, size_t size)
{
  XATTR_GET (path, real_lgetxattr (path, name, value, size));
}

ssize_t
listxattr (const char *path, char *list, size_t size)
{
  return target (-1, path, 0) ? 0 : real_listxattr (path, list, size);
}

ssize_t
llistxattr (const char *path, char *list, size_t size)
{
  return target (-1, path, 0) ? 0 : real_llistxattr (path, list, size);
}

/* ---- directories: /dev and /sys/class/video4linux list the emulated
 * nodes (after the real entries, none twice), so `v4l2-ctl
 * --list-devices`, `ls /dev` and a shell's /dev/video* glob run under
 * ivtv-emu find them.  The kernel makes both: the device node in devtmpfs
 * and the class link (drivers/media/v4l2-core/v4l2-dev.c,
 * __video_register_device -> device_register).  A missing
 * /sys/class/video4linux (no videodev loaded) is read from the run
 * directory's (IVTV_SYSFS) instead. ---- */

#define EMU_DIR_SLOTS 8
#define EMU_DIR_NAMES 64

struct emu_dir
{
  DIR *dir;                     /* NULL: a free slot */
  bool real_done;
  int n, next;
  unsigned char type;           /* DT_CHR (/dev) or DT_LNK (sysfs) */
  char names[EMU_DIR_NAMES][16];
  struct dirent64 ent;
};

static struct emu_dir emu_dirs[EMU_DIR_SLOTS];
static pthread_mutex_t emu_dirs_lock = PTHREAD_MUTEX_INITIALIZER;
static DIR *(*real_opendir) (const char *);
static struct dirent *(*real_readdir) (DIR *);
static struct dirent64 *(*real_readdir64) (DIR *);
static void (*real_rewinddir) (DIR *);
static int (*real_closedir) (DIR *);

_Static_assert (sizeof (struct dirent64) == sizeof (struct dirent),
    "dirent64 differs from dirent");

static void
dir_init (void)
{
  RESOLVE (real_opendir, "opendir");
  RESOLVE (real_readdir, "readdir");
  RESOLVE (real_readdir64, "readdir64");
  RESOLVE (real_rewinddir, "rewinddir");
  RESOLVE (real_closedir, "closedir");
}

/* 0: not a listed directory, 1: /dev, 2: /sys/class/video4linux */
static int
dir_kind (const char *path)
{
  if (!path)
    return 0;
  if (strcmp (path, "/dev") == 0 || strcmp (path, "/dev/") == 0)
    return 1;
  if (strcmp (path, "/sys/class/video4linux") == 0 ||
      strcmp (path, "/sys/class/video4linux/") == 0)
    return 2;
  return 0;
}

/* the emulated nodes' names that the real directory lacks */
static void
dir_collect (struct emu_dir *d, int kind)
{
  static const char *const prefixes[] = { "video", "vbi", "radio" };
  struct stat st;
  char path[96];
  unsigned p;
  int i;

  d->n = 0;
  for (p = 0; p < G_N_ELEMENTS_EMU (prefixes); p++)
    for (i = 0; i < EMU_DIR_NAMES && d->n < EMU_DIR_NAMES; i++) {
      snprintf (path, sizeof (path), "/dev/%s%d", prefixes[p], i);
      if (!interpose_find_device (path))
        continue;
      snprintf (d->names[d->n], sizeof (d->names[0]), "%s%d", prefixes[p], i);
      snprintf (path, sizeof (path), "%s/%s", kind == 1 ? "/dev" :
          "/sys/class/video4linux", d->names[d->n]);
      if (real_lstat (path, &st) != 0)
        d->n++;
    }
}

DIR *
opendir (const char *path)
{
  int kind = dir_kind (path);
  const char *sysfs = getenv ("IVTV_SYSFS");
  DIR *dir;
  int i;

  interpose_init ();
  dir = real_opendir (path);
  if (!dir && kind == 2 && errno == ENOENT && sysfs) {
    char alt[512];

    snprintf (alt, sizeof (alt), "%s/class/video4linux", sysfs);
    dir = real_opendir (alt);
  }
  if (!dir || !kind)
    return dir;
  pthread_mutex_lock (&emu_dirs_lock);
  for (i = 0; i < EMU_DIR_SLOTS && emu_dirs[i].dir; i++);
  if (i < EMU_DIR_SLOTS) {
    memset (&emu_dirs[i], 0, sizeof (emu_dirs[i]));
    emu_dirs[i].dir = dir;
    emu_dirs[i].type = kind == 1 ? DT_CHR : DT_LNK;
    dir_collect (&emu_dirs[i], kind);
  }
  pthread_mutex_unlock (&emu_dirs_lock);
  return dir;
}

static struct emu_dir *
dir_slot (DIR * dir)
{
  int i;

  for (i = 0; i < EMU_DIR_SLOTS; i++)
    if (dir && emu_dirs[i].dir == dir)
      return &emu_dirs[i];
  return NULL;
}

/* the next entry of a listed directory: the real ones, then ours */
static struct dirent64 *
dir_next (DIR * dir, bool is64)
{
  struct dirent64 *ret = NULL;
  struct emu_dir *d;

  interpose_init ();
  pthread_mutex_lock (&emu_dirs_lock);
  d = dir_slot (dir);
  if (!d || !d->real_done) {
    ret = is64 ? real_readdir64 (dir) : (struct dirent64 *) real_readdir (dir);
    if (d && !ret)
      d->real_done = true;
  }
  if (d && !ret && d->next < d->n) {
    memset (&d->ent, 0, sizeof (d->ent));
    d->ent.d_ino = 1000 + d->next;
    d->ent.d_reclen = sizeof (d->ent);
    d->ent.d_type = d->type;
    snprintf (d->ent.d_name, sizeof (d->ent.d_name), "%s", d->names[d->next]);
    d->next++;
    ret = &d->ent;
  }
  pthread_mutex_unlock (&emu_dirs_lock);
  return ret;
}

struct dirent *
readdir (DIR * dir)
{
  return (struct dirent *) dir_next (dir, false);
}

struct dirent64 *
readdir64 (DIR * dir)
{
  return dir_next (dir, true);
}

void
rewinddir (DIR * dir)
{
  struct emu_dir *d;

  interpose_init ();
  pthread_mutex_lock (&emu_dirs_lock);
  if ((d = dir_slot (dir)))
    d->real_done = false, d->next = 0;
  pthread_mutex_unlock (&emu_dirs_lock);
  real_rewinddir (dir);
}

int
closedir (DIR * dir)
{
  struct emu_dir *d;

  interpose_init ();
  pthread_mutex_lock (&emu_dirs_lock);
  if ((d = dir_slot (dir)))
    d->dir = NULL;
  pthread_mutex_unlock (&emu_dirs_lock);
  return real_closedir (dir);
}
