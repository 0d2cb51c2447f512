/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of the `ivtvsrc-stats` bookkeeping (gst/session/ivtvstats.c): every
 * field of the contract (STATS-CONTRACT.md, used by ivtv-capture) with its
 * GType and nothing else, the counts, the bitrate over the last interval,
 * losses, the signal names, the final flag, and counting from threads.
 */
#include <gst/check/gstcheck.h>

#include "ivtvstats.h"

/* The contract, field for field. */
static const struct
{
  const gchar *name;
  GType type;
} contract[] = {
  {"bytes", G_TYPE_UINT64},
  {"buffers", G_TYPE_UINT64},
  {"duration", G_TYPE_UINT64},
  {"bitrate", G_TYPE_UINT64},
  {"signal", G_TYPE_STRING},
  {"queue-bytes", G_TYPE_UINT64},
  {"queue-time", G_TYPE_UINT64},
  {"queue-fill", G_TYPE_DOUBLE},
  {"bytes-lost", G_TYPE_UINT64},
  {"frames-lost", G_TYPE_UINT64},
  {"final", G_TYPE_BOOLEAN},
};

static guint64
u64 (const GstStructure * st, const gchar * field)
{
  guint64 v = G_MAXUINT64;

  fail_unless (gst_structure_get_uint64 (st, field, &v), "no %s", field);
  return v;
}

static void
check_contract (const GstStructure * st)
{
  guint i;

  fail_unless (gst_structure_has_name (st, "ivtvsrc-stats"));
  for (i = 0; i < G_N_ELEMENTS (contract); i++)
    fail_unless (gst_structure_has_field_typed (st, contract[i].name,
            contract[i].type), "field %s missing or not a %s",
        contract[i].name, g_type_name (contract[i].type));
  fail_unless_equals_int (gst_structure_n_fields (st), G_N_ELEMENTS (contract));
}

GST_START_TEST (test_contract_fields)
{
  IvtvStats *s = ivtv_stats_new ();
  GstElement *src = gst_bin_new ("capture");
  GstMessage *msg;
  GstStructure *st;

  /* before anything was captured, and without a queue */
  st = ivtv_stats_build (s, 5 * GST_SECOND, NULL, FALSE);
  check_contract (st);
  fail_unless_equals_uint64 (u64 (st, "bytes"), 0);
  fail_unless_equals_uint64 (u64 (st, "duration"), 0);
  fail_unless_equals_uint64 (u64 (st, "bitrate"), 0);
  fail_unless_equals_string (gst_structure_get_string (st, "signal"),
      "unknown");
  gst_structure_free (st);

  ivtv_stats_add_read (s, 4096, 6 * GST_SECOND);
  msg = ivtv_stats_message (s, GST_OBJECT (src), 7 * GST_SECOND, NULL, TRUE);
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_ELEMENT);
  fail_unless (GST_MESSAGE_SRC (msg) == GST_OBJECT (src));
  check_contract (gst_message_get_structure (msg));
  gst_message_unref (msg);
  gst_object_unref (src);
  ivtv_stats_free (s);
}

GST_END_TEST;

GST_START_TEST (test_counts_and_bitrate)
{
  IvtvStats *s = ivtv_stats_new ();
  GstStructure *st;
  GstClockTime t0 = 100 * GST_SECOND;

  ivtv_stats_add_read (s, 1000, t0);
  ivtv_stats_add_read (s, 1000, t0 + GST_SECOND / 2);
  st = ivtv_stats_build (s, t0 + GST_SECOND, NULL, FALSE);
  fail_unless_equals_uint64 (u64 (st, "bytes"), 2000);
  fail_unless_equals_uint64 (u64 (st, "buffers"), 2);
  fail_unless_equals_uint64 (u64 (st, "duration"), GST_SECOND);
  fail_unless_equals_uint64 (u64 (st, "bitrate"), 16000);
  gst_structure_free (st);

  /* the next interval counts only what came after the last message */
  ivtv_stats_add_read (s, 500, t0 + 3 * GST_SECOND / 2);
  st = ivtv_stats_build (s, t0 + 3 * GST_SECOND, NULL, FALSE);
  fail_unless_equals_uint64 (u64 (st, "bytes"), 2500);
  fail_unless_equals_uint64 (u64 (st, "duration"), 3 * GST_SECOND);
  fail_unless_equals_uint64 (u64 (st, "bitrate"), 2000);
  gst_structure_free (st);
  /* the final message: the whole capture's rate, 2500 bytes in 3.5 s
   * (issue 28 item 12), not the last interval's (0 now) */
  st = ivtv_stats_build (s, t0 + 7 * GST_SECOND / 2, NULL, TRUE);
  fail_unless_equals_uint64 (u64 (st, "bitrate"), 2500 * 8 * 2 / 7);
  gst_structure_free (st);

  /* queue-lost bytes were read but never left: not in "bytes";
   * driver-reported loss never was read */
  ivtv_stats_add_loss (s, 300, 0, TRUE);
  ivtv_stats_add_loss (s, 50, 2, FALSE);
  st = ivtv_stats_build (s, t0 + 4 * GST_SECOND, NULL, FALSE);
  fail_unless_equals_uint64 (u64 (st, "bytes"), 2200);
  fail_unless_equals_uint64 (u64 (st, "bytes-lost"), 350);
  fail_unless_equals_uint64 (u64 (st, "frames-lost"), 2);
  fail_unless_equals_uint64 (u64 (st, "bitrate"), 0);
  gst_structure_free (st);

  ivtv_stats_reset (s);
  st = ivtv_stats_build (s, t0 + 5 * GST_SECOND, NULL, FALSE);
  fail_unless_equals_uint64 (u64 (st, "bytes"), 0);
  fail_unless_equals_uint64 (u64 (st, "bytes-lost"), 0);
  gst_structure_free (st);
  ivtv_stats_free (s);
}

GST_END_TEST;

GST_START_TEST (test_signal_queue_final)
{
  IvtvStats *s = ivtv_stats_new ();
  IvtvQueue *q = ivtv_queue_new (1000, 0);
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 250, NULL);
  IvtvQueueLevel lv;
  GstStructure *st;
  gboolean final = TRUE;
  gdouble fill = 0.0;

  fail_unless_equals_string (ivtv_stats_signal_name
      (IVTV_STATS_SIGNAL_PRESENT), "present");
  fail_unless_equals_string (ivtv_stats_signal_name
      (IVTV_STATS_SIGNAL_NO_LOCK), "no-lock");
  fail_unless_equals_string (ivtv_stats_signal_name
      (IVTV_STATS_SIGNAL_NONE), "none");
  ivtv_stats_set_signal (s, IVTV_STATS_SIGNAL_NO_LOCK);

  /* messages come from the start, before any byte */
  fail_if (ivtv_stats_due (s, 10 * GST_SECOND, 1));
  ivtv_stats_start (s, 10 * GST_SECOND);
  fail_if (ivtv_stats_due (s, 10 * GST_SECOND, 1));
  fail_unless (ivtv_stats_due (s, 11 * GST_SECOND, 1));
  ivtv_stats_reset (s);
  ivtv_stats_set_signal (s, IVTV_STATS_SIGNAL_NO_LOCK);

  GST_BUFFER_PTS (buf) = 0;
  GST_BUFFER_DURATION (buf) = 40 * GST_MSECOND;
  ivtv_queue_push (q, buf);
  ivtv_queue_get_level (q, &lv);
  ivtv_stats_add_read (s, 250, 0);
  fail_if (ivtv_stats_due (s, GST_SECOND / 2, 1));
  fail_unless (ivtv_stats_due (s, GST_SECOND, 1));
  fail_if (ivtv_stats_due (s, GST_SECOND, 0));  /* stats-interval=0 */
  st = ivtv_stats_build (s, GST_SECOND, &lv, FALSE);
  fail_unless_equals_string (gst_structure_get_string (st, "signal"),
      "no-lock");
  fail_unless_equals_uint64 (u64 (st, "queue-bytes"), 250);
  fail_unless_equals_uint64 (u64 (st, "queue-time"), 40 * GST_MSECOND);
  fail_unless (gst_structure_get_double (st, "queue-fill", &fill));
  fail_unless (fill > 0.249 && fill < 0.251, "fill %f", fill);
  fail_unless (gst_structure_get_boolean (st, "final", &final));
  fail_if (final);
  gst_structure_free (st);
  /* the interval restarts at each message */
  fail_if (ivtv_stats_due (s, 3 * GST_SECOND / 2, 1));

  st = ivtv_stats_build (s, 2 * GST_SECOND, NULL, TRUE);
  fail_unless (gst_structure_get_boolean (st, "final", &final));
  fail_unless (final);
  gst_structure_free (st);
  fail_if (ivtv_stats_due (s, 10 * GST_SECOND, 1));     /* nothing after */
  ivtv_queue_free (q);
  ivtv_stats_free (s);
}

GST_END_TEST;

#define PER_THREAD 500000

static gint go;                 /* both counting threads start together */

static gpointer
count (gpointer data)
{
  IvtvStats *s = data;
  guint i;

  while (!g_atomic_int_get (&go))
    g_thread_yield ();
  for (i = 0; i < PER_THREAD; i++) {
    ivtv_stats_add_read (s, 3, i);
    if (i % 10 == 0)
      ivtv_stats_add_loss (s, 1, 1, FALSE);
  }
  return NULL;
}

GST_START_TEST (test_threads)
{
  IvtvStats *s = ivtv_stats_new ();
  GThread *a = g_thread_new ("a", count, s);
  GThread *b = g_thread_new ("b", count, s);
  GstStructure *st;
  guint i;

  g_atomic_int_set (&go, 1);
  for (i = 0; i < 1000; i++)
    gst_structure_free (ivtv_stats_build (s, i * GST_MSECOND, NULL, FALSE));
  g_thread_join (a);
  g_thread_join (b);
  st = ivtv_stats_build (s, GST_SECOND, NULL, TRUE);
  fail_unless_equals_uint64 (u64 (st, "bytes"), 2 * 3 * PER_THREAD);
  fail_unless_equals_uint64 (u64 (st, "buffers"), 2 * PER_THREAD);
  fail_unless_equals_uint64 (u64 (st, "bytes-lost"), 2 * PER_THREAD / 10);
  fail_unless_equals_uint64 (u64 (st, "frames-lost"), 2 * PER_THREAD / 10);
  gst_structure_free (st);
  ivtv_stats_free (s);
}

GST_END_TEST;

static Suite *
stats_suite (void)
{
  Suite *s = suite_create ("stats");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_contract_fields);
  tcase_add_test (tc, test_counts_and_bitrate);
  tcase_add_test (tc, test_signal_queue_final);
  tcase_add_test (tc, test_threads);
  return s;
}

GST_CHECK_MAIN (stats);
