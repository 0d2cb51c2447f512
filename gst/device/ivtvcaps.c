/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — V4L2 formats as caps, MPEG stream types, SDTV geometry
 * (see ivtvcaps.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvcaps.h"

#include <string.h>

/* ---- MPEG ---- */

GstCaps *
ivtv_caps_for_mpeg_stream_type (gint stream_type)
{
  switch (stream_type) {
    case V4L2_MPEG_STREAM_TYPE_MPEG2_PS:
    case V4L2_MPEG_STREAM_TYPE_MPEG2_DVD:
    case V4L2_MPEG_STREAM_TYPE_MPEG2_SVCD:
      return gst_caps_new_simple ("video/mpeg",
          "mpegversion", G_TYPE_INT, 2,
          "systemstream", G_TYPE_BOOLEAN, TRUE, NULL);
    case V4L2_MPEG_STREAM_TYPE_MPEG2_TS:
      return gst_caps_new_simple ("video/mpegts",
          "systemstream", G_TYPE_BOOLEAN, TRUE,
          "packetsize", G_TYPE_INT, 188, NULL);
    case V4L2_MPEG_STREAM_TYPE_MPEG1_SS:
    case V4L2_MPEG_STREAM_TYPE_MPEG1_VCD:
      return gst_caps_new_simple ("video/mpeg",
          "mpegversion", G_TYPE_INT, 1,
          "systemstream", G_TYPE_BOOLEAN, TRUE, NULL);
    default:
      return NULL;
  }
}

const gchar *
ivtv_caps_mpeg_stream_type_name (gint stream_type)
{
  switch (stream_type) {
    case V4L2_MPEG_STREAM_TYPE_MPEG2_PS:
      return "MPEG-2 program stream";
    case V4L2_MPEG_STREAM_TYPE_MPEG2_TS:
      return "MPEG-2 transport stream";
    case V4L2_MPEG_STREAM_TYPE_MPEG1_SS:
      return "MPEG-1 system stream";
    case V4L2_MPEG_STREAM_TYPE_MPEG2_DVD:
      return "MPEG-2 DVD-compatible program stream";
    case V4L2_MPEG_STREAM_TYPE_MPEG1_VCD:
      return "MPEG-1 VCD-compatible system stream";
    case V4L2_MPEG_STREAM_TYPE_MPEG2_SVCD:
      return "MPEG-2 SVCD-compatible program stream";
    default:
      return "unknown MPEG stream";
  }
}

gint
ivtv_caps_sniff_mpeg (const guint8 * d, gsize len)
{
  gsize i;

  /* transport stream: sync bytes 188 apart, starting in the first packet */
  for (i = 0; i < 188 && i + 2 * 188 < len; i++) {
    if (d[i] == 0x47 && d[i + 188] == 0x47 && d[i + 376] == 0x47)
      return V4L2_MPEG_STREAM_TYPE_MPEG2_TS;
  }
  /* program stream: a pack header near the start */
  for (i = 0; i + 4 < len && i < 2048; i++) {
    if (d[i] == 0 && d[i + 1] == 0 && d[i + 2] == 1 && d[i + 3] == 0xba) {
      if ((d[i + 4] & 0xc0) == 0x40)
        return V4L2_MPEG_STREAM_TYPE_MPEG2_PS;
      if ((d[i + 4] & 0xf0) == 0x20)
        return V4L2_MPEG_STREAM_TYPE_MPEG1_SS;
      return IVTV_MPEG_STREAM_UNKNOWN;
    }
  }
  return IVTV_MPEG_STREAM_UNKNOWN;
}

/* ---- the fourcc table ---- */

#define RAW(fcc, fmt) { V4L2_PIX_FMT_ ## fcc, "video/x-raw", GST_VIDEO_FORMAT_ ## fmt }
#define CODED(fcc, type) { V4L2_PIX_FMT_ ## fcc, type, GST_VIDEO_FORMAT_UNKNOWN }

static const IvtvFormatMap format_map[] = {
  /* packed and planar YUV */
  RAW (YUYV, YUY2),
  RAW (UYVY, UYVY),
  RAW (YVYU, YVYU),
  RAW (VYUY, VYUY),
  RAW (NV12, NV12),
  RAW (NV21, NV21),
  RAW (NV16, NV16),
  RAW (NV61, NV61),
  RAW (NV24, NV24),
  RAW (YUV420, I420),
  RAW (YVU420, YV12),
  RAW (YUV422P, Y42B),
  RAW (YUV411P, Y41B),
  RAW (YUV410, YUV9),
  RAW (YVU410, YVU9),
  RAW (Y41P, IYU1),
  /* the cx2341x/cx23418 YUV node's tiled NV12: ivtvsrc detiles it
   * (ivtvhm12.c), downstream sees NV12 */
  RAW (HM12, NV12),
  /* RGB */
  RAW (RGB24, RGB),
  RAW (BGR24, BGR),
  RAW (XRGB32, xRGB),
  RAW (ARGB32, ARGB),
  RAW (XBGR32, BGRx),
  RAW (ABGR32, BGRA),
  RAW (RGBX32, RGBx),
  RAW (RGBA32, RGBA),
  RAW (BGRX32, xBGR),
  RAW (BGRA32, ABGR),
  RAW (RGB32, xRGB),
  RAW (BGR32, BGRx),
  RAW (RGB565, RGB16),
  RAW (RGB555, RGB15),
  /* grey */
  RAW (GREY, GRAY8),
  RAW (Y16, GRAY16_LE),
  RAW (Y16_BE, GRAY16_BE),
  /* compressed */
  CODED (MJPEG, "image/jpeg"),
  CODED (JPEG, "image/jpeg"),
  CODED (H264, "video/x-h264"),
  CODED (DV, "video/x-dv"),
  CODED (MPEG, "video/mpeg"),
};

const IvtvFormatMap *
ivtv_caps_lookup_fourcc (guint32 fourcc)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (format_map); i++)
    if (format_map[i].fourcc == fourcc)
      return &format_map[i];
  return NULL;
}

guint32
ivtv_caps_fourcc_from_structure (const GstStructure * s)
{
  const gchar *name = gst_structure_get_name (s);
  guint i;

  if (g_str_equal (name, "video/x-raw")) {
    const gchar *f = gst_structure_get_string (s, "format");
    GstVideoFormat vf;

    if (f == NULL)
      return 0;
    vf = gst_video_format_from_string (f);
    for (i = 0; i < G_N_ELEMENTS (format_map); i++)
      if (format_map[i].format == vf && vf != GST_VIDEO_FORMAT_UNKNOWN)
        return format_map[i].fourcc;
    return 0;
  }
  if (g_str_equal (name, "video/mpeg") || g_str_equal (name, "video/mpegts"))
    return V4L2_PIX_FMT_MPEG;
  for (i = 0; i < G_N_ELEMENTS (format_map); i++)
    if (g_str_equal (name, format_map[i].media_type))
      return format_map[i].fourcc;
  return 0;
}

GstStructure *
ivtv_caps_structure_for_fourcc (guint32 fourcc, gint mpeg_stream_type)
{
  const IvtvFormatMap *m = ivtv_caps_lookup_fourcc (fourcc);
  GstStructure *s;

  if (m == NULL)
    return NULL;
  if (fourcc == V4L2_PIX_FMT_MPEG) {
    GstCaps *c = ivtv_caps_for_mpeg_stream_type (mpeg_stream_type);

    if (c == NULL)
      c = ivtv_caps_for_mpeg_stream_type (V4L2_MPEG_STREAM_TYPE_MPEG2_PS);
    s = gst_structure_copy (gst_caps_get_structure (c, 0));
    gst_caps_unref (c);
    return s;
  }
  s = gst_structure_new_empty (m->media_type);
  if (m->format != GST_VIDEO_FORMAT_UNKNOWN)
    gst_structure_set (s, "format", G_TYPE_STRING,
        gst_video_format_to_string (m->format), NULL);
  if (fourcc == V4L2_PIX_FMT_H264)
    gst_structure_set (s, "stream-format", G_TYPE_STRING, "byte-stream",
        "alignment", G_TYPE_STRING, "au", NULL);
  if (fourcc == V4L2_PIX_FMT_DV)
    gst_structure_set (s, "systemstream", G_TYPE_BOOLEAN, TRUE, NULL);
  return s;
}

/* ---- geometry ---- */

gboolean
ivtv_caps_std_geometry (v4l2_std_id std, gint * width, gint * height,
    gint * fps_n, gint * fps_d, gint * par_n, gint * par_d)
{
  if (std == 0)
    return FALSE;
  if ((std & V4L2_STD_525_60) && !(std & V4L2_STD_625_50)) {
    *width = 720;
    *height = 480;
    *fps_n = 30000;
    *fps_d = 1001;
    *par_n = 10;
    *par_d = 11;
    return TRUE;
  }
  if ((std & V4L2_STD_625_50) && !(std & V4L2_STD_525_60)) {
    *width = 720;
    *height = 576;
    *fps_n = 25;
    *fps_d = 1;
    *par_n = 12;
    *par_d = 11;
    return TRUE;
  }
  return FALSE;
}

/* Interlacing and pixel aspect for a raw/coded size under @std. */
static void
set_sdtv_fields (GstStructure * s, guint32 w, guint32 h, v4l2_std_id std)
{
  gint sw, sh, fn, fd, pn, pd;

  if (ivtv_caps_std_geometry (std, &sw, &sh, &fn, &fd, &pn, &pd)) {
    /* full-height frames of a TV standard are two fields */
    gboolean full = (gint) h == sh;

    if (g_str_equal (gst_structure_get_name (s), "video/x-raw"))
      gst_structure_set (s, "interlace-mode", G_TYPE_STRING,
          full ? "interleaved" : "progressive", NULL);
    /* 4:3 picture: 720 (or 704) wide pixels are not square */
    if (w == 720 || w == 704)
      gst_structure_set (s, "pixel-aspect-ratio", GST_TYPE_FRACTION, pn, pd,
          NULL);
    else
      gst_structure_set (s, "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1,
          NULL);
  } else {
    if (g_str_equal (gst_structure_get_name (s), "video/x-raw"))
      gst_structure_set (s, "interlace-mode", G_TYPE_STRING, "progressive",
          NULL);
    gst_structure_set (s, "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1, NULL);
  }
}

/* The frame rates of @iv as a GValue (list, range or single). FALSE when
 * @iv says nothing. */
static gboolean
intervals_to_value (const IvtvIntervals * iv, GValue * out)
{
  if (iv->type == V4L2_FRMIVAL_TYPE_DISCRETE && iv->n_discrete > 0) {
    guint i;
    GValue v = G_VALUE_INIT;

    if (iv->n_discrete == 1) {
      g_value_init (out, GST_TYPE_FRACTION);
      gst_value_set_fraction (out, iv->discrete[0].den, iv->discrete[0].num);
      return TRUE;
    }
    g_value_init (out, GST_TYPE_LIST);
    g_value_init (&v, GST_TYPE_FRACTION);
    for (i = 0; i < iv->n_discrete; i++) {
      if (iv->discrete[i].den > G_MAXINT || iv->discrete[i].num > G_MAXINT)
        continue;
      gst_value_set_fraction (&v, iv->discrete[i].den, iv->discrete[i].num);
      gst_value_list_append_value (out, &v);
    }
    g_value_unset (&v);
    return gst_value_list_get_size (out) > 0;
  }
  if ((iv->type == V4L2_FRMIVAL_TYPE_STEPWISE
          || iv->type == V4L2_FRMIVAL_TYPE_CONTINUOUS)
      && iv->min.num > 0 && iv->max.num > 0 && iv->min.den <= G_MAXINT
      && iv->max.den <= G_MAXINT && iv->min.num <= G_MAXINT
      && iv->max.num <= G_MAXINT) {
    /* the longest interval is the lowest rate */
    g_value_init (out, GST_TYPE_FRACTION_RANGE);
    gst_value_set_fraction_range_full (out, iv->max.den, iv->max.num,
        iv->min.den, iv->min.num);
    return TRUE;
  }
  return FALSE;
}

static void
set_framerate (GstStructure * s, const IvtvIntervals * iv, v4l2_std_id std)
{
  GValue v = G_VALUE_INIT;
  gint w, h, fn, fd, pn, pd;

  if (iv && intervals_to_value (iv, &v)) {
    gst_structure_take_value (s, "framerate", &v);
  } else if (ivtv_caps_std_geometry (std, &w, &h, &fn, &fd, &pn, &pd)) {
    gst_structure_set (s, "framerate", GST_TYPE_FRACTION, fn, fd, NULL);
  } else {
    gst_structure_set (s, "framerate", GST_TYPE_FRACTION_RANGE, 0, 1,
        G_MAXINT, 1, NULL);
  }
}

/* Discrete sizes: one structure each (takes @base). */
static void
append_discrete (GstCaps * caps, GstStructure * base, const IvtvFormat * f,
    v4l2_std_id std)
{
  guint k;

  for (k = 0; k < f->n_sizes; k++) {
    const IvtvFrameSize *fs = &f->sizes[k];
    GstStructure *s;

    if (fs->width > G_MAXINT || fs->height > G_MAXINT)
      continue;
    s = gst_structure_copy (base);
    gst_structure_set (s, "width", G_TYPE_INT, (gint) fs->width,
        "height", G_TYPE_INT, (gint) fs->height, NULL);
    set_framerate (s, &fs->intervals, std);
    set_sdtv_fields (s, fs->width, fs->height, std);
    gst_caps_append_structure (caps, s);
  }
  gst_structure_free (base);
}

/* A range of sizes: with a TV standard its own size first (never the
 * scaler's max), then the range (takes @base). */
static void
append_stepwise (GstCaps * caps, GstStructure * base, const IvtvFormat * f,
    v4l2_std_id std)
{
  const struct v4l2_frmsize_stepwise *sw = &f->stepwise;
  gint w, h, fn, fd, pn, pd;

  if (ivtv_caps_std_geometry (std, &w, &h, &fn, &fd, &pn, &pd)
      && (guint) w >= sw->min_width && (guint) w <= sw->max_width
      && (guint) h >= sw->min_height && (guint) h <= sw->max_height) {
    GstStructure *t = gst_structure_copy (base);
    gst_structure_set (t, "width", G_TYPE_INT, w, "height", G_TYPE_INT, h,
        "framerate", GST_TYPE_FRACTION, fn, fd, NULL);
    set_sdtv_fields (t, w, h, std);
    gst_caps_append_structure (caps, t);
  }
  gst_structure_set (base, "width", GST_TYPE_INT_RANGE,
      (gint) MIN (sw->min_width, G_MAXINT),
      (gint) MIN (sw->max_width, G_MAXINT),
      "height", GST_TYPE_INT_RANGE,
      (gint) MIN (sw->min_height, G_MAXINT),
      (gint) MIN (sw->max_height, G_MAXINT), NULL);
  if (sw->min_width == sw->max_width)
    gst_structure_set (base, "width", G_TYPE_INT, (gint) sw->min_width, NULL);
  if (sw->min_height == sw->max_height)
    gst_structure_set (base, "height", G_TYPE_INT, (gint) sw->min_height,
        NULL);
  set_framerate (base, &f->stepwise_intervals, std);
  set_sdtv_fields (base, 0, 0, std);
  gst_caps_append_structure (caps, base);
}

/* No size enumeration: the standard's size, else anything (takes @base). */
static void
append_unsized (GstCaps * caps, GstStructure * base, v4l2_std_id std)
{
  gint w, h, fn, fd, pn, pd;

  if (ivtv_caps_std_geometry (std, &w, &h, &fn, &fd, &pn, &pd)) {
    gst_structure_set (base, "width", G_TYPE_INT, w, "height",
        G_TYPE_INT, h, NULL);
    set_framerate (base, NULL, std);
    set_sdtv_fields (base, w, h, std);
  } else {
    gst_structure_set (base, "width", GST_TYPE_INT_RANGE, 1, G_MAXINT,
        "height", GST_TYPE_INT_RANGE, 1, G_MAXINT, NULL);
    set_framerate (base, NULL, 0);
  }
  gst_caps_append_structure (caps, base);
}

GstCaps *
ivtv_caps_from_probe (const IvtvProbe * probe, v4l2_std_id std,
    gint mpeg_stream_type)
{
  GstCaps *caps = gst_caps_new_empty ();
  guint i;

  for (i = 0; i < probe->n_formats; i++) {
    const IvtvFormat *f = &probe->formats[i];
    GstStructure *base = ivtv_caps_structure_for_fourcc (f->pixelformat,
        mpeg_stream_type);

    if (base == NULL)
      continue;
    if (f->pixelformat == V4L2_PIX_FMT_MPEG)
      gst_caps_append_structure (caps, base);
    else if (f->size_type == V4L2_FRMSIZE_TYPE_DISCRETE)
      append_discrete (caps, base, f, std);
    else if (f->size_type == V4L2_FRMSIZE_TYPE_STEPWISE
        || f->size_type == V4L2_FRMSIZE_TYPE_CONTINUOUS)
      append_stepwise (caps, base, f, std);
    else
      append_unsized (caps, base, std);
  }
  return caps;
}

static gboolean
list_has (const GValue * list, const GValue * v)
{
  guint i;

  for (i = 0; i < gst_value_list_get_size (list); i++)
    if (gst_value_compare (gst_value_list_get_value (list, i), v) ==
        GST_VALUE_EQUAL)
      return TRUE;
  return FALSE;
}

GstCaps *
ivtv_caps_template (void)
{
  GstCaps *caps = gst_caps_new_empty ();
  GstStructure *raw = NULL;
  GValue formats = G_VALUE_INIT, v = G_VALUE_INIT;
  gint t;
  guint i;

  for (t = V4L2_MPEG_STREAM_TYPE_MPEG2_PS; t <= V4L2_MPEG_STREAM_TYPE_MPEG1_SS;
      t++)
    gst_caps_append (caps, ivtv_caps_for_mpeg_stream_type (t));

  g_value_init (&formats, GST_TYPE_LIST);
  g_value_init (&v, G_TYPE_STRING);
  for (i = 0; i < G_N_ELEMENTS (format_map); i++) {
    const IvtvFormatMap *m = &format_map[i];
    GstStructure *s;

    if (m->fourcc == V4L2_PIX_FMT_HM12)
      continue;                 /* NV12 is listed */
    if (m->format != GST_VIDEO_FORMAT_UNKNOWN) {
      /* several fourccs give one format (xRGB: XRGB32 and RGB32): once */
      g_value_set_string (&v, gst_video_format_to_string (m->format));
      if (!list_has (&formats, &v))
        gst_value_list_append_value (&formats, &v);
      continue;
    }
    if (m->fourcc == V4L2_PIX_FMT_MPEG)
      continue;
    s = ivtv_caps_structure_for_fourcc (m->fourcc, -1);
    gst_structure_set (s, "width", GST_TYPE_INT_RANGE, 1, G_MAXINT,
        "height", GST_TYPE_INT_RANGE, 1, G_MAXINT, "framerate",
        GST_TYPE_FRACTION_RANGE, 0, 1, G_MAXINT, 1, NULL);
    caps = gst_caps_merge_structure (caps, s);
  }
  g_value_unset (&v);
  raw = gst_structure_new_empty ("video/x-raw");
  gst_structure_take_value (raw, "format", &formats);
  gst_structure_set (raw, "width", GST_TYPE_INT_RANGE, 1, G_MAXINT,
      "height", GST_TYPE_INT_RANGE, 1, G_MAXINT, "framerate",
      GST_TYPE_FRACTION_RANGE, 0, 1, G_MAXINT, 1, NULL);
  gst_caps_append_structure (caps, raw);
  /* the PCM node of ivtv/cx18 cards (ivtvpcm.c) */
  gst_caps_append (caps, gst_caps_from_string ("audio/x-raw, "
          "format=(string)S16LE, layout=(string)interleaved, channels=(int)2, "
          "rate=(int)48000"));
  return caps;
}
