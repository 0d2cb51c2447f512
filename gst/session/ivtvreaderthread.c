/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the reader thread (see ivtvreaderthread.h): the loop that
 * reads and queues, capture timestamps, frame gaps, the loss warnings and
 * the `ivtvsrc-stats` messages. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvreaderthread.h"
#include "ivtvdebug.h"
#include "ivtvstreamclock.h"

#include <inttypes.h>
#include <string.h>

#define GST_CAT_DEFAULT ivtvsrc_debug

/* Frame gaps closer together than this go into one warning. */
#define GAP_WARN_INTERVAL (10 * GST_SECOND)

/* The periodic stats message's share of the thread: the clock calls it on
 * its own thread, so it lives until the clock id is freed and finds the
 * reader (NULL once it stopped) under its own lock.  Order: the tick's lock
 * first, then the reader's (final_posted), then one at a time the queue's,
 * the signal watch's and the stats' (post_stats posts while it is held). */
typedef struct
{
  GMutex lock;
  IvtvReaderThread *reader;
} IvtvStatsTick;

struct _IvtvReaderThread
{
  GstElement *element;          /* not a reference */
  IvtvQueue *queue;
  IvtvStats *stats;
  IvtvSignal *signal;           /* the session's, may be NULL */
  IvtvReaderProduce produce;
  gpointer data;
  gboolean frames;
  /* an MPEG byte stream's own clock: what the driver dropped (turn;
   * NULL for other streams) */
  IvtvStreamClock *clock;
  gint clock_restart;           /* atomic: forget the clock at the next
                                 * buffer (an encoder resumed) */
  guint64 clock_bytes;          /* found, not yet warned about */
  GstClockTime clock_at, clock_dur, last_clock_warn;
  gint64 pace_us;               /* byte streams: the least time between reads */
  gint64 max_buffers;           /* the limits' (turn) */
  gint64 queued;                /* buffers queued (turn) */

  /* turn — one read and what follows it (a step: produce, stamps, gaps,
   * the stream clock, the push), by the reader thread or by create()
   * (direct_step); held for the step alone.  Every field marked (turn) is
   * read and written under it.  Taken under it: r->lock (pace), the
   * element's object lock, the queue's, the stats' and the session's
   * (produce); never taken under any of those. */
  GMutex turn;
  gboolean done;                /* (turn) the final flow is queued */
  gboolean behind;              /* (turn) the last push found the consumer
                                 * behind: produce copies frames out */
  gint64 pace_until;            /* (turn) after a small read, no read
                                 * before this (monotonic us), or 0 */
  gint direct;                  /* atomic: create() is in a direct step */

  GThread *thread;
  GMutex lock;                  /* the flags below.  Taken under it, one at
                                 * a time: the element's object lock
                                 * (is_playing) and the queue's lock (EOS
                                 * pushed in wait_not_flushing) */
  GCond cond;
  gboolean flushing, stopping, ending;
  gboolean read_paused;         /* read on while the element is PAUSED */
  gboolean final_posted;

  GstClock *sysclock;
  GstClockID tick_id;
  IvtvStatsTick *tick;

  /* (turn) */
  GstClockTime first_pts;
  GstClockTime last_clock_pts;  /* the last PTS taken from the clock */
  guint64 next_offset;          /* frames: the offset expected next */
  gboolean have_offset;
  guint64 gap_frames, gap_bytes;        /* not yet warned about */
  GstClockTime gap_at, gap_dur, last_gap_warn;
};

static GstClockTime
monotonic (void)
{
  return (GstClockTime) g_get_monotonic_time () * GST_USECOND;
}

/* ---- stats ---- */

static IvtvStatsSignal
signal_state (IvtvSignal * s)
{
  IvtvStatsSignal state = IVTV_STATS_SIGNAL_UNKNOWN;

  if (s == NULL)
    return state;
  g_mutex_lock (&s->lock);
  if (s->checked)
    state = !s->present ? IVTV_STATS_SIGNAL_NONE : s->locked ?
        IVTV_STATS_SIGNAL_PRESENT : IVTV_STATS_SIGNAL_NO_LOCK;
  g_mutex_unlock (&s->lock);
  return state;
}

static void
post_stats (IvtvReaderThread * r, gboolean final)
{
  IvtvQueueLevel level;

  if (final) {
    g_mutex_lock (&r->lock);
    if (r->final_posted) {
      g_mutex_unlock (&r->lock);
      return;
    }
    r->final_posted = TRUE;
    g_mutex_unlock (&r->lock);
  }
  ivtv_queue_get_level (r->queue, &level);
  ivtv_stats_set_signal (r->stats, signal_state (r->signal));
  gst_element_post_message (r->element, ivtv_stats_message (r->stats,
          GST_OBJECT (r->element), monotonic (), &level, final));
}

static gboolean
final_posted (IvtvReaderThread * r)
{
  gboolean posted;

  g_mutex_lock (&r->lock);
  posted = r->final_posted;
  g_mutex_unlock (&r->lock);
  return posted;
}

static gboolean
stats_tick (GstClock * clock, GstClockTime time, GstClockID id, gpointer data)
{
  IvtvStatsTick *tick = data;

  (void) clock;
  (void) time;
  (void) id;
  g_mutex_lock (&tick->lock);
  /* final_posted is the reader's (r->lock): the final one may be posting */
  if (tick->reader && !final_posted (tick->reader))
    post_stats (tick->reader, FALSE);
  g_mutex_unlock (&tick->lock);
  return TRUE;
}

static void
stats_tick_free (gpointer data)
{
  IvtvStatsTick *tick = data;

  g_mutex_clear (&tick->lock);
  g_free (tick);
}

static void
start_ticks (IvtvReaderThread * r, guint interval_ms)
{
  GstClockTime interval = (GstClockTime) interval_ms * GST_MSECOND;

  if (interval_ms == 0 || r->tick_id)
    return;
  r->tick = g_new0 (IvtvStatsTick, 1);
  g_mutex_init (&r->tick->lock);
  r->tick->reader = r;
  r->tick_id = gst_clock_new_periodic_id (r->sysclock,
      gst_clock_get_time (r->sysclock) + interval, interval);
  gst_clock_id_wait_async (r->tick_id, stats_tick, r->tick, stats_tick_free);
}

static void
stop_ticks (IvtvReaderThread * r)
{
  if (r->tick_id == NULL)
    return;
  g_mutex_lock (&r->tick->lock);        /* a message being posted ends */
  r->tick->reader = NULL;
  g_mutex_unlock (&r->tick->lock);
  gst_clock_id_unschedule (r->tick_id);
  gst_clock_id_unref (r->tick_id);      /* frees the tick in the end */
  r->tick_id = NULL;
  r->tick = NULL;
}

/* ---- losses ---- */

static void
queue_loss (const IvtvLoss * loss, gpointer data)
{
  IvtvReaderThread *r = data;
  gchar *text;

  if (loss->kind == IVTV_LOSS_STARTED) {
    GST_INFO_OBJECT (r->element, "the queue is full: dropping buffers");
    return;
  }
  ivtv_stats_add_loss (r->stats, loss->bytes, loss->frames, TRUE);
  text = ivtv_loss_describe (loss);
  GST_ELEMENT_WARNING (r->element, RESOURCE, READ, (_("%s."), text),
      ("%" G_GUINT64_FORMAT " buffers dropped (max-buffer-bytes=%"
          G_GUINT64_FORMAT ", max-buffer-time=%" G_GUINT64_FORMAT ")",
          loss->buffers, loss->max_bytes, loss->max_time));
  g_free (text);
}

/* The frames of the gaps found so far, in one warning. */
static void
warn_gaps (IvtvReaderThread * r)
{
  gchar *size, *at;

  if (r->gap_frames == 0)
    return;
  size = g_format_size (r->gap_bytes);
  at = ivtv_loss_format_position (r->gap_at);
  GST_ELEMENT_WARNING (r->element, RESOURCE, READ,
      (g_dngettext (GETTEXT_PACKAGE,
              "Lost %" PRIu64 " frame (%s, %.1f s) of the recording at "
              "%s: the driver dropped it (its buffers were not taken in "
              "time, or the card reported it bad).",
              "Lost %" PRIu64 " frames (%s, %.1f s) of the recording at "
              "%s: the driver dropped them (its buffers were not taken in "
              "time, or the card reported them bad).",
              (gulong) MIN (r->gap_frames, G_MAXULONG)),
          (uint64_t) r->gap_frames, size, (gdouble) r->gap_dur / GST_SECOND,
          at),
      ("gap in the driver's frame sequence numbers"));
  g_free (size);
  g_free (at);
  r->gap_frames = r->gap_bytes = 0;
  r->gap_dur = 0;
}

/* Raw video: an offset past the one expected means frames the driver
 * dropped (or flagged bad); counted, and warned about at most every
 * GAP_WARN_INTERVAL. */
static void
check_gap (IvtvReaderThread * r, GstBuffer * buf)
{
  guint64 offset = GST_BUFFER_OFFSET (buf), lost;
  GstClockTime pts = GST_BUFFER_PTS (buf), now = monotonic ();

  if (!r->frames || offset == GST_BUFFER_OFFSET_NONE)
    return;
  if (r->have_offset && offset > r->next_offset) {
    lost = offset - r->next_offset;
    ivtv_stats_add_loss (r->stats, lost * gst_buffer_get_size (buf), lost,
        FALSE);
    if (r->gap_frames == 0)
      r->gap_at = GST_CLOCK_TIME_IS_VALID (pts)
          && GST_CLOCK_TIME_IS_VALID (r->first_pts) && pts >= r->first_pts ?
          pts - r->first_pts : 0;
    r->gap_frames += lost;
    r->gap_bytes += lost * gst_buffer_get_size (buf);
    if (GST_BUFFER_DURATION_IS_VALID (buf))
      r->gap_dur += lost * GST_BUFFER_DURATION (buf);
    if (!GST_CLOCK_TIME_IS_VALID (r->last_gap_warn)
        || now >= r->last_gap_warn + GAP_WARN_INTERVAL) {
      warn_gaps (r);
      r->last_gap_warn = now;
    }
  }
  r->next_offset = offset + 1;
  r->have_offset = TRUE;
}

/* ---- what the MPEG stream's clock says the driver dropped ---- */

static void
warn_clock (IvtvReaderThread * r)
{
  gchar *size, *at;

  if (r->clock_bytes == 0)
    return;
  size = g_format_size (r->clock_bytes);
  at = ivtv_loss_format_position (r->clock_at);
  GST_ELEMENT_WARNING (r->element, RESOURCE, READ,
      (_("Lost about %s (%.1f s) of the recording at %s: the driver dropped "
              "them (its buffers were full; the stream's own clock jumps "
              "there)."), size, (gdouble) r->clock_dur / GST_SECOND, at),
      ("gap in the MPEG stream's SCR/PCR or continuity counters"));
  g_free (size);
  g_free (at);
  r->clock_bytes = 0;
  r->clock_dur = 0;
}

/* Feed @buf to the stream clock (ivtvstreamclock.h): a gap is counted
 * (bytes-lost), flagged on this buffer (DISCONT: the first bytes after
 * it are in it) and warned about, at most every GAP_WARN_INTERVAL. */
static GstBuffer *
check_stream_clock (IvtvReaderThread * r, GstBuffer * buf)
{
  const IvtvStreamLoss *losses = NULL;
  GstClockTime now;
  GstMapInfo map;
  guint n = 0, i;

  if (r->clock == NULL)
    return buf;
  if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_DISCONT)
      || g_atomic_int_compare_and_exchange (&r->clock_restart, 1, 0))
    ivtv_stream_clock_reset (r->clock); /* a new stream (reconnect) */
  if (gst_buffer_map (buf, &map, GST_MAP_READ)) {
    n = ivtv_stream_clock_feed (r->clock, map.data, map.size, &losses);
    gst_buffer_unmap (buf, &map);
  }
  if (n == 0)
    return buf;
  for (i = 0; i < n; i++) {
    if (r->clock_bytes == 0)
      r->clock_at = losses[i].stream_time;
    r->clock_bytes += losses[i].bytes;
    r->clock_dur += losses[i].duration;
    ivtv_stats_add_loss (r->stats, losses[i].bytes, 0, FALSE);
  }
  buf = gst_buffer_make_writable (buf);
  GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_DISCONT);
  now = monotonic ();
  if (!GST_CLOCK_TIME_IS_VALID (r->last_clock_warn)
      || now >= r->last_clock_warn + GAP_WARN_INTERVAL) {
    warn_clock (r);
    r->last_clock_warn = now;
  }
  return buf;
}

/* ---- the thread ---- */

/* The running time now: when a buffer without a PTS was read; *@playing:
 * the element is going to PLAYING (is_playing, told under the same lock:
 * one take of the element's lock a buffer). */
static GstClockTime
running_time_now (GstElement * element, gboolean * playing)
{
  GstClock *clock;
  GstClockTime base, now;

  GST_OBJECT_LOCK (element);
  clock = GST_ELEMENT_CLOCK (element);
  if (clock)
    gst_object_ref (clock);
  base = element->base_time;
  *playing = GST_STATE_TARGET (element) == GST_STATE_PLAYING;
  GST_OBJECT_UNLOCK (element);
  if (clock == NULL)
    return GST_CLOCK_TIME_NONE;
  now = gst_clock_get_time (clock);
  gst_object_unref (clock);
  return now > base ? now - base : 0;
}

/* @more: the card has more data now (produce's hint): the consumer may
 * sleep on (ivtv_queue_push_more).  *@after: what the push found.
 * (turn) */
static void
take_buffer (IvtvReaderThread * r, GstBuffer * buf, gboolean more,
    IvtvQueuePushed * after)
{
  if (!GST_BUFFER_PTS_IS_VALID (buf)) {
    gboolean playing;
    GstClockTime now = running_time_now (r->element, &playing);

    /* read while PAUSED (read_paused): the running time stands still
     * there, and goes on from there in PLAYING; a buffer stamped with the
     * clock's time meanwhile would lie ahead of every later one */
    if (!playing && GST_CLOCK_TIME_IS_VALID (r->last_clock_pts)
        && (!GST_CLOCK_TIME_IS_VALID (now) || now > r->last_clock_pts))
      now = r->last_clock_pts;
    r->last_clock_pts = now;
    buf = gst_buffer_make_writable (buf);
    GST_BUFFER_PTS (buf) = now;
  }
  /* the capture time, not the push's (the base class stamps a buffer
   * without a DTS when it is pushed) */
  if (!GST_BUFFER_DTS_IS_VALID (buf) && GST_BUFFER_PTS_IS_VALID (buf)) {
    buf = gst_buffer_make_writable (buf);
    GST_BUFFER_DTS (buf) = GST_BUFFER_PTS (buf);
  }
  if (!GST_CLOCK_TIME_IS_VALID (r->first_pts))
    r->first_pts = GST_BUFFER_PTS (buf);
  ivtv_stats_add_read (r->stats, gst_buffer_get_size (buf), monotonic ());
  check_gap (r, buf);
  buf = check_stream_clock (r, buf);
  if (ivtv_queue_push_more (r->queue, buf, more, after) == IVTV_QUEUE_OK)
    r->queued++;
}

/* A live source captures in PLAYING only: paused, the card is not read
 * (the driver drops what comes meanwhile, a gap that is reported), unless
 * the session asks to read on (read_paused: an encoder that cannot
 * pause, a drain). */
static gboolean
is_playing (GstElement * element)
{
  gboolean playing;

  GST_OBJECT_LOCK (element);
  playing = GST_STATE_TARGET (element) == GST_STATE_PLAYING;
  GST_OBJECT_UNLOCK (element);
  return playing;
}

/* Wait while flushing or paused.  FALSE: stop (after queueing EOS when
 * ending). */
static gboolean
wait_not_flushing (IvtvReaderThread * r, gboolean after_flushing_flow)
{
  gboolean go_on;

  g_mutex_lock (&r->lock);
  if (after_flushing_flow && !r->flushing && !r->stopping && !r->ending)
    g_cond_wait_until (&r->cond, &r->lock, g_get_monotonic_time () +
        10 * G_TIME_SPAN_MILLISECOND);
  while ((r->flushing || (!r->read_paused && !is_playing (r->element)))
      && !r->stopping && !r->ending)
    g_cond_wait_until (&r->cond, &r->lock, g_get_monotonic_time () +
        10 * G_TIME_SPAN_MILLISECOND);
  go_on = !r->stopping && !r->ending;
  if (r->ending && !r->stopping)
    ivtv_queue_push_flow (r->queue, GST_FLOW_EOS);
  g_mutex_unlock (&r->lock);
  return go_on;
}

/* A byte stream read in small pieces (a paced card hands out what its
 * DMA has, a few KiB) is read at most every pace_us: one wake-up of this
 * thread and of create() per pace_us instead of per DMA transfer.  Only
 * when the card is caught up: a big read, or more data waiting (a backlog,
 * a card that is not paced), goes on at once.  Stop, flushing and EOS end
 * the wait (FALSE: read nothing now).  (turn) */
#define PACE_BIG_READ IVTV_READER_BIG_READ

static gboolean
pace_wait (IvtvReaderThread * r)
{
  gboolean go_on;

  if (r->pace_until == 0 || g_get_monotonic_time () >= r->pace_until)
    return TRUE;
  g_mutex_lock (&r->lock);
  while (!r->stopping && !r->flushing && !r->ending
      && g_cond_wait_until (&r->cond, &r->lock, r->pace_until));
  go_on = !r->stopping && !r->flushing && !r->ending;
  g_mutex_unlock (&r->lock);
  return go_on;
}

/* One read and what follows it, by whoever holds the turn.  *@caught_up:
 * the buffer read went to a consumer waiting for it.  FALSE when the
 * stream ended (its final flow queued: nobody reads more).  (turn) */
static gboolean
reader_step (IvtvReaderThread * r, GstFlowReturn * ret, gboolean * caught_up)
{
  IvtvQueuePushed after = { FALSE, FALSE };
  GstBuffer *buf = NULL;
  gboolean more = FALSE;
  IvtvError *error = NULL;
  gint64 t0 = g_get_monotonic_time ();

  *ret = r->produce (r->data, r->behind, &buf, &more, &error);
  if (*ret == GST_FLOW_OK) {
    gsize size = gst_buffer_get_size (buf);

    take_buffer (r, buf, more, &after);
    r->behind = after.behind;
    *caught_up = after.caught_up;
    r->pace_until = r->pace_us > 0 && size < PACE_BIG_READ && !more ?
        t0 + r->pace_us : 0;
    if (r->max_buffers > 0 && r->queued >= r->max_buffers) {
      /* num-buffers: the recording ends after these (issue 28 item 8) */
      GST_DEBUG_OBJECT (r->element, "%" G_GINT64_FORMAT " buffers queued: "
          "reading no more", r->queued);
      ivtv_queue_push_flow (r->queue, GST_FLOW_EOS);
      r->done = TRUE;
    }
  } else if (*ret != GST_FLOW_FLUSHING) {
    GST_DEBUG_OBJECT (r->element, "the reader ends: %s",
        gst_flow_get_name (*ret));
    /* the error after the buffers read before it */
    ivtv_queue_push_flow_full (r->queue, *ret, error,
        (GDestroyNotify) ivtv_error_free);
    error = NULL;
    r->done = TRUE;
  }
  ivtv_error_free (error);      /* (none: FLUSHING carries none) */
  return !r->done;
}

/* ---- whose turn: create() reads while it keeps up ----
 *
 * create() finding the queue empty reads the card itself (direct_step):
 * the buffer goes through the queue on its own thread, no other thread
 * woken, no cache line moving between cores (issue 26: the hand-off near
 * filesrc's floor).  The reader thread watches (a nap of AWAY_US at a
 * time): when create() is neither in a direct step nor back from
 * downstream within AWAY_US, or waits in pop (it could not read itself),
 * the thread takes the turn and reads into the queue as before, so that
 * a downstream that stalls loses nothing (the driver's own buffers cover
 * twice AWAY_US at most: ivtv's hold seconds, a streaming driver's 4 or
 * more frames 133 ms).  A push that finds create() waiting for that very
 * buffer (caught up) hands the turn back: the thread naps. */
#define AWAY_US (20 * G_TIME_SPAN_MILLISECOND)

/* Is create() reading for itself, or back from downstream lately? */
static gboolean
consumer_reads (IvtvReaderThread * r)
{
  IvtvQueueLevel level;

  if (g_atomic_int_get (&r->direct))
    return TRUE;
  ivtv_queue_get_level (r->queue, &level);
  return !level.consumer_waiting
      && g_get_monotonic_time () - level.consumer_returned_us < AWAY_US;
}

/* The reader thread sleeps @us, or until stop, flushing, EOS or a
 * change of the paused reading. */
static void
nap (IvtvReaderThread * r, gint64 us)
{
  g_mutex_lock (&r->lock);
  if (!r->stopping && !r->flushing && !r->ending)
    g_cond_wait_until (&r->cond, &r->lock, g_get_monotonic_time () + us);
  g_mutex_unlock (&r->lock);
}

static gpointer
reader_loop (gpointer data)
{
  IvtvReaderThread *r = data;
  GstFlowReturn ret = GST_FLOW_OK;
  gboolean go_on = TRUE, caught_up;

  while (go_on && wait_not_flushing (r, ret == GST_FLOW_FLUSHING)) {
    ret = GST_FLOW_OK;
    if (consumer_reads (r)) {
      nap (r, AWAY_US);
      continue;
    }
    caught_up = FALSE;
    g_mutex_lock (&r->turn);
    go_on = !r->done && (!pace_wait (r) || reader_step (r, &ret, &caught_up));
    g_mutex_unlock (&r->turn);
    if (go_on && caught_up)
      nap (r, AWAY_US);         /* create() reads on itself */
  }
  g_mutex_lock (&r->turn);
  warn_gaps (r);
  warn_clock (r);
  g_mutex_unlock (&r->turn);
  return NULL;
}

/* create(), the queue empty: read one buffer into it on this thread,
 * unless the reader thread is reading (its buffer comes through the
 * queue), the stream ended, or create() should not read now (flushing,
 * EOS asked for, stop, paused: the reader thread's rules). */
static void
direct_step (IvtvReaderThread * r)
{
  IvtvQueueLevel level;
  GstFlowReturn ret;
  gboolean may, caught_up;

  ivtv_queue_get_level (r->queue, &level);
  if (level.buffers > 0 || !g_mutex_trylock (&r->turn))
    return;
  g_mutex_lock (&r->lock);
  may = !r->done && !r->flushing && !r->stopping && !r->ending
      && (r->read_paused || is_playing (r->element));
  g_mutex_unlock (&r->lock);
  if (may) {
    g_atomic_int_set (&r->direct, 1);
    if (pace_wait (r))
      reader_step (r, &ret, &caught_up);
    g_atomic_int_set (&r->direct, 0);
  }
  g_mutex_unlock (&r->turn);
}

IvtvReaderThread *
ivtv_reader_thread_start (GstElement * element,
    const IvtvReaderLimits * limits, gboolean frames, gboolean mpeg,
    GstClockTime pace, IvtvSignal * signal, IvtvReaderProduce produce,
    gpointer data)
{
  IvtvReaderThread *r = g_new0 (IvtvReaderThread, 1);

  r->pace_us = GST_CLOCK_TIME_IS_VALID (pace) ? (gint64) (pace / GST_USECOND)
      : 0;
  r->element = element;
  r->queue = ivtv_queue_new (limits->max_bytes, limits->max_time);
  ivtv_queue_set_frames (r->queue, frames);
  ivtv_queue_set_loss_func (r->queue, queue_loss, r);
  r->stats = ivtv_stats_new ();
  ivtv_stats_start (r->stats, monotonic ());
  r->signal = signal;
  r->produce = produce;
  r->data = data;
  r->frames = frames;
  r->clock = mpeg ? ivtv_stream_clock_new (IVTV_STREAM_CLOCK_AUTO) : NULL;
  r->last_clock_warn = GST_CLOCK_TIME_NONE;
  r->max_buffers = limits->max_buffers;
  r->first_pts = GST_CLOCK_TIME_NONE;
  r->last_clock_pts = GST_CLOCK_TIME_NONE;
  r->last_gap_warn = GST_CLOCK_TIME_NONE;
  g_mutex_init (&r->lock);
  g_mutex_init (&r->turn);
  g_cond_init (&r->cond);
  r->sysclock = gst_system_clock_obtain ();
  start_ticks (r, limits->stats_interval);
  r->thread = g_thread_new ("ivtvsrc-reader", reader_loop, r);
  GST_DEBUG_OBJECT (element, "reader thread started: max-buffer-bytes %"
      G_GUINT64_FORMAT ", max-buffer-time %" GST_TIME_FORMAT ", stats every "
      "%u ms", limits->max_bytes, GST_TIME_ARGS (limits->max_time),
      limits->stats_interval);
  return r;
}

void
ivtv_reader_thread_stop (IvtvReaderThread * r)
{
  if (r == NULL)
    return;
  g_mutex_lock (&r->lock);
  r->stopping = TRUE;
  g_cond_broadcast (&r->cond);
  g_mutex_unlock (&r->lock);
  ivtv_queue_set_flushing (r->queue, TRUE);
  g_thread_join (r->thread);
  stop_ticks (r);
  post_stats (r, TRUE);
  ivtv_queue_free (r->queue);
  ivtv_stats_free (r->stats);
  if (r->clock)
    ivtv_stream_clock_free (r->clock);
  gst_object_unref (r->sysclock);
  g_cond_clear (&r->cond);
  g_mutex_clear (&r->turn);
  g_mutex_clear (&r->lock);
  g_free (r);
}

GstFlowReturn
ivtv_reader_thread_pop (IvtvReaderThread * r, GstBuffer ** buf,
    IvtvError ** error)
{
  GstFlowReturn ret;

  /* no lock of ours per buffer: the queue keeps when pop last returned
   * and whether it waits (the reader's `behind`) */
  direct_step (r);
  ret = ivtv_queue_pop_full (r->queue, buf, (gpointer *) error);
  /* the final stats before the end: EOS, or the error the element posts
   * next (issue 28 item 12: error paths had none until stop) */
  if (ret != GST_FLOW_OK && ret != GST_FLOW_FLUSHING)
    post_stats (r, TRUE);
  return ret;
}

void
ivtv_reader_thread_set_flushing (IvtvReaderThread * r, gboolean flushing)
{
  g_mutex_lock (&r->lock);
  r->flushing = flushing;
  g_cond_broadcast (&r->cond);
  g_mutex_unlock (&r->lock);
  ivtv_queue_set_flushing (r->queue, flushing);
}

void
ivtv_reader_thread_end (IvtvReaderThread * r)
{
  g_mutex_lock (&r->lock);
  r->ending = TRUE;
  g_cond_broadcast (&r->cond);
  g_mutex_unlock (&r->lock);
}

void
ivtv_reader_thread_set_read_paused (IvtvReaderThread * r, gboolean read)
{
  g_mutex_lock (&r->lock);
  r->read_paused = read;
  g_cond_broadcast (&r->cond);
  g_mutex_unlock (&r->lock);
}

void
ivtv_reader_thread_restart_clock (IvtvReaderThread * r)
{
  g_atomic_int_set (&r->clock_restart, 1);
}

void
ivtv_reader_thread_post_final (IvtvReaderThread * r)
{
  post_stats (r, TRUE);
}

void
ivtv_reader_thread_set_limits (IvtvReaderThread * r,
    const IvtvReaderLimits * limits)
{
  ivtv_queue_set_max_bytes (r->queue, limits->max_bytes);
  ivtv_queue_set_max_time (r->queue, limits->max_time);
}
