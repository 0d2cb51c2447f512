/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc tape-capture robustness under the emulator (pvr250): no false
 * stall warning on a paced capture, a stall is a warning then an error,
 * the signal watch (message, warning, signal-timeout EOS, wait-for-signal),
 * the clean end on EOS (last GOP complete), unplug (an error, or with
 * reconnect=true the lost/restored messages and a wait that EOS ends),
 * one error for a bad input name, and the blocksize default.  Each meson
 * test picks its cases with GST_CHECKS and its emulator faults (see
 * meson.build). */
#include "ivtvcheck.h"

#include <gst/base/gstbasesrc.h>

#include <string.h>

typedef struct
{
  gboolean eos;
  guint n_errors;
  gchar *error;
  GList *warnings;              /* gchar * */
  GList *signals;               /* GstStructure * of ivtvsrc-signal */
  GList *reconnects;            /* GstStructure * of ivtvsrc-reconnect */
  gint64 first_warning_us, error_us, eos_us;    /* since PLAYING */
} RobustRun;

static void
run_clear (RobustRun * r)
{
  g_free (r->error);
  g_list_free_full (r->warnings, g_free);
  g_list_free_full (r->signals, (GDestroyNotify) gst_structure_free);
  g_list_free_full (r->reconnects, (GDestroyNotify) gst_structure_free);
  memset (r, 0, sizeof (*r));
}

/* Run @pipe until EOS, an error or @timeout_ms; with @eos_after_ms >= 0
 * the application sends EOS then (as gst-launch -e on Ctrl-C). */
static void
run_pipe (GstElement * pipe, gint timeout_ms, gint eos_after_ms,
    RobustRun * r)
{
  GstBus *bus = gst_element_get_bus (pipe);
  gint64 t0, deadline;
  gboolean eos_sent = FALSE;

  memset (r, 0, sizeof (*r));
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  t0 = g_get_monotonic_time ();
  deadline = t0 + timeout_ms * G_GINT64_CONSTANT (1000);
  while (!r->eos && !r->error) {
    gint64 now = g_get_monotonic_time (), until = deadline;
    GstMessage *msg;

    if (now >= deadline)
      break;
    if (eos_after_ms >= 0 && !eos_sent) {
      gint64 at = t0 + eos_after_ms * G_GINT64_CONSTANT (1000);
      if (now >= at) {
        gst_element_send_event (pipe, gst_event_new_eos ());
        eos_sent = TRUE;
        continue;
      }
      until = MIN (until, at);
    }
    msg = gst_bus_timed_pop_filtered (bus, (until - now) * GST_USECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING |
        GST_MESSAGE_ELEMENT);
    if (msg == NULL)
      continue;
    now = g_get_monotonic_time () - t0;
    switch (GST_MESSAGE_TYPE (msg)) {
      case GST_MESSAGE_EOS:
        r->eos = TRUE;
        r->eos_us = now;
        break;
      case GST_MESSAGE_ERROR:{
        GError *e = NULL;
        gst_message_parse_error (msg, &e, NULL);
        r->error = g_strdup (e->message);
        r->error_us = now;
        r->n_errors++;
        g_error_free (e);
        break;
      }
      case GST_MESSAGE_WARNING:{
        GError *e = NULL;
        gst_message_parse_warning (msg, &e, NULL);
        GST_INFO ("warning at %" G_GINT64_FORMAT " ms: %s", now / 1000,
            e->message);
        if (!r->warnings)
          r->first_warning_us = now;
        r->warnings = g_list_append (r->warnings, g_strdup (e->message));
        g_error_free (e);
        break;
      }
      case GST_MESSAGE_ELEMENT:{
        const GstStructure *s = gst_message_get_structure (msg);
        if (s && gst_structure_has_name (s, "ivtvsrc-signal"))
          r->signals = g_list_append (r->signals, gst_structure_copy (s));
        if (s && gst_structure_has_name (s, "ivtvsrc-reconnect"))
          r->reconnects = g_list_append (r->reconnects,
              gst_structure_copy (s));
        break;
      }
      default:
        break;
    }
    gst_message_unref (msg);
  }
  /* errors posted after the first (a duplicate) are still on the bus */
  if (r->error) {
    GstMessage *msg;
    g_usleep (100000);
    while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR))) {
      r->n_errors++;
      gst_message_unref (msg);
    }
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
}

static void
run_launch (const gchar * launch, gint timeout_ms, gint eos_after_ms,
    RobustRun * r)
{
  GstElement *pipe = gst_parse_launch (launch, NULL);

  fail_unless (pipe != NULL, "cannot parse %s", launch);
  run_pipe (pipe, timeout_ms, eos_after_ms, r);
  gst_object_unref (pipe);
}

static gboolean
has_warning (RobustRun * r, const gchar * text)
{
  GList *l;

  for (l = r->warnings; l; l = l->next)
    if (strstr (l->data, text))
      return TRUE;
  return FALSE;
}

/* ---- paced (no --fault fast) ---- */

/* A paced capture once got "No data ... for 5 seconds" at
 * once (the emulator said POLLIN before its pacing started, then poll
 * gave 0; the element took any 0 as a whole timeout).  timeout=1 makes
 * the check strict: no gap of a second in 10 s of capture. */
static GstPadProbeReturn
count_bytes (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  guint64 *bytes = data;

  (void) pad;
  *bytes += gst_buffer_get_size (GST_PAD_PROBE_INFO_BUFFER (info));
  return GST_PAD_PROBE_OK;
}

/* A paced card's reads are short (what its DMA has): each must come in a
 * buffer of about its own size, not in a 512 KiB pool block, or a queue of
 * 200 buffers downstream would hold 100 MiB for 2 MiB of data. */
static GstPadProbeReturn
check_compact (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  guint *oversized = data;
  gsize size, maxsize;

  (void) pad;
  size = gst_buffer_get_sizes (GST_PAD_PROBE_INFO_BUFFER (info), NULL,
      &maxsize);
  if (size < 524288 / 8 && maxsize > size + 4096)
    (*oversized)++;
  return GST_PAD_PROBE_OK;
}

GST_START_TEST (test_paced_no_stall)
{
  RobustRun r;
  guint64 bytes = 0;
  guint oversized = 0;
  GstElement *pipe = gst_parse_launch ("ivtvsrc input=composite timeout=1 "
      "! fakesink name=sink", NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_bytes, &bytes,
      NULL);
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, check_compact,
      &oversized, NULL);
  run_pipe (pipe, 15000, 10000, &r);
  fail_unless (oversized == 0, "%u short reads left in big pool blocks",
      oversized);
  fail_unless (r.error == NULL, "%s", r.error);
  fail_unless (r.eos, "no EOS");
  fail_if (has_warning (&r, "No data"), "false stall warning at %"
      G_GINT64_FORMAT " ms", r.first_warning_us / 1000);
  /* 10 s at the card's ~750 kB/s */
  fail_unless (bytes > 6000000, "only %" G_GUINT64_FORMAT " bytes", bytes);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  run_clear (&r);
}

GST_END_TEST;

/* EOS from the application: ENCODER_CMD STOP at the GOP end and the rest
 * read, so the file ends with the program end code of a complete clip. */
GST_START_TEST (test_eos_drains_last_gop)
{
  gchar *path = ic_tmp_path ("drain.mpg");
  gchar *launch = g_strdup_printf ("ivtvsrc input=composite ! filesink "
      "location=%s", path);
  RobustRun r;
  GBytes *data;
  const guint8 *d;
  gsize n;

  run_launch (launch, 10000, 1500, &r);
  fail_unless (r.error == NULL, "%s", r.error);
  fail_unless (r.eos, "no EOS");
  fail_unless (r.eos_us < 1500000 + 2500000, "drain took too long");
  data = ic_read_file (path);
  d = g_bytes_get_data (data, &n);
  fail_unless (n > 100000, "only %" G_GSIZE_FORMAT " bytes", n);
  fail_unless (d[n - 4] == 0 && d[n - 3] == 0 && d[n - 2] == 1
      && d[n - 1] == 0xb9, "the file does not end with a complete GOP "
      "(program end code): ... %02x %02x %02x %02x", d[n - 4], d[n - 3],
      d[n - 2], d[n - 1]);
  g_bytes_unref (data);
  g_free (launch);
  g_free (path);
  ic_cleanup ();
  run_clear (&r);
}

GST_END_TEST;

/* ---- --fault stall-after=N ---- */

GST_START_TEST (test_stall_warning_then_error)
{
  RobustRun r;

  run_launch ("ivtvsrc timeout=1 ! fakesink", 10000, -1, &r);
  fail_unless (has_warning (&r, "No data"), "no stall warning");
  fail_unless (r.error != NULL, "no error after 2 x timeout");
  fail_unless (strstr (r.error, "No data") != NULL, "%s", r.error);
  fail_unless (r.first_warning_us >= 900000 && r.first_warning_us < 2000000,
      "warning at %" G_GINT64_FORMAT " ms", r.first_warning_us / 1000);
  fail_unless (r.error_us >= 1900000 && r.error_us < 3500000,
      "error at %" G_GINT64_FORMAT " ms", r.error_us / 1000);
  run_clear (&r);
}

GST_END_TEST;

/* ---- --fault no-signal (from the start) ---- */

GST_START_TEST (test_no_signal_message)
{
  RobustRun r;
  const GstStructure *s;
  gboolean present = TRUE;

  run_launch ("ivtvsrc input=composite num-buffers=5 ! fakesink", 10000, -1,
      &r);
  fail_unless (r.error == NULL, "%s", r.error);
  fail_unless (has_warning (&r, "No signal on input 'Composite 1'"),
      "no warning naming the input");
  fail_unless (has_warning (&r, "Is this the right input?"), "no hint");
  fail_unless (r.signals != NULL, "no ivtvsrc-signal message");
  s = r.signals->data;
  fail_unless (gst_structure_get_boolean (s, "present", &present));
  fail_if (present);
  fail_unless_equals_string (gst_structure_get_string (s, "input"),
      "Composite 1");
  run_clear (&r);
}

GST_END_TEST;

GST_START_TEST (test_signal_timeout_eos)
{
  RobustRun r;

  run_launch ("ivtvsrc input=composite signal-timeout=1 ! fakesink", 10000,
      -1, &r);
  fail_unless (r.error == NULL, "%s", r.error);
  fail_unless (r.eos, "no EOS after signal-timeout");
  fail_unless (r.eos_us >= 900000 && r.eos_us < 4000000,
      "EOS at %" G_GINT64_FORMAT " ms", r.eos_us / 1000);
  run_clear (&r);
}

GST_END_TEST;

GST_START_TEST (test_wait_for_signal_holds)
{
  RobustRun r;
  GstElement *pipe = gst_parse_launch ("ivtvsrc input=composite "
      "wait-for-signal=true ! fakesink name=sink", NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  guint64 bytes = 0;

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_bytes, &bytes,
      NULL);
  run_pipe (pipe, 5000, 1500, &r);
  fail_unless (r.error == NULL, "%s", r.error);
  fail_unless (r.eos, "EOS from the application did not end the wait");
  fail_unless (r.eos_us < 2500000, "EOS took %" G_GINT64_FORMAT " ms",
      r.eos_us / 1000);
  fail_unless_equals_int (bytes, 0);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  run_clear (&r);
}

GST_END_TEST;

/* ---- --fault fast ---- */

GST_START_TEST (test_signal_present_message)
{
  RobustRun r;
  const GstStructure *s;
  gboolean present = FALSE;

  run_launch ("ivtvsrc input=svideo wait-for-signal=true num-buffers=5 ! "
      "fakesink", 10000, -1, &r);
  fail_unless (r.error == NULL, "%s", r.error);
  fail_unless (r.eos);
  fail_if (has_warning (&r, "No signal"));
  fail_unless (r.signals != NULL, "no ivtvsrc-signal message");
  s = r.signals->data;
  fail_unless (gst_structure_get_boolean (s, "present", &present));
  fail_unless (present);
  fail_unless_equals_string (gst_structure_get_string (s, "input"),
      "S-Video 1");
  run_clear (&r);
}

GST_END_TEST;

GST_START_TEST (test_bogus_input_one_error)
{
  RobustRun r;

  run_launch ("ivtvsrc input=bogus ! fakesink", 5000, -1, &r);
  fail_unless (r.error != NULL);
  fail_unless (strstr (r.error, "bogus") && strstr (r.error, "Composite 2"),
      "%s", r.error);
  fail_unless_equals_int (r.n_errors, 1);
  run_clear (&r);

  run_launch ("ivtvsrc standard=bogus ! fakesink", 5000, -1, &r);
  fail_unless (r.error != NULL);
  fail_unless (strstr (r.error, "bogus") != NULL, "%s", r.error);
  fail_unless_equals_int (r.n_errors, 1);
  run_clear (&r);
}

GST_END_TEST;

GST_START_TEST (test_blocksize_default)
{
  GstElement *src = gst_element_factory_make ("ivtvsrc", NULL);
  GParamSpec *p = g_object_class_find_property (G_OBJECT_GET_CLASS (src),
      "blocksize");
  guint bs = 0;

  fail_unless (p != NULL);
  fail_unless_equals_int (G_PARAM_SPEC_UINT (p)->default_value, 524288);
  fail_unless (strstr (g_param_spec_get_blurb (p), "read()") != NULL);
  g_object_get (src, "blocksize", &bs, NULL);
  fail_unless_equals_int (bs, 524288);
  g_object_set (src, "blocksize", 4096, NULL);
  fail_unless_equals_int (gst_base_src_get_blocksize (GST_BASE_SRC (src)),
      4096);
  p = g_object_class_find_property (G_OBJECT_GET_CLASS (src), "timeout");
  fail_unless_equals_int (G_PARAM_SPEC_UINT (p)->default_value, 5);
  gst_object_unref (src);
}

GST_END_TEST;

/* ---- --fault unplug-after=N (--fault unplug-for=1) ---- */

static const gchar *
reconnect_state (RobustRun * r, guint i)
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

/* The node comes back after 1 s: lost, restored, and the capture goes
 * on to num-buffers without an error; byte offsets go on without a jump
 * and the first buffer after the gap is flagged DISCONT. */
GST_START_TEST (test_reconnect_resumes)
{
  RobustRun r;
  guint64 bytes = 0, buffers = 0;
  GstStructure *s;
  Discont d = { {0}, 0, 0, TRUE };
  GstElement *pipe = gst_parse_launch ("ivtvsrc reconnect=true "
      "blocksize=65536 num-buffers=30 ! fakesink name=sink", NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, note_discont, &d, NULL);
  run_pipe (pipe, 20000, -1, &r);
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
  fail_unless (has_warning (&r, "went away"));
  fail_unless (d.offsets_ok, "byte offsets jumped");
  fail_unless (d.n >= 2, "%u buffers flagged DISCONT", d.n);
  fail_unless_equals_int (d.at[0], 0);
  fail_unless_equals_int (d.at[1], 1000000);
  run_clear (&r);
}

GST_END_TEST;

/* Without reconnect: one clear error. */
GST_START_TEST (test_unplug_error_without_reconnect)
{
  RobustRun r;

  run_launch ("ivtvsrc ! fakesink", 10000, -1, &r);
  fail_unless (r.error != NULL, "no error after the unplug");
  fail_unless (strstr (r.error, "went away") != NULL, "%s", r.error);
  fail_unless (r.reconnects == NULL);
  run_clear (&r);
}

GST_END_TEST;

/* ---- --fault unplug-after=N, never back ---- */

/* Waiting for a node that does not come back: EOS from the application
 * ends the wait at once. */
GST_START_TEST (test_reconnect_wait_ends_on_eos)
{
  RobustRun r;

  run_launch ("ivtvsrc reconnect=true ! fakesink", 10000, 1500, &r);
  fail_unless (r.error == NULL, "%s", r.error);
  fail_unless (r.eos, "EOS did not end the wait for the device");
  fail_unless (r.eos_us < 2500000, "EOS at %" G_GINT64_FORMAT " ms",
      r.eos_us / 1000);
  fail_unless_equals_string (reconnect_state (&r, 0), "lost");
  fail_unless (reconnect_state (&r, 1) == NULL);
  run_clear (&r);
}

GST_END_TEST;

static Suite *
robust_suite (void)
{
  Suite *s = suite_create ("ivtvsrc-robust");
  TCase *tc = tcase_create ("robust");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 30);
  tcase_add_test (tc, test_paced_no_stall);
  tcase_add_test (tc, test_eos_drains_last_gop);
  tcase_add_test (tc, test_stall_warning_then_error);
  tcase_add_test (tc, test_no_signal_message);
  tcase_add_test (tc, test_signal_timeout_eos);
  tcase_add_test (tc, test_wait_for_signal_holds);
  tcase_add_test (tc, test_signal_present_message);
  tcase_add_test (tc, test_bogus_input_one_error);
  tcase_add_test (tc, test_blocksize_default);
  tcase_add_test (tc, test_reconnect_resumes);
  tcase_add_test (tc, test_unplug_error_without_reconnect);
  tcase_add_test (tc, test_reconnect_wait_ends_on_eos);
  return s;
}

GST_CHECK_MAIN (robust);
