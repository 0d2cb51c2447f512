/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the capture session's format state (see ivtvcapture.h), what
 * lives from one negotiation to the next: the caps the device can give,
 * the MPEG stream type (or its sniffing), fixation, S_FMT (and S_PARM)
 * and what it gave (frame size, HM12 geometry, rate), the latency of one
 * buffer.  It calls nothing of the opener, the run or ivtvcapture.c. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvcapturepriv.h"
#include "ivtvpcm.h"
#include "ivtvdebug.h"
#include "ivtvcaps.h"
#include "ivtvnegotiate.h"

#include <string.h>

#define GST_CAT_DEFAULT ivtvsrc_debug

/* Formats, sizes and frame intervals depend on the input and the
 * standard (vivid: a webcam input and SDTV inputs): asked again once they
 * are set.  TRUE when the negotiated caps no longer fit.  Lock held. */
gboolean
ivtv_capture_reprobe_formats (IvtvCapture * cap)
{
  GstCaps *now;
  gboolean changed;

  ivtv_probe_formats (&cap->probe, &cap->dev);
  if (cap->caps == NULL || cap->mpeg || cap->kind == IVTV_NODE_VBI)
    return FALSE;
  now = ivtv_negotiate_device_caps (&cap->probe, &cap->dev,
      cap->mpeg_stream_type);
  changed = !gst_caps_can_intersect (now, cap->caps);
  GST_DEBUG_OBJECT (cap->element, "caps of the input now: %" GST_PTR_FORMAT
      "%s", now, changed ? " (renegotiating)" : "");
  gst_caps_unref (now);
  return changed;
}

/* The caps of the open node by its kind, with MPEG of @stream_type (-1:
 * every type).  Lock held. */
static GstCaps *
caps_of_kind (IvtvCapture * cap, gint stream_type)
{
  if (cap->kind == IVTV_NODE_VBI)
    return ivtv_vbi_device_caps (&cap->dev, &cap->settings.vbi);
  if (cap->kind == IVTV_NODE_PCM)
    return ivtv_pcm_caps ();
  return ivtv_negotiate_device_caps (&cap->probe, &cap->dev, stream_type);
}

GstCaps *
ivtv_capture_get_caps (IvtvCapture * cap)
{
  GstCaps *caps = NULL;

  g_mutex_lock (&cap->lock);
  if (ivtv_device_is_open (&cap->dev))
    caps = caps_of_kind (cap, cap->mpeg_stream_type);
  g_mutex_unlock (&cap->lock);
  return caps;
}

GstCaps *
ivtv_capture_get_caps_as_set (IvtvCapture * cap)
{
  GstCaps *caps = NULL;

  g_mutex_lock (&cap->lock);
  if (ivtv_device_is_open (&cap->dev))
    caps = caps_of_kind (cap, ivtv_probe_find_format (&cap->probe,
            V4L2_PIX_FMT_MPEG) ? ivtv_encoder_get_stream_type (&cap->dev) : -1);
  g_mutex_unlock (&cap->lock);
  return caps;
}

gboolean
ivtv_capture_negotiate_mpeg (IvtvCapture * cap, GstCaps ** caps)
{
  gboolean mpeg;

  *caps = NULL;
  g_mutex_lock (&cap->lock);
  mpeg = ivtv_device_is_open (&cap->dev)
      && ivtv_negotiate_format_is_mpeg (&cap->probe, &cap->dev);
  if (mpeg) {
    *caps = ivtv_caps_for_mpeg_stream_type (cap->mpeg_stream_type);
    if (*caps == NULL) {
      /* caps once the first bytes are read */
      GST_DEBUG_OBJECT (cap->element, "no stream-type control: sniffing");
      cap->mpeg = TRUE;
      cap->need_sniff = TRUE;
      cap->frame_size = 0;
    }
  }
  g_mutex_unlock (&cap->lock);
  return mpeg;
}

gboolean
ivtv_capture_explain_caps (IvtvCapture * cap, GstPad * pad)
{
  GstCaps *peer = gst_pad_peer_query_caps (pad, NULL), *offered;
  gchar *msg = NULL;

  g_mutex_lock (&cap->lock);
  if (ivtv_device_is_open (&cap->dev)) {
    offered = ivtv_negotiate_device_caps (&cap->probe, &cap->dev,
        cap->mpeg_stream_type);
    msg = ivtv_negotiate_explain (cap->dev.path, cap->probe.card, offered,
        peer, cap->mpeg_stream_type);
    gst_caps_unref (offered);
  }
  g_mutex_unlock (&cap->lock);
  if (msg)
    GST_ELEMENT_ERROR (cap->element, CORE, NEGOTIATION, ("%s", msg),
        ("downstream accepts %" GST_PTR_FORMAT, peer));
  g_free (msg);
  gst_clear_caps (&peer);
  return FALSE;
}

GstCaps *
ivtv_capture_fixate (IvtvCapture * cap, GstCaps * caps)
{
  g_mutex_lock (&cap->lock);
  caps = cap->kind == IVTV_NODE_VBI ? gst_caps_fixate (caps) :
      ivtv_negotiate_fixate (&cap->probe, &cap->dev, caps);
  g_mutex_unlock (&cap->lock);
  return caps;
}

gboolean
ivtv_capture_apply_format (IvtvCapture * cap, GstCaps * caps)
{
  GstStructure *s = gst_caps_get_structure (caps, 0);
  IvtvNegotiated res;
  GError *err = NULL;
  gboolean ok;

  if (cap->kind == IVTV_NODE_VBI) {    /* set up at start: the caps' format */
    ivtv_vbi_apply_caps (&cap->vbi, caps);
    cap->fps_n = cap->vbi.is525 ? 30000 : 25;
    cap->fps_d = cap->vbi.is525 ? 1001 : 1;
    return TRUE;
  }
  cap->mpeg = ivtv_caps_fourcc_from_structure (s) == V4L2_PIX_FMT_MPEG;
  cap->hm12_width = cap->hm12_height = 0;
  if (cap->kind == IVTV_NODE_PCM) {
    ok = TRUE;                  /* the PCM node has no format to set */
    cap->frame_size = 0;
  } else if (cap->mpeg) {
    ok = ivtv_negotiate_set_mpeg (&cap->dev, &err);
    cap->frame_size = 0;
  } else {
    ok = ivtv_negotiate_apply (&cap->dev, &cap->probe, caps, &res, &err);
    if (ok) {
      gboolean hm12 = res.pixelformat == V4L2_PIX_FMT_HM12;

      cap->hm12_width = hm12 ? res.width : 0;
      cap->hm12_height = hm12 ? res.height : 0;
      cap->frame_size = res.sizeimage;
      cap->fps_n = res.fps_n;
      cap->fps_d = res.fps_d;
    }
  }
  if (!ok && cap->restore_error)
    IVTV_ERROR (cap->restore_error, RESOURCE, SETTINGS, ("%s",
            err->message), ("caps %" GST_PTR_FORMAT, caps));
  else if (!ok)
    GST_ELEMENT_ERROR (cap->element, RESOURCE, SETTINGS, ("%s",
            err->message), ("caps %" GST_PTR_FORMAT, caps));
  g_clear_error (&err);
  return ok;
}

void
ivtv_capture_set_extra_buffers (IvtvCapture * cap, guint n)
{
  cap->extra_buffers = MIN (n, 16);
}

/* What a read() hands out at once on a card that keeps up: the device is
 * non-blocking, so a read returns what the driver has when poll() wakes
 * us, a DMA transfer or a few (the emulator: 8 KiB; ivtv: tens of KiB),
 * never a whole block of a large blocksize.  Data waits in the element
 * about that long, so that is its latency. */
#define IVTV_READ_LATENCY_BYTES (64 * 1024)

/* One buffer's worth of time: a frame for video; for MPEG, what one read
 * delivers (at most IVTV_READ_LATENCY_BYTES) at the encoder's bit rate. */
GstClockTime
ivtv_capture_latency (IvtvCapture * cap, guint blocksize)
{
  gint w, h, fn, fd, pn, pd;
  gint64 bitrate = 0;
  GstClockTime latency = GST_CLOCK_TIME_NONE;

  g_mutex_lock (&cap->lock);
  fn = cap->fps_n;
  fd = cap->fps_d;
  if (cap->state == IVTV_CAPTURE_STOPPED)
    goto done;
  if (cap->mpeg && ivtv_device_is_open (&cap->dev)
      && ivtv_device_get_control (&cap->dev, V4L2_CID_MPEG_VIDEO_BITRATE,
          &bitrate) && bitrate > 0) {
    latency = gst_util_uint64_scale (MIN (blocksize,
            IVTV_READ_LATENCY_BYTES) * 8, GST_SECOND, bitrate);
    goto done;
  }
  if ((fn <= 0 || fd <= 0) && !ivtv_caps_std_geometry
      (cap->probe.current_std, &w, &h, &fn, &fd, &pn, &pd)) {
    fn = 30;
    fd = 1;
  }
  latency = gst_util_uint64_scale_int (GST_SECOND, fd, fn);
done:
  g_mutex_unlock (&cap->lock);
  return latency;
}
