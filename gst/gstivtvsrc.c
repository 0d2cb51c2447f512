/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the element (GstPushSrc): properties, state changes, caps,
 * and the dispatch to the read() or streaming capture path. */

/**
 * SECTION:element-ivtvsrc
 * @title: ivtvsrc
 *
 * Captures from a V4L2 device, above all from read()-only MPEG encoder
 * cards such as the Hauppauge PVR-150/250/350/500 (driver ivtv), cx18 and
 * pvrusb2 cards, which deliver an MPEG-2 program stream through read()
 * and have no streaming I/O.  Devices with streaming I/O (webcams, TV
 * cards) are captured with mmap, userptr or dmabuf.
 *
 * The input, TV standard, audio input and tuner frequency are set before
 * capture starts; the input can be changed while capturing.  MPEG caps
 * follow the card's stream type (program stream, transport stream, MPEG-1
 * system stream).  The encoder's settings are properties (stream-type,
 * bitrate-mode, bitrate, peak-bitrate, gop-size, b-frames, aspect,
 * audio-rate, audio-bitrate; each keeps the card's value unless set), any
 * other control goes in extra-controls, and brightness, contrast,
 * saturation and hue are channels of the GstColorBalance interface.
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
#ifndef HAVE_LIBV4L2
#define HAVE_LIBV4L2 0
#endif

#include "gstivtvsrc.h"
#include "ivtvelements.h"
#include "ivtvurihandler.h"
#include "ivtvdebug.h"
#include "ivtvcaps.h"
#include "ivtvcontrols.h"
#include "ivtvsrcio.h"
#include "ivtvencoder.h"
#include "ivtvcolorbalance.h"

#include <string.h>

GST_DEBUG_CATEGORY (ivtvsrc_debug);
#define GST_CAT_DEFAULT ivtvsrc_debug

#define DEFAULT_DEVICE       "/dev/video0"
#define DEFAULT_DEVICE_FD    -1
#define DEFAULT_FREQUENCY    0
#define DEFAULT_IO_MODE      IVTV_IO_AUTO
#define DEFAULT_USE_LIBV4L2  IVTV_LIBV4L2_AUTO
#define DEFAULT_BLOCKSIZE    524288
#define DEFAULT_TIMEOUT      IVTV_READ_STALL_SECONDS
#define DEFAULT_SIGNAL_TIMEOUT 0
#define DEFAULT_WAIT_FOR_SIGNAL FALSE
#define DEFAULT_RECONNECT    FALSE

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
  /* robustness */
  PROP_BLOCKSIZE,
  PROP_TIMEOUT,
  PROP_SIGNAL_TIMEOUT,
  PROP_WAIT_FOR_SIGNAL,
  PROP_RECONNECT,
  PROP_ENCODER_FIRST,           /* ivtvencoder.c: IVTV_ENC_N_PROPS ids */
  PROP_ENCODER_LAST = PROP_ENCODER_FIRST + IVTV_ENC_N_PROPS - 1
};

#define IVTV_TYPE_LIBV4L2_MODE (ivtv_libv4l2_mode_get_type ())
static GType
ivtv_libv4l2_mode_get_type (void)
{
  static gsize id = 0;
  static const GEnumValue values[] = {
    {IVTV_LIBV4L2_AUTO, "Only for streaming devices whose formats need "
          "conversion", "auto"},
    {IVTV_LIBV4L2_ON, "Always use libv4l2", "on"},
    {IVTV_LIBV4L2_OFF, "Never use libv4l2", "off"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&id)) {
    GType t = g_enum_register_static ("GstIvtvLibv4l2", values);
    g_once_init_leave (&id, t);
  }
  return id;
}

#define gst_ivtv_src_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstIvtvSrc, gst_ivtv_src, GST_TYPE_PUSH_SRC,
    G_IMPLEMENT_INTERFACE (GST_TYPE_COLOR_BALANCE,
        ivtv_color_balance_iface_init)
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

static void
gst_ivtv_src_class_init (GstIvtvSrcClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;
  GstCaps *caps;

  gobject_class->finalize = gst_ivtv_src_finalize;
  gobject_class->set_property = gst_ivtv_src_set_property;
  gobject_class->get_property = gst_ivtv_src_get_property;

  g_object_class_install_property (gobject_class, PROP_DEVICE,
      g_param_spec_string ("device", "Device",
          "V4L2 device node to capture from, e.g. /dev/video0 (the MPEG "
          "encoder node of an ivtv card)", DEFAULT_DEVICE,
          rw | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_DEVICE_FD,
      g_param_spec_int ("device-fd", "Device fd",
          "Capture from this already opened file descriptor instead of "
          "'device' (the element uses a dup() of it; -1 = open 'device')",
          -1, G_MAXINT, DEFAULT_DEVICE_FD, rw | GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_INPUT,
      g_param_spec_string ("input", "Input",
          "Video input: an index, the exact name, or a fuzzy name such as "
          "composite, composite2, svideo, s-video, tuner, tv (NULL = keep "
          "the card's current input). Can be changed while capturing",
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
  ivtv_encoder_install_properties (gobject_class, PROP_ENCODER_FIRST);

  /* robustness: stalls, signal, and blocksize with our default */
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

  gst_element_class_set_static_metadata (element_class,
      "IVTV / V4L2 video source", "Source/Video",
      "Captures from V4L2 devices, including read()-only MPEG encoder cards "
      "(ivtv, cx18, pvrusb2)", "ivtvsrc developers");

  caps = ivtv_caps_template ();
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);

  element_class->change_state = GST_DEBUG_FUNCPTR (gst_ivtv_src_change_state);
  ivtv_src_io_class_init (klass);

  gst_type_mark_as_plugin_api (IVTV_TYPE_IO_MODE, 0);
  gst_type_mark_as_plugin_api (IVTV_TYPE_LIBV4L2_MODE, 0);

  GST_DEBUG_CATEGORY_INIT (ivtvsrc_debug, "ivtvsrc", 0, "ivtvsrc element");
}

static void
gst_ivtv_src_init (GstIvtvSrc * src)
{
  src->device = g_strdup (DEFAULT_DEVICE);
  src->device_fd = DEFAULT_DEVICE_FD;
  src->frequency = DEFAULT_FREQUENCY;
  src->io_mode = DEFAULT_IO_MODE;
  src->use_libv4l2 = DEFAULT_USE_LIBV4L2;
  src->current_io_mode = IVTV_IO_AUTO;
  src->mpeg_stream_type = -1;
  g_mutex_init (&src->dev_lock);
  ivtv_device_init (&src->dev, GST_OBJECT (src));
  ivtv_probe_init (&src->probe);
  ivtv_read_init (&src->reader);
  ivtv_encoder_init (&src->encoder);
  ivtv_signal_init (&src->signal);
  src->timeout = DEFAULT_TIMEOUT;
  src->signal_timeout = DEFAULT_SIGNAL_TIMEOUT;
  src->wait_for_signal = DEFAULT_WAIT_FOR_SIGNAL;
  src->reconnect = DEFAULT_RECONNECT;

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
  ivtv_encoder_clear (&src->encoder);
  ivtv_signal_clear (&src->signal);
  ivtv_probe_clear (&src->probe);
  ivtv_device_clear (&src->dev);
  g_mutex_clear (&src->dev_lock);
  g_free (src->device);
  g_free (src->input);
  g_free (src->standard);
  g_free (src->audio_input);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* ---- live changes (PLAYING) ---- */

/* A property changed while the device is open: apply it now.  Failures
 * are warnings: they never stop a running capture. */
static void
apply_live (GstIvtvSrc * src, guint prop_id)
{
  GError *err = NULL;
  gchar *value = NULL;
  guint64 freq = 0;
  gboolean ok = TRUE;

  GST_OBJECT_LOCK (src);
  if (prop_id == PROP_INPUT)
    value = g_strdup (src->input);
  else if (prop_id == PROP_STANDARD)
    value = g_strdup (src->standard);
  else if (prop_id == PROP_AUDIO_INPUT)
    value = g_strdup (src->audio_input);
  freq = src->frequency;
  GST_OBJECT_UNLOCK (src);

  g_mutex_lock (&src->dev_lock);
  if (!ivtv_device_is_open (&src->dev) || !src->capturing)
    goto out;                   /* applied at start */

  switch (prop_id) {
    case PROP_INPUT:
      if (value)
        ok = ivtv_controls_set_input (&src->dev, &src->probe, value, &err);
      break;
    case PROP_STANDARD:
      if (value)
        ok = ivtv_controls_set_std (&src->dev, &src->probe, value, &err);
      break;
    case PROP_AUDIO_INPUT:
      if (value)
        ok = ivtv_controls_set_audio (&src->dev, &src->probe, value, &err);
      break;
    case PROP_FREQUENCY:
      if (freq)
        ok = ivtv_controls_set_frequency (&src->dev, &src->probe, freq, &err);
      break;
    default:
      break;
  }
  g_mutex_unlock (&src->dev_lock);

  if (!ok) {
    GST_ELEMENT_WARNING (src, RESOURCE, SETTINGS, ("%s", err->message),
        ("live change of a property refused; capture continues"));
    g_clear_error (&err);
  }
  g_free (value);
  return;

out:
  g_mutex_unlock (&src->dev_lock);
  g_free (value);
}

static void
gst_ivtv_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstIvtvSrc *src = GST_IVTV_SRC (object);

  GST_OBJECT_LOCK (src);
  if (prop_id >= PROP_ENCODER_FIRST && prop_id <= PROP_ENCODER_LAST) {
    ivtv_encoder_set_property (&src->encoder, prop_id - PROP_ENCODER_FIRST,
        value);
    GST_OBJECT_UNLOCK (src);
    ivtv_encoder_property_changed (src, prop_id - PROP_ENCODER_FIRST);
    return;
  }
  switch (prop_id) {
    case PROP_DEVICE:
      g_free (src->device);
      src->device = g_value_dup_string (value);
      break;
    case PROP_DEVICE_FD:
      src->device_fd = g_value_get_int (value);
      break;
    case PROP_INPUT:
      g_free (src->input);
      src->input = g_value_dup_string (value);
      break;
    case PROP_STANDARD:
      g_free (src->standard);
      src->standard = g_value_dup_string (value);
      break;
    case PROP_FREQUENCY:
      src->frequency = g_value_get_uint64 (value);
      break;
    case PROP_AUDIO_INPUT:
      g_free (src->audio_input);
      src->audio_input = g_value_dup_string (value);
      break;
    case PROP_IO_MODE:
      src->io_mode = g_value_get_enum (value);
      break;
    case PROP_USE_LIBV4L2:
      src->use_libv4l2 = g_value_get_enum (value);
      break;
      /* robustness */
    case PROP_BLOCKSIZE:
      GST_OBJECT_UNLOCK (src);
      gst_base_src_set_blocksize (GST_BASE_SRC (src), g_value_get_uint (value));
      return;
    case PROP_TIMEOUT:
      src->timeout = g_value_get_uint (value);
      ivtv_read_set_timeout (&src->reader, src->timeout);
      break;
    case PROP_SIGNAL_TIMEOUT:
      src->signal_timeout = g_value_get_uint (value);
      break;
    case PROP_WAIT_FOR_SIGNAL:
      src->wait_for_signal = g_value_get_boolean (value);
      break;
    case PROP_RECONNECT:
      src->reconnect = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (src);

  if (prop_id == PROP_INPUT || prop_id == PROP_STANDARD
      || prop_id == PROP_AUDIO_INPUT || prop_id == PROP_FREQUENCY)
    apply_live (src, prop_id);
}

static void
gst_ivtv_src_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstIvtvSrc *src = GST_IVTV_SRC (object);

  if (prop_id == PROP_BLOCKSIZE) {      /* takes the object lock itself */
    g_value_set_uint (value, gst_base_src_get_blocksize (GST_BASE_SRC (src)));
    return;
  }
  switch (prop_id) {
    case PROP_DEVICE_NAME:
    case PROP_DRIVER:
    case PROP_INPUTS:
    case PROP_STANDARDS:
      g_mutex_lock (&src->dev_lock);
      if (!ivtv_device_is_open (&src->dev)) {
        if (G_VALUE_HOLDS_STRING (value))
          g_value_set_string (value, NULL);
        else
          g_value_set_boxed (value, NULL);
      } else if (prop_id == PROP_DEVICE_NAME)
        g_value_set_string (value, src->probe.card);
      else if (prop_id == PROP_DRIVER)
        g_value_set_string (value, src->probe.driver);
      else if (prop_id == PROP_INPUTS)
        g_value_take_boxed (value, ivtv_controls_input_names (&src->probe));
      else
        g_value_take_boxed (value, ivtv_controls_std_names (&src->probe));
      g_mutex_unlock (&src->dev_lock);
      return;
    default:
      break;
  }

  GST_OBJECT_LOCK (src);
  if (prop_id >= PROP_ENCODER_FIRST && prop_id <= PROP_ENCODER_LAST) {
    ivtv_encoder_get_property (&src->encoder, prop_id - PROP_ENCODER_FIRST,
        value);
    GST_OBJECT_UNLOCK (src);
    return;
  }
  switch (prop_id) {
    case PROP_DEVICE:
      g_value_set_string (value, src->device);
      break;
    case PROP_DEVICE_FD:
      g_value_set_int (value, src->device_fd);
      break;
    case PROP_INPUT:
      g_value_set_string (value, src->input);
      break;
    case PROP_STANDARD:
      g_value_set_string (value, src->standard);
      break;
    case PROP_FREQUENCY:
      g_value_set_uint64 (value, src->frequency);
      break;
    case PROP_AUDIO_INPUT:
      g_value_set_string (value, src->audio_input);
      break;
    case PROP_IO_MODE:
      g_value_set_enum (value, src->io_mode);
      break;
    case PROP_USE_LIBV4L2:
      g_value_set_enum (value, src->use_libv4l2);
      break;
    case PROP_CURRENT_IO_MODE:
      g_value_set_enum (value, src->current_io_mode);
      break;
      /* robustness */
    case PROP_TIMEOUT:
      g_value_set_uint (value, src->timeout);
      break;
    case PROP_SIGNAL_TIMEOUT:
      g_value_set_uint (value, src->signal_timeout);
      break;
    case PROP_WAIT_FOR_SIGNAL:
      g_value_set_boolean (value, src->wait_for_signal);
      break;
    case PROP_RECONNECT:
      g_value_set_boolean (value, src->reconnect);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (src);
}

/* ---- NULL <-> READY: open, probe, close ---- */

static void
post_open_error (GstIvtvSrc * src, GError * err)
{
  GstResourceError code = GST_RESOURCE_ERROR_OPEN_READ_WRITE;

  if (err->domain == IVTV_DEVICE_ERROR) {
    switch (err->code) {
      case IVTV_DEVICE_ERROR_NOT_FOUND:
        code = GST_RESOURCE_ERROR_NOT_FOUND;
        break;
      case IVTV_DEVICE_ERROR_BUSY:
        code = GST_RESOURCE_ERROR_BUSY;
        break;
      case IVTV_DEVICE_ERROR_NO_CAPTURE:
      case IVTV_DEVICE_ERROR_NOT_V4L2:
      case IVTV_DEVICE_ERROR_NOT_CHAR_DEVICE:
      case IVTV_DEVICE_ERROR_BAD_FD:
        code = GST_RESOURCE_ERROR_SETTINGS;
        break;
      default:
        break;
    }
  }
  gst_element_message_full (GST_ELEMENT (src), GST_MESSAGE_ERROR,
      GST_RESOURCE_ERROR, code, g_strdup (err->message),
      g_strdup_printf ("opening the device failed (%s)",
          g_quark_to_string (err->domain)), __FILE__, GST_FUNCTION, __LINE__);
}

/* libv4l2 when asked, or (auto) for a streaming device none of whose
 * formats GStreamer knows (it converts them to RGB/YUV).  FALSE with @error
 * when use-libv4l2=on in a build without libv4l2. */
static gboolean
maybe_use_libv4l2 (GstIvtvSrc * src, IvtvLibv4l2Mode mode, GError ** error)
{
  gboolean want = FALSE;
  guint i;

  if (mode == IVTV_LIBV4L2_ON && !HAVE_LIBV4L2) {
    g_set_error (error, IVTV_DEVICE_ERROR, IVTV_DEVICE_ERROR_FAILED,
        "This ivtvsrc was built without libv4l2 (meson option libv4l2), so "
        "use-libv4l2=on is not possible for %s; use use-libv4l2=auto or off.",
        src->dev.path);
    return FALSE;
  }
  if (mode == IVTV_LIBV4L2_ON) {
    want = TRUE;
  } else if (mode == IVTV_LIBV4L2_AUTO
      && ivtv_device_has_cap (&src->dev, V4L2_CAP_STREAMING)
      && src->probe.n_formats > 0) {
    want = TRUE;
    for (i = 0; i < src->probe.n_formats; i++)
      if (ivtv_caps_lookup_fourcc (src->probe.formats[i].pixelformat))
        want = FALSE;
  }
  if (!want)
    return TRUE;
  if (ivtv_device_use_libv4l2 (&src->dev, 0))
    ivtv_probe_formats (&src->probe, &src->dev);        /* + emulated ones */
  else if (mode == IVTV_LIBV4L2_ON)
    GST_ELEMENT_WARNING (src, RESOURCE, SETTINGS,
        ("libv4l2 could not be used for %s; using the device directly.",
            src->dev.path), (NULL));
  return TRUE;
}

static gboolean
open_device (GstIvtvSrc * src)
{
  GError *err = NULL;
  gchar *path;
  gint fd;
  IvtvLibv4l2Mode lib;
  gboolean ok;

  GST_OBJECT_LOCK (src);
  path = g_strdup (src->device);
  fd = src->device_fd;
  lib = src->use_libv4l2;
  GST_OBJECT_UNLOCK (src);

  g_mutex_lock (&src->dev_lock);
  if (fd >= 0)
    ok = ivtv_device_adopt_fd (&src->dev, fd, &err);
  else
    ok = ivtv_device_open (&src->dev, path, TRUE, &err);
  if (ok)
    ok = ivtv_probe_run (&src->probe, &src->dev, &err);
  if (ok)
    ok = maybe_use_libv4l2 (src, lib, &err);
  g_mutex_unlock (&src->dev_lock);

  if (!ok) {
    post_open_error (src, err);
    g_clear_error (&err);
  } else {
    GST_INFO_OBJECT (src, "opened %s: '%s' (driver %s), %u inputs, %u "
        "standards, %u formats", src->dev.path, src->probe.card,
        src->probe.driver, src->probe.n_inputs, src->probe.n_stds,
        src->probe.n_formats);
  }
  g_free (path);
  return ok;
}

static void
close_device (GstIvtvSrc * src)
{
  g_mutex_lock (&src->dev_lock);
  ivtv_color_balance_clear (src);
  ivtv_probe_clear (&src->probe);
  ivtv_device_close (&src->dev);
  g_mutex_unlock (&src->dev_lock);
}

static GstStateChangeReturn
gst_ivtv_src_change_state (GstElement * element, GstStateChange transition)
{
  GstIvtvSrc *src = GST_IVTV_SRC (element);
  GstStateChangeReturn ret;

  if (transition == GST_STATE_CHANGE_NULL_TO_READY && !open_device (src))
    return GST_STATE_CHANGE_FAILURE;
  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED
      && !ivtv_src_io_check_settings (src))
    return GST_STATE_CHANGE_FAILURE;    /* one error, posted */

  ret = GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);

  if (transition == GST_STATE_CHANGE_READY_TO_NULL
      || (transition == GST_STATE_CHANGE_NULL_TO_READY
          && ret == GST_STATE_CHANGE_FAILURE))
    close_device (src);
  return ret;
}
