/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of gst/device/ivtviomode.c: the choice of read() or a streaming
 * mode for io-mode=auto and forced modes, with errors naming what the
 * device can do. */
#include <gst/check/gstcheck.h>

#include <linux/videodev2.h>

#include "ivtviomode.h"

/* ---- io-mode ---- */

GST_START_TEST (test_io_mode_choice)
{
  const guint32 ivtv = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_READWRITE;
  const guint32 cam = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
  const guint32 both = ivtv | V4L2_CAP_STREAMING;
  const guint all = IVTV_IO_BIT (IVTV_IO_MMAP) | IVTV_IO_BIT (IVTV_IO_USERPTR)
      | IVTV_IO_BIT (IVTV_IO_DMABUF);
  IvtvIoMode m = -1;
  GError *err = NULL;

  fail_unless (ivtv_io_mode_choose (IVTV_IO_AUTO, ivtv, 0, "d", &m, NULL));
  fail_unless_equals_int (m, IVTV_IO_RW);
  fail_unless (ivtv_io_mode_choose (IVTV_IO_AUTO, cam, all, "d", &m, NULL));
  fail_unless_equals_int (m, IVTV_IO_MMAP);
  fail_unless (ivtv_io_mode_choose (IVTV_IO_AUTO, both, all, "d", &m, NULL));
  fail_unless_equals_int (m, IVTV_IO_MMAP);
  /* REQBUFS refused: read() */
  fail_unless (ivtv_io_mode_choose (IVTV_IO_AUTO, both, 0, "d", &m, NULL));
  fail_unless_equals_int (m, IVTV_IO_RW);
  fail_unless (ivtv_io_mode_choose (IVTV_IO_AUTO, cam,
          IVTV_IO_BIT (IVTV_IO_USERPTR), "d", &m, NULL));
  fail_unless_equals_int (m, IVTV_IO_USERPTR);
  fail_unless (ivtv_io_mode_choose (IVTV_IO_DMABUF, cam, all, "d", &m, NULL));
  fail_unless_equals_int (m, IVTV_IO_DMABUF);

  /* mask without STREAMING is ignored */
  fail_if (ivtv_io_mode_choose (IVTV_IO_MMAP, ivtv, all, "/dev/video0", &m,
          &err));
  fail_unless (strstr (err->message, "/dev/video0") != NULL);
  fail_unless (strstr (err->message, "io-mode=mmap") != NULL);
  fail_unless (strstr (err->message, "It can do: rw") != NULL, "%s",
      err->message);
  g_clear_error (&err);

  fail_if (ivtv_io_mode_choose (IVTV_IO_RW, cam, all, "d", &m, &err));
  fail_unless (strstr (err->message, "mmap, userptr, dmabuf") != NULL, "%s",
      err->message);
  g_clear_error (&err);

  fail_if (ivtv_io_mode_choose (IVTV_IO_AUTO, cam, 0, "d", &m, &err));
  fail_unless (err != NULL);
  g_clear_error (&err);

  fail_unless (ivtv_io_mode_can_fall_back (IVTV_IO_AUTO, both));
  fail_if (ivtv_io_mode_can_fall_back (IVTV_IO_MMAP, both));
  fail_if (ivtv_io_mode_can_fall_back (IVTV_IO_AUTO, cam));
  fail_unless_equals_string (ivtv_io_mode_nick (IVTV_IO_USERPTR), "userptr");
}

GST_END_TEST;

static Suite *
io_mode_suite (void)
{
  Suite *s = suite_create ("ivtv-io-mode");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_io_mode_choice);
  return s;
}

GST_CHECK_MAIN (io_mode);
