/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — a run of captured buffers the element's queue dropped
 * (IvtvLoss, reported by ivtvqueue.c when the run starts and when it
 * ends) and the text of the one GST_ELEMENT_WARNING posted on the element
 * for it (by the reader thread, ivtvreaderthread.c queue_loss): what was
 * lost, how much, where in the recording, and why.
 */
#ifndef __IVTV_LOSS_H__
#define __IVTV_LOSS_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* Which bound was reached when a buffer was dropped. */
typedef enum
{
  IVTV_QUEUE_FULL_BYTES,
  IVTV_QUEUE_FULL_TIME
} IvtvQueueFull;

typedef enum
{
  IVTV_LOSS_STARTED,            /* the first buffer of a run was dropped */
  IVTV_LOSS_ENDED               /* the run is over: totals are final */
} IvtvLossKind;

/* One run of drops.  For IVTV_LOSS_STARTED the amounts are the first
 * buffer's; for IVTV_LOSS_ENDED the run's totals. */
typedef struct
{
  IvtvLossKind kind;
  IvtvQueueFull full;           /* the bound that was reached first */
  guint64 bytes;
  guint64 buffers;
  guint64 frames;               /* raw video only (one frame a buffer) */
  GstClockTime duration;        /* of the recording lost, or NONE */
  GstClockTime pts;             /* PTS of the first dropped buffer, or NONE */
  GstClockTime position;        /* that PTS less the first PTS queued */
  GstClockTime stalled;         /* how long no buffer was popped, or NONE */
  guint64 max_bytes;            /* the bounds when the run started */
  GstClockTime max_time;
} IvtvLoss;

/* Called from the thread that started or ended the run (the producer's,
 * or the one calling ivtv_queue_clear), with no lock held. */
typedef void (*IvtvLossFunc) (const IvtvLoss * loss, gpointer user_data);

/* "0:12:03.0": a position in the recording, to a tenth of a second, as
 * every loss warning writes it (g_free). */
gchar *ivtv_loss_format_position (GstClockTime t);

/* "Lost 1.2 MB (2.1 s) of the recording at 0:12:03.0: ..." (g_free). */
gchar *ivtv_loss_describe (const IvtvLoss * loss);

G_END_DECLS

#endif /* __IVTV_LOSS_H__ */
