/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the capture queue: a bounded, flushable FIFO of captured
 * GstBuffers between the reader thread (the producer, which read()s or
 * DQBUFs the card) and the element's create() (the consumer).
 *
 * The card must be drained whatever downstream does, so a push never
 * blocks: when the queue is full (max-buffer-bytes or max-buffer-time
 * reached) the incoming buffer is dropped and counted, and the queue
 * reports each run of drops twice through the loss callback, when it
 * starts and when it ends (the next buffer queued, the final flow, or a
 * clear), so the element posts one warning per run (ivtv_loss_describe()
 * writes its text).  The first buffer queued after a run carries
 * GST_BUFFER_FLAG_DISCONT.  The producer ends the stream with a final flow
 * (EOS, error, device lost), which pop returns once the queued buffers
 * are drained; an error flow may carry the error itself (data, posted by
 * whoever pops it: so it comes after every buffer before it).  pop blocks until a buffer, the final flow, or flushing
 * (set_flushing TRUE/FALSE: pop returns FLUSHING meanwhile, but a push is
 * kept for after, unlike GstDataQueue: it was captured).  Bounds are settable and the
 * fill level readable from any thread; everything is under one mutex.
 */
#ifndef __IVTV_QUEUE_H__
#define __IVTV_QUEUE_H__

#include <gst/gst.h>
#include "ivtvloss.h"

G_BEGIN_DECLS

typedef struct _IvtvQueue IvtvQueue;

typedef enum
{
  IVTV_QUEUE_OK,                /* queued */
  IVTV_QUEUE_DROPPED,           /* full: dropped and counted as lost */
  IVTV_QUEUE_REFUSED            /* ended (EOS or an error queued): discarded,
                                 * no loss; while flushing a push is kept */
} IvtvQueueResult;

/* The fill level at one moment. */
typedef struct
{
  guint64 bytes;
  guint buffers;
  GstClockTime time;
  gdouble fill;                 /* 0..1, the fuller of the two bounds */
  gboolean consumer_waiting;    /* pop waits for a buffer */
  gint64 consumer_returned_us;  /* monotonic: pop last returned (or the
                                 * queue was made) */
} IvtvQueueLevel;

/* A backlog (see ivtv_queue_push_more): the consumer sleeps on until this
 * many buffers (or a quarter of a bound) are queued, or this long. */
#define IVTV_QUEUE_BATCH 8
#define IVTV_QUEUE_BATCH_WAIT_US (10 * G_TIME_SPAN_MILLISECOND)

/* Buffers waiting, the consumer not waiting for one, and none taken for
 * this long: the consumer is behind (not just being woken). */
#define IVTV_QUEUE_BEHIND_US (100 * G_TIME_SPAN_MILLISECOND)

/* What a push found (ivtv_queue_push_more). */
typedef struct
{
  gboolean behind;              /* buffers wait, the consumer does not and
                                 * took none for IVTV_QUEUE_BEHIND_US */
  gboolean caught_up;           /* the consumer waits, and this buffer is
                                 * all that is queued */
} IvtvQueuePushed;

/* Everything that went through since creation (or the last clear). */
typedef struct
{
  guint64 pushed_bytes, pushed_buffers;
  guint64 popped_bytes, popped_buffers;
  guint64 dropped_bytes, dropped_buffers, dropped_frames;
  guint64 loss_runs;
} IvtvQueueTotals;

/* @max_bytes, @max_time: bounds, 0 = no bound on that measure. */
IvtvQueue *ivtv_queue_new (guint64 max_bytes, GstClockTime max_time);
void ivtv_queue_free (IvtvQueue * q);

void ivtv_queue_set_max_bytes (IvtvQueue * q, guint64 max_bytes);
void ivtv_queue_set_max_time (IvtvQueue * q, GstClockTime max_time);
/* Raw video: every buffer is one frame (dropped frames are counted). */
void ivtv_queue_set_frames (IvtvQueue * q, gboolean one_frame_per_buffer);
/* @func is called with @data (not a reference) for each run's start and
 * end. */
void ivtv_queue_set_loss_func (IvtvQueue * q, IvtvLossFunc func, gpointer data);

/* Producer.  Takes @buf in every case; never blocks.  Wakes the consumer
 * if it waits. */
IvtvQueueResult ivtv_queue_push (IvtvQueue * q, GstBuffer * buf);
/* The same; @more: the producer reads a backlog and pushes again at once.
 * A consumer waiting is then left asleep until IVTV_QUEUE_BATCH buffers or
 * a quarter of max-bytes or max-time are queued; its wait lasts at most
 * IVTV_QUEUE_BATCH_WAIT_US (the producer may block after all), and it
 * waits without a limit again once one ran out.  @more FALSE: as push.
 * *@after (may be NULL): what the push found, told under its lock (the
 * producer needs no other call a buffer). */
IvtvQueueResult ivtv_queue_push_more (IvtvQueue * q, GstBuffer * buf,
    gboolean more, IvtvQueuePushed * after);
/* Producer: the stream ends with @flow (not GST_FLOW_OK), returned by pop
 * after the queued buffers; later pushes are refused. */
void ivtv_queue_push_flow (IvtvQueue * q, GstFlowReturn flow);
/* The same, the flow carrying @error (the producer's failure as data, the
 * queue's until pop hands it over; freed with @error_free if never). */
void ivtv_queue_push_flow_full (IvtvQueue * q, GstFlowReturn flow,
    gpointer error, GDestroyNotify error_free);

/* Consumer: GST_FLOW_OK and a buffer in *buf, the final flow once the
 * queue is empty, or GST_FLOW_FLUSHING. */
GstFlowReturn ivtv_queue_pop (IvtvQueue * q, GstBuffer ** buf);
/* The same; with the final flow, *@error gets what it carries (once: the
 * caller owns it; NULL after). */
GstFlowReturn ivtv_queue_pop_full (IvtvQueue * q, GstBuffer ** buf,
    gpointer * error);

/* TRUE: pop returns GST_FLOW_FLUSHING at once; a push is still kept (it
 * was captured: popped once flushing is FALSE again); the queued buffers
 * stay until ivtv_queue_clear(). */
void ivtv_queue_set_flushing (IvtvQueue * q, gboolean flushing);
/* Drop what is queued (not counted as lost), end a loss run, forget the
 * final flow and the totals. */
void ivtv_queue_clear (IvtvQueue * q);

void ivtv_queue_get_level (IvtvQueue * q, IvtvQueueLevel * level);
void ivtv_queue_get_totals (IvtvQueue * q, IvtvQueueTotals * totals);

G_END_DECLS

#endif /* __IVTV_QUEUE_H__ */
