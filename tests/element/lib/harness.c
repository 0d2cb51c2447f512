/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The one pipeline harness of the element tests (see harness.h). */
#include "harness.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gst/allocators/allocators.h>
#include <gst/video/video.h>

/* The one reader of bus messages: the text (and debug text) of an error
 * or warning. */
static void
parse_text (GstMessage * msg, gchar ** text, gchar ** debug, GError ** error)
{
  GError *err = NULL;
  gchar *dbg = NULL;

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
    gst_message_parse_error (msg, &err, &dbg);
  else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING)
    gst_message_parse_warning (msg, &err, &dbg);
  *text = g_strdup (err ? err->message : "");
  if (debug)
    *debug = dbg;
  else
    g_free (dbg);
  if (error)
    *error = err;
  else
    g_clear_error (&err);
}

gchar *
ic_message_text (GstMessage * msg)
{
  gchar *text, *dbg, *out;

  if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ERROR
      && GST_MESSAGE_TYPE (msg) != GST_MESSAGE_WARNING)
    return g_strdup ("");
  parse_text (msg, &text, &dbg, NULL);
  out = g_strdup_printf ("%s (%s)", text, dbg ? dbg : "");
  g_free (text);
  g_free (dbg);
  return out;
}

/* Note one message in @res; @now: us since PLAYING. */
static void
collect (IcResult * res, GstMessage * msg, gint64 now)
{
  const GstStructure *s;
  GError *err = NULL;
  gchar *text;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_EOS:
      res->eos = TRUE;
      res->eos_us = now;
      break;
    case GST_MESSAGE_ERROR:
      parse_text (msg, &res->error, &res->error_debug, &err);
      if (err && err->domain == GST_RESOURCE_ERROR)
        res->error_code = err->code;
      res->error_us = now;
      res->n_errors++;
      GST_INFO ("error: %s (%s)", res->error, res->error_debug);
      g_clear_error (&err);
      break;
    case GST_MESSAGE_WARNING:
      parse_text (msg, &text, NULL, NULL);
      GST_INFO ("warning at %" G_GINT64_FORMAT " ms: %s", now / 1000, text);
      if (!res->warnings)
        res->first_warning_us = now;
      res->warnings = g_list_append (res->warnings, text);
      break;
    case GST_MESSAGE_ELEMENT:
      s = gst_message_get_structure (msg);
      if (s && gst_structure_has_name (s, "ivtvsrc-signal"))
        res->signals = g_list_append (res->signals, gst_structure_copy (s));
      if (s && gst_structure_has_name (s, "ivtvsrc-reconnect"))
        res->reconnects = g_list_append (res->reconnects,
            gst_structure_copy (s));
      break;
    default:
      break;
  }
}

void
ic_run_pipe (GstElement * pipe, gint timeout_ms, gint eos_after_ms,
    IcResult * res)
{
  GstBus *bus = gst_element_get_bus (pipe);
  gint64 t0, deadline;
  gboolean eos_sent = FALSE;

  memset (res, 0, sizeof (*res));
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  t0 = g_get_monotonic_time ();
  deadline = t0 + timeout_ms * G_GINT64_CONSTANT (1000);
  while (!res->eos && !res->error) {
    gint64 now = g_get_monotonic_time (), until = deadline;
    GstMessage *msg;

    if (now >= deadline)
      break;
    if (eos_after_ms >= 0 && !eos_sent) {
      gint64 at = t0 + eos_after_ms * G_GINT64_CONSTANT (1000);
      if (now >= at) {
        gst_element_send_event (pipe, gst_event_new_eos ());
        eos_sent = TRUE;
        continue;
      }
      until = MIN (until, at);
    }
    msg = gst_bus_timed_pop_filtered (bus, (until - now) * GST_USECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING |
        GST_MESSAGE_ELEMENT);
    if (msg == NULL)
      continue;
    collect (res, msg, g_get_monotonic_time () - t0);
    gst_message_unref (msg);
  }
  /* errors posted after the first (a duplicate) are still on the bus */
  if (res->error) {
    GstMessage *msg;
    g_usleep (100000);
    while ((msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR))) {
      res->n_errors++;
      gst_message_unref (msg);
    }
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
}

void
ic_run_launch (const gchar * launch, gint timeout_ms, gint eos_after_ms,
    IcResult * res)
{
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch (launch, &err);

  fail_unless (pipe != NULL, "cannot parse '%s': %s", launch,
      err ? err->message : "?");
  g_clear_error (&err);
  ic_run_pipe (pipe, timeout_ms, eos_after_ms, res);
  gst_object_unref (pipe);
}

void
ic_run (const gchar * launch, gint timeout_ms, IcResult * res)
{
  ic_run_launch (launch, timeout_ms, -1, res);
}

void
ic_result_clear (IcResult * res)
{
  g_free (res->error);
  g_free (res->error_debug);
  g_list_free_full (res->warnings, g_free);
  g_list_free_full (res->signals, (GDestroyNotify) gst_structure_free);
  g_list_free_full (res->reconnects, (GDestroyNotify) gst_structure_free);
  memset (res, 0, sizeof (*res));
}

gboolean
ic_has_warning (const IcResult * res, const gchar * text)
{
  GList *l;

  for (l = res->warnings; l; l = l->next)
    if (strstr (l->data, text))
      return TRUE;
  return FALSE;
}

gchar *
ic_expect_error (const gchar * launch)
{
  IcResult res;
  gchar *msg;

  ic_run (launch, 20000, &res);
  fail_unless (res.error != NULL, "'%s' gave no error (eos %d)", launch,
      res.eos);
  msg = res.error;
  res.error = NULL;
  ic_result_clear (&res);
  return msg;
}

gint
ic_open (void)
{
  gint fd = open (IC_DEVICE, O_RDWR | O_NONBLOCK);

  fail_unless (fd >= 0, "open %s: %s", IC_DEVICE, g_strerror (errno));
  return fd;
}

gint
ic_get_input (void)
{
  gint fd = ic_open (), index = -1;

  fail_unless (ioctl (fd, VIDIOC_G_INPUT, &index) == 0, "G_INPUT: %s",
      g_strerror (errno));
  close (fd);
  return index;
}

v4l2_std_id
ic_get_std (void)
{
  gint fd = ic_open ();
  v4l2_std_id std = 0;

  fail_unless (ioctl (fd, VIDIOC_G_STD, &std) == 0, "G_STD: %s",
      g_strerror (errno));
  close (fd);
  return std;
}

gboolean
ic_set_stream_type (gint type)
{
  gint fd = ic_open (), ret;
  struct v4l2_ext_control c;
  struct v4l2_ext_controls cs;

  memset (&c, 0, sizeof (c));
  memset (&cs, 0, sizeof (cs));
  c.id = V4L2_CID_MPEG_STREAM_TYPE;
  c.value = type;
  cs.ctrl_class = V4L2_CTRL_CLASS_MPEG;
  cs.count = 1;
  cs.controls = &c;
  ret = ioctl (fd, VIDIOC_S_EXT_CTRLS, &cs);
  close (fd);
  return ret == 0;
}

guint
ic_count_fds (void)
{
  DIR *d = opendir ("/proc/self/fd");
  struct dirent *e;
  guint n = 0;

  fail_unless (d != NULL);
  while ((e = readdir (d)))
    if (e->d_name[0] != '.')
      n++;
  closedir (d);
  return n - 1;                 /* the DIR's own fd */
}

GBytes *
ic_read_file (const gchar * path)
{
  gchar *data = NULL;
  gsize len = 0;
  GError *err = NULL;

  fail_unless (g_file_get_contents (path, &data, &len, &err), "%s: %s",
      path, err ? err->message : "?");
  return g_bytes_new_take (data, len);
}

static gchar *tmp_dir;

gchar *
ic_tmp_path (const gchar * name)
{
  if (tmp_dir == NULL) {
    GError *err = NULL;
    tmp_dir = g_dir_make_tmp ("ivtvcheck-XXXXXX", &err);
    fail_unless (tmp_dir != NULL, "tmp dir: %s", err ? err->message : "?");
  }
  return g_build_filename (tmp_dir, name, NULL);
}

void
ic_cleanup (void)
{
  GDir *d;
  const gchar *n;

  if (tmp_dir == NULL)
    return;
  d = g_dir_open (tmp_dir, 0, NULL);
  while (d && (n = g_dir_read_name (d))) {
    gchar *p = g_build_filename (tmp_dir, n, NULL);
    g_unlink (p);
    g_free (p);
  }
  if (d)
    g_dir_close (d);
  g_rmdir (tmp_dir);
  g_free (tmp_dir);
  tmp_dir = NULL;
}

static GstTracer *
leaks_tracer (void)
{
  GList *tracers = gst_tracing_get_active_tracers (), *l;
  GstTracer *found = NULL;

  for (l = tracers; l; l = l->next)
    if (found == NULL
        && g_strcmp0 (G_OBJECT_TYPE_NAME (l->data), "GstLeaksTracer") == 0)
      found = gst_object_ref (l->data);
  g_list_free_full (tracers, gst_object_unref);
  return found;
}

gboolean
ic_live_start (void)
{
  GstTracer *t = leaks_tracer ();

  if (t == NULL)
    return FALSE;
  g_signal_emit_by_name (t, "activity-start-tracking");
  gst_object_unref (t);
  return TRUE;
}

static gint
list_size (const GstStructure * s, const gchar * field)
{
  const GValue *v = gst_structure_get_value (s, field);

  return v && GST_VALUE_HOLDS_LIST (v) ? (gint) gst_value_list_get_size (v) : 0;
}

gint
ic_live_growth (void)
{
  GstTracer *t = leaks_tracer ();
  GstStructure *cp = NULL;
  gint n;

  if (t == NULL)
    return G_MININT;
  /* let go of finished streaming threads' objects first */
  gst_task_cleanup_all ();
  g_signal_emit_by_name (t, "activity-get-checkpoint", &cp);
  g_signal_emit_by_name (t, "activity-stop-tracking");
  gst_object_unref (t);
  if (cp == NULL)
    return G_MININT;
  n = list_size (cp, "objects-created-list") -
      list_size (cp, "objects-removed-list");
  gst_structure_free (cp);
  return n;
}

/* ---- a pipeline watched buffer by buffer ---- */

static void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, gpointer data)
{
  IcPipe *run = data;
  IcRecord *r = NULL;
  GstMemory *mem;
  GstMapInfo map;
  GstCaps *caps;

  (void) sink;
  caps = gst_pad_get_current_caps (pad);

  g_mutex_lock (&run->lock);
  if (run->n_buffers == 0)
    run->io_mode = ic_get_nick (G_OBJECT (run->src), "current-io-mode");
  if (caps)
    gst_caps_replace (&run->caps, caps);
  if (run->n_buffers < IC_MAX_RECORDS)
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
      ic_find_mapping (map.data, &r->shared, NULL, NULL);
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
static GList *live_pipes;

void
ic_pipe_teardown (void)
{
  while (live_pipes)
    ic_pipe_free (live_pipes->data);
}

IcPipe *
ic_pipe_new (const gchar * launch)
{
  GError *err = NULL;
  IcPipe *run = g_new0 (IcPipe, 1);

  live_pipes = g_list_prepend (live_pipes, run);
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
ic_pipe_release_held (IcPipe * run)
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
ic_pipe_free (IcPipe * run)
{
  live_pipes = g_list_remove (live_pipes, run);
  if (run->pipeline == NULL) {
    g_free (run);
    return;
  }
  gst_element_set_state (run->pipeline, GST_STATE_NULL);
  ic_pipe_release_held (run);
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
ic_pipe_play (IcPipe * run)
{
  fail_if (gst_element_set_state (run->pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE, "could not set the pipeline to PLAYING");
}

GstMessage *
ic_pipe_wait (IcPipe * run, GstMessageType types, gint timeout_ms)
{
  GstBus *bus = gst_element_get_bus (run->pipeline);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus,
      (GstClockTime) timeout_ms * GST_MSECOND, types);

  gst_object_unref (bus);
  return msg;
}

void
ic_pipe_to_eos (IcPipe * run, gint timeout_ms)
{
  GstMessage *msg;

  ic_pipe_play (run);
  msg = ic_pipe_wait (run, GST_MESSAGE_EOS | GST_MESSAGE_ERROR, timeout_ms);
  fail_unless (msg != NULL, "no EOS within %d ms (%u buffers)", timeout_ms,
      run->n_buffers);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gchar *text = ic_message_text (msg);
    gst_message_unref (msg);
    fail ("error instead of EOS: %s", text);
    g_free (text);
    return;
  }
  gst_message_unref (msg);
}

gboolean
ic_pipe_wait_buffers (IcPipe * run, guint n, gint timeout_ms)
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
ic_pipe_stop (IcPipe * run, gint max_ms)
{
  gint64 t0 = g_get_monotonic_time (), ms;

  gst_element_set_state (run->pipeline, GST_STATE_NULL);
  ms = (g_get_monotonic_time () - t0) / 1000;
  fail_unless (ms <= max_ms, "stopping took %" G_GINT64_FORMAT " ms", ms);
  return ms;
}

gchar *
ic_get_nick (GObject * obj, const gchar * name)
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
ic_find_mapping (gconstpointer p, gboolean * shared, guintptr * start,
    guint64 * inode)
{
  if (shared)
    *shared = FALSE;
  return scan_maps (p, 0, 0, shared, start, inode);
}

gboolean
ic_mapping_exists (guintptr start, guint64 inode)
{
  return scan_maps (NULL, start, inode, NULL, NULL, NULL);
}

gsize
ic_frame_size (GstCaps * caps)
{
  GstVideoInfo info;

  fail_unless (caps != NULL);
  fail_unless (gst_video_info_from_caps (&info, caps), "%" GST_PTR_FORMAT,
      caps);
  return GST_VIDEO_INFO_SIZE (&info);
}

/* Runs until the error a fault causes; the frames before it arrive. */
gchar *
ic_pipe_error_after (guint min_frames)
{
  IcPipe *run = ic_pipe_new ("ivtvsrc name=src ! video/x-raw ! "
      "fakesink name=sink");
  GstMessage *msg;
  gchar *text;

  ic_pipe_play (run);
  msg = ic_pipe_wait (run, GST_MESSAGE_EOS | GST_MESSAGE_ERROR, 10000);
  fail_unless (msg != NULL, "no error from the fault");
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_ERROR);
  fail_unless (GST_MESSAGE_SRC (msg) == GST_OBJECT (run->src));
  text = ic_message_text (msg);
  gst_message_unref (msg);
  fail_unless (run->n_buffers >= min_frames, "only %u frames before: %s",
      run->n_buffers, text);
  ic_pipe_stop (run, 1000);
  ic_pipe_free (run);
  return text;
}
