/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc errors and hostile devices: nodes that are not capture devices
 * (no emulator needed), the emulator's notcapture profile and open faults,
 * and the MPEG read path under the emulator's faults (short reads, EINTR,
 * EAGAIN, stall + EOS from the application, EIO, no signal; unplug is
 * test-reconnect.c).
 * Each meson test picks its cases with GST_CHECKS and its emulator
 * arguments (see meson.build). */
#include "harness.h"

#include <string.h>
#include <unistd.h>

static void
expect_error_containing (const gchar * launch, const gchar * a, const gchar * b)
{
  gchar *msg = ic_expect_error (launch);

  fail_unless (strstr (msg, a) != NULL, "'%s' not in '%s'", a, msg);
  if (b)
    fail_unless (strstr (msg, b) != NULL, "'%s' not in '%s'", b, msg);
  g_free (msg);
}

/* ---- no emulator ---- */

/* Errors travel as data (ivtvpath.h): nothing replaces the element
 * class's post_message to hold them back. */
GST_START_TEST (test_err_no_post_message_override)
{
  GstElement *src = gst_element_factory_make ("ivtvsrc", NULL);
  GstElementClass *base = g_type_class_ref (GST_TYPE_ELEMENT);

  fail_unless (src != NULL);
  fail_unless (GST_ELEMENT_GET_CLASS (src)->post_message ==
      base->post_message, "ivtvsrc's class replaces post_message");
  g_type_class_unref (base);
  gst_object_unref (src);
}

GST_END_TEST;

/* issue 28: blocksize=4000000000 aborted the process in the read buffer
 * pool's g_malloc; the property has a range now (4 KiB, a card's stream
 * can be read in time, .. 64 MiB), a value outside it is refused by
 * GObject with a warning and the value set before stays. */
GST_START_TEST (test_err_blocksize_range)
{
  GstElement *src = gst_element_factory_make ("ivtvsrc", NULL);
  GParamSpecUInt *ps = G_PARAM_SPEC_UINT (g_object_class_find_property
      (G_OBJECT_GET_CLASS (src), "blocksize"));
  guint v = 0;

  fail_unless_equals_int (ps->minimum, 4096);
  fail_unless_equals_int (ps->maximum, 64 * 1024 * 1024);
  g_object_set (src, "blocksize", 65536, NULL);
  ASSERT_WARNING (g_object_set (src, "blocksize", 4000000000u, NULL));
  ASSERT_WARNING (g_object_set (src, "blocksize", 1, NULL));
  g_object_get (src, "blocksize", &v, NULL);
  fail_unless_equals_int (v, 65536);
  gst_object_unref (src);
}

GST_END_TEST;

GST_START_TEST (test_err_dev_null)
{
  expect_error_containing ("ivtvsrc device=/dev/null ! fakesink",
      "/dev/null", "not a V4L2");
}

GST_END_TEST;

GST_START_TEST (test_err_regular_file)
{
  gchar *path = ic_tmp_path ("file.mpg"), *launch;

  fail_unless (g_file_set_contents (path, "hello", -1, NULL));
  launch = g_strdup_printf ("ivtvsrc device=%s ! fakesink", path);
  expect_error_containing (launch, "regular file", "not a video device");
  g_free (launch);
  g_free (path);
  ic_cleanup ();
}

GST_END_TEST;

GST_START_TEST (test_err_directory)
{
  expect_error_containing ("ivtvsrc device=/tmp ! fakesink", "directory",
      "not a video device");
}

GST_END_TEST;

GST_START_TEST (test_err_missing)
{
  IcResult res;

  ic_run ("ivtvsrc device=/dev/video-does-not-exist ! fakesink", 5000, &res);
  fail_unless (res.error != NULL);
  fail_unless (strstr (res.error, "does not exist") != NULL, "%s", res.error);
  fail_unless_equals_int (res.error_code, GST_RESOURCE_ERROR_NOT_FOUND);
  ic_result_clear (&res);
}

GST_END_TEST;

GST_START_TEST (test_err_bad_fd)
{
  expect_error_containing ("ivtvsrc device-fd=987 ! fakesink", "987",
      "not an open file descriptor");
}

GST_END_TEST;

/* ---- emulator: devices that cannot be used ---- */

GST_START_TEST (test_emu_notcapture)
{
  expect_error_containing ("ivtvsrc ! fakesink", "cannot capture video", NULL);
}

GST_END_TEST;

GST_START_TEST (test_emu_ebusy)
{
  IcResult res;

  ic_run ("ivtvsrc ! fakesink", 5000, &res);
  fail_unless (res.error != NULL);
  fail_unless (strstr (res.error, "busy") != NULL, "%s", res.error);
  fail_unless_equals_int (res.error_code, GST_RESOURCE_ERROR_BUSY);
  ic_result_clear (&res);
}

GST_END_TEST;

GST_START_TEST (test_emu_eacces)
{
  /* the message names the group owning the node */
  expect_error_containing ("ivtvsrc ! fakesink", "Permission denied",
      "group '");
}

GST_END_TEST;

/* ---- emulator: read path faults (pvr250) ---- */

/* Capture @n buffers, compare with head -c of the same size. */
static void
capture_compare (guint n, gboolean expect_short)
{
  gchar *out = ic_tmp_path ("x.mpg"), *ref = ic_tmp_path ("ref.mpg");
  gchar *launch, *cmd;
  IcResult res;
  GBytes *a, *b;
  gint status;

  launch = g_strdup_printf ("ivtvsrc blocksize=65536 num-buffers=%u ! "
      "filesink location=%s", n, out);
  ic_run (launch, 25000, &res);
  fail_unless (res.error == NULL, "error: %s", res.error);
  fail_unless (res.eos);
  ic_result_clear (&res);
  a = ic_read_file (out);
  if (expect_short)
    fail_unless (g_bytes_get_size (a) < (gsize) n * 65536,
        "short reads were not pushed as they are");
  else
    fail_unless_equals_int ((gint) g_bytes_get_size (a), n * 65536);

  /* The reference is read by head(1), which (unlike the element) gives up
   * on EINTR/EAGAIN: read it with only the pacing fault kept. */
  cmd = g_strdup_printf ("IVTV_EMU_FAULTS=\"$(printf %%s \"$IVTV_EMU_FAULTS\" "
      "| tr , '\\n' | grep '^fast' | paste -sd, -)\" "
      "head -c %" G_GSIZE_FORMAT " %s > %s",
      g_bytes_get_size (a), IC_DEVICE, ref);
  fail_unless (g_spawn_sync (NULL, (gchar *[]) {
          "/bin/sh", "-c", cmd, NULL}
          , NULL, 0, NULL, NULL, NULL, NULL, &status, NULL));
  fail_unless (g_spawn_check_wait_status (status, NULL));
  b = ic_read_file (ref);
  fail_unless (g_bytes_equal (a, b), "capture (%" G_GSIZE_FORMAT " bytes) "
      "differs from head -c", g_bytes_get_size (a));
  g_bytes_unref (a);
  g_bytes_unref (b);
  g_free (cmd);
  g_free (launch);
  g_free (out);
  g_free (ref);
  ic_cleanup ();
}

GST_START_TEST (test_fault_short_reads)
{
  capture_compare (50, TRUE);
}

GST_END_TEST;

GST_START_TEST (test_fault_eintr_eagain)
{
  capture_compare (50, FALSE);
}

GST_END_TEST;

/* One EIO (the emulator's eio-at gives one): retried, the capture goes on
 * past it with a warning (a lasting EIO is an error: test-units). */
GST_START_TEST (test_fault_eio)
{
  IcResult res;
  GList *l;
  gboolean warned = FALSE;

  ic_run ("ivtvsrc num-buffers=40 ! fakesink", 20000, &res);
  fail_unless (res.error == NULL, "error after one EIO: %s", res.error);
  fail_unless (res.eos, "no EOS");
  for (l = res.warnings; l; l = l->next)
    if (strstr (l->data, "I/O error; retrying"))
      warned = TRUE;
  fail_unless (warned, "no warning about the I/O error");
  ic_result_clear (&res);
}

GST_END_TEST;

GST_START_TEST (test_fault_no_signal)
{
  IcResult res;
  GList *l;
  gboolean found = FALSE;

  ic_run ("ivtvsrc num-buffers=3 ! fakesink", 20000, &res);
  fail_unless (res.error == NULL, "%s", res.error);
  for (l = res.warnings; l; l = l->next)
    if (strstr (l->data, "No signal"))
      found = TRUE;
  fail_unless (found, "no 'No signal' warning");
  ic_result_clear (&res);
}

GST_END_TEST;

/* The device stops delivering (stall-after): EOS sent by the application
 * while the streaming thread waits for data ends the pipeline in < 1 s. */
GST_START_TEST (test_fault_eos_during_blocked_read)
{
  GstElement *pipe;
  GstBus *bus;
  GstMessage *msg;
  gint64 t0, dt;

  pipe = gst_parse_launch ("ivtvsrc ! fakesink", NULL);
  bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  fail_unless (gst_element_get_state (pipe, NULL, NULL, 5 * GST_SECOND) ==
      GST_STATE_CHANGE_SUCCESS);
  g_usleep (500000);            /* all there is has been read: blocked */

  t0 = g_get_monotonic_time ();
  fail_unless (gst_element_send_event (pipe, gst_event_new_eos ()));
  msg = gst_bus_timed_pop_filtered (bus, 5 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  dt = g_get_monotonic_time () - t0;
  fail_unless (msg != NULL, "no EOS within 5 s");
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_EOS);
  fail_unless (dt < G_USEC_PER_SEC, "EOS took %" G_GINT64_FORMAT " us", dt);
  gst_message_unref (msg);

  t0 = g_get_monotonic_time ();
  gst_element_set_state (pipe, GST_STATE_NULL);
  fail_unless (g_get_monotonic_time () - t0 < G_USEC_PER_SEC);
  gst_object_unref (bus);
  gst_object_unref (pipe);
}

GST_END_TEST;

static GstPadProbeReturn
count_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  (void) pad;
  (void) info;
  g_atomic_int_inc ((gint *) data);
  return GST_PAD_PROBE_OK;
}

/* Flushing (PLAYING -> NULL) while blocked returns too.  The pipeline must
 * have reached PLAYING, delivered what the card had (--fault
 * stall-after=N) and be waiting in read(): no buffer for 300 ms. */
GST_START_TEST (test_fault_stop_during_blocked_read)
{
  GstElement *pipe = gst_parse_launch ("ivtvsrc ! fakesink name=sink", NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  GstState state = GST_STATE_NULL;
  gint n = 0, before;
  gint64 t0;

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_buffer, &n, NULL);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  fail_unless_equals_int (gst_element_get_state (pipe, &state, NULL,
          5 * GST_SECOND), GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (state, GST_STATE_PLAYING);
  g_usleep (500000);            /* all there is has been read */
  before = g_atomic_int_get (&n);
  g_usleep (300000);
  fail_unless (before > 0, "no data before the stall");
  fail_unless_equals_int (g_atomic_int_get (&n), before);       /* blocked */

  t0 = g_get_monotonic_time ();
  gst_element_set_state (pipe, GST_STATE_NULL);
  fail_unless (g_get_monotonic_time () - t0 < G_USEC_PER_SEC);
  gst_object_unref (pad);
  gst_object_unref (sink);
  gst_object_unref (pipe);
}

GST_END_TEST;

static Suite *
errors_suite (void)
{
  Suite *s = suite_create ("ivtvsrc-errors");
  TCase *tc = tcase_create ("errors");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_err_no_post_message_override);
  tcase_add_test (tc, test_err_blocksize_range);
  tcase_add_test (tc, test_err_dev_null);
  tcase_add_test (tc, test_err_regular_file);
  tcase_add_test (tc, test_err_directory);
  tcase_add_test (tc, test_err_missing);
  tcase_add_test (tc, test_err_bad_fd);
  tcase_add_test (tc, test_emu_notcapture);
  tcase_add_test (tc, test_emu_ebusy);
  tcase_add_test (tc, test_emu_eacces);
  tcase_add_test (tc, test_fault_short_reads);
  tcase_add_test (tc, test_fault_eintr_eagain);
  tcase_add_test (tc, test_fault_eio);
  tcase_add_test (tc, test_fault_no_signal);
  tcase_add_test (tc, test_fault_eos_during_blocked_read);
  tcase_add_test (tc, test_fault_stop_during_blocked_read);
  return s;
}

GST_CHECK_MAIN (errors);
