/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the path decorators (see ivtvdecorate.h): a path that wraps
 * another and treats each buffer it gives, on the thread that reads it
 * (the reader thread), with what it was made with and nothing else: the
 * HM12 node's frames detiled to NV12 (ivtvhm12.h), the PCM node's buffers
 * given their duration and sample offsets (ivtvpcm.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvdecorate.h"
#include "ivtvhm12.h"
#include "ivtvpcm.h"

typedef struct
{
  IvtvPath path;
  IvtvPath *inner;              /* owned */
  guint width, height;          /* HM12: the frame's; 0 for PCM */
} IvtvDecorated;

static GstFlowReturn
hm12_create (IvtvPath * path, GstBuffer ** buf, IvtvError ** error)
{
  IvtvDecorated *d = (IvtvDecorated *) path;
  GstFlowReturn ret = ivtv_path_create (d->inner, buf, error);

  if (ret == GST_FLOW_OK)
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

static const IvtvPathFuncs hm12_funcs = {
  hm12_create, inner_drain, inner_set_timeout, inner_get_position,
  inner_resume_from, inner_free, inner_set_behind, inner_stop_encoder
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
ivtv_hm12_path_wrap (IvtvPath * inner, guint width, guint height)
{
  return wrap (inner, &hm12_funcs, width, height);
}

IvtvPath *
ivtv_pcm_path_wrap (IvtvPath * inner)
{
  return wrap (inner, &pcm_funcs, 0, 0);
}
