/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the streaming path's state, shared by its two halves:
 * ivtvstreamsetup.c (REQBUFS, the format, STREAMON/STREAMOFF) and
 * ivtvstream.c (DQBUF, what a frame becomes, the IvtvPath).  Private to
 * gst/paths; the public API is ivtvstream.h.
 */
#ifndef __IVTV_STREAM_PRIV_H__
#define __IVTV_STREAM_PRIV_H__

#include "ivtvstream.h"
#include "ivtvframegap.h"
#include "ivtvbufqueue.h"

#include <gst/video/video.h>

G_BEGIN_DECLS

/* Owned by the thread that runs the path (the reader thread while
 * capturing; the session's start/stop otherwise): no lock.  Two
 * exceptions: the stall watchdog's timeout, set from any thread
 * (atomics, ivtvpath.h), and the buffer queue, which downstream's
 * threads reach through a frame's release (its own lock,
 * ivtvbufqueue.c). */
struct _IvtvStream
{
  GstElement *element;
  IvtvDevice *dev;
  IvtvIoMode mode;              /* mmap, userptr or dmabuf */

  IvtvBufQueue *queue;          /* NULL when not started */
  GstPoll *poll;
  GstPollFD pollfd;
  GstAllocator *dmabuf_alloc;

  guint32 sizeimage;
  gint fps_n, fps_d;            /* 0/1 when unknown */
  gboolean repack;              /* driver layout != GStreamer's: copy */
  gboolean bff_std;             /* FIELD_INTERLACED of a 525-line std */
  gboolean fixed_rate;          /* a TV standard's rate: a time gap is a loss */
  gboolean via_libv4l2;         /* buffers are libv4l2's: always copy */
  GstVideoInfo info;            /* raw formats (repack) */
  IvtvFrameLayout layout;       /* where the driver puts the planes */

  gint64 last_sequence;         /* -1 before the first frame */
  IvtvFrameGap gap;             /* frames dropped without a sequence gap */
  GstClockTime captured;        /* the frame's CLOCK_MONOTONIC time, or NONE */
  gboolean discont;             /* frames lost before the next one out */
  gboolean eos_pending;         /* the driver flagged the last buffer */
  IvtvStall stall;              /* the stall watchdog */
  gboolean dq_first;            /* try DQBUF before poll() (see READY_AT_ONCE_US) */
  gboolean reconnect;           /* a lost device is not an error (caller's) */
  gboolean behind;              /* downstream is behind: copy every frame */
  gboolean shift_pending;       /* offsets go on from next_offset */
  gint64 offset_shift;          /* buffer offset - driver sequence */
  guint64 next_offset, bytes;
  guint64 frames, dropped, copied;
};

G_END_DECLS

#endif /* __IVTV_STREAM_PRIV_H__ */
