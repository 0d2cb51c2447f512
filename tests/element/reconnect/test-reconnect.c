/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A device that goes away during a capture, under the emulator's
 * unplug faults (`--fault unplug-after=N`, with `--fault unplug-for=1` it
 * comes back a second later): without reconnect one error that says it
 * went away (read() and streaming); with reconnect=true the
 * ivtvsrc-reconnect messages lost / restored, the capture going on with
 * offsets counting on and DISCONT after each gap, and a wait for a node
 * that never returns that EOS ends.  Each meson test picks its cases
 * with GST_CHECKS and its profile and faults (see meson.build). */
#include "harness.h"

#include <gst/base/gstbasesrc.h>
#include <gst/video/video.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

/* ---- read() (pvr250) ---- */

GST_START_TEST (test_fault_unplug)
{
  IcResult res;

  ic_run ("ivtvsrc ! fakesink", 20000, &res);
  fail_unless (res.error != NULL, "no error after unplug");
  fail_unless (strstr (res.error, "went away") != NULL, "%s", res.error);
  /* ours alone: not GstBaseSrc's generic "Internal data stream error" too */
  fail_unless_equals_int (res.n_errors, 1);
  ic_result_clear (&res);
}

GST_END_TEST;

/* What the sink had when the error was posted (a sync handler). */
typedef struct
{
  guint64 bytes, bytes_at_error;
  guint errors;
  gboolean final_stats;         /* the final ivtvsrc-stats came */
  gboolean final_before_error;  /* ... before ivtvsrc's error */
} BytesAtError;

static GstPadProbeReturn
count_bytes (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  BytesAtError *b = data;

  (void) pad;
  g_atomic_pointer_add (&b->bytes,
      gst_buffer_get_size (GST_PAD_PROBE_INFO_BUFFER (info)));
  return GST_PAD_PROBE_OK;
}

static GstBusSyncReply
note_error (GstBus * bus, GstMessage * msg, gpointer data)
{
  BytesAtError *b = data;
  GError *err = NULL;

  (void) bus;
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT
      && gst_structure_has_name (gst_message_get_structure (msg),
          "ivtvsrc-stats")) {
    gboolean final = FALSE;

    gst_structure_get_boolean (gst_message_get_structure (msg), "final",
        &final);
    if (final && !b->final_stats)
      b->final_before_error = b->errors == 0;
    b->final_stats |= final;
  }
  if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ERROR)
    return GST_BUS_PASS;
  gst_message_parse_error (msg, &err, NULL);
  /* GstBaseSrc's own "Internal data stream error" follows any error flow
   * (and sends EOS after it): not ivtvsrc's */
  if (err->domain != GST_STREAM_ERROR && b->errors++ == 0)
    b->bytes_at_error = g_atomic_pointer_get (&b->bytes);
  g_error_free (err);
  return GST_BUS_PASS;
}

/* The path's error is data queued after the buffers read before it: when
 * it is posted, every byte before the unplug (1000000) went downstream,
 * and it is ivtvsrc's only error (held errors used to be posted as a list). */
GST_START_TEST (test_fault_unplug_error_after_every_byte)
{
  BytesAtError b = { 0, 0, 0, FALSE, FALSE };
  IcResult res;
  GstElement *pipe = gst_parse_launch ("ivtvsrc blocksize=65536 ! "
      "fakesink name=sink", NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  GstBus *bus = gst_element_get_bus (pipe);

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_bytes, &b, NULL);
  gst_bus_set_sync_handler (bus, note_error, &b, NULL);
  ic_run_pipe (pipe, 20000, -1, &res);
  fail_unless (res.error && strstr (res.error, "went away"), "%s",
      res.error);
  fail_unless_equals_int (b.bytes_at_error, 1000000);
  fail_unless_equals_int (b.errors, 1);
  /* issue 28 item 12: the final stats on the error path too, first */
  fail_unless (b.final_stats && b.final_before_error,
      "final ivtvsrc-stats: %s", b.final_stats ? "after the error" : "none");
  gst_bus_set_sync_handler (bus, NULL, NULL, NULL);
  gst_object_unref (bus);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  ic_result_clear (&res);
}

GST_END_TEST;

static const gchar *
reconnect_state (IcResult * r, guint i)
{
  GstStructure *s = g_list_nth_data (r->reconnects, i);

  return s ? gst_structure_get_string (s, "state") : NULL;
}

/* Offsets of the buffers flagged DISCONT (the first 8). */
typedef struct
{
  guint64 at[8];
  guint n;
  guint64 next;                 /* offset the next buffer should have */
  gboolean offsets_ok;
} Discont;

static GstPadProbeReturn
note_discont (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Discont *d = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);

  (void) pad;
  if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_DISCONT)
      && d->n < G_N_ELEMENTS (d->at))
    d->at[d->n++] = GST_BUFFER_OFFSET (buf);
  if (GST_BUFFER_OFFSET (buf) != d->next)
    d->offsets_ok = FALSE;
  d->next = GST_BUFFER_OFFSET (buf) + gst_buffer_get_size (buf);
  return GST_PAD_PROBE_OK;
}

/* The node comes back after 1 s: lost, restored, and the capture of
 * @launch goes on to num-buffers without an error; byte offsets go on
 * without a jump and the first buffer after the gap is flagged DISCONT. */
static void
check_read_resumes (const gchar * launch)
{
  IcResult r;
  guint64 bytes = 0, buffers = 0;
  GstStructure *s;
  Discont d = { {0}, 0, 0, TRUE };
  GstElement *pipe = gst_parse_launch (launch, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, note_discont, &d, NULL);
  ic_run_pipe (pipe, 20000, -1, &r);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  fail_unless (r.error == NULL, "%s", r.error);
  fail_unless (r.eos, "no EOS");
  fail_unless (g_list_length (r.reconnects) >= 2, "%u reconnect messages",
      g_list_length (r.reconnects));
  fail_unless_equals_string (reconnect_state (&r, 0), "lost");
  fail_unless_equals_string (reconnect_state (&r, 1), "restored");
  s = r.reconnects->data;
  fail_unless (gst_structure_get_uint64 (s, "bytes", &bytes));
  fail_unless_equals_int (bytes, 1000000);
  fail_unless (gst_structure_get_uint64 (s, "buffers", &buffers));
  fail_unless (buffers >= 1000000 / 65536 && buffers <= 1000000 / 4096,
      "%" G_GUINT64_FORMAT " buffers before the unplug", buffers);
  fail_unless (ic_has_warning (&r, "went away"));
  fail_unless (d.offsets_ok, "byte offsets jumped");
  fail_unless (d.n >= 2, "%u buffers flagged DISCONT", d.n);
  fail_unless_equals_int (d.at[0], 0);
  fail_unless_equals_int (d.at[1], 1000000);
  ic_result_clear (&r);
}

GST_START_TEST (test_reconnect_resumes)
{
  check_read_resumes ("ivtvsrc reconnect=true blocksize=65536 "
      "num-buffers=30 ! fakesink name=sink");
}

GST_END_TEST;

/* The node is back (a capture before this one may have read on to the
 * next unplug: the reader thread reads ahead of num-buffers). */
static void
wait_node_back (void)
{
  gint i, fd = -1;

  for (i = 0; i < 50 && fd < 0; i++) {
    fd = open (IC_DEVICE, O_RDWR | O_NONBLOCK);
    if (fd < 0)
      g_usleep (100 * 1000);
  }
  fail_unless (fd >= 0, "%s did not come back", IC_DEVICE);
  close (fd);
}

/* The same with an fd the application opened (device-fd): that fd dies
 * with the device, so the capture reopens the node of the same card. */
GST_START_TEST (test_reconnect_device_fd_resumes)
{
  gint fd;

  wait_node_back ();
  fd = ic_open ();
  gchar *launch = g_strdup_printf ("ivtvsrc device-fd=%d reconnect=true "
      "blocksize=65536 num-buffers=30 ! fakesink name=sink", fd);

  check_read_resumes (launch);
  g_free (launch);
  close (fd);
}

GST_END_TEST;

/* Without reconnect: one clear error. */
GST_START_TEST (test_unplug_error_without_reconnect)
{
  IcResult r;

  wait_node_back ();
  ic_run_launch ("ivtvsrc ! fakesink", 10000, -1, &r);
  fail_unless (r.error != NULL, "no error after the unplug");
  fail_unless (strstr (r.error, "went away") != NULL, "%s", r.error);
  fail_unless (r.reconnects == NULL);
  ic_result_clear (&r);
}

GST_END_TEST;

/* ---- --fault unplug-after=N, never back ---- */

/* Waiting for a node that does not come back: EOS from the application
 * ends the wait at once. */
GST_START_TEST (test_reconnect_wait_ends_on_eos)
{
  IcResult r;

  ic_run_launch ("ivtvsrc reconnect=true ! fakesink", 10000, 1500, &r);
  fail_unless (r.error == NULL, "%s", r.error);
  fail_unless (r.eos, "EOS did not end the wait for the device");
  fail_unless (r.eos_us < 2500000, "EOS at %" G_GINT64_FORMAT " ms",
      r.eos_us / 1000);
  fail_unless_equals_string (reconnect_state (&r, 0), "lost");
  fail_unless (reconnect_state (&r, 1) == NULL);
  ic_result_clear (&r);
}

GST_END_TEST;

/* ---- an unplug during the EOS drain (issue 28 item 4) ---- */

/* One capture: EOS is sent when the sink has @eos_at bytes (the encoder
 * then drains to the end of its GOP, past the unplug at 2100000 bytes).
 * TRUE when the device went away after the EOS was sent (*ended: EOS came
 * within 10 s of it, with no error). */
static gboolean
drain_unplugged (guint64 eos_at, gboolean * ended)
{
  BytesAtError b = { 0, 0, 0, FALSE, FALSE };
  GstElement *pipe = gst_parse_launch ("ivtvsrc reconnect=true ! "
      "fakesink name=sink", NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  GstBus *bus = gst_element_get_bus (pipe);
  gint64 sent = 0, deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  gboolean lost_after = FALSE;

  *ended = FALSE;
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_bytes, &b, NULL);
  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  while (g_get_monotonic_time () < deadline) {
    GstMessage *m = gst_bus_timed_pop (bus, 20 * GST_MSECOND);
    const GstStructure *st = m ? gst_message_get_structure (m) : NULL;

    if (!sent && g_atomic_pointer_get (&b.bytes) >= eos_at) {
      gst_element_send_event (pipe, gst_event_new_eos ());
      sent = g_get_monotonic_time ();
      deadline = sent + 10 * G_USEC_PER_SEC;
    }
    if (m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR)
      fail ("an error instead of EOS");
    if (st && sent && gst_structure_has_name (st, "ivtvsrc-reconnect")
        && g_strcmp0 (gst_structure_get_string (st, "state"), "lost") == 0)
      lost_after = TRUE;
    if (m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS)
      *ended = TRUE;
    gst_clear_message (&m);
    if (*ended)
      break;
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  return lost_after;
}

/* With reconnect=true, a device that goes away while the encoder drains
 * for EOS ends the recording (EOS), it does not wait for the device and
 * record on.  The drain ends at the end of the emulator's clip (about a
 * second): one try in a few has it end before the unplug (then no
 * device is lost); up to 5 tries until one has the unplug inside the
 * drain. */
GST_START_TEST (test_reconnect_unplug_while_draining_ends)
{
  gboolean ended = FALSE, inside = FALSE;
  guint i;

  /* EOS 150 kB (0.2 s) before the unplug: the reader is at most one
   * read (64 KiB) ahead of the sink, so the unplug comes after the EOS,
   * inside the drain unless the clip ends first */
  for (i = 0; i < 5 && !inside; i++) {
    inside = drain_unplugged (2100000 - 150000, &ended);
    if (!inside)
      g_usleep (1500 * G_TIME_SPAN_MILLISECOND);        /* plugged in again */
  }
  fail_unless (inside, "the unplug never came during the drain");
  fail_unless (ended, "no EOS within 10 s of sending it: the unplug during "
      "the drain lost the EOS");
}

GST_END_TEST;

/* ---- the HM12 and PCM nodes: their treatment is a path decorator on the
 * reader thread, so a reconnect (which closes the device) cannot change
 * how a buffer taken meanwhile is treated ---- */

typedef struct
{
  guint n, bad_duration, bad_size;
  guint64 next;                 /* offset expected next (PCM: frames) */
  gboolean offsets_ok;
  gsize frame_size;             /* HM12: every buffer one NV12 frame */
  gchar *why;
} Treated;

static GstPadProbeReturn
check_treated (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Treated *t = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  gsize size = gst_buffer_get_size (buf);

  (void) pad;
  if (!t->frame_size && !GST_BUFFER_DURATION_IS_VALID (buf))
    t->bad_duration++;          /* PCM: each buffer lasts its samples */
  if (t->frame_size && size != t->frame_size)
    t->bad_size++;
  /* PCM: offsets in sample frames, going on without a jump (a buffer
   * left as the read path gave it has byte offsets, 4 times as large) */
  if (!t->frame_size && t->offsets_ok && t->n > 0
      && GST_BUFFER_OFFSET (buf) != t->next) {
    t->offsets_ok = FALSE;
    t->why = g_strdup_printf ("buffer %u: offset %" G_GUINT64_FORMAT
        " after %" G_GUINT64_FORMAT, t->n, GST_BUFFER_OFFSET (buf), t->next);
  }
  if (!t->frame_size)
    t->next = GST_BUFFER_OFFSET (buf) + size / 4;
  t->n++;
  return GST_PAD_PROBE_OK;
}

/* @launch (a slow consumer: buffers wait in the queue while the device is
 * away) with reconnect=true on a node that goes away and comes back:
 * lost, restored, EOS, and every buffer treated as the node's kind says. */
static void
check_treated_across_reconnect (const gchar * launch, gsize frame_size)
{
  Treated t = { 0, 0, 0, 0, TRUE, frame_size, NULL };
  IcResult r;
  GstElement *pipe = gst_parse_launch (launch, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, check_treated, &t, NULL);
  ic_run_pipe (pipe, 30000, -1, &r);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  fail_unless (r.error == NULL, "%s", r.error);
  fail_unless (r.eos, "no EOS");
  fail_unless (g_list_length (r.reconnects) >= 2, "%u reconnect messages",
      g_list_length (r.reconnects));
  fail_unless_equals_string (reconnect_state (&r, 1), "restored");
  fail_unless_equals_int (t.bad_duration, 0);
  fail_unless_equals_int (t.bad_size, 0);
  fail_unless (t.offsets_ok, "%s", t.why);
  g_free (t.why);
  ic_result_clear (&r);
}

/* --profile pvr250-pcm: S16LE stereo 48 kHz, 192000 bytes a second,
 * unplugged after 100000 bytes */
GST_START_TEST (test_reconnect_pcm_stamped)
{
  /* the reader stops at num-buffers: the unplug (100000 bytes) must come
   * well before the 120th buffer whatever the read sizes */
  check_treated_across_reconnect ("ivtvsrc reconnect=true blocksize=4096 "
      "num-buffers=120 ! identity sleep-time=40000 ! fakesink name=sink", 0);
}

GST_END_TEST;

/* --profile pvr250-yuv: HM12 720x480, detiled to NV12 frames */
GST_START_TEST (test_reconnect_hm12_detiled)
{
  check_treated_across_reconnect ("ivtvsrc reconnect=true num-buffers=12 ! "
      "video/x-raw,format=NV12 ! identity sleep-time=100000 ! "
      "fakesink name=sink", 720 * 480 * 3 / 2);
}

GST_END_TEST;

/* ---- streaming (webcam) ---- */

/* --fault unplug-after=5: the device goes away */
GST_START_TEST (test_unplug_says_disconnected)
{
  gchar *text = ic_pipe_error_after (4);

  fail_unless (strstr (text, "disconnected") != NULL, "%s", text);
  g_free (text);
}

GST_END_TEST;

/* --fault unplug-after=5 --fault unplug-for=1 with reconnect=true: the
 * emulated camera goes away after every 5 frames a descriptor reads and
 * is back a second later.  Each time (twice within the 12 frames): a
 * warning, ivtvsrc-reconnect lost (5 frames so far) then restored, and
 * capture goes on in the same format and I/O mode to num-buffers, frame
 * offsets counting on, DISCONT on the first frame after each gap; no
 * error. */
static void
check_stream_resumes (const gchar * launch)
{
  IcPipe *run;
  GPtrArray *states = g_ptr_array_new_with_free_func (g_free);
  guint64 frames[4] = { 0 };
  gboolean warned = FALSE;
  GstMessage *msg;
  gsize size;
  guint i;

  /* the capture before this one (the other test of the run) may have
   * read on to the next unplug and left the camera away for a second:
   * PLAYING failed ("could not set the pipeline to PLAYING") when this
   * one came sooner, as under load */
  wait_node_back ();
  run = ic_pipe_new (launch);
  ic_pipe_play (run);
  while ((msg = ic_pipe_wait (run, GST_MESSAGE_EOS | GST_MESSAGE_ERROR |
              GST_MESSAGE_WARNING | GST_MESSAGE_ELEMENT, 15000)) != NULL) {
    const GstStructure *st = gst_message_get_structure (msg);
    GstMessageType type = GST_MESSAGE_TYPE (msg);

    if (type == GST_MESSAGE_ERROR) {
      gchar *text = ic_message_text (msg);

      fail ("error after %u frames: %s", run->n_buffers, text);
      g_free (text);
    }
    if (type == GST_MESSAGE_WARNING) {
      gchar *text = ic_message_text (msg);

      warned |= strstr (text, "went away after") != NULL;
      g_free (text);
    }
    if (type == GST_MESSAGE_ELEMENT
        && gst_structure_has_name (st, "ivtvsrc-reconnect")) {
      if (states->len < G_N_ELEMENTS (frames))
        fail_unless (gst_structure_get_uint64 (st, "buffers",
                &frames[states->len]), "%" GST_PTR_FORMAT, st);
      g_ptr_array_add (states,
          g_strdup (gst_structure_get_string (st, "state")));
    }
    gst_message_unref (msg);
    if (type == GST_MESSAGE_EOS)
      break;
  }
  fail_unless (msg != NULL, "no EOS within 15 s (%u frames)", run->n_buffers);
  fail_unless (warned, "no warning about the device going away");
  /* two losses before the 12th frame; the reader thread reads ahead of
   * the push (it drains the card while downstream is slow, as under
   * valgrind), so the third one, after frame 15, may be told before EOS */
  fail_unless (states->len >= 4 && states->len <= 6, "%u reconnect "
      "messages", states->len);
  for (i = 0; i < states->len; i++)
    fail_unless_equals_string (g_ptr_array_index (states, i),
        i % 2 ? "restored" : "lost");
  fail_unless_equals_int (frames[0], 5);
  fail_unless_equals_int (frames[2], 10);
  fail_unless_equals_int (run->n_buffers, 12);
  fail_unless_equals_string (run->io_mode, "mmap");
  size = ic_frame_size (run->caps);
  for (i = 0; i < 12; i++) {
    gboolean discont = (run->rec[i].flags & GST_BUFFER_FLAG_DISCONT) != 0;

    fail_unless_equals_int (run->rec[i].size, size);
    if (i > 0)
      fail_unless (run->rec[i].offset > run->rec[i - 1].offset,
          "frame %u: offset %" G_GUINT64_FORMAT " after %" G_GUINT64_FORMAT,
          i, run->rec[i].offset, run->rec[i - 1].offset);
    fail_unless_equals_int (discont, i == 0 || i == 5 || i == 10);
  }
  g_ptr_array_unref (states);
  ic_pipe_stop (run, 2000);
  ic_pipe_free (run);
}

GST_START_TEST (test_reconnect_streaming_resumes)
{
  check_stream_resumes ("ivtvsrc name=src reconnect=true num-buffers=12 "
      "! video/x-raw ! fakesink name=sink");
}

GST_END_TEST;

/* The same through libv4l2, in a format only its conversion offers: the
 * node is reopened through libv4l2 again, so RGB is still there. */
GST_START_TEST (test_reconnect_libv4l2_resumes)
{
  check_stream_resumes ("ivtvsrc name=src reconnect=true use-libv4l2=on "
      "num-buffers=12 ! video/x-raw,format=RGB ! fakesink name=sink");
}

GST_END_TEST;

static Suite *
reconnect_suite (void)
{
  Suite *s = suite_create ("ivtvsrc-reconnect");
  TCase *tc = tcase_create ("reconnect");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 60);
  tcase_add_checked_fixture (tc, NULL, ic_pipe_teardown);
  tcase_add_test (tc, test_fault_unplug);
  tcase_add_test (tc, test_fault_unplug_error_after_every_byte);
  tcase_add_test (tc, test_reconnect_resumes);
  tcase_add_test (tc, test_reconnect_device_fd_resumes);
  tcase_add_test (tc, test_unplug_error_without_reconnect);
  tcase_add_test (tc, test_reconnect_wait_ends_on_eos);
  tcase_add_test (tc, test_unplug_says_disconnected);
  tcase_add_test (tc, test_reconnect_streaming_resumes);
  tcase_add_test (tc, test_reconnect_pcm_stamped);
  tcase_add_test (tc, test_reconnect_unplug_while_draining_ends);
  tcase_add_test (tc, test_reconnect_hm12_detiled);
  tcase_add_test (tc, test_reconnect_libv4l2_resumes);
  return s;
}

GST_CHECK_MAIN (reconnect);
