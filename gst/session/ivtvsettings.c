/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — inputs, standards, audio input and tuner frequency, as the
 * user names them (see ivtvsettings.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvsettings.h"
#include "ivtvdebug.h"
#include "ivtvnames.h"

#include <errno.h>
#include <string.h>

#define GST_CAT_DEFAULT ivtv_debug

GQuark
ivtv_settings_error_quark (void)
{
  return g_quark_from_static_string ("ivtv-settings-error-quark");
}

static IvtvNameEntry *
input_entries (const IvtvProbe * probe)
{
  IvtvNameEntry *e = g_new0 (IvtvNameEntry, MAX (probe->n_inputs, 1));
  guint i;

  for (i = 0; i < probe->n_inputs; i++) {
    e[i].name = probe->inputs[i].name;
    e[i].is_tuner = probe->inputs[i].type == V4L2_INPUT_TYPE_TUNER;
  }
  return e;
}

static IvtvNameEntry *
audio_entries (const IvtvProbe * probe)
{
  IvtvNameEntry *e = g_new0 (IvtvNameEntry, MAX (probe->n_audios, 1));
  guint i;

  for (i = 0; i < probe->n_audios; i++)
    e[i].name = probe->audios[i].name;
  return e;
}

static gint
find_entry (const IvtvProbe * probe, IvtvNameEntry * e, guint n,
    const gchar * what, const gchar * name, GError ** error)
{
  gint idx = ivtv_names_match (e, n, name);
  gchar *list;

  if (idx >= 0)
    return idx;

  list = ivtv_names_join (e, n);
  if (n == 0)
    g_set_error (error, IVTV_SETTINGS_ERROR, IVTV_SETTINGS_ERROR_UNSUPPORTED,
        _("Cannot select %s '%s': '%s' has no %ss"), what, name, probe->card,
        what);
  else if (idx == IVTV_NAMES_AMBIGUOUS)
    g_set_error (error, IVTV_SETTINGS_ERROR, IVTV_SETTINGS_ERROR_AMBIGUOUS,
        _("The %s name '%s' fits more than one %s of '%s'; say which one. "
        "Available %ss: %s (a name, a unique part of one, or an index "
        "0-%u)"), what, name, what, probe->card, what, list, n - 1);
  else
    g_set_error (error, IVTV_SETTINGS_ERROR, IVTV_SETTINGS_ERROR_UNKNOWN,
        _("Unknown %s '%s' on '%s'. Available %ss: %s (a name, a unique "
        "part of one, or an index 0-%u)"), what, name, probe->card, what,
        list, n - 1);
  g_free (list);
  return -1;
}

gint
ivtv_settings_find_input (const IvtvProbe * probe, const gchar * name,
    GError ** error)
{
  IvtvNameEntry *e = input_entries (probe);
  gint idx = find_entry (probe, e, probe->n_inputs, "input", name, error);

  g_free (e);
  return idx;
}

gint
ivtv_settings_find_audio (const IvtvProbe * probe, const gchar * name,
    GError ** error)
{
  IvtvNameEntry *e = audio_entries (probe);
  gint idx = find_entry (probe, e, probe->n_audios, "audio input", name,
      error);

  g_free (e);
  return idx;
}

gboolean
ivtv_settings_set_input (IvtvDevice * dev, IvtvProbe * probe,
    const gchar * name, GError ** error)
{
  gint idx = ivtv_settings_find_input (probe, name, error);
  int index, ret;

  if (idx < 0)
    return FALSE;
  index = probe->inputs[idx].index;

  /* the driver may have been switched by someone else: ask it */
  if (ivtv_ioctl (dev, VIDIOC_G_INPUT, &probe->current_input) < 0)
    probe->current_input = -1;
  if (probe->current_input == index) {
    GST_DEBUG_OBJECT (dev->owner, "input %d '%s' is current already", index,
        probe->inputs[idx].name);
    return TRUE;
  }

  ret = ivtv_ioctl (dev, VIDIOC_S_INPUT, &index);
  if (ret < 0) {
    g_set_error (error, IVTV_SETTINGS_ERROR,
        ret == -EBUSY ? IVTV_SETTINGS_ERROR_BUSY : IVTV_SETTINGS_ERROR_FAILED,
        _("Cannot switch to input '%s' of '%s': %s"), probe->inputs[idx].name,
        probe->card, g_strerror (-ret));
    return FALSE;
  }
  GST_INFO_OBJECT (dev->owner, "switched to input %d '%s'", index,
      probe->inputs[idx].name);
  /* status (signal), the tuner and the standards (ENUMSTD enumerates those
   * of the current input) belong to the new input */
  ivtv_probe_inputs (probe, dev);
  ivtv_probe_tuner (probe, dev);
  ivtv_probe_standards (probe, dev);
  return TRUE;
}

gboolean
ivtv_settings_set_audio (IvtvDevice * dev, IvtvProbe * probe,
    const gchar * name, GError ** error)
{
  struct v4l2_audio a;
  gint idx = ivtv_settings_find_audio (probe, name, error);
  int ret;

  if (idx < 0)
    return FALSE;
  if (probe->current_audio == (gint) probe->audios[idx].index)
    return TRUE;
  memset (&a, 0, sizeof (a));
  a.index = probe->audios[idx].index;
  a.mode = probe->audios[idx].mode & V4L2_AUDMODE_AVL;
  ret = ivtv_ioctl (dev, VIDIOC_S_AUDIO, &a);
  if (ret < 0) {
    g_set_error (error, IVTV_SETTINGS_ERROR,
        ret == -EBUSY ? IVTV_SETTINGS_ERROR_BUSY : IVTV_SETTINGS_ERROR_FAILED,
        _("Cannot switch to audio input '%s' of '%s': %s"),
        probe->audios[idx].name, probe->card, g_strerror (-ret));
    return FALSE;
  }
  probe->current_audio = probe->audios[idx].index;
  return TRUE;
}

/* ---- standards ---- */

gchar *
ivtv_settings_describe_stds (const IvtvProbe * probe)
{
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; i < probe->n_stds; i++) {
    const gchar *shrt = ivtv_names_std_to_string (probe->stds[i].id);
    gchar *norm_a = ivtv_names_normalize (probe->stds[i].name);
    gchar *norm_b = shrt ? ivtv_names_normalize (shrt) : NULL;

    g_string_append_printf (s, "%s'%s'", i ? ", " : "", probe->stds[i].name);
    if (shrt && g_strcmp0 (norm_a, norm_b) != 0)
      g_string_append_printf (s, " (%s)", shrt);
    g_free (norm_a);
    g_free (norm_b);
  }
  if (probe->n_stds == 0)
    g_string_append (s, "(none)");
  return g_string_free (s, FALSE);
}

static v4l2_std_id
card_std_mask (const IvtvProbe * probe)
{
  v4l2_std_id all = 0;
  guint i;

  for (i = 0; i < probe->n_stds; i++)
    all |= probe->stds[i].id;
  return all;
}

gboolean
ivtv_settings_resolve_std (const IvtvProbe * probe, const gchar * name,
    v4l2_std_id * id, gboolean * is_auto, GError ** error)
{
  gchar *norm, *list;
  v4l2_std_id parsed = 0, all = card_std_mask (probe);
  guint i;

  *id = 0;
  *is_auto = FALSE;

  if (probe->n_stds == 0) {
    g_set_error (error, IVTV_SETTINGS_ERROR, IVTV_SETTINGS_ERROR_UNSUPPORTED,
        _("Cannot set standard '%s': '%s' has no TV standards on this input"),
        name, probe->card);
    return FALSE;
  }

  /* the card's own names ("NTSC-M", "PAL-BG", ...) */
  norm = ivtv_names_normalize (name);
  for (i = 0; i < probe->n_stds; i++) {
    gchar *n = ivtv_names_normalize (probe->stds[i].name);
    gboolean same = *norm && strcmp (n, norm) == 0;
    g_free (n);
    if (same) {
      *id = probe->stds[i].id;
      g_free (norm);
      return TRUE;
    }
  }
  g_free (norm);

  if (ivtv_names_parse_std (name, &parsed, is_auto)) {
    if (*is_auto)
      return TRUE;
    if ((parsed & all) != 0) {
      /* only the parts the card has: "ntsc" on an NTSC-M-only card */
      *id = parsed & all;
      return TRUE;
    }
  }

  list = ivtv_settings_describe_stds (probe);
  g_set_error (error, IVTV_SETTINGS_ERROR, IVTV_SETTINGS_ERROR_UNKNOWN,
      _("%s standard '%s' for '%s'. Available standards: %s, or 'auto' to "
      "detect it"), parsed ? "Unsupported" : "Unknown", name, probe->card, list);
  g_free (list);
  return FALSE;
}

gboolean
ivtv_settings_set_std (IvtvDevice * dev, IvtvProbe * probe,
    const gchar * name, GError ** error)
{
  v4l2_std_id id = 0, cur = 0;
  gboolean is_auto = FALSE;
  gchar *desc;
  int ret;

  /* auto on an input without standards (a webcam input): nothing to
   * detect, nothing to set */
  if (probe->n_stds == 0 && ivtv_names_parse_std (name, &id, &is_auto)
      && is_auto)
    return TRUE;
  if (!ivtv_settings_resolve_std (probe, name, &id, &is_auto, error))
    return FALSE;

  if (is_auto) {
    ret = ivtv_ioctl (dev, VIDIOC_QUERYSTD, &id);
    if (ret < 0 || id == 0 || (id & card_std_mask (probe)) == 0) {
      g_set_error (error, IVTV_SETTINGS_ERROR, IVTV_SETTINGS_ERROR_NO_SIGNAL,
          _("standard=auto: '%s' could not detect the TV standard (%s); "
          "keeping the current one"), probe->card,
          ret < 0 ? g_strerror (-ret) : "no signal");
      return FALSE;
    }
    id &= card_std_mask (probe);
    desc = ivtv_names_std_describe (id);
    GST_INFO_OBJECT (dev->owner, "detected standard %s", desc);
    g_free (desc);
  }

  if (ivtv_ioctl (dev, VIDIOC_G_STD, &cur) == 0) {
    probe->current_std = cur;
    /* already exactly this, or a member of the asked-for group */
    if (cur != 0 && (cur == id || (cur & ~id) == 0)) {
      GST_DEBUG_OBJECT (dev->owner, "standard already set");
      return TRUE;
    }
  }

  ret = ivtv_ioctl (dev, VIDIOC_S_STD, &id);
  if (ret < 0) {
    desc = ivtv_names_std_describe (id);
    if (ret == -EBUSY)
      g_set_error (error, IVTV_SETTINGS_ERROR, IVTV_SETTINGS_ERROR_BUSY,
          _("'%s' cannot change the TV standard to %s while it is capturing "
          "(the driver says: %s); it applies at the next start"), probe->card,
          desc, g_strerror (-ret));
    else
      g_set_error (error, IVTV_SETTINGS_ERROR, IVTV_SETTINGS_ERROR_FAILED,
          _("Cannot set TV standard %s on '%s': %s"), desc, probe->card,
          g_strerror (-ret));
    g_free (desc);
    return FALSE;
  }
  if (ivtv_ioctl (dev, VIDIOC_G_STD, &cur) == 0)
    probe->current_std = cur;
  else
    probe->current_std = id;
  desc = ivtv_names_std_describe (probe->current_std);
  GST_INFO_OBJECT (dev->owner, "standard set to %s", desc);
  g_free (desc);
  return TRUE;
}

/* ---- tuner ---- */

gboolean
ivtv_settings_set_frequency (IvtvDevice * dev, IvtvProbe * probe, guint64 hz,
    GError ** error)
{
  IvtvTuner *t = &probe->tuner;
  struct v4l2_frequency f;
  guint32 units;
  int ret;

  if (!t->present) {
    const IvtvInput *in = probe->current_input >= 0 ?
        ivtv_probe_find_input (probe, probe->current_input) : NULL;
    g_set_error (error, IVTV_SETTINGS_ERROR, IVTV_SETTINGS_ERROR_UNSUPPORTED,
        _("Cannot tune to %.3f MHz: %s"), hz / 1e6,
        !ivtv_device_has_cap (dev, V4L2_CAP_TUNER) ?
        "the device has no tuner" : in ?
        "the current input is not the tuner (choose it with input=tuner)" :
        "the tuner does not answer");
    return FALSE;
  }

  units = ivtv_tuner_hz_to_units (t, hz);
  if (units < t->rangelow || units > t->rangehigh) {
    g_set_error (error, IVTV_SETTINGS_ERROR, IVTV_SETTINGS_ERROR_RANGE,
        _("Frequency %.3f MHz is outside the range of tuner '%s' "
        "(%.3f - %.3f MHz)"), hz / 1e6, t->name,
        ivtv_tuner_units_to_hz (t, t->rangelow) / 1e6,
        ivtv_tuner_units_to_hz (t, t->rangehigh) / 1e6);
    return FALSE;
  }
  if (t->frequency == units)
    return TRUE;

  memset (&f, 0, sizeof (f));
  f.tuner = t->index;
  f.type = t->type;
  f.frequency = units;
  ret = ivtv_ioctl (dev, VIDIOC_S_FREQUENCY, &f);
  if (ret < 0) {
    g_set_error (error, IVTV_SETTINGS_ERROR,
        ret == -EBUSY ? IVTV_SETTINGS_ERROR_BUSY : IVTV_SETTINGS_ERROR_FAILED,
        _("Cannot tune to %.3f MHz: %s"), hz / 1e6, g_strerror (-ret));
    return FALSE;
  }
  /* drivers round: read back what was set */
  memset (&f, 0, sizeof (f));
  f.tuner = t->index;
  if (ivtv_ioctl (dev, VIDIOC_G_FREQUENCY, &f) == 0)
    t->frequency = f.frequency;
  else
    t->frequency = units;
  GST_INFO_OBJECT (dev->owner, "tuned to %.4f MHz",
      ivtv_tuner_units_to_hz (t, t->frequency) / 1e6);
  return TRUE;
}

gboolean
ivtv_settings_check_names (const IvtvProbe * probe, const gchar * input,
    const gchar * standard, const gchar * audio, GError ** error)
{
  v4l2_std_id id;
  gboolean is_auto;

  if (input && ivtv_settings_find_input (probe, input, error) < 0)
    return FALSE;
  /* the standards probed are the current input's: when it has none (a
   * webcam input of vivid) the input named may still have them, and the
   * switch to it re-probes; the standard is checked there */
  if (standard && probe->n_stds > 0
      && !ivtv_settings_resolve_std (probe, standard, &id, &is_auto, error))
    return FALSE;
  if (audio && ivtv_settings_find_audio (probe, audio, error) < 0)
    return FALSE;
  return TRUE;
}

/* ---- names for properties ---- */

gchar **
ivtv_settings_input_names (const IvtvProbe * probe)
{
  gchar **v = g_new0 (gchar *, probe->n_inputs + 1);
  guint i;

  for (i = 0; i < probe->n_inputs; i++)
    v[i] = g_strdup (probe->inputs[i].name);
  return v;
}

gchar **
ivtv_settings_std_names (const IvtvProbe * probe)
{
  gchar **v = g_new0 (gchar *, probe->n_stds + 1);
  guint i;

  for (i = 0; i < probe->n_stds; i++)
    v[i] = g_strdup (probe->stds[i].name);
  return v;
}
