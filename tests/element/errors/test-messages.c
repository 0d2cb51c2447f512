/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Clear errors for small mistakes (issue 14, part 5): a failure while
 * starting posts one error, not the base class's generic second one; caps
 * downstream wants and the card cannot make name what it can (the stream
 * type to set, or the formats and sizes); a frequency too large for the
 * tuner's units is out of range, not wrapped; a new device while capturing
 * is refused with a warning.
 *
 * Run under `ivtv-emu --profile pvr250 --fault fast --` (test_pvr_*) and
 * `--profile webcam` (test_cam_*); see meson.build. */
#include "harness.h"

#include <string.h>

static void
expect_one_error (const gchar * launch, const gchar * a, const gchar * b)
{
  IcResult r;

  ic_run_launch (launch, 10000, -1, &r);
  fail_unless (r.error != NULL, "%s: no error", launch);
  fail_unless (strstr (r.error, a) && (b == NULL || strstr (r.error, b)),
      "%s: the error '%s' does not say '%s' / '%s'", launch, r.error, a, b);
  fail_unless_equals_int (r.n_errors, 1);
  ic_result_clear (&r);
}

/* what start() does (settings, the I/O choice) fails with one error */
GST_START_TEST (test_pvr_start_failure_one_error)
{
  /* 2^60 Hz: Hz x 16 wrapped around to 100 MHz, a valid channel */
  expect_one_error ("ivtvsrc input=tuner frequency=1152921504706846976 ! "
      "fakesink", "is outside the range of tuner", "44.000 - 958.000 MHz");
  expect_one_error ("ivtvsrc input=tuner frequency=1000000000000 ! "
      "fakesink", "Frequency 1000000.000 MHz is outside", NULL);
  expect_one_error ("ivtvsrc io-mode=mmap ! fakesink", "io-mode=mmap",
      "It can do: rw");
}

GST_END_TEST;

/* downstream wants a transport stream of a card set to a program stream */
GST_START_TEST (test_pvr_mpegts_names_stream_type)
{
  IcResult r;

  fail_unless (ic_set_stream_type (V4L2_MPEG_STREAM_TYPE_MPEG2_PS));
  ic_run_launch ("ivtvsrc ! video/mpegts ! fakesink", 10000, -1, &r);
  fail_unless (r.error != NULL);
  fail_unless (strstr (r.error, "set stream-type=ts") != NULL, "%s",
      r.error);
  fail_unless (strstr (r.error, "MPEG-2 program stream") != NULL, "%s",
      r.error);
  ic_result_clear (&r);
  /* and the other way round */
  ic_run_launch ("ivtvsrc stream-type=ts ! video/mpeg,systemstream=true ! "
      "fakesink", 10000, -1, &r);
  fail_unless (r.error != NULL);
  fail_unless (strstr (r.error, "set stream-type=ps") != NULL, "%s",
      r.error);
  ic_result_clear (&r);
}

GST_END_TEST;

GST_START_TEST (test_pvr_raw_lists_what_it_makes)
{
  IcResult r;

  fail_unless (ic_set_stream_type (V4L2_MPEG_STREAM_TYPE_MPEG2_PS));
  ic_run_launch ("ivtvsrc ! video/x-raw ! fakesink", 10000, -1, &r);
  fail_unless (r.error != NULL);
  fail_unless (strstr (r.error, "/dev/video0 has no capture format for "
          "video/x-raw; 'WinTV PVR 250' offers: MPEG-2 program stream "
          "(stream-type=ps)") != NULL, "%s", r.error);
  ic_result_clear (&r);
}

GST_END_TEST;

GST_START_TEST (test_cam_impossible_size_lists_sizes)
{
  IcResult r;

  ic_run_launch ("ivtvsrc ! video/x-raw,width=1000 ! fakesink", 10000, -1,
      &r);
  fail_unless (r.error != NULL);
  fail_unless (strstr (r.error, "has no capture format for video/x-raw, "
          "width=(int)1000") != NULL, "%s", r.error);
  fail_unless (strstr (r.error, "YUY2 640x480") && strstr (r.error,
          "YUY2 1920x1080") && strstr (r.error, "image/jpeg 320x240"), "%s",
      r.error);
  ic_result_clear (&r);
}

GST_END_TEST;

/* a new device while capturing: refused, the capture goes on */
GST_START_TEST (test_pvr_device_change_refused)
{
  IcPipe *run = ic_pipe_new ("ivtvsrc name=src ! fakesink name=sink");
  GstMessage *msg;
  gchar *text, *dev = NULL, *uri;

  ic_pipe_play (run);
  fail_unless (ic_pipe_wait_buffers (run, 2, 10000));
  g_object_set (run->src, "device", "/dev/video7", NULL);
  msg = ic_pipe_wait (run, GST_MESSAGE_WARNING, 5000);
  fail_unless (msg != NULL, "no warning");
  text = ic_message_text (msg);
  fail_unless (strstr (text, "'device' cannot change while capturing from "
          "/dev/video0") != NULL, "%s", text);
  g_free (text);
  gst_message_unref (msg);
  g_object_get (run->src, "device", &dev, NULL);
  fail_unless_equals_string (dev, "/dev/video0");
  g_free (dev);
  uri = gst_uri_handler_get_uri (GST_URI_HANDLER (run->src));
  fail_unless_equals_string (uri, "ivtv:///dev/video0");
  g_free (uri);
  fail_unless (ic_pipe_wait_buffers (run, run->n_buffers + 2, 10000),
      "the capture stopped");
  /* stopped, it takes */
  ic_pipe_stop (run, 5000);
  g_object_set (run->src, "device", "/dev/video7", NULL);
  g_object_get (run->src, "device", &dev, NULL);
  fail_unless_equals_string (dev, "/dev/video7");
  g_free (dev);
  ic_pipe_free (run);
}

GST_END_TEST;

static Suite *
messages_suite (void)
{
  Suite *s = suite_create ("messages");
  TCase *tc = tcase_create ("messages");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 60);
  tcase_add_checked_fixture (tc, NULL, ic_pipe_teardown);
  tcase_add_test (tc, test_pvr_start_failure_one_error);
  tcase_add_test (tc, test_pvr_mpegts_names_stream_type);
  tcase_add_test (tc, test_pvr_raw_lists_what_it_makes);
  tcase_add_test (tc, test_cam_impossible_size_lists_sizes);
  tcase_add_test (tc, test_pvr_device_change_refused);
  return s;
}

GST_CHECK_MAIN (messages);
