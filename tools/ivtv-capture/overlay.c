/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtv-capture --preview's overlay: what the status line says, drawn on the
 * preview window (textoverlay, Pango markup) in the preview's own pipeline,
 * so it costs the recording nothing: a red REC and the elapsed time, the
 * input's signal, the audio level of the card's sound (decoded for the
 * preview, measured by level) and what was lost.  Updated twice a second
 * from the main loop. */
#include "capture.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#define OVERLAY_PERIOD_MS 500
#define LEVEL_BAR 10            /* characters of the level bar */

/* the textoverlay and the converter after it, linked: conv ! overlay ! out */
GstElement *
cap_overlay_make (Capture * c, GstElement ** out, GError ** error)
{
  GstElement *ovl = gst_element_factory_make ("textoverlay", "povl");

  *out = gst_element_factory_make ("videoconvert", NULL);
  if (ovl == NULL || *out == NULL) {
    g_set_error_literal (error, GST_CORE_ERROR,
        GST_CORE_ERROR_MISSING_PLUGIN, N_("--preview needs textoverlay and "
            "videoconvert (gstreamer1.0-plugins-base)"));
    gst_clear_object (&ovl);
    gst_clear_object (out);
    return NULL;
  }
  g_object_set (ovl, "font-desc", "Sans Bold 16", "shaded-background", TRUE,
      "text", "", NULL);
  gst_util_set_object_arg (G_OBJECT (ovl), "valignment", "top");
  gst_util_set_object_arg (G_OBJECT (ovl), "halignment", "left");
  gst_util_set_object_arg (G_OBJECT (ovl), "line-alignment", "left");
  c->preview_overlay = ovl;
  c->audio_db[0] = c->audio_db[1] = -INFINITY;
  g_timeout_add (OVERLAY_PERIOD_MS, cap_overlay_tick, c);
  return ovl;
}

/* "▮▮▮▮▯▯▯▯▯▯ -18 dB": -60 dB .. 0 dB */
static void
level_text (GString * s, gdouble db)
{
  gint i, n = isfinite (db) ? (gint) ((db + 60) / 60 * LEVEL_BAR + 0.5) : 0;

  n = CLAMP (n, 0, LEVEL_BAR);
  for (i = 0; i < LEVEL_BAR; i++)
    g_string_append (s, i < n ? "\u25AE" : "\u25AF");
  if (isfinite (db))
    g_string_append_printf (s, " %3.0f dB", db);
  else
    g_string_append (s, "  -- dB");
}

/* the overlay's text (Pango markup) from what the status line shows */
gchar *
cap_overlay_text (Capture * c)
{
  GString *s = g_string_new (NULL);
  gchar tb[CAP_TIME_LEN], *input;

  input = g_markup_escape_text (c->signal_input ? c->signal_input : "?", -1);
  if (atomic_load (&c->rec_start_us) == 0)
    g_string_append_printf (s, "<span foreground=\"#FFD000\">%s</span> %s",
        _("WAIT"), _("no recording yet"));
  else
    g_string_append_printf (s, "<span foreground=\"#FF2020\">\u25CF REC</span>"
        " %s  %.1f MB", cap_format_time (cap_elapsed (c), tb),
        atomic_load (&c->bytes) / 1e6);
  g_string_append_c (s, '\n');
  g_string_append_printf (s, _("signal: %s%s%s (%s)"),
      c->signal == CAP_SIGNAL_PRESENT ? "" : "<span foreground=\"#FF2020\">",
      _(cap_signal_word (c->signal)),
      c->signal == CAP_SIGNAL_PRESENT ? "" : "</span>", input);
  g_string_append_c (s, '\n');
  g_string_append (s, _("audio: "));
  if (c->audio_channels == 0)
    g_string_append (s, "-");
  else {
    level_text (s, c->audio_db[0]);
    if (c->audio_channels > 1) {
      g_string_append (s, "  ");
      level_text (s, c->audio_db[1]);
    }
  }
  g_string_append_c (s, '\n');
  if (!c->have_stats)
    g_string_append (s, _("lost: -"));
  else                          /* %s: the markup that makes a loss red */
    g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE,
            "lost: %s%" PRIu64 " frame, %.2f MB%s",
            "lost: %s%" PRIu64 " frames, %.2f MB%s",
            (gulong) MIN (c->frames_lost, G_MAXULONG)),
        c->bytes_lost || c->frames_lost ?
        "<span foreground=\"#FF2020\">" : "", c->frames_lost,
        c->bytes_lost / 1e6, c->bytes_lost || c->frames_lost ? "</span>" : "");
  g_free (input);
  return g_string_free (s, FALSE);
}

gboolean
cap_overlay_tick (gpointer data)
{
  Capture *c = data;
  gchar *text;

  if (c->preview_overlay == NULL)
    return G_SOURCE_REMOVE;
  text = cap_overlay_text (c);
  g_object_set (c->preview_overlay, "text", text, NULL);
  g_free (text);
  return G_SOURCE_CONTINUE;
}

/* a level message of the preview's audio: its peak per channel, in dB */
void
cap_overlay_level (Capture * c, const GstStructure * s)
{
  const GValue *peaks = gst_structure_get_value (s, "peak");
  GValueArray *arr;
  guint i, n;

  /* level's fields are GValueArrays (deprecated in GLib, GStreamer's API) */
G_GNUC_BEGIN_IGNORE_DEPRECATIONS;
  if (peaks == NULL || !G_VALUE_HOLDS_BOXED (peaks))
    return;
  arr = g_value_get_boxed (peaks);
  n = arr ? arr->n_values : 0;
  for (i = 0; i < n && i < 2; i++)
    c->audio_db[i] = g_value_get_double (g_value_array_get_nth (arr, i));
G_GNUC_END_IGNORE_DEPRECATIONS;
  c->audio_channels = n ? MIN (n, 2) : 1;
}
