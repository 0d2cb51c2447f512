/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the streaming path's setup: which memory types the driver
 * offers, the format and frame rate read back, REQBUFS, queueing every
 * buffer and STREAMON (ivtv_stream_start), STREAMOFF and freeing the
 * driver's buffers (ivtv_stream_stop).  The capture itself is
 * ivtvstream.c's; the state both share is ivtvstreampriv.h's.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvstreampriv.h"
#include "ivtvcaps.h"
#include "ivtvdebug.h"

#include <errno.h>
#include <string.h>
#include <gst/allocators/allocators.h>

#define GST_CAT_DEFAULT ivtv_debug

static guint32
mode_memory (IvtvIoMode mode)
{
  return mode == IVTV_IO_USERPTR ? V4L2_MEMORY_USERPTR :
      V4L2_MEMORY_MMAP;
}

guint
ivtv_stream_probe_modes (IvtvDevice * dev)
{
  static const IvtvIoMode modes[] = { IVTV_IO_MMAP, IVTV_IO_USERPTR };
  guint i, mask = 0;

  if (!ivtv_device_has_cap (dev, V4L2_CAP_STREAMING))
    return 0;

  for (i = 0; i < G_N_ELEMENTS (modes); i++) {
    struct v4l2_requestbuffers req;
    int ret;

    memset (&req, 0, sizeof (req));
    req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    req.memory = mode_memory (modes[i]);
    req.count = 0;
    ret = ivtv_ioctl (dev, VIDIOC_REQBUFS, &req);
    /* EBUSY: another queue owner; the memory type itself is fine */
    if (ret == 0 || ret == -EBUSY) {
      mask |= IVTV_IO_BIT (modes[i]);
      if (modes[i] == IVTV_IO_MMAP)
        mask |= IVTV_IO_BIT (IVTV_IO_DMABUF);
    }
  }
  return mask;
}

/* Raw formats: does the driver's layout need repacking? */
static void
check_layout (IvtvStream * s, const struct v4l2_pix_format *pix)
{
  const IvtvFormatMap *m = ivtv_caps_lookup_fourcc (pix->pixelformat);

  s->repack = FALSE;
  if (m == NULL || m->format == GST_VIDEO_FORMAT_UNKNOWN
      || pix->width == 0 || pix->height == 0 || pix->width > 32768
      || pix->height > 32768)
    return;
  if (!gst_video_info_set_format (&s->info, m->format, pix->width,
          pix->height))
    return;
  s->repack = ivtv_layout_from_driver (&s->info, pix->bytesperline,
      &s->layout);
  if (s->repack)
    GST_INFO_OBJECT (s->element, "the driver's lines are %u bytes, "
        "GStreamer's %d: frames are copied into GStreamer's layout",
        pix->bytesperline, GST_VIDEO_INFO_PLANE_STRIDE (&s->info, 0));
}

static gboolean
read_format (IvtvStream * s, GError ** error)
{
  struct v4l2_format fmt;
  struct v4l2_streamparm parm;
  int ret;

  ret = ivtv_device_get_format (s->dev, &fmt);
  if (ret < 0) {
    g_set_error (error, IVTV_STREAM_ERROR, ret == -ENODEV ?
        IVTV_STREAM_ERROR_DEVICE : IVTV_STREAM_ERROR_FAILED,
        _("Could not read the capture format of %s (VIDIOC_G_FMT: %s)"),
        s->dev->path, g_strerror (-ret));
    return FALSE;
  }
  s->sizeimage = fmt.fmt.pix.sizeimage;
  if (s->sizeimage == 0)
    s->sizeimage = fmt.fmt.pix.bytesperline * fmt.fmt.pix.height;
  if (s->sizeimage == 0 || s->sizeimage > 256 * 1024 * 1024) {
    g_set_error (error, IVTV_STREAM_ERROR, IVTV_STREAM_ERROR_FAILED,
        _("The driver of %s reports an unusable frame size of %u bytes"),
        s->dev->path, s->sizeimage);
    return FALSE;
  }

  check_layout (s, &fmt.fmt.pix);

  /* V4L2_FIELD_INTERLACED: the older field depends on the standard; a node
   * with a TV standard delivers at the standard's fixed rate (a webcam may
   * slow down in the dark, uvcvideo's auto exposure: no standard) */
  s->bff_std = FALSE;
  {
    v4l2_std_id std = 0;
    s->fixed_rate = ivtv_ioctl (s->dev, VIDIOC_G_STD, &std) == 0 && std != 0;
    if (fmt.fmt.pix.field == V4L2_FIELD_INTERLACED && s->fixed_rate
        && (std & V4L2_STD_525_60) && !(std & V4L2_STD_625_50))
      s->bff_std = TRUE;
  }

  s->fps_n = 0;
  s->fps_d = 1;
  memset (&parm, 0, sizeof (parm));
  parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  if (ivtv_ioctl (s->dev, VIDIOC_G_PARM, &parm) == 0) {
    struct v4l2_fract *tpf = &parm.parm.capture.timeperframe;
    if (tpf->numerator > 0 && tpf->denominator > 0
        && tpf->denominator <= G_MAXINT && tpf->numerator <= G_MAXINT) {
      s->fps_n = tpf->denominator;
      s->fps_d = tpf->numerator;
    }
  }
  return TRUE;
}

/* "rw, mmap, userptr, dmabuf": what the device accepts right now. */
static gchar *
offered_modes (IvtvDevice * dev)
{
  return ivtv_io_mode_describe (dev->device_caps,
      ivtv_stream_probe_modes (dev));
}

static IvtvStreamError
classify (int err)
{
  switch (err) {
    case -ENODEV:
    case -ENXIO:
      return IVTV_STREAM_ERROR_DEVICE;
    default:
      return IVTV_STREAM_ERROR_FAILED;
  }
}

static void
free_driver_buffers (IvtvDevice * dev, guint32 memory)
{
  struct v4l2_requestbuffers req;
  int ret;

  memset (&req, 0, sizeof (req));
  req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  req.memory = memory;
  req.count = 0;
  ret = ivtv_ioctl (dev, VIDIOC_REQBUFS, &req);
  if (ret < 0)
    GST_DEBUG ("REQBUFS 0: %s (buffers are freed when the device closes)",
        g_strerror (-ret));
}

/* Can this device stream in this mode at all? */
static gboolean
check_can_stream (IvtvStream * s, GError ** error)
{
  if (!ivtv_device_has_cap (s->dev, V4L2_CAP_STREAMING)) {
    g_set_error (error, IVTV_STREAM_ERROR, IVTV_STREAM_ERROR_UNSUPPORTED,
        _("%s does not support streaming I/O (%s)"), s->dev->path,
        ivtv_device_has_cap (s->dev, V4L2_CAP_READWRITE) ?
        "it offers read() only: use io-mode=rw" : "and no read() either");
    return FALSE;
  }
  if (s->mode == IVTV_IO_DMABUF && ivtv_device_via_libv4l2 (s->dev)) {
    /* libv4l2 may convert into its own buffers: an export would hand out
     * the unconverted frames */
    g_set_error (error, IVTV_STREAM_ERROR, IVTV_STREAM_ERROR_UNSUPPORTED,
        _("dmabuf export of %s is not possible through libv4l2 "
        "(use-libv4l2=off, or io-mode=mmap)"), s->dev->path);
    return FALSE;
  }
  return TRUE;
}

/* REQBUFS @count buffers: the number the driver gave, 0 with @error. */
static guint
request_buffers (IvtvStream * s, guint count, GError ** error)
{
  const gchar *name = ivtv_io_mode_nick (s->mode);
  struct v4l2_requestbuffers req;
  int ret;

  memset (&req, 0, sizeof (req));
  req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  req.memory = mode_memory (s->mode);
  req.count = count;
  ret = ivtv_ioctl (s->dev, VIDIOC_REQBUFS, &req);
  if (ret < 0) {
    IvtvStreamError code = classify (ret);
    gchar *offered = offered_modes (s->dev);

    if (ret == -EINVAL || ret == -ENOTTY)
      code = IVTV_STREAM_ERROR_UNSUPPORTED;
    g_set_error (error, IVTV_STREAM_ERROR, code,
        _("%s refused %s streaming (VIDIOC_REQBUFS: %s)%s; it offers: %s"),
        s->dev->path, name, g_strerror (-ret), ret == -EBUSY ?
        "; another application (or buffers of an earlier capture still "
        "held downstream) may be using it" : "", offered);
    g_free (offered);
    return 0;
  }
  if (req.count == 0) {
    g_set_error (error, IVTV_STREAM_ERROR, IVTV_STREAM_ERROR_FAILED,
        _("%s gave no buffers for %s streaming (VIDIOC_REQBUFS count 0)"),
        s->dev->path, name);
    return 0;
  }
  if (req.count > IVTV_STREAM_MAX_BUFFERS) {
    g_set_error (error, IVTV_STREAM_ERROR, IVTV_STREAM_ERROR_FAILED,
        _("%s wants %u buffers for %s streaming, more than the %u allowed"),
        s->dev->path, req.count, name, IVTV_STREAM_MAX_BUFFERS);
    free_driver_buffers (s->dev, req.memory);
    return 0;
  }
  GST_DEBUG_OBJECT (s->element, "%s: %u buffers of %u bytes", name,
      req.count, s->sizeimage);
  return req.count;
}

/* Map/export/allocate @count buffers, queue them all, STREAMON.  The
 * queue, or NULL with @error (everything undone). */
static IvtvBufQueue *
queue_and_stream_on (IvtvStream * s, guint count, GError ** error)
{
  guint32 memory = mode_memory (s->mode);
  IvtvBufQueue *q = ivtv_buf_queue_new (s->dev, memory, count);
  const gchar *what = NULL;
  int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  IvtvStreamError code;
  guint i;
  int ret = 0;

  if (s->mode == IVTV_IO_DMABUF && s->dmabuf_alloc == NULL)
    s->dmabuf_alloc = gst_dmabuf_allocator_new ();
  for (i = 0; i < count && ret >= 0; i++)
    ret = ivtv_buf_queue_setup (q, i, s->sizeimage,
        s->mode == IVTV_IO_DMABUF ? s->dmabuf_alloc : NULL, &what);
  if (ret >= 0 && (ret = ivtv_buf_queue_qbuf_all (q)) < 0)
    what = "VIDIOC_QBUF";
  if (ret >= 0 && (ret = ivtv_ioctl (s->dev, VIDIOC_STREAMON, &type)) < 0)
    what = "VIDIOC_STREAMON";
  if (ret >= 0)
    return q;

  code = classify (ret);
  if (s->mode == IVTV_IO_DMABUF && (ret == -EINVAL || ret == -ENOTTY)
      && g_str_equal (what, "VIDIOC_EXPBUF"))
    code = IVTV_STREAM_ERROR_UNSUPPORTED;
  g_set_error (error, IVTV_STREAM_ERROR, code,
      _("Could not start %s streaming on %s (%s: %s)"),
      ivtv_io_mode_nick (s->mode), s->dev->path, what, g_strerror (-ret));
  ivtv_buf_queue_deactivate (q, TRUE);
  free_driver_buffers (s->dev, memory);
  ivtv_buf_queue_unref (q);
  return NULL;
}

gboolean
ivtv_stream_start (IvtvStream * s, GstPoll * poll, guint extra_buffers,
    GError ** error)
{
  guint count;

  g_return_val_if_fail (s->queue == NULL, FALSE);

  if (!check_can_stream (s, error) || !read_format (s, error))
    return FALSE;
  /* libv4l2 converts into buffers of its own, whose life it manages (its
   * close unmaps them): never hand those downstream */
  s->via_libv4l2 = ivtv_device_via_libv4l2 (s->dev);

  count = IVTV_STREAM_DEFAULT_BUFFERS + MIN (extra_buffers,
      IVTV_STREAM_MAX_BUFFERS);
  count = request_buffers (s, MIN (count, IVTV_STREAM_MAX_BUFFERS), error);
  if (count == 0 || (s->queue = queue_and_stream_on (s, count, error)) == NULL)
    return FALSE;

  s->poll = poll;
  s->pollfd.fd = s->dev->fd;
  gst_poll_add_fd (poll, &s->pollfd);
  gst_poll_fd_ctl_read (poll, &s->pollfd, TRUE);
  s->last_sequence = -1;
  s->eos_pending = FALSE;
  s->stall.warned = FALSE;
  s->dq_first = FALSE;
  s->shift_pending = FALSE;
  s->offset_shift = 0;
  s->frames = s->dropped = s->copied = s->bytes = s->next_offset = 0;
  s->discont = FALSE;
  /* frames lost by their times only at a TV standard's fixed rate */
  ivtv_frame_gap_init (&s->gap, IVTV_FRAME_GAP_CAPTURE, s->fps_n > 0
      && s->fixed_rate ? gst_util_uint64_scale_int (GST_SECOND, s->fps_d,
          s->fps_n) : GST_CLOCK_TIME_NONE);
  return TRUE;
}

void
ivtv_stream_stop (IvtvStream * s)
{
  IvtvBufQueue *q = s->queue;
  guint out;

  if (q == NULL)
    goto done;

  /* STREAMOFF; no requeue from dispose after this */
  out = ivtv_buf_queue_deactivate (q, TRUE);
  if (out > 0)
    GST_DEBUG_OBJECT (s->element, "%u buffers still downstream", out);
  /* even with buffers out: drivers with V4L2_BUF_CAP_SUPPORTS_ORPHANED_BUFS
   * free the queue and keep the mappings valid; others say EBUSY and free
   * it when the device is closed */
  free_driver_buffers (s->dev, ivtv_buf_queue_get_memory (q));
  s->queue = NULL;
  ivtv_buf_queue_unref (q);
  if (s->poll) {
    /* the node may be closed next (reconnect): a closed fd in the poll
     * would make every wait on it return at once */
    gst_poll_remove_fd (s->poll, &s->pollfd);
    s->poll = NULL;
  }

done:
  if (s->dmabuf_alloc) {
    gst_object_unref (s->dmabuf_alloc);
    s->dmabuf_alloc = NULL;
  }
}
