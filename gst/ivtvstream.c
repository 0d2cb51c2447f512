/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the streaming capture path: V4L2 buffer queue, zero-copy
 * GstMemory per V4L2 buffer, requeue on release, copy threshold,
 * timestamps and dropped-frame accounting (see ivtvstream.h).
 * REQBUFS, start/stop, DQBUF and what a frame becomes; the buffers and
 * their requeueing are ivtvbufferpool's.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvstream.h"
#include "ivtvbufferpool.h"
#include "ivtvcaps.h"
#include "ivtvdebug.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <gst/allocators/allocators.h>
#include <gst/video/video.h>

#define GST_CAT_DEFAULT ivtv_debug

/* Wait this long for a frame before warning (the wait goes on). */
#define STALL_STEP (200 * GST_MSECOND)

/* poll() said "ready" within this time: the driver had a frame waiting
 * (we are behind, or the card is not paced), so the next DQBUF is tried
 * before poll(); an EAGAIN from it goes back to poll().  A card that
 * keeps up makes poll() wait most of a frame, so it costs no extra DQBUF. */
#define READY_AT_ONCE_US 500

struct _IvtvStream
{
  GstElement *element;
  IvtvDevice *dev;
  IvtvStreamMode mode;

  IvtvBufQueue *queue;          /* NULL when not started */
  GstPoll *poll;
  GstPollFD pollfd;
  GstAllocator *dmabuf_alloc;

  guint32 sizeimage;
  gint fps_n, fps_d;            /* 0/1 when unknown */
  gboolean repack;              /* driver layout != GStreamer's: copy */
  gboolean bff_std;             /* FIELD_INTERLACED of a 525-line std */
  gboolean via_libv4l2;         /* buffers are libv4l2's: always copy */
  GstVideoInfo info;            /* raw formats (repack) */
  IvtvFrameLayout layout;       /* where the driver puts the planes */

  gint64 last_sequence;         /* -1 before the first frame */
  gboolean eos_pending;         /* the driver flagged the last buffer */
  gboolean stall_warned;
  gboolean dq_first;            /* try DQBUF before poll() (see READY_AT_ONCE_US) */
  guint timeout;                /* s without a frame: warning, 2x error */
  gboolean reconnect;           /* a lost device is not an error (caller's) */
  gboolean lost;                /* ... and this stream lost it */
  gboolean shift_pending;       /* offsets go on from next_offset */
  gint64 offset_shift;          /* buffer offset - driver sequence */
  guint64 next_offset, bytes;
  guint64 frames, dropped, copied;
};

GQuark
ivtv_stream_error_quark (void)
{
  return g_quark_from_static_string ("ivtv-stream-error-quark");
}

const gchar *
ivtv_stream_mode_name (IvtvStreamMode mode)
{
  switch (mode) {
    case IVTV_STREAM_MODE_MMAP:
      return "mmap";
    case IVTV_STREAM_MODE_USERPTR:
      return "userptr";
    case IVTV_STREAM_MODE_DMABUF:
      return "dmabuf";
  }
  return "unknown";
}

static guint32
mode_memory (IvtvStreamMode mode)
{
  return mode == IVTV_STREAM_MODE_USERPTR ? V4L2_MEMORY_USERPTR :
      V4L2_MEMORY_MMAP;
}

/* ---- public API ---- */

IvtvStream *
ivtv_stream_new (GstElement * element, IvtvDevice * dev, IvtvStreamMode mode)
{
  IvtvStream *s;

  ivtv_debug_init ();

  s = g_new0 (IvtvStream, 1);
  s->timeout = IVTV_STREAM_DEFAULT_TIMEOUT;
  s->element = element;
  s->dev = dev;
  s->mode = mode;
  s->last_sequence = -1;
  gst_poll_fd_init (&s->pollfd);
  return s;
}

void
ivtv_stream_free (IvtvStream * stream)
{
  if (stream == NULL)
    return;
  ivtv_stream_stop (stream);
  g_free (stream);
}

gboolean
ivtv_stream_is_started (const IvtvStream * stream)
{
  return stream->queue != NULL;
}

IvtvStreamMode
ivtv_stream_get_mode (const IvtvStream * stream)
{
  return stream->mode;
}

void
ivtv_stream_get_stats (const IvtvStream * stream, IvtvStreamStats * stats)
{
  stats->frames = stream->frames;
  stats->dropped = stream->dropped;
  stats->copied = stream->copied;
  stats->bytes = stream->bytes;
  stats->next_offset = stream->next_offset;
  stats->n_buffers =
      stream->queue ? ivtv_buf_queue_get_size (stream->queue) : 0;
}

guint
ivtv_stream_probe_modes (IvtvDevice * dev)
{
  static const IvtvStreamMode modes[] = {
    IVTV_STREAM_MODE_MMAP, IVTV_STREAM_MODE_USERPTR
  };
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
      mask |= IVTV_STREAM_MODE_BIT (modes[i]);
      if (modes[i] == IVTV_STREAM_MODE_MMAP)
        mask |= IVTV_STREAM_MODE_BIT (IVTV_STREAM_MODE_DMABUF);
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

  memset (&fmt, 0, sizeof (fmt));
  fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  ret = ivtv_ioctl (s->dev, VIDIOC_G_FMT, &fmt);
  if (ret < 0) {
    g_set_error (error, IVTV_STREAM_ERROR, ret == -ENODEV ?
        IVTV_STREAM_ERROR_DEVICE : IVTV_STREAM_ERROR_FAILED,
        "Could not read the capture format of %s (VIDIOC_G_FMT: %s)",
        s->dev->path, g_strerror (-ret));
    return FALSE;
  }
  s->sizeimage = fmt.fmt.pix.sizeimage;
  if (s->sizeimage == 0)
    s->sizeimage = fmt.fmt.pix.bytesperline * fmt.fmt.pix.height;
  if (s->sizeimage == 0 || s->sizeimage > 256 * 1024 * 1024) {
    g_set_error (error, IVTV_STREAM_ERROR, IVTV_STREAM_ERROR_FAILED,
        "The driver of %s reports an unusable frame size of %u bytes",
        s->dev->path, s->sizeimage);
    return FALSE;
  }

  check_layout (s, &fmt.fmt.pix);

  /* V4L2_FIELD_INTERLACED: the older field depends on the standard */
  s->bff_std = FALSE;
  if (fmt.fmt.pix.field == V4L2_FIELD_INTERLACED) {
    v4l2_std_id std = 0;
    if (ivtv_ioctl (s->dev, VIDIOC_G_STD, &std) == 0
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
  GString *str = g_string_new (NULL);
  guint m = ivtv_stream_probe_modes (dev), i;

  if (ivtv_device_has_cap (dev, V4L2_CAP_READWRITE))
    g_string_append (str, "rw");
  for (i = IVTV_STREAM_MODE_MMAP; i <= IVTV_STREAM_MODE_DMABUF; i++)
    if (m & IVTV_STREAM_MODE_BIT (i))
      g_string_append_printf (str, "%s%s", str->len ? ", " : "",
          ivtv_stream_mode_name ((IvtvStreamMode) i));
  if (str->len == 0)
    g_string_append (str, "no I/O method");
  return g_string_free (str, FALSE);
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

gboolean
ivtv_stream_start (IvtvStream * s, GstPoll * poll, guint extra_buffers,
    GError ** error)
{
  struct v4l2_requestbuffers req;
  IvtvBufQueue *q;
  const gchar *what = NULL;
  const gchar *name = ivtv_stream_mode_name (s->mode);
  int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  guint i, count;
  int ret;

  g_return_val_if_fail (s->queue == NULL, FALSE);

  if (!ivtv_device_has_cap (s->dev, V4L2_CAP_STREAMING)) {
    g_set_error (error, IVTV_STREAM_ERROR, IVTV_STREAM_ERROR_UNSUPPORTED,
        "%s does not support streaming I/O (%s)", s->dev->path,
        ivtv_device_has_cap (s->dev, V4L2_CAP_READWRITE) ?
        "it offers read() only: use io-mode=rw" : "and no read() either");
    return FALSE;
  }
  if (s->mode == IVTV_STREAM_MODE_DMABUF && ivtv_device_via_libv4l2 (s->dev)) {
    /* libv4l2 may convert into its own buffers: an export would hand out
     * the unconverted frames */
    g_set_error (error, IVTV_STREAM_ERROR, IVTV_STREAM_ERROR_UNSUPPORTED,
        "dmabuf export of %s is not possible through libv4l2 "
        "(use-libv4l2=off, or io-mode=mmap)", s->dev->path);
    return FALSE;
  }
  if (!read_format (s, error))
    return FALSE;
  /* libv4l2 converts into buffers of its own, whose life it manages (its
   * close unmaps them): never hand those downstream */
  s->via_libv4l2 = ivtv_device_via_libv4l2 (s->dev);

  count = IVTV_STREAM_DEFAULT_BUFFERS + MIN (extra_buffers,
      IVTV_STREAM_MAX_BUFFERS);
  count = MIN (count, IVTV_STREAM_MAX_BUFFERS);
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
        "%s refused %s streaming (VIDIOC_REQBUFS: %s)%s; it offers: %s",
        s->dev->path, name, g_strerror (-ret), ret == -EBUSY ?
        "; another application (or buffers of an earlier capture still "
        "held downstream) may be using it" : "", offered);
    g_free (offered);
    return FALSE;
  }
  if (req.count == 0) {
    g_set_error (error, IVTV_STREAM_ERROR, IVTV_STREAM_ERROR_FAILED,
        "%s gave no buffers for %s streaming (VIDIOC_REQBUFS count 0)",
        s->dev->path, name);
    return FALSE;
  }
  if (req.count > IVTV_STREAM_MAX_BUFFERS) {
    g_set_error (error, IVTV_STREAM_ERROR, IVTV_STREAM_ERROR_FAILED,
        "%s wants %u buffers for %s streaming, more than the %u allowed",
        s->dev->path, req.count, name, IVTV_STREAM_MAX_BUFFERS);
    free_driver_buffers (s->dev, req.memory);
    return FALSE;
  }
  GST_DEBUG_OBJECT (s->element, "%s: %u buffers of %u bytes", name,
      req.count, s->sizeimage);

  q = ivtv_buf_queue_new (s->dev, req.memory, req.count);
  if (s->mode == IVTV_STREAM_MODE_DMABUF && s->dmabuf_alloc == NULL)
    s->dmabuf_alloc = gst_dmabuf_allocator_new ();

  for (i = 0; i < req.count; i++) {
    ret = ivtv_buf_queue_setup (q, i, s->sizeimage,
        s->mode == IVTV_STREAM_MODE_DMABUF ? s->dmabuf_alloc : NULL, &what);
    if (ret < 0)
      goto slot_failed;
  }
  ret = ivtv_buf_queue_qbuf_all (q);
  if (ret < 0) {
    what = "VIDIOC_QBUF";
    goto slot_failed;
  }

  ret = ivtv_ioctl (s->dev, VIDIOC_STREAMON, &type);
  if (ret < 0) {
    what = "VIDIOC_STREAMON";
    goto slot_failed;
  }

  s->queue = q;
  s->poll = poll;
  s->pollfd.fd = s->dev->fd;
  gst_poll_add_fd (poll, &s->pollfd);
  gst_poll_fd_ctl_read (poll, &s->pollfd, TRUE);
  s->last_sequence = -1;
  s->eos_pending = FALSE;
  s->stall_warned = FALSE;
  s->dq_first = FALSE;
  s->lost = s->shift_pending = FALSE;
  s->offset_shift = 0;
  s->frames = s->dropped = s->copied = s->bytes = s->next_offset = 0;
  return TRUE;

slot_failed:
  {
    IvtvStreamError code = classify (ret);

    if (s->mode == IVTV_STREAM_MODE_DMABUF && (ret == -EINVAL
            || ret == -ENOTTY) && g_str_equal (what, "VIDIOC_EXPBUF"))
      code = IVTV_STREAM_ERROR_UNSUPPORTED;
    g_set_error (error, IVTV_STREAM_ERROR, code,
        "Could not start %s streaming on %s (%s: %s)", name, s->dev->path,
        what, g_strerror (-ret));
    ivtv_buf_queue_deactivate (q, TRUE);
    free_driver_buffers (s->dev, req.memory);
    ivtv_buf_queue_unref (q);
    return FALSE;
  }
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

/* ---- capture ---- */

static GstClockTime
timeval_to_time (const struct timeval *tv)
{
  return (GstClockTime) tv->tv_sec * GST_SECOND +
      (GstClockTime) tv->tv_usec * GST_USECOND;
}

static GstClockTime
monotonic_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return GST_TIMESPEC_TO_TIME (ts);
}

/* Running time at which the frame of @b was captured. */
static GstClockTime
frame_timestamp (IvtvStream * s, const struct v4l2_buffer *b)
{
  GstClock *clock;
  GstClockTime base, now, age = 0;

  GST_OBJECT_LOCK (s->element);
  clock = GST_ELEMENT_CLOCK (s->element);
  if (clock)
    gst_object_ref (clock);
  base = GST_ELEMENT_CAST (s->element)->base_time;
  GST_OBJECT_UNLOCK (s->element);
  if (clock == NULL)
    return GST_CLOCK_TIME_NONE;

  now = gst_clock_get_time (clock);
  gst_object_unref (clock);

  if ((b->flags & V4L2_BUF_FLAG_TIMESTAMP_MASK) ==
      V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC && (b->timestamp.tv_sec != 0
          || b->timestamp.tv_usec != 0)) {
    GstClockTime captured = timeval_to_time (&b->timestamp);
    GstClockTime mono = monotonic_now ();
    if (mono > captured)
      age = mono - captured;
  }
  if (now < base + age)
    return 0;
  return now - base - age;
}

static void
post_dropped (IvtvStream * s, guint64 lost, GstClockTime ts, GstClockTime dur)
{
  GstMessage *msg;

  GST_INFO_OBJECT (s->element, "%" G_GUINT64_FORMAT " frames lost (total %"
      G_GUINT64_FORMAT ")", lost, s->dropped);
  msg = gst_message_new_qos (GST_OBJECT_CAST (s->element), TRUE, ts,
      GST_CLOCK_TIME_NONE, ts, GST_CLOCK_TIME_IS_VALID (dur) ?
      dur * lost : GST_CLOCK_TIME_NONE);
  gst_message_set_qos_values (msg, 0, 1.0, 1000000);
  gst_message_set_qos_stats (msg, GST_FORMAT_BUFFERS, s->frames, s->dropped);
  gst_element_post_message (s->element, msg);
}

static GstFlowReturn
post_error (IvtvStream * s, int err, const gchar * what)
{
  if (err == -ENODEV || err == -ENXIO)
    GST_ELEMENT_ERROR (s->element, RESOURCE, READ,
        ("The device %s was disconnected.", s->dev->path),
        ("%s: %s", what, g_strerror (-err)));
  else
    GST_ELEMENT_ERROR (s->element, RESOURCE, READ,
        ("Could not capture from %s.", s->dev->path),
        ("%s: %s", what, g_strerror (-err)));
  return GST_FLOW_ERROR;
}

/* Waits until the device has a frame (or reports an error: *poll_error,
 * the DQBUF that follows says which): GST_FLOW_OK, FLUSHING or ERROR. */
static GstFlowReturn
wait_frame (IvtvStream * s, gboolean * poll_error)
{
  gint64 since = g_get_monotonic_time ();  /* not held up downstream */

  *poll_error = FALSE;
  for (;;) {
    guint timeout = (guint) g_atomic_int_get ((gint *) & s->timeout);
    gint64 idle = g_get_monotonic_time () - since;
    gint ret;

    /* stalls are measured from the last frame, not per poll() */
    if (timeout > 0 && idle >= 2 * (gint64) timeout * G_USEC_PER_SEC) {
      GST_ELEMENT_ERROR (s->element, RESOURCE, READ,
          ("%s has sent no frame for %u seconds: giving up.", s->dev->path,
              2 * timeout), ("%" G_GUINT64_FORMAT " frames so far",
              s->frames));
      return GST_FLOW_ERROR;
    }
    if (timeout > 0 && idle >= (gint64) timeout * G_USEC_PER_SEC
        && !s->stall_warned) {
      GST_ELEMENT_WARNING (s->element, RESOURCE, READ,
          ("%s has sent no frame for %u seconds (giving up after %u).",
              s->dev->path, timeout, 2 * timeout),
          ("still waiting; %" G_GUINT64_FORMAT " frames so far", s->frames));
      s->stall_warned = TRUE;
    }
    ret = gst_poll_wait (s->poll, STALL_STEP);

    if (ret < 0) {
      if (errno == EBUSY)
        return GST_FLOW_FLUSHING;
      if (errno == EINTR || errno == EAGAIN)
        continue;
      return post_error (s, -errno, "poll");
    }
    if (ret == 0)
      continue;
    if (gst_poll_fd_can_read (s->poll, &s->pollfd))
      return GST_FLOW_OK;
    if (gst_poll_fd_has_error (s->poll, &s->pollfd)
        || gst_poll_fd_has_closed (s->poll, &s->pollfd)) {
      *poll_error = TRUE;
      return GST_FLOW_OK;
    }
  }
}

GstFlowReturn
ivtv_stream_create (IvtvStream * s, GstBuffer ** buf)
{
  IvtvBufQueue *q = s->queue;
  struct v4l2_buffer b;
  GstMemory *mem;
  GstBuffer *out;
  GstClockTime ts, dur = GST_CLOCK_TIME_NONE;
  guint queued;
  GstFlowReturn fret;
  gboolean poll_error;
  int ret;

  g_return_val_if_fail (q != NULL, GST_FLOW_ERROR);

  if (s->eos_pending)
    return GST_FLOW_EOS;

again:
  poll_error = FALSE;
  if (!s->dq_first) {
    gint64 t0 = g_get_monotonic_time ();

    fret = wait_frame (s, &poll_error);
    if (fret != GST_FLOW_OK)
      return fret;
    s->dq_first = !poll_error
        && g_get_monotonic_time () - t0 < READY_AT_ONCE_US;
  }

  memset (&b, 0, sizeof (b));
  b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  b.memory = ivtv_buf_queue_get_memory (q);
  ret = ivtv_ioctl (s->dev, VIDIOC_DQBUF, &b);
  if (ret == -EAGAIN && poll_error)
    return post_error (s, -EIO, "poll (the device reported an error)");
  if (ret == -EAGAIN) {
    s->dq_first = FALSE;
    goto again;
  }
  if (ret == -EPIPE)
    return GST_FLOW_EOS;
  if ((ret == -ENODEV || ret == -ENXIO) && s->reconnect) {
    GST_INFO_OBJECT (s->element, "%s went away after %" G_GUINT64_FORMAT
        " frames", s->dev->path, s->frames);
    s->lost = TRUE;
    return GST_FLOW_CUSTOM_ERROR;
  }
  if (ret < 0)
    return post_error (s, ret, "VIDIOC_DQBUF");

  mem = ivtv_buf_queue_take (q, b.index, &queued);
  if (mem == NULL) {
    GST_ELEMENT_ERROR (s->element, RESOURCE, READ,
        ("The driver of %s returned an invalid buffer.", s->dev->path),
        ("VIDIOC_DQBUF gave index %u, not one of the %u queued buffers",
            b.index, ivtv_buf_queue_get_size (q)));
    return GST_FLOW_ERROR;
  }

  if (s->fps_n > 0)
    dur = gst_util_uint64_scale_int (GST_SECOND, s->fps_d, s->fps_n);
  ts = frame_timestamp (s, &b);

  if (s->last_sequence >= 0 && b.sequence > s->last_sequence + 1) {
    guint64 lost = b.sequence - s->last_sequence - 1;
    s->dropped += lost;
    post_dropped (s, lost, ts, dur);
  }
  s->last_sequence = b.sequence;

  if (b.flags & V4L2_BUF_FLAG_LAST)
    s->eos_pending = TRUE;

  if ((b.flags & V4L2_BUF_FLAG_ERROR) || b.bytesused == 0
      || b.bytesused > mem->maxsize
      || (s->repack && b.bytesused < s->layout.size)) {
    GST_WARNING_OBJECT (s->element, "dropping buffer %u: %s (%u bytes)",
        b.index, (b.flags & V4L2_BUF_FLAG_ERROR) ? "error flag" :
        "bad payload size", b.bytesused);
    s->dropped++;
    gst_memory_unref (mem);     /* back to the driver */
    if (s->eos_pending)
      return GST_FLOW_EOS;
    goto again;
  }

  mem->offset = 0;
  mem->size = b.bytesused;

  if (queued < IVTV_STREAM_MIN_QUEUED || s->repack || s->via_libv4l2) {
    out = ivtv_layout_copy_frame (mem, b.bytesused,
        s->repack ? &s->info : NULL, &s->layout);
    gst_memory_unref (mem);     /* requeued at once */
    if (out == NULL)
      return post_error (s, -ENOMEM, "copying a frame");
    s->copied++;
    GST_LOG_OBJECT (s->element, "copied frame %u (%u buffers queued%s)",
        b.sequence, queued, s->repack ? ", repacked" : "");
  } else {
    out = gst_buffer_new ();
    gst_buffer_append_memory (out, mem);
  }

  GST_BUFFER_PTS (out) = ts;
  GST_BUFFER_DTS (out) = GST_CLOCK_TIME_NONE;
  GST_BUFFER_DURATION (out) = dur;
  if (s->shift_pending) {
    s->offset_shift = (gint64) s->next_offset - (gint64) b.sequence;
    s->shift_pending = FALSE;
  }
  GST_BUFFER_OFFSET (out) = (guint64) ((gint64) b.sequence + s->offset_shift);
  GST_BUFFER_OFFSET_END (out) = GST_BUFFER_OFFSET (out) + 1;
  s->next_offset = GST_BUFFER_OFFSET_END (out);
  s->bytes += b.bytesused;
  switch (b.field) {
    case V4L2_FIELD_INTERLACED:
      /* the order is the standard's: bottom field first on 525 lines */
      if (!s->bff_std)
        GST_BUFFER_FLAG_SET (out, GST_VIDEO_BUFFER_FLAG_TFF);
      GST_BUFFER_FLAG_SET (out, GST_VIDEO_BUFFER_FLAG_INTERLACED);
      break;
    case V4L2_FIELD_INTERLACED_TB:
      GST_BUFFER_FLAG_SET (out, GST_VIDEO_BUFFER_FLAG_TFF);
      /* fall through */
    case V4L2_FIELD_INTERLACED_BT:
      GST_BUFFER_FLAG_SET (out, GST_VIDEO_BUFFER_FLAG_INTERLACED);
      break;
    default:
      break;
  }
  if (s->frames == 0)
    GST_BUFFER_FLAG_SET (out, GST_BUFFER_FLAG_DISCONT);
  s->frames++;
  s->stall_warned = FALSE;
  *buf = out;
  return GST_FLOW_OK;
}

void
ivtv_stream_set_timeout (IvtvStream * s, guint seconds)
{
  g_atomic_int_set ((gint *) & s->timeout, (gint) seconds);
}

void
ivtv_stream_set_reconnect (IvtvStream * s, gboolean reconnect)
{
  s->reconnect = reconnect;
}

gboolean
ivtv_stream_is_lost (const IvtvStream * s)
{
  return s->lost;
}

void
ivtv_stream_continue (IvtvStream * s, const IvtvStreamStats * before)
{
  s->next_offset = before->next_offset;
  s->bytes = before->bytes;
  s->frames = before->frames;
  s->dropped = before->dropped;
  s->copied = before->copied;
  s->shift_pending = TRUE;
}
