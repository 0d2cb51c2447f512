/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the capture queue (see ivtvqueue.h for the contract).
 *
 * A GstQueueArray of buffers under one mutex and one condition, as
 * GstDataQueue, which does not fit as it is: its push waits while the
 * queue is full (ours must drop and never block the reader), its time
 * level is the sum of durations only (MPEG buffers read() from a card
 * have a PTS but no duration, so ours is the larger of the durations'
 * sum and the PTS span from the oldest buffer to the newest's end), and
 * it carries no final flow.  The loss callback runs after the mutex is
 * released.
 */
#include "ivtvqueue.h"

#include <gst/base/gstqueuearray.h>
#include <string.h>

struct _IvtvQueue
{
  /* lock — every field below (pushed by the reader thread, popped by the
   * streaming thread; bounds, level, flushing from any thread).  Rule:
   * held only inside this file's functions; the loss callback runs after
   * it is released; nothing else is taken under it. */
  GMutex lock;
  GCond cond;                   /* broadcast on flow and flushing; a push
                                 * signals it only when the consumer waits
                                 * and is not left to sleep (see push) */
  guint waiting;                /* consumers waiting in pop */
  guint waiting_timed;          /* of which wait with a time limit */
  gboolean batching;            /* the producer said more is coming */
  gint64 last_return_us;        /* monotonic: pop last returned */
  GstQueueArray *items;         /* GstBuffer *, oldest first */

  guint64 max_bytes;
  GstClockTime max_time;
  gboolean frames;

  guint64 level_bytes;
  GstClockTime level_dur;       /* sum of the valid durations queued */
  gboolean flushing;
  GstFlowReturn flow;           /* GST_FLOW_OK until the producer ends */
  gpointer flow_error;          /* what the final flow carries, or NULL */
  GDestroyNotify flow_error_free;

  GstClockTime first_pts;       /* first valid PTS queued, or NONE */
  gint64 last_pop_us;           /* monotonic, or 0 before the first */
  gboolean in_run;              /* dropping */
  gboolean discont;             /* mark the next buffer queued */
  IvtvLoss run;                 /* the current (or last) run so far */
  GstClockTime run_last_end;    /* end of the last dropped buffer */
  gint64 run_since_us;          /* the consumer's last pop before the run */
  gint64 run_pop_us;            /* its first pop during the run, or 0 */
  gboolean run_room;            /* a pop or a raised bound since the run
                                 * began: a buffer that fits may end it */

  IvtvQueueTotals totals;

  IvtvLossFunc loss_func;
  gpointer loss_data;
};

IvtvQueue *
ivtv_queue_new (guint64 max_bytes, GstClockTime max_time)
{
  IvtvQueue *q = g_new0 (IvtvQueue, 1);

  g_mutex_init (&q->lock);
  g_cond_init (&q->cond);
  q->items = gst_queue_array_new (64);
  q->max_bytes = max_bytes;
  q->max_time = GST_CLOCK_TIME_IS_VALID (max_time) ? max_time : 0;
  q->flow = GST_FLOW_OK;
  q->first_pts = GST_CLOCK_TIME_NONE;
  q->last_return_us = g_get_monotonic_time ();
  return q;
}

void
ivtv_queue_free (IvtvQueue * q)
{
  GstBuffer *buf;

  if (q == NULL)
    return;
  while ((buf = gst_queue_array_pop_head (q->items)))
    gst_buffer_unref (buf);
  if (q->flow_error)
    q->flow_error_free (q->flow_error);
  gst_queue_array_free (q->items);
  g_cond_clear (&q->cond);
  g_mutex_clear (&q->lock);
  g_free (q);
}

void
ivtv_queue_set_max_bytes (IvtvQueue * q, guint64 max_bytes)
{
  g_mutex_lock (&q->lock);
  q->max_bytes = max_bytes;
  q->run_room = TRUE;           /* a raised bound makes room */
  g_mutex_unlock (&q->lock);
}

void
ivtv_queue_set_max_time (IvtvQueue * q, GstClockTime max_time)
{
  g_mutex_lock (&q->lock);
  q->max_time = GST_CLOCK_TIME_IS_VALID (max_time) ? max_time : 0;
  q->run_room = TRUE;
  g_mutex_unlock (&q->lock);
}

void
ivtv_queue_set_frames (IvtvQueue * q, gboolean one_frame_per_buffer)
{
  g_mutex_lock (&q->lock);
  q->frames = one_frame_per_buffer;
  g_mutex_unlock (&q->lock);
}

void
ivtv_queue_set_loss_func (IvtvQueue * q, IvtvLossFunc func, gpointer data)
{
  g_mutex_lock (&q->lock);
  q->loss_func = func;
  q->loss_data = data;
  g_mutex_unlock (&q->lock);
}

/* The end of @buf in stream time (PTS + duration), or NONE. */
static GstClockTime
buffer_end (GstBuffer * buf)
{
  GstClockTime pts = GST_BUFFER_PTS (buf);

  if (!GST_CLOCK_TIME_IS_VALID (pts))
    return GST_CLOCK_TIME_NONE;
  if (GST_BUFFER_DURATION_IS_VALID (buf))
    return pts + GST_BUFFER_DURATION (buf);
  return pts;
}

/* Time level with @extra (may be NULL) added at the tail. */
static GstClockTime
level_time_locked (IvtvQueue * q, GstBuffer * extra)
{
  GstBuffer *head = gst_queue_array_peek_head (q->items);
  GstBuffer *tail = extra ? extra : gst_queue_array_peek_tail (q->items);
  GstClockTime sum = q->level_dur, span = 0, end;

  if (extra && GST_BUFFER_DURATION_IS_VALID (extra))
    sum += GST_BUFFER_DURATION (extra);
  if (head == NULL)
    head = extra;
  if (head && tail && GST_BUFFER_PTS_IS_VALID (head)) {
    end = buffer_end (tail);
    if (GST_CLOCK_TIME_IS_VALID (end) && end > GST_BUFFER_PTS (head))
      span = end - GST_BUFFER_PTS (head);
  }
  return MAX (sum, span);
}

/* Does @buf overflow a bound?  An empty queue takes any buffer.  During
 * a run of drops the queue stays full until the consumer took a buffer
 * (issue 28 item 9): a smaller read that would fit the space left must
 * not end the run, or one stall of downstream makes many holes, each
 * with its warning, between islands of a few KiB. */
static gboolean
is_full_locked (IvtvQueue * q, GstBuffer * buf, IvtvQueueFull * full)
{
  if (gst_queue_array_is_empty (q->items))
    return FALSE;
  if (q->in_run && !q->run_room) {
    *full = q->run.full;
    return TRUE;
  }
  if (q->max_bytes > 0
      && q->level_bytes + gst_buffer_get_size (buf) > q->max_bytes) {
    *full = IVTV_QUEUE_FULL_BYTES;
    return TRUE;
  }
  if (q->max_time > 0 && level_time_locked (q, buf) > q->max_time) {
    *full = IVTV_QUEUE_FULL_TIME;
    return TRUE;
  }
  return FALSE;
}

/* Count @buf as dropped; TRUE (and *out filled) when it starts a run. */
static gboolean
drop_locked (IvtvQueue * q, GstBuffer * buf, IvtvQueueFull full, IvtvLoss * out)
{
  gsize size = gst_buffer_get_size (buf);
  gboolean started = !q->in_run;
  IvtvLoss *r = &q->run;

  if (started) {
    memset (r, 0, sizeof (*r));
    r->full = full;
    r->pts = GST_BUFFER_PTS (buf);
    r->position = GST_CLOCK_TIME_NONE;
    if (GST_CLOCK_TIME_IS_VALID (r->pts)
        && GST_CLOCK_TIME_IS_VALID (q->first_pts) && r->pts >= q->first_pts)
      r->position = r->pts - q->first_pts;
    r->stalled = GST_CLOCK_TIME_NONE;
    r->max_bytes = q->max_bytes;
    r->max_time = q->max_time;
    q->run_since_us = q->last_pop_us;
    q->run_pop_us = 0;
    q->run_room = FALSE;
    q->in_run = TRUE;
    q->totals.loss_runs++;
  }
  r->bytes += size;
  r->buffers++;
  r->frames += q->frames ? 1 : 0;
  if (GST_BUFFER_DURATION_IS_VALID (buf))
    r->duration += GST_BUFFER_DURATION (buf);
  q->run_last_end = buffer_end (buf);
  q->totals.dropped_bytes += size;
  q->totals.dropped_buffers++;
  q->totals.dropped_frames += q->frames ? 1 : 0;
  q->discont = TRUE;
  if (started) {
    *out = *r;
    out->kind = IVTV_LOSS_STARTED;
  }
  return started;
}

/* End the current run, if any; @next is the buffer after it (or NULL).
 * TRUE (and *out filled) when a run ended. */
static gboolean
end_run_locked (IvtvQueue * q, GstBuffer * next, IvtvLoss * out)
{
  IvtvLoss *r = &q->run;
  GstClockTime span = GST_CLOCK_TIME_NONE;
  gint64 now;

  if (!q->in_run)
    return FALSE;
  now = g_get_monotonic_time ();
  q->in_run = FALSE;
  if (GST_CLOCK_TIME_IS_VALID (r->pts)) {
    /* the hole runs to the next buffer's PTS, else to the last drop's end */
    if (next && GST_BUFFER_PTS_IS_VALID (next)
        && GST_BUFFER_PTS (next) > r->pts)
      span = GST_BUFFER_PTS (next) - r->pts;
    else if (GST_CLOCK_TIME_IS_VALID (q->run_last_end)
        && q->run_last_end > r->pts)
      span = q->run_last_end - r->pts;
  }
  if (GST_CLOCK_TIME_IS_VALID (span))
    r->duration = MAX (r->duration, span);
  else if (r->duration == 0)
    r->duration = GST_CLOCK_TIME_NONE;
  if (q->run_since_us > 0)
    r->stalled = ((q->run_pop_us ? q->run_pop_us : now) - q->run_since_us)
        * GST_USECOND;
  *out = *r;
  out->kind = IVTV_LOSS_ENDED;
  return TRUE;
}

/* The consumer waits with a time limit while the producer reads a backlog
 * (IVTV_QUEUE_BATCH_WAIT_US): it is left to sleep until IVTV_QUEUE_BATCH
 * buffers or a quarter of a bound are queued, so a backlog costs one
 * wake-up (two context switches and a futex call each) per batch instead
 * of per buffer (issue 26).  Should the producer block after all, the
 * limit ends the wait, and the next wait is without one. */
static gboolean
leave_asleep_locked (IvtvQueue * q)
{
  guint n = gst_queue_array_get_length (q->items);

  if (!q->batching || q->waiting_timed == 0 || n >= IVTV_QUEUE_BATCH)
    return FALSE;
  if (q->max_bytes > 0 && q->level_bytes >= q->max_bytes / 4)
    return FALSE;
  if (q->max_time > 0 && level_time_locked (q, NULL) >= q->max_time / 4)
    return FALSE;
  return TRUE;
}

IvtvQueueResult
ivtv_queue_push (IvtvQueue * q, GstBuffer * buf)
{
  return ivtv_queue_push_more (q, buf, FALSE, NULL);
}

/* Buffers wait, the consumer does not, and took none for a while. */
static gboolean
behind_locked (IvtvQueue * q)
{
  return !gst_queue_array_is_empty (q->items) && q->waiting == 0
      && g_get_monotonic_time () - q->last_return_us > IVTV_QUEUE_BEHIND_US;
}

IvtvQueueResult
ivtv_queue_push_more (IvtvQueue * q, GstBuffer * buf, gboolean more,
    IvtvQueuePushed * after)
{
  IvtvQueueResult res = IVTV_QUEUE_OK;
  IvtvQueueFull full = IVTV_QUEUE_FULL_BYTES;
  IvtvLoss loss[2];
  gboolean started = FALSE, ended = FALSE, wake = FALSE;
  IvtvLossFunc func;
  gpointer data;

  g_return_val_if_fail (GST_IS_BUFFER (buf), IVTV_QUEUE_REFUSED);
  g_mutex_lock (&q->lock);
  func = q->loss_func;
  data = q->loss_data;
  q->batching = more;
  if (q->flow != GST_FLOW_OK) {
    res = IVTV_QUEUE_REFUSED;   /* after the end: nothing more is wanted */
  } else if (is_full_locked (q, buf, &full)) {
    started = drop_locked (q, buf, full, &loss[0]);
    res = IVTV_QUEUE_DROPPED;
  } else {
    ended = end_run_locked (q, buf, &loss[1]);
    if (q->discont) {
      buf = gst_buffer_make_writable (buf);
      GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_DISCONT);
      q->discont = FALSE;
    }
    if (!GST_CLOCK_TIME_IS_VALID (q->first_pts))
      q->first_pts = GST_BUFFER_PTS (buf);
    if (q->last_pop_us == 0 && gst_queue_array_is_empty (q->items))
      q->last_pop_us = g_get_monotonic_time (); /* the consumer's wait starts */
    q->level_bytes += gst_buffer_get_size (buf);
    if (GST_BUFFER_DURATION_IS_VALID (buf))
      q->level_dur += GST_BUFFER_DURATION (buf);
    q->totals.pushed_bytes += gst_buffer_get_size (buf);
    q->totals.pushed_buffers++;
    gst_queue_array_push_tail (q->items, buf);
    buf = NULL;
    /* no wake-up (a syscall) for nobody */
    wake = q->waiting > 0 && !leave_asleep_locked (q);
  }
  if (after) {
    after->behind = behind_locked (q);
    after->caught_up = res == IVTV_QUEUE_OK && q->waiting > 0
        && gst_queue_array_get_length (q->items) == 1;
  }
  g_mutex_unlock (&q->lock);
  /* after the unlock: the woken consumer does not find it held and sleep
   * again on the mutex (the queue outlives every push and pop) */
  if (wake)
    g_cond_signal (&q->cond);
  if (buf)
    gst_buffer_unref (buf);
  if (started && func)
    func (&loss[0], data);
  if (ended && func)
    func (&loss[1], data);
  return res;
}

void
ivtv_queue_push_flow (IvtvQueue * q, GstFlowReturn flow)
{
  ivtv_queue_push_flow_full (q, flow, NULL, NULL);
}

void
ivtv_queue_push_flow_full (IvtvQueue * q, GstFlowReturn flow,
    gpointer error, GDestroyNotify error_free)
{
  IvtvLoss loss;
  gboolean ended;
  IvtvLossFunc func;
  gpointer data;

  g_return_if_fail (flow != GST_FLOW_OK);
  g_mutex_lock (&q->lock);
  func = q->loss_func;
  data = q->loss_data;
  ended = end_run_locked (q, NULL, &loss);
  if (q->flow == GST_FLOW_OK) {
    q->flow = flow;
    q->flow_error = error;
    q->flow_error_free = error_free;
    error = NULL;
  }
  g_cond_broadcast (&q->cond);
  g_mutex_unlock (&q->lock);
  if (error && error_free)      /* a second end: not queued */
    error_free (error);
  if (ended && func)
    func (&loss, data);
}

GstFlowReturn
ivtv_queue_pop (IvtvQueue * q, GstBuffer ** buf)
{
  return ivtv_queue_pop_full (q, buf, NULL);
}

GstFlowReturn
ivtv_queue_pop_full (IvtvQueue * q, GstBuffer ** buf, gpointer * error)
{
  GstFlowReturn ret = GST_FLOW_OK;
  GstBuffer *b;
  gint64 now;

  *buf = NULL;
  if (error)
    *error = NULL;
  g_mutex_lock (&q->lock);
  while (!q->flushing && q->flow == GST_FLOW_OK
      && gst_queue_array_is_empty (q->items)) {
    q->waiting++;
    if (q->batching) {
      q->waiting_timed++;
      if (!g_cond_wait_until (&q->cond, &q->lock, g_get_monotonic_time () +
              IVTV_QUEUE_BATCH_WAIT_US))
        q->batching = FALSE;    /* the producer is slow: wait untimed */
      q->waiting_timed--;
    } else {
      g_cond_wait (&q->cond, &q->lock);
    }
    q->waiting--;
  }
  now = g_get_monotonic_time ();
  if (q->flushing) {
    ret = GST_FLOW_FLUSHING;
  } else if ((b = gst_queue_array_pop_head (q->items))) {
    q->level_bytes -= gst_buffer_get_size (b);
    if (GST_BUFFER_DURATION_IS_VALID (b))
      q->level_dur -= GST_BUFFER_DURATION (b);
    q->totals.popped_bytes += gst_buffer_get_size (b);
    q->totals.popped_buffers++;
    q->last_pop_us = now;
    if (q->in_run && q->run_pop_us == 0)
      q->run_pop_us = q->last_pop_us;
    q->run_room = TRUE;
    *buf = b;
  } else {
    ret = q->flow;
    if (error) {                /* handed over once */
      *error = q->flow_error;
      q->flow_error = NULL;
    }
  }
  q->last_return_us = now;
  g_mutex_unlock (&q->lock);
  return ret;
}

void
ivtv_queue_set_flushing (IvtvQueue * q, gboolean flushing)
{
  g_mutex_lock (&q->lock);
  q->flushing = flushing;
  g_cond_broadcast (&q->cond);
  g_mutex_unlock (&q->lock);
}

void
ivtv_queue_clear (IvtvQueue * q)
{
  GstBuffer *b;
  IvtvLoss loss;
  gboolean ended;
  IvtvLossFunc func;
  gpointer data;

  g_mutex_lock (&q->lock);
  func = q->loss_func;
  data = q->loss_data;
  ended = end_run_locked (q, NULL, &loss);
  while ((b = gst_queue_array_pop_head (q->items)))
    gst_buffer_unref (b);
  q->level_bytes = 0;
  q->level_dur = 0;
  q->flow = GST_FLOW_OK;
  if (q->flow_error)
    q->flow_error_free (q->flow_error);
  q->flow_error = NULL;
  q->first_pts = GST_CLOCK_TIME_NONE;
  q->last_pop_us = 0;
  q->discont = FALSE;
  memset (&q->totals, 0, sizeof (q->totals));
  g_mutex_unlock (&q->lock);
  if (ended && func)
    func (&loss, data);
}

void
ivtv_queue_get_level (IvtvQueue * q, IvtvQueueLevel * level)
{
  gdouble fb = 0.0, ft = 0.0;

  g_mutex_lock (&q->lock);
  level->bytes = q->level_bytes;
  level->buffers = gst_queue_array_get_length (q->items);
  level->time = level_time_locked (q, NULL);
  level->consumer_waiting = q->waiting > 0;
  level->consumer_returned_us = q->last_return_us;
  if (q->max_bytes > 0)
    fb = (gdouble) level->bytes / q->max_bytes;
  if (q->max_time > 0)
    ft = (gdouble) level->time / q->max_time;
  g_mutex_unlock (&q->lock);
  level->fill = CLAMP (MAX (fb, ft), 0.0, 1.0);
}

void
ivtv_queue_get_totals (IvtvQueue * q, IvtvQueueTotals * totals)
{
  g_mutex_lock (&q->lock);
  *totals = q->totals;
  g_mutex_unlock (&q->lock);
}
