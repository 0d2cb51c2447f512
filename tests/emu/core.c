/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* core.c - the ioctls every emulated device answers from its profile:
 * QUERYCAP, priority, inputs/outputs, audio inputs, standards, tuner and
 * frequency, formats and frame sizes/intervals, streaming parameters,
 * LOG_STATUS; controls (ctrls.c) and events (events.c) are dispatched
 * from here.  Engines answer the rest (read, encoder, buffers). */
#include "emu.h"

#include <errno.h>
#include <linux/version.h>
#include <stdio.h>
#include <string.h>

struct std_entry
{
  v4l2_std_id id;
  const char *name;
};

static const struct std_entry stds[] = {
  {V4L2_STD_NTSC_M, "NTSC-M"},
  {V4L2_STD_NTSC_M_JP, "NTSC-M-JP"},
  {V4L2_STD_PAL_M, "PAL-M"},
  {V4L2_STD_PAL_BG, "PAL-BG"},
  {V4L2_STD_PAL_DK, "PAL-DK"},
  {V4L2_STD_PAL_I, "PAL-I"},
  {V4L2_STD_PAL_N, "PAL-N"},
  {V4L2_STD_PAL_Nc, "PAL-Nc"},
  {V4L2_STD_SECAM_DK, "SECAM-DK"},
  {V4L2_STD_SECAM_L, "SECAM-L"},
};

#define N_STDS (sizeof (stds) / sizeof (stds[0]))

static bool
is_output (const struct emu_profile *p)
{
  return p->buf_type == V4L2_BUF_TYPE_VIDEO_OUTPUT;
}

static int
n_inputs (const struct emu_profile *p)
{
  int n = 0;

  while (n < EMU_MAX_INPUTS && p->inputs[n].name)
    n++;
  return n;
}

const struct emu_input *
emu_cur_input (struct emu_device *dev)
{
  return &dev->prof->inputs[dev->card->st->input];
}

/* vivid (drivers/media/test-drivers/vivid/vivid-vid-cap.c,
 * vivid_update_format_cap()): a TV or S-Video input captures 720x480 at
 * 1001/30000 under a 525-line standard, 720x576 at 1/25 otherwise; the
 * webcam input its own discrete sizes. */
bool
emu_size_follows_std (struct emu_device *dev)
{
  return dev->prof->formats[0].size_follows_std ||
      (dev->prof->std_inputs_follow_std && emu_cur_input (dev)->std);
}

/* Is (@w, @h) one of @fmt's sizes?  (A vivid-like card keeps the webcam's
 * size while an SDTV input is selected.) */
static bool
is_listed_size (const struct emu_format *fmt, uint32_t w, uint32_t h)
{
  int i;

  for (i = 0; i < EMU_MAX_SIZES && fmt->sizes[i].width; i++)
    if (fmt->sizes[i].width == w && fmt->sizes[i].height == h)
      return true;
  return false;
}

static bool
node_busy (struct emu_device *dev)
{
  const struct emu_engine *e = dev->prof->engine;

  return e && e->busy && e->busy (dev);
}

/* every stream of the card counts: ivtv_s_std refuses while any of them
 * captures (itv->capturing, ivtv-ioctl.c) */
static bool
dev_busy (struct emu_device *dev)
{
  return node_busy (dev) || (dev->card && emu_card_busy (dev));
}

static long
querycap (struct emu_device *dev, struct v4l2_capability *cap)
{
  const struct emu_profile *p = dev->prof;

  memset (cap, 0, sizeof (*cap));
  snprintf ((char *) cap->driver, sizeof (cap->driver), "%s", p->driver);
  snprintf ((char *) cap->card, sizeof (cap->card), "%s", p->card);
  snprintf ((char *) cap->bus_info, sizeof (cap->bus_info), "%s",
      p->bus_info);
  cap->version = LINUX_VERSION_CODE;
  /* like v4l_querycap(): the core adds EXT_PIX_FORMAT to both */
  cap->device_caps = p->caps | V4L2_CAP_EXT_PIX_FORMAT;
  cap->capabilities = cap->device_caps | V4L2_CAP_DEVICE_CAPS;
  return 0;
}

static long
s_priority (struct emu_file *f, uint32_t *prio)
{
  uint32_t np = *prio;
  long r;

  if (np == V4L2_PRIORITY_UNSET)
    np = V4L2_PRIORITY_DEFAULT;
  if (np > V4L2_PRIORITY_RECORD)
    return -EINVAL;
  emu_lock (f->dev);
  /* S_PRIORITY is itself checked (INFO_FL_PRIO in v4l2-ioctl.c): a handle
   * below the highest priority held cannot change its own */
  if ((r = emu_prio_check (f)) == 0)
    emu_prio_set (f, np);
  emu_unlock (f->dev);
  return r;
}

static long
g_priority (struct emu_file *f, uint32_t *prio)
{
  uint32_t max = emu_prio_max (f->dev);

  /* the kernel's maximum counts this handle too */
  *prio = max > f->prio ? max : f->prio;
  return 0;
}

/* ---- inputs / outputs ---- */

static long
enuminput (struct emu_device *dev, struct v4l2_input *in)
{
  const struct emu_profile *p = dev->prof;
  const struct emu_input *src;
  uint32_t idx = in->index;

  if (idx >= (uint32_t) n_inputs (p))
    return -EINVAL;
  src = &p->inputs[idx];
  memset (in, 0, sizeof (*in));
  in->index = idx;
  snprintf ((char *) in->name, sizeof (in->name), "%s", src->name);
  in->type = src->type;
  in->audioset = src->audioset;
  in->tuner = src->tuner;
  in->std = src->std;
  in->capabilities = src->capabilities;
  if (idx == dev->card->st->input && emu_fault_no_signal (dev))
    in->status = V4L2_IN_ST_NO_SIGNAL | V4L2_IN_ST_NO_H_LOCK;
  return 0;
}

static long
enumoutput (struct emu_device *dev, struct v4l2_output *out)
{
  const struct emu_profile *p = dev->prof;
  const struct emu_input *src;
  uint32_t idx = out->index;

  if (idx >= (uint32_t) n_inputs (p))
    return -EINVAL;
  src = &p->inputs[idx];
  memset (out, 0, sizeof (*out));
  out->index = idx;
  snprintf ((char *) out->name, sizeof (out->name), "%s", src->name);
  out->type = src->type;
  out->audioset = src->audioset;
  out->std = src->std;
  out->capabilities = src->capabilities;
  return 0;
}

static long
s_input (struct emu_file *f, uint32_t *idx)
{
  struct emu_device *dev = f->dev;
  const struct emu_input *in;
  struct v4l2_event ev = {.type = V4L2_EVENT_SOURCE_CHANGE };
  bool changed;
  long r;

  if (*idx >= (uint32_t) n_inputs (dev->prof))
    return -EINVAL;
  if ((r = emu_prio_check (f)) < 0)
    return r;
  in = &dev->prof->inputs[*idx];
  emu_lock (dev);
  changed = *idx != dev->card->st->input;
  /* vivid's vidioc_s_input(): EBUSY while buffers exist (its inputs have
   * other formats); ivtv and bttv switch while capturing */
  if (changed && dev->prof->std_inputs_follow_std && dev_busy (dev)) {
    emu_unlock (dev);
    return -EBUSY;
  }
  if (changed) {
    dev->card->st->input = *idx;
    /* like ivtv: the input brings its own audio input */
    if (in->audioset)
      dev->card->st->audio_input = __builtin_ctz (in->audioset);
    if (in->std && !(dev->card->st->std & in->std))
      dev->card->st->std = in->std & dev->prof->def_std ? dev->prof->def_std :
          in->std;
    dev->st->gen++;
  }
  emu_unlock (dev);
  /* the picture now comes from another source: subscribers of that
   * input's SOURCE_CHANGE are told to look at the format again */
  if (changed && (dev->prof->events & (1u << V4L2_EVENT_SOURCE_CHANGE))) {
    ev.id = *idx;
    ev.u.src_change.changes = V4L2_EVENT_SRC_CH_RESOLUTION;
    emu_event_broadcast (dev, &ev, NULL);
  }
  emu_wake (dev);
  return 0;
}

/* ---- audio inputs ---- */

static int
n_audios (const struct emu_profile *p)
{
  int n = 0;

  while (n < EMU_MAX_AUDIO && p->audios[n].name)
    n++;
  return n;
}

static void
fill_audio (const struct emu_profile *p, uint32_t idx, struct v4l2_audio *a)
{
  memset (a, 0, sizeof (*a));
  a->index = idx;
  snprintf ((char *) a->name, sizeof (a->name), "%s", p->audios[idx].name);
  a->capability = p->audios[idx].capability;
}

static long
audio_ioctl (struct emu_file *f, unsigned long req, struct v4l2_audio *a)
{
  struct emu_device *dev = f->dev;
  const struct emu_profile *p = dev->prof;
  long r;

  if (!n_audios (p))
    return EMU_NEXT;
  switch (req) {
    case VIDIOC_ENUMAUDIO:
      if (a->index >= (uint32_t) n_audios (p))
        return -EINVAL;
      fill_audio (p, a->index, a);
      return 0;
    case VIDIOC_G_AUDIO:
      fill_audio (p, dev->card->st->audio_input, a);
      return 0;
    case VIDIOC_S_AUDIO:
      if (a->index >= (uint32_t) n_audios (p))
        return -EINVAL;
      if (!(emu_cur_input (dev)->audioset & (1u << a->index)))
        return -EINVAL;
      if ((r = emu_prio_check (f)) < 0)
        return r;
      emu_lock (dev);
      dev->card->st->audio_input = a->index;
      dev->st->gen++;
      emu_unlock (dev);
      return 0;
    default:
      return EMU_NEXT;
  }
}

/* ---- standards ---- */

static long
enumstd (struct emu_device *dev, struct v4l2_standard *s)
{
  v4l2_std_id mask = emu_cur_input (dev)->std;
  uint32_t idx = s->index, n = 0;
  size_t i;

  if (!mask)
    return -ENODATA;            /* an input without standards (v4l_enumstd()
                                 * in v4l2-ioctl.c: tvnorms 0) */
  for (i = 0; i < N_STDS; i++) {
    if (!(stds[i].id & mask))
      continue;
    if (n++ != idx)
      continue;
    memset (s, 0, sizeof (*s));
    s->index = idx;
    s->id = stds[i].id & mask;
    snprintf ((char *) s->name, sizeof (s->name), "%s", stds[i].name);
    if (stds[i].id & V4L2_STD_525_60) {
      s->frameperiod.numerator = 1001;
      s->frameperiod.denominator = 30000;
      s->framelines = 525;
    } else {
      s->frameperiod.numerator = 1;
      s->frameperiod.denominator = 25;
      s->framelines = 625;
    }
    return 0;
  }
  return -EINVAL;
}

static long
std_ioctl (struct emu_file *f, unsigned long req, v4l2_std_id *std)
{
  struct emu_device *dev = f->dev;
  v4l2_std_id mask = emu_cur_input (dev)->std;
  v4l2_std_id want;
  long r;

  if (!dev->prof->def_std)
    return EMU_NEXT;
  if (!mask)
    return -ENODATA;
  switch (req) {
    case VIDIOC_G_STD:
      *std = dev->card->st->std;
      return 0;
    case VIDIOC_S_STD:
      want = *std & mask;
      if (!want)
        return -EINVAL;
      if ((r = emu_prio_check (f)) < 0)
        return r;
      emu_lock (dev);
      if (dev_busy (dev) && want != dev->card->st->std) {
        emu_unlock (dev);
        return -EBUSY;
      }
      /* like the kernel helpers: keep one family, prefer a single std */
      if ((want & V4L2_STD_525_60) && (want & V4L2_STD_625_50))
        want &= (dev->card->st->std & V4L2_STD_525_60) ? V4L2_STD_525_60 :
            V4L2_STD_625_50;
      dev->card->st->std = want;
      dev->card->st->detected_std = want;
      dev->st->gen++;
      emu_unlock (dev);
      return 0;
    case VIDIOC_QUERYSTD:
      if (emu_fault_no_signal (dev))
        *std = V4L2_STD_UNKNOWN;
      else
        *std = dev->card->st->detected_std & mask;
      return 0;
    default:
      return EMU_NEXT;
  }
}

/* ---- tuner ---- */

static long
tuner_ioctl (struct emu_file *f, unsigned long req, void *arg)
{
  struct emu_device *dev = f->dev;
  const struct emu_tuner *t = &dev->prof->tuner;
  long r;

  if (!t->name)
    return EMU_NEXT;
  switch (req) {
    case VIDIOC_G_TUNER:{
      struct v4l2_tuner *tu = arg;

      if (tu->index != 0)
        return -EINVAL;
      memset (tu, 0, sizeof (*tu));
      snprintf ((char *) tu->name, sizeof (tu->name), "%s", t->name);
      tu->type = t->type;
      /* v4l_g_tuner() adds FREQ_BANDS: the core answers ENUM_FREQ_BANDS */
      tu->capability = t->capability | V4L2_TUNER_CAP_FREQ_BANDS;
      tu->rangelow = t->rangelow;
      tu->rangehigh = t->rangehigh;
      tu->rxsubchans = t->rxsubchans;
      tu->audmode = dev->card->st->audmode;
      tu->signal = emu_fault_no_signal (dev) ? 0 : 0xffff;
      return 0;
    }
    case VIDIOC_S_TUNER:{
      struct v4l2_tuner *tu = arg;

      if (tu->index != 0)
        return -EINVAL;
      if ((r = emu_prio_check (f)) < 0)
        return r;
      if (tu->audmode > V4L2_TUNER_MODE_LANG1_LANG2)
        return -EINVAL;
      dev->card->st->audmode = tu->audmode;
      return 0;
    }
    case VIDIOC_G_FREQUENCY:{
      struct v4l2_frequency *fr = arg;

      if (fr->tuner != 0)
        return -EINVAL;
      memset (fr->reserved, 0, sizeof (fr->reserved));
      fr->type = t->type;
      fr->frequency = dev->card->st->frequency;
      return 0;
    }
    case VIDIOC_S_FREQUENCY:{
      struct v4l2_frequency *fr = arg;
      uint32_t fq = fr->frequency;

      if (fr->tuner != 0 || fr->type != t->type)
        return -EINVAL;
      if ((r = emu_prio_check (f)) < 0)
        return r;
      if (fq < t->rangelow)
        fq = t->rangelow;
      if (fq > t->rangehigh)
        fq = t->rangehigh;
      emu_lock (dev);
      dev->card->st->frequency = fq;
      dev->st->gen++;
      emu_unlock (dev);
      return 0;
    }
    case VIDIOC_ENUM_FREQ_BANDS:{
      /* what v4l_enum_freq_bands() makes of G_TUNER for a driver
       * without bands (ivtv, bttv): one band */
      struct v4l2_frequency_band *b = arg;

      if (b->tuner != 0 || b->index != 0 || b->type != t->type)
        return -EINVAL;
      b->capability = t->capability | V4L2_TUNER_CAP_FREQ_BANDS;
      b->rangelow = t->rangelow;
      b->rangehigh = t->rangehigh;
      b->modulation = V4L2_BAND_MODULATION_VSB;
      memset (b->reserved, 0, sizeof (b->reserved));
      return 0;
    }
    default:
      return EMU_NEXT;
  }
}

/* ---- formats ---- */

static const struct emu_format *
find_format (const struct emu_profile *p, uint32_t pixfmt)
{
  int i;

  for (i = 0; i < EMU_MAX_FORMATS && p->formats[i].pixelformat; i++)
    if (p->formats[i].pixelformat == pixfmt)
      return &p->formats[i];
  return NULL;
}

static void
fill_pix (const struct emu_format *fmt, uint32_t w, uint32_t h,
    v4l2_std_id std, struct v4l2_pix_format *pix)
{
  memset (pix, 0, sizeof (*pix));
  pix->pixelformat = fmt->pixelformat;
  pix->width = w;
  pix->height = h;
  pix->colorspace = V4L2_COLORSPACE_SMPTE170M;
  pix->field = V4L2_FIELD_NONE;
  if (fmt->size_follows_std)
    pix->field = V4L2_FIELD_INTERLACED;
  else if (std)
    pix->field = V4L2_FIELD_INTERLACED;
  switch (fmt->pixelformat) {
    case V4L2_PIX_FMT_YUYV:
    case V4L2_PIX_FMT_UYVY:
      pix->bytesperline = w * 2;
      pix->sizeimage = w * 2 * h;
      break;
    case V4L2_PIX_FMT_NV12:
    case V4L2_PIX_FMT_YUV420:
    case V4L2_PIX_FMT_HM12:    /* ivtv_g_fmt_vid_cap(): bytesperline 720 */
      pix->bytesperline = w;
      pix->sizeimage = w * h * 3 / 2;
      break;
    default:
      pix->bytesperline = 0;
      pix->sizeimage = fmt->sizeimage ? fmt->sizeimage : w * h;
      break;
  }
  if (fmt->pixelformat == V4L2_PIX_FMT_MJPEG)
    pix->colorspace = V4L2_COLORSPACE_JPEG;
  if (!std && fmt->pixelformat != V4L2_PIX_FMT_MJPEG &&
      !fmt->size_follows_std)
    pix->colorspace = V4L2_COLORSPACE_SRGB;
}

void
emu_core_get_format (struct emu_device *dev, struct v4l2_format *f)
{
  const struct emu_profile *p = dev->prof;
  const struct emu_format *fmt = find_format (p, dev->st->pixelformat);
  uint32_t w = dev->st->width, h = dev->st->height;
  v4l2_std_id std = emu_cur_input (dev)->std ? dev->card->st->std : 0;

  if (!fmt)
    fmt = &p->formats[0];
  if (emu_size_follows_std (dev)) {
    w = 720;
    h = (dev->card->st->std & V4L2_STD_525_60) ? 480 : 576;
  } else if (p->std_inputs_follow_std && !is_listed_size (fmt, w, h)) {
    w = fmt->sizes[0].width;
    h = fmt->sizes[0].height;
  }
  memset (f, 0, sizeof (*f));
  f->type = p->buf_type;
  fill_pix (fmt, w, h, std, &f->fmt.pix);
}

static long
fmt_ioctl (struct emu_file *f, unsigned long req, struct v4l2_format *vf)
{
  struct emu_device *dev = f->dev;
  const struct emu_profile *p = dev->prof;
  const struct emu_format *fmt;
  const struct emu_frmsize *best = NULL;
  struct v4l2_pix_format *pix = &vf->fmt.pix;
  uint32_t w, h;
  long r;
  int i;

  if (vf->type != p->buf_type)
    return -EINVAL;
  if (req == VIDIOC_G_FMT) {
    emu_core_get_format (dev, vf);
    return 0;
  }
  fmt = find_format (p, pix->pixelformat);
  if (!fmt)
    fmt = &p->formats[0];
  if (emu_size_follows_std (dev)) {
    struct v4l2_format cur;

    emu_core_get_format (dev, &cur);
    w = cur.fmt.pix.width;
    h = cur.fmt.pix.height;
  } else {
    uint64_t bestd = UINT64_MAX;

    for (i = 0; i < EMU_MAX_SIZES && fmt->sizes[i].width; i++) {
      int64_t dw = (int64_t) fmt->sizes[i].width - pix->width;
      int64_t dh = (int64_t) fmt->sizes[i].height - pix->height;
      uint64_t d = (uint64_t) (dw * dw + dh * dh);

      if (d < bestd) {
        bestd = d;
        best = &fmt->sizes[i];
      }
    }
    w = best->width;
    h = best->height;
  }
  fill_pix (fmt, w, h, emu_cur_input (dev)->std ? dev->card->st->std : 0, pix);
  if (req == VIDIOC_TRY_FMT)
    return 0;
  if ((r = emu_prio_check (f)) < 0)
    return r;
  emu_lock (dev);
  if (dev_busy (dev) && (fmt->pixelformat != dev->st->pixelformat ||
          (!emu_size_follows_std (dev) && (w != dev->st->width ||
                  h != dev->st->height)))) {
    emu_unlock (dev);
    return -EBUSY;
  }
  dev->st->pixelformat = fmt->pixelformat;
  if (best || !p->std_inputs_follow_std) {
    dev->st->width = w;         /* vivid-like: the webcam's size is kept */
    dev->st->height = h;
  }
  if (best) {
    bool ok = false;

    for (i = 0; i < EMU_MAX_INTERVALS && best->intervals[i].numerator; i++)
      if (best->intervals[i].numerator == dev->st->interval.numerator &&
          best->intervals[i].denominator == dev->st->interval.denominator)
        ok = true;
    if (!ok)
      dev->st->interval = best->intervals[0];
  }
  dev->st->gen++;
  emu_unlock (dev);
  return 0;
}

static long
enum_fmt (struct emu_device *dev, struct v4l2_fmtdesc *d)
{
  const struct emu_profile *p = dev->prof;
  const struct emu_format *fmt;
  uint32_t idx = d->index, type = d->type;

  if (type != p->buf_type || idx >= EMU_MAX_FORMATS ||
      !p->formats[idx].pixelformat)
    return -EINVAL;
  fmt = &p->formats[idx];
  memset (d, 0, sizeof (*d));
  d->index = idx;
  d->type = type;
  d->flags = fmt->flags;
  d->pixelformat = fmt->pixelformat;
  snprintf ((char *) d->description, sizeof (d->description), "%s",
      fmt->description);
  return 0;
}

static long
enum_framesizes (struct emu_device *dev, struct v4l2_frmsizeenum *fs)
{
  const struct emu_format *fmt = find_format (dev->prof, fs->pixel_format);
  uint32_t idx = fs->index, pf = fs->pixel_format;

  if (!fmt || idx >= EMU_MAX_SIZES || !fmt->sizes[idx].width)
    return -EINVAL;
  memset (fs, 0, sizeof (*fs));
  fs->index = idx;
  fs->pixel_format = pf;
  fs->type = V4L2_FRMSIZE_TYPE_DISCRETE;
  fs->discrete.width = fmt->sizes[idx].width;
  fs->discrete.height = fmt->sizes[idx].height;
  return 0;
}

static const struct emu_frmsize *
find_size (const struct emu_format *fmt, uint32_t w, uint32_t h)
{
  int i;

  for (i = 0; fmt && i < EMU_MAX_SIZES && fmt->sizes[i].width; i++)
    if (fmt->sizes[i].width == w && fmt->sizes[i].height == h)
      return &fmt->sizes[i];
  return NULL;
}

static long
enum_frameintervals (struct emu_device *dev, struct v4l2_frmivalenum *fi)
{
  const struct emu_format *fmt = find_format (dev->prof, fi->pixel_format);
  const struct emu_frmsize *sz = find_size (fmt, fi->width, fi->height);
  struct v4l2_frmivalenum out;

  if (!sz || fi->index >= EMU_MAX_INTERVALS ||
      !sz->intervals[fi->index].numerator)
    return -EINVAL;
  memset (&out, 0, sizeof (out));
  out.index = fi->index;
  out.pixel_format = fi->pixel_format;
  out.width = fi->width;
  out.height = fi->height;
  out.type = V4L2_FRMIVAL_TYPE_DISCRETE;
  out.discrete = sz->intervals[fi->index];
  *fi = out;
  return 0;
}

static long
parm_ioctl (struct emu_file *f, unsigned long req, struct v4l2_streamparm *sp)
{
  struct emu_device *dev = f->dev;
  const struct emu_profile *p = dev->prof;
  const struct emu_format *fmt = find_format (p, dev->st->pixelformat);
  const struct emu_frmsize *sz;
  struct v4l2_captureparm *cp = &sp->parm.capture;
  long r;
  int i;

  if (sp->type != p->buf_type || p->buf_type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
    return -EINVAL;
  sz = find_size (fmt, dev->st->width, dev->st->height);
  if (req == VIDIOC_S_PARM && sz) {
    const struct v4l2_fract *want = &cp->timeperframe;
    double wv, bestd = 1e30;
    int best = 0;

    if ((r = emu_prio_check (f)) < 0)
      return r;
    wv = want->denominator ? (double) want->numerator / want->denominator :
        0;
    for (i = 0; i < EMU_MAX_INTERVALS && sz->intervals[i].numerator; i++) {
      double v = (double) sz->intervals[i].numerator /
          sz->intervals[i].denominator;
      double d = v > wv ? v - wv : wv - v;

      if (d < bestd) {
        bestd = d;
        best = i;
      }
    }
    emu_lock (dev);
    if (dev_busy (dev) &&
        (sz->intervals[best].numerator != dev->st->interval.numerator ||
            sz->intervals[best].denominator != dev->st->interval.denominator)) {
      emu_unlock (dev);
      return -EBUSY;
    }
    dev->st->interval = sz->intervals[best];
    emu_unlock (dev);
  }
  memset (&sp->parm, 0, sizeof (sp->parm));
  cp->capability = sz ? V4L2_CAP_TIMEPERFRAME : 0;
  cp->timeperframe = dev->st->interval;
  if (!sz || !cp->timeperframe.numerator) {
    cp->timeperframe.numerator = (dev->card->st->std & V4L2_STD_525_60) ? 1001 : 1;
    cp->timeperframe.denominator =
        (dev->card->st->std & V4L2_STD_525_60) ? 30000 : 25;
  }
  cp->readbuffers = (p->caps & V4L2_CAP_READWRITE) ? 2 : 0;
  return 0;
}

/* ---- dispatch ---- */

long
emu_core_ioctl (struct emu_file *f, unsigned long req, void *arg)
{
  struct emu_device *dev = f->dev;
  const struct emu_profile *p = dev->prof;
  bool out = is_output (p);
  long r;

  if ((r = emu_ctrls_ioctl (f, req, arg)) != EMU_NEXT)
    return r;
  if ((r = emu_events_ioctl (f, req, arg)) != EMU_NEXT)
    return r;
  switch (req) {
    case VIDIOC_QUERYCAP:
      return querycap (dev, arg);
    case VIDIOC_G_PRIORITY:
      return g_priority (f, arg);
    case VIDIOC_S_PRIORITY:
      return s_priority (f, arg);
    case VIDIOC_ENUMINPUT:
      return out ? EMU_NEXT : enuminput (dev, arg);
    case VIDIOC_G_INPUT:
      if (out)
        return EMU_NEXT;
      *(uint32_t *) arg = dev->card->st->input;
      return 0;
    case VIDIOC_S_INPUT:
      return out ? EMU_NEXT : s_input (f, arg);
    case VIDIOC_ENUMOUTPUT:
      return out ? enumoutput (dev, arg) : EMU_NEXT;
    case VIDIOC_G_OUTPUT:
      if (!out)
        return EMU_NEXT;
      *(uint32_t *) arg = dev->card->st->input;
      return 0;
    case VIDIOC_S_OUTPUT:
      return out ? s_input (f, arg) : EMU_NEXT;
    case VIDIOC_ENUMAUDIO:
    case VIDIOC_G_AUDIO:
    case VIDIOC_S_AUDIO:
      return audio_ioctl (f, req, arg);
    case VIDIOC_ENUMSTD:
      if (!p->def_std)
        return EMU_NEXT;
      return enumstd (dev, arg);
    case VIDIOC_QUERYSTD:
      /* an output has nothing to detect (ENOTTY, as v4l2-ioctl.c) */
      return out ? EMU_NEXT : std_ioctl (f, req, arg);
    case VIDIOC_G_STD:
    case VIDIOC_S_STD:
      return std_ioctl (f, req, arg);
    case VIDIOC_G_TUNER:
    case VIDIOC_S_TUNER:
    case VIDIOC_G_FREQUENCY:
    case VIDIOC_S_FREQUENCY:
    case VIDIOC_ENUM_FREQ_BANDS:
      return tuner_ioctl (f, req, arg);
    case VIDIOC_ENUM_FMT:
      return enum_fmt (dev, arg);
    case VIDIOC_G_FMT:
    case VIDIOC_TRY_FMT:
    case VIDIOC_S_FMT:
      return fmt_ioctl (f, req, arg);
    case VIDIOC_ENUM_FRAMESIZES:
      if (emu_size_follows_std (dev))
        return EMU_NEXT;
      return enum_framesizes (dev, arg);
    case VIDIOC_ENUM_FRAMEINTERVALS:
      if (emu_size_follows_std (dev))
        return EMU_NEXT;
      return enum_frameintervals (dev, arg);
    case VIDIOC_G_PARM:
    case VIDIOC_S_PARM:
      if (emu_size_follows_std (dev) || out)
        return EMU_NEXT;
      return parm_ioctl (f, req, arg);
    case VIDIOC_LOG_STATUS:
      return 0;
    default:
      return EMU_NEXT;
  }
}
