/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* interpose-stat.c - the LD_PRELOAD shim's stat family and access(): an
 * emulated node looks like a V4L2 character device (major 81, minor N of
 * /dev/videoN, group video) to stat/lstat/fstat/fstatat/statx, their
 * 64-bit and glibc __xstat variants, access and faccessat.  Every wrapper
 * asks one helper which emulated device a call names (a path, or the fd
 * for fstat and AT_EMPTY_PATH) and falls through to libc when none. */
#undef _FILE_OFFSET_BITS
#include "emu.h"
#include "interpose.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <string.h>
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
