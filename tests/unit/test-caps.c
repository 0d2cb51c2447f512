/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of gst/device/ivtvcaps.c: MPEG caps by stream type and by sniffing,
 * the SDTV geometry of a standard, the fourcc table, caps from a probe. */
#include <gst/check/gstcheck.h>
#include <string.h>

#include "ivtvcaps.h"
#include "ivtvprobe.h"

/* ---- caps ---- */

static void
check_caps (GstCaps * caps, const gchar * expected)
{
  GstCaps *e = gst_caps_from_string (expected);

  fail_unless (caps != NULL, "no caps, expected %s", expected);
  fail_unless (gst_caps_is_equal (caps, e), "%" GST_PTR_FORMAT " != %s",
      caps, expected);
  gst_caps_unref (caps);
  gst_caps_unref (e);
}

GST_START_TEST (test_mpeg_caps)
{
  check_caps (ivtv_caps_for_mpeg_stream_type (V4L2_MPEG_STREAM_TYPE_MPEG2_PS),
      "video/mpeg, mpegversion=(int)2, systemstream=(boolean)true");
  check_caps (ivtv_caps_for_mpeg_stream_type (V4L2_MPEG_STREAM_TYPE_MPEG2_DVD),
      "video/mpeg, mpegversion=(int)2, systemstream=(boolean)true");
  check_caps (ivtv_caps_for_mpeg_stream_type
      (V4L2_MPEG_STREAM_TYPE_MPEG2_SVCD),
      "video/mpeg, mpegversion=(int)2, systemstream=(boolean)true");
  check_caps (ivtv_caps_for_mpeg_stream_type (V4L2_MPEG_STREAM_TYPE_MPEG2_TS),
      "video/mpegts, systemstream=(boolean)true, packetsize=(int)188");
  check_caps (ivtv_caps_for_mpeg_stream_type (V4L2_MPEG_STREAM_TYPE_MPEG1_SS),
      "video/mpeg, mpegversion=(int)1, systemstream=(boolean)true");
  check_caps (ivtv_caps_for_mpeg_stream_type (V4L2_MPEG_STREAM_TYPE_MPEG1_VCD),
      "video/mpeg, mpegversion=(int)1, systemstream=(boolean)true");
  fail_unless (ivtv_caps_for_mpeg_stream_type (-1) == NULL);
  fail_unless (ivtv_caps_for_mpeg_stream_type (99) == NULL);
}

GST_END_TEST;

GST_START_TEST (test_mpeg_sniff)
{
  guint8 ps2[16] = { 0, 0, 1, 0xba, 0x44 };
  guint8 ps1[16] = { 0, 0, 1, 0xba, 0x21 };
  guint8 ts[3 * 188 + 10];
  guint8 junk[600];

  memset (ts, 0xff, sizeof (ts));
  ts[5] = ts[5 + 188] = ts[5 + 376] = 0x47;
  memset (junk, 0x47, sizeof (junk));
  junk[188] = 0;                /* no regular sync */
  junk[189] = 0;
  junk[376] = 1;
  junk[377] = 1;
  junk[564] = 2;
  junk[565] = 2;

  fail_unless_equals_int (ivtv_caps_sniff_mpeg (ps2, sizeof (ps2)),
      V4L2_MPEG_STREAM_TYPE_MPEG2_PS);
  fail_unless_equals_int (ivtv_caps_sniff_mpeg (ps1, sizeof (ps1)),
      V4L2_MPEG_STREAM_TYPE_MPEG1_SS);
  fail_unless_equals_int (ivtv_caps_sniff_mpeg (ts, sizeof (ts)),
      V4L2_MPEG_STREAM_TYPE_MPEG2_TS);
  fail_unless_equals_int (ivtv_caps_sniff_mpeg (ts, 100),
      IVTV_MPEG_STREAM_UNKNOWN);
  fail_unless_equals_int (ivtv_caps_sniff_mpeg (ps2, 3),
      IVTV_MPEG_STREAM_UNKNOWN);
  fail_unless_equals_int (ivtv_caps_sniff_mpeg (NULL, 0),
      IVTV_MPEG_STREAM_UNKNOWN);
}

GST_END_TEST;

GST_START_TEST (test_std_geometry)
{
  gint w = 0, h = 0, fn = 0, fd = 0, pn = 0, pd = 0;

  fail_unless (ivtv_caps_std_geometry (V4L2_STD_NTSC_M, &w, &h, &fn, &fd,
          &pn, &pd));
  fail_unless (w == 720 && h == 480 && fn == 30000 && fd == 1001
      && pn == 10 && pd == 11);
  fail_unless (ivtv_caps_std_geometry (V4L2_STD_PAL_BG, &w, &h, &fn, &fd,
          &pn, &pd));
  fail_unless (w == 720 && h == 576 && fn == 25 && fd == 1 && pn == 12
      && pd == 11);
  fail_unless (ivtv_caps_std_geometry (V4L2_STD_SECAM_L, &w, &h, &fn, &fd,
          &pn, &pd));
  fail_unless (h == 576);
  fail_unless (ivtv_caps_std_geometry (V4L2_STD_PAL_M, &w, &h, &fn, &fd,
          &pn, &pd));
  fail_unless (h == 480);       /* PAL-M is a 525-line standard */
  fail_if (ivtv_caps_std_geometry (0, &w, &h, &fn, &fd, &pn, &pd));
  fail_if (ivtv_caps_std_geometry (V4L2_STD_NTSC_M | V4L2_STD_PAL_BG, &w, &h,
          &fn, &fd, &pn, &pd));
}

GST_END_TEST;

GST_START_TEST (test_fourcc_map)
{
  GstStructure *s;

  fail_unless (ivtv_caps_lookup_fourcc (V4L2_PIX_FMT_YUYV)->format ==
      GST_VIDEO_FORMAT_YUY2);
  /* HM12 (the YUV node) is detiled by ivtvsrc: NV12 downstream */
  fail_unless (ivtv_caps_lookup_fourcc (V4L2_PIX_FMT_HM12)->format ==
      GST_VIDEO_FORMAT_NV12);
  fail_unless (ivtv_caps_lookup_fourcc (V4L2_PIX_FMT_SGRBG8) == NULL);
  s = gst_structure_from_string ("video/x-raw, format=(string)YUY2", NULL);
  fail_unless_equals_int (ivtv_caps_fourcc_from_structure (s),
      V4L2_PIX_FMT_YUYV);
  gst_structure_free (s);
  s = gst_structure_from_string ("video/mpegts", NULL);
  fail_unless_equals_int (ivtv_caps_fourcc_from_structure (s),
      V4L2_PIX_FMT_MPEG);
  gst_structure_free (s);
  s = gst_structure_from_string ("image/jpeg", NULL);
  fail_unless_equals_int (ivtv_caps_fourcc_from_structure (s),
      V4L2_PIX_FMT_MJPEG);
  gst_structure_free (s);
  s = gst_structure_from_string ("audio/x-raw", NULL);
  fail_unless_equals_int (ivtv_caps_fourcc_from_structure (s), 0);
  gst_structure_free (s);
}

GST_END_TEST;

/* A card's formats as caps: MPEG of the card's stream type, raw formats
 * at the standard's rate and interlacing, HM12 as the NV12 ivtvsrc makes
 * of it (ivtvhm12.c). */
GST_START_TEST (test_caps_from_probe)
{
  static IvtvFrameSize pal_size[] = {
    {720, 576, {0, 0, NULL, {0, 0}, {0, 0}, {0, 0}}},
  };
  IvtvFormat f[3];
  IvtvProbe p;
  GstCaps *caps;
  GstStructure *s;
  gint v, n, d;

  ivtv_probe_init (&p);
  memset (f, 0, sizeof (f));
  f[0].pixelformat = V4L2_PIX_FMT_MPEG;
  f[0].flags = V4L2_FMT_FLAG_COMPRESSED;
  f[1].pixelformat = V4L2_PIX_FMT_UYVY;
  f[1].size_type = V4L2_FRMSIZE_TYPE_DISCRETE;
  f[1].n_sizes = 1;
  f[1].sizes = pal_size;
  f[2].pixelformat = V4L2_PIX_FMT_HM12;
  p.formats = f;
  p.n_formats = 3;

  caps = ivtv_caps_from_probe (&p, V4L2_STD_PAL,
      V4L2_MPEG_STREAM_TYPE_MPEG2_TS);
  fail_unless_equals_int (gst_caps_get_size (caps), 3);
  s = gst_caps_get_structure (caps, 2);
  fail_unless_equals_string (gst_structure_get_string (s, "format"), "NV12");
  s = gst_caps_get_structure (caps, 0);
  fail_unless (gst_structure_has_name (s, "video/mpegts"), "%" GST_PTR_FORMAT,
      caps);
  s = gst_caps_get_structure (caps, 1);
  fail_unless (gst_structure_has_name (s, "video/x-raw"));
  fail_unless_equals_string (gst_structure_get_string (s, "format"), "UYVY");
  fail_unless (gst_structure_get_int (s, "width", &v) && v == 720);
  fail_unless (gst_structure_get_int (s, "height", &v) && v == 576);
  fail_unless (gst_structure_get_fraction (s, "framerate", &n, &d));
  fail_unless (n == 25 && d == 1, "%d/%d", n, d);
  fail_unless_equals_string (gst_structure_get_string (s, "interlace-mode"),
      "interleaved");
  fail_unless (gst_structure_get_fraction (s, "pixel-aspect-ratio", &n, &d));
  fail_unless (n == 12 && d == 11, "%d/%d", n, d);
  gst_caps_unref (caps);
}

GST_END_TEST;

static Suite *
caps_suite (void)
{
  Suite *s = suite_create ("ivtv-caps");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_mpeg_caps);
  tcase_add_test (tc, test_mpeg_sniff);
  tcase_add_test (tc, test_std_geometry);
  tcase_add_test (tc, test_fourcc_map);
  tcase_add_test (tc, test_caps_from_probe);
  return s;
}

GST_CHECK_MAIN (caps);
