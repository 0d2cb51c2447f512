/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — raw video / MJPEG negotiation: picking the preferred caps
 * structure, fixation, S_FMT + S_PARM and checking the driver's answer
 * (see ivtvnegotiate.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvnegotiate.h"
#include "ivtvcaps.h"
#include "ivtvcolor.h"
#include "ivtvdebug.h"

#include <errno.h>
#include <string.h>

#define GST_CAT_DEFAULT ivtv_debug

/* Does @fourcc produce the first structure's media type (and format)? */
static gboolean
fourcc_matches (guint32 fourcc, const GstStructure * s)
{
  const IvtvFormatMap *m = ivtv_caps_lookup_fourcc (fourcc);

  if (m == NULL || fourcc == V4L2_PIX_FMT_MPEG
      || !gst_structure_has_name (s, m->media_type))
    return FALSE;
  if (m->format != GST_VIDEO_FORMAT_UNKNOWN) {
    const gchar *f = gst_structure_get_string (s, "format");
    return f != NULL && gst_video_format_from_string (f) == m->format;
  }
  return TRUE;
}

guint32
ivtv_negotiate_fourcc_for_caps (const IvtvProbe * probe, const GstCaps * caps)
{
  const GstStructure *s;
  guint i;

  if (caps == NULL || gst_caps_is_empty (caps) || gst_caps_is_any (caps))
    return 0;
  s = gst_caps_get_structure (caps, 0);
  for (i = 0; i < probe->n_formats; i++)
    if (fourcc_matches (probe->formats[i].pixelformat, s))
      return probe->formats[i].pixelformat;
  return 0;
}

/* ---- preference ---- */

/* The current std if the current input is an analogue video input. */
static v4l2_std_id
sdtv_std (const IvtvProbe * probe)
{
  const IvtvInput *in = NULL;

  if (probe->n_stds == 0 || probe->current_std == 0)
    return 0;
  if (probe->current_input >= 0)
    in = ivtv_probe_find_input (probe, probe->current_input);
  if (in != NULL && in->std == 0)
    return 0;                   /* e.g. the camera input of a TV card */
  return probe->current_std;
}

typedef struct
{
  guint32 fourcc;               /* 0 unknown */
  gint width, height;           /* 0 unknown */
  gint fps_n, fps_d;            /* 0/1 unknown */
  gboolean sdtv;
  gint native_w, native_h;      /* SDTV: the std's frame */
  gint par_n, par_d;            /* SDTV: at the native frame */
} Prefs;

static gboolean
fract_ok (const struct v4l2_fract *t)
{
  return t->numerator > 0 && t->denominator > 0 && t->numerator <= G_MAXINT
      && t->denominator <= G_MAXINT;
}

static void
get_prefs (const IvtvProbe * probe, IvtvDevice * dev, Prefs * p)
{
  struct v4l2_format fmt;
  struct v4l2_streamparm parm;

  ivtv_debug_init ();
  memset (p, 0, sizeof (*p));
  p->fps_d = p->par_n = p->par_d = 1;

  p->sdtv = ivtv_caps_std_geometry (sdtv_std (probe), &p->width, &p->height,
      &p->fps_n, &p->fps_d, &p->par_n, &p->par_d);
  p->native_w = p->width;
  p->native_h = p->height;
  if (dev == NULL || !ivtv_device_is_open (dev))
    return;

  if (p->sdtv) {
    /* the driver knows its sampling: pixelaspect is y/x, GStreamer's PAR
     * is x/y */
    struct v4l2_cropcap cc;

    memset (&cc, 0, sizeof (cc));
    cc.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (ivtv_ioctl (dev, VIDIOC_CROPCAP, &cc) == 0
        && cc.pixelaspect.numerator > 0 && cc.pixelaspect.denominator > 0
        && cc.pixelaspect.numerator <= 1000
        && cc.pixelaspect.denominator <= 1000) {
      p->par_n = cc.pixelaspect.denominator;
      p->par_d = cc.pixelaspect.numerator;
    }
  }

  if (ivtv_device_get_format (dev, &fmt) == 0) {
    p->fourcc = fmt.fmt.pix.pixelformat;
    if (!p->sdtv && fmt.fmt.pix.width > 0 && fmt.fmt.pix.height > 0
        && fmt.fmt.pix.width <= G_MAXINT && fmt.fmt.pix.height <= G_MAXINT) {
      p->width = fmt.fmt.pix.width;
      p->height = fmt.fmt.pix.height;
    }
  }
  if (p->sdtv)
    return;
  memset (&parm, 0, sizeof (parm));
  parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  if (ivtv_ioctl (dev, VIDIOC_G_PARM, &parm) == 0
      && fract_ok (&parm.parm.capture.timeperframe)) {
    p->fps_n = parm.parm.capture.timeperframe.denominator;
    p->fps_d = parm.parm.capture.timeperframe.numerator;
  }
}

static gboolean
can_int (const GstStructure * s, const gchar * field, gint v)
{
  const GValue *val = gst_structure_get_value (s, field);
  GValue want = G_VALUE_INIT;
  gboolean ok;

  if (val == NULL || v <= 0)
    return FALSE;
  g_value_init (&want, G_TYPE_INT);
  g_value_set_int (&want, v);
  ok = gst_value_intersect (NULL, val, &want);
  g_value_unset (&want);
  return ok;
}

static gboolean
has_size (const GstStructure * s, const Prefs * p)
{
  return can_int (s, "width", p->width) && can_int (s, "height", p->height);
}

/* SDTV: the PAR of a @w x @h frame, the std's picture scaled. */
static void
sdtv_par (const Prefs * p, gint w, gint h, gint * n, gint * d)
{
  guint64 num = (guint64) p->par_n * p->native_w * h;
  guint64 den = (guint64) p->par_d * w * p->native_h;
  guint64 g;

  if (num == 0 || den == 0) {
    *n = *d = 1;
    return;
  }
  g = gst_util_greatest_common_divisor_int64 (num, den);
  num /= g;
  den /= g;
  while (num > G_MAXINT || den > G_MAXINT) {
    num >>= 1;
    den >>= 1;
  }
  *n = MAX ((gint) num, 1);
  *d = MAX ((gint) den, 1);
}

/* SDTV: every structure of a fixed size gets its scaled PAR. */
static void
set_sdtv_pars (GstCaps * caps, const Prefs * p)
{
  guint i;

  if (!p->sdtv)
    return;
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_caps_get_structure (caps, i);
    gint w, h, n, d;

    if (gst_structure_get_int (s, "width", &w)
        && gst_structure_get_int (s, "height", &h) && w > 0 && h > 0) {
      sdtv_par (p, w, h, &n, &d);
      gst_structure_set (s, "pixel-aspect-ratio", GST_TYPE_FRACTION, n, d,
          NULL);
    }
  }
}

/* 3: preferred format and size, 2: the size, 1: raw, 0: the rest. */
static gint
rank_structure (const GstStructure * t, const Prefs * p)
{
  if (has_size (t, p))
    return (p->fourcc != 0 && fourcc_matches (p->fourcc, t)) ? 3 : 2;
  return gst_structure_has_name (t, "video/x-raw") ? 1 : 0;
}

/* A copy of @caps, stably sorted by rank. */
static GstCaps *
sort_caps (const GstCaps * caps, const Prefs * p)
{
  GstCaps *out = gst_caps_new_empty ();
  guint i, n = gst_caps_get_size (caps);
  gint r;

  for (r = 3; r >= 0; r--)
    for (i = 0; i < n; i++) {
      const GstStructure *t = gst_caps_get_structure (caps, i);
      if (rank_structure (t, p) == r)
        gst_caps_append_structure (out, gst_structure_copy (t));
    }
  return out;
}

GstCaps *
ivtv_negotiate_probe_caps (const IvtvProbe * probe, IvtvDevice * dev)
{
  GstCaps *all, *raw, *sorted;
  struct v4l2_format fmt;
  gboolean have_fmt;
  Prefs p;
  guint i;

  get_prefs (probe, dev, &p);
  all = ivtv_caps_from_probe (probe, sdtv_std (probe),
      IVTV_MPEG_STREAM_UNKNOWN);
  raw = gst_caps_new_empty ();
  for (i = 0; i < gst_caps_get_size (all); i++) {
    const GstStructure *t = gst_caps_get_structure (all, i);
    if (ivtv_caps_fourcc_from_structure (t) != V4L2_PIX_FMT_MPEG)
      gst_caps_append_structure (raw, gst_structure_copy (t));
  }
  gst_caps_unref (all);
  set_sdtv_pars (raw, &p);
  have_fmt = dev != NULL && ivtv_device_is_open (dev)
      && ivtv_device_get_format (dev, &fmt) == 0;
  ivtv_color_annotate_caps (raw, have_fmt ? &fmt : NULL, sdtv_std (probe));
  sorted = sort_caps (raw, &p);
  gst_caps_unref (raw);
  GST_DEBUG ("capture caps: %" GST_PTR_FORMAT, sorted);
  return sorted;
}

GstCaps *
ivtv_negotiate_fixate (const IvtvProbe * probe, IvtvDevice * dev,
    GstCaps * caps)
{
  GstStructure *s;
  Prefs p;
  guint i, n, best = 0;
  gint rank = -1;

  if (gst_caps_is_empty (caps) || gst_caps_is_any (caps))
    return caps;
  get_prefs (probe, dev, &p);

  n = gst_caps_get_size (caps);
  for (i = 0; i < n; i++) {
    gint r = rank_structure (gst_caps_get_structure (caps, i), &p);
    if (r > rank) {
      rank = r;
      best = i;
    }
  }
  s = gst_structure_copy (gst_caps_get_structure (caps, best));
  gst_caps_unref (caps);
  caps = gst_caps_new_full (s, NULL);
  if (gst_structure_has_field (s, "width"))
    gst_structure_fixate_field_nearest_int (s, "width",
        p.width > 0 ? p.width : 640);
  if (gst_structure_has_field (s, "height"))
    gst_structure_fixate_field_nearest_int (s, "height",
        p.height > 0 ? p.height : 480);
  if (gst_structure_has_field (s, "framerate"))
    gst_structure_fixate_field_nearest_fraction (s, "framerate",
        p.fps_n > 0 ? p.fps_n : 30, p.fps_n > 0 ? p.fps_d : 1);
  if (gst_structure_has_field (s, "pixel-aspect-ratio")) {
    gint w = 0, h = 0, n = 1, d = 1;

    if (p.sdtv && gst_structure_get_int (s, "width", &w)
        && gst_structure_get_int (s, "height", &h) && w > 0 && h > 0)
      sdtv_par (&p, w, h, &n, &d);
    gst_structure_fixate_field_nearest_fraction (s, "pixel-aspect-ratio", n, d);
  }
  if (gst_structure_has_field (s, "interlace-mode"))
    gst_structure_fixate_field_string (s, "interlace-mode",
        p.sdtv ? "interleaved" : "progressive");
  GST_DEBUG ("fixated to %" GST_PTR_FORMAT, caps);
  return gst_caps_fixate (caps);
}

/* ---- applying ---- */

static gchar *
fourcc_str (guint32 f)
{
  return g_strdup_printf ("%c%c%c%c", f & 0xff, (f >> 8) & 0xff,
      (f >> 16) & 0xff, (f >> 24) & 0xff);
}

/* What fixed caps ask for. */
typedef struct
{
  guint32 fourcc, field;
  gint w, h, fps_n, fps_d;
} Wanted;

static gboolean
parse_wanted (IvtvDevice * dev, const IvtvProbe * probe, const GstCaps * caps,
    gboolean is_raw, Wanted * want, GError ** error)
{
  const GstStructure *s;
  const gchar *imode;

  want->w = want->h = want->fps_n = 0;
  want->fps_d = 1;
  if (caps == NULL || !gst_caps_is_fixed (caps)) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
        _("Internal error: caps to apply are not fixed"));
    return FALSE;
  }
  s = gst_caps_get_structure (caps, 0);
  want->fourcc = ivtv_negotiate_fourcc_for_caps (probe, caps);
  if (want->fourcc == 0 || !gst_structure_get_int (s, "width", &want->w)
      || !gst_structure_get_int (s, "height", &want->h) || want->w <= 0
      || want->h <= 0) {
    gchar *str = gst_caps_to_string (caps);
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
        _("%s has no capture format for %s"), dev->path, str);
    g_free (str);
    return FALSE;
  }
  gst_structure_get_fraction (s, "framerate", &want->fps_n, &want->fps_d);
  imode = gst_structure_get_string (s, "interlace-mode");
  if (imode == NULL || g_str_equal (imode, "progressive"))
    want->field = is_raw ? V4L2_FIELD_NONE : V4L2_FIELD_ANY;
  else if (g_str_equal (imode, "interleaved"))
    want->field = V4L2_FIELD_INTERLACED;
  else
    want->field = V4L2_FIELD_ANY;
  return TRUE;
}

/* S_FMT; a driver that refuses or changes the format or size is an error. */
static gboolean
set_format (IvtvDevice * dev, const Wanted * want, IvtvNegotiated * r,
    GError ** error)
{
  struct v4l2_format fmt;
  gchar *name = fourcc_str (want->fourcc), *got;
  int ret;

  memset (&fmt, 0, sizeof (fmt));
  fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  fmt.fmt.pix.width = want->w;
  fmt.fmt.pix.height = want->h;
  fmt.fmt.pix.pixelformat = want->fourcc;
  fmt.fmt.pix.field = want->field;
  ret = ivtv_ioctl (dev, VIDIOC_S_FMT, &fmt);
  if (ret == -EBUSY) {
    /* ivtv refuses S_FMT while any node of the card captures
     * (ivtv-ioctl.c ivtv_s_fmt_vid_cap: itv->capturing), e.g. the PCM node
     * of the same pipeline: the format it has already is as good */
    struct v4l2_format cur;

    memset (&cur, 0, sizeof (cur));
    cur.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (ivtv_ioctl (dev, VIDIOC_G_FMT, &cur) == 0
        && cur.fmt.pix.pixelformat == want->fourcc
        && (gint) cur.fmt.pix.width == want->w
        && (gint) cur.fmt.pix.height == want->h) {
      GST_INFO ("%s is busy, but already has the format asked for",
          dev->path);
      fmt = cur;
      ret = 0;
    }
  }
  if (ret < 0) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
        _("%s refused the format %s %dx%d (VIDIOC_S_FMT: %s)%s"), dev->path,
        name, want->w, want->h, g_strerror (-ret), ret == -EBUSY ?
        "; the device is busy (another application streaming?)" : "");
  } else if (fmt.fmt.pix.pixelformat != want->fourcc
      || (gint) fmt.fmt.pix.width != want->w
      || (gint) fmt.fmt.pix.height != want->h) {
    got = fourcc_str (fmt.fmt.pix.pixelformat);
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
        _("%s changed the requested format %s %dx%d to %s %ux%u"), dev->path,
        name, want->w, want->h, got, fmt.fmt.pix.width, fmt.fmt.pix.height);
    g_free (got);
    ret = -EINVAL;
  }
  g_free (name);
  if (ret < 0)
    return FALSE;
  if (want->field == V4L2_FIELD_NONE && fmt.fmt.pix.field != V4L2_FIELD_NONE
      && fmt.fmt.pix.field != V4L2_FIELD_ANY)
    GST_WARNING ("asked for progressive frames, driver gives field %u",
        fmt.fmt.pix.field);
  r->pixelformat = want->fourcc;
  r->width = want->w;
  r->height = want->h;
  r->field = fmt.fmt.pix.field;
  r->bytesperline = fmt.fmt.pix.bytesperline;
  r->sizeimage = fmt.fmt.pix.sizeimage;
  return TRUE;
}

/* S_PARM where the driver has V4L2_CAP_TIMEPERFRAME; the result says the
 * rate the device runs at (a different one is logged). */
static void
set_rate (IvtvDevice * dev, const Wanted * want, IvtvNegotiated * r)
{
  struct v4l2_streamparm parm;
  int ret;

  memset (&parm, 0, sizeof (parm));
  parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  ret = ivtv_ioctl (dev, VIDIOC_G_PARM, &parm);
  if (ret == 0 && want->fps_n > 0
      && (parm.parm.capture.capability & V4L2_CAP_TIMEPERFRAME)) {
    parm.parm.capture.timeperframe.numerator = want->fps_d;
    parm.parm.capture.timeperframe.denominator = want->fps_n;
    ret = ivtv_ioctl (dev, VIDIOC_S_PARM, &parm);
    if (ret < 0)
      GST_WARNING ("VIDIOC_S_PARM %d/%d fps: %s", want->fps_n, want->fps_d,
          g_strerror (-ret));
  }
  if (ret == 0 && fract_ok (&parm.parm.capture.timeperframe)) {
    r->fps_n = parm.parm.capture.timeperframe.denominator;
    r->fps_d = parm.parm.capture.timeperframe.numerator;
  }
  if (r->fps_n == 0 && want->fps_n > 0) {
    r->fps_n = want->fps_n;
    r->fps_d = want->fps_d;
  }
  if (want->fps_n > 0 && gst_util_fraction_compare (r->fps_n, r->fps_d,
          want->fps_n, want->fps_d) != 0)
    GST_WARNING ("asked for %d/%d fps, the device runs at %d/%d",
        want->fps_n, want->fps_d, r->fps_n, r->fps_d);
}

gboolean
ivtv_negotiate_apply (IvtvDevice * dev, const IvtvProbe * probe,
    const GstCaps * caps, IvtvNegotiated * r, GError ** error)
{
  Wanted want;

  ivtv_debug_init ();
  memset (r, 0, sizeof (*r));
  r->fps_d = 1;
  r->is_raw = caps && gst_caps_get_size (caps) > 0
      && gst_structure_has_name (gst_caps_get_structure (caps, 0),
      "video/x-raw");
  if (!parse_wanted (dev, probe, caps, r->is_raw, &want, error)
      || !set_format (dev, &want, r, error))
    return FALSE;
  if (r->is_raw) {
    if (!gst_video_info_from_caps (&r->info, caps)) {
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
          _("Internal error: unusable raw caps"));
      return FALSE;
    }
    if (GST_VIDEO_INFO_N_PLANES (&r->info) == 1 && r->bytesperline != 0
        && r->bytesperline != (guint32) GST_VIDEO_INFO_PLANE_STRIDE (&r->info,
            0))
      GST_WARNING ("driver stride %u differs from the default %d",
          r->bytesperline, GST_VIDEO_INFO_PLANE_STRIDE (&r->info, 0));
  }
  set_rate (dev, &want, r);
  GST_DEBUG ("applied %" GST_FOURCC_FORMAT " %dx%d field %u stride %u size "
      "%u at %d/%d", GST_FOURCC_ARGS (want.fourcc), want.w, want.h, r->field,
      r->bytesperline, r->sizeimage, r->fps_n, r->fps_d);
  return TRUE;
}

/* ---- MPEG byte streams ---- */

gboolean
ivtv_negotiate_format_is_mpeg (const IvtvProbe * probe, IvtvDevice * dev)
{
  struct v4l2_format f;
  guint i;

  if (ivtv_device_get_format (dev, &f) == 0
      && f.fmt.pix.pixelformat == V4L2_PIX_FMT_MPEG)
    return TRUE;
  for (i = 0; i < probe->n_formats; i++)
    if (probe->formats[i].pixelformat != V4L2_PIX_FMT_MPEG)
      return FALSE;
  return probe->n_formats > 0;
}

/* The caps of @stream_type, or (no stream-type control, -1) every system
 * stream: sniffing decides. */
static GstCaps *
mpeg_caps (gint stream_type)
{
  GstCaps *c = ivtv_caps_for_mpeg_stream_type (stream_type);
  gint t;

  if (c)
    return c;
  c = gst_caps_new_empty ();
  for (t = V4L2_MPEG_STREAM_TYPE_MPEG2_PS; t <= V4L2_MPEG_STREAM_TYPE_MPEG1_SS;
      t++)
    gst_caps_append (c, ivtv_caps_for_mpeg_stream_type (t));
  return c;
}

GstCaps *
ivtv_negotiate_device_caps (const IvtvProbe * probe, IvtvDevice * dev,
    gint mpeg_stream_type)
{
  GstCaps *caps = gst_caps_new_empty ();

  if (ivtv_probe_find_format (probe, V4L2_PIX_FMT_MPEG))
    gst_caps_append (caps, mpeg_caps (mpeg_stream_type));
  gst_caps_append (caps, ivtv_negotiate_probe_caps (probe, dev));
  return caps;
}

gboolean
ivtv_negotiate_set_mpeg (IvtvDevice * dev, GError ** error)
{
  struct v4l2_format f;
  int ret = ivtv_device_get_format (dev, &f);

  if (ret == 0 && f.fmt.pix.pixelformat == V4L2_PIX_FMT_MPEG)
    return TRUE;
  /* hdpvr answers G_FMT, and S_FMT (the same function, hdpvr-video.c
   * vidioc_g_fmt_vid_cap), with EFAULT while it detects no signal: MPEG is
   * its one format, there is nothing to set, and the signal check has told
   * the user already */
  if (ret == -EFAULT)
    return TRUE;
  f.fmt.pix.pixelformat = V4L2_PIX_FMT_MPEG;
  ret = ivtv_ioctl (dev, VIDIOC_S_FMT, &f);
  if (ret < 0 || f.fmt.pix.pixelformat != V4L2_PIX_FMT_MPEG) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
        _("%s refused to deliver MPEG."), dev->path);
    GST_WARNING ("S_FMT MPEG: %s", ret < 0 ? g_strerror (-ret) :
        "other format");
    return FALSE;
  }
  return TRUE;
}

/* ---- caps that cannot be met ---- */

/* The stream-type nick of @t (the encoder property's values). */
static const gchar *
stream_type_nick (gint t)
{
  static const gchar *const nicks[] = { "ps", "ts", "mpeg1", "dvd", "vcd",
    "svcd"
  };

  return t >= 0 && t < (gint) G_N_ELEMENTS (nicks) ? nicks[t] : NULL;
}

/* "1-720" or "720" */
static gchar *
int_field_str (const GstStructure * s, const gchar * field)
{
  const GValue *v = gst_structure_get_value (s, field);

  if (v && G_VALUE_HOLDS_INT (v))
    return g_strdup_printf ("%d", g_value_get_int (v));
  if (v && GST_VALUE_HOLDS_INT_RANGE (v))
    return g_strdup_printf ("%d-%d", gst_value_get_int_range_min (v),
        gst_value_get_int_range_max (v));
  return g_strdup ("any");
}

/* One offered structure as people read it: "YUY2 720x576", "MPEG-2
 * program stream (stream-type=ps)", "image/jpeg 640x480". */
static gchar *
describe_structure (const GstStructure * s)
{
  const gchar *format = gst_structure_get_string (s, "format");
  gchar *w, *h, *out;
  gint t;

  if (ivtv_caps_fourcc_from_structure (s) == V4L2_PIX_FMT_MPEG) {
    for (t = V4L2_MPEG_STREAM_TYPE_MPEG2_PS;
        t <= V4L2_MPEG_STREAM_TYPE_MPEG1_SS; t++) {
      GstCaps *c = ivtv_caps_for_mpeg_stream_type (t);
      gboolean same = gst_structure_is_equal (s, gst_caps_get_structure (c,
              0));

      gst_caps_unref (c);
      if (same)
        return g_strdup_printf ("%s (stream-type=%s)",
            ivtv_caps_mpeg_stream_type_name (t), stream_type_nick (t));
    }
    return g_strdup (gst_structure_get_name (s));
  }
  w = int_field_str (s, "width");
  h = int_field_str (s, "height");
  out = g_strdup_printf ("%s %sx%s", format ? format :
      gst_structure_get_name (s), w, h);
  g_free (w);
  g_free (h);
  return out;
}

static gchar *
describe_caps (const GstCaps * caps)
{
  GString *list = g_string_new (NULL);
  GPtrArray *seen = g_ptr_array_new_with_free_func (g_free);
  guint i, k;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    gchar *d = describe_structure (gst_caps_get_structure (caps, i));
    gboolean dup = FALSE;

    for (k = 0; k < seen->len && !dup; k++)
      dup = g_str_equal (d, g_ptr_array_index (seen, k));
    if (dup) {
      g_free (d);
      continue;
    }
    g_string_append_printf (list, "%s%s", list->len ? ", " : "", d);
    g_ptr_array_add (seen, d);
  }
  g_ptr_array_unref (seen);
  return g_string_free (list, FALSE);
}

gchar *
ivtv_negotiate_explain (const gchar * device, const gchar * card,
    const GstCaps * offered, const GstCaps * wanted, gint mpeg_stream_type)
{
  gchar *want_str, *have, *msg = NULL;
  gint t;

  if (wanted == NULL || gst_caps_can_intersect (offered, wanted))
    return NULL;
  want_str = gst_caps_to_string (wanted);
  have = describe_caps (offered);
  /* a card set to another stream type: name the one that fits */
  for (t = V4L2_MPEG_STREAM_TYPE_MPEG2_PS; msg == NULL && mpeg_stream_type >= 0
      && t <= V4L2_MPEG_STREAM_TYPE_MPEG1_SS; t++) {
    GstCaps *c = ivtv_caps_for_mpeg_stream_type (t);

    if (t != mpeg_stream_type && stream_type_nick (t)
        && gst_caps_can_intersect (c, wanted))
      msg = g_strdup_printf ("%s ('%s') is set to make an %s, and downstream "
          "wants %s: set stream-type=%s for an %s.", device, card,
          ivtv_caps_mpeg_stream_type_name (mpeg_stream_type), want_str,
          stream_type_nick (t), ivtv_caps_mpeg_stream_type_name (t));
    gst_caps_unref (c);
  }
  if (msg == NULL)
    msg = g_strdup_printf ("%s has no capture format for %s; '%s' offers: "
        "%s.", device, want_str, card, have);
  g_free (want_str);
  g_free (have);
  return msg;
}
