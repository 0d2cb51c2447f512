/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the path decorators (see ivtvdecorate.h): a path that wraps
 * another and treats each buffer it gives, on the thread that reads it
 * (the reader thread), with what it was made with and nothing else: the
 * HM12 node's frames detiled to NV12 (ivtvhm12.h) and numbered, frames
 * the driver dropped skipped in the numbers (found from when they come,
 * ivtvframegap.h: the session counts and reports a gap in the offsets),
 * the PCM node's buffers given their duration and sample offsets
 * (ivtvpcm.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvdecorate.h"
#include "ivtvframegap.h"
#include "ivtvhm12.h"
#include "ivtvpcm.h"

typedef struct
{
  IvtvPath path;
  IvtvPath *inner;              /* owned */
  guint width, height;          /* HM12: the frame's; 0 for PCM */
  GstElement *element;          /* HM12: its running time; not a reference */
  IvtvFrameGap gap;             /* HM12: frames the driver dropped */
  guint64 next_frame;           /* HM12: the next frame's number */
} IvtvDecorated;

/* The element's running time now (NONE without a clock): when a frame
 * came, with the time it was paused left out. */
static GstClockTime
running_time (GstElement * element)
{
  GstClock *clock;
  GstClockTime base, now;

  GST_OBJECT_LOCK (element);
  clock = GST_ELEMENT_CLOCK (element);
  if (clock)
    gst_object_ref (clock);
  base = element->base_time;
  GST_OBJECT_UNLOCK (element);
  if (clock == NULL)
    return GST_CLOCK_TIME_NONE;
  now = gst_clock_get_time (clock);
  gst_object_unref (clock);
  return now > base ? now - base : GST_CLOCK_TIME_NONE;
}

/* A whole frame read: its number, after those the driver dropped (a
 * gap the session reports: ivtvreaderthread.c), DISCONT after them. */
static GstBuffer *
number_frame (IvtvDecorated * d, GstBuffer * buf)
{
  GstClockTime now = running_time (d->element);
  guint64 lost = ivtv_frame_gap_feed (&d->gap, now);

  buf = gst_buffer_make_writable (buf);
  if (lost > 0) {
    /* found a frame after the one that follows the hole (ivtvframegap.h) */
    GST_INFO_OBJECT (d->element, "%" G_GUINT64_FORMAT " frames dropped by "
        "the driver before the frame read at %" GST_TIME_FORMAT ", found at "
        "frame %" G_GUINT64_FORMAT " (read at %" GST_TIME_FORMAT ")", lost,
        GST_TIME_ARGS (ivtv_frame_gap_hole_time (&d->gap)), d->next_frame,
        GST_TIME_ARGS (now));
    d->next_frame += lost;
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_DISCONT);
  }
  GST_BUFFER_OFFSET (buf) = d->next_frame;
  GST_BUFFER_OFFSET_END (buf) = ++d->next_frame;
  if (GST_CLOCK_TIME_IS_VALID (d->gap.period))
    GST_BUFFER_DURATION (buf) = d->gap.period;
  return buf;
}

static GstFlowReturn
hm12_create (IvtvPath * path, GstBuffer ** buf, IvtvError ** error)
{
  IvtvDecorated *d = (IvtvDecorated *) path;
  GstFlowReturn ret = ivtv_path_create (d->inner, buf, error);

  gsize frame = (gsize) d->width * d->height * 3 / 2;

  if (ret != GST_FLOW_OK)
    return ret;
  if (d->path.mode == IVTV_IO_RW && gst_buffer_get_size (*buf) == frame)
    *buf = number_frame (d, *buf);
  *buf = ivtv_hm12_convert_buffer (*buf, d->width, d->height);
  return ret;
}

static GstFlowReturn
pcm_create (IvtvPath * path, GstBuffer ** buf, IvtvError ** error)
{
  IvtvDecorated *d = (IvtvDecorated *) path;
  GstFlowReturn ret = ivtv_path_create (d->inner, buf, error);

  if (ret == GST_FLOW_OK) {
    *buf = gst_buffer_make_writable (*buf);
    ivtv_pcm_stamp_buffer (*buf);
  }
  return ret;
}

/* ---- the rest goes to the inner path ---- */

static gboolean
inner_drain (IvtvPath * path, gint64 max_us)
{
  IvtvDecorated *d = (IvtvDecorated *) path;

  return d->inner->funcs->drain (d->inner, max_us);
}

static void
inner_set_timeout (IvtvPath * path, guint seconds)
{
  IvtvDecorated *d = (IvtvDecorated *) path;

  d->inner->funcs->set_timeout (d->inner, seconds);
}

static void
inner_get_position (IvtvPath * path, IvtvPathPosition * pos)
{
  IvtvDecorated *d = (IvtvDecorated *) path;

  d->inner->funcs->get_position (d->inner, pos);
}

static void
inner_resume_from (IvtvPath * path, const IvtvPathPosition * before)
{
  IvtvDecorated *d = (IvtvDecorated *) path;

  d->inner->funcs->resume_from (d->inner, before);
}

static void
inner_free (IvtvPath * path)
{
  IvtvDecorated *d = (IvtvDecorated *) path;

  ivtv_path_free (d->inner);
  g_free (d);
}

static void
inner_set_behind (IvtvPath * path, gboolean behind)
{
  IvtvDecorated *d = (IvtvDecorated *) path;

  if (d->inner->funcs->set_behind)
    d->inner->funcs->set_behind (d->inner, behind);
}

static IvtvStopResult
inner_stop_encoder (IvtvPath * path, IvtvPathStopFunc stop, gpointer data)
{
  IvtvDecorated *d = (IvtvDecorated *) path;

  if (d->inner->funcs->stop_encoder)
    return d->inner->funcs->stop_encoder (d->inner, stop, data);
  return stop (data);
}

/* after a reconnect: the frames go on from those pushed before */
static void
hm12_resume_from (IvtvPath * path, const IvtvPathPosition * before)
{
  IvtvDecorated *d = (IvtvDecorated *) path;

  d->next_frame = before->buffers;
  inner_resume_from (path, before);
}

static const IvtvPathFuncs hm12_funcs = {
  hm12_create, inner_drain, inner_set_timeout, inner_get_position,
  hm12_resume_from, inner_free, inner_set_behind, inner_stop_encoder
};

static const IvtvPathFuncs pcm_funcs = {
  pcm_create, inner_drain, inner_set_timeout, inner_get_position,
  inner_resume_from, inner_free, inner_set_behind, inner_stop_encoder
};

static IvtvPath *
wrap (IvtvPath * inner, const IvtvPathFuncs * funcs, guint width,
    guint height)
{
  IvtvDecorated *d = g_new0 (IvtvDecorated, 1);

  d->path.funcs = funcs;
  d->path.mode = inner->mode;
  d->inner = inner;
  d->width = width;
  d->height = height;
  return &d->path;
}

IvtvPath *
ivtv_hm12_path_wrap (IvtvPath * inner, GstElement * element, guint width,
    guint height)
{
  IvtvDecorated *d = (IvtvDecorated *) wrap (inner, &hm12_funcs, width,
      height);

  /* ivtv's YUV node: the frame's size is the standard's, and so is the
   * rate (ivtv-ioctl.c ivtv_g_fmt_vid_cap: 480 lines NTSC, 576 PAL) */
  d->element = element;
  ivtv_frame_gap_init (&d->gap, IVTV_FRAME_GAP_ARRIVAL, height == 576 ?
      GST_SECOND / 25 : gst_util_uint64_scale_int (GST_SECOND, 1001, 30000));
  return &d->path;
}

IvtvPath *
ivtv_pcm_path_wrap (IvtvPath * inner)
{
  return wrap (inner, &pcm_funcs, 0, 0);
}
