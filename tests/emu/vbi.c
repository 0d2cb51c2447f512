/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* vbi.c - the VBI capture node of an emulated card (/dev/vbiN beside the
 * card's /dev/videoN): its set-up (a copy of the card's profile sharing the
 * card's state: input, standard, tuner, controls), the VBI format ioctls
 * (raw and sliced, as ivtv-ioctl.c / saa7134-video.c answer them) and the
 * read() engine: one frame of VBI per frame period from the first read()
 * or POLLIN poll, sliced records or raw sampled lines (vbi-gen.c makes the
 * content).  The kernel facts are cited in README.md ("VBI nodes"). */
#include "vbi.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SLICED_SIZE (sizeof (struct v4l2_sliced_vbi_data))
#define IVTV_SLICED_LINES 36    /* io_size: 36 records (ivtv-ioctl.c) */

/* ---- the cards' VBI nodes ---- */

#define IVTV_VBI_CAPS (V4L2_CAP_VBI_CAPTURE | V4L2_CAP_SLICED_VBI_CAPTURE | \
    V4L2_CAP_TUNER | V4L2_CAP_AUDIO | V4L2_CAP_READWRITE)

/* ivtv: raw lines of 27 MHz samples, raw_decoder_line_size - 4 bytes
 * (ivtv_g_fmt_vbi_cap()); 12 lines a field from 10/273 on 525, 18 from
 * 6/318 on 625 (ivtv_s_std_enc()); VBI buffers of 1 MB (ivtv-driver.c) */
#define IVTV_RAW(spl) \
  .raw525 = { 27000000, 248, (spl), { 10, 273 }, 12 }, \
  .raw625 = { 27000000, 248, (spl), { 6, 318 }, 18 }

const struct emu_vbi_desc emu_vbi_ivtv_saa7115 = {
  .what = "ivtv VBI (saa7115): sliced CC/WSS, raw",
  .caps = IVTV_VBI_CAPS,.sliced = true,.raw = true,
  IVTV_RAW (1443 - 4),.frame_counter = true,.queue_bytes = 1 << 20,
};

const struct emu_vbi_desc emu_vbi_ivtv_cx25840 = {
  .what = "ivtv VBI (cx25840): sliced CC/WSS, raw",
  .caps = IVTV_VBI_CAPS,.sliced = true,.raw = true,
  IVTV_RAW (1444 - 4),.frame_counter = true,.queue_bytes = 1 << 20,
};

/* saa7134_try_get_set_fmt_vbi_cap(): 27 MHz, 2048 samples, offset 256 */
const struct emu_vbi_desc emu_vbi_raw_saa7134 = {
  .what = "raw VBI (saa7134-like)",
  .caps = V4L2_CAP_VBI_CAPTURE | V4L2_CAP_TUNER | V4L2_CAP_READWRITE,
  .raw = true,
  .raw525 = {27000000, 256, 2048, {10, 273}, 12},
  .raw625 = {27000000, 256, 2048, {7, 319}, 17},
  .queue_bytes = 1 << 20,
};

int
emu_vbi_node_init (struct emu_device *video, struct emu_device *out,
    const char *faults)
{
  const struct emu_vbi_desc *d = video->prof->vbi;
  struct emu_profile *p = malloc (sizeof (*p));
  const char *base = strrchr (video->path, '/');

  if (!p)
    return -ENOMEM;
  *p = *video->prof;            /* the card: inputs, stds, tuner, controls */
  p->caps = d->caps;
  p->buf_type = d->sliced ? V4L2_BUF_TYPE_SLICED_VBI_CAPTURE :
      V4L2_BUF_TYPE_VBI_CAPTURE;
  memset (p->formats, 0, sizeof (p->formats));
  p->engine = &emu_engine_vbi;
  memset (out, 0, sizeof (*out));
  out->prof = p;
  snprintf (out->path, sizeof (out->path), "/dev/vbi%d", video->minor);
  snprintf (out->state_of, sizeof (out->state_of), "%s",
      base ? base + 1 : video->path);
  out->minor = 224 + video->minor;      /* VBI minors 224-255 */
  out->faults = calloc (1, sizeof (*out->faults));
  if (!out->faults || emu_faults_parse (faults, out->path, out->faults) < 0)
    return -EINVAL;
  return emu_state_attach (out);
}

static const struct emu_vbi_desc *
desc (struct emu_device *dev)
{
  return dev->prof->vbi;
}

static bool
is_525 (struct emu_device *dev)
{
  return (dev->card->st->std & V4L2_STD_525_60) != 0;
}

static const struct emu_vbi_raw *
raw_params (struct emu_device *dev)
{
  return is_525 (dev) ? &desc (dev)->raw525 : &desc (dev)->raw625;
}

/* ---- owner: one reader of the VBI stream (ivtv_claim_stream()) ---- */

static void
owner_check_stale (struct emu_device *dev)
{
  if (dev->st->vbi.owner_pid && dev->st->vbi.owner_pid != getpid () &&
      kill (dev->st->vbi.owner_pid, 0) < 0 && errno == ESRCH) {
    dev->st->vbi.owner_pid = 0;
    dev->st->vbi.owner_id = 0;
  }
}

bool
emu_vbi_capturing (struct emu_device *dev)
{
  owner_check_stale (dev);
  return dev->st->vbi.owner_id != 0;
}

/* ---- formats ---- */

/* valid_service_line() and select_service_from_set() of ivtv-ioctl.c:
 * CC on line 21 of both fields (525), WSS on line 23 of the first (625),
 * VPS and teletext not offered here */
static uint16_t
service_for (int field, int line, uint16_t set, bool is525)
{
  if (is525)
    return (line == 21 && (set & V4L2_SLICED_CAPTION_525)) ?
        V4L2_SLICED_CAPTION_525 : 0;
  return (line == 23 && field == 0 && (set & V4L2_SLICED_WSS_625)) ?
      V4L2_SLICED_WSS_625 : 0;
}

static void
sliced_fmt (struct emu_device *dev, struct v4l2_sliced_vbi_format *s,
    bool from_set)
{
  uint16_t set = s->service_set;
  int fl, l;

  s->service_set = 0;
  for (fl = 0; fl < 2; fl++)
    for (l = 0; l < 24; l++) {
      uint16_t want = from_set ? set : s->service_lines[fl][l];

      s->service_lines[fl][l] = service_for (fl, l, want, is_525 (dev));
      s->service_set |= s->service_lines[fl][l];
    }
  s->io_size = SLICED_SIZE * IVTV_SLICED_LINES;
  memset (s->reserved, 0, sizeof (s->reserved));
}

static void
raw_fmt (struct emu_device *dev, struct v4l2_vbi_format *v)
{
  const struct emu_vbi_raw *r = raw_params (dev);

  memset (v, 0, sizeof (*v));
  v->sampling_rate = r->rate;
  v->offset = r->offset;
  v->samples_per_line = r->samples;
  v->sample_format = V4L2_PIX_FMT_GREY;
  v->start[0] = r->start[0];
  v->start[1] = r->start[1];
  v->count[0] = v->count[1] = r->count;
}

static long
fmt_ioctl (struct emu_file *f, unsigned long req, struct v4l2_format *vf)
{
  struct emu_device *dev = f->dev;
  bool sliced = vf->type == V4L2_BUF_TYPE_SLICED_VBI_CAPTURE;
  long r;
  int fl, l;

  if ((sliced && !desc (dev)->sliced) || (!sliced &&
          (vf->type != V4L2_BUF_TYPE_VBI_CAPTURE || !desc (dev)->raw)))
    return -EINVAL;
  if (!sliced) {
    /* ivtv_s_fmt_vbi_cap(): the format is fixed; S_FMT selects raw */
    raw_fmt (dev, &vf->fmt.vbi);
  } else if (req == VIDIOC_G_FMT) {
    emu_lock (dev);
    for (fl = 0; fl < 2; fl++)
      for (l = 0; l < 24; l++)
        vf->fmt.sliced.service_lines[fl][l] = dev->st->vbi.lines[fl][l];
    emu_unlock (dev);
    sliced_fmt (dev, &vf->fmt.sliced, false);
  } else {
    sliced_fmt (dev, &vf->fmt.sliced, vf->fmt.sliced.service_set != 0);
  }
  if (req != VIDIOC_S_FMT)
    return 0;
  if ((r = emu_prio_check (f)) < 0)
    return r;
  emu_lock (dev);
  if (emu_vbi_capturing (dev) && dev->st->vbi.raw != (uint32_t) ! sliced) {
    emu_unlock (dev);
    return -EBUSY;              /* no switch raw <-> sliced while capturing */
  }
  dev->st->vbi.raw = !sliced;
  /* raw empties the sliced set, which G_FMT sliced then reports (ivtv-ioctl.c
   * ivtv_s_fmt_vbi_cap: sliced_in->service_set = 0 and the decoder's
   * s_raw_fmt, saa7115.c saa711x_s_raw_fmt: no line sliced) */
  for (fl = 0; fl < 2; fl++)
    for (l = 0; l < 24; l++)
      dev->st->vbi.lines[fl][l] = sliced ? vf->fmt.sliced.service_lines[fl][l] : 0;
  dev->st->gen++;
  emu_unlock (dev);
  return 0;
}

/* ivtv_g_sliced_vbi_cap(): every valid line offers the family's set */
static long
sliced_cap (struct emu_device *dev, struct v4l2_sliced_vbi_cap *c)
{
  bool is525 = is_525 (dev);
  int fl, l;

  if (c->type != V4L2_BUF_TYPE_SLICED_VBI_CAPTURE || !desc (dev)->sliced)
    return -EINVAL;
  memset (c->service_lines, 0, sizeof (c->service_lines));
  memset (c->reserved, 0, sizeof (c->reserved));
  c->service_set = 0;
  for (fl = 0; fl < 2; fl++)
    for (l = 0; l < 24; l++) {
      c->service_lines[fl][l] = service_for (fl, l, 0xffff, is525);
      c->service_set |= c->service_lines[fl][l];
    }
  return 0;
}

static long
vbi_ioctl (struct emu_file *f, unsigned long req, void *arg)
{
  switch (req) {
    case VIDIOC_G_FMT:
    case VIDIOC_TRY_FMT:
    case VIDIOC_S_FMT:
      return fmt_ioctl (f, req, arg);
    case VIDIOC_G_SLICED_VBI_CAP:
      return sliced_cap (f->dev, arg);
    case VIDIOC_ENUM_FMT:
      return -EINVAL;           /* check_fmt(): no formats on a VBI node */
    case VIDIOC_ENUM_FRAMESIZES:
    case VIDIOC_ENUM_FRAMEINTERVALS:
    case VIDIOC_G_PARM:
    case VIDIOC_S_PARM:
      return -ENOTTY;
    default:
      return EMU_NEXT;
  }
}

/* ---- the stream ---- */

struct vbi_priv
{
  bool started;
  int64_t t0;                   /* first frame period starts */
  uint64_t next;                /* next frame to hand out */
  uint8_t *frame;               /* the frame being read, and how far */
  size_t len, off;
};

static int
vbi_open (struct emu_file *f)
{
  f->priv = calloc (1, sizeof (struct vbi_priv));
  return f->priv ? 0 : -ENOMEM;
}

static void
vbi_close (struct emu_file *f)
{
  struct vbi_priv *p = f->priv;

  emu_lock (f->dev);
  if (f->dev->st->vbi.owner_id == f->id) {
    f->dev->st->vbi.owner_id = 0;
    f->dev->st->vbi.owner_pid = 0;
    f->dev->st->gen++;
  }
  emu_unlock (f->dev);
  free (p->frame);
  free (p);
  f->priv = NULL;
}

static bool
vbi_busy (struct emu_device *dev)
{
  return emu_vbi_capturing (dev) || emu_owner_any (dev);
}

static int64_t
period_ns (struct emu_device *dev)
{
  return is_525 (dev) ? 1001000000LL / 30 : 40000000LL;
}

/* lock held: the first read() or POLLIN poll starts the capture */
static int
start (struct emu_file *f)
{
  struct vbi_priv *p = f->priv;
  struct emu_shared *st = f->dev->st;

  if (p->started)
    return 0;
  owner_check_stale (f->dev);
  if (st->vbi.owner_id && st->vbi.owner_id != f->id)
    return -EBUSY;
  st->vbi.owner_id = f->id;
  st->vbi.owner_pid = getpid ();
  st->gen++;
  p->started = true;
  p->t0 = emu_now_ns ();
  p->next = 0;
  return 0;
}

/* frames complete at t0 + (n + 1) periods; all due with --fault fast */
static uint64_t
frames_done (struct emu_file *f, int64_t now)
{
  struct vbi_priv *p = f->priv;

  if (emu_fault_on (f->dev, EMU_FAULT_FAST))
    return p->next + 1;
  return now > p->t0 ? (uint64_t) ((now - p->t0) / period_ns (f->dev)) : 0;
}

static size_t
frame_bytes (struct emu_device *dev)
{
  const struct emu_vbi_raw *r = raw_params (dev);

  if (dev->st->vbi.raw)
    return (size_t) r->samples * r->count * 2;
  return SLICED_SIZE * 3;       /* at most CC twice, or WSS */
}

static size_t
make_sliced (struct emu_device *dev, uint64_t n, uint8_t *out)
{
  struct v4l2_sliced_vbi_data d[3];
  bool is525 = is_525 (dev);
  int fl, k = 0;

  memset (d, 0, sizeof (d));
  for (fl = 0; fl < 2; fl++) {
    uint16_t id = dev->st->vbi.lines[fl][is525 ? 21 : 23];

    if (id == V4L2_SLICED_CAPTION_525) {
      emu_vbi_cc_bytes (n, fl, d[k].data);
    } else if (id == V4L2_SLICED_WSS_625) {
      uint16_t w = emu_vbi_wss (emu_cur_input (dev)->content);

      d[k].data[0] = w & 0xff;
      d[k].data[1] = w >> 8;
    } else {
      continue;
    }
    d[k].id = id;
    d[k].field = fl;
    d[k].line = is525 ? 21 : 23;
    k++;
  }
  if (k == 0)
    k = 1;                      /* ivtv_process_vbi_data(): one empty line */
  memcpy (out, d, k * SLICED_SIZE);
  return k * SLICED_SIZE;
}

static size_t
make_raw (struct emu_device *dev, uint64_t n, uint8_t *out)
{
  const struct emu_vbi_raw *r = raw_params (dev);
  size_t len = (size_t) r->samples * r->count * 2;
  uint32_t fl, i;

  memset (out, 16, len);        /* blanking level */
  if (is_525 (dev))
    for (fl = 0; fl < 2; fl++) {
      uint32_t line = fl ? 284 : 21;

      i = line - r->start[fl];
      if (i < r->count) {
        uint8_t cc[2];

        emu_vbi_cc_bytes (n, fl, cc);
        emu_vbi_cc_raw_line (out + (fl * r->count + i) * r->samples,
            r->samples, r->rate, r->offset, cc);
      }
    }
  if (desc (dev)->frame_counter) {
    uint32_t c = (uint32_t) n;  /* ivtv_process_vbi_data(): frame count */

    memcpy (out + len - 4, &c, 4);
  }
  return len;
}

/* lock held: the next frame into p->frame, dropping what the driver's
 * buffers could not keep */
static void
next_frame (struct emu_file *f, uint64_t done)
{
  struct vbi_priv *p = f->priv;
  size_t max = frame_bytes (f->dev);
  uint64_t keep = desc (f->dev)->queue_bytes / max;

  if (keep < 1)
    keep = 1;
  if (done > p->next + keep)
    p->next = done - keep;
  free (p->frame);
  p->frame = malloc (max);
  if (!p->frame) {
    p->len = p->off = 0;
    return;
  }
  p->len = f->dev->st->vbi.raw ? make_raw (f->dev, p->next, p->frame) :
      make_sliced (f->dev, p->next, p->frame);
  p->off = 0;
  p->next++;
}

static ssize_t
vbi_read (struct emu_file *f, void *buf, size_t n)
{
  struct vbi_priv *p = f->priv;
  ssize_t ret;
  int r;

  if ((r = emu_fault_io_begin (f)) < 0)
    return r;
  for (;;) {
    int64_t now = emu_now_ns (), due;
    uint64_t done;

    emu_lock (f->dev);
    if ((r = start (f)) < 0) {
      emu_unlock (f->dev);
      return r;
    }
    if (p->off < p->len)
      break;
    done = frames_done (f, now);
    if (done > p->next) {
      next_frame (f, done);
      break;
    }
    due = p->t0 + (int64_t) (p->next + 1) * period_ns (f->dev);
    emu_unlock (f->dev);
    if (emu_nonblock (f))
      return -EAGAIN;
    if ((r = emu_wait (f, due)) < 0)
      return r;
  }
  ret = (ssize_t) (n < p->len - p->off ? n : p->len - p->off);
  memcpy (buf, p->frame + p->off, ret);
  p->off += ret;
  emu_unlock (f->dev);
  emu_fault_io_done (f, ret);
  return ret;
}

static short
vbi_poll (struct emu_file *f, short events, int64_t *next_ns)
{
  struct vbi_priv *p = f->priv;
  short rev = 0;

  *next_ns = -1;
  if (!(events & (POLLIN | POLLRDNORM)))
    return 0;
  emu_lock (f->dev);
  if (start (f) == 0) {
    if (p->off < p->len || frames_done (f, emu_now_ns ()) > p->next)
      rev = events & (POLLIN | POLLRDNORM);
    else
      *next_ns = p->t0 + (int64_t) (p->next + 1) * period_ns (f->dev);
  } else {
    rev = POLLERR;
  }
  emu_unlock (f->dev);
  return rev;
}

const struct emu_engine emu_engine_vbi = {
  .name = "vbi",
  .open = vbi_open,
  .close = vbi_close,
  .ioctl = vbi_ioctl,
  .read = vbi_read,
  .poll = vbi_poll,
  .busy = vbi_busy,
};
