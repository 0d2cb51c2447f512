/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the V4L2 buffer queue: one persistent GstMemory per driver
 * buffer, requeued by its dispose hook when downstream releases it (see
 * ivtvbufqueue.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvbufqueue.h"
#include "ivtvdebug.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <gst/allocators/allocators.h>

#define GST_CAT_DEFAULT ivtv_debug

typedef struct
{
  IvtvBufQueue *queue;
  guint index;
  GstMemory *mem;               /* NULL before setup and once freed */
  gpointer data;                /* mmap address (MMAP), memory (USERPTR) */
  gsize length;
  gboolean owned;               /* the queue holds the memory's reference */
  gboolean in_driver;           /* queued with QBUF, not yet dequeued */
} IvtvSlot;

struct _IvtvBufQueue
{
  gint refcount;
  GMutex lock;                  /* guards active, the slots and n_in_driver;
                                 * QBUF is issued under it by whichever
                                 * thread drops a frame's last reference */
  gboolean active;              /* dispose requeues while TRUE */
  IvtvDevice *dev;              /* only used while active */
  const IvtvIoFuncs *io;        /* for munmap, valid after device close */
  guint32 memory;               /* V4L2_MEMORY_* */
  guint n_slots;
  guint n_in_driver;
  IvtvSlot *slots;
};

static GQuark slot_quark;

static void
queue_ref (IvtvBufQueue * q)
{
  g_atomic_int_inc (&q->refcount);
}

void
ivtv_buf_queue_unref (IvtvBufQueue * q)
{
  if (q == NULL || !g_atomic_int_dec_and_test (&q->refcount))
    return;
  GST_DEBUG ("freeing buffer queue %p", q);
  g_mutex_clear (&q->lock);
  g_free (q->slots);
  g_free (q);
}

IvtvBufQueue *
ivtv_buf_queue_new (IvtvDevice * dev, guint32 memory, guint n_buffers)
{
  static gsize once = 0;
  IvtvBufQueue *q;
  guint i;

  ivtv_debug_init ();
  if (g_once_init_enter (&once)) {
    slot_quark = g_quark_from_static_string ("ivtv-buf-queue-slot");
    g_once_init_leave (&once, 1);
  }

  q = g_new0 (IvtvBufQueue, 1);
  q->refcount = 1;
  g_mutex_init (&q->lock);
  q->active = TRUE;
  q->dev = dev;
  q->io = dev->io;
  q->memory = memory;
  q->n_slots = n_buffers;
  q->slots = g_new0 (IvtvSlot, n_buffers);
  for (i = 0; i < n_buffers; i++) {
    q->slots[i].queue = q;
    q->slots[i].index = i;
  }
  return q;
}

guint
ivtv_buf_queue_get_size (const IvtvBufQueue * q)
{
  return q->n_slots;
}

guint32
ivtv_buf_queue_get_memory (const IvtvBufQueue * q)
{
  return q->memory;
}

/* With the lock held (or before the queue is shared). */
static int
slot_qbuf (IvtvBufQueue * q, IvtvSlot * slot)
{
  struct v4l2_buffer b;
  int ret;

  memset (&b, 0, sizeof (b));
  b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  b.memory = q->memory;
  b.index = slot->index;
  if (q->memory == V4L2_MEMORY_USERPTR) {
    b.m.userptr = (unsigned long) slot->data;
    b.length = slot->length;
  }
  ret = ivtv_ioctl (q->dev, VIDIOC_QBUF, &b);
  if (ret == 0) {
    slot->in_driver = TRUE;
    q->n_in_driver++;
  }
  return ret;
}

/* The last reference to a slot memory is gone: requeue or free. */
static gboolean
slot_mem_dispose (GstMiniObject * obj)
{
  GstMemory *mem = (GstMemory *) obj;
  IvtvSlot *slot = gst_mini_object_get_qdata (obj, slot_quark);
  IvtvBufQueue *q;
  int ret;

  if (slot == NULL)
    return TRUE;
  q = slot->queue;

  g_mutex_lock (&q->lock);
  if (!q->active) {
    g_mutex_unlock (&q->lock);
    return TRUE;                /* freed; slot_mem_freed() follows */
  }
  /* resurrect: the queue owns it again */
  gst_memory_ref (mem);
  mem->offset = 0;
  mem->size = slot->length;
  slot->owned = TRUE;
  ret = slot_qbuf (q, slot);
  if (ret < 0)                  /* kept (owned, not queued) until stop */
    GST_WARNING ("VIDIOC_QBUF of buffer %u failed: %s", slot->index,
        g_strerror (-ret));
  g_mutex_unlock (&q->lock);
  return FALSE;
}

/* qdata destroy notify: the memory is being freed. */
static void
slot_mem_freed (gpointer data)
{
  IvtvSlot *slot = data;
  IvtvBufQueue *q = slot->queue;

  if (q->memory == V4L2_MEMORY_MMAP && slot->data != NULL) {
    if (q->io->munmap (slot->data, slot->length) < 0)
      GST_WARNING ("munmap of buffer %u failed: %s", slot->index,
          g_strerror (errno));
  }
  slot->data = NULL;
  slot->mem = NULL;
  ivtv_buf_queue_unref (q);
}

static void
slot_attach (IvtvSlot * slot, GstMemory * mem)
{
  slot->mem = mem;
  slot->owned = TRUE;
  GST_MINI_OBJECT_CAST (mem)->dispose = slot_mem_dispose;
  gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (mem), slot_quark, slot,
      slot_mem_freed);
  queue_ref (slot->queue);
}

/* userptr: page-aligned system memory of @size bytes. */
static int
setup_userptr (IvtvSlot * slot, gsize size, const gchar ** what)
{
  GstAllocationParams params;
  GstMapInfo map;
  GstMemory *mem;
  long page = sysconf (_SC_PAGESIZE);

  gst_allocation_params_init (&params);
  params.align = (page > 0 ? page : 4096) - 1;
  slot->length = size;
  mem = gst_allocator_alloc (NULL, slot->length, &params);
  if (mem == NULL || !gst_memory_map (mem, &map, GST_MAP_WRITE)) {
    if (mem)
      gst_memory_unref (mem);
    *what = "allocating userptr memory";
    return -ENOMEM;
  }
  slot->data = map.data;        /* system memory stays where it is */
  gst_memory_unmap (mem, &map);
  slot_attach (slot, mem);
  return 0;
}

/* dmabuf: the driver's buffer @index exported (EXPBUF). */
static int
setup_dmabuf (IvtvBufQueue * q, IvtvSlot * slot, guint index,
    GstAllocator * dmabuf_alloc, const gchar ** what)
{
  struct v4l2_exportbuffer exp;
  GstMemory *mem;
  int ret;

  memset (&exp, 0, sizeof (exp));
  exp.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  exp.index = index;
  exp.flags = O_CLOEXEC | O_RDWR;
  ret = ivtv_ioctl (q->dev, VIDIOC_EXPBUF, &exp);
  if (ret < 0) {
    *what = "VIDIOC_EXPBUF";
    return ret;
  }
  mem = gst_dmabuf_allocator_alloc (dmabuf_alloc, exp.fd, slot->length);
  if (mem == NULL) {
    close (exp.fd);
    *what = "wrapping the exported dmabuf";
    return -ENOMEM;
  }
  slot_attach (slot, mem);
  return 0;
}

int
ivtv_buf_queue_setup (IvtvBufQueue * q, guint index, gsize userptr_size,
    GstAllocator * dmabuf_alloc, const gchar ** what)
{
  IvtvSlot *slot;
  struct v4l2_buffer b;
  int ret;

  g_return_val_if_fail (index < q->n_slots, -EINVAL);
  slot = &q->slots[index];
  g_return_val_if_fail (slot->mem == NULL, -EINVAL);
  if (q->memory == V4L2_MEMORY_USERPTR)
    return setup_userptr (slot, userptr_size, what);

  memset (&b, 0, sizeof (b));
  b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  b.memory = V4L2_MEMORY_MMAP;
  b.index = index;
  ret = ivtv_ioctl (q->dev, VIDIOC_QUERYBUF, &b);
  if (ret < 0) {
    *what = "VIDIOC_QUERYBUF";
    return ret;
  }
  if (b.length == 0) {
    *what = "VIDIOC_QUERYBUF (a zero-length buffer)";
    return -EINVAL;
  }
  slot->length = b.length;
  if (dmabuf_alloc != NULL)
    return setup_dmabuf (q, slot, index, dmabuf_alloc, what);

  /* mmap: the driver's buffer mapped */
  slot->data = ivtv_device_mmap (q->dev, b.length, b.m.offset);
  if (slot->data == NULL) {
    *what = "mmap";
    return -(errno ? errno : ENOMEM);
  }
  slot_attach (slot, gst_memory_new_wrapped (0, slot->data, b.length, 0,
          b.length, NULL, NULL));
  return 0;
}

int
ivtv_buf_queue_qbuf_all (IvtvBufQueue * q)
{
  guint i;
  int ret = 0;

  g_mutex_lock (&q->lock);
  for (i = 0; i < q->n_slots && ret == 0; i++) {
    IvtvSlot *slot = &q->slots[i];
    if (slot->mem != NULL && slot->owned && !slot->in_driver)
      ret = slot_qbuf (q, slot);
  }
  g_mutex_unlock (&q->lock);
  return ret;
}

GstMemory *
ivtv_buf_queue_take (IvtvBufQueue * q, guint index, guint * n_queued)
{
  GstMemory *mem = NULL;
  IvtvSlot *slot;

  g_mutex_lock (&q->lock);
  slot = index < q->n_slots ? &q->slots[index] : NULL;
  if (slot != NULL && slot->in_driver && slot->owned && slot->mem != NULL) {
    slot->in_driver = FALSE;
    slot->owned = FALSE;
    q->n_in_driver--;
    mem = slot->mem;            /* the queue's reference, handed on */
  }
  if (n_queued)
    *n_queued = q->n_in_driver;
  g_mutex_unlock (&q->lock);
  return mem;
}

guint
ivtv_buf_queue_deactivate (IvtvBufQueue * q, gboolean streamoff)
{
  int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  GstMemory **owned;
  guint i, n = 0, out = 0;

  owned = g_new0 (GstMemory *, q->n_slots);
  g_mutex_lock (&q->lock);
  if (streamoff && q->active)
    ivtv_ioctl (q->dev, VIDIOC_STREAMOFF, &type);
  q->active = FALSE;
  q->n_in_driver = 0;
  for (i = 0; i < q->n_slots; i++) {
    IvtvSlot *slot = &q->slots[i];

    slot->in_driver = FALSE;
    if (slot->mem == NULL)
      continue;
    if (slot->owned) {
      owned[n++] = slot->mem;
      slot->owned = FALSE;
    } else {
      out++;
    }
  }
  g_mutex_unlock (&q->lock);
  /* outside the lock: dispose and free notify take it / free the queue */
  for (i = 0; i < n; i++)
    gst_memory_unref (owned[i]);
  g_free (owned);
  return out;
}
