/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* How a recording ends: the file holds the stream up to the stop and
 * nothing after it (issue 23).  Run under the emulator's hdpvr profile,
 * whose stop is the real driver's (hdpvr-video.c vidioc_encoder_cmd: the
 * flags cleared, streaming stopped at once; hdpvr_read: a read on the idle
 * device starts a new stream).  Each meson test picks its cases with
 * GST_CHECKS and its profile (see meson.build). */
#include "harness.h"

static GstPadProbeReturn
count_bytes (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  (void) pad;
  g_atomic_pointer_add ((gsize *) data,
      gst_buffer_get_size (GST_PAD_PROBE_INFO_BUFFER (info)));
  return GST_PAD_PROBE_OK;
}

/* EOS (gst-launch -e, Ctrl-C) once 500 kB are recorded: the driver stops
 * at once and does not drain, so the element reads nothing more; what
 * reaches the file after the EOS was sent is what was read before it (the
 * reader is at most one read, 64 KiB, ahead), not a new stream read after
 * the stop (before: up to the 2 s drain deadline of one, 1.6 MB at the
 * hdpvr's 6.5 Mbit/s). */
GST_START_TEST (test_hdpvr_stop_appends_nothing)
{
  gsize bytes = 0, at_eos = 0;
  GstElement *pipe = gst_parse_launch ("ivtvsrc ! fakesink name=sink", NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  GstBus *bus = gst_element_get_bus (pipe);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  gboolean eos = FALSE;

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_bytes, &bytes,
      NULL);
  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  while (!eos && g_get_monotonic_time () < deadline) {
    GstMessage *m = gst_bus_timed_pop (bus, 20 * GST_MSECOND);

    if (m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      gchar *text = ic_message_text (m);

      fail ("error: %s", text);
      g_free (text);
    }
    eos = m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS;
    gst_clear_message (&m);
    if (!at_eos && g_atomic_pointer_get (&bytes) >= 500000) {
      at_eos = g_atomic_pointer_get (&bytes);
      gst_element_send_event (pipe, gst_event_new_eos ());
    }
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  fail_unless (eos, "no EOS");
  fail_unless (bytes - at_eos < 200000, "%" G_GSIZE_FORMAT " bytes recorded "
      "after the EOS was sent (at %" G_GSIZE_FORMAT "): a stream read after "
      "the driver stopped was appended", bytes - at_eos, at_eos);
  gst_object_unref (bus);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (pipe);
}

GST_END_TEST;

/* The end of the tape on hdpvr: the signal goes, signal-timeout sends EOS,
 * the encoder stops at once and no data comes any more: the capture ends
 * with EOS, not with the stall watchdog's "hangs" error 10 s later (the
 * reader waited for data a stopped encoder never sends; the real hdpvr
 * over USB/IP, tests/vm/usbip hdpvr.end-of-tape). */
GST_START_TEST (test_hdpvr_end_of_tape_ends)
{
  GstElement *pipe = gst_parse_launch ("ivtvsrc signal-timeout=2 timeout=5 "
      "! fakesink", NULL);
  GstBus *bus = gst_element_get_bus (pipe);
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  gboolean eos = FALSE;

  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  while (!eos && g_get_monotonic_time () < deadline) {
    GstMessage *m = gst_bus_timed_pop (bus, 20 * GST_MSECOND);

    if (m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      gchar *text = ic_message_text (m);

      fail ("error instead of EOS at the end of the tape: %s", text);
      g_free (text);
    }
    eos = m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS;
    gst_clear_message (&m);
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  fail_unless (eos, "no EOS");
  gst_object_unref (bus);
  gst_object_unref (pipe);
}

GST_END_TEST;

static Suite *
ending_suite (void)
{
  Suite *s = suite_create ("ending");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_hdpvr_stop_appends_nothing);
  tcase_add_test (tc, test_hdpvr_end_of_tape_ends);
  return s;
}

GST_CHECK_MAIN (ending);
