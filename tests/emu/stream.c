/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* stream.c - the streaming I/O engine (emu_engine_stream) of the `webcam`
 * and `tv-streaming` profiles: hooks for open/close, the buffer ioctls
 * (handed to stream-buffers.c), mmap of buffer memfds, poll readiness paced
 * at the frame interval, and read() of whole frames for READWRITE devices
 * (vb2 "fileio": a read never spans two frames, frames the reader is too
 * slow for are dropped). */
#include "stream.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int
stream_open (struct emu_file *f)
{
  f->priv = NULL;
  return 0;
}

/* a new device: the queue of the files opened before goes with them (their
 * mappings stay readable: they are of the buffers' memfds) */
static void
stream_replug (struct emu_device *dev)
{
  struct squeue *q = stream_queue (dev, false);

  if (q)
    stream_queue_free (q);
}

static void
stream_close (struct emu_file *f)
{
  struct emu_device *dev = f->dev;
  struct squeue *q;

  emu_lock (dev);
  q = stream_queue (dev, false);
  if (q && q->owner == f) {
    stream_queue_free (q);
    emu_owner_release (f);
  }
  emu_unlock (dev);
  emu_wake (dev);
}

/* G_PARM of a card whose frame rate is the standard's (bttv): the period
 * follows the std, S_PARM is not supported.  Webcams: the core answers. */
static long
std_parm (struct emu_file *f, unsigned long req, struct v4l2_streamparm *sp)
{
  struct emu_device *dev = f->dev;

  if (!emu_size_follows_std (dev))
    return EMU_NEXT;
  if (req == VIDIOC_S_PARM)
    return -ENOTTY;
  if (sp->type != dev->prof->buf_type)
    return -EINVAL;
  memset (&sp->parm, 0, sizeof (sp->parm));
  emu_lock (dev);
  if (dev->card->st->std & V4L2_STD_525_60) {
    sp->parm.capture.timeperframe.numerator = 1001;
    sp->parm.capture.timeperframe.denominator = 30000;
  } else {
    sp->parm.capture.timeperframe.numerator = 1;
    sp->parm.capture.timeperframe.denominator = 25;
  }
  emu_unlock (dev);
  sp->parm.capture.readbuffers = (dev->prof->caps & V4L2_CAP_READWRITE) ? 2 : 0;
  return 0;
}

static long
stream_ioctl (struct emu_file *f, unsigned long req, void *arg)
{
  switch (req) {
    case VIDIOC_G_PARM:
    case VIDIOC_S_PARM:
      return std_parm (f, req, arg);
    case VIDIOC_REQBUFS:
    case VIDIOC_CREATE_BUFS:
    case VIDIOC_QUERYBUF:
    case VIDIOC_QBUF:
    case VIDIOC_DQBUF:
    case VIDIOC_PREPARE_BUF:
    case VIDIOC_STREAMON:
    case VIDIOC_STREAMOFF:
    case VIDIOC_EXPBUF:
      if (!(f->dev->prof->caps & V4L2_CAP_STREAMING))
        return -ENOTTY;
      return stream_buffers_ioctl (f, req, arg);
    default:
      return EMU_NEXT;
  }
}

/* starts read() I/O on this file: it owns the device until close.
 * Lock held. */
static long
fileio_start (struct emu_file *f, struct squeue **out)
{
  struct emu_device *dev = f->dev;
  struct squeue *q = stream_queue (dev, false);
  int ret;

  if (q && q->fileio) {
    if (q->owner != f)
      return -EBUSY;
    *out = q;
    return 0;
  }
  if (q || (emu_owner_any (dev) && !emu_owner_is (f)))
    return -EBUSY;              /* buffers allocated: streaming I/O owns it */
  ret = emu_owner_take (f);
  if (ret < 0)
    return ret;
  q = stream_queue (dev, true);
  if (!q) {
    emu_owner_release (f);
    return -ENOMEM;
  }
  q->owner = f;
  q->fileio = true;
  stream_current_format (dev, &q->fmt);
  q->rbuf_cap = q->fmt.sizeimage;
  q->rbuf = malloc (q->rbuf_cap ? q->rbuf_cap : 1);
  if (!q->rbuf) {
    stream_queue_free (q);
    emu_owner_release (f);
    return -ENOMEM;
  }
  q->next_ns = emu_now_ns ();
  if (!emu_fault_on (dev, EMU_FAULT_FAST))
    q->next_ns += stream_interval_ns (dev);
  *out = q;
  return 0;
}

static bool
fileio_frame_due (struct squeue *q, int64_t now)
{
  return emu_fault_on (q->dev, EMU_FAULT_FAST) || now >= q->next_ns;
}

/* renders the next due frame into the read buffer.  Lock held. */
static void
fileio_next_frame (struct squeue *q, int64_t now)
{
  bool fast = emu_fault_on (q->dev, EMU_FAULT_FAST);
  int64_t iv = stream_interval_ns (q->dev);

  if (!fast && now - q->next_ns >= iv) {
    int64_t skip = (now - q->next_ns) / iv;     /* frames missed */

    q->sequence += (uint64_t) skip;
    q->next_ns += skip * iv;
    stream_drops (q, (uint64_t) skip);
  }
  if (!fast && stream_skip_slot (q->dev, q->sequence)) {
    /* skip-every on read(): the frame is dropped as ivtv's YUV queue drops
     * a transfer it has no room for (ivtv-irq.c stream_enc_dma_append),
     * and the reader gets the next one a period later (skip-run: the
     * next after the burst) */
    while (stream_skip_slot (q->dev, q->sequence)) {
      q->sequence++;
      q->next_ns += iv;
      stream_drops (q, 1);
    }
    if (now < q->next_ns) {
      q->rlen = q->roff = 0;
      return;
    }
  }
  q->rlen = stream_draw (q->dev, &q->fmt, q->sequence, 0, q->rbuf,
      q->rbuf_cap);
  q->roff = 0;
  stream_drops_seen (q, q->dropped);
  q->sequence++;
  q->next_ns = fast ? now : q->next_ns + iv;
}

static ssize_t
stream_read (struct emu_file *f, void *buf, size_t n)
{
  struct emu_device *dev = f->dev;
  long ret;

  if (!(dev->prof->caps & V4L2_CAP_READWRITE))
    return -EINVAL;
  ret = emu_fault_io_begin (f);
  if (ret == -EAGAIN && !emu_nonblock (f))
    ret = 0;
  if (ret < 0)
    return ret;

  for (;;) {
    struct squeue *q = NULL;
    bool new_frame = false;
    int64_t now, until;
    size_t k;
    int w;

    emu_lock (dev);
    ret = f->closed ? -EBADF : emu_file_gone (f) ? -ENODEV : 0;
    if (ret == 0)
      ret = fileio_start (f, &q);
    if (ret < 0) {
      emu_unlock (dev);
      return ret;
    }
    now = emu_now_ns ();
    if (q->roff >= q->rlen && fileio_frame_due (q, now)
        && emu_fault_io_allow (f, 1, false) == 1) {
      fileio_next_frame (q, now);
      new_frame = true;
    }
    if (q->roff < q->rlen) {
      k = q->rlen - q->roff < n ? q->rlen - q->roff : n;
      if (k > 0)                /* read (fd, NULL, 0) is allowed */
        memcpy (buf, q->rbuf + q->roff, k);
      q->roff += k;
      emu_unlock (dev);
      if (new_frame)
        emu_fault_io_done (f, 1);
      return (ssize_t) k;
    }
    if (emu_nonblock (f)) {
      emu_unlock (dev);
      return -EAGAIN;
    }
    /* due but not allowed: stalled, only a wake-up helps */
    until = fileio_frame_due (q, now) ? -1 : q->next_ns;
    emu_unlock (dev);
    w = emu_wait (f, until);
    if (w < 0)
      return w;
  }
}

static short
stream_poll (struct emu_file *f, short events, int64_t * next_ns)
{
  struct emu_device *dev = f->dev;
  struct squeue *q;
  short rev = 0;
  int64_t now = emu_now_ns ();

  emu_lock (dev);
  if (emu_file_gone (f)) {
    emu_unlock (dev);
    return POLLERR;
  }
  if ((events & POLLPRI) && emu_event_pending (f))
    rev |= POLLPRI;
  if (!(events & (POLLIN | POLLRDNORM))) {
    emu_unlock (dev);
    return rev;
  }
  q = stream_queue (dev, false);
  if (!q && (dev->prof->caps & V4L2_CAP_READWRITE)) {
    /* like vb2: polling for input on an idle device starts read() I/O */
    if (fileio_start (f, &q) < 0)
      q = NULL;
  }
  if (q && q->fileio) {
    if (q->owner != f) {
      rev |= POLLERR;
    } else if (q->roff < q->rlen || (fileio_frame_due (q, now)
            && !emu_fault_stalled (f))) {
      rev |= events & (POLLIN | POLLRDNORM);
    } else if (!emu_fault_stalled (f)) {
      *next_ns = q->next_ns;
    }
  } else if (q && q->streaming && !q->waiting_for_buffers) {
    stream_advance (q, now);
    if (stream_has_done (q) && !emu_fault_stalled (f))
      rev |= events & (POLLIN | POLLRDNORM);
    else if (!emu_fault_stalled (f) && !emu_fault_on (dev, EMU_FAULT_FAST))
      *next_ns = q->next_ns;
  } else {
    rev |= POLLERR;             /* not streaming: nothing to wait for */
  }
  emu_unlock (dev);
  return rev;
}

static void *
stream_mmap (struct emu_file *f, void *addr, size_t len, int prot, int flags,
    off_t off)
{
  struct emu_device *dev = f->dev;
  struct squeue *q;
  struct sbuf *b;
  uint32_t idx;
  void *p;
  int err = EINVAL;

  emu_lock (dev);
  q = stream_queue (dev, false);
  if (!q || q->fileio || q->memory != V4L2_MEMORY_MMAP)
    goto fail;
  b = stream_find_offset (q, off, &idx);
  if (!b || !(flags & MAP_SHARED) || !(prot & PROT_READ) || len == 0
      || len > b->map_len)
    goto fail;
  p = emu_real ()->mmap (addr, len, prot, flags, b->memfd, 0);
  if (p == MAP_FAILED) {
    err = errno;
    goto fail;
  }
  emu_unlock (dev);
  return p;

fail:
  emu_unlock (dev);
  return (void *) (intptr_t) - err;
}

static void
stream_munmap (struct emu_file *f, void *addr, size_t len)
{
  /* the mapping is of the buffer's memfd: nothing to account for */
  (void) f;
  (void) addr;
  (void) len;
}

/* S_FMT, S_STD and friends give EBUSY while buffers are allocated or a
 * reader owns the device (vb2_is_busy).  Lock held. */
static bool
stream_busy (struct emu_device *dev)
{
  return emu_owner_any (dev);
}

const struct emu_engine emu_engine_stream = {
  .name = "stream",
  .open = stream_open,
  .close = stream_close,
  .ioctl = stream_ioctl,
  .read = stream_read,
  .write = NULL,
  .poll = stream_poll,
  .mmap = stream_mmap,
  .munmap = stream_munmap,
  .busy = stream_busy,
  .replug = stream_replug,
};
