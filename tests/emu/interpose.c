/* interpose.c - the LD_PRELOAD shim: libc entry points a V4L2 client uses
 * (open family, close, dup family, fcntl, ioctl, read, write, mmap, munmap,
 * stat family, access, syscall).  Calls on the configured device paths and
 * on emulated fds go to the device core; everything else goes to the real
 * libc through dlsym(RTLD_NEXT).  poll/select live in interpose-poll.c.
 *
 * An emulated fd is a real eventfd, so fd numbers never collide; dup()ed
 * fds share one struct emu_file like dup()ed fds share a kernel file. */
/* our symbols must be the plain names, not the 64-bit redirections */
#undef _FILE_OFFSET_BITS
#include "emu.h"
#include "interpose.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static struct emu_real real;
static struct emu_device devices[EMU_MAX_DEVICES];
static int n_devices;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct emu_file *fdtab[EMU_MAX_FD];
static int n_emulated;
static uint64_t file_counter;

struct mapping
{
  void *addr;
  size_t len;
  struct emu_file *f;
};
static struct mapping maps[256];

static long (*real_syscall) (long, ...);
static int (*real_ioctl) (int, unsigned long, ...);
static int (*real_openat) (int, const char *, int, ...);
static int (*real_dup) (int);
static int (*real_dup2) (int, int);
static int (*real_dup3) (int, int, int);
static int (*real_fstat) (int, struct stat *);
static int (*real_stat) (const char *, struct stat *);
static int (*real_lstat) (const char *, struct stat *);
static int (*real_fstatat) (int, const char *, struct stat *, int);
static int (*real_statx) (int, const char *, int, unsigned, struct statx *);
static int (*real_xstat) (int, const char *, struct stat *);
static int (*real_lxstat) (int, const char *, struct stat *);
static int (*real_fxstat) (int, int, struct stat *);
static int (*real_fxstatat) (int, int, const char *, struct stat *, int);
static int (*real_access) (const char *, int);
static int (*real_faccessat) (int, const char *, int, int);

#define RESOLVE(var, name) \
  (*(void **) &(var) = dlsym (RTLD_NEXT, name))

static void
setup_devices (void)
{
  const char *env = getenv ("IVTV_EMU_DEVICES");
  const char *faults = getenv ("IVTV_EMU_FAULTS");
  char *copy, *tok, *save = NULL;

  if (!env || !*env)
    return;
  copy = strdup (env);
  for (tok = strtok_r (copy, ",", &save); tok && n_devices < EMU_MAX_DEVICES;
      tok = strtok_r (NULL, ",", &save)) {
    struct emu_device *dev = &devices[n_devices];
    char *at = strchr (tok, '@');
    const char *num;

    if (!at) {
      fprintf (stderr, "ivtv-emu: bad device '%s' (want NAME@PATH)\n", tok);
      continue;
    }
    *at = '\0';
    dev->prof = emu_profile_find (tok);
    if (!dev->prof) {
      fprintf (stderr, "ivtv-emu: unknown profile '%s'\n", tok);
      continue;
    }
    snprintf (dev->path, sizeof (dev->path), "%s", at + 1);
    num = dev->path + strcspn (dev->path, "0123456789");
    dev->minor = atoi (num);
    dev->faults = calloc (1, sizeof (*dev->faults));
    if (emu_faults_parse (faults, dev->path, dev->faults) < 0)
      continue;
    if (emu_state_attach (dev) < 0)
      continue;
    n_devices++;
  }
  free (copy);
}

static int real_ready;

static void
init (void)
{
  RESOLVE (real.open, "open");
  RESOLVE (real.close, "close");
  RESOLVE (real.read, "read");
  RESOLVE (real.write, "write");
  RESOLVE (real.poll, "poll");
  RESOLVE (real.mmap, "mmap");
  RESOLVE (real.munmap, "munmap");
  RESOLVE (real.fcntl, "fcntl");
  RESOLVE (real_syscall, "syscall");
  RESOLVE (real_ioctl, "ioctl");
  RESOLVE (real_openat, "openat");
  RESOLVE (real_dup, "dup");
  RESOLVE (real_dup2, "dup2");
  RESOLVE (real_dup3, "dup3");
  RESOLVE (real_fstat, "fstat");
  RESOLVE (real_stat, "stat");
  RESOLVE (real_lstat, "lstat");
  RESOLVE (real_fstatat, "fstatat");
  RESOLVE (real_statx, "statx");
  RESOLVE (real_xstat, "__xstat");
  RESOLVE (real_lxstat, "__lxstat");
  RESOLVE (real_fxstat, "__fxstat");
  RESOLVE (real_fxstatat, "__fxstatat");
  RESOLVE (real_access, "access");
  RESOLVE (real_faccessat, "faccessat");
  interpose_poll_init ();
  real_ready = 1;               /* setup_devices() calls emu_real() */
}

/* An ASan-built program runs the sanitizer's start-up (which mmap()s, so
 * comes here) before libc has set up the environment: getenv() finds
 * nothing yet.  Then /proc/self/environ still has our variables, and the
 * devices are set up on a later call. */
static int
environment_ready (void)
{
  static char buf[1 << 16];
  static const char key[] = "IVTV_EMU_DEVICES=";
  size_t len = 0;
  ssize_t n;
  int fd;

  if (getenv ("IVTV_EMU_DEVICES"))
    return 1;
  fd = real.open ("/proc/self/environ", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 1;
  while (len < sizeof (buf) - 1
      && (n = real.read (fd, buf + len, sizeof (buf) - 1 - len)) > 0)
    len += n;
  real.close (fd);
  buf[len] = '\0';
  if (len > 0 && strncmp (buf, key, sizeof (key) - 1) == 0)
    return 0;
  return memmem (buf, len, "\0IVTV_EMU_DEVICES=", sizeof (key)) == NULL;
}

static int devices_done;
static pthread_mutex_t setup_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread int in_setup;

static void
emu_init (void)
{
  pthread_once (&init_once, init);
  if (__atomic_load_n (&devices_done, __ATOMIC_ACQUIRE) || in_setup)
    return;
  in_setup = 1;
  pthread_mutex_lock (&setup_lock);
  if (!devices_done && environment_ready ()) {
    setup_devices ();
    __atomic_store_n (&devices_done, 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock (&setup_lock);
  in_setup = 0;
}

const struct emu_real *
emu_real (void)
{
  if (!real_ready)
    pthread_once (&init_once, init);
  return &real;
}

#define INIT() emu_init ()

static struct emu_device *
find_device (const char *path)
{
  int i;

  if (!path || path[0] != '/')
    return NULL;
  for (i = 0; i < n_devices; i++)
    if (strcmp (devices[i].path, path) == 0)
      return &devices[i];
  return NULL;
}

/* sysfs files of emulated nodes (/sys/dev/char/81:N/..., and
 * /sys/class/video4linux/videoN/...) are files in the run directory,
 * made by emu_state_attach(); v4l2-ctl reads uevent to know the node. */
static const char *
map_sys_path (const char *path, char *buf, size_t len)
{
  const char *rundir = getenv ("IVTV_EMU_RUNDIR");
  const char *rest = NULL;
  int i;

  if (!path || strncmp (path, "/sys/", 5) != 0 || !rundir)
    return path;
  for (i = 0; i < n_devices && !rest; i++) {
    char pre[96];
    const char *base = strrchr (devices[i].path, '/') + 1;
    size_t n;

    snprintf (pre, sizeof (pre), "/sys/dev/char/81:%d", devices[i].minor);
    n = strlen (pre);
    if (strncmp (path, pre, n) != 0 || (path[n] != '/' && path[n] != '\0')) {
      snprintf (pre, sizeof (pre), "/sys/class/video4linux/%s", base);
      n = strlen (pre);
      if (strncmp (path, pre, n) != 0 || (path[n] != '/' && path[n] != '\0'))
        continue;
    }
    rest = path + n;
    snprintf (buf, len, "%s/sys-%s%s", rundir, base, rest);
  }
  return rest ? buf : path;
}

/* ---- fd table ---- */

bool
interpose_any_emulated (void)
{
  return __atomic_load_n (&n_emulated, __ATOMIC_RELAXED) > 0;
}

struct emu_file *
interpose_get (int fd)
{
  struct emu_file *f = NULL;

  if (fd < 0 || fd >= EMU_MAX_FD || !interpose_any_emulated ())
    return NULL;
  pthread_mutex_lock (&table_lock);
  f = fdtab[fd];
  if (f)
    f->inuse++;
  pthread_mutex_unlock (&table_lock);
  return f;
}

static void
file_free (struct emu_file *f)
{
  struct emu_device *dev = f->dev;
  struct emu_file **pp;

  if (dev->prof->engine && dev->prof->engine->close)
    dev->prof->engine->close (f);
  emu_lock (dev);
  if (f->prio < 4 && dev->st->prio_count[f->prio])
    dev->st->prio_count[f->prio]--;
  emu_owner_release (f);
  for (pp = &dev->files; *pp; pp = &(*pp)->next)
    if (*pp == f) {
      *pp = f->next;
      break;
    }
  emu_unlock (dev);
  real.close (f->wake_fd);
  emu_debug ("%s: file %llx freed", dev->path, (unsigned long long) f->id);
  free (f);
  emu_wake (dev);
}

void
interpose_put (struct emu_file *f)
{
  bool last;

  pthread_mutex_lock (&table_lock);
  last = --f->inuse == 0 && f->refs == 0;
  pthread_mutex_unlock (&table_lock);
  if (last)
    file_free (f);
}

static void
table_set (int fd, struct emu_file *f)
{
  /* called with table_lock */
  if (fdtab[fd] && !f)
    n_emulated--;
  if (!fdtab[fd] && f)
    n_emulated++;
  fdtab[fd] = f;
  if (f)
    f->refs++;
}

/* Forgets fd (it was closed or is about to be replaced). */
static void
table_drop (int fd)
{
  struct emu_file *f;

  if (fd < 0 || fd >= EMU_MAX_FD)
    return;
  pthread_mutex_lock (&table_lock);
  f = fdtab[fd];
  if (!f) {
    pthread_mutex_unlock (&table_lock);
    return;
  }
  fdtab[fd] = NULL;
  n_emulated--;
  f->refs--;
  f->inuse++;
  if (f->refs == 0)
    f->closed = true;
  pthread_mutex_unlock (&table_lock);
  if (f->closed)
    emu_wake (f->dev);
  interpose_put (f);
}

static int
table_dup (int oldfd, int newfd)
{
  struct emu_file *f;

  if (newfd < 0 || oldfd < 0 || oldfd >= EMU_MAX_FD)
    return newfd;
  if (newfd >= EMU_MAX_FD) {
    real.close (newfd);
    errno = EMFILE;
    return -1;
  }
  pthread_mutex_lock (&table_lock);
  f = fdtab[oldfd];
  if (f)
    table_set (newfd, f);
  pthread_mutex_unlock (&table_lock);
  return newfd;
}

static int
ret_errno (long r)
{
  if (r < 0) {
    errno = (int) -r;
    return -1;
  }
  return (int) r;
}

/* ---- open ---- */

static int
emu_open (struct emu_device *dev, int flags)
{
  const struct emu_engine *eng = dev->prof->engine;
  struct emu_file *f;
  int efl = EFD_CLOEXEC, ret;

  if (dev->st->unplugged)
    return ret_errno (-ENODEV);
  if (emu_fault_on (dev, EMU_FAULT_EBUSY_OPEN))
    return ret_errno (-EBUSY);
  if (emu_fault_on (dev, EMU_FAULT_EACCES_OPEN))
    return ret_errno (-EACCES);
  if (flags & (O_DIRECTORY | O_CREAT | O_TRUNC))
    return ret_errno (flags & O_DIRECTORY ? -ENOTDIR : -EINVAL);
  f = calloc (1, sizeof (*f));
  if (!f)
    return ret_errno (-ENOMEM);
  f->dev = dev;
  f->accmode = flags & O_ACCMODE;
  f->prio = V4L2_PRIORITY_DEFAULT;
  f->fd = eventfd (0, (flags & O_NONBLOCK ? EFD_NONBLOCK : 0) |
      (flags & O_CLOEXEC ? EFD_CLOEXEC : 0));
  f->wake_fd = eventfd (0, efl | EFD_NONBLOCK);
  if (f->fd < 0 || f->wake_fd < 0 || f->fd >= EMU_MAX_FD) {
    int e = f->fd >= EMU_MAX_FD ? EMFILE : errno;

    if (f->fd >= 0)
      real.close (f->fd);
    if (f->wake_fd >= 0)
      real.close (f->wake_fd);
    free (f);
    return ret_errno (-e);
  }
  f->id = ((uint64_t) getpid () << 24) |
      (__atomic_add_fetch (&file_counter, 1, __ATOMIC_RELAXED) & 0xffffff);
  if (eng && eng->open && (ret = eng->open (f)) < 0) {
    real.close (f->fd);
    real.close (f->wake_fd);
    free (f);
    return ret_errno (ret);
  }
  emu_lock (dev);
  dev->st->prio_count[f->prio]++;
  f->next = dev->files;
  dev->files = f;
  emu_unlock (dev);
  pthread_mutex_lock (&table_lock);
  table_set (f->fd, f);
  pthread_mutex_unlock (&table_lock);
  emu_debug ("%s: open fd %d flags 0x%x", dev->path, f->fd, flags);
  return f->fd;
}

static int
do_openat (int dirfd, const char *path, int flags, mode_t mode)
{
  struct emu_device *dev;

  char buf[1024];

  INIT ();
  dev = find_device (path);
  if (dev)
    return emu_open (dev, flags);
  return real_openat (dirfd, map_sys_path (path, buf, sizeof (buf)), flags,
      mode);
}

#define OPEN_MODE(flags, mode) \
  do { \
    if ((flags) & (O_CREAT | __O_TMPFILE)) { \
      va_list ap; va_start (ap, flags); \
      mode = va_arg (ap, mode_t); va_end (ap); \
    } \
  } while (0)

int
open (const char *path, int flags, ...)
{
  mode_t mode = 0;

  OPEN_MODE (flags, mode);
  return do_openat (AT_FDCWD, path, flags, mode);
}

int open64 (const char *path, int flags, ...) __attribute__((alias ("open")));

int
openat (int dirfd, const char *path, int flags, ...)
{
  mode_t mode = 0;

  OPEN_MODE (flags, mode);
  return do_openat (dirfd, path, flags, mode);
}

int openat64 (int dirfd, const char *path, int flags, ...)
    __attribute__((alias ("openat")));

int
__open_2 (const char *path, int flags)
{
  return do_openat (AT_FDCWD, path, flags, 0);
}

int __open64_2 (const char *path, int flags) __attribute__((alias ("__open_2")));

int
__openat_2 (int dirfd, const char *path, int flags)
{
  return do_openat (dirfd, path, flags, 0);
}

int __openat64_2 (int dirfd, const char *path, int flags)
    __attribute__((alias ("__openat_2")));

FILE *
fopen (const char *path, const char *mode)
{
  static FILE *(*real_fopen) (const char *, const char *);
  char buf[1024];

  INIT ();
  if (!real_fopen)
    *(void **) &real_fopen = dlsym (RTLD_NEXT, "fopen");
  return real_fopen (map_sys_path (path, buf, sizeof (buf)), mode);
}

FILE *fopen64 (const char *path, const char *mode)
    __attribute__((alias ("fopen")));

/* ---- close / dup / fcntl ---- */

int
close (int fd)
{
  INIT ();
  table_drop (fd);
  return real.close (fd);
}

int
dup (int fd)
{
  INIT ();
  return table_dup (fd, real_dup (fd));
}

int
dup2 (int oldfd, int newfd)
{
  int r;

  INIT ();
  if (oldfd == newfd)
    return real_dup2 (oldfd, newfd);
  r = real_dup2 (oldfd, newfd);
  if (r >= 0) {
    table_drop (newfd);
    table_dup (oldfd, r);
  }
  return r;
}

int
dup3 (int oldfd, int newfd, int flags)
{
  int r;

  INIT ();
  r = real_dup3 (oldfd, newfd, flags);
  if (r >= 0) {
    table_drop (newfd);
    table_dup (oldfd, r);
  }
  return r;
}

int
fcntl (int fd, int cmd, ...)
{
  va_list ap;
  long arg;
  int r;

  INIT ();
  va_start (ap, cmd);
  arg = va_arg (ap, long);
  va_end (ap);
  r = real.fcntl (fd, cmd, arg);
  if (r >= 0 && (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC))
    return table_dup (fd, r);
  return r;
}

int fcntl64 (int fd, int cmd, ...) __attribute__((alias ("fcntl")));

/* ---- ioctl / read / write ---- */

static long
emu_ioctl (struct emu_file *f, unsigned long req, void *arg)
{
  const struct emu_engine *eng = f->dev->prof->engine;
  long r = EMU_NEXT;

  if (f->dev->st->unplugged)
    return -ENODEV;
  if (!arg && _IOC_SIZE (req) && (_IOC_DIR (req) != _IOC_NONE))
    return -EFAULT;
  if (eng && eng->ioctl)
    r = eng->ioctl (f, req, arg);
  if (r == EMU_NEXT)
    r = emu_core_ioctl (f, req, arg);
  if (r == EMU_NEXT)
    r = -ENOTTY;
  return r;
}

int
ioctl (int fd, unsigned long req, ...)
{
  struct emu_file *f;
  va_list ap;
  void *arg;
  long r;

  INIT ();
  va_start (ap, req);
  arg = va_arg (ap, void *);
  va_end (ap);
  f = interpose_get (fd);
  if (!f)
    return real_ioctl (fd, req, arg);
  r = emu_ioctl (f, req, arg);
  emu_debug ("%s: ioctl %c/%u -> %ld", f->dev->path, (int) _IOC_TYPE (req),
      (unsigned) _IOC_NR (req), r);
  interpose_put (f);
  return ret_errno (r);
}

static ssize_t
emu_read (struct emu_file *f, void *buf, size_t n)
{
  const struct emu_engine *eng = f->dev->prof->engine;

  if (f->dev->st->unplugged)
    return -ENODEV;
  if (f->accmode == O_WRONLY)
    return -EBADF;
  if (!eng || !eng->read)
    return -EINVAL;
  return eng->read (f, buf, n);
}

ssize_t
read (int fd, void *buf, size_t n)
{
  struct emu_file *f;
  ssize_t r;

  INIT ();
  f = interpose_get (fd);
  if (!f)
    return real.read (fd, buf, n);
  r = emu_read (f, buf, n);
  interpose_put (f);
  if (r < 0) {
    errno = (int) -r;
    return -1;
  }
  return r;
}

ssize_t
__read_chk (int fd, void *buf, size_t n, size_t buflen)
{
  (void) buflen;
  return read (fd, buf, n);
}

ssize_t
write (int fd, const void *buf, size_t n)
{
  const struct emu_engine *eng;
  struct emu_file *f;
  ssize_t r;

  INIT ();
  f = interpose_get (fd);
  if (!f)
    return real.write (fd, buf, n);
  eng = f->dev->prof->engine;
  if (f->dev->st->unplugged)
    r = -ENODEV;
  else if (f->accmode == O_RDONLY)
    r = -EBADF;
  else if (!eng || !eng->write)
    r = -EINVAL;
  else
    r = eng->write (f, buf, n);
  interpose_put (f);
  if (r < 0) {
    errno = (int) -r;
    return -1;
  }
  return r;
}

/* ---- mmap ---- */

void *
mmap (void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
  const struct emu_engine *eng;
  struct emu_file *f;
  void *p;
  int i;

  INIT ();
  f = interpose_get (fd);
  if (!f)
    return real.mmap (addr, len, prot, flags, fd, off);
  eng = f->dev->prof->engine;
  if (f->dev->st->unplugged)
    p = (void *) (intptr_t) - ENODEV;
  else if (!eng || !eng->mmap)
    p = (void *) (intptr_t) - ENODEV;
  else
    p = eng->mmap (f, addr, len, prot, flags, off);
  if ((intptr_t) p < 0 && (intptr_t) p > -4096) {
    errno = (int) -(intptr_t) p;
    interpose_put (f);
    return MAP_FAILED;
  }
  pthread_mutex_lock (&table_lock);
  for (i = 0; i < (int) (sizeof (maps) / sizeof (maps[0])); i++)
    if (!maps[i].addr) {
      maps[i].addr = p;
      maps[i].len = len;
      maps[i].f = f;
      f->inuse++;               /* the mapping keeps the file alive */
      break;
    }
  pthread_mutex_unlock (&table_lock);
  interpose_put (f);
  return p;
}

void *mmap64 (void *addr, size_t len, int prot, int flags, int fd, off_t off)
    __attribute__((alias ("mmap")));

int
munmap (void *addr, size_t len)
{
  struct emu_file *f = NULL;
  int i;

  INIT ();
  pthread_mutex_lock (&table_lock);
  for (i = 0; i < (int) (sizeof (maps) / sizeof (maps[0])); i++)
    if (maps[i].addr == addr && addr) {
      f = maps[i].f;
      maps[i].addr = NULL;
      break;
    }
  pthread_mutex_unlock (&table_lock);
  if (f) {
    const struct emu_engine *eng = f->dev->prof->engine;

    if (eng && eng->munmap)
      eng->munmap (f, addr, len);
    interpose_put (f);
  }
  return real.munmap (addr, len);
}

/* ---- stat family ---- */

static void
fill_stat (struct emu_device *dev, struct stat *st)
{
  memset (st, 0, sizeof (*st));
  st->st_mode = S_IFCHR | 0660;
  st->st_rdev = makedev (81, dev->minor);
  st->st_dev = makedev (0, 5);
  st->st_ino = 1000 + dev->minor;
  st->st_nlink = 1;
  st->st_gid = 44;
  st->st_blksize = 4096;
}

static struct emu_device *
fd_device (int fd)
{
  struct emu_file *f = interpose_get (fd);
  struct emu_device *dev;

  if (!f)
    return NULL;
  dev = f->dev;
  interpose_put (f);
  return dev;
}

int
stat (const char *path, struct stat *st)
{
  struct emu_device *dev;

  INIT ();
  if ((dev = find_device (path))) {
    fill_stat (dev, st);
    return 0;
  }
  return real_stat (path, st);
}

int
stat64 (const char *path, struct stat64 *st)
{
  return stat (path, (struct stat *) st);
}

int
lstat (const char *path, struct stat *st)
{
  struct emu_device *dev;

  INIT ();
  if ((dev = find_device (path))) {
    fill_stat (dev, st);
    return 0;
  }
  return real_lstat (path, st);
}

int
lstat64 (const char *path, struct stat64 *st)
{
  return lstat (path, (struct stat *) st);
}

int
fstat (int fd, struct stat *st)
{
  struct emu_device *dev;

  INIT ();
  if ((dev = fd_device (fd))) {
    fill_stat (dev, st);
    return 0;
  }
  return real_fstat (fd, st);
}

int
fstat64 (int fd, struct stat64 *st)
{
  return fstat (fd, (struct stat *) st);
}

int
fstatat (int dirfd, const char *path, struct stat *st, int flags)
{
  struct emu_device *dev = NULL;

  INIT ();
  const char *volatile vp = path;       /* may be NULL despite nonnull */

  if (vp && *vp)
    dev = find_device (vp);
  else if (flags & AT_EMPTY_PATH)
    dev = fd_device (dirfd);
  if (dev) {
    fill_stat (dev, st);
    return 0;
  }
  return real_fstatat (dirfd, path, st, flags);
}

int
fstatat64 (int dirfd, const char *path, struct stat64 *st, int flags)
{
  return fstatat (dirfd, path, (struct stat *) st, flags);
}

int
__xstat (int ver, const char *path, struct stat *st)
{
  struct emu_device *dev;

  INIT ();
  if ((dev = find_device (path))) {
    fill_stat (dev, st);
    return 0;
  }
  return real_xstat (ver, path, st);
}

int
__xstat64 (int ver, const char *path, struct stat64 *st)
{
  return __xstat (ver, path, (struct stat *) st);
}

int
__lxstat (int ver, const char *path, struct stat *st)
{
  struct emu_device *dev;

  INIT ();
  if ((dev = find_device (path))) {
    fill_stat (dev, st);
    return 0;
  }
  return real_lxstat (ver, path, st);
}

int
__lxstat64 (int ver, const char *path, struct stat64 *st)
{
  return __lxstat (ver, path, (struct stat *) st);
}

int
__fxstat (int ver, int fd, struct stat *st)
{
  struct emu_device *dev;

  INIT ();
  if ((dev = fd_device (fd))) {
    fill_stat (dev, st);
    return 0;
  }
  return real_fxstat (ver, fd, st);
}

int
__fxstat64 (int ver, int fd, struct stat64 *st)
{
  return __fxstat (ver, fd, (struct stat *) st);
}

int
__fxstatat (int ver, int dirfd, const char *path, struct stat *st, int flags)
{
  struct emu_device *dev;

  INIT ();
  if ((dev = find_device (path))) {
    fill_stat (dev, st);
    return 0;
  }
  return real_fxstatat (ver, dirfd, path, st, flags);
}

int
__fxstatat64 (int ver, int dirfd, const char *path, struct stat64 *st,
    int flags)
{
  return __fxstatat (ver, dirfd, path, (struct stat *) st, flags);
}

int
statx (int dirfd, const char *path, int flags, unsigned mask,
    struct statx *stx)
{
  struct emu_device *dev = NULL;

  INIT ();
  const char *volatile vp = path;       /* may be NULL despite nonnull */

  if (vp && *vp)
    dev = find_device (vp);
  else if (flags & AT_EMPTY_PATH)
    dev = fd_device (dirfd);
  if (dev) {
    memset (stx, 0, sizeof (*stx));
    stx->stx_mask = STATX_BASIC_STATS;
    stx->stx_mode = S_IFCHR | 0660;
    stx->stx_rdev_major = 81;
    stx->stx_rdev_minor = dev->minor;
    stx->stx_dev_minor = 5;
    stx->stx_ino = 1000 + dev->minor;
    stx->stx_nlink = 1;
    stx->stx_gid = 44;
    stx->stx_blksize = 4096;
    return 0;
  }
  return real_statx (dirfd, path, flags, mask, stx);
}

int
access (const char *path, int mode)
{
  INIT ();
  if (find_device (path))
    return 0;
  return real_access (path, mode);
}

int
faccessat (int dirfd, const char *path, int mode, int flags)
{
  INIT ();
  if (find_device (path))
    return 0;
  return real_faccessat (dirfd, path, mode, flags);
}

/* ---- syscall(): libv4l2 calls the kernel this way ---- */

long
syscall (long nr, ...)
{
  long a[6];
  va_list ap;
  int i;

  va_start (ap, nr);
  for (i = 0; i < 6; i++)
    a[i] = va_arg (ap, long);
  va_end (ap);
  INIT ();
  switch (nr) {
    case SYS_ioctl:
      return ioctl ((int) a[0], (unsigned long) a[1], (void *) a[2]);
    case SYS_read:
      return read ((int) a[0], (void *) a[1], (size_t) a[2]);
    case SYS_write:
      return write ((int) a[0], (const void *) a[1], (size_t) a[2]);
    case SYS_mmap:
      return (long) mmap ((void *) a[0], (size_t) a[1], (int) a[2],
          (int) a[3], (int) a[4], (off_t) a[5]);
    case SYS_munmap:
      return munmap ((void *) a[0], (size_t) a[1]);
    case SYS_open:
      return do_openat (AT_FDCWD, (const char *) a[0], (int) a[1],
          (mode_t) a[2]);
    case SYS_openat:
      return do_openat ((int) a[0], (const char *) a[1], (int) a[2],
          (mode_t) a[3]);
    case SYS_close:
      return close ((int) a[0]);
    case SYS_dup:
      return dup ((int) a[0]);
    default:
      return real_syscall (nr, a[0], a[1], a[2], a[3], a[4], a[5]);
  }
}
