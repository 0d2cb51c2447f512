/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of gst/session/ivtvnegotiate.c: caps of raw/MJPEG formats, order of
 * preference, fixation and the fourcc for caps.  Probes are written by
 * hand (as an SDTV card, a webcam, a TV card's camera input); no device is
 * opened (dev NULL: no current format). */
#include <gst/check/gstcheck.h>

#include "ivtvnegotiate.h"

static IvtvFraction rates_30_15[] = { {1, 30}, {1, 15} };

static IvtvFrameSize cam_sizes[] = {
  {320, 240, {V4L2_FRMIVAL_TYPE_DISCRETE, 2, rates_30_15, {0, 0}, {0, 0}, {0, 0}}},
  {640, 480, {V4L2_FRMIVAL_TYPE_DISCRETE, 2, rates_30_15, {0, 0}, {0, 0}, {0, 0}}},
  {1280, 720, {V4L2_FRMIVAL_TYPE_DISCRETE, 2, rates_30_15, {0, 0}, {0, 0}, {0, 0}}},
};

static IvtvFrameSize jpeg_sizes[] = {
  {1920, 1080, {V4L2_FRMIVAL_TYPE_DISCRETE, 2, rates_30_15, {0, 0}, {0, 0}, {0, 0}}},
};

static IvtvFrameSize tv_sizes[] = {
  {720, 576, {0, 0, NULL, {0, 0}, {0, 0}, {0, 0}}},
  {720, 480, {0, 0, NULL, {0, 0}, {0, 0}, {0, 0}}},
  {640, 480, {0, 0, NULL, {0, 0}, {0, 0}, {0, 0}}},
};

static IvtvInput tv_inputs[] = {
  {0, "Television", V4L2_INPUT_TYPE_TUNER, 0, V4L2_STD_ALL, 0},
  {1, "Composite1", V4L2_INPUT_TYPE_CAMERA, 0, V4L2_STD_ALL, 0},
  {2, "Webcam", V4L2_INPUT_TYPE_CAMERA, 0, 0, 0},
};

static IvtvStandard tv_stds[] = {
  {0, V4L2_STD_PAL_BG, "PAL-BG", 25, 1},
  {1, V4L2_STD_NTSC_M, "NTSC-M", 30000, 1001},
};

static void
make_webcam (IvtvProbe * p, IvtvFormat * f)
{
  ivtv_probe_init (p);
  memset (f, 0, 2 * sizeof (IvtvFormat));
  f[0].pixelformat = V4L2_PIX_FMT_MJPEG;
  f[0].flags = V4L2_FMT_FLAG_COMPRESSED;
  f[0].size_type = V4L2_FRMSIZE_TYPE_DISCRETE;
  f[0].n_sizes = G_N_ELEMENTS (jpeg_sizes);
  f[0].sizes = jpeg_sizes;
  f[1].pixelformat = V4L2_PIX_FMT_YUYV;
  f[1].size_type = V4L2_FRMSIZE_TYPE_DISCRETE;
  f[1].n_sizes = G_N_ELEMENTS (cam_sizes);
  f[1].sizes = cam_sizes;
  p->n_formats = 2;
  p->formats = f;
  p->current_input = -1;
}

static void
make_tv (IvtvProbe * p, IvtvFormat * f, v4l2_std_id std, gint input,
    gboolean stepwise)
{
  ivtv_probe_init (p);
  memset (f, 0, sizeof (IvtvFormat));
  f->pixelformat = V4L2_PIX_FMT_UYVY;
  if (stepwise) {
    /* like vivid: the scaler goes up to 3840x2160 */
    f->size_type = V4L2_FRMSIZE_TYPE_STEPWISE;
    f->stepwise.min_width = 16;
    f->stepwise.max_width = 3840;
    f->stepwise.step_width = 2;
    f->stepwise.min_height = 16;
    f->stepwise.max_height = 2160;
    f->stepwise.step_height = 2;
  } else {
    f->size_type = V4L2_FRMSIZE_TYPE_DISCRETE;
    f->n_sizes = G_N_ELEMENTS (tv_sizes);
    f->sizes = tv_sizes;
  }
  p->n_formats = 1;
  p->formats = f;
  p->n_inputs = G_N_ELEMENTS (tv_inputs);
  p->inputs = tv_inputs;
  p->current_input = input;
  p->n_stds = G_N_ELEMENTS (tv_stds);
  p->stds = tv_stds;
  p->current_std = std;
}

static void
assert_frame (const GstCaps * caps, const gchar * name, gint w, gint h,
    gint fn, gint fd)
{
  const GstStructure *s;
  gint v, n, d;

  fail_unless (caps != NULL && !gst_caps_is_empty (caps));
  s = gst_caps_get_structure (caps, 0);
  fail_unless (gst_structure_has_name (s, name), "%" GST_PTR_FORMAT, caps);
  fail_unless (gst_structure_get_int (s, "width", &v));
  fail_unless_equals_int (v, w);
  fail_unless (gst_structure_get_int (s, "height", &v));
  fail_unless_equals_int (v, h);
  fail_unless (gst_structure_get_fraction (s, "framerate", &n, &d),
      "%" GST_PTR_FORMAT, caps);
  fail_unless_equals_int (n, fn);
  fail_unless_equals_int (d, fd);
}

static void
assert_sdtv (const GstCaps * caps, gint par_n, gint par_d)
{
  const GstStructure *s = gst_caps_get_structure (caps, 0);
  gint n, d;

  fail_unless_equals_string (gst_structure_get_string (s, "interlace-mode"),
      "interleaved");
  fail_unless (gst_structure_get_fraction (s, "pixel-aspect-ratio", &n, &d));
  fail_unless_equals_int (n, par_n);
  fail_unless_equals_int (d, par_d);
}

GST_START_TEST (test_pal_native_first)
{
  IvtvProbe p;
  IvtvFormat f;
  GstCaps *caps;

  make_tv (&p, &f, V4L2_STD_PAL_BG, 1, FALSE);
  caps = ivtv_negotiate_probe_caps (&p, NULL);
  assert_frame (caps, "video/x-raw", 720, 576, 25, 1);
  assert_sdtv (caps, 12, 11);
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (caps, 0), "format"), "UYVY");
  /* the other sizes are still there */
  fail_unless_equals_int (gst_caps_get_size (caps), 3);
  caps = ivtv_negotiate_fixate (&p, NULL, caps);
  fail_unless (gst_caps_is_fixed (caps));
  assert_frame (caps, "video/x-raw", 720, 576, 25, 1);
  assert_sdtv (caps, 12, 11);
  gst_caps_unref (caps);
}

GST_END_TEST;

GST_START_TEST (test_ntsc_native_first)
{
  IvtvProbe p;
  IvtvFormat f;
  GstCaps *caps;
  gboolean found = FALSE;
  guint i;

  make_tv (&p, &f, V4L2_STD_NTSC_M, 0, FALSE);
  caps = ivtv_negotiate_probe_caps (&p, NULL);
  assert_frame (caps, "video/x-raw", 720, 480, 30000, 1001);
  assert_sdtv (caps, 10, 11);
  /* a scaled frame: the same picture in 640 pixels, PAR 10/11 * 720/640 */
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    const GstStructure *s = gst_caps_get_structure (caps, i);
    gint w = 0, n = 0, d = 0;

    gst_structure_get_int (s, "width", &w);
    if (w != 640)
      continue;
    fail_unless (gst_structure_get_fraction (s, "pixel-aspect-ratio", &n,
            &d));
    fail_unless (n == 45 && d == 44, "PAR %d/%d at 640x480", n, d);
    found = TRUE;
  }
  fail_unless (found);
  caps = ivtv_negotiate_fixate (&p, NULL, caps);
  assert_frame (caps, "video/x-raw", 720, 480, 30000, 1001);
  assert_sdtv (caps, 10, 11);
  gst_caps_unref (caps);
}

GST_END_TEST;

/* vivid's S-Video with PAL: the std's frame, not the scaler's maximum */
GST_START_TEST (test_pal_stepwise_not_scaler_max)
{
  IvtvProbe p;
  IvtvFormat f;
  GstCaps *caps;

  make_tv (&p, &f, V4L2_STD_PAL_BG, 1, TRUE);
  caps = ivtv_negotiate_probe_caps (&p, NULL);
  assert_frame (caps, "video/x-raw", 720, 576, 25, 1);
  caps = ivtv_negotiate_fixate (&p, NULL, caps);
  assert_frame (caps, "video/x-raw", 720, 576, 25, 1);
  assert_sdtv (caps, 12, 11);
  gst_caps_unref (caps);
}

GST_END_TEST;

/* downstream asks for a smaller frame: the range gives it */
GST_START_TEST (test_pal_stepwise_capsfilter)
{
  IvtvProbe p;
  IvtvFormat f;
  GstCaps *caps, *filter, *res;
  gint w, h;

  make_tv (&p, &f, V4L2_STD_PAL_BG, 1, TRUE);
  caps = ivtv_negotiate_probe_caps (&p, NULL);
  filter = gst_caps_from_string ("video/x-raw,width=360,height=288");
  res = gst_caps_intersect_full (filter, caps, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (caps);
  gst_caps_unref (filter);
  res = ivtv_negotiate_fixate (&p, NULL, res);
  fail_unless (gst_caps_is_fixed (res));
  fail_unless (gst_structure_get_int (gst_caps_get_structure (res, 0),
          "width", &w));
  fail_unless (gst_structure_get_int (gst_caps_get_structure (res, 0),
          "height", &h));
  fail_unless_equals_int (w, 360);
  fail_unless_equals_int (h, 288);
  gst_caps_unref (res);
}

GST_END_TEST;

/* a TV card's camera input has no std: no SDTV geometry */
GST_START_TEST (test_camera_input_of_tv_card)
{
  IvtvProbe p;
  IvtvFormat f;
  GstCaps *caps;
  const GstStructure *s;
  gint n, d;

  make_tv (&p, &f, V4L2_STD_PAL_BG, 2, FALSE);
  caps = ivtv_negotiate_probe_caps (&p, NULL);
  fail_unless_equals_int (gst_caps_get_size (caps), 3);
  s = gst_caps_get_structure (caps, 0);
  fail_unless_equals_string (gst_structure_get_string (s, "interlace-mode"),
      "progressive");
  fail_unless (gst_structure_get_fraction (s, "pixel-aspect-ratio", &n, &d));
  fail_unless_equals_int (n, 1);
  fail_unless_equals_int (d, 1);
  gst_caps_unref (caps);
}

GST_END_TEST;

GST_START_TEST (test_webcam_raw_before_jpeg)
{
  IvtvProbe p;
  IvtvFormat f[2];
  GstCaps *caps;
  guint i, n, first_jpeg = G_MAXUINT, last_raw = 0;

  make_webcam (&p, f);
  caps = ivtv_negotiate_probe_caps (&p, NULL);
  n = gst_caps_get_size (caps);
  fail_unless_equals_int (n, 4);
  for (i = 0; i < n; i++) {
    const GstStructure *s = gst_caps_get_structure (caps, i);
    if (gst_structure_has_name (s, "image/jpeg"))
      first_jpeg = MIN (first_jpeg, i);
    else
      last_raw = i;
  }
  fail_unless (last_raw < first_jpeg, "%" GST_PTR_FORMAT, caps);
  gst_caps_unref (caps);
}

GST_END_TEST;

/* capsfilter video/x-raw,width=320,height=240,framerate=15/1 */
GST_START_TEST (test_webcam_capsfilter)
{
  IvtvProbe p;
  IvtvFormat f[2];
  GstCaps *caps, *filter, *res;

  make_webcam (&p, f);
  caps = ivtv_negotiate_probe_caps (&p, NULL);
  filter = gst_caps_from_string ("video/x-raw,width=320,height=240,"
      "framerate=15/1");
  res = gst_caps_intersect_full (filter, caps, GST_CAPS_INTERSECT_FIRST);
  res = ivtv_negotiate_fixate (&p, NULL, res);
  assert_frame (res, "video/x-raw", 320, 240, 15, 1);
  gst_caps_unref (res);

  /* without a rate: the nearest to 30/1 */
  gst_caps_unref (filter);
  filter = gst_caps_from_string ("video/x-raw,width=640,height=480");
  res = gst_caps_intersect_full (filter, caps, GST_CAPS_INTERSECT_FIRST);
  res = ivtv_negotiate_fixate (&p, NULL, res);
  assert_frame (res, "video/x-raw", 640, 480, 30, 1);
  gst_caps_unref (res);

  /* MJPEG */
  gst_caps_unref (filter);
  filter = gst_caps_from_string ("image/jpeg");
  res = gst_caps_intersect_full (filter, caps, GST_CAPS_INTERSECT_FIRST);
  res = ivtv_negotiate_fixate (&p, NULL, res);
  assert_frame (res, "image/jpeg", 1920, 1080, 30, 1);
  fail_unless_equals_int (ivtv_negotiate_fourcc_for_caps (&p, res),
      V4L2_PIX_FMT_MJPEG);
  gst_caps_unref (res);
  gst_caps_unref (filter);
  gst_caps_unref (caps);
}

GST_END_TEST;

GST_START_TEST (test_fourcc_for_caps)
{
  IvtvProbe p;
  IvtvFormat f[2];
  GstCaps *c;

  make_webcam (&p, f);
  c = gst_caps_from_string ("video/x-raw,format=YUY2,width=320,height=240");
  fail_unless_equals_int (ivtv_negotiate_fourcc_for_caps (&p, c),
      V4L2_PIX_FMT_YUYV);
  gst_caps_unref (c);
  /* a format the device does not have */
  c = gst_caps_from_string ("video/x-raw,format=UYVY,width=320,height=240");
  fail_unless_equals_int (ivtv_negotiate_fourcc_for_caps (&p, c), 0);
  gst_caps_unref (c);
  /* the deprecated BGR32 is still BGRx */
  f[1].pixelformat = V4L2_PIX_FMT_BGR32;
  c = gst_caps_from_string ("video/x-raw,format=BGRx");
  fail_unless_equals_int (ivtv_negotiate_fourcc_for_caps (&p, c),
      V4L2_PIX_FMT_BGR32);
  gst_caps_unref (c);
  c = gst_caps_from_string ("video/mpeg,mpegversion=2,systemstream=true");
  fail_unless_equals_int (ivtv_negotiate_fourcc_for_caps (&p, c), 0);
  gst_caps_unref (c);
}

GST_END_TEST;

static Suite *
negotiate_suite (void)
{
  Suite *s = suite_create ("ivtv-negotiate");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_pal_native_first);
  tcase_add_test (tc, test_ntsc_native_first);
  tcase_add_test (tc, test_pal_stepwise_not_scaler_max);
  tcase_add_test (tc, test_pal_stepwise_capsfilter);
  tcase_add_test (tc, test_camera_input_of_tv_card);
  tcase_add_test (tc, test_webcam_raw_before_jpeg);
  tcase_add_test (tc, test_webcam_capsfilter);
  tcase_add_test (tc, test_fourcc_for_caps);
  return s;
}

GST_CHECK_MAIN (negotiate);
