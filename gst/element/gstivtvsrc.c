/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the element (GstPushSrc): its properties, state changes and
 * every GstBaseSrc/GstPushSrc method, in a private struct.  The capture
 * itself (device, settings, I/O, reconnect) is the capture session's
 * (ivtvcapture.h); the element hands it the properties and asks it for
 * buffers. */

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
 * gst-launch-1.0 ivtvsrc input=tuner frequency=175250000 ! mpegpsdemux ! mpegvideoparse ! avdec_mpeg2video ! autovideosink
 * ]| Watches channel 7 (US broadcast).
 * |[
 * gst-launch-1.0 -e ivtvsrc stream-type=ts bitrate=4000000 aspect=16:9 extra-controls="controls,brightness=140" ! filesink location=tape.ts
 * ]| Records a transport stream at 4 Mbit/s, 16:9, a little brighter.
 * |[
 * gst-launch-1.0 -e ivtvsrc input=composite signal-timeout=5 ! filesink location=tape.mpg
 * ]| Records a tape until it ends: 5 s without signal on the input sends
 * EOS.  On EOS (also Ctrl-C with -e) the encoder is stopped at the end of
 * its GOP and the rest of the stream is written, so the file ends with a
 * complete GOP.  No signal gives a warning and an `ivtvsrc-signal` element
 * message (fields `present`, `input`; again on every change); no data for
 * `timeout` seconds a warning, for twice as long an error; with
 * `reconnect=true` an unplugged card is waited for (`ivtvsrc-reconnect`
 * messages, state lost / restored).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstivtvsrc.h"
#include "ivtvelements.h"
#include "ivtvcapture.h"
#include "ivtvcaps.h"
#include "ivtvcolorbalance.h"
#include "ivtvdropin.h"
#include "ivtvorientation.h"
#include "ivtvsettings.h"
#include "ivtvdebug.h"
#include "ivtvencoder.h"
#include "ivtvpath.h"
#include "ivtvqueueprops.h"
#include "ivtvurihandler.h"

#include <string.h>

#define GST_CAT_DEFAULT ivtvsrc_debug

#define DEFAULT_DEVICE       "/dev/video0"
#define DEFAULT_DEVICE_FD    -1
#define DEFAULT_FREQUENCY    0
#define DEFAULT_IO_MODE      IVTV_IO_AUTO
#define DEFAULT_USE_LIBV4L2  IVTV_LIBV4L2_AUTO
#define DEFAULT_BLOCKSIZE    524288
#define DEFAULT_TIMEOUT      IVTV_PATH_DEFAULT_TIMEOUT
#define DEFAULT_SIGNAL_TIMEOUT 0
#define DEFAULT_WAIT_FOR_SIGNAL FALSE
#define DEFAULT_RECONNECT    FALSE
#define DEFAULT_RECORD_PRIORITY TRUE

enum
{
  PROP_0,
  PROP_DEVICE,
  PROP_DEVICE_FD,
  PROP_INPUT,
  PROP_STANDARD,
  PROP_FREQUENCY,
  PROP_AUDIO_INPUT,
  PROP_IO_MODE,
  PROP_USE_LIBV4L2,
  PROP_DEVICE_NAME,
  PROP_DRIVER,
  PROP_CURRENT_IO_MODE,
  PROP_INPUTS,
  PROP_STANDARDS,
  PROP_BLOCKSIZE,               /* robustness */
  PROP_TIMEOUT,
  PROP_SIGNAL_TIMEOUT,
  PROP_WAIT_FOR_SIGNAL,
  PROP_RECONNECT,
  PROP_RECORD_PRIORITY,
  PROP_ENCODER_FIRST,           /* ivtvencoder.c: IVTV_ENC_N_PROPS ids */
  PROP_ENCODER_LAST = PROP_ENCODER_FIRST + IVTV_ENC_N_PROPS - 1,
  PROP_VBI_FIRST,               /* ivtvvbiprops.c: IVTV_VBI_N_PROPS ids */
  PROP_QUEUE_FIRST = PROP_VBI_FIRST + IVTV_VBI_N_PROPS,  /* ivtvqueueprops.c */
  PROP_DROPIN_FIRST = PROP_QUEUE_FIRST + IVTV_QUEUE_N_PROPS     /* ivtvdropin.c */
};

struct _GstIvtvSrc
{
  GstPushSrc parent;

  /* properties (object lock); props.blocksize is the base class's */
  gchar *device;
  gint device_fd;
  IvtvLibv4l2Mode use_libv4l2;
  IvtvCaptureSettings props;

  IvtvCapture *capture;         /* the device and everything done with it */
  /* a live input/standard change waits for a negotiation under way (its
   * caps were asked of the old input) and is then renegotiated */
  GRecMutex negotiate_lock;
};

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
static void gst_ivtv_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
static void gst_ivtv_src_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
static GstStateChangeReturn gst_ivtv_src_change_state (GstElement * element,
    GstStateChange transition);
static gboolean gst_ivtv_src_send_event (GstElement * element,
    GstEvent * event);
static void install_base_src_methods (GstIvtvSrcClass * klass);

/* ---- class ---- */

/* The device, what to capture from it and how. */
static void
install_device_properties (GObjectClass * gobject_class)
{
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  g_object_class_install_property (gobject_class, PROP_DEVICE,
      g_param_spec_string ("device", "Device",
          "V4L2 device node to capture from, e.g. /dev/video0 (the MPEG "
          "encoder node of an ivtv card)", DEFAULT_DEVICE,
          rw | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_DEVICE_FD,
      g_param_spec_int ("device-fd", "Device fd",
          "Capture from this descriptor instead of 'device' (the element "
          "uses a dup() of it; -1 = open 'device'); reads back the fd in use",
          -1, G_MAXINT, DEFAULT_DEVICE_FD, rw | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_INPUT,
      g_param_spec_string ("input", "Input",
          "Video input: an index, the exact name, or a fuzzy name such as "
          "composite, composite2, svideo, s-video, tuner, tv; auto = the "
          "first input with a signal (the current one first, the tuner "
          "last; an error names every input when none has one) (NULL = "
          "keep the card's current input). Can be changed while capturing",
          NULL, rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_STANDARD,
      g_param_spec_string ("standard", "TV standard",
          "TV standard: ntsc, ntsc-m, ntsc-jp, pal, pal-bg, pal-i, pal-m, "
          "pal-n, secam, secam-l, ..., or auto to detect it (NULL = keep "
          "the card's). A change while capturing is refused with a warning "
          "where the driver cannot do it (ivtv) and applies at the next start",
          NULL, rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_FREQUENCY,
      g_param_spec_uint64 ("frequency", "Frequency",
          "Tuner frequency in Hz (0 = keep the card's); needs the tuner "
          "input", 0, G_MAXUINT64, DEFAULT_FREQUENCY,
          rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_AUDIO_INPUT,
      g_param_spec_string ("audio-input", "Audio input",
          "Audio input of the encoder: an index, the name or a fuzzy name "
          "such as tuner, line, line2 (NULL = keep the card's)", NULL,
          rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_IO_MODE,
      g_param_spec_enum ("io-mode", "I/O mode",
          "How to get data from the driver: auto (mmap streaming when "
          "possible, else read()), rw (read()), mmap, userptr, dmabuf",
          IVTV_TYPE_IO_MODE, DEFAULT_IO_MODE, rw | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_USE_LIBV4L2,
      g_param_spec_enum ("use-libv4l2", "Use libv4l2",
          "Use libv4l2 for format conversion: auto (only for streaming "
          "devices none of whose formats GStreamer knows; never for MPEG), "
          "on, off", IVTV_TYPE_LIBV4L2_MODE, DEFAULT_USE_LIBV4L2,
          rw | GST_PARAM_MUTABLE_READY));
}

/* What the open device is (read-only). */
static void
install_info_properties (GObjectClass * gobject_class)
{
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  g_object_class_install_property (gobject_class, PROP_DEVICE_NAME,
      g_param_spec_string ("device-name", "Device name",
          "The card's name (from VIDIOC_QUERYCAP; NULL before READY)", NULL,
          ro));
  g_object_class_install_property (gobject_class, PROP_DRIVER,
      g_param_spec_string ("driver", "Driver",
          "The driver's name, e.g. ivtv (NULL before READY)", NULL, ro));
  g_object_class_install_property (gobject_class, PROP_CURRENT_IO_MODE,
      g_param_spec_enum ("current-io-mode", "Current I/O mode",
          "The I/O mode in use (auto until capture starts)",
          IVTV_TYPE_IO_MODE, IVTV_IO_AUTO, ro));
  g_object_class_install_property (gobject_class, PROP_INPUTS,
      g_param_spec_boxed ("inputs", "Inputs",
          "Names of the card's video inputs (NULL before READY)",
          G_TYPE_STRV, ro));
  g_object_class_install_property (gobject_class, PROP_STANDARDS,
      g_param_spec_boxed ("standards", "Standards",
          "Names of the TV standards the card offers (NULL before READY)",
          G_TYPE_STRV, ro));
}

/* Stalls, signal, reconnect, and blocksize with our default. */
static void
install_robustness_properties (GObjectClass * gobject_class)
{
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  g_object_class_install_property (gobject_class, PROP_BLOCKSIZE,
      g_param_spec_uint ("blocksize", "Block size",
          "Bytes per buffer for read() capture (MPEG byte streams); raw "
          "frames use the frame size", 1, G_MAXUINT, DEFAULT_BLOCKSIZE, rw));
  g_object_class_install_property (gobject_class, PROP_TIMEOUT,
      g_param_spec_uint ("timeout", "Timeout",
          "Seconds without data before a warning (the encoder stalled); "
          "after twice as long the capture ends with an error (0 = wait "
          "for ever)", 0, 3600, DEFAULT_TIMEOUT, rw));
  g_object_class_install_property (gobject_class, PROP_SIGNAL_TIMEOUT,
      g_param_spec_uint ("signal-timeout", "Signal timeout",
          "Seconds without a signal on the input before the recording ends "
          "by itself with EOS (end of the tape; 0 = never)", 0, 86400,
          DEFAULT_SIGNAL_TIMEOUT, rw | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_WAIT_FOR_SIGNAL,
      g_param_spec_boolean ("wait-for-signal", "Wait for signal",
          "Hold the first buffer until the input has a signal (start the "
          "pipeline, then press play on the camera)", DEFAULT_WAIT_FOR_SIGNAL,
          rw | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_RECONNECT,
      g_param_spec_boolean ("reconnect", "Reconnect",
          "When the device goes away (unplugged), post an ivtvsrc-reconnect "
          "message (state=lost), try to open it again once a second for up "
          "to 12 x timeout seconds (60 s at least) and resume (state="
          "restored) instead of failing, with the same settings and format "
          "(read() and streaming capture)", DEFAULT_RECONNECT,
          rw | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_RECORD_PRIORITY,
      g_param_spec_boolean ("record-priority", "Record priority",
          "Hold V4L2's record priority while capturing, so that no other "
          "program can change the card's input, standard, frequency or "
          "controls (false: let e.g. v4l2-ctl adjust them during the "
          "recording)", DEFAULT_RECORD_PRIORITY, rw | GST_PARAM_MUTABLE_READY));
}

static void
gst_ivtv_src_class_init (GstIvtvSrcClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstCaps *caps;

  gobject_class->finalize = gst_ivtv_src_finalize;
  gobject_class->set_property = gst_ivtv_src_set_property;
  gobject_class->get_property = gst_ivtv_src_get_property;

  install_device_properties (gobject_class);
  install_info_properties (gobject_class);
  ivtv_encoder_install_properties (gobject_class, PROP_ENCODER_FIRST);
  ivtv_vbi_install_properties (gobject_class, PROP_VBI_FIRST);
  install_robustness_properties (gobject_class);
  ivtv_queue_install_properties (gobject_class, PROP_QUEUE_FIRST);
  ivtv_dropin_install_properties (gobject_class, PROP_DROPIN_FIRST);

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
  ivtv_color_balance_attach (G_OBJECT (src), src->capture);
  ivtv_dropin_attach (G_OBJECT (src), src->capture);

  gst_base_src_set_live (GST_BASE_SRC (src), TRUE);
  gst_base_src_set_format (GST_BASE_SRC (src), GST_FORMAT_TIME);
  gst_base_src_set_do_timestamp (GST_BASE_SRC (src), TRUE);
  gst_base_src_set_blocksize (GST_BASE_SRC (src), DEFAULT_BLOCKSIZE);
}

static void
gst_ivtv_src_finalize (GObject * object)
{
  GstIvtvSrc *src = GST_IVTV_SRC (object);

  ivtv_color_balance_clear (object);
  ivtv_capture_free (src->capture);
  g_rec_mutex_clear (&src->negotiate_lock);
  ivtv_capture_settings_clear (&src->props);
  g_free (src->device);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* ---- properties ---- */

/* A copy of the properties for the capture session (g_free its strings
 * with ivtv_capture_settings_clear). */
static void
snapshot (GstIvtvSrc * src, IvtvCaptureSettings * s)
{
  GST_OBJECT_LOCK (src);
  ivtv_capture_settings_copy (s, &src->props);
  GST_OBJECT_UNLOCK (src);
  s->blocksize = gst_base_src_get_blocksize (GST_BASE_SRC (src));
}

/* A property that changes what the card does, while capturing: applied now
 * (failures are warnings); a value the card refused is put back. */
static void
apply_live (GstIvtvSrc * src, IvtvSettingMask what)
{
  IvtvCaptureSettings s;
  IvtvSettingMask refused;

  snapshot (src, &s);
  g_rec_mutex_lock (&src->negotiate_lock);
  if (ivtv_capture_update (src->capture, &s, what, &refused))
    gst_pad_mark_reconfigure (GST_BASE_SRC_PAD (src));
  g_rec_mutex_unlock (&src->negotiate_lock);
  GST_OBJECT_LOCK (src);
  ivtv_capture_settings_restore (&src->props, &s, refused);
  GST_OBJECT_UNLOCK (src);
  ivtv_capture_settings_clear (&s);
}

static void
set_string (gchar ** field, const GValue * value)
{
  g_free (*field);
  *field = g_value_dup_string (value);
}

static IvtvSettingMask
live_setting_of (guint prop_id)
{
  static const guint live[][2] = { {PROP_INPUT, IVTV_SETTING_INPUT},
  {PROP_STANDARD, IVTV_SETTING_STANDARD}, {PROP_AUDIO_INPUT,
      IVTV_SETTING_AUDIO}, {PROP_FREQUENCY, IVTV_SETTING_FREQUENCY},
  {PROP_ENCODER_FIRST + IVTV_ENC_EXTRA_CONTROLS, IVTV_SETTING_EXTRA_CONTROLS}
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (live); i++)
    if (live[i][0] == prop_id)
      return live[i][1];
  return 0;
}

static void
gst_ivtv_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstIvtvSrc *src = GST_IVTV_SRC (object);
  IvtvCaptureSettings *p = &src->props;

  if ((prop_id == PROP_DEVICE || prop_id == PROP_DEVICE_FD)
      && ivtv_capture_refuse_device_change (src->capture, pspec->name))
    return;                     /* warned: the device in use stays */
  if (ivtv_dropin_set_property (object, prop_id, value, pspec))
    return;                     /* v4l2src's names, through ours */
  if (prop_id == PROP_BLOCKSIZE) {      /* takes the object lock itself */
    gst_base_src_set_blocksize (GST_BASE_SRC (src), g_value_get_uint (value));
    return;
  }
  if (ivtv_queue_set_property (src->capture, prop_id - PROP_QUEUE_FIRST, value))
    return;
  GST_OBJECT_LOCK (src);
  if (prop_id >= PROP_ENCODER_FIRST && prop_id <= PROP_ENCODER_LAST)
    ivtv_encoder_set_property (&p->encoder, prop_id - PROP_ENCODER_FIRST,
        value);
  else if (ivtv_vbi_set_property (&p->vbi, prop_id - PROP_VBI_FIRST, value));
  else if (prop_id == PROP_DEVICE)
    set_string (&src->device, value);
  else if (prop_id == PROP_DEVICE_FD)
    src->device_fd = g_value_get_int (value);
  else if (prop_id == PROP_INPUT)
    set_string (&p->input, value);
  else if (prop_id == PROP_STANDARD)
    set_string (&p->standard, value);
  else if (prop_id == PROP_FREQUENCY)
    p->frequency = g_value_get_uint64 (value);
  else if (prop_id == PROP_AUDIO_INPUT)
    set_string (&p->audio_input, value);
  else if (prop_id == PROP_IO_MODE)
    p->io_mode = g_value_get_enum (value);
  else if (prop_id == PROP_USE_LIBV4L2)
    src->use_libv4l2 = g_value_get_enum (value);
  else if (prop_id == PROP_TIMEOUT)
    p->timeout = g_value_get_uint (value);
  else if (prop_id == PROP_SIGNAL_TIMEOUT)
    p->signal_timeout = g_value_get_uint (value);
  else if (prop_id == PROP_WAIT_FOR_SIGNAL)
    p->wait_for_signal = g_value_get_boolean (value);
  else if (prop_id == PROP_RECONNECT)
    p->reconnect = g_value_get_boolean (value);
  else if (prop_id == PROP_RECORD_PRIORITY)
    p->record_priority = g_value_get_boolean (value);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  GST_OBJECT_UNLOCK (src);

  if (prop_id == PROP_TIMEOUT)
    ivtv_capture_set_timeout (src->capture, g_value_get_uint (value));
  if (live_setting_of (prop_id))
    apply_live (src, live_setting_of (prop_id));
}

/* device-name, driver, inputs, standards: from the probe of the open
 * device (NULL before READY). */
static void
get_device_info (GstIvtvSrc * src, guint prop_id, GValue * value)
{
  IvtvProbe *probe = ivtv_capture_probe (src->capture);

  ivtv_capture_lock (src->capture);
  if (!ivtv_device_is_open (ivtv_capture_device (src->capture))) {
    if (G_VALUE_HOLDS_STRING (value))
      g_value_set_string (value, NULL);
    else
      g_value_set_boxed (value, NULL);
  } else if (prop_id == PROP_DEVICE_NAME)
    g_value_set_string (value, probe->card);
  else if (prop_id == PROP_DRIVER)
    g_value_set_string (value, probe->driver);
  else if (prop_id == PROP_INPUTS)
    g_value_take_boxed (value, ivtv_settings_input_names (probe));
  else
    g_value_take_boxed (value, ivtv_settings_std_names (probe));
  ivtv_capture_unlock (src->capture);
}

static void
gst_ivtv_src_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstIvtvSrc *src = GST_IVTV_SRC (object);
  IvtvCaptureSettings *p = &src->props;

  if (ivtv_dropin_get_property (object, prop_id, value, pspec))
    return;                     /* also device-fd while open */
  if (ivtv_queue_get_property (src->capture, prop_id - PROP_QUEUE_FIRST,
          value))
    return;
  if (prop_id == PROP_BLOCKSIZE)        /* takes the object lock itself */
    g_value_set_uint (value, gst_base_src_get_blocksize (GST_BASE_SRC (src)));
  else if (prop_id == PROP_CURRENT_IO_MODE)
    g_value_set_enum (value, ivtv_capture_get_io_mode (src->capture));
  else if (prop_id >= PROP_DEVICE_NAME && prop_id <= PROP_STANDARDS)
    get_device_info (src, prop_id, value);      /* name, driver, lists */
  if (prop_id == PROP_BLOCKSIZE || (prop_id >= PROP_DEVICE_NAME
          && prop_id <= PROP_STANDARDS))
    return;

  GST_OBJECT_LOCK (src);
  if (prop_id >= PROP_ENCODER_FIRST && prop_id <= PROP_ENCODER_LAST)
    ivtv_encoder_get_property (&p->encoder, prop_id - PROP_ENCODER_FIRST,
        value);
  else if (ivtv_vbi_get_property (&p->vbi, prop_id - PROP_VBI_FIRST, value));
  else if (prop_id == PROP_DEVICE)
    g_value_set_string (value, src->device);
  else if (prop_id == PROP_DEVICE_FD)
    g_value_set_int (value, src->device_fd);
  else if (prop_id == PROP_INPUT)
    g_value_set_string (value, p->input);
  else if (prop_id == PROP_STANDARD)
    g_value_set_string (value, p->standard);
  else if (prop_id == PROP_FREQUENCY)
    g_value_set_uint64 (value, p->frequency);
  else if (prop_id == PROP_AUDIO_INPUT)
    g_value_set_string (value, p->audio_input);
  else if (prop_id == PROP_IO_MODE)
    g_value_set_enum (value, p->io_mode);
  else if (prop_id == PROP_USE_LIBV4L2)
    g_value_set_enum (value, src->use_libv4l2);
  else if (prop_id == PROP_TIMEOUT)
    g_value_set_uint (value, p->timeout);
  else if (prop_id == PROP_SIGNAL_TIMEOUT)
    g_value_set_uint (value, p->signal_timeout);
  else if (prop_id == PROP_WAIT_FOR_SIGNAL)
    g_value_set_boolean (value, p->wait_for_signal);
  else if (prop_id == PROP_RECONNECT)
    g_value_set_boolean (value, p->reconnect);
  else if (prop_id == PROP_RECORD_PRIORITY)
    g_value_set_boolean (value, p->record_priority);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  GST_OBJECT_UNLOCK (src);
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

/* READY -> PAUSED before the base class: names, then the session starts.
 * A failure posts one error (in GstBaseSrc::start() the base class would
 * add a generic second one, "state change failed..."). */
static gboolean
start_capture (GstIvtvSrc * src)
{
  IvtvCaptureSettings s;
  gint current[IVTV_ENC_N_NAMED];
  gboolean ok;

  snapshot (src, &s);
  ok = ivtv_capture_check_names (src->capture, &s)
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

  ret = GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED
      && ret == GST_STATE_CHANGE_FAILURE)
    ivtv_capture_stop (src->capture);

  if (transition == GST_STATE_CHANGE_READY_TO_NULL
      || (transition == GST_STATE_CHANGE_NULL_TO_READY
          && ret == GST_STATE_CHANGE_FAILURE)) {
    ivtv_color_balance_clear (G_OBJECT (src));
    ivtv_capture_close (src->capture);
  }
  return ret;
}

/* EOS from the application (gst-launch -e) or the signal watch: a read()
 * MPEG encoder is stopped at the end of its GOP and the capture reads on
 * until the driver ends the stream (or 2 s pass); then create() returns
 * EOS and the base class sends it downstream.  The file ends with a
 * complete GOP.  Other devices get the base class's EOS handling. */
static gboolean
gst_ivtv_src_send_event (GstElement * element, GstEvent * event)
{
  GstIvtvSrc *src = GST_IVTV_SRC (element);

  if (GST_EVENT_TYPE (event) == GST_EVENT_EOS
      && ivtv_capture_drain (src->capture)) {
    GST_INFO_OBJECT (src, "EOS: encoder stopped at the end of the GOP, "
        "reading the rest of the stream");
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
  caps = ivtv_dropin_fix_caps (G_OBJECT (src), caps);
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
  /* the capture's one error, after every buffer read before it */
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
