/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — capture statistics and the `ivtvsrc-stats` structure (see
 * ivtvstats.h; field names and types are a contract with ivtv-capture).
 */
#include "ivtvstats.h"

struct _IvtvStats
{
  /* lock — every field below.  Rule: held only inside this file's
   * functions, for their length; nothing else is taken under it (callers
   * may hold their own locks: the reader's tick lock, r->lock) */
  GMutex lock;
  guint64 read_bytes;           /* everything read from the card */
  guint64 buffers;
  GstClockTime first;           /* when the first byte was read, or NONE */
  guint64 lost_bytes, lost_frames;
  guint64 lost_read_bytes;      /* of read_bytes, dropped afterwards */
  IvtvStatsSignal signal;
  GstClockTime mark;            /* start of the bitrate interval, or NONE */
  guint64 mark_bytes;           /* read_bytes at the mark */
  gboolean finished;            /* the final message was built */
};

IvtvStats *
ivtv_stats_new (void)
{
  IvtvStats *s = g_new0 (IvtvStats, 1);

  g_mutex_init (&s->lock);
  ivtv_stats_reset (s);
  return s;
}

void
ivtv_stats_free (IvtvStats * s)
{
  if (s == NULL)
    return;
  g_mutex_clear (&s->lock);
  g_free (s);
}

void
ivtv_stats_reset (IvtvStats * s)
{
  g_mutex_lock (&s->lock);
  s->read_bytes = s->buffers = 0;
  s->lost_bytes = s->lost_frames = s->lost_read_bytes = 0;
  s->first = s->mark = GST_CLOCK_TIME_NONE;
  s->mark_bytes = 0;
  s->signal = IVTV_STATS_SIGNAL_UNKNOWN;
  s->finished = FALSE;
  g_mutex_unlock (&s->lock);
}

void
ivtv_stats_start (IvtvStats * s, GstClockTime now)
{
  g_mutex_lock (&s->lock);
  s->mark = now;
  s->mark_bytes = s->read_bytes;
  g_mutex_unlock (&s->lock);
}

void
ivtv_stats_add_read (IvtvStats * s, guint64 bytes, GstClockTime now)
{
  g_mutex_lock (&s->lock);
  if (!GST_CLOCK_TIME_IS_VALID (s->first)) {
    s->first = now;
    if (!GST_CLOCK_TIME_IS_VALID (s->mark))
      s->mark = now;
  }
  s->read_bytes += bytes;
  s->buffers++;
  g_mutex_unlock (&s->lock);
}

void
ivtv_stats_add_loss (IvtvStats * s, guint64 bytes, guint64 frames,
    gboolean was_read)
{
  g_mutex_lock (&s->lock);
  s->lost_bytes += bytes;
  s->lost_frames += frames;
  if (was_read)
    s->lost_read_bytes += bytes;
  g_mutex_unlock (&s->lock);
}

void
ivtv_stats_set_signal (IvtvStats * s, IvtvStatsSignal signal)
{
  g_mutex_lock (&s->lock);
  s->signal = signal;
  g_mutex_unlock (&s->lock);
}

const gchar *
ivtv_stats_signal_name (IvtvStatsSignal signal)
{
  switch (signal) {
    case IVTV_STATS_SIGNAL_PRESENT:
      return "present";
    case IVTV_STATS_SIGNAL_NO_LOCK:
      return "no-lock";
    case IVTV_STATS_SIGNAL_NONE:
      return "none";
    case IVTV_STATS_SIGNAL_UNKNOWN:
    default:
      return "unknown";
  }
}

gboolean
ivtv_stats_due (IvtvStats * s, GstClockTime now, guint interval_s)
{
  gboolean due;

  g_mutex_lock (&s->lock);
  due = interval_s > 0 && !s->finished && GST_CLOCK_TIME_IS_VALID (s->mark)
      && now >= s->mark + interval_s * GST_SECOND;
  g_mutex_unlock (&s->lock);
  return due;
}

GstStructure *
ivtv_stats_build (IvtvStats * s, GstClockTime now,
    const IvtvQueueLevel * level, gboolean final)
{
  guint64 bitrate = 0, bytes;
  GstClockTime duration = 0;
  GstStructure *st;

  g_mutex_lock (&s->lock);
  if (GST_CLOCK_TIME_IS_VALID (s->first) && now > s->first)
    duration = now - s->first;
  /* the final message: the whole capture's rate (issue 28 item 12: it was
   * the last interval's, 0 or a burst's); the others: the interval's */
  if (final && duration > 0)
    bitrate = gst_util_uint64_scale (s->read_bytes, 8 * GST_SECOND,
        duration);
  else if (GST_CLOCK_TIME_IS_VALID (s->mark) && now > s->mark)
    bitrate = gst_util_uint64_scale (s->read_bytes - s->mark_bytes,
        8 * GST_SECOND, now - s->mark);
  if (GST_CLOCK_TIME_IS_VALID (s->mark)) {
    s->mark = now;
    s->mark_bytes = s->read_bytes;
  }
  bytes = s->read_bytes - MIN (s->lost_read_bytes, s->read_bytes);
  st = gst_structure_new (IVTV_STATS_NAME,
      "bytes", G_TYPE_UINT64, bytes,
      "buffers", G_TYPE_UINT64, s->buffers,
      "duration", G_TYPE_UINT64, (guint64) duration,
      "bitrate", G_TYPE_UINT64, bitrate,
      "signal", G_TYPE_STRING, ivtv_stats_signal_name (s->signal),
      "queue-bytes", G_TYPE_UINT64, level ? level->bytes : (guint64) 0,
      "queue-time", G_TYPE_UINT64, level ? (guint64) level->time : 0,
      "queue-fill", G_TYPE_DOUBLE, level ? level->fill : 0.0,
      "bytes-lost", G_TYPE_UINT64, s->lost_bytes,
      "frames-lost", G_TYPE_UINT64, s->lost_frames,
      "final", G_TYPE_BOOLEAN, final, NULL);
  if (final)
    s->finished = TRUE;
  g_mutex_unlock (&s->lock);
  return st;
}

GstMessage *
ivtv_stats_message (IvtvStats * s, GstObject * src, GstClockTime now,
    const IvtvQueueLevel * level, gboolean final)
{
  return gst_message_new_element (src, ivtv_stats_build (s, now, level, final));
}
