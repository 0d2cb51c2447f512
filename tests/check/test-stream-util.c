/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers of the streaming-path tests (see test-stream-util.h). */
#include "test-stream-util.h"

#include <stdio.h>
#include <gst/allocators/allocators.h>
#include <string.h>

static void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, gpointer data)
{
  TsRun *run = data;
  TsRecord *r = NULL;
  GstMemory *mem;
  GstMapInfo map;
  GstCaps *caps;

  (void) sink;
  caps = gst_pad_get_current_caps (pad);

  g_mutex_lock (&run->lock);
  if (run->n_buffers == 0)
    run->io_mode = ts_get_nick (G_OBJECT (run->src), "current-io-mode");
  if (caps)
    gst_caps_replace (&run->caps, caps);
  if (run->n_buffers < TS_MAX_RECORDS)
    r = &run->rec[run->n_buffers];
  if (r && gst_buffer_n_memory (buf) > 0) {
    mem = gst_buffer_peek_memory (buf, 0);
    r->dmabuf = gst_is_dmabuf_memory (mem);
    r->size = gst_buffer_get_size (buf);
    r->pts = GST_BUFFER_PTS (buf);
    r->duration = GST_BUFFER_DURATION (buf);
    r->offset = GST_BUFFER_OFFSET (buf);
    r->flags = GST_BUFFER_FLAGS (buf);
    if (gst_buffer_map (buf, &map, GST_MAP_READ)) {
      gsize i;
      r->data = map.data;
      ts_find_mapping (map.data, &r->shared, NULL, NULL);
      if (map.size >= 4)
        memcpy (r->head, map.data, 4);
      if (map.size >= 2)
        memcpy (r->tail, map.data + map.size - 2, 2);
      for (i = 0; i < map.size; i += 97)
        r->sum = r->sum * 31 + map.data[i];
      gst_buffer_unmap (buf, &map);
    }
  }
  if (run->held->len < run->hold_max)
    g_ptr_array_add (run->held, gst_buffer_ref (buf));
  run->n_buffers++;
  g_cond_broadcast (&run->cond);
  g_mutex_unlock (&run->lock);
  if (caps)
    gst_caps_unref (caps);
}

/* runs not freed yet (a failing test leaves its run behind) */
static GList *live_runs;

void
ts_teardown (void)
{
  while (live_runs)
    ts_run_free (live_runs->data);
}

TsRun *
ts_run_new (const gchar * launch)
{
  GError *err = NULL;
  TsRun *run = g_new0 (TsRun, 1);

  live_runs = g_list_prepend (live_runs, run);
  g_mutex_init (&run->lock);
  g_cond_init (&run->cond);
  run->held = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  run->pipeline = gst_parse_launch (launch, &err);
  fail_unless (run->pipeline != NULL && err == NULL, "%s: %s", launch,
      err ? err->message : "?");
  run->src = gst_bin_get_by_name (GST_BIN (run->pipeline), "src");
  run->sink = gst_bin_get_by_name (GST_BIN (run->pipeline), "sink");
  fail_unless (run->src != NULL && run->sink != NULL, "%s: no src/sink",
      launch);
  g_object_set (run->sink, "signal-handoffs", TRUE, "sync", FALSE, NULL);
  g_signal_connect (run->sink, "handoff", G_CALLBACK (on_handoff), run);
  return run;
}

void
ts_run_release_held (TsRun * run)
{
  GPtrArray *held;

  g_mutex_lock (&run->lock);
  held = run->held;
  run->held = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_buffer_unref);
  run->hold_max = 0;
  g_mutex_unlock (&run->lock);
  g_ptr_array_unref (held);
}

void
ts_run_free (TsRun * run)
{
  live_runs = g_list_remove (live_runs, run);
  if (run->pipeline == NULL) {
    g_free (run);
    return;
  }
  gst_element_set_state (run->pipeline, GST_STATE_NULL);
  ts_run_release_held (run);
  g_ptr_array_unref (run->held);
  gst_object_unref (run->src);
  gst_object_unref (run->sink);
  gst_object_unref (run->pipeline);
  if (run->caps)
    gst_caps_unref (run->caps);
  g_free (run->io_mode);
  g_mutex_clear (&run->lock);
  g_cond_clear (&run->cond);
  g_free (run);
}

void
ts_run_play (TsRun * run)
{
  fail_if (gst_element_set_state (run->pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE, "could not set the pipeline to PLAYING");
}

GstMessage *
ts_run_wait (TsRun * run, GstMessageType types, gint timeout_ms)
{
  GstBus *bus = gst_element_get_bus (run->pipeline);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus,
      (GstClockTime) timeout_ms * GST_MSECOND, types);

  gst_object_unref (bus);
  return msg;
}

gchar *
ts_message_text (GstMessage * msg)
{
  GError *err = NULL;
  gchar *dbg = NULL, *text;

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
    gst_message_parse_error (msg, &err, &dbg);
  else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING)
    gst_message_parse_warning (msg, &err, &dbg);
  else
    return g_strdup ("");
  text = g_strdup_printf ("%s (%s)", err ? err->message : "",
      dbg ? dbg : "");
  g_clear_error (&err);
  g_free (dbg);
  return text;
}

void
ts_run_to_eos (TsRun * run, gint timeout_ms)
{
  GstMessage *msg;

  ts_run_play (run);
  msg = ts_run_wait (run, GST_MESSAGE_EOS | GST_MESSAGE_ERROR, timeout_ms);
  fail_unless (msg != NULL, "no EOS within %d ms (%u buffers)", timeout_ms,
      run->n_buffers);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gchar *text = ts_message_text (msg);
    gst_message_unref (msg);
    fail ("error instead of EOS: %s", text);
    g_free (text);
    return;
  }
  gst_message_unref (msg);
}

gboolean
ts_run_wait_buffers (TsRun * run, guint n, gint timeout_ms)
{
  gint64 end = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  gboolean ok = TRUE;

  g_mutex_lock (&run->lock);
  while (run->n_buffers < n && ok)
    ok = g_cond_wait_until (&run->cond, &run->lock, end);
  ok = run->n_buffers >= n;
  g_mutex_unlock (&run->lock);
  return ok;
}

gint64
ts_run_stop (TsRun * run, gint max_ms)
{
  gint64 t0 = g_get_monotonic_time (), ms;

  gst_element_set_state (run->pipeline, GST_STATE_NULL);
  ms = (g_get_monotonic_time () - t0) / 1000;
  fail_unless (ms <= max_ms, "stopping took %" G_GINT64_FORMAT " ms", ms);
  return ms;
}

gchar *
ts_get_nick (GObject * obj, const gchar * name)
{
  GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (obj),
      name);
  GValue v = G_VALUE_INIT;
  gchar *out = NULL;

  if (ps == NULL)
    return g_strdup ("(no such property)");
  g_value_init (&v, ps->value_type);
  g_object_get_property (obj, name, &v);
  if (G_VALUE_HOLDS_ENUM (&v)) {
    GEnumClass *ec = g_type_class_ref (ps->value_type);
    GEnumValue *ev = g_enum_get_value (ec, g_value_get_enum (&v));
    out = g_strdup (ev ? ev->value_nick : "?");
    g_type_class_unref (ec);
  } else if (G_VALUE_HOLDS_STRING (&v)) {
    out = g_value_dup_string (&v);
  } else {
    out = g_strdup_value_contents (&v);
  }
  g_value_unset (&v);
  return out;
}

static gboolean
scan_maps (gconstpointer p, guintptr want_start, guint64 want_inode,
    gboolean * shared, guintptr * start, guint64 * inode)
{
  FILE *f = fopen ("/proc/self/maps", "r");
  char line[512];
  gboolean found = FALSE;

  if (f == NULL)
    return FALSE;
  while (fgets (line, sizeof (line), f)) {
    unsigned long lo, hi, off, ino;
    char perms[8], dev[16];

    if (sscanf (line, "%lx-%lx %7s %lx %15s %lu", &lo, &hi, perms, &off,
            dev, &ino) != 6)
      continue;
    if (p != NULL && (guintptr) p >= lo && (guintptr) p < hi) {
      if (shared)
        *shared = perms[3] == 's';
      if (start)
        *start = lo;
      if (inode)
        *inode = ino;
      found = TRUE;
      break;
    }
    if (p == NULL && lo == want_start && ino == want_inode) {
      found = TRUE;
      break;
    }
  }
  fclose (f);
  return found;
}

gboolean
ts_find_mapping (gconstpointer p, gboolean * shared, guintptr * start,
    guint64 * inode)
{
  if (shared)
    *shared = FALSE;
  return scan_maps (p, 0, 0, shared, start, inode);
}

gboolean
ts_mapping_exists (guintptr start, guint64 inode)
{
  return scan_maps (NULL, start, inode, NULL, NULL, NULL);
}
