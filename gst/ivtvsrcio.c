/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the element's GstBaseSrc/GstPushSrc virtual methods: start
 * (apply input/standard/audio/frequency, choose the I/O mode, start the
 * signal watch), caps and negotiation, create (read() or streaming, with
 * the fallback from a failing streaming start to read(); wait-for-signal),
 * unlock, latency, stop (encoder stopped at the end of a GOP, device
 * released).  The clean end on EOS is ivtvsrcend.c, reconnect after an
 * unplug ivtvreconnect.c. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvsrcio.h"
#include "ivtvcaps.h"
#include "ivtvcontrols.h"
#include "ivtvdebug.h"
#include "ivtvencoder.h"
#include "ivtvreconnect.h"
#include "ivtvsignal.h"
#include "ivtvsrcend.h"

#include "ivtvstream.h"
#include "ivtvnegotiate.h"

#include <errno.h>
#include <string.h>

GST_DEBUG_CATEGORY_EXTERN (ivtvsrc_debug);
#define GST_CAT_DEFAULT ivtvsrc_debug

static gpointer parent_class;

/* ---- start: apply settings, choose the I/O mode ---- */

/* Errors of a setting at start: unknown names are fatal; a busy driver or
 * an undetectable standard are warnings (capture goes on). */
static gboolean
report_setting (GstIvtvSrc * src, GError * err)
{
  gboolean fatal = !(err->domain == IVTV_CONTROLS_ERROR
      && (err->code == IVTV_CONTROLS_ERROR_BUSY
          || err->code == IVTV_CONTROLS_ERROR_NO_SIGNAL));

  if (fatal)
    GST_ELEMENT_ERROR (src, RESOURCE, SETTINGS, ("%s", err->message),
        ("device %s", src->dev.path));
  else
    GST_ELEMENT_WARNING (src, RESOURCE, SETTINGS, ("%s", err->message),
        ("device %s", src->dev.path));
  return !fatal;
}

gboolean
ivtv_src_io_apply_settings (GstIvtvSrc * src)
{
  gchar *input, *standard, *audio;
  guint64 freq;
  GError *err = NULL;
  gboolean ok = TRUE;

  GST_OBJECT_LOCK (src);
  input = g_strdup (src->input);
  standard = g_strdup (src->standard);
  audio = g_strdup (src->audio_input);
  freq = src->frequency;
  GST_OBJECT_UNLOCK (src);

  /* input first: standards, audio and the tuner depend on it */
  if (ok && input && !ivtv_controls_set_input (&src->dev, &src->probe, input,
          &err))
    ok = report_setting (src, err);
  g_clear_error (&err);
  if (ok && standard && !ivtv_controls_set_std (&src->dev, &src->probe,
          standard, &err))
    ok = report_setting (src, err);
  g_clear_error (&err);
  if (ok && audio && !ivtv_controls_set_audio (&src->dev, &src->probe, audio,
          &err))
    ok = report_setting (src, err);
  g_clear_error (&err);
  if (ok && freq && !ivtv_controls_set_frequency (&src->dev, &src->probe,
          freq, &err))
    ok = report_setting (src, err);
  g_clear_error (&err);
  if (ok)
    ok = ivtv_encoder_start (src);      /* MPEG controls, extra-controls */

  g_free (input);
  g_free (standard);
  g_free (audio);
  return ok;
}

gboolean
ivtv_src_io_check_settings (GstIvtvSrc * src)
{
  gchar *input, *standard, *audio;
  GError *err = NULL;

  GST_OBJECT_LOCK (src);
  input = g_strdup (src->input);
  standard = g_strdup (src->standard);
  audio = g_strdup (src->audio_input);
  GST_OBJECT_UNLOCK (src);

  g_mutex_lock (&src->dev_lock);
  if (ivtv_device_is_open (&src->dev))
    ivtv_controls_check_names (&src->probe, input, standard, audio, &err);
  g_mutex_unlock (&src->dev_lock);
  g_free (input);
  g_free (standard);
  g_free (audio);
  if (err == NULL)
    return TRUE;
  GST_ELEMENT_ERROR (src, RESOURCE, SETTINGS, ("%s", err->message),
      ("device %s", src->dev.path));
  g_clear_error (&err);
  return FALSE;
}

/* A signal the card cannot lock on (no signal at all is the signal
 * watch's, ivtvsignal.c). */
static void
check_signal (GstIvtvSrc * src)
{
  const IvtvInput *in;

  if (src->probe.current_input < 0)
    return;
  in = ivtv_probe_find_input (&src->probe, src->probe.current_input);
  if (in == NULL)
    return;
  if (in->status & (V4L2_IN_ST_NO_POWER | V4L2_IN_ST_NO_SIGNAL))
    return;
  if (in->status & (V4L2_IN_ST_NO_H_LOCK | V4L2_IN_ST_NO_SYNC))
    GST_ELEMENT_WARNING (src, RESOURCE, READ,
        ("Input '%s' of '%s' has a signal the card cannot lock on (wrong "
            "standard?).", in->name, src->probe.card),
        ("input status 0x%08x", in->status));
}

static guint
probe_stream_modes (GstIvtvSrc * src)
{
  guint m = ivtv_stream_probe_modes (&src->dev), out = 0;

  if (m & IVTV_STREAM_MODE_BIT (IVTV_STREAM_MODE_MMAP))
    out |= IVTV_IO_BIT (IVTV_IO_MMAP) | IVTV_IO_BIT (IVTV_IO_DMABUF);
  if (m & IVTV_STREAM_MODE_BIT (IVTV_STREAM_MODE_DMABUF))
    out |= IVTV_IO_BIT (IVTV_IO_DMABUF);
  if (m & IVTV_STREAM_MODE_BIT (IVTV_STREAM_MODE_USERPTR))
    out |= IVTV_IO_BIT (IVTV_IO_USERPTR);
  return out;
}

static void
set_current_io_mode (GstIvtvSrc * src, IvtvIoMode mode)
{
  GST_OBJECT_LOCK (src);
  src->current_io_mode = mode;
  GST_OBJECT_UNLOCK (src);
}

static gboolean
gst_ivtv_src_start (GstBaseSrc * bsrc)
{
  GstIvtvSrc *src = GST_IVTV_SRC (bsrc);
  GError *err = NULL;
  IvtvIoMode requested, chosen;
  guint signal_timeout;

  g_mutex_lock (&src->dev_lock);
  if (!ivtv_device_is_open (&src->dev)) {
    g_mutex_unlock (&src->dev_lock);
    GST_ELEMENT_ERROR (src, RESOURCE, OPEN_READ, ("The device is not open."),
        (NULL));
    return FALSE;
  }
  if (!ivtv_src_io_apply_settings (src))
    goto fail;
  ivtv_probe_inputs (&src->probe, &src->dev);   /* fresh signal status */
  check_signal (src);

  GST_OBJECT_LOCK (src);
  requested = src->io_mode;
  GST_OBJECT_UNLOCK (src);
  src->stream_modes = probe_stream_modes (src);
  if (!ivtv_io_mode_choose (requested, src->dev.device_caps,
          src->stream_modes, src->dev.path, &chosen, &err)) {
    GST_ELEMENT_ERROR (src, RESOURCE, SETTINGS, ("%s", err->message),
        ("device caps 0x%08x", src->dev.device_caps));
    g_clear_error (&err);
    goto fail;
  }
  set_current_io_mode (src, chosen);
  GST_INFO_OBJECT (src, "io-mode %s: using %s",
      ivtv_io_mode_nick (requested), ivtv_io_mode_nick (chosen));

  src->mpeg_stream_type = ivtv_controls_get_mpeg_stream_type (&src->dev);
  src->poll = gst_poll_new (TRUE);
  src->io_started = FALSE;
  src->need_sniff = FALSE;
  src->capturing = TRUE;
  src->draining = FALSE;
  g_mutex_unlock (&src->dev_lock);

  GST_OBJECT_LOCK (src);
  signal_timeout = src->signal_timeout;
  GST_OBJECT_UNLOCK (src);
  ivtv_signal_start (&src->signal, GST_ELEMENT (src), &src->dev,
      &src->dev_lock, signal_timeout);
  return TRUE;

fail:
  g_mutex_unlock (&src->dev_lock);
  return FALSE;
}

/* ---- stop ---- */

void
ivtv_src_io_stop (GstIvtvSrc * src)
{
  if (src->stream) {
    ivtv_stream_free (src->stream);
    src->stream = NULL;
  }
  ivtv_read_stop (&src->reader);
  src->io_started = FALSE;
}

static gboolean
gst_ivtv_src_stop (GstBaseSrc * bsrc)
{
  GstIvtvSrc *src = GST_IVTV_SRC (bsrc);
  GstPoll *poll;

  ivtv_signal_stop (&src->signal);      /* it takes dev_lock */
  g_mutex_lock (&src->dev_lock);
  src->capturing = FALSE;
  ivtv_src_io_stop (src);
  if (ivtv_device_is_open (&src->dev) && src->mpeg) {
    ivtv_controls_encoder_stop (&src->dev);
    /* a fresh descriptor: the driver forgets the stopped stream, the next
     * start begins a new one */
    if (!src->dev.adopted) {
      GError *err = NULL;
      gchar *path = g_strdup (src->dev.path);
      gboolean lib = ivtv_device_via_libv4l2 (&src->dev);

      ivtv_device_close (&src->dev);
      if (!ivtv_device_open (&src->dev, path, TRUE, &err)) {
        GST_WARNING_OBJECT (src, "reopening %s failed: %s", path, err->message);
        g_clear_error (&err);
      } else if (lib) {
        ivtv_device_use_libv4l2 (&src->dev, 0);
      }
      g_free (path);
    }
  }
  GST_OBJECT_LOCK (src);
  poll = src->poll;
  src->poll = NULL;
  src->current_io_mode = IVTV_IO_AUTO;
  GST_OBJECT_UNLOCK (src);
  if (poll)
    gst_poll_free (poll);
  src->mpeg = FALSE;
  src->need_sniff = FALSE;
  g_mutex_unlock (&src->dev_lock);
  return TRUE;
}

/* ---- caps ---- */

static gboolean
format_is_mpeg (GstIvtvSrc * src)
{
  struct v4l2_format f;
  guint i;

  memset (&f, 0, sizeof (f));
  f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  if (ivtv_ioctl (&src->dev, VIDIOC_G_FMT, &f) == 0
      && f.fmt.pix.pixelformat == V4L2_PIX_FMT_MPEG)
    return TRUE;
  for (i = 0; i < src->probe.n_formats; i++)
    if (src->probe.formats[i].pixelformat != V4L2_PIX_FMT_MPEG)
      return FALSE;
  return src->probe.n_formats > 0;
}

static GstCaps *
mpeg_caps (GstIvtvSrc * src)
{
  GstCaps *c = ivtv_caps_for_mpeg_stream_type (src->mpeg_stream_type);

  if (c == NULL) {
    /* no stream type control: any system stream; decided by sniffing */
    gint t;
    c = gst_caps_new_empty ();
    for (t = V4L2_MPEG_STREAM_TYPE_MPEG2_PS;
        t <= V4L2_MPEG_STREAM_TYPE_MPEG1_SS; t++)
      gst_caps_append (c, ivtv_caps_for_mpeg_stream_type (t));
  }
  return c;
}

static GstCaps *
device_caps (GstIvtvSrc * src)
{
  GstCaps *caps = gst_caps_new_empty ();

  if (ivtv_probe_find_format (&src->probe, V4L2_PIX_FMT_MPEG))
    gst_caps_append (caps, mpeg_caps (src));
  gst_caps_append (caps, ivtv_negotiate_probe_caps (&src->probe, &src->dev));
  return caps;
}

static GstCaps *
gst_ivtv_src_get_caps (GstBaseSrc * bsrc, GstCaps * filter)
{
  GstIvtvSrc *src = GST_IVTV_SRC (bsrc);
  GstCaps *caps, *res;

  g_mutex_lock (&src->dev_lock);
  if (ivtv_device_is_open (&src->dev))
    caps = device_caps (src);
  else
    caps = gst_pad_get_pad_template_caps (GST_BASE_SRC_PAD (bsrc));
  g_mutex_unlock (&src->dev_lock);

  if (filter) {
    res = gst_caps_intersect_full (filter, caps, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (caps);
    caps = res;
  }
  return caps;
}

static gboolean
gst_ivtv_src_negotiate (GstBaseSrc * bsrc)
{
  GstIvtvSrc *src = GST_IVTV_SRC (bsrc);
  GstCaps *caps;
  gboolean mpeg;

  g_mutex_lock (&src->dev_lock);
  mpeg = ivtv_device_is_open (&src->dev) && format_is_mpeg (src);
  g_mutex_unlock (&src->dev_lock);
  if (!mpeg)
    return GST_BASE_SRC_CLASS (parent_class)->negotiate (bsrc);

  caps = ivtv_caps_for_mpeg_stream_type (src->mpeg_stream_type);
  if (caps == NULL) {
    /* caps once the first bytes are read */
    GST_DEBUG_OBJECT (src, "no stream-type control: sniffing the stream");
    src->mpeg = TRUE;
    src->need_sniff = TRUE;
    src->frame_size = 0;
    return TRUE;
  }
  GST_DEBUG_OBJECT (src, "%s: %" GST_PTR_FORMAT,
      ivtv_caps_mpeg_stream_type_name (src->mpeg_stream_type), caps);
  mpeg = gst_base_src_set_caps (bsrc, caps);
  gst_caps_unref (caps);
  return mpeg;
}

static GstCaps *
gst_ivtv_src_fixate (GstBaseSrc * bsrc, GstCaps * caps)
{
  GstIvtvSrc *src = GST_IVTV_SRC (bsrc);
  GstStructure *s;

  caps = gst_caps_make_writable (caps);
  s = gst_caps_get_structure (caps, 0);
  if (ivtv_caps_fourcc_from_structure (s) != V4L2_PIX_FMT_MPEG) {
    GstCaps *first = gst_caps_copy_nth (caps, 0);
    gst_caps_unref (caps);
    g_mutex_lock (&src->dev_lock);
    caps = ivtv_negotiate_fixate (&src->probe, &src->dev, first);
    g_mutex_unlock (&src->dev_lock);
    return caps;
  }
  return GST_BASE_SRC_CLASS (parent_class)->fixate (bsrc, caps);
}

static gboolean
set_mpeg_format (GstIvtvSrc * src)
{
  struct v4l2_format f;
  int ret;

  memset (&f, 0, sizeof (f));
  f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  ret = ivtv_ioctl (&src->dev, VIDIOC_G_FMT, &f);
  if (ret == 0 && f.fmt.pix.pixelformat == V4L2_PIX_FMT_MPEG)
    return TRUE;
  f.fmt.pix.pixelformat = V4L2_PIX_FMT_MPEG;
  ret = ivtv_ioctl (&src->dev, VIDIOC_S_FMT, &f);
  if (ret < 0 || f.fmt.pix.pixelformat != V4L2_PIX_FMT_MPEG) {
    GST_ELEMENT_ERROR (src, RESOURCE, SETTINGS,
        ("%s refused to deliver MPEG.", src->dev.path),
        ("S_FMT: %s", ret < 0 ? g_strerror (-ret) : "other format"));
    return FALSE;
  }
  return TRUE;
}

gboolean
ivtv_src_io_apply_format (GstIvtvSrc * src, GstCaps * caps)
{
  GstStructure *s = gst_caps_get_structure (caps, 0);
  guint32 fourcc = ivtv_caps_fourcc_from_structure (s);
  gboolean ok = FALSE;

  if (fourcc == V4L2_PIX_FMT_MPEG) {
    ok = set_mpeg_format (src);
    src->mpeg = TRUE;
    src->frame_size = 0;
  } else {
    IvtvNegotiated res;
    GError *err = NULL;

    src->mpeg = FALSE;
    ok = ivtv_negotiate_apply (&src->dev, &src->probe, caps, &res, &err);
    if (ok) {
      src->frame_size = res.sizeimage;
      src->fps_n = res.fps_n;
      src->fps_d = res.fps_d;
    } else {
      GST_ELEMENT_ERROR (src, RESOURCE, SETTINGS, ("%s", err->message),
          ("caps %" GST_PTR_FORMAT, caps));
      g_clear_error (&err);
    }
  }
  return ok;
}

static gboolean
gst_ivtv_src_set_caps (GstBaseSrc * bsrc, GstCaps * caps)
{
  GstIvtvSrc *src = GST_IVTV_SRC (bsrc);
  gboolean ok;

  GST_DEBUG_OBJECT (src, "caps %" GST_PTR_FORMAT, caps);
  g_mutex_lock (&src->dev_lock);
  if (src->io_started && src->need_sniff == FALSE && !src->mpeg)
    ivtv_src_io_stop (src);     /* renegotiation: restart with the format */
  ok = ivtv_src_io_apply_format (src, caps);
  g_mutex_unlock (&src->dev_lock);
  return ok;
}

static gboolean
gst_ivtv_src_decide_allocation (GstBaseSrc * bsrc, GstQuery * query)
{
  GstIvtvSrc *src = GST_IVTV_SRC (bsrc);
  guint min = 0;

  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, NULL, NULL, &min, NULL);
  src->extra_buffers = MIN (min, 16);
  return GST_BASE_SRC_CLASS (parent_class)->decide_allocation (bsrc, query);
}

/* ---- create ---- */

static gboolean
start_read (GstIvtvSrc * src)
{
  GError *err = NULL;
  guint blocksize = src->frame_size ? src->frame_size :
      gst_base_src_get_blocksize (GST_BASE_SRC (src));

  if (!ivtv_read_start (&src->reader, GST_ELEMENT (src), &src->dev,
          src->poll, blocksize, &err)) {
    GST_ELEMENT_ERROR (src, RESOURCE, NO_SPACE_LEFT, ("%s", err->message),
        (NULL));
    g_clear_error (&err);
    return FALSE;
  }
  GST_OBJECT_LOCK (src);
  ivtv_read_set_timeout (&src->reader, src->timeout);
  src->reader.reconnect = src->reconnect;
  GST_OBJECT_UNLOCK (src);
  set_current_io_mode (src, IVTV_IO_RW);
  return TRUE;
}

gboolean
ivtv_src_io_start (GstIvtvSrc * src)
{
  IvtvIoMode mode, requested;

  GST_OBJECT_LOCK (src);
  mode = src->current_io_mode;
  requested = src->io_mode;
  GST_OBJECT_UNLOCK (src);

  if (ivtv_io_mode_is_streaming (mode)) {
    GError *err = NULL;
    IvtvStreamMode smode = mode == IVTV_IO_USERPTR ? IVTV_STREAM_MODE_USERPTR
        : mode == IVTV_IO_DMABUF ? IVTV_STREAM_MODE_DMABUF :
        IVTV_STREAM_MODE_MMAP;

    src->stream = ivtv_stream_new (GST_ELEMENT (src), &src->dev, smode);
    GST_OBJECT_LOCK (src);
    ivtv_stream_set_timeout (src->stream, src->timeout);
    ivtv_stream_set_reconnect (src->stream, src->reconnect);
    GST_OBJECT_UNLOCK (src);
    if (ivtv_stream_start (src->stream, src->poll, src->extra_buffers, &err))
      return TRUE;
    ivtv_stream_free (src->stream);
    src->stream = NULL;
    if (err->code != IVTV_STREAM_ERROR_DEVICE
        && ivtv_io_mode_can_fall_back (requested, src->dev.device_caps)) {
      GST_ELEMENT_INFO (src, RESOURCE, SETTINGS,
          ("%s streaming failed (%s); capturing with read() instead.",
              ivtv_io_mode_nick (mode), err->message), (NULL));
      g_clear_error (&err);
      return start_read (src);
    }
    GST_ELEMENT_ERROR (src, RESOURCE, SETTINGS, ("%s", err->message),
        ("io-mode %s", ivtv_io_mode_nick (mode)));
    g_clear_error (&err);
    return FALSE;
  }
  return start_read (src);
}

static GstFlowReturn
io_create (GstIvtvSrc * src, GstBuffer ** buf)
{
  if (src->stream)
    return ivtv_stream_create (src->stream, buf);
  return ivtv_read_create (&src->reader, buf);
}

static GstFlowReturn
gst_ivtv_src_create (GstPushSrc * psrc, GstBuffer ** buf)
{
  GstIvtvSrc *src = GST_IVTV_SRC (psrc);
  GstFlowReturn ret;

  if (!src->io_started) {
    gboolean wait;

    GST_OBJECT_LOCK (src);
    wait = src->wait_for_signal;
    GST_OBJECT_UNLOCK (src);
    if (wait && !ivtv_signal_wait_present (&src->signal, src->poll))
      return GST_FLOW_FLUSHING;
    if (!ivtv_src_io_start (src))
      return GST_FLOW_ERROR;
    src->io_started = TRUE;
  }
  ret = io_create (src, buf);
  while (ret == GST_FLOW_CUSTOM_ERROR && ivtv_src_io_lost (src)) {
    ret = ivtv_src_reconnect (src);
    if (ret == GST_FLOW_OK)
      ret = io_create (src, buf);
    if (ret == GST_FLOW_OK)     /* what was lost meanwhile is a gap */
      GST_BUFFER_FLAG_SET (*buf, GST_BUFFER_FLAG_DISCONT);
  }

  if (ret == GST_FLOW_OK && src->need_sniff) {
    GstMapInfo map;
    gint type = IVTV_MPEG_STREAM_UNKNOWN;
    GstCaps *caps;

    if (gst_buffer_map (*buf, &map, GST_MAP_READ)) {
      type = ivtv_caps_sniff_mpeg (map.data, map.size);
      gst_buffer_unmap (*buf, &map);
    }
    if (type == IVTV_MPEG_STREAM_UNKNOWN) {
      GST_WARNING_OBJECT (src, "cannot tell the MPEG stream type; "
          "assuming a program stream");
      type = V4L2_MPEG_STREAM_TYPE_MPEG2_PS;
    }
    src->mpeg_stream_type = type;
    src->need_sniff = FALSE;
    caps = ivtv_caps_for_mpeg_stream_type (type);
    GST_INFO_OBJECT (src, "stream looks like a %s",
        ivtv_caps_mpeg_stream_type_name (type));
    if (!gst_base_src_set_caps (GST_BASE_SRC (src), caps)) {
      gst_caps_unref (caps);
      gst_buffer_unref (*buf);
      *buf = NULL;
      return GST_FLOW_NOT_NEGOTIATED;
    }
    gst_caps_unref (caps);
  }
  return ret;
}

/* ---- unlock, latency ---- */

static gboolean
gst_ivtv_src_unlock (GstBaseSrc * bsrc)
{
  GstIvtvSrc *src = GST_IVTV_SRC (bsrc);

  GST_OBJECT_LOCK (src);
  if (src->poll)
    gst_poll_set_flushing (src->poll, TRUE);
  GST_OBJECT_UNLOCK (src);
  return TRUE;
}

static gboolean
gst_ivtv_src_unlock_stop (GstBaseSrc * bsrc)
{
  GstIvtvSrc *src = GST_IVTV_SRC (bsrc);

  GST_OBJECT_LOCK (src);
  if (src->poll)
    gst_poll_set_flushing (src->poll, FALSE);
  GST_OBJECT_UNLOCK (src);
  return TRUE;
}

/* What a read() hands out at once on a card that keeps up: the device is
 * non-blocking, so a read returns what the driver has when poll() wakes
 * us, a DMA transfer or a few (the emulator: 8 KiB; ivtv: tens of KiB),
 * never a whole block of a large blocksize.  Data waits in the element
 * about that long, so that is its latency. */
#define IVTV_READ_LATENCY_BYTES (64 * 1024)

/* One buffer's worth of time: a frame for video; for MPEG, what one read
 * delivers (at most IVTV_READ_LATENCY_BYTES) at the encoder's bit rate. */
static GstClockTime
buffer_latency (GstIvtvSrc * src)
{
  gint w, h, fn = src->fps_n, fd = src->fps_d, pn, pd;
  gint64 bitrate = 0;

  if (src->mpeg) {
    g_mutex_lock (&src->dev_lock);
    if (ivtv_device_is_open (&src->dev))
      ivtv_controls_get_int (&src->dev, V4L2_CID_MPEG_VIDEO_BITRATE, &bitrate);
    g_mutex_unlock (&src->dev_lock);
    if (bitrate > 0)
      return gst_util_uint64_scale (MIN (gst_base_src_get_blocksize
              (GST_BASE_SRC (src)), IVTV_READ_LATENCY_BYTES) * 8, GST_SECOND,
          bitrate);
  }
  if (fn <= 0 || fd <= 0) {
    if (!ivtv_caps_std_geometry (src->probe.current_std, &w, &h, &fn, &fd,
            &pn, &pd)) {
      fn = 30;
      fd = 1;
    }
  }
  return gst_util_uint64_scale_int (GST_SECOND, fd, fn);
}

static gboolean
gst_ivtv_src_query (GstBaseSrc * bsrc, GstQuery * query)
{
  GstIvtvSrc *src = GST_IVTV_SRC (bsrc);

  if (GST_QUERY_TYPE (query) == GST_QUERY_LATENCY) {
    GstClockTime min;

    if (!src->capturing)
      return FALSE;
    min = buffer_latency (src);
    GST_DEBUG_OBJECT (src, "latency: live, min %" GST_TIME_FORMAT,
        GST_TIME_ARGS (min));
    gst_query_set_latency (query, TRUE, min, GST_CLOCK_TIME_NONE);
    return TRUE;
  }
  return GST_BASE_SRC_CLASS (parent_class)->query (bsrc, query);
}

void
ivtv_src_io_class_init (GstIvtvSrcClass * klass)
{
  GstBaseSrcClass *basesrc_class = GST_BASE_SRC_CLASS (klass);
  GstPushSrcClass *pushsrc_class = GST_PUSH_SRC_CLASS (klass);

  parent_class = g_type_class_peek_parent (klass);

  basesrc_class->start = GST_DEBUG_FUNCPTR (gst_ivtv_src_start);
  basesrc_class->stop = GST_DEBUG_FUNCPTR (gst_ivtv_src_stop);
  basesrc_class->get_caps = GST_DEBUG_FUNCPTR (gst_ivtv_src_get_caps);
  basesrc_class->negotiate = GST_DEBUG_FUNCPTR (gst_ivtv_src_negotiate);
  basesrc_class->fixate = GST_DEBUG_FUNCPTR (gst_ivtv_src_fixate);
  basesrc_class->set_caps = GST_DEBUG_FUNCPTR (gst_ivtv_src_set_caps);
  basesrc_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_ivtv_src_decide_allocation);
  basesrc_class->unlock = GST_DEBUG_FUNCPTR (gst_ivtv_src_unlock);
  basesrc_class->unlock_stop = GST_DEBUG_FUNCPTR (gst_ivtv_src_unlock_stop);
  basesrc_class->query = GST_DEBUG_FUNCPTR (gst_ivtv_src_query);
  pushsrc_class->create = GST_DEBUG_FUNCPTR (gst_ivtv_src_create);
  ivtv_src_end_class_init (klass);
}
