/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — colorimetry and field order of raw caps (see ivtvcolor.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvcolor.h"
#include "ivtvcaps.h"

static GstVideoColorPrimaries
primaries_of (guint32 colorspace)
{
  switch (colorspace) {
    case V4L2_COLORSPACE_SMPTE170M:
    case V4L2_COLORSPACE_BT878:
      return GST_VIDEO_COLOR_PRIMARIES_SMPTE170M;
    case V4L2_COLORSPACE_470_SYSTEM_M:
      return GST_VIDEO_COLOR_PRIMARIES_BT470M;
    case V4L2_COLORSPACE_470_SYSTEM_BG:
      return GST_VIDEO_COLOR_PRIMARIES_BT470BG;
    case V4L2_COLORSPACE_SMPTE240M:
      return GST_VIDEO_COLOR_PRIMARIES_SMPTE240M;
    case V4L2_COLORSPACE_REC709:
    case V4L2_COLORSPACE_SRGB:
    case V4L2_COLORSPACE_JPEG:
      return GST_VIDEO_COLOR_PRIMARIES_BT709;
    case V4L2_COLORSPACE_OPRGB:
      return GST_VIDEO_COLOR_PRIMARIES_ADOBERGB;
    case V4L2_COLORSPACE_BT2020:
      return GST_VIDEO_COLOR_PRIMARIES_BT2020;
    case V4L2_COLORSPACE_DCI_P3:
      return GST_VIDEO_COLOR_PRIMARIES_SMPTERP431;
    default:
      return GST_VIDEO_COLOR_PRIMARIES_UNKNOWN;
  }
}

static GstVideoColorMatrix
matrix_of (guint32 ycbcr_enc)
{
  switch (ycbcr_enc) {
    case V4L2_YCBCR_ENC_601:
    case V4L2_YCBCR_ENC_XV601:
      return GST_VIDEO_COLOR_MATRIX_BT601;
    case V4L2_YCBCR_ENC_709:
    case V4L2_YCBCR_ENC_XV709:
      return GST_VIDEO_COLOR_MATRIX_BT709;
    case V4L2_YCBCR_ENC_BT2020:
      return GST_VIDEO_COLOR_MATRIX_BT2020;
    case V4L2_YCBCR_ENC_SMPTE240M:
      return GST_VIDEO_COLOR_MATRIX_SMPTE240M;
    default:
      return GST_VIDEO_COLOR_MATRIX_UNKNOWN;
  }
}

/* The 709 curve of SDTV primaries is what GStreamer names BT601 (the same
 * function; "bt601" caps carry it). */
static GstVideoTransferFunction
transfer_of (guint32 xfer_func, GstVideoColorPrimaries primaries)
{
  switch (xfer_func) {
    case V4L2_XFER_FUNC_709:
      if (primaries == GST_VIDEO_COLOR_PRIMARIES_SMPTE170M
          || primaries == GST_VIDEO_COLOR_PRIMARIES_BT470M
          || primaries == GST_VIDEO_COLOR_PRIMARIES_BT470BG)
        return GST_VIDEO_TRANSFER_BT601;
      return GST_VIDEO_TRANSFER_BT709;
    case V4L2_XFER_FUNC_SRGB:
      return GST_VIDEO_TRANSFER_SRGB;
    case V4L2_XFER_FUNC_OPRGB:
      return GST_VIDEO_TRANSFER_ADOBERGB;
    case V4L2_XFER_FUNC_SMPTE240M:
      return GST_VIDEO_TRANSFER_SMPTE240M;
    case V4L2_XFER_FUNC_NONE:
      return GST_VIDEO_TRANSFER_GAMMA10;
    case V4L2_XFER_FUNC_SMPTE2084:
      return GST_VIDEO_TRANSFER_SMPTE2084;
    default:
      return GST_VIDEO_TRANSFER_UNKNOWN;
  }
}

gboolean
ivtv_color_from_v4l2 (guint32 colorspace, guint32 ycbcr_enc,
    guint32 quantization, guint32 xfer_func, gboolean is_rgb, gboolean sdtv,
    GstVideoColorimetry * out)
{
  if (colorspace == V4L2_COLORSPACE_DEFAULT)
    colorspace = sdtv ? V4L2_COLORSPACE_SMPTE170M : V4L2_COLORSPACE_DEFAULT;
  if (colorspace == V4L2_COLORSPACE_DEFAULT
      || primaries_of (colorspace) == GST_VIDEO_COLOR_PRIMARIES_UNKNOWN)
    return FALSE;
  if (ycbcr_enc == V4L2_YCBCR_ENC_DEFAULT)
    ycbcr_enc = V4L2_MAP_YCBCR_ENC_DEFAULT (colorspace);
  if (xfer_func == V4L2_XFER_FUNC_DEFAULT)
    xfer_func = V4L2_MAP_XFER_FUNC_DEFAULT (colorspace);
  if (quantization == V4L2_QUANTIZATION_DEFAULT)
    quantization = V4L2_MAP_QUANTIZATION_DEFAULT (is_rgb, colorspace,
        ycbcr_enc);

  out->primaries = primaries_of (colorspace);
  out->transfer = transfer_of (xfer_func, out->primaries);
  out->matrix = is_rgb ? GST_VIDEO_COLOR_MATRIX_RGB : matrix_of (ycbcr_enc);
  out->range = quantization == V4L2_QUANTIZATION_FULL_RANGE ?
      GST_VIDEO_COLOR_RANGE_0_255 : GST_VIDEO_COLOR_RANGE_16_235;
  return out->matrix != GST_VIDEO_COLOR_MATRIX_UNKNOWN
      && out->transfer != GST_VIDEO_TRANSFER_UNKNOWN;
}

const gchar *
ivtv_color_field_order (guint32 field, v4l2_std_id std)
{
  switch (field) {
    case V4L2_FIELD_INTERLACED_TB:
      return "top-field-first";
    case V4L2_FIELD_INTERLACED_BT:
      return "bottom-field-first";
    case V4L2_FIELD_INTERLACED:
    case V4L2_FIELD_ANY:
      /* the spec: "the temporal order ... depends on the video standard" */
      if ((std & V4L2_STD_525_60) && !(std & V4L2_STD_625_50))
        return "bottom-field-first";
      if ((std & V4L2_STD_625_50) && !(std & V4L2_STD_525_60))
        return "top-field-first";
      return NULL;
    default:
      return NULL;
  }
}

static void
annotate (GstStructure * s, const struct v4l2_format *fmt, v4l2_std_id std)
{
  const struct v4l2_pix_format *pix = fmt ? &fmt->fmt.pix : NULL;
  const gchar *f = gst_structure_get_string (s, "format");
  const gchar *imode = gst_structure_get_string (s, "interlace-mode");
  GstVideoFormat vf = f ? gst_video_format_from_string (f) :
      GST_VIDEO_FORMAT_UNKNOWN;
  const GstVideoFormatInfo *info = gst_video_format_get_info (vf);
  GstVideoColorimetry c;
  gboolean own, rgb, sdtv = std != 0;
  const gchar *order;

  if (info == NULL || GST_VIDEO_FORMAT_INFO_IS_GRAY (info))
    return;
  rgb = GST_VIDEO_FORMAT_INFO_IS_RGB (info);
  own = pix && ivtv_caps_fourcc_from_structure (s) == pix->pixelformat;
  if (ivtv_color_from_v4l2 (own ? pix->colorspace : 0,
          own ? pix->ycbcr_enc : 0, own ? pix->quantization : 0,
          own ? pix->xfer_func : 0, rgb, sdtv, &c)
      || (!own && rgb && ivtv_color_from_v4l2 (V4L2_COLORSPACE_SRGB, 0, 0, 0,
              TRUE, FALSE, &c))) {
    gchar *str = gst_video_colorimetry_to_string (&c);

    if (str)
      gst_structure_set (s, "colorimetry", G_TYPE_STRING, str, NULL);
    g_free (str);
  }
  if (imode == NULL || !g_str_equal (imode, "interleaved"))
    return;
  order = ivtv_color_field_order (pix && (pix->field ==
          V4L2_FIELD_INTERLACED_TB || pix->field == V4L2_FIELD_INTERLACED_BT)
      ? pix->field : V4L2_FIELD_INTERLACED, std);
  if (order)
    gst_structure_set (s, "field-order", G_TYPE_STRING, order, NULL);
}

void
ivtv_color_annotate_caps (GstCaps * caps, const struct v4l2_format *fmt,
    v4l2_std_id std)
{
  guint i;

  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_caps_get_structure (caps, i);

    if (gst_structure_has_name (s, "video/x-raw"))
      annotate (s, fmt, std);
  }
}
