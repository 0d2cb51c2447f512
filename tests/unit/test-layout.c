/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of gst/device/ivtvlayout.c: where a driver puts the planes of a raw
 * frame (its bytesperline), and whether the frame must be copied into
 * GStreamer's layout. */
#include <gst/check/gstcheck.h>
#include <gst/video/video.h>

#include "ivtvlayout.h"

/* ---- the driver's frame layout (ivtv_layout_from_driver) ---- */

static gboolean
layout (GstVideoFormat f, gint w, gint h, guint32 bpl, IvtvFrameLayout * l)
{
  GstVideoInfo info;

  fail_unless (gst_video_info_set_format (&info, f, w, h));
  return ivtv_layout_from_driver (&info, bpl, l);
}

GST_START_TEST (test_layout_packed)
{
  IvtvFrameLayout l;

  fail_if (layout (GST_VIDEO_FORMAT_YUY2, 640, 480, 1280, &l));
  fail_unless_equals_int (l.stride[0], 1280);
  fail_unless_equals_int (l.size, 1280 * 480);
  fail_if (layout (GST_VIDEO_FORMAT_YUY2, 640, 480, 0, &l));
  /* padded lines */
  fail_unless (layout (GST_VIDEO_FORMAT_YUY2, 640, 480, 1536, &l));
  fail_unless_equals_int (l.n_planes, 1);
  fail_unless_equals_int (l.stride[0], 1536);
  fail_unless_equals_int (l.rows[0], 480);
  fail_unless_equals_int (l.size, 1536 * 480);
  /* GStreamer rounds GRAY8 lines up to 4 bytes, the driver may not */
  fail_unless (layout (GST_VIDEO_FORMAT_GRAY8, 322, 10, 322, &l));
  fail_unless_equals_int (l.size, 322 * 10);
}

GST_END_TEST;

GST_START_TEST (test_layout_planar)
{
  IvtvFrameLayout l;

  fail_if (layout (GST_VIDEO_FORMAT_I420, 720, 576, 720, &l));
  fail_unless (layout (GST_VIDEO_FORMAT_I420, 720, 576, 768, &l));
  fail_unless_equals_int (l.n_planes, 3);
  fail_unless_equals_int (l.stride[0], 768);
  fail_unless_equals_int (l.stride[1], 384);
  fail_unless_equals_int (l.stride[2], 384);
  fail_unless_equals_int (l.offset[1], 768 * 576);
  fail_unless_equals_int (l.offset[2], 768 * 576 + 384 * 288);
  fail_unless_equals_int (l.rows[1], 288);
  fail_unless_equals_int (l.size, 768 * 576 + 2 * 384 * 288);

  fail_if (layout (GST_VIDEO_FORMAT_NV12, 720, 480, 720, &l));
  fail_unless (layout (GST_VIDEO_FORMAT_NV12, 720, 480, 768, &l));
  fail_unless_equals_int (l.n_planes, 2);
  fail_unless_equals_int (l.stride[1], 768);
  fail_unless_equals_int (l.offset[1], 768 * 480);
  fail_unless_equals_int (l.rows[1], 240);
  fail_unless_equals_int (l.size, 768 * 720);
}

GST_END_TEST;

static Suite *
layout_suite (void)
{
  Suite *s = suite_create ("ivtv-layout");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_layout_packed);
  tcase_add_test (tc, test_layout_planar);
  return s;
}

GST_CHECK_MAIN (layout);
