/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the streaming capture path: V4L2 mmap, dmabuf export, userptr.
 *
 * IvtvStream owns one V4L2 buffer queue of an open IvtvDevice: REQBUFS,
 * mapping (mmap), exporting (EXPBUF + GstDmaBufAllocator) or allocating
 * (userptr) the buffers, QBUF/STREAMON at start, poll + DQBUF per frame,
 * STREAMOFF and release at stop.  It never calls ioctl()/mmap() itself:
 * everything goes through the device layer (ivtvdevice.h).
 *
 * Zero copy: every V4L2 buffer is one persistent GstMemory (the mapped
 * region, the exported dmabuf, or the userptr memory).  A dequeued frame is
 * pushed as a GstBuffer holding that memory; when the last reference to the
 * memory goes away (downstream released the buffer) the memory's dispose
 * hook queues it back to the driver (QBUF).
 *
 * Copy threshold: if after a DQBUF fewer than IVTV_STREAM_MIN_QUEUED (2)
 * buffers are still queued in the driver, downstream is holding too many
 * and the driver would soon starve (drop frames or, with none queued, make
 * poll() fail).  The frame is then copied into system memory and its V4L2
 * buffer is queued back at once (each copy is logged at GST_LEVEL_LOG).
 *
 * Buffers that downstream still holds after stop (or after the stream is
 * freed) stay valid: the mapping lives until the last one is released.
 * Through libv4l2 (use-libv4l2) every frame is copied: libv4l2 converts
 * into buffers of its own, whose life it manages (its close unmaps them).
 *
 * Timestamps: the driver's buffer timestamp (CLOCK_MONOTONIC) is translated
 * to the element's clock as running time (clock time now - base time - the
 * age of the frame).  Without a monotonic timestamp, the arrival time is
 * used.  Duration comes from the frame rate (G_PARM), offset from the
 * driver's sequence number.  A gap in the sequence counts as dropped frames
 * and is reported with a QoS message (format BUFFERS, processed/dropped);
 * so are frames a driver drops without a sequence gap (usbtv, stk1160),
 * found from the capture times (ivtvframegap.h), which shift the offsets
 * on so that the reader thread counts and warns about them as a gap.
 *
 * Every wait goes through the caller's GstPoll: setting it flushing (the
 * element's unlock) makes ivtv_stream_create() return GST_FLOW_FLUSHING at
 * once.  Stalls are the shared watchdog's (IvtvStall, ivtvpath.h): a
 * warning after `timeout` seconds without a frame, an error after twice as
 * long.  ivtv_stream_path_new() (ivtvpath.h) is this path for the session.
 */
#ifndef __IVTV_STREAM_H__
#define __IVTV_STREAM_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include "ivtvdevice.h"
#include "ivtvlayout.h"
#include "ivtvpath.h"

G_BEGIN_DECLS

/* Buffers requested from the driver (plus what downstream asks for): the
 * reader thread dequeues as frames come, so frames waiting in the
 * element's queue hold V4L2 buffers too (until downstream is 100 ms
 * behind, then frames are copied); 8 leave the driver 4 or more through
 * a stall. */
#define IVTV_STREAM_DEFAULT_BUFFERS 8
/* Fewer buffers than this left queued in the driver after a DQBUF: copy. */
#define IVTV_STREAM_MIN_QUEUED 2
/* Upper bound on buffers requested, whatever downstream asks. */
#define IVTV_STREAM_MAX_BUFFERS 32

/* Why ivtv_stream_start() failed (GError domain IVTV_STREAM_ERROR). */
typedef enum
{
  /* The device does not stream with this memory type: no STREAMING
   * capability, or REQBUFS/EXPBUF refused (EINVAL/ENOTTY).  In io-mode auto
   * the caller falls back to read() when the device has READWRITE. */
  IVTV_STREAM_ERROR_UNSUPPORTED,
  /* The setup failed for another reason (REQBUFS gave no buffers, mmap,
   * QBUF or STREAMON failed, ...); falling back to read() is still fine. */
  IVTV_STREAM_ERROR_FAILED,
  /* The device is gone (ENODEV, ENXIO): do not fall back. */
  IVTV_STREAM_ERROR_DEVICE
} IvtvStreamError;

#define IVTV_STREAM_ERROR (ivtv_stream_error_quark ())
GQuark ivtv_stream_error_quark (void);

typedef struct _IvtvStream IvtvStream;

/* A stream on @dev (which must stay open until ivtv_stream_stop) for
 * @element (used for the clock, messages and errors; not a reference).
 * @mode: IVTV_IO_MMAP, IVTV_IO_USERPTR or IVTV_IO_DMABUF. */
IvtvStream *ivtv_stream_new (GstElement * element, IvtvDevice * dev,
    IvtvIoMode mode);

/* No frame for @seconds: a warning; for twice as long: an error (0 = wait
 * for ever; default IVTV_PATH_DEFAULT_TIMEOUT).  Any thread. */
void ivtv_stream_set_timeout (IvtvStream * stream, guint seconds);

/* Stops if needed and frees.  Buffers downstream still holds stay valid. */
void ivtv_stream_free (IvtvStream * stream);

/* The format must be set already (S_FMT; ivtvnegotiate.h).  Reads G_FMT
 * and G_PARM, then REQBUFS (IVTV_STREAM_DEFAULT_BUFFERS + @extra_buffers,
 * e.g. the allocation query's min_buffers), maps/exports/allocates, queues
 * all, STREAMON.  Adds the device fd to @poll (caller-owned) until
 * ivtv_stream_stop().  On failure everything is undone, FALSE with
 * @error (IVTV_STREAM_ERROR) naming the step and the driver's answer. */
gboolean ivtv_stream_start (IvtvStream * stream, GstPoll * poll,
    guint extra_buffers, GError ** error);

/* Waits for the next frame (in the GstPoll given to start) and returns it
 * in @buf.  GST_FLOW_FLUSHING when the poll is set flushing,
 * GST_FLOW_ERROR with *@error set, nothing posted (device lost, DQBUF
 * failing, ...); IVTV_FLOW_DEVICE_LOST for a lost device with reconnect.
 * Frames with the error flag or no payload are skipped and counted as
 * dropped.  A stall of `timeout` seconds posts a warning and keeps waiting;
 * twice as long is an error. */
GstFlowReturn ivtv_stream_create (IvtvStream * stream, GstBuffer ** buf,
    IvtvError ** error);

/* With @reconnect, a device that goes away (DQBUF: ENODEV) posts no
 * error: ivtv_stream_create() returns IVTV_FLOW_DEVICE_LOST; the caller
 * reopens and starts a new stream.  Set before start; default FALSE. */
void ivtv_stream_set_reconnect (IvtvStream * stream, gboolean reconnect);

/* Where the stream is (bytes, frames, the next offset), and after start
 * of a stream that replaces a lost one: counts and buffer offsets (the
 * driver's sequence numbers, shifted) go on from @before instead of where
 * the driver's count starts. */
void ivtv_stream_get_position (IvtvStream * stream, IvtvPathPosition * pos);
void ivtv_stream_resume_from (IvtvStream * stream,
    const IvtvPathPosition * before);

/* STREAMOFF and release the driver's buffers (those downstream holds are
 * released when downstream lets them go).  Safe to call twice. */
void ivtv_stream_stop (IvtvStream * stream);


/* Memory types the device accepts for streaming, as IVTV_IO_BIT mask of
 * IVTV_IO_MMAP/USERPTR/DMABUF, asked with REQBUFS count 0 (allocates
 * nothing; needs no format).  DMABUF export is reported with MMAP (EXPBUF
 * is only tried at start).  0 when the device has no STREAMING capability. */
guint ivtv_stream_probe_modes (IvtvDevice * dev);

G_END_DECLS

#endif /* __IVTV_STREAM_H__ */
