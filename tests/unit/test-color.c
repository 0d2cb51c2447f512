/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of gst/device/ivtvcolor.c: a driver's colour fields as GStreamer
 * colorimetry (SDTV defaulting to BT.601), the field order of interleaved
 * frames (the standard's for V4L2_FIELD_INTERLACED, the driver's for TB and
 * BT), and both written into raw caps. */
#include <gst/check/gstcheck.h>

#include "ivtvcolor.h"

static gchar *
color_str (guint32 cs, guint32 enc, guint32 q, guint32 xfer, gboolean rgb,
    gboolean sdtv)
{
  GstVideoColorimetry c;

  if (!ivtv_color_from_v4l2 (cs, enc, q, xfer, rgb, sdtv, &c))
    return NULL;
  return gst_video_colorimetry_to_string (&c);
}

static void
check_color (guint32 cs, guint32 enc, guint32 q, guint32 xfer, gboolean rgb,
    gboolean sdtv, const gchar * want)
{
  gchar *got = color_str (cs, enc, q, xfer, rgb, sdtv);

  if (want == NULL)
    fail_unless (got == NULL, "colorspace %u: %s, wanted none", cs, got);
  else
    fail_unless (got != NULL && g_str_equal (got, want),
        "colorspace %u enc %u q %u xfer %u: %s, wanted %s", cs, enc, q, xfer,
        got ? got : "(none)", want);
  g_free (got);
}

GST_START_TEST (test_colorimetry)
{
  /* SDTV: SMPTE 170M, and the defaults resolved as videodev2.h does */
  check_color (V4L2_COLORSPACE_SMPTE170M, 0, 0, 0, FALSE, TRUE, "bt601");
  check_color (V4L2_COLORSPACE_SMPTE170M, V4L2_YCBCR_ENC_601,
      V4L2_QUANTIZATION_LIM_RANGE, V4L2_XFER_FUNC_709, FALSE, TRUE, "bt601");
  /* a driver that says nothing about an SDTV picture: BT.601 */
  check_color (V4L2_COLORSPACE_DEFAULT, 0, 0, 0, FALSE, TRUE, "bt601");
  /* nothing said, not SDTV: nothing in the caps */
  check_color (V4L2_COLORSPACE_DEFAULT, 0, 0, 0, FALSE, FALSE, NULL);
  check_color (V4L2_COLORSPACE_REC709, 0, 0, 0, FALSE, FALSE, "bt709");
  /* JPEG: full-range BT.601 matrix, sRGB */
  check_color (V4L2_COLORSPACE_JPEG, 0, 0, 0, FALSE, FALSE, "1:4:7:1");
  /* RGB pixels: full range, RGB matrix */
  check_color (V4L2_COLORSPACE_SRGB, 0, 0, 0, TRUE, FALSE, "sRGB");
  /* the driver's own full range on SDTV */
  check_color (V4L2_COLORSPACE_SMPTE170M, V4L2_YCBCR_ENC_601,
      V4L2_QUANTIZATION_FULL_RANGE, 0, FALSE, TRUE, "1:4:16:4");
  /* a colorspace GStreamer has no primaries for */
  check_color (V4L2_COLORSPACE_RAW, 0, 0, 0, FALSE, FALSE, NULL);
}

GST_END_TEST;

GST_START_TEST (test_field_order)
{
  /* V4L2_FIELD_INTERLACED: the standard's order */
  fail_unless_equals_string (ivtv_color_field_order (V4L2_FIELD_INTERLACED,
          V4L2_STD_NTSC_M), "bottom-field-first");
  fail_unless_equals_string (ivtv_color_field_order (V4L2_FIELD_INTERLACED,
          V4L2_STD_PAL_M), "bottom-field-first");
  fail_unless_equals_string (ivtv_color_field_order (V4L2_FIELD_INTERLACED,
          V4L2_STD_PAL_BG), "top-field-first");
  fail_unless_equals_string (ivtv_color_field_order (V4L2_FIELD_INTERLACED,
          V4L2_STD_SECAM_L), "top-field-first");
  /* a mixed or unknown standard tells nothing */
  fail_unless (ivtv_color_field_order (V4L2_FIELD_INTERLACED,
          V4L2_STD_ALL) == NULL);
  fail_unless (ivtv_color_field_order (V4L2_FIELD_INTERLACED, 0) == NULL);
  /* TB and BT name it, whatever the standard */
  fail_unless_equals_string (ivtv_color_field_order (V4L2_FIELD_INTERLACED_TB,
          V4L2_STD_NTSC_M), "top-field-first");
  fail_unless_equals_string (ivtv_color_field_order (V4L2_FIELD_INTERLACED_BT,
          V4L2_STD_PAL_BG), "bottom-field-first");
  fail_unless (ivtv_color_field_order (V4L2_FIELD_NONE, V4L2_STD_PAL) ==
      NULL);
}

GST_END_TEST;

static GstCaps *
annotated (const gchar * caps_str, guint32 pixfmt, guint32 field,
    guint32 colorspace, v4l2_std_id std)
{
  GstCaps *caps = gst_caps_from_string (caps_str);
  struct v4l2_format fmt;

  memset (&fmt, 0, sizeof (fmt));
  fmt.fmt.pix.pixelformat = pixfmt;
  fmt.fmt.pix.field = field;
  fmt.fmt.pix.colorspace = colorspace;
  ivtv_color_annotate_caps (caps, pixfmt ? &fmt : NULL, std);
  return caps;
}

GST_START_TEST (test_annotate_caps)
{
  GstCaps *caps;
  const GstStructure *s;

  /* PAL, the driver says INTERLACED: top field first, BT.601 */
  caps = annotated ("video/x-raw,format=YUY2,interlace-mode=interleaved; "
      "video/x-raw,format=UYVY,interlace-mode=progressive; image/jpeg",
      V4L2_PIX_FMT_YUYV, V4L2_FIELD_INTERLACED, V4L2_COLORSPACE_SMPTE170M,
      V4L2_STD_PAL_BG);
  s = gst_caps_get_structure (caps, 0);
  fail_unless_equals_string (gst_structure_get_string (s, "field-order"),
      "top-field-first");
  fail_unless_equals_string (gst_structure_get_string (s, "colorimetry"),
      "bt601");
  /* not the current format: the SDTV default; progressive: no order */
  s = gst_caps_get_structure (caps, 1);
  fail_unless_equals_string (gst_structure_get_string (s, "colorimetry"),
      "bt601");
  fail_unless (!gst_structure_has_field (s, "field-order"));
  /* not raw: untouched */
  s = gst_caps_get_structure (caps, 2);
  fail_unless_equals_int (gst_structure_n_fields (s), 0);
  gst_caps_unref (caps);

  /* the driver says INTERLACED_BT under PAL: its word wins */
  caps = annotated ("video/x-raw,format=YUY2,interlace-mode=interleaved",
      V4L2_PIX_FMT_YUYV, V4L2_FIELD_INTERLACED_BT, 0, V4L2_STD_PAL_BG);
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (caps, 0), "field-order"),
      "bottom-field-first");
  gst_caps_unref (caps);

  /* NTSC without a current format */
  caps = annotated ("video/x-raw,format=YUY2,interlace-mode=interleaved", 0,
      0, 0, V4L2_STD_NTSC_M);
  s = gst_caps_get_structure (caps, 0);
  fail_unless_equals_string (gst_structure_get_string (s, "field-order"),
      "bottom-field-first");
  fail_unless_equals_string (gst_structure_get_string (s, "colorimetry"),
      "bt601");
  gst_caps_unref (caps);

  /* grey has no colour */
  caps = annotated ("video/x-raw,format=GRAY8", V4L2_PIX_FMT_GREY, 0,
      V4L2_COLORSPACE_SRGB, 0);
  fail_unless (!gst_structure_has_field (gst_caps_get_structure (caps, 0),
          "colorimetry"));
  gst_caps_unref (caps);
}

GST_END_TEST;

static Suite *
color_suite (void)
{
  Suite *s = suite_create ("ivtv-color");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_colorimetry);
  tcase_add_test (tc, test_field_order);
  tcase_add_test (tc, test_annotate_caps);
  return s;
}

GST_CHECK_MAIN (color);
