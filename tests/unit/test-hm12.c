/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of the HM12 -> NV12 detiling (gst/paths/ivtvhm12.c): a frame tiled
 * by hand (each pixel's value says where it belongs) comes back in place,
 * at 720x480 and 720x576 and at a size with cut edge tiles; a buffer keeps
 * its timestamps; a partial frame is left alone. */
#include "ivtvhm12.h"

#include <gst/check/gstcheck.h>

/* the value of a pixel: a function of its plane and place */
static guint8
pix (int plane, guint x, guint y)
{
  return (guint8) (x * 7 + y * 13 + plane * 101);
}

/* HM12 as the card makes it, the straightforward way (tile by tile) */
static guint8 *
make_hm12 (guint w, guint h)
{
  guint8 *f = g_malloc (ivtv_hm12_frame_size (w, h)), *p = f;
  int plane;

  for (plane = 0; plane < 2; plane++) {
    guint ph = plane ? h / 2 : h, tx, ty, x, y;

    for (ty = 0; ty < ph; ty += 16)
      for (tx = 0; tx < w; tx += 16)
        for (y = ty; y < MIN (ty + 16, ph); y++)
          for (x = tx; x < MIN (tx + 16, w); x++)
            *p++ = pix (plane, x, y);
  }
  return f;
}

static void
check_size (guint w, guint h)
{
  guint8 *hm12 = make_hm12 (w, h);
  guint8 *nv12 = g_malloc0 (ivtv_hm12_frame_size (w, h));
  guint x, y;

  ivtv_hm12_to_nv12 (hm12, w, h, nv12, w, nv12 + w * h, w);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      fail_unless_equals_int (nv12[y * w + x], pix (0, x, y));
  for (y = 0; y < h / 2; y++)
    for (x = 0; x < w; x++)
      fail_unless_equals_int (nv12[w * h + y * w + x], pix (1, x, y));
  g_free (hm12);
  g_free (nv12);
}

GST_START_TEST (test_hm12_detiles_sdtv_frames)
{
  check_size (720, 480);
  check_size (720, 576);
}

GST_END_TEST;

GST_START_TEST (test_hm12_cut_edge_tiles)
{
  check_size (40, 36);          /* 2.5 tiles wide, 2.25 (1.125 for CbCr) high */
}

GST_END_TEST;

GST_START_TEST (test_hm12_buffer_keeps_timestamps)
{
  guint8 *hm12 = make_hm12 (720, 480);
  gsize size = ivtv_hm12_frame_size (720, 480);
  GstBuffer *in = gst_buffer_new_wrapped (hm12, size), *out;
  GstMapInfo map;

  GST_BUFFER_PTS (in) = 5 * GST_SECOND;
  GST_BUFFER_DURATION (in) = GST_SECOND / 30;
  GST_BUFFER_OFFSET (in) = 42;
  out = ivtv_hm12_convert_buffer (in, 720, 480);
  fail_unless (out != in);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (out), 5 * GST_SECOND);
  fail_unless_equals_uint64 (GST_BUFFER_DURATION (out), GST_SECOND / 30);
  fail_unless_equals_uint64 (GST_BUFFER_OFFSET (out), 42);
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  fail_unless_equals_int (map.data[720 * 17 + 33], pix (0, 33, 17));
  fail_unless_equals_int (map.data[720 * 480 + 720 * 20 + 3], pix (1, 3, 20));
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
}

GST_END_TEST;

GST_START_TEST (test_hm12_partial_frame_untouched)
{
  GstBuffer *in = gst_buffer_new_allocate (NULL, 1000, NULL);

  fail_unless (ivtv_hm12_convert_buffer (in, 720, 480) == in);
  gst_buffer_unref (in);
}

GST_END_TEST;

static Suite *
hm12_suite (void)
{
  Suite *s = suite_create ("ivtvhm12");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_hm12_detiles_sdtv_frames);
  tcase_add_test (tc, test_hm12_cut_edge_tiles);
  tcase_add_test (tc, test_hm12_buffer_keeps_timestamps);
  tcase_add_test (tc, test_hm12_partial_frame_untouched);
  return s;
}

GST_CHECK_MAIN (hm12);
