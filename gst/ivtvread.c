/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the read() capture path (see ivtvread.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvread.h"
#include "ivtvdebug.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <string.h>

#define GST_CAT_DEFAULT ivtv_debug

void
ivtv_read_init (IvtvReader * r)
{
  memset (r, 0, sizeof (*r));
  gst_poll_fd_init (&r->pfd);
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
  r->stall_warned = FALSE;
  r->last_data = g_get_monotonic_time ();
  r->eio_count = 0;
  r->lost = FALSE;
  g_atomic_int_set (&r->drain, 0);
  r->read_first = FALSE;
  {
    int fl = fcntl (dev->fd, F_GETFL);
    r->nonblocking = fl >= 0 && (fl & O_NONBLOCK);
  }

  r->pool = gst_buffer_pool_new ();
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
        "Cannot allocate read buffers of %u bytes", r->blocksize);
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
  g_atomic_int_set ((gint *) & r->timeout, (gint) seconds);
}

void
ivtv_read_drain (IvtvReader * r, gint64 max_us)
{
  r->drain_start = g_get_monotonic_time ();
  r->drain_deadline = r->drain_start + max_us;
  g_atomic_int_set (&r->drain, 1);
}

/* a read that fills less than 1/8 of its pool block is copied out */
#define IVTV_READ_COMPACT_RATIO 8

#define WAIT_STEP_US (200 * G_TIME_SPAN_MILLISECOND)
#define IVTV_READ_DRAIN_IDLE_US (500 * G_TIME_SPAN_MILLISECOND)

/* Wait until the device is readable.  GST_FLOW_OK when it is; EOS when a
 * drain ran out of time; ERROR (posted) after 2 x timeout without data
 * since @since (when create() began waiting: a streaming thread held up
 * downstream never counts as a stall). */
static GstFlowReturn
wait_readable (IvtvReader * r, gint64 since)
{
  for (;;) {
    gint64 now = g_get_monotonic_time (), wait = WAIT_STEP_US;
    guint timeout = (guint) g_atomic_int_get ((gint *) & r->timeout);
    gint ret;

    if (g_atomic_int_get (&r->drain)) {
      /* a GOP is about half a second: no data for that long while
       * draining means the driver will not end the stream */
      gint64 end = MIN (r->drain_deadline,
          MAX (r->last_data, r->drain_start) + IVTV_READ_DRAIN_IDLE_US);

      if (now >= end) {
        GST_INFO_OBJECT (r->element, "the driver did not end the stream "
            "in time: ending it here");
        return GST_FLOW_EOS;
      }
      wait = MIN (wait, end - now);
    } else if (timeout > 0) {
      gint64 idle = now - since, limit = timeout * G_USEC_PER_SEC;

      if (idle >= 2 * limit) {
        GST_ELEMENT_ERROR (r->element, RESOURCE, READ,
            ("No data from %s for %u seconds: the encoder or its driver "
                "hangs; giving up.", r->dev->path, 2 * timeout),
            ("poll() saw no data for %" G_GINT64_FORMAT " ms (timeout=%u)",
                idle / 1000, timeout));
        return GST_FLOW_ERROR;
      }
      if (idle >= limit && !r->stall_warned) {
        GST_ELEMENT_WARNING (r->element, RESOURCE, READ,
            ("No data from %s for %u seconds: the encoder seems stalled "
                "(giving up after %u seconds).", r->dev->path, timeout,
                2 * timeout), ("still waiting (timeout=%u)", timeout));
        r->stall_warned = TRUE;
      }
    }

    ret = gst_poll_wait (r->poll, wait * GST_USECOND);
    if (ret > 0)
      return GST_FLOW_OK;
    if (ret == 0)
      continue;
    if (errno == EBUSY)
      return GST_FLOW_FLUSHING;
    if (errno == EINTR || errno == EAGAIN)
      continue;
    GST_ELEMENT_ERROR (r->element, RESOURCE, READ,
        ("Waiting for data from %s failed.", r->dev->path),
        ("poll: %s", g_strerror (errno)));
    return GST_FLOW_ERROR;
  }
}

static void
post_read_error (IvtvReader * r, gint err)
{
  switch (err) {
    case ENODEV:
    case ENXIO:
      GST_ELEMENT_ERROR (r->element, RESOURCE, READ,
          ("The device %s went away (unplugged or driver unloaded).",
              r->dev->path), ("read: %s", g_strerror (err)));
      break;
    case EIO:
      GST_ELEMENT_ERROR (r->element, RESOURCE, READ,
          ("The device %s reported an I/O error %u times in a row; the card "
              "or its driver is in trouble.", r->dev->path,
              IVTV_READ_EIO_RETRIES + 1), ("read: %s", g_strerror (err)));
      break;
    case EBUSY:
      GST_ELEMENT_ERROR (r->element, RESOURCE, BUSY,
          ("%s is busy: another program is already capturing from it.",
              r->dev->path), ("read: %s", g_strerror (err)));
      break;
    case EINVAL:
      GST_ELEMENT_ERROR (r->element, RESOURCE, READ,
          ("%s refused read(): it may not support read() capture (try "
              "io-mode=mmap).", r->dev->path), ("read: %s", g_strerror (err)));
      break;
    default:
      GST_ELEMENT_ERROR (r->element, RESOURCE, READ,
          ("Could not read from %s.", r->dev->path),
          ("read on file descriptor: %s.", g_strerror (err)));
      break;
  }
}

GstFlowReturn
ivtv_read_create (IvtvReader * r, GstBuffer ** out)
{
  GstBuffer *buf = NULL;
  GstMapInfo map;
  GstFlowReturn fret;
  gssize n;
  gint64 since;

  *out = NULL;
  if (!r->started)
    return GST_FLOW_FLUSHING;

  fret = gst_buffer_pool_acquire_buffer (r->pool, &buf, NULL);
  if (fret != GST_FLOW_OK)
    return fret;
  if (!gst_buffer_map (buf, &map, GST_MAP_WRITE)) {
    gst_buffer_unref (buf);
    GST_ELEMENT_ERROR (r->element, RESOURCE, READ, (NULL),
        ("cannot map a pool buffer"));
    return GST_FLOW_ERROR;
  }

  since = g_get_monotonic_time ();
  for (;;) {
    if (!r->read_first) {
      fret = wait_readable (r, since);
      if (fret != GST_FLOW_OK)
        goto done;
    }
    r->read_first = FALSE;      /* EAGAIN/EINTR: poll again */
    n = ivtv_device_read (r->dev, map.data, map.size);
    if (n == -EAGAIN || n == -EINTR)
      continue;
    if (n == -EIO && r->eio_count < IVTV_READ_EIO_RETRIES) {
      if (r->eio_count++ == 0)
        GST_ELEMENT_WARNING (r->element, RESOURCE, READ,
            ("The device %s reported an I/O error; retrying.", r->dev->path),
            ("read: %s (retry %u of %u)", g_strerror (EIO), r->eio_count,
                IVTV_READ_EIO_RETRIES));
      g_usleep (100 * G_TIME_SPAN_MILLISECOND);
      continue;
    }
    break;
  }

  if (n < 0 && r->reconnect && (n == -ENODEV || n == -ENXIO)) {
    GST_WARNING_OBJECT (r->element, "%s went away after %" G_GUINT64_FORMAT
        " bytes", r->dev->path, r->offset);
    r->lost = TRUE;
    fret = GST_FLOW_CUSTOM_ERROR;
    goto done;
  }
  if (n < 0) {
    post_read_error (r, (gint) - n);
    fret = GST_FLOW_ERROR;
    goto done;
  }
  if (n == 0) {
    GST_DEBUG_OBJECT (r->element, "read 0 bytes: end of stream");
    fret = GST_FLOW_EOS;
    goto done;
  }

  r->last_data = g_get_monotonic_time ();
  r->eio_count = 0;
  if (r->stall_warned) {
    GST_ELEMENT_INFO (r->element, RESOURCE, READ,
        ("Data from %s flows again.", r->dev->path), (NULL));
    r->stall_warned = FALSE;
  }
  r->read_first = r->nonblocking && (gsize) n == map.size;
  if ((gsize) n < map.size / IVTV_READ_COMPACT_RATIO) {
    /* little data in a big pool block (a paced card hands out what its
     * DMA has, often 8-32 KiB): downstream queues count buffers, not the
     * memory behind them, so copy the data out and give the block back */
    GstBuffer *small = gst_buffer_new_allocate (NULL, n, NULL);

    r->n_short++;
    gst_buffer_fill (small, 0, map.data, n);
    gst_buffer_unmap (buf, &map);
    gst_buffer_unref (buf);
    buf = small;
  } else {
    gst_buffer_unmap (buf, &map);
    if ((gsize) n < map.size) {
      r->n_short++;
      gst_buffer_resize (buf, 0, n);
    }
  }
  GST_BUFFER_OFFSET (buf) = r->offset;
  GST_BUFFER_OFFSET_END (buf) = r->offset + n;
  r->offset += n;
  r->n_buffers++;
  GST_LOG_OBJECT (r->element, "read %" G_GSSIZE_FORMAT " bytes", n);
  *out = buf;
  return GST_FLOW_OK;

done:
  gst_buffer_unmap (buf, &map);
  gst_buffer_unref (buf);
  return fret;
}
