/* ivtvsrc — the read() capture path (as fdsrc does it).
 *
 * IvtvReader reads the device's byte stream into buffers from its own
 * GstBufferPool (no allocation per buffer): it waits in the element's
 * GstPoll (so unlock/flush returns at once), reads once into the buffer and
 * pushes what it got — a short read is pushed as it is (resized), never
 * overwritten by the next read.  After a read that filled the whole buffer
 * more data is most likely waiting (a backlog): on a non-blocking fd the
 * next read is tried before polling, saving a poll() per buffer; EAGAIN
 * falls back to the poll.  EINTR/EAGAIN poll again; 0 bytes is EOS;
 * a failing read (ENODEV, EIO, EBUSY, ...) posts an element error saying
 * what happened.  No data for IVTV_READ_STALL_SECONDS posts a warning once
 * (a stalled encoder) and keeps waiting.  Buffers carry byte offsets; time
 * stamps come from the base class (do-timestamp: running time on arrival).
 */
#ifndef __IVTV_READ_H__
#define __IVTV_READ_H__

#include <gst/gst.h>
#include "ivtvdevice.h"

G_BEGIN_DECLS

#define IVTV_READ_STALL_SECONDS 5

typedef struct
{
  GstElement *element;          /* for messages; not a reference */
  IvtvDevice *dev;
  GstPoll *poll;                /* the element's; not owned */
  GstPollFD pfd;
  GstBufferPool *pool;
  guint blocksize;
  gboolean started;
  gboolean stall_warned;
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
 * is set flushing, GST_FLOW_EOS at end of stream, GST_FLOW_ERROR after
 * posting an element error. */
GstFlowReturn ivtv_read_create (IvtvReader * r, GstBuffer ** out);

/* Release the pool and stop watching the fd.  Safe to call twice. */
void ivtv_read_stop (IvtvReader * r);

G_END_DECLS

#endif /* __IVTV_READ_H__ */
