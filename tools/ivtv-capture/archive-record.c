/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtv-capture — what the archival path tells: its part of the status line
 * (frames, A/V drift and offset, audio levels; status.c calls it through
 * c->status_more, set by archive.c), its part of the record
 * FILE.json ("archive": format, audio device, drop policy, frame totals,
 * every loss and what was done, drift and offset every 10 s, levels per
 * minute) and the closing line with the totals. */
#include "archive.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <glib/gstdio.h>
#include <math.h>

static void
json_string (GString * s, const gchar * v)
{
  const gchar *p;

  if (v == NULL) {
    g_string_append (s, "null");
    return;
  }
  g_string_append_c (s, '"');
  for (p = v; *p; p++) {
    if (*p == '"' || *p == '\\')
      g_string_append_c (s, '\\');
    if ((guchar) * p < 0x20)
      g_string_append_printf (s, "\\u%04x", (guchar) * p);
    else
      g_string_append_c (s, *p);
  }
  g_string_append_c (s, '"');
}

static CapSync *
sync_of (CapArchive * a)
{
  CapSync *s;

  g_mutex_lock (&a->lock);
  s = a->sync;
  g_mutex_unlock (&a->lock);
  return s;
}

void
cap_archive_status (Capture * c, GString * line)
{
  CapArchive *a = c->archive;
  CapSync *s;
  CapSyncTotals t;

  if (a == NULL || (s = sync_of (a)) == NULL)
    return;
  cap_sync_totals (s, &t);
  g_string_append (line, "  ");
  g_string_append_printf (line, _("frames: %" PRIu64), t.frames_out);
  if (t.frames_lost)
    g_string_append_printf (line, _(" (%" PRIu64 " lost, %s)"),
        t.frames_lost, a->policy == CAP_DROP_REPEAT ? _("repeated") :
        _("audio cut"));
  if (a->asrc == NULL)
    return;
  if (t.have_ppm)
    g_string_append_printf (line, _("  A/V drift %+.0f ppm offset %+.1f ms"),
        t.ppm, t.offset_ms);
  else
    g_string_append (line, _("  A/V drift - offset -"));
  cap_levels_text (&a->levels, line);
}

static void
json_totals (GString * s, CapArchive * a, const CapSyncTotals * t)
{
  g_string_append_printf (s, ",\n    \"frames\": {\"delivered\": %"
      G_GUINT64_FORMAT ", \"repeated\": %" G_GUINT64_FORMAT ", \"in_file\": %"
      G_GUINT64_FORMAT ", \"lost\": %" G_GUINT64_FORMAT ", \"hashed\": %"
      G_GUINT64_FORMAT "}", t->frames_delivered, t->frames_repeated,
      t->frames_out, t->frames_lost,
      a->md5 ? cap_framemd5_frames (a->md5) : a->md5_frames);
  if (a->asrc == NULL)
    return;
  g_string_append_printf (s, ",\n    \"audio_samples\": {\"rate\": %d, "
      "\"captured\": %" G_GUINT64_FORMAT ", \"in_file\": %" G_GUINT64_FORMAT
      ", \"inserted\": %" G_GUINT64_FORMAT ", \"removed\": %" G_GUINT64_FORMAT
      "}", a->rate, t->samples_in, t->samples_out, t->inserted, t->removed);
  g_string_append_printf (s, ",\n    \"sync\": {\"master\": \"video frame "
      "sequence\", \"drift_ppm\": %.1f, \"last_offset_ms\": %.2f, "
      "\"max_offset_ms\": %.2f, \"over_time\": [", t->ppm, t->offset_ms,
      t->max_offset_ms);
}

static void
json_points (GString * s, CapSync * sync)
{
  GArray *p = cap_sync_points (sync);
  guint i;

  for (i = 0; i < p->len; i++) {
    CapSyncPoint *x = &g_array_index (p, CapSyncPoint, i);

    g_string_append_printf (s, "%s\n      {\"time\": %.1f, \"drift_ppm\": "
        "%.1f, \"offset_ms\": %.2f, \"inserted\": %" G_GUINT64_FORMAT
        ", \"removed\": %" G_GUINT64_FORMAT "}", i ? "," : "", x->time,
        x->ppm, x->offset_ms, x->inserted, x->removed);
  }
  g_string_append (s, "]}");
  g_array_unref (p);
}

static void
json_events (GString * s, CapSync * sync)
{
  GArray *e = cap_sync_events (sync);
  guint i;

  g_string_append (s, ",\n    \"events\": [");
  for (i = 0; i < e->len; i++) {
    CapSyncEvent *x = &g_array_index (e, CapSyncEvent, i);

    g_string_append_printf (s, "%s\n      {\"time\": %.3f, \"sequence\": %"
        G_GUINT64_FORMAT ", \"frames\": %" G_GUINT64_FORMAT ", \"action\": ",
        i ? "," : "", x->time, x->sequence, x->frames);
    json_string (s, x->action);
    g_string_append_c (s, '}');
  }
  g_string_append (s, "]");
  g_array_unref (e);
}

void
cap_archive_json (Capture * c, GString * s)
{
  CapArchive *a = c->archive;
  CapSync *sync;
  CapSyncTotals t = { 0 };

  if (a == NULL)
    return;
  sync = sync_of (a);
  if (sync)
    cap_sync_totals (sync, &t);
  g_string_append (s, ",\n  \"archive\": {\n    \"format\": ");
  json_string (s, "FFV1 version 3 (slices, CRC, GOP 1) + PCM in Matroska");
  g_string_append (s, ",\n    \"audio_device\": ");
  json_string (s, a->asrc ? a->audio_name : NULL);
  g_string_append (s, ",\n    \"on_drop\": ");
  json_string (s, a->policy == CAP_DROP_REPEAT ? "repeat" : "cut-audio");
  g_string_append (s, ",\n    \"framemd5\": ");
  json_string (s, a->md5_path);
  g_string_append (s, ",\n    \"access_copy\": ");
  json_string (s, c->access_copy);
  json_totals (s, a, &t);
  if (a->asrc && sync)
    json_points (s, sync);
  else if (a->asrc)
    g_string_append (s, "]}");
  if (sync)
    json_events (s, sync);
  cap_archive_watch_json (a, s);
  if (a->asrc) {
    g_string_append (s, ",\n    \"levels\": ");
    cap_levels_json (&a->levels, s);
  }
  g_string_append (s, "\n  }");
}

void
cap_archive_report (Capture * c)
{
  CapArchive *a = c->archive;
  CapSync *sync;
  CapSyncTotals t;

  if (a == NULL)
    return;
  if (a->watch_id)
    g_source_remove (a->watch_id);
  a->watch_id = 0;
  cap_levels_finish (&a->levels);
  a->md5_frames = cap_framemd5_frames (a->md5);
  cap_framemd5_close (a->md5);
  a->md5 = NULL;
  if (atomic_load (&c->bytes) == 0 && a->md5_path)
    g_unlink (a->md5_path);     /* nothing recorded: nothing left behind */
  if ((sync = sync_of (a)) == NULL)
    return;
  cap_sync_totals (sync, &t);
  g_print (_("ivtv-capture: frames: %" PRIu64 " delivered + %"
          PRIu64 " repeated = %" PRIu64 " in the file (%"
          PRIu64 " lost by the card or the queue)\n"),
      t.frames_delivered, t.frames_repeated, t.frames_out, t.frames_lost);
  if (a->asrc)
    g_print (g_dngettext (GETTEXT_PACKAGE, "ivtv-capture: audio from %s: "
            "clock %+.0f ppm against the video, largest A/V offset %.1f ms, "
            "%" PRIu64 " sample inserted, %" PRIu64 " removed\n",
            "ivtv-capture: audio from %s: clock %+.0f ppm against the video, "
            "largest A/V offset %.1f ms, %" PRIu64 " samples inserted, %"
            PRIu64 " removed\n", (gulong) MIN (t.inserted, G_MAXULONG)),
        a->audio_name, t.ppm, t.max_offset_ms, t.inserted, t.removed);
}
