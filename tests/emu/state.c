/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* state.c - the device state shared by every process of one ivtv-emu run
 * (a small file per node in $IVTV_EMU_RUNDIR, mapped MAP_SHARED), its lock,
 * the encoder/stream owner, and waiting/waking of readers and pollers. */
#include "emu.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define EMU_STATE_MAGIC 0x49565445u     /* "IVTE" */

int64_t
emu_now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void
emu_debug (const char *fmt, ...)
{
  static int on = -1;
  char line[1024];
  va_list ap;
  int n;

  if (on < 0)
    on = getenv ("IVTV_EMU_DEBUG") != NULL;
  if (!on)
    return;
  /* one write() a line: the application's threads (a reader thread's
   * DQBUF, the streaming thread's QBUF) log at once, and three stdio
   * calls on unbuffered stderr interleaved their pieces, which broke the
   * lines test-dq-first.sh counts (CI: 'DQBUF ok 599' for 600 frames) */
  va_start (ap, fmt);
  n = snprintf (line, sizeof (line), "ivtv-emu[%d]: ", (int) getpid ());
  if (n >= 0 && (size_t) n < sizeof (line))
    vsnprintf (line + n, sizeof (line) - (size_t) n, fmt, ap);
  va_end (ap);
  n = (int) strlen (line);
  if ((size_t) n >= sizeof (line) - 1)
    n = (int) sizeof (line) - 2;
  line[n++] = '\n';
  if (write (2, line, (size_t) n) < 0)
    return;
}

static void
state_defaults (struct emu_device *dev, struct emu_shared *st)
{
  const struct emu_profile *p = dev->prof;
  const struct emu_format *fmt = &p->formats[0];
  int i;

  memset (st, 0, sizeof (*st));
  st->size = sizeof (*st);
  st->std = p->def_std;
  st->detected_std = p->def_std;
  st->frequency = p->tuner.def_frequency;
  st->audmode = V4L2_TUNER_MODE_STEREO;
  st->audio_input = 0;
  for (i = 0; i < EMU_MAX_CTRLS && p->ctrls[i].id; i++)
    st->ctrl[i] = p->ctrls[i].def;
  st->pixelformat = fmt->pixelformat;
  st->width = fmt->sizes[0].width;
  st->height = fmt->sizes[0].height;
  st->field = V4L2_FIELD_NONE;
  st->interval = fmt->sizes[0].intervals[0];
  st->created_ns = emu_now_ns ();
  st->magic = EMU_STATE_MAGIC;
}

/* <rundir>/sys-videoN/uevent: what /sys/dev/char/81:N/uevent says.
 * (Runs inside the shim's init: only real, not interposed, calls.) */
static void
write_sysfile (const char *path, const char *text)
{
  const struct emu_real *r = emu_real ();
  int fd = r->open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

  if (fd < 0)
    return;
  if (r->write (fd, text, strlen (text)) < 0) {
    /* nothing to do: the file is only informative */
  }
  r->close (fd);
}

static void
write_sysfs (struct emu_device *dev, const char *rundir)
{
  const char *base = strrchr (dev->path, '/');
  char path[600], text[200];

  base = base ? base + 1 : dev->path;
  snprintf (path, sizeof (path), "%s/sys-%s", rundir, base);
  mkdir (path, 0700);
  snprintf (path, sizeof (path), "%s/sys-%s/uevent", rundir, base);
  snprintf (text, sizeof (text), "MAJOR=81\nMINOR=%d\nDEVNAME=%s\n",
      dev->minor, base);
  write_sysfile (path, text);
  snprintf (path, sizeof (path), "%s/sys-%s/name", rundir, base);
  snprintf (text, sizeof (text), "%s\n", dev->prof->card);
  write_sysfile (path, text);
}

int
emu_state_attach (struct emu_device *dev)
{
  const char *rundir = getenv ("IVTV_EMU_RUNDIR");
  const struct emu_real *r = emu_real ();
  pthread_mutexattr_t ma;
  char path[512];
  void *map;
  int fd;

  pthread_mutexattr_init (&ma);
  pthread_mutexattr_settype (&ma, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init (&dev->mutex, &ma);
  pthread_mutexattr_destroy (&ma);
  dev->state_fd = -1;

  if (rundir && *rundir) {
    const char *base = strrchr (dev->path, '/');

    /* a card's VBI node maps its video node's state (vbi.c) */
    snprintf (path, sizeof (path), "%s/%s.state", rundir, dev->state_of[0] ?
        dev->state_of : base ? base + 1 : dev->path);
    fd = r->open (path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) {
      fprintf (stderr, "ivtv-emu: cannot open state file %s: %s\n", path,
          strerror (errno));
      return -errno;
    }
    flock (fd, LOCK_EX);
    if (ftruncate (fd, sizeof (struct emu_shared)) < 0) {
      int e = errno;

      flock (fd, LOCK_UN);
      r->close (fd);
      return -e;
    }
    map = r->mmap (NULL, sizeof (struct emu_shared), PROT_READ | PROT_WRITE,
        MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) {
      int e = errno;

      flock (fd, LOCK_UN);
      r->close (fd);
      return -e;
    }
    dev->st = map;
    if (dev->st->magic != EMU_STATE_MAGIC ||
        dev->st->size != sizeof (struct emu_shared))
      state_defaults (dev, dev->st);
    flock (fd, LOCK_UN);
    dev->state_fd = fd;
    write_sysfs (dev, rundir);
  } else {
    /* no run directory: state private to this process */
    map = r->mmap (NULL, sizeof (struct emu_shared), PROT_READ | PROT_WRITE,
        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED)
      return -errno;
    dev->st = map;
    state_defaults (dev, dev->st);
  }
  return 0;
}

/* the node's own state, then the card's when another node holds it
 * (always in that order: the card's node never takes another's) */
void
emu_lock (struct emu_device *dev)
{
  pthread_mutex_lock (&dev->mutex);
  if (dev->state_fd >= 0)
    flock (dev->state_fd, LOCK_EX);
  if (dev->card && dev->card != dev)
    emu_lock (dev->card);
}

void
emu_unlock (struct emu_device *dev)
{
  if (dev->card && dev->card != dev)
    emu_unlock (dev->card);
  if (dev->state_fd >= 0)
    flock (dev->state_fd, LOCK_UN);
  pthread_mutex_unlock (&dev->mutex);
}

/* An owner whose process is gone does not hold the device any more. */
static void
owner_check_stale (struct emu_device *dev)
{
  struct emu_shared *st = dev->st;

  if (st->owner_pid && st->owner_pid != getpid () &&
      kill (st->owner_pid, 0) < 0 && errno == ESRCH) {
    st->owner_pid = 0;
    st->owner_id = 0;
  }
}

int
emu_owner_take (struct emu_file *f)
{
  struct emu_shared *st = f->dev->st;

  owner_check_stale (f->dev);
  if (st->owner_id == f->id)
    return 0;
  if (st->owner_id)
    return -EBUSY;
  st->owner_pid = getpid ();
  st->owner_id = f->id;
  st->gen++;
  return 0;
}

void
emu_owner_release (struct emu_file *f)
{
  struct emu_shared *st = f->dev->st;

  if (st->owner_id == f->id) {
    st->owner_pid = 0;
    st->owner_id = 0;
    st->gen++;
  }
}

bool
emu_owner_is (struct emu_file *f)
{
  return f->dev->st->owner_id == f->id;
}

bool
emu_owner_any (struct emu_device *dev)
{
  owner_check_stale (dev);
  return dev->st->owner_id != 0;
}

void
emu_wake (struct emu_device *dev)
{
  const struct emu_real *r = emu_real ();
  uint64_t one = 1;
  struct emu_file *f;

  pthread_mutex_lock (&dev->mutex);
  for (f = dev->files; f; f = f->next)
    if (r->write (f->wake_fd, &one, sizeof (one)) < 0) {
      /* counter full: a wake-up is pending anyway */
    }
  pthread_mutex_unlock (&dev->mutex);
}

int
emu_wait (struct emu_file *f, int64_t until_ns)
{
  const struct emu_real *r = emu_real ();
  struct pollfd pfd = { .fd = f->wake_fd, .events = POLLIN };
  int timeout = -1;
  uint64_t v;
  int ret;

  if (f->closed)
    return -EBADF;
  if (until_ns >= 0) {
    int64_t left = until_ns - emu_now_ns ();

    if (left <= 0)
      return 0;
    timeout = (int) ((left + 999999) / 1000000);
  }
  ret = r->poll (&pfd, 1, timeout);
  if (ret < 0)
    return -errno;
  if (ret > 0 && r->read (f->wake_fd, &v, sizeof (v)) < 0) {
    /* another waiter drained it */
  }
  return f->closed ? -EBADF : 0;
}

bool
emu_nonblock (struct emu_file *f)
{
  int fl = emu_real ()->fcntl (f->fd, F_GETFL);

  return fl >= 0 && (fl & O_NONBLOCK);
}
