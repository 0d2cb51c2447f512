/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the reader thread: a thread of the capture session that keeps
 * reading the card whatever downstream does, and feeds the bounded capture
 * queue (ivtvqueue.h) that the element's create() takes from.
 *
 * Whose turn it is to read: while create() keeps up, pop reads one
 * buffer itself when it finds the queue empty (a direct step: the same
 * code, on the streaming thread, through the queue, with no other thread
 * woken); the thread takes over when create() has been away downstream
 * for 20 ms (or waits in pop, unable to read), and hands the turn back
 * when a buffer it read finds create() waiting for it.  One read and what
 * follows it (a step) is done under the turn's lock, by one thread at a
 * time.  Below, "the thread" is whichever holds the turn.
 *
 * It asks a produce function (the session's: the path's next buffer, with
 * the reconnect loop) for buffers, stamps each with the running time at
 * which it was read (unless the path gave a PTS: the capture time of a
 * frame), counts it (ivtvstats.h), finds gaps in the frame offsets a path
 * numbers (the streaming path, the HM12 decorator: frames the driver
 * dropped) and, on an MPEG read() path, holes in the stream's own clock
 * (ivtvstreamclock.h: bytes the driver dropped), and queues it.  What is lost
 * (the queue full, a gap) is counted and posted as one
 * GST_ELEMENT_WARNING per run; an `ivtvsrc-stats` element message goes out
 * every stats-interval milliseconds (a periodic clock id of the system
 * clock, so it comes while the card or downstream stalls) and once more,
 * final, at the end.
 *
 * An error is data (IvtvError, ivtvpath.h): produce returns it with
 * GST_FLOW_ERROR, the thread queues it as the final flow's, after the
 * buffers read before it, and pop hands it to the element, which posts it
 * (so a pipeline that stops on the error has them all).  Nothing on this
 * thread posts an error.
 *
 * Flushing (the element's unlock) makes pop return GST_FLOW_FLUSHING and
 * the reader wait until it is cleared; a flow that is not OK from produce
 * (EOS, error, device lost given up) ends the thread and is what pop
 * returns once the queued buffers are out.
 */
#ifndef __IVTV_READER_THREAD_H__
#define __IVTV_READER_THREAD_H__

#include <gst/gst.h>
#include "ivtvpath.h"
#include "ivtvqueue.h"
#include "ivtvsignal.h"
#include "ivtvstats.h"

G_BEGIN_DECLS

/* Defaults of the properties (ivtvqueueprops.c). */
#define IVTV_DEFAULT_MAX_BUFFER_BYTES (64 * 1024 * 1024)
#define IVTV_DEFAULT_MAX_BUFFER_TIME 0
#define IVTV_DEFAULT_STATS_INTERVAL 1000

/* The bounds and the message interval (the properties). */
typedef struct
{
  guint64 max_bytes;            /* 0 = no bound */
  GstClockTime max_time;        /* 0 = no bound */
  guint stats_interval;         /* ms, 0 = no periodic message */
  gint64 max_buffers;           /* num-buffers: the reader stops once it
                                 * queued this many (EOS after them); what
                                 * it would read past the end is not read,
                                 * so never dropped as a loss; <= 0: none */
} IvtvReaderLimits;

/* A read of at least this many bytes is not paced, and need not say
 * whether more is waiting with certainty. */
#define IVTV_READER_BIG_READ (64 * 1024)

/* The next buffer from the card.  @behind: buffers are waiting in the
 * queue (downstream is behind), so a streaming path should copy frames out
 * of its V4L2 buffers rather than hand those out.  *more: the card has
 * more data right now (may be left FALSE when unknown; for a read of
 * IVTV_READER_BIG_READ or more, "most likely" is enough: the consumer
 * then sleeps on for at most IVTV_QUEUE_BATCH_WAIT_US).  Returns as a
 * path's create() does (GST_FLOW_ERROR with *@error), never
 * IVTV_FLOW_DEVICE_LOST. */
typedef GstFlowReturn (*IvtvReaderProduce) (gpointer data, gboolean behind,
    GstBuffer ** buf, gboolean * more, IvtvError ** error);

typedef struct _IvtvReaderThread IvtvReaderThread;

/* Starts the thread.  @frames: raw video, one frame a buffer, whose
 * offsets are frame numbers (a gap is frames lost).  @mpeg: an MPEG byte
 * stream, whose own clock (ivtvstreamclock.h) tells what the driver
 * dropped: a warning with its time and size, DISCONT on the buffer after
 * the gap, the bytes in bytes-lost.  @pace: a byte
 * stream's least time between two small reads (at most the latency the
 * element reports; 0 or NONE: read as data comes).  @signal: the session's
 * signal watch, for the stats (may be NULL). */
IvtvReaderThread *ivtv_reader_thread_start (GstElement * element,
    const IvtvReaderLimits * limits, gboolean frames, gboolean mpeg,
    GstClockTime pace, IvtvSignal * signal, IvtvReaderProduce produce,
    gpointer data);

/* Ends the thread: it must not be waiting in produce for ever (set the
 * session's poll flushing first).  Posts the final stats message unless
 * it was posted, frees everything; buffers downstream holds stay valid. */
void ivtv_reader_thread_stop (IvtvReaderThread * r);

/* The consumer (create()): a buffer, the final flow, or FLUSHING; with
 * the final flow the error it carries, if any, in *@error (the caller's:
 * post it, ivtv_error_post).  The final stats message is posted when pop
 * returns EOS. */
GstFlowReturn ivtv_reader_thread_pop (IvtvReaderThread * r, GstBuffer ** buf,
    IvtvError ** error);

void ivtv_reader_thread_set_flushing (IvtvReaderThread * r,
    gboolean flushing);
/* Produce returned FLUSHING after this: the stream ends (EOS after the
 * queued buffers) instead of waiting for the flushing to end. */
void ivtv_reader_thread_end (IvtvReaderThread * r);
/* Read on while the element is PAUSED (@read; the default is not to: a
 * live source captures in PLAYING only).  Buffers read meanwhile get the
 * running time at which it paused (it stands still in PAUSED), so they
 * come before every later one, none ahead of it. */
void ivtv_reader_thread_set_read_paused (IvtvReaderThread * r,
    gboolean read);
/* The MPEG stream's clock may jump at the next buffer without a loss (an
 * encoder paused and resumed: whether its SCR ran on meanwhile is the
 * firmware's): it is measured afresh from there. */
void ivtv_reader_thread_restart_clock (IvtvReaderThread * r);
/* Posts the final ivtvsrc-stats now (once: later calls and the stop post
 * none; the periodic ones end) */
void ivtv_reader_thread_post_final (IvtvReaderThread * r);
void ivtv_reader_thread_set_limits (IvtvReaderThread * r,
    const IvtvReaderLimits * limits);

G_END_DECLS

#endif /* __IVTV_READER_THREAD_H__ */
