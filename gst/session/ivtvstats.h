/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — capture statistics: the bookkeeping behind the element's
 * `ivtvsrc-stats` message and the builder of its structure, field for field
 * as the element reference lists them (docs/ivtvsrc.md, "Messages"; read by
 * tools/ivtv-capture): bytes, buffers, duration, bitrate, signal,
 * queue-bytes, queue-time, queue-fill, bytes-lost, frames-lost, final.
 *
 * The reader thread counts what it reads from the card and what is lost;
 * whoever posts the message (ivtvreaderthread.c: the system clock's
 * periodic callback every stats-interval milliseconds, and once more with
 * final=TRUE at the end) sets the signal state it reads from the signal
 * watch and builds the message for a moment it gives (a monotonic
 * GstClockTime, so tests choose it).  The bitrate is over the interval
 * since the previous message.  One small mutex makes every function
 * callable from any thread.  (ivtv_stats_due is used by the unit test
 * only: the reader's periodic clock id decides when a message is due.)
 */
#ifndef __IVTV_STATS_H__
#define __IVTV_STATS_H__

#include <gst/gst.h>
#include "ivtvqueue.h"

G_BEGIN_DECLS

#define IVTV_STATS_NAME "ivtvsrc-stats"

typedef enum
{
  IVTV_STATS_SIGNAL_UNKNOWN,
  IVTV_STATS_SIGNAL_PRESENT,
  IVTV_STATS_SIGNAL_NO_LOCK,
  IVTV_STATS_SIGNAL_NONE
} IvtvStatsSignal;

typedef struct _IvtvStats IvtvStats;

IvtvStats *ivtv_stats_new (void);
void ivtv_stats_free (IvtvStats * s);
/* Forget everything (a new capture starts). */
void ivtv_stats_reset (IvtvStats * s);
/* The capture starts at @now: the first interval begins, so that messages
 * come (signal "none", 0 bytes) before any byte does. */
void ivtv_stats_start (IvtvStats * s, GstClockTime now);

/* Reader: @bytes read from the card in one buffer at @now (every buffer
 * read, queued or dropped).  The first call starts the capture clock.  The
 * message's "bytes" is what was read less what the queue dropped; its
 * "buffers" counts every buffer read. */
void ivtv_stats_add_read (IvtvStats * s, guint64 bytes, GstClockTime now);
/* Reader: @bytes and @frames lost.  @was_read: these bytes were counted by
 * ivtv_stats_add_read() and then dropped (the element's queue); FALSE for
 * loss the driver reports (never read). */
void ivtv_stats_add_loss (IvtvStats * s, guint64 bytes, guint64 frames,
    gboolean was_read);
void ivtv_stats_set_signal (IvtvStats * s, IvtvStatsSignal signal);

const gchar *ivtv_stats_signal_name (IvtvStatsSignal signal);

/* TRUE when @interval_s seconds have passed since the last message (or
 * since ivtv_stats_start() or the first byte); FALSE when @interval_s is 0 or the final
 * message was built. */
gboolean ivtv_stats_due (IvtvStats * s, GstClockTime now, guint interval_s);

/* The `ivtvsrc-stats` structure at @now; @level is the element's queue
 * (NULL: no queue, zeros).  Starts the next bitrate interval at @now. */
GstStructure *ivtv_stats_build (IvtvStats * s, GstClockTime now,
    const IvtvQueueLevel * level, gboolean final);
/* The same, as an element message from @src. */
GstMessage *ivtv_stats_message (IvtvStats * s, GstObject * src,
    GstClockTime now, const IvtvQueueLevel * level, gboolean final);

G_END_DECLS

#endif /* __IVTV_STATS_H__ */
