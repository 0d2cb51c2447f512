/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc against the emulated PVR-250 (ivtv-emu --profile pvr250
 * --fault fast): byte-exact capture, inputs by fuzzy name, standards,
 * io-mode, caps for PS and TS, properties, live changes, state cycles,
 * num-buffers, latency, device-fd. */
#include "harness.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static const gchar *pvr250_inputs[] = {
  "Tuner 1", "S-Video 1", "Composite 1", "S-Video 2", "Composite 2"
};

static GstElement *
make_src (const gchar * props)
{
  gchar *desc = g_strdup_printf ("ivtvsrc %s", props ? props : "");
  GError *err = NULL;
  GstElement *e = gst_parse_launch (desc, &err);

  fail_unless (e != NULL, "%s: %s", desc, err ? err->message : "?");
  g_free (desc);
  return e;
}

/* ---- byte-exact capture ---- */

GST_START_TEST (test_pvr_bytes_identical)
{
  gchar *out = ic_tmp_path ("x.mpg"), *ref = ic_tmp_path ("ref.mpg");
  gchar *launch, *cmd;
  IcResult res;
  GBytes *a, *b;
  gint status;

  launch = g_strdup_printf ("ivtvsrc input=composite blocksize=65536 "
      "num-buffers=200 ! filesink location=%s", out);
  ic_run (launch, 25000, &res);
  fail_unless (res.error == NULL, "error: %s", res.error);
  fail_unless (res.eos);
  ic_result_clear (&res);

  a = ic_read_file (out);
  fail_unless (g_bytes_get_size (a) > 0);
  /* at 64 KiB per read and no short reads, 200 full buffers */
  fail_unless_equals_int ((gint) g_bytes_get_size (a), 200 * 65536);

  cmd = g_strdup_printf ("head -c %" G_GSIZE_FORMAT " %s > %s",
      g_bytes_get_size (a), IC_DEVICE, ref);
  fail_unless (g_spawn_sync (NULL, (gchar *[]) {
          "/bin/sh", "-c", cmd, NULL}
          , NULL, 0, NULL, NULL, NULL, NULL, &status, NULL));
  fail_unless (g_spawn_check_wait_status (status, NULL), "head failed");
  b = ic_read_file (ref);
  fail_unless_equals_int ((gint) g_bytes_get_size (b),
      (gint) g_bytes_get_size (a));
  fail_unless (g_bytes_equal (a, b), "capture differs from head -c");
  /* and it is a program stream */
  fail_unless (memcmp (g_bytes_get_data (a, NULL), "\0\0\1\xba", 4) == 0);

  g_bytes_unref (a);
  g_bytes_unref (b);
  g_free (cmd);
  g_free (launch);
  g_free (out);
  g_free (ref);
  ic_cleanup ();
}

GST_END_TEST;

/* ---- inputs ---- */

GST_START_TEST (test_pvr_readonly_props)
{
  GstElement *src = make_src (NULL);
  gchar **inputs = NULL, **stds = NULL, *name = NULL, *driver = NULL;
  guint i;

  g_object_get (src, "inputs", &inputs, "device-name", &name, NULL);
  fail_unless (inputs == NULL && name == NULL, "props before READY");

  fail_unless_equals_int (gst_element_set_state (src, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  g_object_get (src, "inputs", &inputs, "standards", &stds, "device-name",
      &name, "driver", &driver, NULL);
  fail_unless (inputs != NULL);
  fail_unless_equals_int (g_strv_length (inputs), G_N_ELEMENTS (pvr250_inputs));
  for (i = 0; i < G_N_ELEMENTS (pvr250_inputs); i++)
    fail_unless_equals_string (inputs[i], pvr250_inputs[i]);
  fail_unless (stds != NULL && g_strv_length (stds) >= 2);
  fail_unless_equals_string (driver, "ivtv");
  fail_unless (name != NULL && *name != '\0');

  g_strfreev (inputs);
  g_strfreev (stds);
  g_free (name);
  g_free (driver);
  gst_element_set_state (src, GST_STATE_NULL);
  gst_object_unref (src);
}

GST_END_TEST;

static void
check_input (const gchar * name, gint expected)
{
  gchar *props = g_strdup_printf ("input=\"%s\"", name);
  GstElement *src = make_src (props);
  GstStateChangeReturn r;

  r = gst_element_set_state (src, GST_STATE_PAUSED);
  fail_unless (r == GST_STATE_CHANGE_NO_PREROLL, "input '%s': state %d",
      name, r);
  fail_unless_equals_int (ic_get_input (), expected);
  gst_element_set_state (src, GST_STATE_NULL);
  gst_object_unref (src);
  g_free (props);
}

GST_START_TEST (test_pvr_inputs_fuzzy)
{
  /* away from the default first, then every input by several names */
  check_input ("composite2", 4);
  check_input ("tuner", 0);
  check_input ("tv", 0);
  check_input ("television", 0);
  check_input ("svideo", 1);
  check_input ("s-video", 1);
  check_input ("S-Video 1", 1);
  check_input ("composite", 2);
  check_input ("Composite 1", 2);
  check_input ("composite1", 2);
  check_input ("svideo2", 3);
  check_input ("s-video 2", 3);
  check_input ("COMPOSITE 2", 4);
  check_input ("0", 0);
  check_input ("3", 3);
}

GST_END_TEST;

GST_START_TEST (test_pvr_input_bogus)
{
  gchar *msg = ic_expect_error ("ivtvsrc input=bogus ! fakesink");
  guint i;

  for (i = 0; i < G_N_ELEMENTS (pvr250_inputs); i++)
    fail_unless (strstr (msg, pvr250_inputs[i]) != NULL,
        "'%s' not in '%s'", pvr250_inputs[i], msg);
  fail_unless (strstr (msg, "bogus") != NULL);
  g_free (msg);

  msg = ic_expect_error ("ivtvsrc input=7 ! fakesink");
  fail_unless (strstr (msg, "Composite 2") != NULL, "%s", msg);
  g_free (msg);
}

GST_END_TEST;

/* ---- standards ---- */

static void
check_std (const gchar * name, v4l2_std_id must, v4l2_std_id within)
{
  gchar *props = g_strdup_printf ("standard=%s", name);
  GstElement *src = make_src (props);
  v4l2_std_id std;

  fail_unless (gst_element_set_state (src, GST_STATE_PAUSED) ==
      GST_STATE_CHANGE_NO_PREROLL, "standard %s", name);
  std = ic_get_std ();
  fail_unless ((std & must) == must && (std & ~within) == 0,
      "standard %s: G_STD 0x%" G_GINT64_MODIFIER "x", name, (guint64) std);
  gst_element_set_state (src, GST_STATE_NULL);
  gst_object_unref (src);
  g_free (props);
}

GST_START_TEST (test_pvr_standards)
{
  gchar *msg;

  check_std ("pal", 0, V4L2_STD_PAL);
  fail_unless (ic_get_std () & V4L2_STD_PAL);
  check_std ("ntsc", 0, V4L2_STD_NTSC);
  fail_unless (ic_get_std () & V4L2_STD_NTSC);
  check_std ("pal-bg", 0, V4L2_STD_PAL_BG);
  check_std ("ntsc-m", V4L2_STD_NTSC_M, V4L2_STD_NTSC_M);
  check_std ("NTSC-M", V4L2_STD_NTSC_M, V4L2_STD_NTSC_M);
  check_std ("secam-l", V4L2_STD_SECAM_L, V4L2_STD_SECAM_L);
  check_std ("ntsc-jp", V4L2_STD_NTSC_M_JP, V4L2_STD_NTSC_M_JP);
  /* back to NTSC for the other tests */
  check_std ("ntsc-m", V4L2_STD_NTSC_M, V4L2_STD_NTSC_M);

  msg = ic_expect_error ("ivtvsrc standard=bogus ! fakesink");
  fail_unless (strstr (msg, "bogus") != NULL, "%s", msg);
  fail_unless (strstr (msg, "NTSC") != NULL && strstr (msg, "PAL") != NULL,
      "standards not listed: %s", msg);
  g_free (msg);
}

GST_END_TEST;

GST_START_TEST (test_pvr_standard_auto)
{
  GstElement *src = make_src ("standard=auto");

  /* the emulator detects the input's standard; either way start works */
  fail_unless (gst_element_set_state (src, GST_STATE_PAUSED) ==
      GST_STATE_CHANGE_NO_PREROLL);
  fail_unless (ic_get_std () != 0);
  gst_element_set_state (src, GST_STATE_NULL);
  gst_object_unref (src);
}

GST_END_TEST;

/* ---- io-mode, caps ---- */

GST_START_TEST (test_pvr_io_mode_auto_is_rw)
{
  GstHarness *h = gst_harness_new_parse ("ivtvsrc num-buffers=3");
  GstElement *src = gst_harness_find_element (h, "ivtvsrc");
  GstBuffer *buf;
  gint mode = -1;

  g_object_get (src, "current-io-mode", &mode, NULL);
  fail_unless_equals_int (mode, 0);     /* auto until started */
  gst_harness_use_systemclock (h);
  gst_harness_play (h);
  buf = gst_harness_pull (h);
  fail_unless (buf != NULL);
  gst_buffer_unref (buf);
  g_object_get (src, "current-io-mode", &mode, NULL);
  fail_unless_equals_int (mode, 1);     /* rw */
  gst_object_unref (src);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_pvr_io_mode_mmap_fails)
{
  gchar *msg = ic_expect_error ("ivtvsrc io-mode=mmap ! fakesink");

  fail_unless (strstr (msg, "mmap") != NULL, "%s", msg);
  fail_unless (strstr (msg, "rw") != NULL, "does not name rw: %s", msg);
  g_free (msg);

  msg = ic_expect_error ("ivtvsrc io-mode=dmabuf ! fakesink");
  fail_unless (strstr (msg, "dmabuf") != NULL && strstr (msg, "rw"), "%s", msg);
  g_free (msg);
}

GST_END_TEST;

static GstCaps *
first_caps (const gchar * props, guint8 * head)
{
  gchar *desc = g_strdup_printf ("ivtvsrc num-buffers=2 %s", props);
  GstHarness *h = gst_harness_new_parse (desc);
  GstBuffer *buf;
  GstCaps *caps;

  gst_harness_use_systemclock (h);
  gst_harness_play (h);
  buf = gst_harness_pull (h);
  fail_unless (buf != NULL);
  gst_buffer_extract (buf, 0, head, 4);
  gst_buffer_unref (buf);
  caps = gst_pad_get_current_caps (h->sinkpad);
  fail_unless (caps != NULL);
  gst_harness_teardown (h);
  g_free (desc);
  return caps;
}

GST_START_TEST (test_pvr_caps_ps_ts)
{
  GstCaps *caps, *expect;
  guint8 head[4];

  caps = first_caps ("", head);
  expect = gst_caps_from_string ("video/mpeg, mpegversion=(int)2, "
      "systemstream=(boolean)true");
  fail_unless (gst_caps_is_equal (caps, expect), "PS caps %" GST_PTR_FORMAT,
      caps);
  fail_unless (memcmp (head, "\0\0\1\xba", 4) == 0);
  gst_caps_unref (caps);
  gst_caps_unref (expect);

  fail_unless (ic_set_stream_type (V4L2_MPEG_STREAM_TYPE_MPEG2_TS));
  caps = first_caps ("", head);
  expect = gst_caps_from_string ("video/mpegts, systemstream=(boolean)true, "
      "packetsize=(int)188");
  fail_unless (gst_caps_is_equal (caps, expect), "TS caps %" GST_PTR_FORMAT,
      caps);
  fail_unless_equals_int (head[0], 0x47);
  gst_caps_unref (caps);
  gst_caps_unref (expect);
  fail_unless (ic_set_stream_type (V4L2_MPEG_STREAM_TYPE_MPEG2_PS));
}

GST_END_TEST;

/* ---- buffers, states ---- */

GST_START_TEST (test_pvr_num_buffers)
{
  GstHarness *h =
      gst_harness_new_parse ("ivtvsrc blocksize=65536 num-buffers=7");
  guint n = 0;
  GstBuffer *buf;
  GstEvent *ev;

  gst_harness_use_systemclock (h);
  gst_harness_play (h);
  while (n < 7 && (buf = gst_harness_pull (h))) {
    fail_unless (GST_BUFFER_PTS_IS_VALID (buf), "no timestamp");
    fail_unless_equals_int (GST_BUFFER_OFFSET (buf), n * 65536);
    gst_buffer_unref (buf);
    n++;
  }
  fail_unless_equals_int (n, 7);
  /* then EOS, and no more buffers */
  while ((ev = gst_harness_pull_event (h))) {
    gboolean eos = GST_EVENT_TYPE (ev) == GST_EVENT_EOS;
    gst_event_unref (ev);
    if (eos)
      break;
  }
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_pvr_state_cycles)
{
  GstElement *pipe, *src;
  guint fds0, i;
  gint growth;

  pipe = gst_parse_launch ("ivtvsrc name=src ! fakesink", NULL);
  fail_unless (pipe != NULL);
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");

  /* warm-up: lazily created types, the registry, caches */
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  gst_element_get_state (pipe, NULL, NULL, GST_CLOCK_TIME_NONE);
  g_usleep (20000);
  gst_element_set_state (pipe, GST_STATE_NULL);
  fds0 = ic_count_fds ();
  /* the leak check needs the leaks tracer (meson.build sets GST_TRACERS) */
  fail_unless (ic_live_start (), "the leaks tracer is not active: run with "
      "GST_TRACERS=leaks");

  for (i = 0; i < 20; i++) {
    GstState target = (i % 4 == 3) ? GST_STATE_READY : GST_STATE_PLAYING;

    fail_unless (gst_element_set_state (pipe, target) !=
        GST_STATE_CHANGE_FAILURE, "cycle %u", i);
    fail_unless (gst_element_get_state (pipe, NULL, NULL, 5 * GST_SECOND)
        != GST_STATE_CHANGE_FAILURE);
    if (target == GST_STATE_PLAYING)
      g_usleep (10000);
    gst_element_set_state (pipe, (i % 2) ? GST_STATE_NULL : GST_STATE_READY);
    gst_element_set_state (pipe, GST_STATE_NULL);
  }
  fail_unless_equals_int (ic_count_fds (), fds0);
  growth = ic_live_growth ();
  /* a leak in the cycle adds at least one object per cycle (20); the
   * count also moves by one or two with objects released asynchronously
   * (a pool, a clock of the previous run) */
  fail_unless (growth <= 2, "%d more objects alive after 20 cycles", growth);

  gst_object_unref (src);
  gst_object_unref (pipe);
}

GST_END_TEST;

GST_START_TEST (test_pvr_latency)
{
  GstHarness *h = gst_harness_new_parse ("ivtvsrc");
  GstQuery *q = gst_query_new_latency ();
  gboolean live = FALSE;
  GstClockTime min = 0, max = 0;
  GstBuffer *buf;

  gst_harness_use_systemclock (h);
  gst_harness_play (h);
  buf = gst_harness_pull (h);
  gst_buffer_unref (buf);
  fail_unless (gst_pad_peer_query (h->sinkpad, q));
  gst_query_parse_latency (q, &live, &min, &max);
  fail_unless (live);
  /* what one non-blocking read delivers, not the 512 KiB block (0.7 s
   * at 6 Mbit/s): 64 KiB at 6 Mbit/s is ~87 ms */
  fail_unless (min > 80 * GST_MSECOND && min < 95 * GST_MSECOND,
      "min %" GST_TIME_FORMAT, GST_TIME_ARGS (min));
  fail_unless (max == GST_CLOCK_TIME_NONE || max >= min);
  gst_query_unref (q);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_pvr_device_fd)
{
  gint fd = ic_open ();
  gchar *props = g_strdup_printf ("device-fd=%d num-buffers=3", fd);
  GstElement *src = make_src (props);
  GstHarness *h;
  GstBuffer *buf;
  gchar *driver = NULL;

  h = gst_harness_new_with_element (src, NULL, "src");
  gst_harness_use_systemclock (h);
  gst_harness_play (h);
  buf = gst_harness_pull (h);
  fail_unless (buf != NULL && gst_buffer_get_size (buf) > 0);
  gst_buffer_unref (buf);
  g_object_get (src, "driver", &driver, NULL);
  fail_unless_equals_string (driver, "ivtv");
  g_free (driver);
  gst_harness_teardown (h);
  gst_object_unref (src);
  /* our fd is still ours and open */
  fail_unless (fcntl (fd, F_GETFD) >= 0);
  close (fd);
  g_free (props);
}

GST_END_TEST;

/* issue 28: the application's descriptor captured again and again (one
 * element, PLAYING -> NULL three times): the encoder our dup() started
 * runs on in that open file, the application's own, so the next start is
 * not "busy: its MPEG encoder is running for another program", and each
 * capture is a full one (5 buffers), not the tail of the last. */
static GstPadProbeReturn
count_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  (void) pad;
  (void) info;
  g_atomic_int_inc ((gint *) data);
  return GST_PAD_PROBE_OK;
}

GST_START_TEST (test_pvr_device_fd_three_captures)
{
  gint fd = ic_open ();
  gchar *launch = g_strdup_printf ("ivtvsrc name=src device-fd=%d "
      "blocksize=65536 num-buffers=5 ! fakesink", fd);
  GstElement *pipe = gst_parse_launch (launch, NULL), *src;
  GstPad *pad;
  IcResult r;
  gint i, n;

  fail_unless (pipe != NULL);
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  pad = gst_element_get_static_pad (src, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_buffer, &n, NULL);
  for (i = 0; i < 3; i++) {
    g_atomic_int_set (&n, 0);
    ic_run_pipe (pipe, 15000, -1, &r);
    fail_unless (r.error == NULL, "capture %d: %s", i + 1, r.error);
    fail_unless (r.eos, "capture %d: no EOS", i + 1);
    /* all of them: the stream our STOP ended at its GOP end was read to
     * its end at that stop, so each start begins a fresh stream (issue 28) */
    fail_unless_equals_int (g_atomic_int_get (&n), 5);
    ic_result_clear (&r);
  }
  gst_object_unref (pad);
  gst_object_unref (src);
  gst_object_unref (pipe);
  fail_unless (fcntl (fd, F_GETFD) >= 0);
  close (fd);
  g_free (launch);
}

GST_END_TEST;

/* ---- live changes ---- */

GST_START_TEST (test_pvr_live_input_change)
{
  GstHarness *h = gst_harness_new_parse ("ivtvsrc input=composite");
  GstElement *src = gst_harness_find_element (h, "ivtvsrc");
  GstBuffer *buf;
  guint i;

  gst_harness_use_systemclock (h);
  gst_harness_play (h);
  buf = gst_harness_pull (h);
  gst_buffer_unref (buf);
  fail_unless_equals_int (ic_get_input (), 2);

  g_object_set (src, "input", "svideo2", NULL);
  fail_unless_equals_int (ic_get_input (), 3);
  for (i = 0; i < 5; i++) {
    buf = gst_harness_pull (h);
    fail_unless (buf != NULL, "capture stopped after the input change");
    gst_buffer_unref (buf);
  }
  /* a bad name while capturing: a warning, capture goes on */
  g_object_set (src, "input", "bogus", NULL);
  fail_unless_equals_int (ic_get_input (), 3);
  buf = gst_harness_pull (h);
  fail_unless (buf != NULL);
  gst_buffer_unref (buf);

  gst_object_unref (src);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_pvr_std_change_while_capturing)
{
  GstElement *pipe, *src;
  GstBus *bus;
  GstMessage *msg;
  GError *err = NULL;
  v4l2_std_id before;

  pipe = gst_parse_launch ("ivtvsrc name=src standard=ntsc-m ! fakesink "
      "name=sink", NULL);
  src = gst_bin_get_by_name (GST_BIN (pipe), "src");
  bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  fail_unless (gst_element_get_state (pipe, NULL, NULL, 5 * GST_SECOND) ==
      GST_STATE_CHANGE_SUCCESS);
  g_usleep (100000);            /* the encoder is running now */
  before = ic_get_std ();

  g_object_set (src, "standard", "pal", NULL);
  msg = gst_bus_timed_pop_filtered (bus, 3 * GST_SECOND,
      GST_MESSAGE_WARNING | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no warning for a refused standard change");
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_WARNING);
  gst_message_parse_warning (msg, &err, NULL);
  fail_unless (strstr (err->message, "capturing") != NULL, "%s", err->message);
  g_clear_error (&err);
  gst_message_unref (msg);
  fail_unless (ic_get_std () == before);

  /* still running, no error */
  msg = gst_bus_timed_pop_filtered (bus, 300 * GST_MSECOND,
      GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  fail_unless (msg == NULL, "capture ended after the refused change");
  gst_element_set_state (pipe, GST_STATE_NULL);

  /* at the next start the new standard applies */
  gst_element_set_state (pipe, GST_STATE_PAUSED);
  fail_unless (ic_get_std () & V4L2_STD_PAL);
  gst_element_set_state (pipe, GST_STATE_NULL);
  g_object_set (src, "standard", "ntsc-m", NULL);
  gst_element_set_state (pipe, GST_STATE_PAUSED);
  gst_element_set_state (pipe, GST_STATE_NULL);

  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (pipe);
}

GST_END_TEST;

static Suite *
element_suite (void)
{
  Suite *s = suite_create ("ivtvsrc-pvr250");
  TCase *tc = tcase_create ("pvr250");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_pvr_bytes_identical);
  tcase_add_test (tc, test_pvr_readonly_props);
  tcase_add_test (tc, test_pvr_inputs_fuzzy);
  tcase_add_test (tc, test_pvr_input_bogus);
  tcase_add_test (tc, test_pvr_standards);
  tcase_add_test (tc, test_pvr_standard_auto);
  tcase_add_test (tc, test_pvr_io_mode_auto_is_rw);
  tcase_add_test (tc, test_pvr_io_mode_mmap_fails);
  tcase_add_test (tc, test_pvr_caps_ps_ts);
  tcase_add_test (tc, test_pvr_num_buffers);
  tcase_add_test (tc, test_pvr_state_cycles);
  tcase_add_test (tc, test_pvr_latency);
  tcase_add_test (tc, test_pvr_device_fd);
  tcase_add_test (tc, test_pvr_device_fd_three_captures);
  tcase_add_test (tc, test_pvr_live_input_change);
  tcase_add_test (tc, test_pvr_std_change_while_capturing);
  return s;
}

GST_CHECK_MAIN (element);
