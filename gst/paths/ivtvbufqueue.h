/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the V4L2 buffer queue behind the streaming path.
 *
 * IvtvBufQueue holds the driver's buffers of one REQBUFS as persistent
 * GstMemory objects, one per V4L2 buffer: the mmap'd region (MMAP), the
 * buffer exported with VIDIOC_EXPBUF and wrapped by GstDmaBufAllocator
 * (dmabuf), or page-aligned system memory handed to the driver (USERPTR).
 *
 * A memory is owned by the queue while the driver has the buffer, and by
 * whoever took it (ivtv_buf_queue_take) after a DQBUF.  When the last
 * reference to a taken memory is dropped (downstream released the
 * GstBuffer), its dispose hook resurrects it and queues it back to the
 * driver (QBUF) — zero copy, no allocation per frame.  After
 * ivtv_buf_queue_deactivate() (stop) a released memory is freed instead;
 * freeing unmaps the region.  The queue is reference-counted by the
 * stream and by every live memory, so buffers downstream still holds stay
 * valid after stop; the device is only touched while the queue is active.
 */
#ifndef __IVTV_BUF_QUEUE_H__
#define __IVTV_BUF_QUEUE_H__

#include <gst/gst.h>
#include "ivtvdevice.h"

G_BEGIN_DECLS

typedef struct _IvtvBufQueue IvtvBufQueue;

/* A queue for @n_buffers buffers (as REQBUFS answered) of @memory
 * (V4L2_MEMORY_MMAP or _USERPTR) on @dev.  Active from the start. */
IvtvBufQueue *ivtv_buf_queue_new (IvtvDevice * dev, guint32 memory,
    guint n_buffers);

/* Makes the memory of buffer @index: QUERYBUF + mmap (MMAP), QUERYBUF +
 * EXPBUF wrapped by @dmabuf_alloc (MMAP with @dmabuf_alloc non-NULL), or
 * @userptr_size bytes of page-aligned memory (USERPTR).  Returns 0 or
 * -errno, with @what naming the step that failed. */
int ivtv_buf_queue_setup (IvtvBufQueue * q, guint index,
    gsize userptr_size, GstAllocator * dmabuf_alloc, const gchar ** what);

/* QBUF of every buffer the queue owns; 0 or -errno of the first failure. */
int ivtv_buf_queue_qbuf_all (IvtvBufQueue * q);

/* After a DQBUF gave @index: the buffer's memory (transfer full; the
 * caller may resize it and push it), or NULL if @index is not a buffer the
 * driver had.  @n_queued: buffers still in the driver. */
GstMemory *ivtv_buf_queue_take (IvtvBufQueue * q, guint index,
    guint * n_queued);

guint ivtv_buf_queue_get_size (const IvtvBufQueue * q);
guint32 ivtv_buf_queue_get_memory (const IvtvBufQueue * q);

/* Stop requeueing: with @streamoff, VIDIOC_STREAMOFF first (under the
 * queue's lock, so no QBUF races it); then frees the memories the queue
 * owns.  Returns how many memories are still out (downstream). */
guint ivtv_buf_queue_deactivate (IvtvBufQueue * q, gboolean streamoff);

void ivtv_buf_queue_unref (IvtvBufQueue * q);

G_END_DECLS

#endif /* __IVTV_BUF_QUEUE_H__ */
