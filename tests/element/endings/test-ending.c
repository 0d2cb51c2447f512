/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* How a recording ends: the file holds the stream up to the stop and
 * nothing after it (issue 23).  Run under the emulator's hdpvr profile,
 * whose stop is the real driver's (hdpvr-video.c vidioc_encoder_cmd: the
 * flags cleared, streaming stopped at once; hdpvr_read: a read on the idle
 * device starts a new stream), and its pvrusb2 profile (no encoder
 * command; the close frees what the driver holds: pvrusb2-v4l2.c
 * pvr2_v4l2_release -> pvrusb2-ioread.c pvr2_ioread_destroy).  Each meson
 * test picks its cases with GST_CHECKS and its profile (see meson.build). */
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

/* ---- pvrusb2: what the driver holds at the stop ---- */

typedef struct
{
  GMutex lock;
  gsize bytes;
  gint64 last_us;               /* when the last buffer reached the sink */
} SinkCount;

static GstPadProbeReturn
count_sink (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  SinkCount *c = data;

  (void) pad;
  g_mutex_lock (&c->lock);
  c->bytes += gst_buffer_get_size (GST_PAD_PROBE_INFO_BUFFER (info));
  c->last_us = g_get_monotonic_time ();
  g_mutex_unlock (&c->lock);
  return GST_PAD_PROBE_OK;
}

/* The emulator's account of the reader's close (tests/emu/mpeg.c
 * account_unread): bytes the driver held, when the first of them became
 * readable (CLOCK_MONOTONIC ns), bytes read. */
static gboolean
emu_unread (guint64 * held, gint64 * ready_ns, guint64 * read)
{
  const gchar *dir = g_getenv ("IVTV_EMU_RUNDIR");
  gchar *path, *text = NULL;
  gboolean ok;

  fail_unless (dir != NULL, "not under ivtv-emu");
  path = g_build_filename (dir, "unread-video0", NULL);
  ok = g_file_get_contents (path, &text, NULL, NULL)
      && sscanf (text, "%" G_GUINT64_FORMAT " %" G_GINT64_FORMAT " %"
      G_GUINT64_FORMAT, held, ready_ns, read) == 3;
  g_free (text);
  g_free (path);
  return ok;
}

/* Pump the bus until @done (or EOS when @done is NULL) or @until
 * (monotonic us); fails on an error or a warning.  TRUE at EOS. */
static gboolean
pump_bus (GstElement * pipe, gint64 until, gboolean (*done) (gpointer),
    gpointer data)
{
  GstBus *bus = gst_element_get_bus (pipe);
  gboolean eos = FALSE;

  while (!eos && !(done && done (data)) && g_get_monotonic_time () < until) {
    GstMessage *m = gst_bus_timed_pop (bus, 5 * GST_MSECOND);

    if (m && (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR
            || GST_MESSAGE_TYPE (m) == GST_MESSAGE_WARNING)) {
      gchar *text = ic_message_text (m);

      fail ("%s: %s", GST_MESSAGE_TYPE_NAME (m), text);
      g_free (text);
    }
    eos = m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS;
    gst_clear_message (&m);
  }
  gst_object_unref (bus);
  return eos;
}

static void
sink_get (SinkCount * c, gsize * bytes, gint64 * last_us)
{
  g_mutex_lock (&c->lock);
  *bytes = c->bytes;
  *last_us = c->last_us;
  g_mutex_unlock (&c->lock);
}

static gboolean
have_500k (gpointer data)
{
  gsize bytes;
  gint64 last_us;

  sink_get (data, &bytes, &last_us);
  return bytes >= 500000;
}

/* 40 ms since the last buffer: the reader reads every 80 ms
 * (ivtvcaptureread.c IVTV_READ_PACE) and the card completes a 16 KiB
 * buffer every 22 ms at 6 Mbit/s, so at least one is ready and unread
 * now (this only makes the loss certain where there is one; the check
 * below does not depend on it) */
static gboolean
reader_is_behind (gpointer data)
{
  gsize bytes;
  gint64 last_us;

  sink_get (data, &bytes, &last_us);
  return g_get_monotonic_time () - last_us >= 40 * G_TIME_SPAN_MILLISECOND;
}

/* EOS (gst-launch -e, ivtv-capture's stop) on pvrusb2, which has no
 * encoder command: its stream runs until the close, and the close frees
 * the buffers the driver holds with their data.  Every byte the card had
 * ready when the EOS was sent is in the file: what the driver still held
 * at the close became readable after the EOS, and every byte read reached
 * the sink.  (Before: the reading ended at the EOS, and the 16 KiB buffers
 * made since the last read, up to the 80 ms pace, were freed unread at
 * every recording's end.)  @fd: a descriptor for device-fd (-1: the
 * element opens the node, O_NONBLOCK). */
static void
check_eos_reads_held (gint fd)
{
  SinkCount c;
  gchar *launch = g_strdup_printf ("ivtvsrc input=composite device-fd=%d "
      "! fakesink name=sink sync=false", fd);
  GstElement *pipe = gst_parse_launch (launch, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  guint64 held = 0, read = 0;
  gint64 ready_ns = 0, eos_ns, t;
  gsize at_eos, bytes;

  memset (&c, 0, sizeof (c));
  g_mutex_init (&c.lock);
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_sink, &c, NULL);
  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  t = g_get_monotonic_time ();
  fail_if (pump_bus (pipe, t + 20 * G_USEC_PER_SEC, have_500k, &c),
      "EOS before the EOS was sent");
  fail_unless (have_500k (&c), "no 500 kB in 20 s");
  pump_bus (pipe, g_get_monotonic_time () + 2 * G_USEC_PER_SEC,
      reader_is_behind, &c);
  eos_ns = g_get_monotonic_time () * 1000;      /* CLOCK_MONOTONIC */
  sink_get (&c, &at_eos, &t);
  gst_element_send_event (pipe, gst_event_new_eos ());
  fail_unless (pump_bus (pipe, g_get_monotonic_time () + 10 * G_USEC_PER_SEC,
          NULL, NULL), "no EOS within 10 s");
  gst_element_set_state (pipe, GST_STATE_NULL);
  if (fd >= 0)
    close (fd);                 /* the element's dup is closed: the last */
  sink_get (&c, &bytes, &t);
  fail_unless (emu_unread (&held, &ready_ns, &read),
      "the emulator wrote no unread-video0");
  g_print ("%s: %" G_GSIZE_FORMAT " bytes in the file (%" G_GSIZE_FORMAT
      " when the EOS was sent), %" G_GUINT64_FORMAT " read from the "
      "driver; at the close it held %" G_GUINT64_FORMAT " bytes, readable "
      "%+.1f ms after the EOS\n", fd < 0 ? "O_NONBLOCK" : "blocking fd",
      bytes, at_eos, read, held, held ? (ready_ns - eos_ns) / 1e6 : 0.0);
  fail_unless_equals_uint64 (bytes, read);
  fail_unless (held == 0 || ready_ns > eos_ns, "the driver freed %"
      G_GUINT64_FORMAT " bytes at the close, readable %.1f ms before the "
      "EOS: the end of the recording was lost", held,
      (eos_ns - ready_ns) / 1e6);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  g_mutex_clear (&c.lock);
  g_free (launch);
}

GST_START_TEST (test_pvrusb2_eos_reads_what_the_driver_holds)
{
  check_eos_reads_held (-1);
}

GST_END_TEST;

/* The same through a blocking descriptor (device-fd, opened without
 * O_NONBLOCK): the drain asks poll() with no timeout before each read, so
 * it never waits for data the running stream has not made yet. */
GST_START_TEST (test_pvrusb2_eos_reads_held_blocking_fd)
{
  gint fd = open ("/dev/video0", O_RDWR | O_CLOEXEC);

  fail_unless (fd >= 0, "open /dev/video0: %s", g_strerror (errno));
  check_eos_reads_held (fd);
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
  tcase_add_test (tc, test_pvrusb2_eos_reads_what_the_driver_holds);
  tcase_add_test (tc, test_pvrusb2_eos_reads_held_blocking_fd);
  return s;
}

GST_CHECK_MAIN (ending);
