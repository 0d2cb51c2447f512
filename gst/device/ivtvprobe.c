/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — probing the card into plain structs (see ivtvprobe.h).
 * Read-only: only G_* / ENUM* / QUERY* ioctls are issued here. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvprobe.h"
#include "ivtvdebug.h"

#include <errno.h>
#include <string.h>

#define GST_CAT_DEFAULT ivtv_debug

#define COPY_NAME(dst, src) \
  ivtv_device_copy_name ((dst), sizeof (dst), (src), sizeof (src))

void
ivtv_probe_init (IvtvProbe * probe)
{
  memset (probe, 0, sizeof (*probe));
  probe->current_input = -1;
  probe->current_audio = -1;
}

/* ---- inputs ---- */

void
ivtv_probe_inputs (IvtvProbe * probe, IvtvDevice * dev)
{
  guint32 i;
  int cur = -1;

  g_free (probe->inputs);
  probe->inputs = NULL;
  probe->n_inputs = 0;
  probe->current_input = -1;

  probe->inputs = g_new0 (IvtvInput, IVTV_PROBE_MAX_INPUTS);
  for (i = 0; i < IVTV_PROBE_MAX_INPUTS; i++) {
    struct v4l2_input in;
    IvtvInput *o = &probe->inputs[probe->n_inputs];

    memset (&in, 0, sizeof (in));
    in.index = i;
    if (ivtv_ioctl (dev, VIDIOC_ENUMINPUT, &in) < 0)
      break;
    if (in.index != i) {
      GST_WARNING_OBJECT (dev->owner, "ENUMINPUT %u answered index %u; "
          "stopping", i, in.index);
      break;
    }
    o->index = i;
    COPY_NAME (o->name, in.name);
    if (o->name[0] == '\0')
      g_snprintf (o->name, sizeof (o->name), "Input %u", i);
    o->type = in.type;
    o->tuner = in.tuner;
    o->std = in.std;
    o->status = in.status;
    probe->n_inputs++;
  }
  if (i == IVTV_PROBE_MAX_INPUTS)
    GST_WARNING_OBJECT (dev->owner, "more than %d inputs; ignoring the rest",
        IVTV_PROBE_MAX_INPUTS);

  if (ivtv_ioctl (dev, VIDIOC_G_INPUT, &cur) == 0 && cur >= 0
      && (guint) cur < probe->n_inputs)
    probe->current_input = cur;
}

void
ivtv_probe_audios (IvtvProbe * probe, IvtvDevice * dev)
{
  guint32 i;
  struct v4l2_audio cur;

  g_free (probe->audios);
  probe->audios = NULL;
  probe->n_audios = 0;
  probe->current_audio = -1;

  if (!ivtv_device_has_cap (dev, V4L2_CAP_AUDIO))
    return;

  probe->audios = g_new0 (IvtvAudioInput, IVTV_PROBE_MAX_AUDIOS);
  for (i = 0; i < IVTV_PROBE_MAX_AUDIOS; i++) {
    struct v4l2_audio a;
    IvtvAudioInput *o = &probe->audios[probe->n_audios];

    memset (&a, 0, sizeof (a));
    a.index = i;
    if (ivtv_ioctl (dev, VIDIOC_ENUMAUDIO, &a) < 0)
      break;
    if (a.index != i)
      break;
    o->index = i;
    COPY_NAME (o->name, a.name);
    if (o->name[0] == '\0')
      g_snprintf (o->name, sizeof (o->name), "Audio %u", i);
    o->mode = a.mode;
    probe->n_audios++;
  }

  memset (&cur, 0, sizeof (cur));
  if (ivtv_ioctl (dev, VIDIOC_G_AUDIO, &cur) == 0
      && cur.index < probe->n_audios)
    probe->current_audio = cur.index;
}

/* ---- standards ---- */

void
ivtv_probe_standards (IvtvProbe * probe, IvtvDevice * dev)
{
  guint32 i;
  v4l2_std_id cur = 0;

  g_free (probe->stds);
  probe->stds = NULL;
  probe->n_stds = 0;
  probe->current_std = 0;

  probe->stds = g_new0 (IvtvStandard, IVTV_PROBE_MAX_STDS);
  for (i = 0; i < IVTV_PROBE_MAX_STDS; i++) {
    struct v4l2_standard s;
    IvtvStandard *o = &probe->stds[probe->n_stds];
    guint k;
    gboolean dup = FALSE;

    memset (&s, 0, sizeof (s));
    s.index = i;
    if (ivtv_ioctl (dev, VIDIOC_ENUMSTD, &s) < 0)
      break;
    if (s.index != i || s.id == 0)
      break;
    for (k = 0; k < probe->n_stds; k++)
      if (probe->stds[k].id == s.id)
        dup = TRUE;
    if (dup) {
      GST_DEBUG_OBJECT (dev->owner, "ENUMSTD %u repeats a standard", i);
      continue;
    }
    o->index = i;
    o->id = s.id;
    COPY_NAME (o->name, s.name);
    if (o->name[0] == '\0')
      g_snprintf (o->name, sizeof (o->name), "std-%016" G_GINT64_MODIFIER
          "x", (guint64) s.id);
    /* frameperiod is seconds per frame: the rate is its inverse */
    if (s.frameperiod.numerator > 0 && s.frameperiod.denominator > 0
        && s.frameperiod.numerator <= G_MAXINT
        && s.frameperiod.denominator <= G_MAXINT) {
      o->fps_n = s.frameperiod.denominator;
      o->fps_d = s.frameperiod.numerator;
    } else {
      o->fps_n = 0;
      o->fps_d = 1;
    }
    probe->n_stds++;
  }

  if (ivtv_ioctl (dev, VIDIOC_G_STD, &cur) == 0)
    probe->current_std = cur;
}

/* ---- tuner ---- */

void
ivtv_probe_tuner (IvtvProbe * probe, IvtvDevice * dev)
{
  IvtvTuner *t = &probe->tuner;
  const IvtvInput *in;
  struct v4l2_tuner vt;
  struct v4l2_frequency f;

  memset (t, 0, sizeof (*t));
  if (!ivtv_device_has_cap (dev, V4L2_CAP_TUNER) || probe->current_input < 0)
    return;
  in = ivtv_probe_find_input (probe, probe->current_input);
  if (in == NULL || in->type != V4L2_INPUT_TYPE_TUNER)
    return;

  memset (&vt, 0, sizeof (vt));
  vt.index = in->tuner;
  if (ivtv_ioctl (dev, VIDIOC_G_TUNER, &vt) < 0)
    return;

  t->present = TRUE;
  t->index = in->tuner;
  COPY_NAME (t->name, vt.name);
  t->type = vt.type;
  t->rangelow = vt.rangelow;
  t->rangehigh = vt.rangehigh;
  if (vt.capability & V4L2_TUNER_CAP_1HZ)
    t->unit_hz_x16 = 16;
  else if (vt.capability & V4L2_TUNER_CAP_LOW)
    t->unit_hz_x16 = 1000;
  else
    t->unit_hz_x16 = 1000000;

  memset (&f, 0, sizeof (f));
  f.tuner = in->tuner;
  if (ivtv_ioctl (dev, VIDIOC_G_FREQUENCY, &f) == 0)
    t->frequency = f.frequency;
}

guint32
ivtv_tuner_hz_to_units (const IvtvTuner * tuner, guint64 hz)
{
  guint64 u;

  if (!tuner->present || tuner->unit_hz_x16 == 0)
    return 0;
  /* rounded to the nearest unit; beyond 2^60 Hz hz * 16 would wrap */
  if (hz > (G_MAXUINT64 - tuner->unit_hz_x16) / 16)
    return G_MAXUINT32;
  u = (hz * 16 + tuner->unit_hz_x16 / 2) / tuner->unit_hz_x16;
  return u > G_MAXUINT32 ? G_MAXUINT32 : (guint32) u;
}

guint64
ivtv_tuner_units_to_hz (const IvtvTuner * tuner, guint32 units)
{
  if (!tuner->present || tuner->unit_hz_x16 == 0)
    return 0;
  return ((guint64) units * tuner->unit_hz_x16 + 8) / 16;
}

/* ---- formats ---- */

static void
probe_intervals (IvtvDevice * dev, guint32 fourcc, guint32 w, guint32 h,
    IvtvIntervals * out)
{
  guint32 i;

  memset (out, 0, sizeof (*out));
  for (i = 0; i < IVTV_PROBE_MAX_INTERVALS; i++) {
    struct v4l2_frmivalenum fi;

    memset (&fi, 0, sizeof (fi));
    fi.index = i;
    fi.pixel_format = fourcc;
    fi.width = w;
    fi.height = h;
    if (ivtv_ioctl (dev, VIDIOC_ENUM_FRAMEINTERVALS, &fi) < 0)
      break;

    if (fi.type == V4L2_FRMIVAL_TYPE_DISCRETE) {
      if (fi.discrete.numerator == 0 || fi.discrete.denominator == 0)
        continue;               /* nonsense: skip it */
      if (out->discrete == NULL)
        out->discrete = g_new0 (IvtvFraction, IVTV_PROBE_MAX_INTERVALS);
      out->type = V4L2_FRMIVAL_TYPE_DISCRETE;
      out->discrete[out->n_discrete].num = fi.discrete.numerator;
      out->discrete[out->n_discrete].den = fi.discrete.denominator;
      out->n_discrete++;
    } else if (i == 0 && (fi.type == V4L2_FRMIVAL_TYPE_STEPWISE
            || fi.type == V4L2_FRMIVAL_TYPE_CONTINUOUS)) {
      if (fi.stepwise.min.denominator == 0 || fi.stepwise.max.denominator == 0)
        break;
      out->type = fi.type;
      out->min.num = fi.stepwise.min.numerator;
      out->min.den = fi.stepwise.min.denominator;
      out->max.num = fi.stepwise.max.numerator;
      out->max.den = fi.stepwise.max.denominator;
      out->step.num = fi.stepwise.step.numerator;
      out->step.den = fi.stepwise.step.denominator;
      break;                    /* only index 0 is valid for these */
    } else {
      break;
    }
  }
}

static void
probe_sizes (IvtvDevice * dev, IvtvFormat * fmt)
{
  guint32 i;

  for (i = 0; i < IVTV_PROBE_MAX_SIZES; i++) {
    struct v4l2_frmsizeenum fs;

    memset (&fs, 0, sizeof (fs));
    fs.index = i;
    fs.pixel_format = fmt->pixelformat;
    if (ivtv_ioctl (dev, VIDIOC_ENUM_FRAMESIZES, &fs) < 0)
      break;

    if (fs.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
      IvtvFrameSize *s;

      if (fs.discrete.width == 0 || fs.discrete.height == 0)
        continue;
      if (fmt->sizes == NULL)
        fmt->sizes = g_new0 (IvtvFrameSize, IVTV_PROBE_MAX_SIZES);
      fmt->size_type = V4L2_FRMSIZE_TYPE_DISCRETE;
      s = &fmt->sizes[fmt->n_sizes++];
      s->width = fs.discrete.width;
      s->height = fs.discrete.height;
      probe_intervals (dev, fmt->pixelformat, s->width, s->height,
          &s->intervals);
    } else if (i == 0 && (fs.type == V4L2_FRMSIZE_TYPE_STEPWISE
            || fs.type == V4L2_FRMSIZE_TYPE_CONTINUOUS)) {
      if (fs.stepwise.min_width == 0 || fs.stepwise.min_height == 0
          || fs.stepwise.max_width < fs.stepwise.min_width
          || fs.stepwise.max_height < fs.stepwise.min_height)
        break;
      fmt->size_type = fs.type;
      fmt->stepwise = fs.stepwise;
      probe_intervals (dev, fmt->pixelformat, fs.stepwise.max_width,
          fs.stepwise.max_height, &fmt->stepwise_intervals);
      break;
    } else {
      break;
    }
  }
}

static void
free_intervals (IvtvIntervals * iv)
{
  g_free (iv->discrete);
  iv->discrete = NULL;
  iv->n_discrete = 0;
}

static void
free_formats (IvtvProbe * probe)
{
  guint i, k;

  for (i = 0; i < probe->n_formats; i++) {
    IvtvFormat *f = &probe->formats[i];
    for (k = 0; k < f->n_sizes; k++)
      free_intervals (&f->sizes[k].intervals);
    g_free (f->sizes);
    free_intervals (&f->stepwise_intervals);
  }
  g_free (probe->formats);
  probe->formats = NULL;
  probe->n_formats = 0;
}

void
ivtv_probe_formats (IvtvProbe * probe, IvtvDevice * dev)
{
  guint32 i;

  free_formats (probe);
  probe->formats = g_new0 (IvtvFormat, IVTV_PROBE_MAX_FORMATS);
  for (i = 0; i < IVTV_PROBE_MAX_FORMATS; i++) {
    struct v4l2_fmtdesc d;
    IvtvFormat *f = &probe->formats[probe->n_formats];
    guint k;
    gboolean dup = FALSE;

    memset (&d, 0, sizeof (d));
    d.index = i;
    d.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (ivtv_ioctl (dev, VIDIOC_ENUM_FMT, &d) < 0)
      break;
    if (d.index != i || d.pixelformat == 0)
      break;
    for (k = 0; k < probe->n_formats; k++)
      if (probe->formats[k].pixelformat == d.pixelformat)
        dup = TRUE;
    if (dup)
      continue;
    f->index = i;
    f->pixelformat = d.pixelformat;
    f->flags = d.flags;
    probe_sizes (dev, f);
    probe->n_formats++;
  }
}

/* ---- controls ---- */

static void
probe_menu (IvtvDevice * dev, IvtvControl * c)
{
  gint64 v;

  if (c->type != V4L2_CTRL_TYPE_MENU && c->type != V4L2_CTRL_TYPE_INTEGER_MENU)
    return;
  if (c->minimum < 0 || c->maximum < c->minimum)
    return;
  c->menu = g_new0 (IvtvMenuItem, IVTV_PROBE_MAX_MENU);
  for (v = c->minimum; v <= c->maximum && c->n_menu < IVTV_PROBE_MAX_MENU
      && v - c->minimum < 4 * IVTV_PROBE_MAX_MENU; v++) {
    struct v4l2_querymenu m;
    IvtvMenuItem *o = &c->menu[c->n_menu];

    memset (&m, 0, sizeof (m));
    m.id = c->id;
    m.index = (guint32) v;
    if (ivtv_ioctl (dev, VIDIOC_QUERYMENU, &m) < 0)
      continue;                 /* holes in menus are allowed */
    o->index = (guint32) v;
    if (c->type == V4L2_CTRL_TYPE_MENU) {
      COPY_NAME (o->name, m.name);
      o->value = v;
    } else {
      o->value = m.value;
    }
    c->n_menu++;
  }
}

static void
free_controls (IvtvProbe * probe)
{
  guint i;

  for (i = 0; i < probe->n_controls; i++)
    g_free (probe->controls[i].menu);
  g_free (probe->controls);
  probe->controls = NULL;
  probe->n_controls = 0;
}

/* QUERY_EXT_CTRL with NEXT_CTRL; FALSE when the driver lacks it */
static gboolean
probe_controls_ext (IvtvProbe * probe, IvtvDevice * dev)
{
  guint32 id = 0;
  gboolean any = FALSE;

  while (probe->n_controls < IVTV_PROBE_MAX_CONTROLS) {
    struct v4l2_query_ext_ctrl q;
    IvtvControl *c;
    int ret;

    memset (&q, 0, sizeof (q));
    q.id = id | V4L2_CTRL_FLAG_NEXT_CTRL;
    ret = ivtv_ioctl (dev, VIDIOC_QUERY_EXT_CTRL, &q);
    if (ret == -ENOTTY && !any)
      return FALSE;
    if (ret < 0)
      break;
    any = TRUE;
    q.id &= ~(V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND);
    if (q.id <= id) {
      GST_WARNING_OBJECT (dev->owner, "control enumeration went backwards "
          "(0x%x after 0x%x); stopping", q.id, id);
      break;
    }
    id = q.id;
    if (q.type == V4L2_CTRL_TYPE_CTRL_CLASS)
      continue;
    c = &probe->controls[probe->n_controls++];
    c->id = q.id;
    c->type = q.type;
    COPY_NAME (c->name, q.name);
    c->minimum = q.minimum;
    c->maximum = q.maximum;
    c->step = q.step;
    c->default_value = q.default_value;
    c->flags = q.flags;
    probe_menu (dev, c);
  }
  return TRUE;
}

static void
probe_controls_old (IvtvProbe * probe, IvtvDevice * dev)
{
  guint32 id = 0;

  while (probe->n_controls < IVTV_PROBE_MAX_CONTROLS) {
    struct v4l2_queryctrl q;
    IvtvControl *c;

    memset (&q, 0, sizeof (q));
    q.id = id | V4L2_CTRL_FLAG_NEXT_CTRL;
    if (ivtv_ioctl (dev, VIDIOC_QUERYCTRL, &q) < 0)
      break;
    q.id &= ~(V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND);
    if (q.id <= id)
      break;
    id = q.id;
    if (q.type == V4L2_CTRL_TYPE_CTRL_CLASS)
      continue;
    c = &probe->controls[probe->n_controls++];
    c->id = q.id;
    c->type = q.type;
    COPY_NAME (c->name, q.name);
    c->minimum = q.minimum;
    c->maximum = q.maximum;
    c->step = q.step > 0 ? (guint64) q.step : 0;
    c->default_value = q.default_value;
    c->flags = q.flags;
    probe_menu (dev, c);
  }
}

void
ivtv_probe_controls (IvtvProbe * probe, IvtvDevice * dev)
{
  free_controls (probe);
  probe->controls = g_new0 (IvtvControl, IVTV_PROBE_MAX_CONTROLS);
  if (!probe_controls_ext (probe, dev))
    probe_controls_old (probe, dev);
}

/* ---- all of it ---- */

void
ivtv_probe_clear (IvtvProbe * probe)
{
  g_free (probe->inputs);
  g_free (probe->audios);
  g_free (probe->stds);
  free_formats (probe);
  free_controls (probe);
  ivtv_probe_init (probe);
}

gboolean
ivtv_probe_run (IvtvProbe * probe, IvtvDevice * dev, GError ** error)
{
  ivtv_probe_clear (probe);
  if (!ivtv_device_is_open (dev)) {
    g_set_error (error, IVTV_DEVICE_ERROR, IVTV_DEVICE_ERROR_FAILED,
        _("Cannot probe: the device is not open"));
    return FALSE;
  }

  COPY_NAME (probe->driver, dev->cap.driver);
  COPY_NAME (probe->card, dev->cap.card);
  COPY_NAME (probe->bus_info, dev->cap.bus_info);

  ivtv_probe_inputs (probe, dev);
  ivtv_probe_audios (probe, dev);
  ivtv_probe_standards (probe, dev);
  ivtv_probe_tuner (probe, dev);
  ivtv_probe_formats (probe, dev);
  ivtv_probe_controls (probe, dev);

  GST_DEBUG_OBJECT (dev->owner, "%s ('%s'): %u inputs (current %d), %u "
      "audio inputs, %u standards, %u formats, %u controls, tuner %s",
      probe->driver, probe->card, probe->n_inputs, probe->current_input,
      probe->n_audios, probe->n_stds, probe->n_formats, probe->n_controls,
      probe->tuner.present ? "yes" : "no");
  return TRUE;
}

/* ---- look-ups ---- */

const IvtvInput *
ivtv_probe_find_input (const IvtvProbe * probe, guint32 index)
{
  guint i;

  for (i = 0; i < probe->n_inputs; i++)
    if (probe->inputs[i].index == index)
      return &probe->inputs[i];
  return NULL;
}

const IvtvFormat *
ivtv_probe_find_format (const IvtvProbe * probe, guint32 pixelformat)
{
  guint i;

  for (i = 0; i < probe->n_formats; i++)
    if (probe->formats[i].pixelformat == pixelformat)
      return &probe->formats[i];
  return NULL;
}

const IvtvControl *
ivtv_probe_find_control (const IvtvProbe * probe, guint32 id)
{
  guint i;

  for (i = 0; i < probe->n_controls; i++)
    if (probe->controls[i].id == id)
      return &probe->controls[i];
  return NULL;
}
