/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the read() capture path (as fdsrc does it).
 *
 * IvtvReader reads the device's byte stream into buffers from its own
 * GstBufferPool (no allocation per buffer; the block downstream released
 * last is read into first, the one most likely still in cache): it waits
 * in the capture's
 * GstPoll (so unlock/flush returns at once), reads once into the buffer and
 * pushes what it got — a short read is pushed as it is (resized), never
 * overwritten by the next read; one that fills less than an eighth of the
 * block is copied into a buffer of its own size and the block goes back to
 * the pool (queues downstream count buffers, not the memory behind them).
 * After a read that filled the whole buffer more data is most likely
 * waiting (a backlog): on a non-blocking fd the
 * next read is tried before polling, saving a poll() per buffer; EAGAIN
 * falls back to the poll.  EINTR/EAGAIN poll again; 0 bytes is EOS;
 * a failing read (ENODEV, EIO, EBUSY, ...) returns an IvtvError saying
 * what happened (the session's reader thread queues it; nothing here posts); EIO is an unplug when QUERYCAP fails too (pvrusb2 keeps
 * its node after an unplug while it is open, and answers EIO), else it is
 * retried IVTV_READ_EIO_RETRIES times before it is an error.  While no
 * data comes the same question is asked once a second (pvrusb2 unplugged
 * before its first data never wakes poll() nor gives EIO).
 *
 * Stalls are the shared watchdog's (IvtvStall, ivtvpath.h), measured over
 * the whole wait of one create() (not per poll() call, and never counting
 * time the reader spent handing buffers on): no data for `timeout`
 * seconds posts a warning once, for 2 x `timeout` it fails (never a hang);
 * timeout 0 waits for ever.
 *
 * A drain (ivtv_read_drain, after ENCODER_CMD STOP) reads on until the
 * driver ends the stream (read() returns 0), the drain deadline passes or
 * no data comes for 0.5 s (about a GOP), then gives EOS.  After a stop the
 * driver refused (no encoder command: pvrusb2), the drain reads what the
 * driver holds without waiting for more (read() until it comes back short
 * or EAGAIN, at least once, within the deadline): the bytes captured
 * before the stop that its close would throw away; the debug log's INFO
 * says how many.  With `reconnect`
 * set, ENODEV/ENXIO posts nothing: create returns IVTV_FLOW_DEVICE_LOST
 * (and EIO from a device that is gone) and the capture session waits for
 * the node to come back.
 * ivtv_read_path_new() (ivtvpath.h) wraps an IvtvReader as a capture path.
 * Buffers carry byte offsets; time stamps come from the base class
 * (do-timestamp: running time on arrival).
 */
#ifndef __IVTV_READ_H__
#define __IVTV_READ_H__

#include <gst/gst.h>
#include "ivtvdevice.h"
#include "ivtvpath.h"

G_BEGIN_DECLS

/* EIO is retried this many times, IVTV_READ_EIO_WAIT_MS apart (2 s in
 * all: time for a USB disconnect to reach the driver after the URBs
 * failed, so that an unplug is named as one) */
#define IVTV_READ_EIO_RETRIES 10
#define IVTV_READ_EIO_WAIT_MS 200

/* IvtvReader.drain */
enum
{
  IVTV_READ_DRAIN_NONE,
  IVTV_READ_DRAIN_GOP,          /* the encoder ends its stream: read to it */
  IVTV_READ_DRAIN_HELD          /* it runs on: read what the driver holds */
};

typedef struct
{
  GstElement *element;          /* for messages; not a reference */
  IvtvDevice *dev;
  GstPoll *poll;                /* the capture session's; not owned */
  GstPollFD pfd;
  GstBufferPool *pool;
  guint blocksize;
  gboolean started;
  IvtvStall stall;              /* timeout 0 (no stall detection) by default */
  gint64 last_data;             /* monotonic us of the last data */
  gint drain;                   /* atomic IVTV_READ_DRAIN_*: draining after
                                 * ENCODER_CMD STOP (or its refusal) */
  gboolean stop_refused;        /* the last stop: IVTV_STOP_REFUSED */
  guint64 held_from;            /* offset where the held drain began */
  guint held_reads;             /* read() calls of the held drain */
  gboolean held_done;           /* it read less than asked: all there was */
  /* io_lock: held around each read() and poll() and around an encoder
   * stop, so that no read() or poll() (hdpvr_poll starts an idle device
   * too) follows a stop that ended the stream at once (ended, atomic, set
   * under it) */
  GMutex io_lock;
  gint ended;
  gint stopping;                /* atomic: a stop waits for io_lock */
  gint64 drain_start, drain_deadline;   /* monotonic us */
  guint eio_count;              /* consecutive EIO */
  gint64 gone_check;            /* monotonic us of the last idle check
                                 * whether the device is gone */
  gboolean reconnect;           /* ENODEV: IVTV_FLOW_DEVICE_LOST, no error */
  gboolean nonblocking;         /* the fd is O_NONBLOCK: read() never blocks */
  gboolean read_first;          /* last read filled the buffer: skip poll */

  guint64 offset;               /* bytes pushed so far */
  guint64 n_buffers;
  guint64 n_short;              /* reads shorter than blocksize */
} IvtvReader;

void ivtv_read_init (IvtvReader * r);

/* Make the pool (@blocksize bytes per buffer) and watch the device fd in
 * @poll.  FALSE with @error when the pool cannot be set up. */
gboolean ivtv_read_start (IvtvReader * r, GstElement * element,
    IvtvDevice * dev, GstPoll * poll, guint blocksize, GError ** error);

/* One buffer of at most blocksize bytes.  GST_FLOW_FLUSHING when the poll
 * is set flushing, GST_FLOW_EOS at end of stream, GST_FLOW_ERROR with
 * *@error set (nothing posted), IVTV_FLOW_DEVICE_LOST (with reconnect). */
GstFlowReturn ivtv_read_create (IvtvReader * r, GstBuffer ** out,
    IvtvError ** error);

/* Stall timeout in seconds (0 = off); any thread. */
void ivtv_read_set_timeout (IvtvReader * r, guint seconds);

/* Read on until the driver ends the stream, at most @max_us from now,
 * then EOS; after a refused stop (ivtv_read_stop_encoder), read what the
 * driver holds now, within @max_us, then EOS.  Any thread (the reader
 * thread, which runs create(), notices within 200 ms). */
void ivtv_read_drain (IvtvReader * r, gint64 max_us);

/* Run @stop (ENCODER_CMD STOP) with no read() in flight; after
 * IVTV_STOP_AT_ONCE, create() reads and polls nothing more: EOS; after
 * IVTV_STOP_REFUSED, a drain reads what the driver holds. */
IvtvStopResult ivtv_read_stop_encoder (IvtvReader * r, IvtvPathStopFunc stop,
    gpointer data);

/* Release the pool and stop watching the fd.  Safe to call twice. */
void ivtv_read_stop (IvtvReader * r);

G_END_DECLS

#endif /* __IVTV_READ_H__ */
