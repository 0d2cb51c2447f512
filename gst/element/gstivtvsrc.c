/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the element (GstPushSrc): its class, state changes and every
 * GstBaseSrc/GstPushSrc method; its private struct is gstivtvsrcpriv.h,
 * its property table ivtvsrcprops.c.  The capture itself (device,
 * settings, I/O, reconnect) is the capture session's (ivtvcapture.h); the
 * element hands it the properties and asks it for buffers. */

/**
 * SECTION:element-ivtvsrc
 * @title: ivtvsrc
 *
 * Captures from a V4L2 device, above all from read()-only MPEG encoder
 * cards (Hauppauge PVR-150/250/350/500: ivtv, cx18, pvrusb2), which give
 * an MPEG-2 program stream through read(); streaming devices (webcams, TV
 * cards) with mmap, userptr or dmabuf; a VBI node (/dev/vbiN) as closed
 * captions (closedcaption/x-cea-608) or the WSS aspect (vbi-services).
 * Input, standard, audio input and frequency are set before capture
 * starts (the input can change while capturing); MPEG caps follow the
 * card's stream type.  The encoder's settings are properties (each keeps
 * the card's value unless set), other controls go in extra-controls;
 * brightness, contrast, saturation and hue are GstColorBalance channels.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 ivtvsrc device=/dev/video0 input=composite standard=ntsc ! filesink location=tape.mpg
 * ]| Records the first composite input of a PVR-250 in NTSC.
 * |[
 * gst-launch-1.0 ivtvsrc input=tuner frequency=175250000 ! mpegpsdemux ! mpegvideoparse ! avdec_mpeg2video ! videoconvert ! videoscale ! autovideosink
 * ]| Watches channel 7 (US broadcast).
 * |[
 * gst-launch-1.0 -e ivtvsrc stream-type=ts bitrate=4000000 aspect=16:9 extra-controls="controls,brightness=140" ! filesink location=tape.ts
 * ]| Records a transport stream at 4 Mbit/s, 16:9, a little brighter.
 * |[
 * gst-launch-1.0 -e ivtvsrc input=composite signal-timeout=5 ! filesink location=tape.mpg
 * ]| Records a tape until it ends: 5 s without signal on the input sends
 * EOS.  On EOS (also Ctrl-C with -e) the encoder is stopped at the end of
 * its GOP and the rest of the stream is written, so the file ends with a
 * complete GOP (ivtv, cx18; a pvrusb2, which has no encoder command, gives
 * what its driver holds, up to the moment of the EOS).  No signal gives a warning and an `ivtvsrc-signal` element
 * message (fields `present`, `input`; again on every change); no data for
 * `timeout` seconds a warning, for twice as long an error; with
 * `reconnect=true` an unplugged card is waited for (`ivtvsrc-reconnect`
 * messages, state lost / restored).
 *
 * PAUSED does not cut holes into a recording: an MPEG encoder that can
 * pause (ivtv, cx18) is paused with the pipeline and resumes in PLAYING
 * (the file goes on from there); one that cannot (hdpvr, pvrusb2) is read
 * on into the queue meanwhile (max-buffer-bytes), its buffers stamped with
 * the running time of the pause.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "gstivtvsrcpriv.h"
#include "ivtvelements.h"
#include "ivtvcapture.h"
#include "ivtvcaps.h"
#include "ivtvcolorbalance.h"
#include "ivtvorientation.h"
#include "ivtvsettings.h"
#include "ivtvdebug.h"
#include "ivtvencoder.h"
#include "ivtvpath.h"
#include "ivtvurihandler.h"

#include <string.h>

#define GST_CAT_DEFAULT ivtvsrc_debug

#define gst_ivtv_src_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstIvtvSrc, gst_ivtv_src, GST_TYPE_PUSH_SRC,
    G_IMPLEMENT_INTERFACE (GST_TYPE_COLOR_BALANCE,
        ivtv_color_balance_iface_init)
    G_IMPLEMENT_INTERFACE (GST_TYPE_VIDEO_ORIENTATION,
        ivtv_orientation_iface_init)
    G_IMPLEMENT_INTERFACE (GST_TYPE_URI_HANDLER, ivtv_uri_handler_init));
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (ivtvsrc, "ivtvsrc", GST_RANK_NONE,
    GST_TYPE_IVTV_SRC, ivtv_debug_init ());

static void gst_ivtv_src_finalize (GObject * object);
static GstStateChangeReturn gst_ivtv_src_change_state (GstElement * element,
    GstStateChange transition);
static gboolean gst_ivtv_src_send_event (GstElement * element,
    GstEvent * event);
static void install_base_src_methods (GstIvtvSrcClass * klass);

/* ---- class ---- */

static void
gst_ivtv_src_class_init (GstIvtvSrcClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCaps *caps;

  gobject_class->finalize = gst_ivtv_src_finalize;
  gobject_class->set_property = ivtv_src_set_property;
  gobject_class->get_property = ivtv_src_get_property;
  ivtv_src_install_properties (gobject_class);

  gst_element_class_set_static_metadata (element_class,
      "IVTV / V4L2 video source", "Source/Video",
      "Captures from V4L2 devices, including read()-only MPEG encoder cards "
      "(ivtv, cx18, pvrusb2)", "ivtvsrc project");
  gst_element_class_add_metadata (element_class, GST_ELEMENT_METADATA_DOC_URI,
      IVTV_DOC_URI);

  caps = ivtv_caps_template ();
  gst_caps_append (caps, ivtv_vbi_template_caps ());
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);

  element_class->change_state = GST_DEBUG_FUNCPTR (gst_ivtv_src_change_state);
  element_class->send_event = GST_DEBUG_FUNCPTR (gst_ivtv_src_send_event);
  install_base_src_methods (klass);

  gst_type_mark_as_plugin_api (IVTV_TYPE_IO_MODE, 0);
  gst_type_mark_as_plugin_api (IVTV_TYPE_LIBV4L2_MODE, 0);
  ivtv_debug_init ();
}

static void
gst_ivtv_src_init (GstIvtvSrc * src)
{
  src->device = g_strdup (DEFAULT_DEVICE);
  src->device_fd = DEFAULT_DEVICE_FD;
  src->use_libv4l2 = DEFAULT_USE_LIBV4L2;
  ivtv_capture_settings_init (&src->props);
  src->props.frequency = DEFAULT_FREQUENCY;
  src->props.io_mode = DEFAULT_IO_MODE;
  src->props.timeout = DEFAULT_TIMEOUT;
  src->props.signal_timeout = DEFAULT_SIGNAL_TIMEOUT;
  src->props.wait_for_signal = DEFAULT_WAIT_FOR_SIGNAL;
  src->props.reconnect = DEFAULT_RECONNECT;
  src->props.record_priority = DEFAULT_RECORD_PRIORITY;
  src->capture = ivtv_capture_new (GST_ELEMENT (src));
  g_rec_mutex_init (&src->negotiate_lock);

  gst_base_src_set_live (GST_BASE_SRC (src), TRUE);
  gst_base_src_set_format (GST_BASE_SRC (src), GST_FORMAT_TIME);
  gst_base_src_set_do_timestamp (GST_BASE_SRC (src), TRUE);
  gst_base_src_set_blocksize (GST_BASE_SRC (src), DEFAULT_BLOCKSIZE);
}

static void
gst_ivtv_src_finalize (GObject * object)
{
  GstIvtvSrc *src = GST_IVTV_SRC (object);

  ivtv_color_balance_clear (src);
  ivtv_capture_free (src->capture);
  g_rec_mutex_clear (&src->negotiate_lock);
  ivtv_capture_settings_clear (&src->props);
  g_free (src->device);
  g_free (src->par);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* ---- state changes: NULL <-> READY open, probe, close ---- */

static gboolean
open_device (GstIvtvSrc * src)
{
  GError *err = NULL;
  IvtvOpenRecipe recipe;
  gchar *path;
  gboolean ok;

  GST_OBJECT_LOCK (src);
  path = g_strdup (src->device);
  recipe.fd = src->device_fd;
  recipe.libv4l2 = src->use_libv4l2;
  GST_OBJECT_UNLOCK (src);
  recipe.path = path;

  ok = ivtv_capture_open (src->capture, &recipe, &err);
  if (!ok) {
    gst_element_message_full (GST_ELEMENT (src), GST_MESSAGE_ERROR,
        GST_RESOURCE_ERROR, ivtv_device_error_resource (err),
        g_strdup (err->message), g_strdup_printf ("opening the device "
            "failed (%s)", g_quark_to_string (err->domain)), __FILE__,
        GST_FUNCTION, __LINE__);
    g_clear_error (&err);
  }
  g_free (path);
  return ok;
}

/* The read buffers can be had: the buffer pool's g_malloc would abort the
 * process (issue 28), so a blocksize the machine cannot give is one error
 * that says so. */
static gboolean
can_allocate (GstIvtvSrc * src, guint blocksize)
{
  gpointer p = g_try_malloc (blocksize);

  if (p != NULL) {
    g_free (p);
    return TRUE;
  }
  GST_ELEMENT_ERROR (src, RESOURCE, NO_SPACE_LEFT,
      (_("Cannot allocate read buffers of %u bytes"), blocksize),
      ("blocksize: g_try_malloc failed"));
  return FALSE;
}

/* READY -> PAUSED before the base class: names, then the session starts.
 * A failure posts one error (in GstBaseSrc::start() the base class would
 * add a generic second one, "state change failed..."). */
static gboolean
start_capture (GstIvtvSrc * src)
{
  IvtvCaptureSettings s;
  gint current[IVTV_ENC_N_NAMED];
  gboolean ok;

  ivtv_src_snapshot (src, &s);
  ok = can_allocate (src, s.blocksize)
      && ivtv_capture_check_names (src->capture, &s)
      && ivtv_capture_start (src->capture, &s);
  ivtv_capture_settings_clear (&s);
  ivtv_capture_get_encoder_current (src->capture, current);
  GST_OBJECT_LOCK (src);
  memcpy (src->props.encoder.current, current, sizeof (current));
  GST_OBJECT_UNLOCK (src);
  return ok;
}

static GstStateChangeReturn
gst_ivtv_src_change_state (GstElement * element, GstStateChange transition)
{
  GstIvtvSrc *src = GST_IVTV_SRC (element);
  GstStateChangeReturn ret;

  if (transition == GST_STATE_CHANGE_NULL_TO_READY && !open_device (src))
    return GST_STATE_CHANGE_FAILURE;
  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED && !start_capture (src))
    return GST_STATE_CHANGE_FAILURE;    /* one error, posted */
  /* an MPEG encoder pauses with the pipeline, or is read on meanwhile:
   * PAUSED does not splice the recording (issue 28 item 1) */
  if (transition == GST_STATE_CHANGE_PLAYING_TO_PAUSED)
    ivtv_capture_set_playing (src->capture, FALSE);
  else if (transition == GST_STATE_CHANGE_PAUSED_TO_PLAYING)
    ivtv_capture_set_playing (src->capture, TRUE);

  ret = GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED
      && ret == GST_STATE_CHANGE_FAILURE)
    ivtv_capture_stop (src->capture);

  if (transition == GST_STATE_CHANGE_READY_TO_NULL
      || (transition == GST_STATE_CHANGE_NULL_TO_READY
          && ret == GST_STATE_CHANGE_FAILURE)) {
    ivtv_color_balance_clear (src);
    ivtv_capture_close (src->capture);
  }
  return ret;
}

/* EOS from the application (gst-launch -e) or the signal watch: a read()
 * MPEG encoder is stopped at the end of its GOP and the capture reads on
 * until the driver ends the stream (or 2 s pass); then create() returns
 * EOS and the base class sends it downstream.  The file ends with a
 * complete GOP.  One without an encoder command (pvrusb2) is read for
 * what its driver holds, without waiting for more.  Any other capture being read ends its reading, and
 * create() hands out what is queued, then EOS; only before the first
 * buffer (no reader yet) does the base class handle the EOS. */
static gboolean
gst_ivtv_src_send_event (GstElement * element, GstEvent * event)
{
  GstIvtvSrc *src = GST_IVTV_SRC (element);

  if (GST_EVENT_TYPE (event) == GST_EVENT_EOS)
    ivtv_capture_end_pause (src->capture);      /* EOS while PAUSED */
  if (GST_EVENT_TYPE (event) == GST_EVENT_EOS
      && ivtv_capture_drain (src->capture)) {
    GST_INFO_OBJECT (src, "EOS: the encoder stopped (at the end of its "
        "GOP) or has no stop: reading the rest of the stream");
    gst_event_unref (event);
    return TRUE;
  }
  return GST_ELEMENT_CLASS (parent_class)->send_event (element, event);
}

/* ---- GstBaseSrc: stop (the start is start_capture's) ---- */

static gboolean
gst_ivtv_src_stop (GstBaseSrc * bsrc)
{
  ivtv_capture_stop (GST_IVTV_SRC (bsrc)->capture);
  return TRUE;
}

/* ---- caps ---- */

static GstCaps *
gst_ivtv_src_get_caps (GstBaseSrc * bsrc, GstCaps * filter)
{
  GstIvtvSrc *src = GST_IVTV_SRC (bsrc);
  GstCaps *caps, *res;

  caps = ivtv_capture_get_caps (src->capture);
  if (caps == NULL)
    caps = gst_pad_get_pad_template_caps (GST_BASE_SRC_PAD (bsrc));
  caps = ivtv_src_fix_par (src, caps);
  if (filter) {
    res = gst_caps_intersect_full (filter, caps, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (caps);
    caps = res;
  }
  return caps;
}

/* MPEG: the card's stream type decides (or the first bytes, then caps are
 * set in create); the rest: the base class, with our fixation.  Caps are
 * asked, chosen and set with no live input or standard change in between
 * (apply_live waits). */
static gboolean
gst_ivtv_src_negotiate (GstBaseSrc * bsrc)
{
  GstIvtvSrc *src = GST_IVTV_SRC (bsrc);
  GstCaps *caps = NULL;
  gboolean ok = TRUE;

  g_rec_mutex_lock (&src->negotiate_lock);
  if (!ivtv_capture_negotiate_mpeg (src->capture, &caps))
    ok = GST_BASE_SRC_CLASS (parent_class)->negotiate (bsrc);
  else if (caps != NULL) {      /* (NULL: sniffed at the first buffer) */
    GST_DEBUG_OBJECT (src, "MPEG: %" GST_PTR_FORMAT, caps);
    ok = gst_pad_peer_query_accept_caps (bsrc->srcpad, caps)
        && gst_base_src_set_caps (bsrc, caps);
  }
  ok = ok || ivtv_capture_explain_caps (src->capture, bsrc->srcpad);
  g_rec_mutex_unlock (&src->negotiate_lock);
  if (caps != NULL)
    gst_caps_unref (caps);
  return ok;
}

static GstCaps *
gst_ivtv_src_fixate (GstBaseSrc * bsrc, GstCaps * caps)
{
  GstIvtvSrc *src = GST_IVTV_SRC (bsrc);
  GstCaps *first;

  caps = gst_caps_make_writable (caps);
  if (ivtv_caps_fourcc_from_structure (gst_caps_get_structure (caps, 0))
      == V4L2_PIX_FMT_MPEG)
    return GST_BASE_SRC_CLASS (parent_class)->fixate (bsrc, caps);
  first = gst_caps_copy_nth (caps, 0);
  gst_caps_unref (caps);
  return ivtv_capture_fixate (src->capture, first);
}

static gboolean
gst_ivtv_src_set_caps (GstBaseSrc * bsrc, GstCaps * caps)
{
  GST_DEBUG_OBJECT (bsrc, "caps %" GST_PTR_FORMAT, caps);
  return ivtv_capture_set_format (GST_IVTV_SRC (bsrc)->capture, caps);
}

static gboolean
gst_ivtv_src_decide_allocation (GstBaseSrc * bsrc, GstQuery * query)
{
  guint min = 0;

  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, NULL, NULL, &min, NULL);
  ivtv_capture_set_extra_buffers (GST_IVTV_SRC (bsrc)->capture, min);
  return GST_BASE_SRC_CLASS (parent_class)->decide_allocation (bsrc, query);
}

/* ---- data ---- */

static GstFlowReturn
gst_ivtv_src_create (GstPushSrc * psrc, GstBuffer ** buf)
{
  GstIvtvSrc *src = GST_IVTV_SRC (psrc);
  GstCaps *sniffed = NULL;
  IvtvError *error = NULL;
  GstFlowReturn ret;

  ret = ivtv_capture_next (src->capture, buf, &sniffed, &error);
  /* the capture's one error, after every buffer read before it; then EOS,
   * not GST_FLOW_ERROR: the base class would post a second, generic
   * "Internal data stream error" (GST_ELEMENT_FLOW_ERROR) after ours, and
   * with EOS it still tells downstream to finish (a muxer closes its file) */
  if (error != NULL && ret == GST_FLOW_ERROR)
    ret = GST_FLOW_EOS;
  ivtv_error_post (error, GST_ELEMENT (src));
  if (sniffed && !gst_base_src_set_caps (GST_BASE_SRC (src), sniffed)) {
    gst_buffer_unref (*buf);
    *buf = NULL;
    ret = GST_FLOW_NOT_NEGOTIATED;
  }
  gst_clear_caps (&sniffed);
  /* num-buffers reached: the base class sends EOS without asking us */
  if (ret == GST_FLOW_OK && GST_BASE_SRC (src)->num_buffers_left == 0)
    ivtv_capture_last_buffer (src->capture);
  return ret;
}

static gboolean
gst_ivtv_src_unlock (GstBaseSrc * bsrc)
{
  ivtv_capture_set_flushing (GST_IVTV_SRC (bsrc)->capture, TRUE);
  return TRUE;
}

static gboolean
gst_ivtv_src_unlock_stop (GstBaseSrc * bsrc)
{
  ivtv_capture_set_flushing (GST_IVTV_SRC (bsrc)->capture, FALSE);
  return TRUE;
}

static gboolean
gst_ivtv_src_query (GstBaseSrc * bsrc, GstQuery * query)
{
  GstIvtvSrc *src = GST_IVTV_SRC (bsrc);
  GstClockTime min;

  if (GST_QUERY_TYPE (query) != GST_QUERY_LATENCY)
    return GST_BASE_SRC_CLASS (parent_class)->query (bsrc, query);
  min = ivtv_capture_latency (src->capture,
      gst_base_src_get_blocksize (bsrc));
  if (!GST_CLOCK_TIME_IS_VALID (min))
    return FALSE;               /* not capturing */
  GST_DEBUG_OBJECT (src, "latency: live, min %" GST_TIME_FORMAT,
      GST_TIME_ARGS (min));
  gst_query_set_latency (query, TRUE, min, GST_CLOCK_TIME_NONE);
  return TRUE;
}

static void
install_base_src_methods (GstIvtvSrcClass * klass)
{
  GstBaseSrcClass *basesrc_class = GST_BASE_SRC_CLASS (klass);
  GstPushSrcClass *pushsrc_class = GST_PUSH_SRC_CLASS (klass);

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
}
