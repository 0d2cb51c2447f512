/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the capture session's opener (see ivtvcapture.h), what lives
 * from open to close: the open recipe (a path or the application's fd,
 * libc or libv4l2) and reopening with it, the card's ownership (record
 * priority, busy checks), and the settings (input, standard, audio input,
 * frequency, encoder controls) applied with one error rule.  It calls
 * nothing of the format or the run (ivtvcaptureformat.c,
 * ivtvcaptureread.c): they and ivtvcapture.c call it. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvcapturepriv.h"
#include "ivtvdebug.h"
#include "ivtvcaps.h"
#include "ivtvinputauto.h"
#include "ivtvcard.h"
#include "ivtvpcm.h"
#include "ivtvpriority.h"
#include "ivtvsettings.h"

#include <errno.h>
#include <string.h>

#define GST_CAT_DEFAULT ivtvsrc_debug

/* ---- the open recipe ---- */

/* The node behind an adopted fd, to reopen it by path when the fd died
 * with the device (reconnect).  NULL when it is not a /dev node. */
static gchar *
node_of_fd (gint fd)
{
  gchar link[64], *target;

  g_snprintf (link, sizeof (link), "/proc/self/fd/%d", fd);
  target = g_file_read_link (link, NULL);
  if (target && !g_str_has_prefix (target, "/dev/"))
    g_clear_pointer (&target, g_free);
  return target;
}

/* A node that is the same card as the one first opened (driver, card and
 * bus info of QUERYCAP): where an unplugged device came back when its
 * adopted fd died and /proc does not name its node.  NULL if none. */
#define SAME_FIELD(a, b, f) \
  (strncmp ((const char *) (a)->f, (const char *) (b)->f, sizeof ((a)->f)) == 0)

static gboolean
same_card_name (const gchar * path, const struct v4l2_capability *cap,
    const gchar * role, gpointer identity)
{
  (void) role;
  return g_str_has_prefix (path, "/dev/video")
      && SAME_FIELD (cap, (const struct v4l2_capability *) identity, card);
}

static gchar *
find_same_card (IvtvCapture * cap)
{
  return ivtv_card_find_node (&cap->identity, NULL, same_card_name,
      &cap->identity);
}

/* Open the node as the recipe says: the application's fd (dup) or the
 * path; an adopted fd that no longer works (the device went away and came
 * back) is replaced by its node, or by the node of the same card.
 * libv4l2 when the recipe chose it at the first open.  Lock held. */
static gboolean
open_node (IvtvCapture * cap, GError ** error)
{
  gboolean ok;

  if (cap->recipe_fd >= 0) {
    ok = ivtv_device_adopt_fd (&cap->dev, cap->recipe_fd, error);
    if (!ok && cap->identity.driver[0]) {
      gchar *node = cap->node ? g_strdup (cap->node) : find_same_card (cap);

      GST_DEBUG ("fd %d: %s; opening %s", cap->recipe_fd,
          (*error)->message, node ? node : "(no node of the same card)");
      if (node) {
        g_clear_error (error);
        ok = ivtv_device_open (&cap->dev, node, TRUE, error);
      }
      g_free (node);
    }
  } else {
    ok = ivtv_device_open (&cap->dev, cap->recipe_path, TRUE, error);
  }
  if (ok && cap->via_libv4l2 && !ivtv_device_use_libv4l2 (&cap->dev, 0))
    GST_WARNING ("libv4l2 refused %s this time", cap->dev.path);
  return ok;
}

/* Close and open again with the recipe; @reprobe: the device may be a new
 * one (reconnect), ask it what it is now.  Lock held.  FALSE (closed). */
gboolean
ivtv_capture_reopen (IvtvCapture * cap, gboolean reprobe, GError ** error)
{
  ivtv_device_close (&cap->dev);
  cap->prio_held = FALSE;       /* it went with the descriptor */
  if (!open_node (cap, error))
    return FALSE;
  if (reprobe) {
    ivtv_probe_clear (&cap->probe);
    if (!ivtv_probe_run (&cap->probe, &cap->dev, error)) {
      ivtv_device_close (&cap->dev);
      return FALSE;
    }
  }
  return TRUE;
}

/* READY -> PAUSED after the device went away (the pipeline went back to
 * READY after the error): open it again with the recipe, a new device
 * maybe, once it is back.  Lock held.  FALSE after posting the error. */
gboolean
ivtv_capture_ensure_open (IvtvCapture * cap)
{
  struct v4l2_capability qc;
  GError *err = NULL;
  int ret = ivtv_device_is_open (&cap->dev) ?
      ivtv_ioctl (&cap->dev, VIDIOC_QUERYCAP, &qc) : -ENODEV;

  if (ret != -ENODEV && ret != -ENXIO)
    return TRUE;
  GST_INFO_OBJECT (cap->element, "the device went away: opening it again");
  if (ivtv_capture_reopen (cap, TRUE, &err))
    return TRUE;
  GST_ELEMENT_ERROR (cap->element, RESOURCE, NOT_FOUND, ("%s",
          err->message), ("opening the device again after it went away"));
  g_clear_error (&err);
  return FALSE;
}

/* libv4l2 when asked, or (auto) for a streaming device none of whose
 * formats GStreamer knows (it converts them to RGB/YUV).  FALSE with
 * @error when use-libv4l2=on in a build without libv4l2. */
static gboolean
choose_libv4l2 (IvtvCapture * cap, IvtvLibv4l2Mode mode, GError ** error)
{
  gboolean want = mode == IVTV_LIBV4L2_ON;
  guint i;

  if (mode == IVTV_LIBV4L2_ON && !HAVE_LIBV4L2) {
    g_set_error (error, IVTV_DEVICE_ERROR, IVTV_DEVICE_ERROR_FAILED,
        _("This ivtvsrc was built without libv4l2 (meson option libv4l2), so "
        "use-libv4l2=on is not possible for %s; use use-libv4l2=auto or off."),
        cap->dev.path);
    return FALSE;
  }
  if (mode == IVTV_LIBV4L2_AUTO
      && ivtv_device_has_cap (&cap->dev, V4L2_CAP_STREAMING)
      && cap->probe.n_formats > 0) {
    want = TRUE;
    for (i = 0; i < cap->probe.n_formats; i++)
      if (ivtv_caps_lookup_fourcc (cap->probe.formats[i].pixelformat))
        want = FALSE;
  }
  if (!want)
    return TRUE;
  cap->via_libv4l2 = ivtv_device_use_libv4l2 (&cap->dev, 0);
  if (cap->via_libv4l2)
    ivtv_probe_formats (&cap->probe, &cap->dev);        /* + emulated ones */
  else if (mode == IVTV_LIBV4L2_ON && cap->element)
    GST_ELEMENT_WARNING (cap->element, RESOURCE, SETTINGS,
        (_("libv4l2 could not be used for %s; using the device directly."),
            cap->dev.path), (NULL));
  return TRUE;
}

IvtvNodeKind
ivtv_capture_node_kind (IvtvCapture * cap)
{
  IvtvNodeKind kind;

  g_mutex_lock (&cap->lock);
  kind = ivtv_device_is_open (&cap->dev) ? cap->kind : IVTV_NODE_NONE;
  g_mutex_unlock (&cap->lock);
  return kind;
}

gboolean
ivtv_capture_open (IvtvCapture * cap, const IvtvOpenRecipe * recipe,
    GError ** error)
{
  gboolean ok;

  g_mutex_lock (&cap->lock);
  g_free (cap->recipe_path);
  g_free (cap->node);
  cap->recipe_path = g_strdup (recipe->path);
  if (recipe->fd < 0 || recipe->fd != cap->recipe_fd)
    cap->encoder_on_app_fd = FALSE;     /* another descriptor */
  cap->recipe_fd = recipe->fd;
  cap->node = recipe->fd >= 0 ? node_of_fd (recipe->fd) : NULL;
  cap->via_libv4l2 = FALSE;
  memset (&cap->identity, 0, sizeof (cap->identity));
  ok = open_node (cap, error) && ivtv_probe_run (&cap->probe, &cap->dev,
      error) && choose_libv4l2 (cap, recipe->libv4l2, error);
  if (!ok)
    ivtv_pcm_advise_radio (&cap->dev, error);   /* a radio node: its PCM */
  if (ok) {
    cap->identity = cap->dev.cap;
    cap->kind = ivtv_card_node_kind (&cap->dev, &cap->probe);
  }
  if (!ok) {
    ivtv_probe_clear (&cap->probe);
    ivtv_device_close (&cap->dev);
  } else {
    GST_INFO ("opened %s: '%s' (driver %s), %u inputs, %u standards, %u "
        "formats", cap->dev.path, cap->probe.card, cap->probe.driver,
        cap->probe.n_inputs, cap->probe.n_stds, cap->probe.n_formats);
  }
  g_mutex_unlock (&cap->lock);
  return ok;
}

void
ivtv_capture_close (IvtvCapture * cap)
{
  g_mutex_lock (&cap->lock);
  ivtv_vbi_forget_holder (&cap->dev);
  ivtv_probe_clear (&cap->probe);
  ivtv_device_close (&cap->dev);
  g_mutex_unlock (&cap->lock);
}

/* The card is ours before any setting is touched (ivtvpriority.h): FALSE
 * after posting the one busy error.  Lock held. */
gboolean
ivtv_capture_take_card (IvtvCapture * cap)
{
  GError *err = NULL;

  if (cap->kind == IVTV_NODE_VBI)       /* with the card's video capture */
    return ivtv_vbi_take_card (&cap->dev, &cap->prio_held);
  if (ivtv_priority_take (&cap->dev, cap->probe.card,
          cap->settings.record_priority, cap->encoder_on_app_fd,
          &cap->prio_held, &err)) {
    ivtv_vbi_note_holder (&cap->dev, cap->prio_held);
    return TRUE;
  }
  GST_ELEMENT_ERROR (cap->element, RESOURCE, BUSY, ("%s", err->message),
      ("device %s: nothing was set", cap->dev.path));
  g_clear_error (&err);
  return FALSE;
}

GType
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
