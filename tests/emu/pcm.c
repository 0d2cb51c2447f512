/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* pcm.c - the I/O engine of the ivtv/cx18 PCM node (/dev/video24): raw
 * audio by read() only, signed 16-bit little-endian stereo at 48 kHz
 * (Documentation/admin-guide/media/ivtv.rst: "/dev/video24 ... raw (signed
 * 16 bit Little Endian, 48000 Hz, stereo pcm) capture").  The node has no
 * VIDEO_CAPTURE capability (ivtv-streams.c ivtv_stream_info[]
 * IVTV_ENC_STREAM_TYPE_PCM: TUNER | AUDIO | READWRITE), so the core has no
 * format, input or standard ioctls for it (pcm_ioctl() below).  The first read() (or POLLIN poll) starts the capture (one
 * reader per node: another gets EBUSY, as ivtv_start_capture() on a claimed
 * stream); bytes come paced at 192000 bytes/s unless --fault fast; a
 * blocking read() waits until its buffer is full (ivtv_read()).  The
 * samples are emu_pcm_sample() (pcm-samples.c): a sawtooth per input, the
 * same for every open, so a capture can be compared sample for sample. */
#include "emu.h"
#include "pcm.h"
#include "marks.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* the card hands PCM data out a DMA buffer at a time: 4608 bytes (24 ms),
 * ivtv-driver.c ivtv_probe(): stream_buf_size[IVTV_ENC_STREAM_TYPE_PCM] =
 * 0x01200 */
#define PCM_DMA_BYTES 0x1200

struct pcm_priv
{
  bool started;
  int64_t t0;
  uint64_t pos;                 /* bytes delivered by this open */
};

static int
pcm_open (struct emu_file *f)
{
  f->priv = calloc (1, sizeof (struct pcm_priv));
  return f->priv ? 0 : -ENOMEM;
}

static void
pcm_close (struct emu_file *f)
{
  struct emu_device *dev = f->dev;

  emu_lock (dev);
  if (emu_owner_is (f))
    emu_owner_release (f);
  emu_unlock (dev);
  free (f->priv);
  f->priv = NULL;
  emu_wake (dev);
}

/* The PCM node is VFL_TYPE_VIDEO without a video capability, so the
 * v4l2-dev.c core (determine_valid_ioctls(): is_vid needs one of the video
 * caps) leaves out the format, input, standard and audio ioctls: ENOTTY.
 * The tuner and control ioctls stay (the core answers them). */
static long
pcm_ioctl (struct emu_file *f, unsigned long req, void *arg)
{
  (void) f;
  (void) arg;
  switch (req) {
    case VIDIOC_ENUM_FMT:
    case VIDIOC_G_FMT:
    case VIDIOC_S_FMT:
    case VIDIOC_TRY_FMT:
    case VIDIOC_G_PARM:
    case VIDIOC_S_PARM:
    case VIDIOC_ENUM_FRAMESIZES:
    case VIDIOC_ENUM_FRAMEINTERVALS:
    case VIDIOC_ENUMINPUT:
    case VIDIOC_G_INPUT:
    case VIDIOC_S_INPUT:
    case VIDIOC_ENUMSTD:
    case VIDIOC_G_STD:
    case VIDIOC_S_STD:
    case VIDIOC_QUERYSTD:
    case VIDIOC_ENUMAUDIO:
    case VIDIOC_G_AUDIO:
    case VIDIOC_S_AUDIO:
      return -ENOTTY;
    default:
      return EMU_NEXT;
  }
}

/* starts the capture on first use; lock held */
static int
pcm_start (struct emu_file *f)
{
  struct pcm_priv *p = f->priv;
  int ret;

  if (p->started)
    return 0;
  ret = emu_owner_take (f);
  if (ret < 0)
    return ret;
  p->started = true;
  p->t0 = emu_now_ns ();
  return 0;
}

/* bytes the card has made for this open by now */
static uint64_t
pcm_avail (struct emu_file *f, int64_t * next_ns)
{
  struct pcm_priv *p = f->priv;
  int64_t el;
  uint64_t made;
  double rate;

  if (emu_fault_on (f->dev, EMU_FAULT_FAST))
    return UINT64_MAX / 2 - p->pos;
  el = emu_now_ns () - p->t0;
  /* clock-ppm: the card's audio crystal (marks.c) */
  rate = EMU_PCM_BYTES_PER_S * emu_marks_clock_scale (f->dev);
  made = (uint64_t) ((double) el * rate / 1e9);
  made -= made % PCM_DMA_BYTES;
  if (next_ns)
    *next_ns = p->t0 + (int64_t) ((double) (made + PCM_DMA_BYTES) * 1e9 /
        rate);
  return made > p->pos ? made - p->pos : 0;
}

static ssize_t
pcm_read (struct emu_file *f, void *buf, size_t n)
{
  struct emu_device *dev = f->dev;
  struct pcm_priv *p = f->priv;
  size_t done = 0;
  int ret;

  if ((ret = emu_fault_io_begin (f)) < 0)
    return ret;
  emu_lock (dev);
  ret = pcm_start (f);
  emu_unlock (dev);
  if (ret < 0)
    return ret;
  n = (size_t) emu_fault_io_allow (f, n, true);
  while (done < n) {
    int64_t next = -1;
    uint64_t av = pcm_avail (f, &next);
    size_t take = (size_t) (av < n - done ? av : n - done);

    if (take > 0) {
      const struct emu_input *in = emu_cur_input (dev);
      int content = (!in || emu_fault_no_signal (dev)) ? -1 : in->content;

      if (emu_marks_period_ns (dev) > 0)     /* the sync test tape */
        emu_marks_pcm_fill (emu_marks_period_ns (dev), p->t0,
            emu_marks_clock_scale (dev), p->pos, (uint8_t *) buf + done, take);
      else
        emu_pcm_fill (content, p->pos, (uint8_t *) buf + done, take);
      p->pos += take;
      done += take;
      continue;
    }
    if (emu_nonblock (f))
      break;
    if (emu_wait (f, next) < 0 || emu_file_gone (f))
      break;
  }
  if (done == 0 && n > 0)
    return emu_file_gone (f) ? -ENODEV : emu_nonblock (f) ? -EAGAIN : -EINTR;
  emu_fault_io_done (f, done);
  return (ssize_t) done;
}

static short
pcm_poll (struct emu_file *f, short events, int64_t * next_ns)
{
  struct pcm_priv *p = f->priv;
  short rev = 0;

  if (emu_file_gone (f))
    return POLLERR;
  if (events & (POLLIN | POLLRDNORM)) {
    emu_lock (f->dev);
    if (pcm_start (f) < 0) {
      emu_unlock (f->dev);
      return POLLERR;
    }
    emu_unlock (f->dev);
    if (pcm_avail (f, next_ns) > 0)
      rev |= events & (POLLIN | POLLRDNORM);
  }
  (void) p;
  if (emu_event_pending (f))
    rev |= POLLPRI;
  return rev;
}

const struct emu_engine emu_engine_pcm = {
  .name = "pcm",
  .open = pcm_open,
  .close = pcm_close,
  .ioctl = pcm_ioctl,
  .read = pcm_read,
  .poll = pcm_poll,
};
