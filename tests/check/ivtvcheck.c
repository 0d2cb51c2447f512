/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers of the element tests (see ivtvcheck.h). */
#include "ivtvcheck.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <glib/gstdio.h>

void
ic_run (const gchar * launch, gint timeout_ms, IcResult * res)
{
  GError *err = NULL;
  GstElement *pipe;
  GstBus *bus;
  gint64 deadline;

  memset (res, 0, sizeof (*res));
  pipe = gst_parse_launch (launch, &err);
  fail_unless (pipe != NULL, "cannot parse '%s': %s", launch,
      err ? err->message : "?");
  g_clear_error (&err);

  bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  deadline = g_get_monotonic_time () + timeout_ms * G_GINT64_CONSTANT (1000);
  while (!res->eos && !res->error) {
    gint64 left = deadline - g_get_monotonic_time ();
    GstMessage *msg;

    if (left <= 0)
      break;
    msg = gst_bus_timed_pop_filtered (bus, left * GST_USECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);
    if (msg == NULL)
      break;
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS) {
      res->eos = TRUE;
    } else {
      GError *e = NULL;
      gchar *dbg = NULL;

      if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
        gst_message_parse_error (msg, &e, &dbg);
        res->error = g_strdup (e->message);
        res->error_debug = dbg;
        if (e->domain == GST_RESOURCE_ERROR)
          res->error_code = e->code;
        GST_INFO ("error: %s (%s)", e->message, dbg);
      } else {
        gst_message_parse_warning (msg, &e, &dbg);
        res->warnings = g_list_append (res->warnings, g_strdup (e->message));
        GST_INFO ("warning: %s (%s)", e->message, dbg);
        g_free (dbg);
      }
      g_clear_error (&e);
    }
    gst_message_unref (msg);
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipe);
}

void
ic_result_clear (IcResult * res)
{
  g_free (res->error);
  g_free (res->error_debug);
  g_list_free_full (res->warnings, g_free);
  memset (res, 0, sizeof (*res));
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
