/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of gst/device/ivtvdevice.c without a device: names copied from a
 * driver are bounded and printable, a closed device is safe to use. */
#include <gst/check/gstcheck.h>
#include <errno.h>
#include <string.h>

#include "ivtvdevice.h"
#include "ivtvprobe.h"

GST_START_TEST (test_copy_name)
{
  gchar out[IVTV_NAME_LEN];
  const gchar raw[4] = { 'a', 'b', 'c', 'd' };

  ivtv_device_copy_name (out, sizeof (out), raw, sizeof (raw));
  fail_unless_equals_string (out, "abcd");
  ivtv_device_copy_name (out, 3, raw, sizeof (raw));
  fail_unless_equals_string (out, "ab");
  ivtv_device_copy_name (out, sizeof (out), "S-Video 1   ", 12);
  fail_unless_equals_string (out, "S-Video 1");
  ivtv_device_copy_name (out, sizeof (out), "a\tb\x7f", 4);
  fail_unless_equals_string (out, "a?b?");
  ivtv_device_copy_name (out, sizeof (out), "caf\xe9", 4);
  fail_unless_equals_string (out, "caf?");
  ivtv_device_copy_name (out, sizeof (out), "caf\xc3\xa9", 5);
  fail_unless_equals_string (out, "caf\xc3\xa9");
}

GST_END_TEST;

GST_START_TEST (test_device_closed)
{
  IvtvDevice dev;
  IvtvProbe p;
  GError *err = NULL;
  struct v4l2_capability cap;

  ivtv_device_init (&dev, NULL);
  fail_unless_equals_int (ivtv_ioctl (&dev, VIDIOC_QUERYCAP, &cap), -EBADF);
  fail_unless (ivtv_device_read (&dev, &cap, 1) == -EBADF);
  ivtv_probe_init (&p);
  fail_if (ivtv_probe_run (&p, &dev, &err));
  g_clear_error (&err);
  fail_if (ivtv_device_open (&dev, "", FALSE, &err));
  fail_unless (err->code == IVTV_DEVICE_ERROR_NOT_FOUND);
  g_clear_error (&err);
  fail_if (ivtv_device_adopt_fd (&dev, -5, &err));
  fail_unless (err->code == IVTV_DEVICE_ERROR_BAD_FD);
  g_clear_error (&err);
  ivtv_device_clear (&dev);
  ivtv_device_clear (&dev);     /* twice is fine */
}

GST_END_TEST;

static Suite *
device_suite (void)
{
  Suite *s = suite_create ("ivtv-device");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_copy_name);
  tcase_add_test (tc, test_device_closed);
  return s;
}

GST_CHECK_MAIN (device);
