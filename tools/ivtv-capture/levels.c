/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtv-capture — the audio levels of an archival capture: per channel the
 * peak and RMS from GStreamer's level element (its "level" messages, dBFS,
 * every 100 ms) for the status line; a count of clipped samples (at full
 * scale) taken from the samples themselves; and per minute the highest
 * peak, the RMS over the minute and the clipped count for the record. */
#include "levels.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#define MINUTE_S 60.0

void
cap_levels_init (CapLevels * l)
{
  memset (l, 0, sizeof (*l));
  l->minutes = g_array_new (FALSE, FALSE, sizeof (CapLevelMinute));
}

void
cap_levels_clear (CapLevels * l)
{
  if (l->minutes)
    g_array_unref (l->minutes);
  l->minutes = NULL;
}

void
cap_levels_count_clipped (CapLevels * l, GstBuffer * buf, gint width)
{
  GstMapInfo map;
  guint64 n = 0;
  gsize i;

  if (!gst_buffer_map (buf, &map, GST_MAP_READ))
    return;
  if (width == 16) {
    for (i = 0; i + 1 < map.size; i += 2) {
      gint16 v = (gint16) GST_READ_UINT16_LE (map.data + i);
      n += v == G_MAXINT16 || v == G_MININT16;
    }
  } else if (width == 32) {
    for (i = 0; i + 3 < map.size; i += 4) {
      gint32 v = (gint32) GST_READ_UINT32_LE (map.data + i);
      n += v == G_MAXINT32 || v == G_MININT32;
    }
  }
  gst_buffer_unmap (buf, &map);
  if (n > 0)
    atomic_fetch_add (&l->clipped, n);
}

static gdouble
db (gdouble lin)
{
  return lin > 0 ? 20.0 * log10 (lin) : -200.0;
}

static void
close_minute (CapLevels * l)
{
  CapLevelMinute m;
  guint64 clipped = atomic_load (&l->clipped);
  gint c;

  if (l->intervals == 0)
    return;
  memset (&m, 0, sizeof (m));
  m.time = l->minute_start;
  m.channels = l->channels;
  for (c = 0; c < l->channels; c++) {
    m.peak_db[c] = db (l->peak[c]);
    m.rms_db[c] = db (sqrt (l->power[c] / l->intervals));
    l->peak[c] = l->power[c] = 0;
  }
  m.clipped = clipped - l->clipped_before;
  l->clipped_before = clipped;
  g_array_append_val (l->minutes, m);
  l->intervals = 0;
}

static gboolean
read_dbs (const GstStructure * s, const gchar * field, gdouble * out,
    gint * n)
{
  const GValue *v = gst_structure_get_value (s, field);
  gint i;

  if (v == NULL || !GST_VALUE_HOLDS_LIST (v)) {
    /* the level element posts a GValueArray */
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS GValueArray *arr;

    if (v == NULL || G_VALUE_TYPE (v) != g_type_from_name ("GValueArray"))
      return FALSE;
    arr = g_value_get_boxed (v);
    *n = MIN ((gint) arr->n_values, CAP_LEVEL_CHANNELS);
    for (i = 0; i < *n; i++)
      out[i] = g_value_get_double (&arr->values[i]);
    G_GNUC_END_IGNORE_DEPRECATIONS return TRUE;
  }
  *n = MIN ((gint) gst_value_list_get_size (v), CAP_LEVEL_CHANNELS);
  for (i = 0; i < *n; i++)
    out[i] = g_value_get_double (gst_value_list_get_value (v, i));
  return TRUE;
}

gboolean
cap_levels_message (CapLevels * l, const GstStructure * s)
{
  GstClockTime rt = 0;
  gdouble t;
  gint n = 0, c;

  if (!gst_structure_has_name (s, "level"))
    return FALSE;
  if (!read_dbs (s, "peak", l->peak_db, &n) || !read_dbs (s, "rms",
          l->rms_db, &n))
    return TRUE;
  gst_structure_get_clock_time (s, "stream-time", &rt);
  t = rt / 1e9;
  if (l->intervals > 0 && t >= l->minute_start + MINUTE_S)
    close_minute (l);
  if (l->intervals == 0)
    l->minute_start = floor (t / MINUTE_S) * MINUTE_S;
  l->channels = n;
  l->have = TRUE;
  for (c = 0; c < n; c++) {
    gdouble pk = pow (10.0, l->peak_db[c] / 20.0);
    gdouble rms = pow (10.0, l->rms_db[c] / 20.0);

    l->peak[c] = MAX (l->peak[c], pk);
    l->power[c] += rms * rms;
  }
  l->intervals++;
  return TRUE;
}

void
cap_levels_finish (CapLevels * l)
{
  close_minute (l);
}

void
cap_levels_text (CapLevels * l, GString * out)
{
  gint c;

  if (!l->have) {
    g_string_append (out, "  ");
    g_string_append (out, _("audio: -"));
    return;
  }
  g_string_append (out, "  ");
  g_string_append (out, _("audio dB peak/rms:"));
  for (c = 0; c < l->channels; c++)
    g_string_append_printf (out, "%s%.0f/%.0f", c ? " " : " ",
        MAX (l->peak_db[c], -99.0), MAX (l->rms_db[c], -99.0));
  g_string_append_c (out, ' ');
  g_string_append_printf (out, _("clipped %" PRIu64),
      (guint64) atomic_load (&l->clipped));
}

static void
json_dbs (GString * out, const gdouble * v, gint n)
{
  gint c;

  g_string_append_c (out, '[');
  for (c = 0; c < n; c++)
    g_string_append_printf (out, "%s%.1f", c ? ", " : "", MAX (v[c], -200.0));
  g_string_append_c (out, ']');
}

void
cap_levels_json (CapLevels * l, GString * out)
{
  guint i;

  g_string_append_printf (out, "{\"clipped_samples\": %" G_GUINT64_FORMAT
      ", \"per_minute\": [", (guint64) atomic_load (&l->clipped));
  for (i = 0; l->minutes && i < l->minutes->len; i++) {
    CapLevelMinute *m = &g_array_index (l->minutes, CapLevelMinute, i);

    g_string_append_printf (out, "%s\n      {\"time\": %.0f, \"peak_db\": ",
        i ? "," : "", m->time);
    json_dbs (out, m->peak_db, m->channels);
    g_string_append (out, ", \"rms_db\": ");
    json_dbs (out, m->rms_db, m->channels);
    g_string_append_printf (out, ", \"clipped\": %" G_GUINT64_FORMAT "}",
        m->clipped);
  }
  g_string_append (out, "]}");
}
