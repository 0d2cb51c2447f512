/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* interpose.c - the LD_PRELOAD shim's set-up and file handling: the
 * emulated devices of IVTV_EMU_DEVICES, the fd table, the open family,
 * close, the dup family, fcntl, and syscall() as libv4l2 uses it.  Calls on
 * the configured device paths and on emulated fds go to the device core;
 * everything else goes to the real libc through dlsym(RTLD_NEXT).
 * ioctl/read/write/mmap are in interpose-io.c, the stat family and access
 * in interpose-stat.c, poll/select in interpose-poll.c.
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
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static struct emu_real real;
static struct emu_device devices[EMU_MAX_DEVICES];
static int n_devices;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct emu_file *fdtab[EMU_MAX_FD];
static int n_emulated;
static uint64_t file_counter;

static long (*real_syscall) (long, ...);
static int (*real_openat) (int, const char *, int, ...);
static int (*real_dup) (int);
static int (*real_dup2) (int, int);
static int (*real_dup3) (int, int, int);


/* The YUV node (minor N + 32) and the PCM node (N + 24) of a card whose
 * MPEG node N is in the run (profiles NAME-yuv, NAME-pcm beside NAME, as
 * ivtv-emu --card places them) share its input, audio input, standard,
 * tuner and priority: ivtv's ioctls act on the card's one `itv`
 * (ivtv-ioctl.c ivtv_s_input, ivtv_s_std, ivtv_s_frequency: fh->itv),
 * cx18's on its one `cx` (cx18-ioctl.c). */
static void
link_cards (void)
{
  static const struct
  {
    const char *suffix;
    int offset;
  } nodes[] = { {"-yuv", 32}, {"-pcm", 24} };
  int i, j, k;

  for (i = 0; i < n_devices; i++)
    devices[i].card = &devices[i];
  for (i = 0; i < n_devices; i++)
    for (k = 0; k < 2; k++) {
      const char *name = devices[i].prof->name;
      size_t n = strlen (name), s = strlen (nodes[k].suffix);

      if (n <= s || strcmp (name + n - s, nodes[k].suffix) != 0
          || strncmp (devices[i].path, "/dev/video", 10) != 0)
        continue;
      for (j = 0; j < n_devices; j++)
        if (devices[j].minor == devices[i].minor - nodes[k].offset
            && strncmp (devices[j].path, "/dev/video", 10) == 0
            && strlen (devices[j].prof->name) == n - s
            && strncmp (devices[j].prof->name, name, n - s) == 0)
          devices[i].card = &devices[j];
    }
}

/* Is any node of dev's card capturing (dev's own engine aside)?  ivtv
 * refuses a standard change while any stream of the card captures
 * (ivtv_s_std: atomic_read (&itv->capturing), ivtv-ioctl.c). */
bool
emu_card_busy (struct emu_device *dev)
{
  int i;

  for (i = 0; i < n_devices; i++) {
    struct emu_device *d = &devices[i];
    const struct emu_engine *e = d->prof->engine;

    if (d != dev && d->card == dev->card && e && e->busy && e->busy (d))
      return true;
  }
  return false;
}

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
    if (strncmp (dev->path, "/dev/radio", 10) == 0)
      dev->minor += 64;         /* radio nodes: minors of their own */
    dev->faults = calloc (1, sizeof (*dev->faults));
    if (emu_faults_parse (faults, dev->path, dev->faults) < 0)
      continue;
    if (emu_state_attach (dev) < 0)
      continue;
    n_devices++;
    /* the card's VBI node, /dev/vbiN (vbi.c) */
    if (dev->prof->vbi && n_devices < EMU_MAX_DEVICES
        && emu_vbi_node_init (dev, &devices[n_devices], faults) == 0)
      n_devices++;
  }
  free (copy);
  link_cards ();
}

#define RESOLVE(var, name) (*(void **) &(var) = dlsym (RTLD_NEXT, name))

static int real_ready;
/* set while this thread runs init(): another preload that init()'s calls
 * pass through (v4l2convert.so's open() calls syscall()) must not wait
 * for the init it is part of */
static __thread int in_init;

static void
init (void)
{
  in_init = 1;
  RESOLVE (real.open, "open");
  RESOLVE (real.close, "close");
  RESOLVE (real.read, "read");
  RESOLVE (real.write, "write");
  RESOLVE (real.poll, "poll");
  RESOLVE (real.mmap, "mmap");
  RESOLVE (real.munmap, "munmap");
  RESOLVE (real.fcntl, "fcntl");
  RESOLVE (real_syscall, "syscall");
  RESOLVE (real_openat, "openat");
  RESOLVE (real_dup, "dup");
  RESOLVE (real_dup2, "dup2");
  RESOLVE (real_dup3, "dup3");
  interpose_poll_init ();
  interpose_io_init ();
  interpose_stat_init ();
  real_ready = 1;               /* setup_devices() calls emu_real() */
  in_init = 0;
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

/* the real functions once, then the devices once the environment is
 * there (calls made while this thread sets them up pass through) */
static void
setup_once (void)
{
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
  if (!real_ready && !in_init)
    pthread_once (&init_once, init);
  return &real;
}

void
interpose_init (void)
{
  if (in_init)
    return;
  pthread_once (&init_once, init);
  setup_once ();
}

struct emu_device *
interpose_find_device (const char *path)
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
  emu_prio_close (f);
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
  else if (f->fd == fd) {
    /* f->fd is asked for the file status flags (O_NONBLOCK): move it to
     * a dup that is still open (`dup2 (fd, 0); close (fd)` as dd does) */
    int i;

    for (i = 0; i < EMU_MAX_FD; i++)
      if (fdtab[i] == f) {
        f->fd = i;
        break;
      }
  }
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

void
interpose_hold (struct emu_file *f)
{
  pthread_mutex_lock (&table_lock);
  f->inuse++;
  pthread_mutex_unlock (&table_lock);
}

long
interpose_ret (long r)
{
  if (r < 0) {
    errno = (int) -r;
    return -1;
  }
  return r;
}

/* ---- open ---- */

static int
emu_open (struct emu_device *dev, int flags)
{
  const struct emu_engine *eng = dev->prof->engine;
  struct emu_file *f;
  int efl = EFD_CLOEXEC, ret;

  if (dev->st->unplugged && emu_fault_on (dev, EMU_FAULT_UNPLUG_FOR) &&
      emu_now_ns () - dev->st->unplugged_ns >=
      emu_fault_arg (dev, EMU_FAULT_UNPLUG_FOR) * 1000000000LL) {
    /* plugged in again: a new device, nobody owns it */
    emu_lock (dev);
    dev->st->unplugged = 0;
    dev->st->plugins++;
    dev->st->owner_pid = 0;
    dev->st->owner_id = 0;
    /* and no priority is held: the new device has its own prio state
     * (v4l2_device_register -> v4l2_prio_init, v4l2-device.c, which
     * __video_register_device points vdev->prio at, v4l2-dev.c); the old
     * device's handles do not count in it (file_free) */
    emu_prio_reset (dev);
    /* and its controls at their defaults (the driver's control handler is
     * made anew, v4l2_ctrl_new_std(..., def): pvrusb2, a USB PVR, after a
     * replug); input, standard and tuner are kept (not modelled) */
    for (int i = 0; i < EMU_MAX_CTRLS && dev->prof->ctrls[i].id; i++)
      dev->st->ctrl[i] = dev->prof->ctrls[i].def;
    if (eng && eng->replug)
      eng->replug (dev);
    dev->st->gen++;
    emu_unlock (dev);
  }
  if (dev->st->unplugged)
    return interpose_ret (emu_gone_like_pvrusb2 (dev) ? -EIO : -ENODEV);
  if (emu_fault_on (dev, EMU_FAULT_EBUSY_OPEN))
    return interpose_ret (-EBUSY);
  if (emu_fault_on (dev, EMU_FAULT_EACCES_OPEN))
    return interpose_ret (-EACCES);
  if (flags & (O_DIRECTORY | O_CREAT | O_TRUNC))
    return interpose_ret (flags & O_DIRECTORY ? -ENOTDIR : -EINVAL);
  f = calloc (1, sizeof (*f));
  if (!f)
    return interpose_ret (-ENOMEM);
  f->dev = dev;
  f->accmode = flags & O_ACCMODE;
  f->prio = V4L2_PRIORITY_DEFAULT;
  f->plugged_in = dev->st->plugins;
  f->xev_seen = dev->st->xev_seq;
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
    return interpose_ret (-e);
  }
  f->id = ((uint64_t) getpid () << 24) |
      (__atomic_add_fetch (&file_counter, 1, __ATOMIC_RELAXED) & 0xffffff);
  if (eng && eng->open && (ret = eng->open (f)) < 0) {
    real.close (f->fd);
    real.close (f->wake_fd);
    free (f);
    return interpose_ret (ret);
  }
  emu_prio_open (f);
  emu_lock (dev);
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

  interpose_init ();
  dev = interpose_find_device (path);
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

  interpose_init ();
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
  interpose_init ();
  table_drop (fd);
  return real.close (fd);
}

int
dup (int fd)
{
  interpose_init ();
  return table_dup (fd, real_dup (fd));
}

int
dup2 (int oldfd, int newfd)
{
  int r;

  interpose_init ();
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

  interpose_init ();
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

  interpose_init ();
  va_start (ap, cmd);
  arg = va_arg (ap, long);
  va_end (ap);
  r = real.fcntl (fd, cmd, arg);
  if (r >= 0 && (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC))
    return table_dup (fd, r);
  return r;
}

int fcntl64 (int fd, int cmd, ...) __attribute__((alias ("fcntl")));

/* ---- syscall(): libv4l2 calls the kernel this way ---- */

long
syscall (long nr, ...)
{
  char buf[1024];
  long a[6];
  va_list ap;
  int i;

  va_start (ap, nr);
  for (i = 0; i < 6; i++)
    a[i] = va_arg (ap, long);
  va_end (ap);
  interpose_init ();
  /* only what is emulated is answered here; the rest goes on as the
   * system call it is (not through open()/read()..., which another
   * preload such as v4l2convert.so may have wrapped around syscall()) */
  switch (nr) {
    case SYS_ioctl:
    case SYS_read:
    case SYS_write:
    case SYS_close:
    case SYS_dup:{
      struct emu_file *f = interpose_get ((int) a[0]);

      if (!f)
        break;
      interpose_put (f);
      if (nr == SYS_ioctl)
        return ioctl ((int) a[0], (unsigned long) a[1], (void *) a[2]);
      if (nr == SYS_read)
        return read ((int) a[0], (void *) a[1], (size_t) a[2]);
      if (nr == SYS_write)
        return write ((int) a[0], (const void *) a[1], (size_t) a[2]);
      if (nr == SYS_close)
        return close ((int) a[0]);
      return dup ((int) a[0]);
    }
    case SYS_mmap:{
      struct emu_file *f = interpose_get ((int) a[4]);

      if (!f)
        break;
      interpose_put (f);
      return (long) mmap ((void *) a[0], (size_t) a[1], (int) a[2],
          (int) a[3], (int) a[4], (off_t) a[5]);
    }
    case SYS_munmap:
      if (!interpose_is_mapping ((void *) a[0]))
        break;
      return munmap ((void *) a[0], (size_t) a[1]);
    case SYS_open:
    case SYS_openat:{
      int dirfd = nr == SYS_open ? AT_FDCWD : (int) a[0];
      int k = nr == SYS_open ? 0 : 1;
      const char *path = (const char *) a[k];

      if (!interpose_find_device (path) &&
          map_sys_path (path, buf, sizeof (buf)) == path)
        break;
      return do_openat (dirfd, path, (int) a[k + 1], (mode_t) a[k + 2]);
    }
    default:
      break;
  }
  return real_syscall (nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}
