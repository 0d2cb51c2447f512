/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the read() capture path (see ivtvread.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvread.h"
#include "ivtvdebug.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <string.h>

#define GST_CAT_DEFAULT ivtv_debug

/* ---- the pool of read blocks: the block released last is taken first ----
 *
 * GstBufferPool hands its free buffers out in the order they came back
 * (a GstAtomicQueue): with the 8 or so blocks between the reader and
 * downstream (the capture queue's batch), the block read into next is the
 * one that left the CPU's cache longest ago.  This pool keeps its free
 * blocks on a stack instead, so that the driver's copy goes into the
 * block downstream released last.  A block GstBufferPool would not keep
 * (its memory replaced or shared, its size changed) goes to the parent,
 * which discards it; at stop the stack goes back to the parent's queue,
 * which frees it and keeps its count. */
typedef struct
{
  GstBufferPool parent;
  GMutex lock;                  /* free: released on downstream's threads,
                                 * taken on the reader's */
  GPtrArray *free;              /* the top is the last released */
  gsize size;
} IvtvLifoPool;

typedef struct
{
  GstBufferPoolClass parent_class;
} IvtvLifoPoolClass;

static GType ivtv_lifo_pool_get_type (void);
G_DEFINE_TYPE (IvtvLifoPool, ivtv_lifo_pool, GST_TYPE_BUFFER_POOL);

static GstFlowReturn
lifo_acquire (GstBufferPool * pool, GstBuffer ** buf,
    GstBufferPoolAcquireParams * params)
{
  IvtvLifoPool *lp = (IvtvLifoPool *) pool;

  *buf = NULL;
  if (!GST_BUFFER_POOL_IS_FLUSHING (pool)) {
    g_mutex_lock (&lp->lock);
    if (lp->free->len > 0)
      *buf = g_ptr_array_steal_index_fast (lp->free, lp->free->len - 1);
    g_mutex_unlock (&lp->lock);
  }
  if (*buf)
    return GST_FLOW_OK;
  return GST_BUFFER_POOL_CLASS (ivtv_lifo_pool_parent_class)->acquire_buffer
      (pool, buf, params);
}

static void
lifo_release (GstBufferPool * pool, GstBuffer * buf)
{
  IvtvLifoPool *lp = (IvtvLifoPool *) pool;

  if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_TAG_MEMORY)
      || gst_buffer_get_size (buf) != lp->size
      || !gst_buffer_is_all_memory_writable (buf)) {
    GST_BUFFER_POOL_CLASS (ivtv_lifo_pool_parent_class)->release_buffer
        (pool, buf);
    return;
  }
  g_mutex_lock (&lp->lock);
  g_ptr_array_add (lp->free, buf);
  g_mutex_unlock (&lp->lock);
}

static gboolean
lifo_stop (GstBufferPool * pool)
{
  IvtvLifoPool *lp = (IvtvLifoPool *) pool;
  GPtrArray *free;

  g_mutex_lock (&lp->lock);
  free = lp->free;
  lp->free = g_ptr_array_new ();
  g_mutex_unlock (&lp->lock);
  while (free->len > 0)
    GST_BUFFER_POOL_CLASS (ivtv_lifo_pool_parent_class)->release_buffer
        (pool, g_ptr_array_steal_index_fast (free, free->len - 1));
  g_ptr_array_unref (free);
  return GST_BUFFER_POOL_CLASS (ivtv_lifo_pool_parent_class)->stop (pool);
}

static void
lifo_finalize (GObject * object)
{
  IvtvLifoPool *lp = (IvtvLifoPool *) object;

  g_ptr_array_unref (lp->free); /* empty: stopped before */
  g_mutex_clear (&lp->lock);
  G_OBJECT_CLASS (ivtv_lifo_pool_parent_class)->finalize (object);
}

static void
ivtv_lifo_pool_class_init (IvtvLifoPoolClass * klass)
{
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = lifo_finalize;
  pool_class->acquire_buffer = lifo_acquire;
  pool_class->release_buffer = lifo_release;
  pool_class->stop = lifo_stop;
}

static void
ivtv_lifo_pool_init (IvtvLifoPool * lp)
{
  g_mutex_init (&lp->lock);
  lp->free = g_ptr_array_new ();
}

static GstBufferPool *
ivtv_lifo_pool_new (gsize size)
{
  IvtvLifoPool *lp = g_object_new (ivtv_lifo_pool_get_type (), NULL);

  lp->size = size;
  gst_object_ref_sink (lp);
  return GST_BUFFER_POOL (lp);
}

/* ---- the reader ---- */

void
ivtv_read_init (IvtvReader * r)
{
  memset (r, 0, sizeof (*r));
  g_mutex_init (&r->io_lock);
  gst_poll_fd_init (&r->pfd);
}

IvtvStopResult
ivtv_read_stop_encoder (IvtvReader * r, IvtvPathStopFunc stop, gpointer data)
{
  IvtvStopResult res;

  g_atomic_int_inc (&r->stopping);     /* the reader lets go of the lock */
  g_mutex_lock (&r->io_lock);
  g_atomic_int_dec_and_test (&r->stopping);
  res = stop (data);
  /* no encoder command (pvrusb2): the drain that follows reads what the
   * driver holds (read_held) */
  r->stop_refused = res == IVTV_STOP_REFUSED;
  if (res == IVTV_STOP_AT_ONCE) {
    GST_INFO_OBJECT (r->element, "the encoder stopped at once, without "
        "draining: reading nothing more after %" G_GUINT64_FORMAT " bytes",
        r->offset);
    g_atomic_int_set (&r->ended, 1);
  }
  g_mutex_unlock (&r->io_lock);
  return res;
}

gboolean
ivtv_read_start (IvtvReader * r, GstElement * element, IvtvDevice * dev,
    GstPoll * poll, guint blocksize, GError ** error)
{
  GstStructure *config;

  ivtv_read_stop (r);
  r->element = element;
  r->dev = dev;
  r->poll = poll;
  r->blocksize = blocksize ? blocksize : 524288;
  r->offset = 0;
  r->n_buffers = 0;
  r->n_short = 0;
  r->stall.warned = FALSE;
  r->last_data = g_get_monotonic_time ();
  r->eio_count = 0;
  r->gone_check = 0;
  g_atomic_int_set (&r->drain, IVTV_READ_DRAIN_NONE);
  r->stop_refused = FALSE;
  r->held_reads = 0;
  r->held_done = FALSE;
  r->read_first = FALSE;
  {
    int fl = fcntl (dev->fd, F_GETFL);
    r->nonblocking = fl >= 0 && (fl & O_NONBLOCK);
  }

  r->pool = ivtv_lifo_pool_new (r->blocksize);
  config = gst_buffer_pool_get_config (r->pool);
  gst_buffer_pool_config_set_params (config, NULL, r->blocksize, 1, 0);
  {
    /* page-aligned like dd's buffer: the driver's copy (copy_to_user, or
     * the emulator's memcpy) is measurably slower into a destination that
     * is only 8-byte aligned, GstMemory's default */
    GstAllocationParams params;
    long page = sysconf (_SC_PAGESIZE);

    gst_allocation_params_init (&params);
    params.align = (page > 0 ? page : 4096) - 1;
    gst_buffer_pool_config_set_allocator (config, NULL, &params);
  }
  if (!gst_buffer_pool_set_config (r->pool, config)
      || !gst_buffer_pool_set_active (r->pool, TRUE)) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NO_SPACE_LEFT,
        _("Cannot allocate read buffers of %u bytes"), r->blocksize);
    gst_object_unref (r->pool);
    r->pool = NULL;
    return FALSE;
  }

  gst_poll_fd_init (&r->pfd);
  r->pfd.fd = dev->fd;
  gst_poll_add_fd (poll, &r->pfd);
  gst_poll_fd_ctl_read (poll, &r->pfd, TRUE);
  r->started = TRUE;
  GST_DEBUG_OBJECT (element, "read() capture, %u bytes per buffer",
      r->blocksize);
  return TRUE;
}

void
ivtv_read_stop (IvtvReader * r)
{
  if (r->started && r->poll)
    gst_poll_remove_fd (r->poll, &r->pfd);
  gst_poll_fd_init (&r->pfd);
  if (r->pool) {
    gst_buffer_pool_set_active (r->pool, FALSE);
    gst_object_unref (r->pool);
    r->pool = NULL;
  }
  if (r->started)
    GST_DEBUG_OBJECT (r->element, "read %" G_GUINT64_FORMAT " bytes in %"
        G_GUINT64_FORMAT " buffers (%" G_GUINT64_FORMAT " short)", r->offset,
        r->n_buffers, r->n_short);
  r->started = FALSE;
}

void
ivtv_read_set_timeout (IvtvReader * r, guint seconds)
{
  ivtv_stall_set_timeout (&r->stall, seconds);
}

void
ivtv_read_drain (IvtvReader * r, gint64 max_us)
{
  r->drain_start = g_get_monotonic_time ();
  r->drain_deadline = r->drain_start + max_us;
  g_atomic_int_set (&r->drain, r->stop_refused ? IVTV_READ_DRAIN_HELD :
      IVTV_READ_DRAIN_GOP);
}

/* a read that fills less than 1/8 of its pool block is copied out */
#define IVTV_READ_COMPACT_RATIO 8

#define WAIT_STEP_US (200 * G_TIME_SPAN_MILLISECOND)
#define IVTV_READ_DRAIN_IDLE_US (500 * G_TIME_SPAN_MILLISECOND)

/* A drain ends when the driver ends the stream, at its deadline, or after
 * IVTV_READ_DRAIN_IDLE_US without data (a GOP is about half a second: no
 * data for that long means the driver will not end it).  The time left, or
 * 0 when it is over. */
static gint64
drain_time_left (IvtvReader * r, gint64 now)
{
  gint64 end = MIN (r->drain_deadline,
      MAX (r->last_data, r->drain_start) + IVTV_READ_DRAIN_IDLE_US);

  return MAX (end - now, 0);
}

static gboolean idle_and_gone (IvtvReader * r, gint64 since);

/* wait_readable's answer when the device went away while nothing came */
#define WAIT_GONE GST_FLOW_CUSTOM_SUCCESS_1

/* Wait until the device is readable.  GST_FLOW_OK when it is; EOS when a
 * drain ran out of time; ERROR (*@error) when the stall watchdog gives up
 * (no data since @since, when create() began waiting: a streaming thread
 * held up downstream never counts as a stall); WAIT_GONE when the device
 * went away meanwhile (idle_and_gone). */
static GstFlowReturn
wait_readable (IvtvReader * r, gint64 since, IvtvError ** error)
{
  for (;;) {
    gint64 wait = WAIT_STEP_US;
    gint ret, err;

    /* the encoder stopped at once (ivtv_read_stop_encoder): no more data
     * will come, and none may be read (a read() would restart hdpvr) */
    if (g_atomic_int_get (&r->ended))
      return GST_FLOW_EOS;
    if (g_atomic_int_get (&r->drain) == IVTV_READ_DRAIN_HELD)
      return GST_FLOW_OK;       /* read_held reads without waiting */
    if (g_atomic_int_get (&r->drain) == IVTV_READ_DRAIN_GOP) {
      gint64 left = drain_time_left (r, g_get_monotonic_time ());

      if (left == 0) {
        GST_INFO_OBJECT (r->element, "the driver did not end the stream "
            "in time: ending it here");
        return GST_FLOW_EOS;
      }
      wait = MIN (wait, left);
    } else if (ivtv_stall_check (&r->stall, r->element, r->dev,
            since, error) != GST_FLOW_OK) {
      return GST_FLOW_ERROR;
    } else if (idle_and_gone (r, since)) {
      return WAIT_GONE;
    }

    /* under the I/O lock, like read(): hdpvr_poll starts an idle device
     * too, so no poll() may be in flight when the encoder is stopped
     * (ivtv_read_stop_encoder waits at most one step for it) */
    /* a stop waiting for the lock goes first (a mutex is not fair: the
     * loop would take it again at once) */
    while (g_atomic_int_get (&r->stopping) > 0)
      g_usleep (G_TIME_SPAN_MILLISECOND);
    g_mutex_lock (&r->io_lock);
    ret = g_atomic_int_get (&r->ended) ? -2 :
        gst_poll_wait (r->poll, wait * GST_USECOND);
    err = errno;
    g_mutex_unlock (&r->io_lock);
    if (ret == -2)
      return GST_FLOW_EOS;
    if (ret > 0)
      return GST_FLOW_OK;
    if (ret == 0 || err == EINTR || err == EAGAIN)
      continue;
    if (err == EBUSY)
      return GST_FLOW_FLUSHING;
    IVTV_ERROR (error, RESOURCE, READ,
        (_("Waiting for data from %s failed."), r->dev->path),
        ("poll: %s", g_strerror (err)));
    return GST_FLOW_ERROR;
  }
}

static void
read_error (IvtvReader * r, gint err, IvtvError ** error)
{
  switch (err) {
    case ENODEV:
    case ENXIO:
      IVTV_ERROR (error, RESOURCE, READ,
          (_("The device %s went away (unplugged or driver unloaded)."),
              r->dev->path), ("read: %s", g_strerror (err)));
      break;
    case EIO:
      IVTV_ERROR (error, RESOURCE, READ,
          (_("The device %s reported an I/O error %u times in a row; the card "
              "or its driver is in trouble."), r->dev->path,
              IVTV_READ_EIO_RETRIES + 1), ("read: %s", g_strerror (err)));
      break;
    case EBUSY:
      IVTV_ERROR (error, RESOURCE, BUSY,
          (_("%s is busy: another program is already capturing from it."),
              r->dev->path), ("read: %s", g_strerror (err)));
      break;
    case EINVAL:
      IVTV_ERROR (error, RESOURCE, READ,
          (_("%s refused read(): it may not support read() capture (try "
              "io-mode=mmap)."), r->dev->path), ("read: %s", g_strerror (err)));
      break;
    default:
      IVTV_ERROR (error, RESOURCE, READ,
          (_("Could not read from %s."), r->dev->path),
          ("read on file descriptor: %s.", g_strerror (err)));
      break;
  }
}

/* After an EIO: is the device gone although its node stays?  The V4L2
 * core answers ENODEV once a node is unregistered (v4l2-dev.c v4l2_ioctl,
 * v4l2_open), but pvrusb2 keeps the node while a file handle is open
 * (pvrusb2-v4l2.c pvr2_v4l2_internal_check) and after an unplug
 * (pvrusb2-hdw.c pvr2_hdw_disconnect -> pvr2_hdw_remove_usb_stuff ->
 * pvr2_hdw_render_useless clears flag_ok) answers read() with EIO
 * (pvrusb2-ioread.c pvr2_ioread_avail: the stream was stopped), never makes
 * poll() ready again, and since its ioctls went to video_ioctl2 (Linux
 * 4.19) still answers QUERYCAP; before, every ioctl gave EFAULT
 * (pvr2_v4l2_ioctl: !pvr2_hdw_dev_ok).  A new open() of the node does say
 * it: EIO (pvr2_v4l2_open: !pvr2_hdw_dev_ok).  So: QUERYCAP ENODEV, ENXIO
 * or EFAULT (its argument is ours and valid), or a new open of the node
 * failing with ENOENT, ENODEV, ENXIO or EIO, means the device went away;
 * an adopted fd (no path) is asked QUERYCAP only. */
static gboolean
device_gone (IvtvReader * r)
{
  IvtvDevice *dev = r->dev;
  struct v4l2_capability cap;
  const gchar *how = "QUERYCAP";
  int ret, fd, err = 0;

  memset (&cap, 0, sizeof (cap));
  ret = ivtv_ioctl (dev, VIDIOC_QUERYCAP, &cap);
  if (ret == -ENODEV || ret == -ENXIO || ret == -EFAULT) {
    err = -ret;
  } else if (!dev->adopted && dev->io->open != NULL) {
    how = "a new open()";
    fd = dev->io->open (dev->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0)
      dev->io->close (fd);
    else if (errno == ENOENT || errno == ENODEV || errno == ENXIO
        || errno == EIO)
      err = errno;
  }
  if (err == 0)
    return FALSE;
  GST_INFO_OBJECT (r->element, "%s, %s %s: %s went away", r->eio_count ?
      "read() gave EIO" : "no data", how, g_strerror (err), dev->path);
  return TRUE;
}

/* No data since @since for a second or more: once a second, is the device
 * gone (device_gone)?  pvrusb2 unplugged before its first read() had data
 * (pvrusb2-ioread.c pvr2_ioread_avail holds data back until half of its
 * buffers are ready, and the dead URBs never make that half) never makes
 * poll() ready, so no read() ever gives the EIO. */
static gboolean
idle_and_gone (IvtvReader * r, gint64 since)
{
  gint64 now = g_get_monotonic_time ();

  if (now - since < G_USEC_PER_SEC || now - r->gone_check < G_USEC_PER_SEC)
    return FALSE;
  r->gone_check = now;
  return device_gone (r);
}

/* The final drain of a card whose encoder cannot be stopped (no
 * VIDIOC_ENCODER_CMD: pvrusb2, pvrusb2-v4l2.c pvr2_ioctl_ops).  Its stream
 * runs until the file handle is closed, and the close throws away what the
 * driver holds: pvr2_v4l2_release stops streaming (pvrusb2-hdw.c
 * pvr2_hdw_set_streaming) and frees the read buffers with their data
 * (pvrusb2-ioread.c pvr2_ioread_destroy -> pvr2_ioread_setup(cp, NULL) ->
 * pvr2_ioread_stop, pvr2_stream_kill).  Those are the bytes captured and
 * encoded before the stop and not read yet (up to 32 buffers of 16 KiB,
 * pvrusb2-ioread.c BUFFER_COUNT, BUFFER_SIZE).  So they are read now,
 * without waiting for more: one read() takes every ready buffer up to its
 * size (pvr2_ioread_read), a short read or EAGAIN (pvr2_v4l2_read with
 * O_NONBLOCK, pvr2_ioread_avail: no buffer ready) means the driver holds
 * nothing more.  A blocking fd is asked poll() with no timeout first: the
 * stream still runs, so pvr2_v4l2_poll answers from pvr2_ioread_avail.
 * Bounded: the drain's deadline (at least one read is made, whenever the
 * reader gets here) and IVTV_READ_HELD_MAX_BYTES (a card that is not
 * paced).  EOS (*fret) when it is over; else as read_once. */
#define IVTV_READ_HELD_MAX_BYTES (8 * 1024 * 1024)

static gssize
read_held (IvtvReader * r, guint8 * data, gsize size, GstFlowReturn * fret)
{
  const gchar *why = NULL;
  gssize n;
  gint ret;

  if (r->held_reads == 0)
    r->held_from = r->offset;
  if (r->held_done)
    why = "the driver held no more";
  else if (r->held_reads > 0 && g_get_monotonic_time () >= r->drain_deadline)
    why = "the drain's time was up";
  else if (r->offset - r->held_from >= IVTV_READ_HELD_MAX_BYTES)
    why = "the drain's byte bound was reached";
  for (n = -EINTR; why == NULL && n == -EINTR;) {
    g_mutex_lock (&r->io_lock);
    ret = r->nonblocking ? 1 : gst_poll_wait (r->poll, 0);
    if (ret > 0)
      n = ivtv_device_read (r->dev, data, size);
    else
      n = ret == 0 || errno != EBUSY ? -EAGAIN : -EBUSY;
    g_mutex_unlock (&r->io_lock);
  }
  if (why == NULL) {
    r->held_reads++;
    if (n == -EBUSY) {          /* set flushing: the capture stops */
      *fret = GST_FLOW_FLUSHING;
      return 0;
    }
    if (n == -EIO && device_gone (r))
      n = -ENODEV;
    if (n == -EAGAIN || n == 0 || n == -EIO)
      why = n == -EIO ? "read() gave EIO" : "the driver held no more";
    else if (n > 0 && (gsize) n < size)
      r->held_done = TRUE;      /* it had less than asked: all it had */
  }
  if (why == NULL)
    return n;
  GST_INFO_OBJECT (r->element, "the final drain read %" G_GUINT64_FORMAT
      " bytes in %u reads, what %s held when the recording ended (%s); %"
      G_GUINT64_FORMAT " bytes in all", r->offset - r->held_from,
      r->held_reads, r->dev->path, why, r->offset);
  *fret = GST_FLOW_EOS;
  return 0;
}

/* Read once into @data, polling first unless a backlog is likely;
 * EAGAIN/EINTR poll again; EIO is -ENODEV when the device is gone
 * (device_gone), else retried IVTV_READ_EIO_RETRIES times without a poll
 * on a non-blocking fd (pvrusb2's poll() never wakes after its stream
 * stopped, its read() answers at once).  The byte count, 0, or -errno;
 * *fret is not GST_FLOW_OK when the wait ended without a read (flushing,
 * drain over, stall error). */
static gssize
read_once (IvtvReader * r, guint8 * data, gsize size, GstFlowReturn * fret,
    IvtvError ** error)
{
  gint64 since = g_get_monotonic_time ();
  gssize n;

  *fret = GST_FLOW_OK;
  for (;;) {
    if (g_atomic_int_get (&r->ended))
      return 0;                 /* the encoder stopped: end of stream */
    if (g_atomic_int_get (&r->drain) == IVTV_READ_DRAIN_HELD)
      return read_held (r, data, size, fret);
    if (!r->read_first && (*fret = wait_readable (r, since, error)) != GST_FLOW_OK) {
      if (*fret != WAIT_GONE)
        return 0;
      *fret = GST_FLOW_OK;
      return -ENODEV;
    }
    if (g_atomic_int_get (&r->drain) == IVTV_READ_DRAIN_HELD)
      continue;                 /* the wait ended for it */
    r->read_first = FALSE;      /* EAGAIN/EINTR: poll again */
    g_mutex_lock (&r->io_lock);
    n = g_atomic_int_get (&r->ended) ? 0 :
        ivtv_device_read (r->dev, data, size);
    g_mutex_unlock (&r->io_lock);
    if (n == -EAGAIN || n == -EINTR)
      continue;
    if (n == -EIO && device_gone (r))
      return -ENODEV;
    if (n == -EIO && r->eio_count < IVTV_READ_EIO_RETRIES) {
      if (r->eio_count++ == 0)
        GST_ELEMENT_WARNING (r->element, RESOURCE, READ,
            (_("The device %s reported an I/O error; retrying."), r->dev->path),
            ("read: %s (retry %u of %u)", g_strerror (EIO), r->eio_count,
                IVTV_READ_EIO_RETRIES));
      g_usleep (IVTV_READ_EIO_WAIT_MS * G_TIME_SPAN_MILLISECOND);
      r->read_first = r->nonblocking;
      continue;
    }
    return n;
  }
}

/* What a failed or empty read means for the flow. */
static GstFlowReturn
read_failed (IvtvReader * r, gssize n, IvtvError ** error)
{
  if (n < 0 && r->reconnect && (n == -ENODEV || n == -ENXIO)) {
    GST_WARNING_OBJECT (r->element, "%s went away after %" G_GUINT64_FORMAT
        " bytes", r->dev->path, r->offset);
    return IVTV_FLOW_DEVICE_LOST;
  }
  if (n < 0) {
    read_error (r, (gint) - n, error);
    return GST_FLOW_ERROR;
  }
  GST_DEBUG_OBJECT (r->element, "read 0 bytes: end of stream");
  return GST_FLOW_EOS;
}

/* The pool block @buf (mapped as @map) holds @n bytes: the buffer to push.
 * Little data in a big block (a paced card hands out what its DMA has,
 * often 8-32 KiB) is copied out and the block goes back: downstream queues
 * count buffers, not the memory behind them. */
static GstBuffer *
finish_buffer (IvtvReader * r, GstBuffer * buf, GstMapInfo * map, gsize n)
{
  if (n < map->size / IVTV_READ_COMPACT_RATIO) {
    GstBuffer *small = gst_buffer_new_allocate (NULL, n, NULL);

    r->n_short++;
    gst_buffer_fill (small, 0, map->data, n);
    gst_buffer_unmap (buf, map);
    gst_buffer_unref (buf);
    buf = small;
  } else {
    gst_buffer_unmap (buf, map);
    if (n < map->size) {
      r->n_short++;
      gst_buffer_resize (buf, 0, n);
    }
  }
  GST_BUFFER_OFFSET (buf) = r->offset;
  GST_BUFFER_OFFSET_END (buf) = r->offset + n;
  r->offset += n;
  r->n_buffers++;
  return buf;
}

GstFlowReturn
ivtv_read_create (IvtvReader * r, GstBuffer ** out, IvtvError ** error)
{
  GstBuffer *buf = NULL;
  GstMapInfo map;
  GstFlowReturn fret;
  gssize n;

  *out = NULL;
  if (!r->started)
    return GST_FLOW_FLUSHING;

  fret = gst_buffer_pool_acquire_buffer (r->pool, &buf, NULL);
  if (fret != GST_FLOW_OK)
    return fret;
  if (!gst_buffer_map (buf, &map, GST_MAP_WRITE)) {
    gst_buffer_unref (buf);
    IVTV_ERROR (error, RESOURCE, READ, (NULL), ("cannot map a pool buffer"));
    return GST_FLOW_ERROR;
  }

  n = read_once (r, map.data, map.size, &fret, error);
  if (fret == GST_FLOW_OK && n <= 0)
    fret = read_failed (r, n, error);
  if (fret != GST_FLOW_OK) {
    gst_buffer_unmap (buf, &map);
    gst_buffer_unref (buf);
    return fret;
  }

  r->last_data = g_get_monotonic_time ();
  r->eio_count = 0;
  ivtv_stall_data (&r->stall, r->element, r->dev);
  r->read_first = r->nonblocking && (gsize) n == map.size;
  *out = finish_buffer (r, buf, &map, n);
  GST_LOG_OBJECT (r->element, "read %" G_GSSIZE_FORMAT " bytes", n);
  return GST_FLOW_OK;
}

/* ---- as a capture path (ivtvpath.h) ---- */

typedef struct
{
  IvtvPath path;
  IvtvReader reader;
} IvtvReadPath;

static GstFlowReturn
read_path_create (IvtvPath * path, GstBuffer ** buf, IvtvError ** error)
{
  return ivtv_read_create (&((IvtvReadPath *) path)->reader, buf, error);
}

static gboolean
read_path_drain (IvtvPath * path, gint64 max_us)
{
  ivtv_read_drain (&((IvtvReadPath *) path)->reader, max_us);
  return TRUE;
}

static void
read_path_set_timeout (IvtvPath * path, guint seconds)
{
  ivtv_read_set_timeout (&((IvtvReadPath *) path)->reader, seconds);
}

static void
read_path_get_position (IvtvPath * path, IvtvPathPosition * pos)
{
  IvtvReader *r = &((IvtvReadPath *) path)->reader;

  pos->bytes = r->offset;
  pos->buffers = r->n_buffers;
  pos->next_offset = r->offset;
}

static void
read_path_resume_from (IvtvPath * path, const IvtvPathPosition * before)
{
  IvtvReader *r = &((IvtvReadPath *) path)->reader;

  r->offset = before->bytes;    /* byte offsets go on */
  r->n_buffers = before->buffers;
}

static void
read_path_free (IvtvPath * path)
{
  ivtv_read_stop (&((IvtvReadPath *) path)->reader);
  g_mutex_clear (&((IvtvReadPath *) path)->reader.io_lock);
  g_free (path);
}

static IvtvStopResult
read_path_stop_encoder (IvtvPath * path, IvtvPathStopFunc stop,
    gpointer data)
{
  return ivtv_read_stop_encoder (&((IvtvReadPath *) path)->reader, stop,
      data);
}

static const IvtvPathFuncs read_path_funcs = {
  read_path_create, read_path_drain, read_path_set_timeout,
  read_path_get_position, read_path_resume_from, read_path_free,
  NULL,                         /* set_behind: read() copies anyway */
  read_path_stop_encoder
};

IvtvPath *
ivtv_read_path_new (const IvtvPathConfig * config, GError ** error)
{
  IvtvReadPath *p = g_new0 (IvtvReadPath, 1);

  p->path.funcs = &read_path_funcs;
  p->path.mode = IVTV_IO_RW;
  ivtv_read_init (&p->reader);
  if (!ivtv_read_start (&p->reader, config->element, config->dev,
          config->poll, config->blocksize, error)) {
    g_free (p);
    return NULL;
  }
  ivtv_read_set_timeout (&p->reader, config->timeout);
  p->reader.reconnect = config->reconnect;
  return &p->path;
}
