/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of the capture queue (gst/session/ivtvqueue.c): overflow drops the
 * newest buffer and counts its bytes exactly, one loss event pair per run
 * of drops, the time bound, flushing unblocks pop, the producer's final
 * flow comes after the queued data, a consumer left asleep by a producer
 * reading a backlog still gets the last buffer, and a producer/consumer
 * smoke test in which every byte pushed is either popped (in order) or
 * counted as dropped.
 */
#include <gst/check/gstcheck.h>
#include <string.h>

#include "ivtvqueue.h"

/* A buffer of @size bytes whose first byte is @tag. */
static GstBuffer *
make_buf (gsize size, guint8 tag, GstClockTime pts, GstClockTime dur)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, size, NULL);

  gst_buffer_memset (buf, 0, tag, size);
  GST_BUFFER_PTS (buf) = pts;
  GST_BUFFER_DURATION (buf) = dur;
  return buf;
}

static guint8
buf_tag (GstBuffer * buf)
{
  guint8 tag = 0;
  gst_buffer_extract (buf, 0, &tag, 1);
  return tag;
}

/* Loss events collected by the callback. */
typedef struct
{
  GMutex lock;
  guint started, ended;
  IvtvLoss last_start, last_end;
} Events;

static void
on_loss (const IvtvLoss * loss, gpointer data)
{
  Events *ev = data;
  g_mutex_lock (&ev->lock);
  if (loss->kind == IVTV_LOSS_STARTED) {
    ev->started++;
    ev->last_start = *loss;
  } else {
    ev->ended++;
    ev->last_end = *loss;
  }
  g_mutex_unlock (&ev->lock);
}

GST_START_TEST (test_overflow_drops_newest)
{
  IvtvQueue *q = ivtv_queue_new (1000, 0);
  IvtvQueueTotals t;
  IvtvQueueLevel lv;
  GstBuffer *buf;
  guint8 expect[] = { 2, 3, 6 };
  guint i;

  fail_unless_equals_int (ivtv_queue_push (q, make_buf (300, 1, 0, 0)),
      IVTV_QUEUE_OK);
  fail_unless_equals_int (ivtv_queue_push (q, make_buf (300, 2, 0, 0)),
      IVTV_QUEUE_OK);
  fail_unless_equals_int (ivtv_queue_push (q, make_buf (300, 3, 0, 0)),
      IVTV_QUEUE_OK);
  /* 900 + 200 > 1000: the newest is dropped, the queued ones stay */
  fail_unless_equals_int (ivtv_queue_push (q, make_buf (200, 4, 0, 0)),
      IVTV_QUEUE_DROPPED);
  /* 100 would fit, but the hole lasts until the consumer takes one */
  fail_unless_equals_int (ivtv_queue_push (q, make_buf (100, 5, 0, 0)),
      IVTV_QUEUE_DROPPED);
  ivtv_queue_get_level (q, &lv);
  fail_unless_equals_uint64 (lv.bytes, 900);
  fail_unless_equals_int (lv.buffers, 3);
  fail_unless (lv.fill > 0.899 && lv.fill <= 0.901);
  ivtv_queue_get_totals (q, &t);
  fail_unless_equals_uint64 (t.dropped_bytes, 300);
  fail_unless_equals_uint64 (t.dropped_buffers, 2);
  fail_unless_equals_uint64 (t.pushed_bytes, 900);

  fail_unless_equals_int (ivtv_queue_pop (q, &buf), GST_FLOW_OK);
  fail_unless_equals_int (buf_tag (buf), 1);
  fail_unless (!GST_BUFFER_IS_DISCONT (buf));
  gst_buffer_unref (buf);
  fail_unless_equals_int (ivtv_queue_push (q, make_buf (51, 6, 0, 0)),
      IVTV_QUEUE_OK);
  for (i = 0; i < G_N_ELEMENTS (expect); i++) {
    fail_unless_equals_int (ivtv_queue_pop (q, &buf), GST_FLOW_OK);
    fail_unless_equals_int (buf_tag (buf), expect[i]);
    /* the buffer after a hole says so */
    fail_unless_equals_int (GST_BUFFER_IS_DISCONT (buf), expect[i] == 6);
    gst_buffer_unref (buf);
  }
  /* an empty queue takes even a buffer larger than the bound */
  fail_unless_equals_int (ivtv_queue_push (q, make_buf (5000, 7, 0, 0)),
      IVTV_QUEUE_OK);
  ivtv_queue_set_frames (q, TRUE);
  fail_unless_equals_int (ivtv_queue_push (q, make_buf (10, 8, 0, 0)),
      IVTV_QUEUE_DROPPED);
  ivtv_queue_get_totals (q, &t);
  fail_unless_equals_uint64 (t.dropped_bytes, 310);
  fail_unless_equals_uint64 (t.dropped_frames, 1);
  ivtv_queue_free (q);
}

GST_END_TEST;

/* Issue 28 item 9: one stall of the consumer, reads of mixed sizes (a big
 * read, then the small ones a paced card gives): one hole, one loss run,
 * one warning; nothing kept in the middle of the stall. */
GST_START_TEST (test_one_stall_one_hole)
{
  IvtvQueue *q = ivtv_queue_new (1000000, 0);
  Events ev = { 0 };
  IvtvQueueTotals t;
  GstBuffer *buf;
  guint i, kept = 0;

  g_mutex_init (&ev.lock);
  ivtv_queue_set_loss_func (q, on_loss, &ev);
  /* the stall: 60 KiB reads fill the bound, then 8 KiB reads come */
  for (i = 0; i < 40; i++)
    kept += ivtv_queue_push (q, make_buf (i % 2 ? 8192 : 61440, i, i *
            GST_MSECOND, GST_CLOCK_TIME_NONE)) == IVTV_QUEUE_OK;
  fail_unless_equals_int (ev.started, 1);
  fail_unless_equals_int (ev.ended, 0);
  ivtv_queue_get_totals (q, &t);
  fail_unless_equals_uint64 (t.loss_runs, 1);
  /* downstream takes again: the hole ends, with one warning */
  fail_unless_equals_int (ivtv_queue_pop (q, &buf), GST_FLOW_OK);
  gst_buffer_unref (buf);
  fail_unless_equals_int (ivtv_queue_push (q, make_buf (8192, 99,
              GST_SECOND, GST_CLOCK_TIME_NONE)), IVTV_QUEUE_OK);
  fail_unless_equals_int (ev.ended, 1);
  ivtv_queue_get_totals (q, &t);
  fail_unless_equals_uint64 (t.loss_runs, 1);
  fail_unless_equals_uint64 (t.pushed_buffers, kept + 1);
  ivtv_queue_free (q);
  g_mutex_clear (&ev.lock);
}

GST_END_TEST;

/* Issue 28 item 8: a stall is told to a tenth of a second (not "0 s"),
 * a consumer that was only too slow is told so. */
GST_START_TEST (test_loss_text_stall_or_slower)
{
  IvtvLoss l = { IVTV_LOSS_ENDED, IVTV_QUEUE_FULL_BYTES, 1000, 1, 0,
    GST_CLOCK_TIME_NONE, GST_CLOCK_TIME_NONE, GST_CLOCK_TIME_NONE,
    2960 * GST_MSECOND, 400, 0
  };
  gchar *text = ivtv_loss_describe (&l);

  fail_unless (g_str_has_suffix (text, "did not take buffers for 3.0 s"),
      "got: %s", text);
  g_free (text);
  l.stalled = 400 * GST_MSECOND;
  text = ivtv_loss_describe (&l);
  fail_unless (g_str_has_suffix (text, "because downstream was slower than "
          "the capture"), "got: %s", text);
  g_free (text);
}

GST_END_TEST;

GST_START_TEST (test_loss_one_event_per_run)
{
  IvtvQueue *q = ivtv_queue_new (400, 0);
  Events ev = { 0 };
  GstBuffer *buf;
  IvtvQueueTotals t;
  gchar *text;
  guint i;

  g_mutex_init (&ev.lock);
  ivtv_queue_set_loss_func (q, on_loss, &ev);
  for (i = 0; i < 4; i++)
    ivtv_queue_push (q, make_buf (100, i, (10 + i) * GST_SECOND, GST_SECOND));
  /* a run of five drops: one start, no end yet */
  for (i = 4; i < 9; i++)
    fail_unless_equals_int (ivtv_queue_push (q, make_buf (100, i,
                (10 + i) * GST_SECOND, GST_SECOND)), IVTV_QUEUE_DROPPED);
  fail_unless_equals_int (ev.started, 1);
  fail_unless_equals_int (ev.ended, 0);
  fail_unless_equals_uint64 (ev.last_start.bytes, 100);
  fail_unless_equals_uint64 (ev.last_start.pts, 14 * GST_SECOND);
  fail_unless_equals_uint64 (ev.last_start.position, 4 * GST_SECOND);
  fail_unless_equals_int (ev.last_start.full, IVTV_QUEUE_FULL_BYTES);

  /* room again: the next buffer ends the run, with its totals */
  fail_unless_equals_int (ivtv_queue_pop (q, &buf), GST_FLOW_OK);
  gst_buffer_unref (buf);
  fail_unless_equals_int (ivtv_queue_push (q, make_buf (100, 9,
              19 * GST_SECOND, GST_SECOND)), IVTV_QUEUE_OK);
  fail_unless_equals_int (ev.started, 1);
  fail_unless_equals_int (ev.ended, 1);
  fail_unless_equals_uint64 (ev.last_end.bytes, 500);
  fail_unless_equals_uint64 (ev.last_end.buffers, 5);
  fail_unless_equals_uint64 (ev.last_end.duration, 5 * GST_SECOND);
  fail_unless (GST_CLOCK_TIME_IS_VALID (ev.last_end.stalled));
  text = ivtv_loss_describe (&ev.last_end);
  GST_INFO ("%s", text);
  fail_unless (g_str_has_prefix (text, "Lost 500 bytes (5.0 s) of the "
          "recording at 0:00:04.0: the element's queue "
          "(max-buffer-bytes=400) was full because downstream was slower "
          "than the capture"), "got: %s", text);
  g_free (text);

  /* a second run, ended by the producer's EOS */
  fail_unless_equals_int (ivtv_queue_push (q, make_buf (100, 10,
              20 * GST_SECOND, GST_SECOND)), IVTV_QUEUE_DROPPED);
  fail_unless_equals_int (ivtv_queue_push (q, make_buf (100, 11,
              21 * GST_SECOND, GST_SECOND)), IVTV_QUEUE_DROPPED);
  fail_unless_equals_int (ev.started, 2);
  ivtv_queue_push_flow (q, GST_FLOW_EOS);
  fail_unless_equals_int (ev.ended, 2);
  fail_unless_equals_uint64 (ev.last_end.bytes, 200);
  fail_unless_equals_uint64 (ev.last_end.duration, 2 * GST_SECOND);
  ivtv_queue_get_totals (q, &t);
  fail_unless_equals_uint64 (t.loss_runs, 2);
  fail_unless_equals_uint64 (t.dropped_bytes, 700);
  ivtv_queue_free (q);
  g_mutex_clear (&ev.lock);
}

GST_END_TEST;

GST_START_TEST (test_time_bound)
{
  IvtvQueue *q = ivtv_queue_new (0, GST_SECOND);
  Events ev = { 0 };
  IvtvQueueLevel lv;
  GstBuffer *buf;
  gchar *text;
  guint i;

  g_mutex_init (&ev.lock);
  ivtv_queue_set_loss_func (q, on_loss, &ev);
  ivtv_queue_set_frames (q, TRUE);      /* raw video: a buffer a frame */
  /* 10 buffers of 100 ms fill one second; the 11th does not fit */
  for (i = 0; i < 10; i++)
    fail_unless_equals_int (ivtv_queue_push (q, make_buf (10, i,
                i * 100 * GST_MSECOND, 100 * GST_MSECOND)), IVTV_QUEUE_OK);
  fail_unless_equals_int (ivtv_queue_push (q, make_buf (10, 10,
              GST_SECOND, 100 * GST_MSECOND)), IVTV_QUEUE_DROPPED);
  ivtv_queue_get_level (q, &lv);
  fail_unless_equals_uint64 (lv.time, GST_SECOND);
  fail_unless (lv.fill > 0.999);
  /* a bound raised while running takes effect at once */
  ivtv_queue_set_max_time (q, 2 * GST_SECOND);
  fail_unless_equals_int (ivtv_queue_push (q, make_buf (10, 11,
              1100 * GST_MSECOND, 100 * GST_MSECOND)), IVTV_QUEUE_OK);
  ivtv_queue_get_level (q, &lv);
  fail_unless (lv.fill > 0.55 && lv.fill < 0.65, "fill %f", lv.fill);
  fail_unless_equals_int (ev.ended, 1);
  fail_unless_equals_int (ev.last_end.full, IVTV_QUEUE_FULL_TIME);
  text = ivtv_loss_describe (&ev.last_end);
  fail_unless (g_str_has_prefix (text, "Lost 10 bytes (0.1 s, 1 frame) of "
          "the recording at 0:00:01.0: the element's queue "
          "(max-buffer-time=1000000000) was full"), "got: %s", text);
  g_free (text);
  ivtv_queue_free (q);
  g_mutex_clear (&ev.lock);
  /* MPEG read() buffers: a PTS, no duration; the PTS span counts */
  q = ivtv_queue_new (0, GST_SECOND);
  for (i = 0; i <= 10; i++)
    fail_unless_equals_int (ivtv_queue_push (q, make_buf (10, i,
                i * 100 * GST_MSECOND, GST_CLOCK_TIME_NONE)), IVTV_QUEUE_OK);
  fail_unless_equals_int (ivtv_queue_push (q, make_buf (10, 11,
              1100 * GST_MSECOND, GST_CLOCK_TIME_NONE)), IVTV_QUEUE_DROPPED);
  fail_unless_equals_int (ivtv_queue_pop (q, &buf), GST_FLOW_OK);
  gst_buffer_unref (buf);
  ivtv_queue_get_level (q, &lv);
  fail_unless_equals_uint64 (lv.time, 900 * GST_MSECOND);
  ivtv_queue_free (q);
}

GST_END_TEST;

typedef struct
{
  IvtvQueue *q;
  GstFlowReturn ret;
  gint64 done_us;               /* when pop returned */
  gint done;                    /* atomic: pop returned */
} Popper;

/* Wait up to 5 s for the popper: a hang fails here, not at the timeout. */
static gboolean
popper_done (Popper * p)
{
  gint64 end = g_get_monotonic_time () + 5 * G_TIME_SPAN_SECOND;
  while (!g_atomic_int_get (&p->done) && g_get_monotonic_time () < end)
    g_usleep (G_TIME_SPAN_MILLISECOND);
  return g_atomic_int_get (&p->done);
}

static gpointer
pop_thread (gpointer data)
{
  Popper *p = data;
  GstBuffer *buf = NULL;

  p->ret = ivtv_queue_pop (p->q, &buf);
  p->done_us = g_get_monotonic_time ();
  g_atomic_int_set (&p->done, 1);
  gst_clear_buffer (&buf);
  return NULL;
}

GST_START_TEST (test_flushing_unblocks_pop)
{
  Popper p = { ivtv_queue_new (1000, 0), GST_FLOW_OK, 0, 0 };
  GThread *th = g_thread_new ("popper", pop_thread, &p);
  GstBuffer *buf;
  gint64 t0;

  g_usleep (50 * G_TIME_SPAN_MILLISECOND);
  fail_if (g_atomic_int_get (&p.done)); /* still blocked */
  t0 = g_get_monotonic_time ();
  ivtv_queue_set_flushing (p.q, TRUE);
  fail_unless (popper_done (&p), "pop still blocked 5 s after flushing");
  g_thread_join (th);
  fail_unless_equals_int (p.ret, GST_FLOW_FLUSHING);
  GST_INFO ("pop returned %" G_GINT64_FORMAT " us after set_flushing",
      p.done_us - t0);
  /* 100 ms is the aim; 5x that keeps a loaded 2-core machine green */
  fail_unless (p.done_us - t0 < 500 * G_TIME_SPAN_MILLISECOND);

  /* flushing (GstBaseSrc's unlock, e.g. PLAYING -> PAUSED): pop returns
   * at once, but a buffer the reader read meanwhile is kept for after, in
   * order: it was captured (it was once dropped without a count) */
  fail_unless_equals_int (ivtv_queue_push (p.q, make_buf (10, 1, 0, 0)),
      IVTV_QUEUE_OK);
  fail_unless_equals_int (ivtv_queue_pop (p.q, &buf), GST_FLOW_FLUSHING);
  fail_unless (buf == NULL);
  ivtv_queue_set_flushing (p.q, FALSE);
  fail_unless_equals_int (ivtv_queue_push (p.q, make_buf (10, 2, 0, 0)),
      IVTV_QUEUE_OK);
  fail_unless_equals_int (ivtv_queue_pop (p.q, &buf), GST_FLOW_OK);
  fail_unless_equals_int (buf_tag (buf), 1);
  gst_buffer_unref (buf);
  fail_unless_equals_int (ivtv_queue_pop (p.q, &buf), GST_FLOW_OK);
  fail_unless_equals_int (buf_tag (buf), 2);
  gst_buffer_unref (buf);
  ivtv_queue_free (p.q);
}

GST_END_TEST;

GST_START_TEST (test_flow_after_data)
{
  IvtvQueue *q = ivtv_queue_new (0, 0);
  Popper p = { q, GST_FLOW_OK, 0, 0 };
  GThread *th;
  GstBuffer *buf;
  guint i;

  for (i = 0; i < 3; i++)
    ivtv_queue_push (q, make_buf (10, i, GST_CLOCK_TIME_NONE, 0));
  ivtv_queue_push_flow (q, GST_FLOW_EOS);
  fail_unless_equals_int (ivtv_queue_push (q, make_buf (10, 9, 0, 0)),
      IVTV_QUEUE_REFUSED);
  for (i = 0; i < 3; i++) {
    fail_unless_equals_int (ivtv_queue_pop (q, &buf), GST_FLOW_OK);
    fail_unless_equals_int (buf_tag (buf), i);
    gst_buffer_unref (buf);
  }
  fail_unless_equals_int (ivtv_queue_pop (q, &buf), GST_FLOW_EOS);
  fail_unless_equals_int (ivtv_queue_pop (q, &buf), GST_FLOW_EOS);

  /* a new session; a blocked pop wakes for an error flow */
  ivtv_queue_clear (q);
  th = g_thread_new ("popper", pop_thread, &p);
  g_usleep (20 * G_TIME_SPAN_MILLISECOND);
  ivtv_queue_push_flow (q, GST_FLOW_ERROR);
  g_thread_join (th);
  fail_unless_equals_int (p.ret, GST_FLOW_ERROR);
  ivtv_queue_free (q);
}

GST_END_TEST;

/* Until the consumer waits in pop (at most 5 s). */
static gboolean
consumer_waits (IvtvQueue * q)
{
  gint64 end = g_get_monotonic_time () + 5 * G_TIME_SPAN_SECOND;
  IvtvQueueLevel lv;

  do {
    ivtv_queue_get_level (q, &lv);
    if (lv.consumer_waiting)
      return TRUE;
    g_usleep (G_TIME_SPAN_MILLISECOND);
  } while (g_get_monotonic_time () < end);
  return FALSE;
}

typedef struct
{
  IvtvQueue *q;
  guint8 tags[2];
  GstFlowReturn ret;
  gint done;
} TwoPops;

static gpointer
two_pops_thread (gpointer data)
{
  TwoPops *p = data;
  GstBuffer *buf = NULL;
  guint i;

  for (i = 0; i < 2; i++) {
    if ((p->ret = ivtv_queue_pop (p->q, &buf)) != GST_FLOW_OK)
      break;
    p->tags[i] = buf_tag (buf);
    gst_clear_buffer (&buf);
  }
  g_atomic_int_set (&p->done, 1);
  return NULL;
}

/* A producer that said "more is coming" (a backlog) and then blocks for
 * ever: the consumer, left asleep, still gets the buffer (its wait has a
 * limit while the producer says so; issue 26's batched hand-off). */
GST_START_TEST (test_batch_never_strands_a_buffer)
{
  TwoPops p = { ivtv_queue_new (0, 0), {0, 0}, GST_FLOW_OK, 0 };
  GThread *th = g_thread_new ("popper", two_pops_thread, &p);
  gint64 end;
  IvtvQueuePushed after = { FALSE, FALSE };

  fail_unless (consumer_waits (p.q));
  ivtv_queue_push_more (p.q, make_buf (10, 1, 0, 0), TRUE, &after);
  /* the consumer waits for this very buffer: the producer may let it
   * read for itself (the reader thread's turn, issue 26) */
  fail_unless (after.caught_up, "a consumer waits: not caught up");
  /* the first pop returns, the second waits (with a limit now) */
  end = g_get_monotonic_time () + 5 * G_TIME_SPAN_SECOND;
  for (;;) {
    IvtvQueueLevel lv;

    ivtv_queue_get_level (p.q, &lv);
    if (lv.buffers == 0 && lv.consumer_waiting)
      break;
    fail_if (g_get_monotonic_time () > end, "the first pop never returned");
    g_usleep (G_TIME_SPAN_MILLISECOND);
  }
  ivtv_queue_push_more (p.q, make_buf (10, 2, 0, 0), TRUE, NULL);
  /* nothing follows: no push, no flow */
  end = g_get_monotonic_time () + 5 * G_TIME_SPAN_SECOND;
  while (!g_atomic_int_get (&p.done) && g_get_monotonic_time () < end)
    g_usleep (G_TIME_SPAN_MILLISECOND);
  fail_unless (g_atomic_int_get (&p.done),
      "the consumer still sleeps 5 s after the last buffer came");
  g_thread_join (th);
  fail_unless_equals_int (p.ret, GST_FLOW_OK);
  fail_unless_equals_int (p.tags[0], 1);
  fail_unless_equals_int (p.tags[1], 2);
  ivtv_queue_free (p.q);
}

GST_END_TEST;

/* The push tells the producer when its consumer is behind: buffers wait,
 * the consumer is not waiting for one and took none for
 * IVTV_QUEUE_BEHIND_US (the reader then copies frames out of a streaming
 * driver's buffers); a pop, or a consumer waiting, ends it. */
GST_START_TEST (test_push_tells_consumer_behind)
{
  IvtvQueue *q = ivtv_queue_new (0, 0);
  GstBuffer *b = NULL;
  IvtvQueuePushed after = { FALSE, TRUE };
  gint64 t0;

  /* nothing queued before: the consumer has nothing to be behind on */
  g_usleep (IVTV_QUEUE_BEHIND_US + 50 * G_TIME_SPAN_MILLISECOND);
  ivtv_queue_push_more (q, make_buf (10, 1, 0, 0), FALSE, &after);
  fail_unless (after.behind,
      "a buffer waits, no pop for 150 ms: not behind");
  fail_if (after.caught_up, "caught up without a consumer waiting");
  t0 = g_get_monotonic_time ();
  fail_unless_equals_int (ivtv_queue_pop (q, &b), GST_FLOW_OK);
  gst_buffer_unref (b);
  ivtv_queue_push_more (q, make_buf (10, 2, 0, 0), FALSE, &after);
  /* (a pause of the whole machine of 100 ms between the pop and the
   * push would make it behind, rightly: asserted only without one) */
  if (g_get_monotonic_time () - t0 < IVTV_QUEUE_BEHIND_US)
    fail_if (after.behind, "behind right after a pop");
  g_usleep (IVTV_QUEUE_BEHIND_US + 50 * G_TIME_SPAN_MILLISECOND);
  ivtv_queue_push_more (q, make_buf (10, 3, 0, 0), FALSE, &after);
  fail_unless (after.behind,
      "two buffers wait, no pop for 150 ms: not behind");
  ivtv_queue_free (q);
}

GST_END_TEST;

#define SMOKE_BUFFERS 100000

typedef struct
{
  IvtvQueue *q;
  guint64 pushed;
} Producer;

static gpointer
produce (gpointer data)
{
  Producer *p = data;
  guint32 seed = 1;
  guint i;

  for (i = 0; i < SMOKE_BUFFERS; i++) {
    gsize size = 1 + (seed = seed * 1103515245 + 12345) % 300;

    p->pushed += size;
    /* a backlog now and then (batched wake-ups), caught up otherwise */
    ivtv_queue_push_more (p->q, make_buf (size, i, i * GST_MSECOND,
            GST_MSECOND), (i / 64) % 2 == 0 && i % 64 != 63, NULL);
  }
  ivtv_queue_push_flow (p->q, GST_FLOW_EOS);
  return NULL;
}

GST_START_TEST (test_concurrency_all_bytes_accounted)
{
  Producer p = { ivtv_queue_new (16 * 1024, 0), 0 };
  Events ev = { 0 };
  IvtvQueueTotals t;
  GstBuffer *buf;
  GstFlowReturn ret;
  GThread *th;
  guint64 popped = 0, n = 0;
  GstClockTime last = 0;

  g_mutex_init (&ev.lock);
  ivtv_queue_set_loss_func (p.q, on_loss, &ev);
  th = g_thread_new ("producer", produce, &p);
  while ((ret = ivtv_queue_pop (p.q, &buf)) == GST_FLOW_OK) {
    /* in order: a tag is the index's low byte */
    fail_unless (GST_BUFFER_PTS (buf) / GST_MSECOND % 256 == buf_tag (buf));
    fail_unless (GST_BUFFER_PTS (buf) >= last);
    last = GST_BUFFER_PTS (buf);
    popped += gst_buffer_get_size (buf);
    gst_buffer_unref (buf);
    if (++n % 1000 == 0)
      g_usleep (200);           /* a slow consumer, so that drops happen */
  }
  g_thread_join (th);
  fail_unless_equals_int (ret, GST_FLOW_EOS);
  ivtv_queue_get_totals (p.q, &t);
  GST_INFO ("pushed %" G_GUINT64_FORMAT " popped %" G_GUINT64_FORMAT
      " dropped %" G_GUINT64_FORMAT " in %" G_GUINT64_FORMAT " runs",
      p.pushed, popped, t.dropped_bytes, t.loss_runs);
  fail_unless_equals_uint64 (popped + t.dropped_bytes, p.pushed);
  fail_unless_equals_uint64 (t.popped_bytes, popped);
  fail_unless_equals_uint64 (t.pushed_buffers + t.dropped_buffers,
      SMOKE_BUFFERS);
  fail_unless_equals_int (ev.started, t.loss_runs);
  fail_unless_equals_int (ev.ended, t.loss_runs);
  ivtv_queue_free (p.q);
  g_mutex_clear (&ev.lock);
}

GST_END_TEST;

static Suite *
capture_queue_suite (void)
{
  Suite *s = suite_create ("capture-queue");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_overflow_drops_newest);
  tcase_add_test (tc, test_loss_one_event_per_run);
  tcase_add_test (tc, test_one_stall_one_hole);
  tcase_add_test (tc, test_loss_text_stall_or_slower);
  tcase_add_test (tc, test_time_bound);
  tcase_add_test (tc, test_flushing_unblocks_pop);
  tcase_add_test (tc, test_flow_after_data);
  tcase_add_test (tc, test_concurrency_all_bytes_accounted);
  tcase_add_test (tc, test_batch_never_strands_a_buffer);
  tcase_add_test (tc, test_push_tells_consumer_behind);
  return s;
}

GST_CHECK_MAIN (capture_queue);
