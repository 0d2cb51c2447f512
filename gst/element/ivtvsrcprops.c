/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the element's properties: one table of every property (its
 * own, the encoder's, the VBI's, the capture queue's and v4l2src's names),
 * each entry a group and an index within it, so no file does arithmetic
 * on property ids (one range check is left: get_device_info picks the
 * read-only device properties by PROP_DEVICE_NAME..PROP_STANDARDS, an
 * order of the enum below); and the one way in to the session: a setting is
 * recorded in the element's settings and handed to the session, which
 * records and applies it (ivtv_capture_update for the named settings,
 * ivtv_capture_set_control for one control), so a reconnect and the next
 * start restore everything. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "gstivtvsrcpriv.h"
#include "ivtvcard.h"
#include "ivtvdebug.h"
#include "ivtvdropin.h"
#include "ivtvencoder.h"
#include "ivtvqueueprops.h"
#include "ivtvsettings.h"
#include "ivtvvbiprops.h"

#define GST_CAT_DEFAULT ivtvsrc_debug

/* the element's own properties; the groups' follow from PROP_N_OWN */
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
  PROP_BLOCKSIZE,
  PROP_TIMEOUT,
  PROP_SIGNAL_TIMEOUT,
  PROP_WAIT_FOR_SIGNAL,
  PROP_RECONNECT,
  PROP_RECORD_PRIORITY,
  PROP_ALSA_DEVICE,
  PROP_N_OWN
};

typedef enum
{
  GROUP_OWN,                    /* index = the PROP_ id */
  GROUP_ENCODER,                /* IvtvEncoderProp */
  GROUP_VBI,                    /* IVTV_VBI_PROP_* */
  GROUP_QUEUE,                  /* IVTV_QUEUE_PROP_* */
  GROUP_DROPIN                  /* IVTV_DROPIN_* */
} PropGroup;

typedef struct
{
  PropGroup group;
  guint index;
} PropEntry;

#define MAX_PROPS 64
static PropEntry table[MAX_PROPS];      /* by property id, set in class_init */
static guint n_props = PROP_N_OWN;

static void
install (GObjectClass * klass, PropGroup group, GParamSpec ** specs, guint n)
{
  guint i;

  for (i = 0; i < n; i++) {
    g_assert (n_props < MAX_PROPS);
    table[n_props].group = group;
    table[n_props].index = i;
    g_object_class_install_property (klass, n_props++, specs[i]);
  }
}

static void
install_own (GObjectClass * klass, guint id, GParamSpec * spec)
{
  table[id].group = GROUP_OWN;
  table[id].index = id;
  g_object_class_install_property (klass, id, spec);
}

/* The device, what to capture from it and how. */
static void
install_device_properties (GObjectClass * k)
{
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  install_own (k, PROP_DEVICE, g_param_spec_string ("device", "Device",
          "V4L2 device node to capture from, e.g. /dev/video0 (the MPEG "
          "encoder node of an ivtv card)", DEFAULT_DEVICE,
          rw | GST_PARAM_MUTABLE_READY));
  install_own (k, PROP_DEVICE_FD, g_param_spec_int ("device-fd",
          "Device fd", "Capture from this descriptor instead of 'device' "
          "(the element uses a dup() of it; -1 = open 'device'); reads back "
          "the fd in use", -1, G_MAXINT, DEFAULT_DEVICE_FD,
          rw | GST_PARAM_MUTABLE_READY));
  install_own (k, PROP_INPUT, g_param_spec_string ("input", "Input",
          "Video input: an index, the exact name, or a fuzzy name such as "
          "composite, composite2, svideo, s-video, tuner, tv; auto = the "
          "first input with a signal (the current one first, the tuner "
          "last; an error names every input when none has one) (NULL = "
          "keep the card's current input). Can be changed while capturing",
          NULL, rw | GST_PARAM_MUTABLE_PLAYING));
  install_own (k, PROP_STANDARD, g_param_spec_string ("standard",
          "TV standard", "TV standard: ntsc, ntsc-m, ntsc-jp, pal, pal-bg, "
          "pal-i, pal-m, pal-n, secam, secam-l, ..., or auto to detect it "
          "(NULL = keep the card's). A change while capturing is refused "
          "with a warning where the driver cannot do it (ivtv) and applies "
          "at the next start", NULL, rw | GST_PARAM_MUTABLE_PLAYING));
  install_own (k, PROP_FREQUENCY, g_param_spec_uint64 ("frequency",
          "Frequency", "Tuner frequency in Hz (0 = keep the card's); needs "
          "the tuner input", 0, G_MAXUINT64, DEFAULT_FREQUENCY,
          rw | GST_PARAM_MUTABLE_PLAYING));
  install_own (k, PROP_AUDIO_INPUT, g_param_spec_string ("audio-input",
          "Audio input", "Audio input of the encoder: an index, the name or "
          "a fuzzy name such as tuner, line, line2 (NULL = keep the card's)",
          NULL, rw | GST_PARAM_MUTABLE_PLAYING));
  install_own (k, PROP_IO_MODE, g_param_spec_enum ("io-mode", "I/O mode",
          "How to get data from the driver: auto (mmap streaming when "
          "possible, else read()), rw (read()), mmap, userptr, dmabuf",
          IVTV_TYPE_IO_MODE, DEFAULT_IO_MODE, rw | GST_PARAM_MUTABLE_READY));
  install_own (k, PROP_USE_LIBV4L2, g_param_spec_enum ("use-libv4l2",
          "Use libv4l2", "Use libv4l2 for format conversion: auto (only for "
          "streaming devices none of whose formats GStreamer knows; never "
          "for MPEG), on, off", IVTV_TYPE_LIBV4L2_MODE, DEFAULT_USE_LIBV4L2,
          rw | GST_PARAM_MUTABLE_READY));
}

/* What the open device is (read-only). */
static void
install_info_properties (GObjectClass * k)
{
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  install_own (k, PROP_DEVICE_NAME, g_param_spec_string ("device-name",
          "Device name", "The card's name (from VIDIOC_QUERYCAP; NULL "
          "before READY)", NULL, ro));
  install_own (k, PROP_DRIVER, g_param_spec_string ("driver", "Driver",
          "The driver's name, e.g. ivtv (NULL before READY)", NULL, ro));
  install_own (k, PROP_CURRENT_IO_MODE, g_param_spec_enum ("current-io-mode",
          "Current I/O mode", "The I/O mode in use (auto until capture "
          "starts)", IVTV_TYPE_IO_MODE, IVTV_IO_AUTO, ro));
  install_own (k, PROP_INPUTS, g_param_spec_boxed ("inputs", "Inputs",
          "Names of the card's video inputs (NULL before READY)",
          G_TYPE_STRV, ro));
  install_own (k, PROP_STANDARDS, g_param_spec_boxed ("standards",
          "Standards", "Names of the TV standards the card offers (NULL "
          "before READY)", G_TYPE_STRV, ro));
}

/* Stalls, signal, reconnect, and blocksize with our default. */
static void
install_robustness_properties (GObjectClass * k)
{
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  install_own (k, PROP_BLOCKSIZE, g_param_spec_uint ("blocksize",
          "Block size", "Bytes per buffer for read() capture (MPEG byte "
          "streams), 4 KiB (less cannot keep up with a card) to 64 MiB; "
          "raw frames use the frame size", MIN_BLOCKSIZE, MAX_BLOCKSIZE,
          DEFAULT_BLOCKSIZE, rw));
  install_own (k, PROP_TIMEOUT, g_param_spec_uint ("timeout", "Timeout",
          "Seconds without data before a warning (the encoder stalled); "
          "after twice as long the capture ends with an error (0 = wait "
          "for ever)", 0, 3600, DEFAULT_TIMEOUT, rw));
  install_own (k, PROP_SIGNAL_TIMEOUT, g_param_spec_uint ("signal-timeout",
          "Signal timeout", "Seconds without a signal on the input before "
          "the recording ends by itself with EOS (end of the tape; 0 = "
          "never)", 0, 86400, DEFAULT_SIGNAL_TIMEOUT,
          rw | GST_PARAM_MUTABLE_READY));
  install_own (k, PROP_WAIT_FOR_SIGNAL, g_param_spec_boolean
      ("wait-for-signal", "Wait for signal", "Hold the first buffer until "
          "the input has a signal (start the pipeline, then press play on "
          "the camera)", DEFAULT_WAIT_FOR_SIGNAL,
          rw | GST_PARAM_MUTABLE_READY));
  install_own (k, PROP_RECONNECT, g_param_spec_boolean ("reconnect",
          "Reconnect", "When the device goes away (unplugged), post an "
          "ivtvsrc-reconnect message (state=lost), try to open it again "
          "once a second for up to 12 x timeout seconds (60 s at least) and "
          "resume (state=restored) instead of failing, with the same "
          "settings and format (read() and streaming capture)",
          DEFAULT_RECONNECT, rw | GST_PARAM_MUTABLE_READY));
  install_own (k, PROP_RECORD_PRIORITY, g_param_spec_boolean
      ("record-priority", "Record priority", "Hold V4L2's record priority "
          "while capturing, so that no other program can change the card's "
          "input, standard, frequency or controls (false: let e.g. "
          "v4l2-ctl adjust them during the recording)",
          DEFAULT_RECORD_PRIORITY, rw | GST_PARAM_MUTABLE_READY));
}

void
ivtv_src_install_properties (GObjectClass * k)
{
  GParamSpec *enc[IVTV_ENC_N_PROPS], *vbi[IVTV_VBI_N_PROPS];
  GParamSpec *queue[IVTV_QUEUE_N_PROPS], *dropin[IVTV_DROPIN_N_PROPS];

  install_device_properties (k);
  install_info_properties (k);
  ivtv_encoder_param_specs (enc);
  install (k, GROUP_ENCODER, enc, IVTV_ENC_N_PROPS);
  ivtv_vbi_param_specs (vbi);
  install (k, GROUP_VBI, vbi, IVTV_VBI_N_PROPS);
  install_robustness_properties (k);
  ivtv_queue_param_specs (queue);
  install (k, GROUP_QUEUE, queue, IVTV_QUEUE_N_PROPS);
  ivtv_dropin_param_specs (dropin);
  install (k, GROUP_DROPIN, dropin, IVTV_DROPIN_N_PROPS);
  install_own (k, PROP_ALSA_DEVICE, g_param_spec_string ("alsa-device",
          "ALSA capture device", "The ALSA capture device of the same card "
          "or USB device as the video node (sysfs), e.g. hw:CARD=STK1160 "
          "for alsasrc device=; NULL when there is none (the sound is in "
          "the stream, or on the PCM node /dev/video24 of ivtv/cx18 cards)",
          NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}

/* ---- the way in ---- */

void
ivtv_src_snapshot (GstIvtvSrc * src, IvtvCaptureSettings * s)
{
  GST_OBJECT_LOCK (src);
  ivtv_capture_settings_copy (s, &src->props);
  GST_OBJECT_UNLOCK (src);
  s->blocksize = gst_base_src_get_blocksize (GST_BASE_SRC (src));
}

/* A setting that changes what the card does, given to the session (which
 * applies it while capturing; failures are warnings); a value the card
 * refused is put back. */
static void
apply_live (GstIvtvSrc * src, IvtvSettingMask what)
{
  IvtvCaptureSettings s;
  IvtvSettingMask refused;

  ivtv_src_snapshot (src, &s);
  g_rec_mutex_lock (&src->negotiate_lock);
  if (ivtv_capture_update (src->capture, &s, what, &refused))
    gst_pad_mark_reconfigure (GST_BASE_SRC_PAD (src));
  g_rec_mutex_unlock (&src->negotiate_lock);
  GST_OBJECT_LOCK (src);
  ivtv_capture_settings_restore (&src->props, &s, refused);
  GST_OBJECT_UNLOCK (src);
  ivtv_capture_settings_clear (&s);
}

/* A named setting (input, standard, audio input): recorded, then applied. */
static void
set_setting (GstIvtvSrc * src, gchar ** field, gchar * value,
    IvtvSettingMask what)
{
  GST_OBJECT_LOCK (src);
  g_free (*field);
  *field = value;
  GST_OBJECT_UNLOCK (src);
  apply_live (src, what);
}

/* The card's v4l2-ctl name of @cid (g_free), NULL when it has none or the
 * device is closed. */
static gchar *
control_name (GstIvtvSrc * src, guint32 cid)
{
  const IvtvControl *c;
  gchar *name = NULL;

  ivtv_capture_lock (src->capture);
  if (ivtv_device_is_open (ivtv_capture_device (src->capture))
      && (c = ivtv_probe_find_control (ivtv_capture_probe (src->capture),
              cid)))
    name = ivtv_encoder_control_name (c->name);
  ivtv_capture_unlock (src->capture);
  return name;
}

gboolean
ivtv_src_set_control (GstIvtvSrc * src, guint32 cid, const gchar * name,
    gint value, GError ** error)
{
  gchar *own = name ? g_strdup (name) : control_name (src, cid);
  GstStructure **rec = &src->props.encoder.extra_controls;
  gboolean ok;

  if (own == NULL) {
    g_set_error (error, IVTV_SETTINGS_ERROR, IVTV_SETTINGS_ERROR_UNSUPPORTED,
        _("the device is not open or has no such control"));
    return FALSE;
  }
  ok = ivtv_capture_set_control (src->capture, own, value, error);
  if (ok) {
    GST_OBJECT_LOCK (src);
    if (*rec == NULL)
      *rec = gst_structure_new_empty ("controls");
    gst_structure_set (*rec, own, G_TYPE_INT, value, NULL);
    GST_OBJECT_UNLOCK (src);
  }
  g_free (own);
  return ok;
}

gboolean
ivtv_src_get_control (GstIvtvSrc * src, guint32 cid, const gchar * name,
    gint * value)
{
  IvtvDevice *dev = ivtv_capture_device (src->capture);
  gint64 v = 0;
  gboolean live, known = FALSE;

  ivtv_capture_lock (src->capture);
  live = ivtv_device_is_open (dev)
      && ivtv_probe_find_control (ivtv_capture_probe (src->capture), cid)
      && ivtv_device_get_control (dev, cid, &v);
  ivtv_capture_unlock (src->capture);
  if (live) {
    *value = (gint) CLAMP (v, G_MININT, G_MAXINT);
    return TRUE;
  }
  GST_OBJECT_LOCK (src);
  if (name && src->props.encoder.extra_controls)
    known = gst_structure_get_int (src->props.encoder.extra_controls, name,
        value);
  GST_OBJECT_UNLOCK (src);
  return known;
}

GstCaps *
ivtv_src_fix_par (GstIvtvSrc * src, GstCaps * caps)
{
  gboolean bad = FALSE, warn;
  gchar *par;

  GST_OBJECT_LOCK (src);
  par = g_strdup (src->par);
  GST_OBJECT_UNLOCK (src);
  caps = ivtv_dropin_fix_caps (caps, par, &bad);
  GST_OBJECT_LOCK (src);
  warn = bad && !src->par_warned;
  if (bad)
    src->par_warned = TRUE;
  GST_OBJECT_UNLOCK (src);
  if (warn)
    GST_ELEMENT_WARNING (src, RESOURCE, SETTINGS,
        (_("pixel-aspect-ratio '%s' is not a fraction such as 1/1 or 12/11; "
            "the device's pixel aspect ratio is used."), par), (NULL));
  g_free (par);
  return caps;
}

/* ---- set ---- */

/* v4l2src's names: norm is the standard, the colours are controls. */
static void
set_dropin (GstIvtvSrc * src, guint which, const GValue * value)
{
  GError *err = NULL;

  if (which == IVTV_DROPIN_NORM) {
    set_setting (src, &src->props.standard,
        ivtv_dropin_norm_to_standard (g_value_get_enum (value)),
        IVTV_SETTING_STANDARD);
  } else if (which == IVTV_DROPIN_PAR) {
    GST_OBJECT_LOCK (src);
    g_free (src->par);
    src->par = g_value_dup_string (value);
    src->par_warned = FALSE;
    GST_OBJECT_UNLOCK (src);
  } else if (!ivtv_src_set_control (src, ivtv_dropin_colour_cid (which),
          ivtv_dropin_colour_name (which), g_value_get_int (value), &err)) {
    GST_ELEMENT_WARNING (src, RESOURCE, SETTINGS, (_("Could not set %s to "
                "%d: %s."), ivtv_dropin_colour_name (which),
            g_value_get_int (value), err->message), (NULL));
    g_clear_error (&err);
  }
}

/* The element's own settings that are no more than a value (object lock). */
static gboolean
set_plain (GstIvtvSrc * src, guint prop_id, const GValue * value)
{
  IvtvCaptureSettings *p = &src->props;

  if (prop_id == PROP_DEVICE)
    g_free (src->device), src->device = g_value_dup_string (value);
  else if (prop_id == PROP_DEVICE_FD)
    src->device_fd = g_value_get_int (value);
  else if (prop_id == PROP_FREQUENCY)
    p->frequency = g_value_get_uint64 (value);
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
    return FALSE;
  return TRUE;
}

static void
set_own (GstIvtvSrc * src, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  IvtvCaptureSettings *p = &src->props;
  gboolean known;

  if ((prop_id == PROP_DEVICE || prop_id == PROP_DEVICE_FD)
      && ivtv_capture_refuse_device_change (src->capture, pspec->name))
    return;                     /* warned: the device in use stays */
  if (prop_id == PROP_INPUT)
    set_setting (src, &p->input, g_value_dup_string (value),
        IVTV_SETTING_INPUT);
  else if (prop_id == PROP_STANDARD)
    set_setting (src, &p->standard, g_value_dup_string (value),
        IVTV_SETTING_STANDARD);
  else if (prop_id == PROP_AUDIO_INPUT)
    set_setting (src, &p->audio_input, g_value_dup_string (value),
        IVTV_SETTING_AUDIO);
  else if (prop_id == PROP_BLOCKSIZE)   /* takes the object lock itself */
    gst_base_src_set_blocksize (GST_BASE_SRC (src), g_value_get_uint (value));
  else {
    GST_OBJECT_LOCK (src);
    known = set_plain (src, prop_id, value);
    GST_OBJECT_UNLOCK (src);
    if (!known)
      G_OBJECT_WARN_INVALID_PROPERTY_ID (src, prop_id, pspec);
    if (prop_id == PROP_TIMEOUT)
      ivtv_capture_set_timeout (src->capture, g_value_get_uint (value));
    if (prop_id == PROP_FREQUENCY)
      apply_live (src, IVTV_SETTING_FREQUENCY);
  }
}

void
ivtv_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstIvtvSrc *src = GST_IVTV_SRC (object);
  const PropEntry *e = &table[MIN (prop_id, MAX_PROPS - 1)];

  if (e->group == GROUP_ENCODER || e->group == GROUP_VBI) {
    GST_OBJECT_LOCK (src);
    if (e->group == GROUP_ENCODER)
      ivtv_encoder_set_property (&src->props.encoder, e->index, value);
    else
      ivtv_vbi_set_property (&src->props.vbi, e->index, value);
    GST_OBJECT_UNLOCK (src);
    if (e->group == GROUP_ENCODER && e->index == IVTV_ENC_EXTRA_CONTROLS)
      apply_live (src, IVTV_SETTING_EXTRA_CONTROLS);
  } else if (e->group == GROUP_QUEUE)
    ivtv_queue_set_property (src->capture, e->index, value);
  else if (e->group == GROUP_DROPIN)
    set_dropin (src, e->index, value);
  else
    set_own (src, prop_id, value, pspec);
}

/* ---- get ---- */

/* device-name, driver, inputs, standards: from the probe of the open
 * device (NULL before READY); device-fd: the descriptor in use while
 * open (as v4l2src's), else the one set. */
static gboolean
get_device_info (GstIvtvSrc * src, guint prop_id, GValue * value)
{
  IvtvProbe *probe = ivtv_capture_probe (src->capture);
  IvtvDevice *dev = ivtv_capture_device (src->capture);
  gboolean open;

  if (prop_id != PROP_DEVICE_FD && (prop_id < PROP_DEVICE_NAME
          || prop_id > PROP_STANDARDS || prop_id == PROP_CURRENT_IO_MODE))
    return FALSE;
  ivtv_capture_lock (src->capture);
  open = ivtv_device_is_open (dev) && dev->fd >= 0;
  if (prop_id == PROP_DEVICE_FD && open)
    g_value_set_int (value, dev->fd);
  else if (prop_id == PROP_DEVICE_FD);
  else if (!ivtv_device_is_open (dev) && G_VALUE_HOLDS_STRING (value))
    g_value_set_string (value, NULL);
  else if (!ivtv_device_is_open (dev))
    g_value_set_boxed (value, NULL);
  else if (prop_id == PROP_DEVICE_NAME)
    g_value_set_string (value, probe->card);
  else if (prop_id == PROP_DRIVER)
    g_value_set_string (value, probe->driver);
  else if (prop_id == PROP_INPUTS)
    g_value_take_boxed (value, ivtv_settings_input_names (probe));
  else
    g_value_take_boxed (value, ivtv_settings_std_names (probe));
  ivtv_capture_unlock (src->capture);
  return prop_id != PROP_DEVICE_FD || open;
}

/* The element's own values (object lock). */
static gboolean
get_plain (GstIvtvSrc * src, guint prop_id, GValue * value)
{
  IvtvCaptureSettings *p = &src->props;

  if (prop_id == PROP_DEVICE)
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
    return FALSE;
  return TRUE;
}

static void
get_own (GstIvtvSrc * src, guint prop_id, GValue * value, GParamSpec * pspec)
{
  gboolean known;
  gchar *device;

  if (get_device_info (src, prop_id, value))
    return;
  if (prop_id == PROP_BLOCKSIZE) {      /* takes the object lock itself */
    g_value_set_uint (value, gst_base_src_get_blocksize (GST_BASE_SRC (src)));
  } else if (prop_id == PROP_CURRENT_IO_MODE) {
    g_value_set_enum (value, ivtv_capture_get_io_mode (src->capture));
  } else if (prop_id == PROP_ALSA_DEVICE) {
    GST_OBJECT_LOCK (src);
    device = g_strdup (src->device);
    GST_OBJECT_UNLOCK (src);
    g_value_take_string (value, device ? ivtv_card_alsa_device (device) :
        NULL);
    g_free (device);
  } else {
    GST_OBJECT_LOCK (src);
    known = get_plain (src, prop_id, value);
    GST_OBJECT_UNLOCK (src);
    if (!known)
      G_OBJECT_WARN_INVALID_PROPERTY_ID (src, prop_id, pspec);
  }
}

static void
get_dropin (GstIvtvSrc * src, guint which, GValue * value)
{
  gint v = 0;

  GST_OBJECT_LOCK (src);
  if (which == IVTV_DROPIN_NORM)
    g_value_set_enum (value,
        ivtv_dropin_standard_to_norm (src->props.standard));
  else if (which == IVTV_DROPIN_PAR)
    g_value_set_string (value, src->par);
  GST_OBJECT_UNLOCK (src);
  if (which == IVTV_DROPIN_NORM || which == IVTV_DROPIN_PAR)
    return;
  /* the card's value while it is open, else the value set (0: unset) */
  if (!ivtv_src_get_control (src, ivtv_dropin_colour_cid (which),
          ivtv_dropin_colour_name (which), &v))
    v = 0;
  g_value_set_int (value, v);
}

void
ivtv_src_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstIvtvSrc *src = GST_IVTV_SRC (object);
  const PropEntry *e = &table[MIN (prop_id, MAX_PROPS - 1)];

  if (e->group == GROUP_ENCODER || e->group == GROUP_VBI) {
    GST_OBJECT_LOCK (src);
    if (e->group == GROUP_ENCODER)
      ivtv_encoder_get_property (&src->props.encoder, e->index, value);
    else
      ivtv_vbi_get_property (&src->props.vbi, e->index, value);
    GST_OBJECT_UNLOCK (src);
  } else if (e->group == GROUP_QUEUE)
    ivtv_queue_get_property (src->capture, e->index, value);
  else if (e->group == GROUP_DROPIN)
    get_dropin (src, e->index, value);
  else
    get_own (src, prop_id, value, pspec);
}
