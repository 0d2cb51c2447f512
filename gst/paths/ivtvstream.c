/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the streaming capture path: V4L2 buffer queue, zero-copy
 * GstMemory per V4L2 buffer, requeue on release, copy threshold,
 * timestamps and dropped-frame accounting (see ivtvstream.h).
 * DQBUF and what a frame becomes; REQBUFS, STREAMON and STREAMOFF are
 * ivtvstreamsetup.c's, the buffers and their requeueing ivtvbufqueue's,
 * the state the halves share ivtvstreampriv.h's.  Also this path's
 * IvtvPath.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvstreampriv.h"
#include "ivtvcaps.h"
#include "ivtvdebug.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <gst/allocators/allocators.h>
#include <gst/video/video.h>

#define GST_CAT_DEFAULT ivtv_debug

/* One poll() of the wait for a frame; the stall watchdog looks in between. */
#define WAIT_STEP (200 * GST_MSECOND)

/* poll() said "ready" within this time: the driver had a frame waiting
 * (we are behind, or the card is not paced), so the next DQBUF is tried
 * before poll(); an EAGAIN from it goes back to poll().  A card that
 * keeps up makes poll() wait most of a frame, so it costs no extra DQBUF. */
#define READY_AT_ONCE_US 500


GQuark
ivtv_stream_error_quark (void)
{
  return g_quark_from_static_string ("ivtv-stream-error-quark");
}


/* ---- public API ---- */

IvtvStream *
ivtv_stream_new (GstElement * element, IvtvDevice * dev, IvtvIoMode mode)
{
  IvtvStream *s;

  ivtv_debug_init ();

  s = g_new0 (IvtvStream, 1);
  ivtv_stall_init (&s->stall, IVTV_PATH_DEFAULT_TIMEOUT);
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

/* ---- capture ---- */

/* Running time at which the frame of @b was captured. */
static GstClockTime
frame_timestamp (IvtvStream * s, const struct v4l2_buffer *b)
{
  GstClock *clock;
  GstClockTime base, now, age = 0;

  s->captured = GST_CLOCK_TIME_NONE;
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
  /* a pause (the reader was not asking) lets the driver drop frames: not
   * the recording's loss (ivtvframegap.h) */
  ivtv_frame_gap_clock (&s->gap, g_get_monotonic_time () * GST_USECOND,
      now >= base ? now - base : GST_CLOCK_TIME_NONE);

  if ((b->flags & V4L2_BUF_FLAG_TIMESTAMP_MASK) ==
      V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC && (b->timestamp.tv_sec != 0
          || b->timestamp.tv_usec != 0)) {
    /* g_get_monotonic_time is CLOCK_MONOTONIC, the clock of the flag */
    GstClockTime captured = GST_TIMEVAL_TO_TIME (b->timestamp);
    GstClockTime mono = g_get_monotonic_time () * GST_USECOND;
    s->captured = captured;
    if (mono > captured)
      age = mono - captured;
    /* a frame's time is when it began: drivers that stamp its end (usbtv:
     * usbtv-video.c usbtv_image_chunk on the last packet) say so, and the
     * frame began one period earlier */
    if ((b->flags & V4L2_BUF_FLAG_TSTAMP_SRC_MASK) ==
        V4L2_BUF_FLAG_TSTAMP_SRC_EOF && s->fps_n > 0)
      age += gst_util_uint64_scale_int (GST_SECOND, s->fps_d, s->fps_n);
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
capture_error (IvtvStream * s, int err, const gchar * what,
    IvtvError ** error)
{
  if (err == -ENODEV || err == -ENXIO)
    IVTV_ERROR (error, RESOURCE, READ,
        (_("The device %s was disconnected."), s->dev->path),
        ("%s: %s", what, g_strerror (-err)));
  else
    IVTV_ERROR (error, RESOURCE, READ,
        (_("Could not capture from %s."), s->dev->path),
        ("%s: %s", what, g_strerror (-err)));
  return GST_FLOW_ERROR;
}

/* Waits until the device has a frame (or reports an error: *poll_error,
 * the DQBUF that follows says which): GST_FLOW_OK, FLUSHING or ERROR. */
static GstFlowReturn
wait_frame (IvtvStream * s, gboolean * poll_error, IvtvError ** error)
{
  gint64 since = g_get_monotonic_time ();  /* not held up downstream */

  *poll_error = FALSE;
  for (;;) {
    gint ret;

    if (ivtv_stall_check (&s->stall, s->element, s->dev, since, error)
        != GST_FLOW_OK)
      return GST_FLOW_ERROR;
    ret = gst_poll_wait (s->poll, WAIT_STEP);
    if (ret < 0) {
      if (errno == EBUSY)
        return GST_FLOW_FLUSHING;
      if (errno == EINTR || errno == EAGAIN)
        continue;
      return capture_error (s, -errno, "poll", error);
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

/* Wait (unless a frame is likely waiting) and DQBUF into @b. */
static GstFlowReturn
dequeue (IvtvStream * s, struct v4l2_buffer *b, IvtvError ** error)
{
  for (;;) {
    gboolean poll_error = FALSE;
    GstFlowReturn fret;
    int ret;

    if (!s->dq_first) {
      gint64 t0 = g_get_monotonic_time ();

      if ((fret = wait_frame (s, &poll_error, error)) != GST_FLOW_OK)
        return fret;
      s->dq_first = !poll_error
          && g_get_monotonic_time () - t0 < READY_AT_ONCE_US;
    }
    memset (b, 0, sizeof (*b));
    b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    b->memory = ivtv_buf_queue_get_memory (s->queue);
    ret = ivtv_ioctl (s->dev, VIDIOC_DQBUF, b);
    if (ret == -EAGAIN && poll_error)
      return capture_error (s, -EIO, "poll (the device reported an error)",
          error);
    if (ret == -EAGAIN) {
      s->dq_first = FALSE;
      continue;
    }
    if (ret == -EPIPE)
      return GST_FLOW_EOS;
    if ((ret == -ENODEV || ret == -ENXIO) && s->reconnect) {
      GST_INFO_OBJECT (s->element, "%s went away after %" G_GUINT64_FORMAT
          " frames", s->dev->path, s->frames);
      return IVTV_FLOW_DEVICE_LOST;
    }
    return ret < 0 ? capture_error (s, ret, "VIDIOC_DQBUF", error) :
        GST_FLOW_OK;
  }
}

/* Count a gap in the driver's sequence numbers as dropped frames, and
 * the frames a gap in the capture times says were dropped beyond it
 * (usbtv, stk1160: ivtvframegap.h): those shift the offsets on, so the
 * session sees them as a gap too; the next frame out is DISCONT.  The
 * times find a hole a frame after the one that follows it (or later, the
 * rest of a long one): the QoS message and the log say where it was. */
static void
check_sequence (IvtvStream * s, const struct v4l2_buffer *b, GstClockTime ts,
    GstClockTime dur)
{
  guint64 lost = 0, by_time;

  if (s->last_sequence >= 0 && b->sequence > s->last_sequence + 1)
    lost = b->sequence - s->last_sequence - 1;
  ivtv_frame_gap_account (&s->gap, lost);
  GST_LOG_OBJECT (s->element, "sequence %u captured at %" G_GUINT64_FORMAT
      " ns", b->sequence, (guint64) s->captured);
  by_time = ivtv_frame_gap_feed (&s->gap, s->captured);
  if (by_time > 0) {
    GstClockTime hole = ivtv_frame_gap_hole_time (&s->gap);
    GstClockTime back = GST_CLOCK_TIME_IS_VALID (hole) && s->captured >= hole
        ? s->captured - hole : 0;

    GST_INFO_OBJECT (s->element, "%" G_GUINT64_FORMAT " frames missing "
        "by the capture times before the frame captured %" GST_TIME_FORMAT
        " before sequence %u (a frame period of %" GST_TIME_FORMAT ")",
        by_time, GST_TIME_ARGS (back), b->sequence,
        GST_TIME_ARGS (ivtv_frame_gap_period (&s->gap)));
    s->offset_shift += (gint64) by_time;
    lost += by_time;
    /* the QoS message at the hole */
    if (GST_CLOCK_TIME_IS_VALID (ts))
      ts = ts > back ? ts - back : 0;
  }
  if (lost > 0) {
    s->dropped += lost;
    s->discont = TRUE;
    post_dropped (s, lost, ts, dur);
  }
  s->last_sequence = b->sequence;
}

static gboolean
frame_is_bad (IvtvStream * s, const struct v4l2_buffer *b, GstMemory * mem)
{
  return (b->flags & V4L2_BUF_FLAG_ERROR) || b->bytesused == 0
      || b->bytesused > mem->maxsize
      || (s->repack && b->bytesused < s->layout.size);
}

/* The GstBuffer of a good frame: its V4L2 buffer's memory (zero copy), or
 * a copy when few buffers are left queued, downstream is behind (frames
 * wait in the element's queue), the layout needs repacking or the buffers
 * are libv4l2's.  NULL when a copy cannot be made. */
static GstBuffer *
wrap_frame (IvtvStream * s, const struct v4l2_buffer *b, GstMemory * mem,
    guint queued)
{
  GstBuffer *out;

  mem->offset = 0;
  mem->size = b->bytesused;
  if (queued >= IVTV_STREAM_MIN_QUEUED && !s->repack && !s->via_libv4l2
      && !s->behind) {
    out = gst_buffer_new ();
    gst_buffer_append_memory (out, mem);
    return out;
  }
  out = ivtv_layout_copy_frame (mem, b->bytesused,
      s->repack ? &s->info : NULL, &s->layout);
  gst_memory_unref (mem);       /* requeued at once */
  if (out) {
    s->copied++;
    GST_LOG_OBJECT (s->element, "copied frame %u (%u buffers queued%s)",
        b->sequence, queued, s->repack ? ", repacked" : "");
  }
  return out;
}

/* Offsets (the driver's sequence, shifted after a reconnect) and the
 * field order flags. */
static void
set_frame_meta (IvtvStream * s, GstBuffer * out, const struct v4l2_buffer *b)
{
  if (s->shift_pending) {
    s->offset_shift = (gint64) s->next_offset - (gint64) b->sequence;
    s->shift_pending = FALSE;
  }
  GST_BUFFER_OFFSET (out) = (guint64) ((gint64) b->sequence + s->offset_shift);
  GST_BUFFER_OFFSET_END (out) = GST_BUFFER_OFFSET (out) + 1;
  s->next_offset = GST_BUFFER_OFFSET_END (out);
  switch (b->field) {
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
  if (s->frames == 0 || s->discont)
    GST_BUFFER_FLAG_SET (out, GST_BUFFER_FLAG_DISCONT);
  s->discont = FALSE;
}

GstFlowReturn
ivtv_stream_create (IvtvStream * s, GstBuffer ** buf, IvtvError ** error)
{
  struct v4l2_buffer b;
  GstMemory *mem;
  GstBuffer *out;
  GstClockTime ts, dur = GST_CLOCK_TIME_NONE;
  guint queued;
  GstFlowReturn fret;

  g_return_val_if_fail (s->queue != NULL, GST_FLOW_ERROR);

  for (;;) {
    if (s->eos_pending)
      return GST_FLOW_EOS;
    if ((fret = dequeue (s, &b, error)) != GST_FLOW_OK)
      return fret;
    mem = ivtv_buf_queue_take (s->queue, b.index, &queued);
    if (mem == NULL) {
      IVTV_ERROR (error, RESOURCE, READ,
          (_("The driver of %s returned an invalid buffer."), s->dev->path),
          ("VIDIOC_DQBUF gave index %u, not one of the %u queued buffers",
              b.index, ivtv_buf_queue_get_size (s->queue)));
      return GST_FLOW_ERROR;
    }
    if (s->fps_n > 0)
      dur = gst_util_uint64_scale_int (GST_SECOND, s->fps_d, s->fps_n);
    ts = frame_timestamp (s, &b);
    check_sequence (s, &b, ts, dur);
    if (b.flags & V4L2_BUF_FLAG_LAST)
      s->eos_pending = TRUE;
    if (!frame_is_bad (s, &b, mem))
      break;
    GST_WARNING_OBJECT (s->element, "dropping buffer %u: %s (%u bytes)",
        b.index, (b.flags & V4L2_BUF_FLAG_ERROR) ? "error flag" :
        "bad payload size", b.bytesused);
    s->dropped++;
    gst_memory_unref (mem);     /* back to the driver */
  }

  if ((out = wrap_frame (s, &b, mem, queued)) == NULL)
    return capture_error (s, -ENOMEM, "copying a frame", error);
  GST_BUFFER_PTS (out) = ts;
  GST_BUFFER_DTS (out) = GST_CLOCK_TIME_NONE;
  GST_BUFFER_DURATION (out) = dur;
  set_frame_meta (s, out, &b);
  s->bytes += b.bytesused;
  s->frames++;
  ivtv_stall_data (&s->stall, s->element, s->dev);
  *buf = out;
  return GST_FLOW_OK;
}

void
ivtv_stream_set_timeout (IvtvStream * s, guint seconds)
{
  ivtv_stall_set_timeout (&s->stall, seconds);
}

void
ivtv_stream_set_reconnect (IvtvStream * s, gboolean reconnect)
{
  s->reconnect = reconnect;
}

void
ivtv_stream_get_position (IvtvStream * s, IvtvPathPosition * pos)
{
  pos->bytes = s->bytes;
  pos->buffers = s->frames;
  pos->next_offset = s->next_offset;
}

void
ivtv_stream_resume_from (IvtvStream * s, const IvtvPathPosition * before)
{
  s->next_offset = before->next_offset;
  s->bytes = before->bytes;
  s->frames = before->buffers;
  s->shift_pending = TRUE;
}

/* ---- as a capture path (ivtvpath.h) ---- */

typedef struct
{
  IvtvPath path;
  IvtvStream *stream;
} IvtvStreamPath;

static GstFlowReturn
stream_path_create (IvtvPath * path, GstBuffer ** buf, IvtvError ** error)
{
  return ivtv_stream_create (((IvtvStreamPath *) path)->stream, buf, error);
}

static gboolean
stream_path_drain (IvtvPath * path, gint64 max_us)
{
  (void) path;
  (void) max_us;
  return FALSE;                 /* no encoder to stop: the base class's EOS */
}

static void
stream_path_set_timeout (IvtvPath * path, guint seconds)
{
  ivtv_stream_set_timeout (((IvtvStreamPath *) path)->stream, seconds);
}

static void
stream_path_get_position (IvtvPath * path, IvtvPathPosition * pos)
{
  ivtv_stream_get_position (((IvtvStreamPath *) path)->stream, pos);
}

static void
stream_path_resume_from (IvtvPath * path, const IvtvPathPosition * before)
{
  ivtv_stream_resume_from (((IvtvStreamPath *) path)->stream, before);
}

static void
stream_path_free (IvtvPath * path)
{
  ivtv_stream_free (((IvtvStreamPath *) path)->stream);
  g_free (path);
}

/* Frames wait in the element's queue: a V4L2 buffer handed out now would
 * stay out of the driver's queue until downstream catches up. */
static void
stream_path_set_behind (IvtvPath * path, gboolean behind)
{
  ((IvtvStreamPath *) path)->stream->behind = behind;
}

static const IvtvPathFuncs stream_path_funcs = {
  stream_path_create, stream_path_drain, stream_path_set_timeout,
  stream_path_get_position, stream_path_resume_from, stream_path_free,
  stream_path_set_behind,
  NULL                          /* stop_encoder: no encoder streams */
};

IvtvPath *
ivtv_stream_path_new (const IvtvPathConfig * config, GError ** error)
{
  IvtvStreamPath *p = g_new0 (IvtvStreamPath, 1);

  p->path.funcs = &stream_path_funcs;
  p->path.mode = config->mode;
  p->stream = ivtv_stream_new (config->element, config->dev, config->mode);
  ivtv_stream_set_timeout (p->stream, config->timeout);
  ivtv_stream_set_reconnect (p->stream, config->reconnect);
  if (!ivtv_stream_start (p->stream, config->poll, config->extra_buffers,
          error)) {
    ivtv_stream_free (p->stream);
    g_free (p);
    return NULL;
  }
  return &p->path;
}
