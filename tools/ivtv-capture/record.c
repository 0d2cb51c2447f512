/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtv-capture — what stays next to the file: the archival record
 * (FILE.json: card, driver, node, input, standard, encoder settings, start
 * and end, duration, bytes, signal gaps, anything lost, warnings), written
 * once at the start into space it keeps (so a full disk cannot take the
 * record away) and rewritten in place at the end; what the discoverer says
 * of the file; the picture size in the stream (a standard change
 * mid-capture is a warning, and no DVD); and the DVD folder made with
 * dvdauthor. */
#include "capture.h"

#include <glib/gi18n-lib.h>
#include <errno.h>
#include <fcntl.h>
#include <gst/pbutils/pbutils.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the record is padded to this size at the start: rewriting it later
 * needs no new disk space */
#define SIDECAR_RESERVE 16384

static const gchar *const encoder_props[] = { "stream-type", "bitrate-mode",
  "bitrate", "peak-bitrate", "gop-size", "b-frames", "aspect", "audio-rate",
  "audio-bitrate", NULL
};

gchar *
cap_sidecar_path (const gchar * output)
{
  return g_strconcat (output, ".json", NULL);
}

/* ---- a small JSON writer ---- */

static void
json_str (GString * s, const gchar * v)
{
  const gchar *p;

  if (v == NULL) {
    g_string_append (s, "null");
    return;
  }
  g_string_append_c (s, '"');
  for (p = v; *p; p++) {
    guchar ch = *p;

    if (ch == '"' || ch == '\\')
      g_string_append_printf (s, "\\%c", ch);
    else if (ch < 0x20)
      g_string_append_printf (s, "\\u%04x", ch);
    else
      g_string_append_c (s, ch);
  }
  g_string_append_c (s, '"');
}

static void
json_key (GString * s, const gchar * key)
{
  g_string_append (s, ",\n  ");
  json_str (s, key);
  g_string_append (s, ": ");
}

static void
json_key_str (GString * s, const gchar * key, const gchar * v)
{
  json_key (s, key);
  json_str (s, v);
}

static gchar *
iso_time (GDateTime * t)
{
  return t ? g_date_time_format_iso8601 (t) : NULL;
}

static void json_pictures (GString * s, Capture * c);

/* ---- what the element says about its settings, read while it runs ---- */

void
cap_read_settings (Capture * c)
{
  GString *s = g_string_new ("{");
  GstPad *pad = gst_element_get_static_pad (c->src, "src");
  GstCaps *caps = gst_pad_get_current_caps (pad);
  guint i, n = 0;

  gst_object_unref (pad);
  if (caps) {
    GstStructure *st = gst_caps_get_structure (caps, 0);

    g_free (c->caps_str);
    c->caps_str = gst_caps_to_string (caps);
    /* raw video says its size here; MPEG only to the discoverer */
    gst_structure_get_int (st, "width", &c->video_width);
    gst_structure_get_int (st, "height", &c->video_height);
    gst_caps_unref (caps);
  }
  for (i = 0; encoder_props[i]; i++) {
    GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (c->src),
        encoder_props[i]);
    GValue v = G_VALUE_INIT;

    if (ps == NULL)
      continue;
    g_value_init (&v, ps->value_type);
    g_object_get_property (G_OBJECT (c->src), encoder_props[i], &v);
    g_string_append_printf (s, "%s\"%s\": ", n++ ? ", " : "", encoder_props[i]);
    if (G_VALUE_HOLDS_ENUM (&v)) {
      GEnumValue *e = g_enum_get_value (g_type_class_peek (ps->value_type),
          g_value_get_enum (&v));
      json_str (s, e ? e->value_nick : "?");
    } else if (G_VALUE_HOLDS_INT (&v)) {
      g_string_append_printf (s, "%d", g_value_get_int (&v));
    } else {
      g_string_append (s, "null");
    }
    g_value_unset (&v);
  }
  g_string_append_c (s, '}');
  g_free (c->encoder_json);
  c->encoder_json = g_string_free (s, FALSE);
}

/* ---- the record ---- */

static void
json_gaps (GString * s, Capture * c)
{
  guint i;

  json_key (s, "signal_gaps");
  g_string_append_c (s, '[');
  for (i = 0; i < c->gaps->len && i < 200; i++) {
    CapGap *g = &g_array_index (c->gaps, CapGap, i);
    gdouble end = g->end >= 0 ? g->end : cap_elapsed (c);

    g_string_append_printf (s, "%s{\"start\": %.1f, \"end\": %.1f, "
        "\"signal\": \"%s\"}", i ? ", " : "", g->start, end,
        cap_signal_word (g->state));
  }
  g_string_append_c (s, ']');
  json_key (s, "signal_gaps_count");
  g_string_append_printf (s, "%u", c->gaps->len);
}

static void
json_loss_and_warnings (GString * s, Capture * c)
{
  guint i;

  json_key (s, "lost");
  if (c->have_stats)
    g_string_append_printf (s, "{\"reported_by\": \"ivtvsrc-stats\", "
        "\"bytes\": %" G_GUINT64_FORMAT ", \"frames\": %" G_GUINT64_FORMAT
        "}", c->bytes_lost, c->frames_lost);
  else
    g_string_append (s, "{\"reported_by\": null, \"bytes\": null, "
        "\"frames\": null}");
  json_key (s, "warnings");
  g_string_append_c (s, '[');
  for (i = 0; i < c->warnings->len; i++) {
    g_string_append (s, i ? ", " : "");
    json_str (s, g_ptr_array_index (c->warnings, i));
  }
  g_string_append_c (s, ']');
}

static gchar *
sidecar_text (Capture * c, gboolean final)
{
  GString *s = g_string_new ("{\n  \"record\": \"ivtv-capture 1\"");
  gchar *t0 = iso_time (c->start_time), *t1 = iso_time (c->end_time);
  gchar *base = g_path_get_basename (c->output);
  struct stat st;

  json_key_str (s, "file", base);
  json_key_str (s, "status", !final ? "recording" :
      c->exit_code == CAP_EXIT_OK || c->exit_code == CAP_EXIT_DVD ?
      "complete" : "incomplete");
  json_key_str (s, "end_reason", c->end_reason);
  json_key_str (s, "error", c->error_line);
  json_key_str (s, "card", c->card);
  json_key_str (s, "driver", c->driver);
  json_key_str (s, "device", c->node);
  json_key_str (s, "bus", c->bus_info);
  json_key_str (s, "input", c->signal_input ? c->signal_input : c->input);
  json_key_str (s, "standard_requested", c->standard);
  json_key (s, "video");
  if (c->video_height > 0)
    g_string_append_printf (s, "{\"width\": %d, \"height\": %d, \"lines\": "
        "%d, \"family\": \"%s\"}", c->video_width, c->video_height,
        c->video_height > 480 ? 625 : 525, c->video_height > 480 ?
        "PAL/SECAM" : "NTSC");
  else
    g_string_append (s, "null");
  json_key_str (s, "caps", c->caps_str);
  json_key (s, "encoder");
  g_string_append (s, c->encoder_json ? c->encoder_json : "null");
  json_key_str (s, "start", t0);
  json_key_str (s, "end", t1);
  json_key (s, "duration");
  g_string_append_printf (s, "%.2f", final ? cap_elapsed (c) : 0.0);
  json_key (s, "media_duration");
  if (c->media_duration >= 0)
    g_string_append_printf (s, "%.2f", c->media_duration);
  else
    g_string_append (s, "null");
  json_key (s, "bytes");
  g_string_append_printf (s, "%" G_GINT64_FORMAT,
      (gint64) (stat (c->output, &st) == 0 ? st.st_size : 0));
  json_gaps (s, c);
  json_pictures (s, c);
  json_loss_and_warnings (s, c);
  json_key_str (s, "dvd", c->dvd_dir);
  cap_archive_json (c, s);
  json_key_str (s, "gstreamer", gst_version_string ());
  g_string_append (s, "\n}\n");
  g_free (t0);
  g_free (t1);
  g_free (base);
  return g_string_free (s, FALSE);
}

static gboolean
write_at_start (int fd, const gchar * data, gsize len, const gchar * path,
    GError ** error)
{
  gsize done = 0;

  while (done < len) {
    ssize_t n = pwrite (fd, data + done, len - done, done);

    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
          _("cannot write the record %s: %s"), path, g_strerror (errno));
      return FALSE;
    }
    done += n;
  }
  return TRUE;
}

gboolean
cap_sidecar_reserve (Capture * c, GError ** error)
{
  gchar *path = cap_sidecar_path (c->output), *text = sidecar_text (c, FALSE);
  GString *padded = g_string_new (text);
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  gboolean ok = fd >= 0;

  if (!ok)
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        _("cannot create the record %s: %s"), path, g_strerror (errno));
  /* JSON allows trailing white space: the padding is the reserve */
  while (padded->len < SIDECAR_RESERVE - 1)
    g_string_append_c (padded, ' ');
  g_string_append_c (padded, '\n');
  if (ok)
    ok = write_at_start (fd, padded->str, padded->len, path, error);
  if (fd >= 0 && close (fd) < 0 && ok) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        _("cannot write the record %s: %s"), path, g_strerror (errno));
    ok = FALSE;
  }
  g_string_free (padded, TRUE);
  g_free (text);
  g_free (path);
  return ok;
}

gboolean
cap_sidecar_write (Capture * c, GError ** error)
{
  gchar *path = cap_sidecar_path (c->output), *text = sidecar_text (c, TRUE);
  gsize len = strlen (text);
  int fd = open (path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  gboolean ok = fd >= 0;

  if (!ok)
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        _("cannot open the record %s: %s"), path, g_strerror (errno));
  /* over the reserved space, then cut the padding off */
  if (ok)
    ok = write_at_start (fd, text, len, path, error);
  if (ok && ftruncate (fd, len) < 0) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        _("cannot write the record %s: %s"), path, g_strerror (errno));
    ok = FALSE;
  }
  if (fd >= 0)
    close (fd);
  g_free (text);
  g_free (path);
  return ok;
}

/* ---- the file as a player sees it ---- */

void
cap_discover (Capture * c)
{
  GstDiscoverer *d = gst_discoverer_new (10 * GST_SECOND, NULL);
  GstDiscovererInfo *info = NULL;
  gchar *abs = NULL, *uri = NULL;
  GList *v;

  c->media_duration = -1;
  if (d == NULL)
    return;
  abs = g_canonicalize_filename (c->output, NULL);
  uri = gst_filename_to_uri (abs, NULL);
  if (uri)
    info = gst_discoverer_discover_uri (d, uri, NULL);
  if (info && gst_discoverer_info_get_result (info) == GST_DISCOVERER_OK) {
    GstClockTime dur = gst_discoverer_info_get_duration (info);

    if (GST_CLOCK_TIME_IS_VALID (dur))
      c->media_duration = dur / 1e9;
    v = gst_discoverer_info_get_video_streams (info);
    if (v) {
      c->video_width = gst_discoverer_video_info_get_width (v->data);
      c->video_height = gst_discoverer_video_info_get_height (v->data);
    }
    gst_discoverer_stream_info_list_free (v);
  }
  if (info)
    gst_discoverer_info_unref (info);
  g_free (uri);
  g_free (abs);
  g_object_unref (d);
}

/* ---- the picture as recorded: a standard change shows in the stream ----
 * Every MPEG sequence header (00 00 01 B3, then 12 bits of width and 12
 * of height) says the picture's size; a new size seen twice running is a
 * change (one header split by a pack header could read wrong once).  The
 * streaming thread finds them; the main loop tells them. */

static gboolean
plausible (guint w, guint h)
{
  return w >= 176 && w <= 720 && (h == 240 || h == 288 || h == 480
      || h == 576);
}

static void
seen_size (Capture * c, guint w, guint h)
{
  CapPicture p;

  if (!plausible (w, h) || (w == c->pic_w && h == c->pic_h)) {
    c->pic_new_w = c->pic_new_h = 0;
    return;
  }
  if (c->pic_w == 0 || w != c->pic_new_w || h != c->pic_new_h) {
    if (c->pic_w == 0) {
      c->pic_w = w;
      c->pic_h = h;
    } else {
      c->pic_new_w = w;
      c->pic_new_h = h;
    }
    return;
  }
  p.at = cap_elapsed (c);
  p.from_w = c->pic_w;
  p.from_h = c->pic_h;
  p.to_w = c->pic_w = w;
  p.to_h = c->pic_h = h;
  c->pic_new_w = c->pic_new_h = 0;
  g_mutex_lock (&c->pic_lock);
  if (c->pictures->len < 100)
    g_array_append_val (c->pictures, p);
  g_mutex_unlock (&c->pic_lock);
}

static void
watch_bytes (Capture * c, const guint8 * d, gsize n)
{
  gsize i;

  for (i = 0; i < n; i++) {
    c->pic_win = c->pic_win << 8 | d[i];
    if (((c->pic_win >> 24) & 0xffffffff) == 0x1b3)
      seen_size (c, (c->pic_win >> 12) & 0xfff, c->pic_win & 0xfff);
  }
}

static gboolean
watch_buffer (GstBuffer ** buf, guint idx, gpointer data)
{
  GstMapInfo map;

  (void) idx;
  if (gst_buffer_map (*buf, &map, GST_MAP_READ)) {
    watch_bytes (data, map.data, map.size);
    gst_buffer_unmap (*buf, &map);
  }
  return TRUE;
}

static GstPadProbeReturn
watch_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  GstBuffer *buf;

  (void) pad;
  if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
    buf = GST_PAD_PROBE_INFO_BUFFER (info);
    watch_buffer (&buf, 0, data);
  } else if (info->type & GST_PAD_PROBE_TYPE_BUFFER_LIST)
    gst_buffer_list_foreach (GST_PAD_PROBE_INFO_BUFFER_LIST (info),
        watch_buffer, data);
  return GST_PAD_PROBE_OK;
}

/* on the bytes that reach filesink (MPEG streams; raw video has no
 * sequence headers and its caps say its size) */
void
cap_picture_watch (Capture * c)
{
  GstPad *pad = gst_element_get_static_pad (c->sink, "sink");

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_BUFFER_LIST, watch_probe, c, NULL);
  gst_object_unref (pad);
}

static const gchar *
family (guint h)
{
  return h == 480 || h == 240 ? N_("525 lines, NTSC") :
      N_("625 lines, PAL/SECAM");
}

/* the changes not told yet: a warning each (main loop) */
void
cap_picture_tell (Capture * c)
{
  gchar tb[CAP_TIME_LEN], *line, *shown;

  g_mutex_lock (&c->pic_lock);
  for (; c->pic_told < c->pictures->len; c->pic_told++) {
    CapPicture *p = &g_array_index (c->pictures, CapPicture, c->pic_told);

    /* English for the record, the user's language for the line */
    cap_format_time (p->at, tb);
    line = g_strdup_printf ("%s: the picture changed from %ux%u (%s) to "
        "%ux%u (%s): the TV standard changed during the recording", tb,
        p->from_w, p->from_h, family (p->from_h), p->to_w, p->to_h,
        family (p->to_h));
    shown = g_strdup_printf (_("%s: the picture changed from %ux%u (%s) to "
            "%ux%u (%s): the TV standard changed during the recording"), tb,
        p->from_w, p->from_h, _(family (p->from_h)), p->to_w, p->to_h,
        _(family (p->to_h)));
    cap_status_event (c, _("Warning at %s"), shown);
    g_free (shown);
    if (c->warnings->len < 100)
      g_ptr_array_add (c->warnings, line);
    else
      g_free (line);
  }
  g_mutex_unlock (&c->pic_lock);
}

/* TRUE when the recorded picture changed size; *why: the first change */
gboolean
cap_picture_changed (Capture * c, gchar ** why)
{
  gchar tb[CAP_TIME_LEN];
  gboolean changed;

  g_mutex_lock (&c->pic_lock);
  changed = c->pictures->len > 0;
  if (changed && why) {
    CapPicture *p = &g_array_index (c->pictures, CapPicture, 0);

    *why = g_strdup_printf ("the picture changes at %s from %ux%u (%s) to "
        "%ux%u (%s)", cap_format_time (p->at, tb), p->from_w, p->from_h,
        family (p->from_h), p->to_w, p->to_h, family (p->to_h));
  }
  g_mutex_unlock (&c->pic_lock);
  return changed;
}

static void
json_pictures (GString * s, Capture * c)
{
  guint i;

  json_key (s, "picture_changes");
  g_string_append_c (s, '[');
  g_mutex_lock (&c->pic_lock);
  for (i = 0; c->pictures && i < c->pictures->len; i++) {
    CapPicture *p = &g_array_index (c->pictures, CapPicture, i);

    g_string_append_printf (s, "%s{\"at\": %.1f, \"from\": \"%ux%u\", "
        "\"to\": \"%ux%u\"}", i ? ", " : "", p->at, p->from_w, p->from_h,
        p->to_w, p->to_h);
  }
  g_mutex_unlock (&c->pic_lock);
  g_string_append_c (s, ']');
}

/* ---- the DVD folder ---- */

gboolean
cap_dvd_available (void)
{
  gchar *p = g_find_program_in_path ("dvdauthor");
  gboolean ok = p != NULL;

  g_free (p);
  return ok;
}

gchar *
cap_dvd_dir (const gchar * output)
{
  const gchar *dot = strrchr (output, '.');
  const gchar *slash = strrchr (output, '/');

  if (dot && (!slash || dot > slash + 1))
    return g_strdup_printf ("%.*s.dvd", (int) (dot - output), output);
  return g_strconcat (output, ".dvd", NULL);
}

/* the last line dvdauthor wrote that says what went wrong */
static gchar *
last_error_line (const gchar * out)
{
  gchar **lines = g_strsplit (out ? out : "", "\n", -1);
  gchar *found = NULL;
  gint i;

  for (i = g_strv_length (lines) - 1; i >= 0 && !found; i--)
    if (strstr (lines[i], "ERR") != NULL)
      found = g_strdup (g_strstrip (lines[i]));
  for (i = g_strv_length (lines) - 1; i >= 0 && !found; i--)
    if (*g_strstrip (lines[i]))
      found = g_strdup (lines[i]);
  g_strfreev (lines);
  return found ? found : g_strdup ("(no output)");
}

/* one dvdauthor run: FALSE with *why (its last error line) if it failed,
 * FALSE with @error if it did not run */
static gboolean
run_dvdauthor (gchar ** argv, gchar ** envp, gchar ** why, GError ** error)
{
  gchar *out = NULL;
  gint status = 0;
  gboolean ok;

  ok = g_spawn_sync (NULL, argv, envp, G_SPAWN_SEARCH_PATH |
      G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &out, &status, error);
  if (ok && !g_spawn_check_wait_status (status, NULL)) {
    *why = last_error_line (out);
    ok = FALSE;
  }
  g_free (out);
  return ok;
}

/* the DVD folder from the file; a failure is the capture's end reason
 * (exit 6): one sentence, the record's in English (dvdauthor's own line
 * as it wrote it) */
gboolean
cap_dvd_author (Capture * c)
{
  gchar *dir = cap_dvd_dir (c->output);
  gchar **envp = g_get_environ ();
  gchar *title[] = { "dvdauthor", "-o", dir, "-t", c->output, NULL };
  gchar *toc[] = { "dvdauthor", "-o", dir, "-T", NULL };
  const gchar *failed = NULL;   /* the step: -t (the title), -T (the TOC) */
  gchar *why = NULL;
  GError *err = NULL;

  /* the standard's family decides the DVD's video format */
  envp = g_environ_setenv (envp, "VIDEO_FORMAT",
      c->video_height > 480 ? "PAL" : "NTSC", TRUE);
  if (!run_dvdauthor (title, envp, &why, &err))
    failed = "-t";
  else if (!run_dvdauthor (toc, envp, &why, &err))
    failed = "-T";
  if (failed == NULL) {
    g_free (c->dvd_dir);
    c->dvd_dir = g_strdup (dir);
  } else if (why)
    cap_fail (c, CAP_EXIT_DVD, N_("dvdauthor %s failed: %s (%s is "
            "complete)"), failed, why, c->output);
  else
    cap_fail (c, CAP_EXIT_DVD, N_("dvdauthor does not run: %s (%s is "
            "complete)"), err ? err->message : "?", c->output);
  g_clear_error (&err);
  g_free (why);
  g_strfreev (envp);
  g_free (dir);
  return failed == NULL;
}
