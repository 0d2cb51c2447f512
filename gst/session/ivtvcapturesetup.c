/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the capture session's settings and format (see
 * ivtvcapture.h): applying input, standard, audio input, frequency and the
 * encoder controls with one error rule; the caps the device can give,
 * fixation, S_FMT, and the latency of one buffer. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvcapturepriv.h"
#include "ivtvpcm.h"
#include "ivtvdebug.h"
#include "ivtvcaps.h"
#include "ivtvinputauto.h"
#include "ivtvsettings.h"
#include "ivtvnegotiate.h"

#include <string.h>

#define GST_CAT_DEFAULT ivtvsrc_debug

/* ---- the settings ---- */

void
ivtv_capture_settings_init (IvtvCaptureSettings * s)
{
  memset (s, 0, sizeof (*s));
  ivtv_encoder_init (&s->encoder);
}

void
ivtv_capture_settings_clear (IvtvCaptureSettings * s)
{
  g_clear_pointer (&s->input, g_free);
  g_clear_pointer (&s->standard, g_free);
  g_clear_pointer (&s->audio_input, g_free);
  ivtv_encoder_clear (&s->encoder);
}

void
ivtv_capture_settings_copy (IvtvCaptureSettings * dst,
    const IvtvCaptureSettings * src)
{
  *dst = *src;
  dst->input = g_strdup (src->input);
  dst->standard = g_strdup (src->standard);
  dst->audio_input = g_strdup (src->audio_input);
  dst->encoder.extra_controls = src->encoder.extra_controls ?
      gst_structure_copy (src->encoder.extra_controls) : NULL;
}

/* What a setting error is about, for programs that act on it (the
 * error message's details, see ivtvcapture.h) */
static const gchar *
setting_name (guint setting)
{
  switch (setting) {
    case IVTV_SETTING_INPUT:
      return "input";
    case IVTV_SETTING_STANDARD:
      return "standard";
    case IVTV_SETTING_AUDIO:
      return "audio-input";
    case IVTV_SETTING_FREQUENCY:
      return "frequency";
    default:
      return "encoder";
  }
}

static const gchar *
reason_name (const GError * err)
{
  static const gchar *const names[] = { "failed", "unknown", "ambiguous",
    "unsupported", "busy", "no-signal", "range"
  };

  if (err->domain != IVTV_SETTINGS_ERROR || err->code < 0
      || err->code >= (gint) G_N_ELEMENTS (names))
    return "failed";
  return names[err->code];
}

static void
post_setting_error (IvtvCapture * cap, const GError * err,
    const gchar * setting)
{
  GST_ELEMENT_ERROR_WITH_DETAILS (cap->element, RESOURCE, SETTINGS, ("%s",
          err->message), ("device %s", cap->dev.path),
      ("setting", G_TYPE_STRING, setting, "reason", G_TYPE_STRING,
          reason_name (err), NULL));
}

/* The one error rule: at start, a value that does not fit or is refused
 * is an error (FALSE), a busy driver or a standard that cannot be detected
 * a warning; while capturing (@live) every failure is a warning.  The
 * error's details (gst_message_parse_error_details) say which @setting
 * ("input", "standard", "audio-input", "frequency", "encoder"; "names"
 * for one of the first three checked before the start) and why
 * ("reason": "unknown", "ambiguous", "unsupported", "failed", "no-signal",
 * "range"), for programs that act on it (ivtv-capture's exit status). */
static gboolean
report_setting (IvtvCapture * cap, GError * err, gboolean live, guint setting)
{
  gboolean fatal = !live && !(err->domain == IVTV_SETTINGS_ERROR
      && (err->code == IVTV_SETTINGS_ERROR_BUSY
          || (err->code == IVTV_SETTINGS_ERROR_NO_SIGNAL
              && setting == IVTV_SETTING_STANDARD)));

  if (fatal && cap->restore_error)
    IVTV_ERROR (cap->restore_error, RESOURCE, SETTINGS, ("%s",
            err->message), ("device %s", cap->dev.path));
  else if (fatal)
    post_setting_error (cap, err, setting_name (setting));
  else
    GST_ELEMENT_WARNING (cap->element, RESOURCE, SETTINGS, ("%s",
            err->message), ("device %s%s", cap->dev.path, live ?
            ": live change of a property refused; capture continues" : ""));
  return !fatal;
}

/* The encoder controls: at start the named ones and extra-controls, live
 * extra-controls only (the named ones apply at the next start). */
static gboolean
apply_encoder (IvtvCapture * cap, guint what, gboolean live)
{
  const IvtvEncoder *enc = &cap->settings.encoder;
  gint want[IVTV_ENC_N_NAMED], current[IVTV_ENC_N_NAMED];
  const GstStructure *extra = NULL;
  gchar *warning = NULL;
  GError *err = NULL;
  gboolean ok;
  guint i;

  for (i = 0; i < IVTV_ENC_N_NAMED; i++)
    want[i] = (what & IVTV_SETTING_ENCODER) ? enc->want[i] :
        IVTV_ENCODER_KEEP;
  if (what & IVTV_SETTING_EXTRA_CONTROLS)
    extra = enc->extra_controls;
  if (live && extra == NULL)
    return TRUE;
  ok = ivtv_encoder_apply (&cap->dev, &cap->probe, want, extra, current,
      &warning, &err);
  if (warning)
    GST_ELEMENT_WARNING (cap->element, RESOURCE, SETTINGS, ("%s", warning),
        ("device %s: encoder controls", cap->dev.path));
  g_free (warning);
  if (!ok && live)
    cap->refused |= what & IVTV_SETTING_EXTRA_CONTROLS;
  if (!ok)
    ok = report_setting (cap, err, live, IVTV_SETTING_ENCODER);
  g_clear_error (&err);
  if (!live)
    memcpy (cap->enc_current, current, sizeof (current));
  return ok;
}

/* The input by name, or input=auto: the first with a signal. */
static gboolean
set_input (IvtvCapture * cap, const gchar * name, GError ** err)
{
  if (ivtv_input_is_auto (name))
    return ivtv_input_auto_select (&cap->dev, &cap->probe,
        IVTV_INPUT_AUTO_SETTLE_MS, err);
  return ivtv_settings_set_input (&cap->dev, &cap->probe, name, err);
}

/* A refused value that still holds for later: the driver takes it at the
 * next start (BUSY while capturing), or a frequency for when the tuner is
 * the input. */
static gboolean
applies_later (IvtvCapture * cap, guint failed, const GError * err)
{
  return err->domain == IVTV_SETTINGS_ERROR
      && (err->code == IVTV_SETTINGS_ERROR_BUSY
      || (failed == IVTV_SETTING_FREQUENCY
          && err->code == IVTV_SETTINGS_ERROR_UNSUPPORTED
          && ivtv_device_has_cap (&cap->dev, V4L2_CAP_TUNER)));
}

gboolean
ivtv_capture_apply_settings (IvtvCapture * cap, guint what, gboolean live)
{
  const IvtvCaptureSettings *s = &cap->settings;
  GError *err = NULL;
  gboolean ok = TRUE;
  guint failed = 0;

  /* input first: standards, audio and the tuner depend on it */
  if ((what & IVTV_SETTING_INPUT) && s->input
      && !set_input (cap, s->input, &err))
    failed = IVTV_SETTING_INPUT;
  if (!failed && (what & IVTV_SETTING_STANDARD) && s->standard
      && !ivtv_settings_set_std (&cap->dev, &cap->probe, s->standard, &err))
    failed = IVTV_SETTING_STANDARD;
  if (!failed && (what & IVTV_SETTING_AUDIO) && s->audio_input
      && !ivtv_settings_set_audio (&cap->dev, &cap->probe, s->audio_input,
          &err))
    failed = IVTV_SETTING_AUDIO;
  if (!failed && (what & IVTV_SETTING_FREQUENCY) && s->frequency
      && !ivtv_settings_set_frequency (&cap->dev, &cap->probe, s->frequency,
          &err))
    failed = IVTV_SETTING_FREQUENCY;
  if (failed) {
    ok = report_setting (cap, err, live, failed);
    if (live && !applies_later (cap, failed, err))
      cap->refused |= failed;
  }
  g_clear_error (&err);
  if (ok && (what & (IVTV_SETTING_ENCODER | IVTV_SETTING_EXTRA_CONTROLS)))
    ok = apply_encoder (cap, what, live);
  return ok;
}

/* Formats, sizes and frame intervals depend on the input and the
 * standard (vivid: a webcam input and SDTV inputs): asked again once they
 * are set.  TRUE when the negotiated caps no longer fit.  Lock held. */
gboolean
ivtv_capture_reprobe_formats (IvtvCapture * cap)
{
  GstCaps *now;
  gboolean changed;

  ivtv_probe_formats (&cap->probe, &cap->dev);
  if (cap->caps == NULL || cap->mpeg || ivtv_vbi_node (&cap->dev))
    return FALSE;
  now = ivtv_negotiate_device_caps (&cap->probe, &cap->dev,
      cap->mpeg_stream_type);
  changed = !gst_caps_can_intersect (now, cap->caps);
  GST_DEBUG_OBJECT (cap->element, "caps of the input now: %" GST_PTR_FORMAT
      "%s", now, changed ? " (renegotiating)" : "");
  gst_caps_unref (now);
  return changed;
}

/* Is the current input the tuner (after a switch)? */
static gboolean
on_tuner (IvtvCapture * cap)
{
  const IvtvInput *in = cap->probe.current_input < 0 ? NULL :
      ivtv_probe_find_input (&cap->probe, cap->probe.current_input);

  return in && in->type == V4L2_INPUT_TYPE_TUNER;
}

gboolean
ivtv_capture_update (IvtvCapture * cap, IvtvCaptureSettings * settings,
    IvtvSettingMask what, IvtvSettingMask * refused)
{
  gboolean renegotiate = FALSE;

  IvtvCaptureSettings old;

  g_mutex_lock (&cap->lock);
  cap->refused = 0;
  if (ivtv_device_is_open (&cap->dev) && cap->state != IVTV_CAPTURE_STOPPED) {
    old = cap->settings;
    ivtv_capture_settings_copy (&cap->settings, settings);
    ivtv_capture_apply_settings (cap, what, TRUE);
    /* a switch to the tuner tunes to the frequency set before */
    if ((what & IVTV_SETTING_INPUT) && !cap->refused && on_tuner (cap))
      ivtv_capture_apply_settings (cap, IVTV_SETTING_FREQUENCY, TRUE);
    if (what & (IVTV_SETTING_INPUT | IVTV_SETTING_STANDARD))
      renegotiate = ivtv_capture_reprobe_formats (cap);
    /* what was refused keeps its old value (a reconnect applies it) */
    ivtv_capture_settings_restore (&cap->settings, &old, cap->refused);
    ivtv_capture_settings_restore (settings, &old, cap->refused);
    ivtv_capture_settings_clear (&old);
  }
  *refused = cap->refused;
  g_mutex_unlock (&cap->lock);
  return renegotiate;
}

void
ivtv_capture_settings_restore (IvtvCaptureSettings * dst,
    const IvtvCaptureSettings * old, IvtvSettingMask what)
{
  if (what & IVTV_SETTING_INPUT)
    g_free (dst->input), dst->input = g_strdup (old->input);
  if (what & IVTV_SETTING_STANDARD)
    g_free (dst->standard), dst->standard = g_strdup (old->standard);
  if (what & IVTV_SETTING_AUDIO)
    g_free (dst->audio_input), dst->audio_input = g_strdup (old->audio_input);
  if (what & IVTV_SETTING_FREQUENCY)
    dst->frequency = old->frequency;
  if (what & IVTV_SETTING_EXTRA_CONTROLS) {
    if (dst->encoder.extra_controls)
      gst_structure_free (dst->encoder.extra_controls);
    dst->encoder.extra_controls = old->encoder.extra_controls ?
        gst_structure_copy (old->encoder.extra_controls) : NULL;
  }
}

gboolean
ivtv_capture_check_names (IvtvCapture * cap,
    const IvtvCaptureSettings * settings)
{
  GError *err = NULL;
  gboolean ok;

  g_mutex_lock (&cap->lock);
  if (!ivtv_capture_ensure_open (cap)) {
    g_mutex_unlock (&cap->lock);
    return FALSE;
  }
  if (ivtv_device_is_open (&cap->dev))
    ivtv_settings_check_names (&cap->probe,
        ivtv_input_is_auto (settings->input) ? NULL : settings->input,
        settings->standard, settings->audio_input, &err);
  /* the card is ours before the base class starts (one busy error) */
  ok = err != NULL || !ivtv_device_is_open (&cap->dev)
      || ivtv_capture_take_card (cap);
  g_mutex_unlock (&cap->lock);
  if (err == NULL)
    return ok;
  /* one of the names (input, standard or audio input) */
  post_setting_error (cap, err, "names");
  g_clear_error (&err);
  return FALSE;
}

/* One control by its v4l2-ctl name, from the element's one way in (colour
 * balance, orientation, v4l2src's brightness...): set at once while the
 * device is open, and recorded in the session's extra-controls so that a
 * reconnect sets it again.  A control the card lacks is an error here
 * (the caller warns). */
gboolean
ivtv_capture_set_control (IvtvCapture * cap, const gchar * name, gint value,
    GError ** error)
{
  GstStructure *one = gst_structure_new ("controls", name, G_TYPE_INT, value,
      NULL);
  gint want[IVTV_ENC_N_NAMED], current[IVTV_ENC_N_NAMED];
  GstStructure **rec = &cap->settings.encoder.extra_controls;
  gchar *warning = NULL;
  gboolean ok = TRUE;
  guint i;

  for (i = 0; i < IVTV_ENC_N_NAMED; i++)
    want[i] = IVTV_ENCODER_KEEP;
  g_mutex_lock (&cap->lock);
  if (ivtv_device_is_open (&cap->dev))
    ok = ivtv_encoder_apply (&cap->dev, &cap->probe, want, one, current,
        &warning, error);
  if (ok && warning) {
    g_set_error_literal (error, IVTV_SETTINGS_ERROR,
        IVTV_SETTINGS_ERROR_UNSUPPORTED, warning);
    ok = FALSE;
  }
  if (ok && *rec == NULL)
    *rec = gst_structure_new_empty ("controls");
  if (ok)
    gst_structure_set (*rec, name, G_TYPE_INT, value, NULL);
  g_mutex_unlock (&cap->lock);
  g_free (warning);
  gst_structure_free (one);
  return ok;
}

void
ivtv_capture_get_encoder_current (IvtvCapture * cap,
    gint current[IVTV_ENC_N_NAMED])
{
  g_mutex_lock (&cap->lock);
  memcpy (current, cap->enc_current, sizeof (cap->enc_current));
  g_mutex_unlock (&cap->lock);
}

/* A signal the card cannot lock on (no signal at all is the signal
 * watch's, ivtvsignal.c). */
void
ivtv_capture_check_lock (IvtvCapture * cap)
{
  const IvtvInput *in;

  if (cap->probe.current_input < 0)
    return;
  in = ivtv_probe_find_input (&cap->probe, cap->probe.current_input);
  if (in == NULL || (in->status & (V4L2_IN_ST_NO_POWER |
              V4L2_IN_ST_NO_SIGNAL)))
    return;
  if (in->status & (V4L2_IN_ST_NO_H_LOCK | V4L2_IN_ST_NO_SYNC))
    GST_ELEMENT_WARNING (cap->element, RESOURCE, READ,
        (_("Input '%s' of '%s' has a signal the card cannot lock on (wrong "
            "standard?)."), in->name, cap->probe.card),
        ("input status 0x%08x", in->status));
}

/* ---- the format ---- */

GstCaps *
ivtv_capture_get_caps (IvtvCapture * cap)
{
  GstCaps *caps = NULL;

  g_mutex_lock (&cap->lock);
  if (ivtv_device_is_open (&cap->dev) && ivtv_vbi_node (&cap->dev))
    caps = ivtv_vbi_device_caps (&cap->dev, &cap->settings.vbi);
  else if (ivtv_device_is_open (&cap->dev) && ivtv_pcm_is_node (&cap->dev))
    caps = ivtv_pcm_caps ();
  else if (ivtv_device_is_open (&cap->dev))
    caps = ivtv_negotiate_device_caps (&cap->probe, &cap->dev,
        cap->mpeg_stream_type);
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
  caps = ivtv_vbi_node (&cap->dev) ? gst_caps_fixate (caps) :
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

  if (ivtv_vbi_node (&cap->dev)) {      /* set up at start: the caps' format */
    ivtv_vbi_apply_caps (&cap->vbi, caps);
    cap->fps_n = cap->vbi.is525 ? 30000 : 25;
    cap->fps_d = cap->vbi.is525 ? 1001 : 1;
    return TRUE;
  }
  cap->mpeg = ivtv_caps_fourcc_from_structure (s) == V4L2_PIX_FMT_MPEG;
  cap->hm12_width = cap->hm12_height = 0;
  if (ivtv_pcm_is_node (&cap->dev)) {
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

gboolean
ivtv_capture_set_format (IvtvCapture * cap, GstCaps * caps)
{
  gboolean ok, restart;

  g_mutex_lock (&cap->lock);
  restart = cap->path && !cap->need_sniff && !cap->mpeg;
  g_mutex_unlock (&cap->lock);
  if (restart)                  /* renegotiation: restart */
    ivtv_capture_stop_reader (cap);
  g_mutex_lock (&cap->lock);
  if (restart && cap->path) {
    ivtv_capture_stop_path (cap);
    cap->state = IVTV_CAPTURE_STARTED;
  }
  ok = ivtv_capture_apply_format (cap, caps);
  gst_caps_replace (&cap->caps, caps);
  g_mutex_unlock (&cap->lock);
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
