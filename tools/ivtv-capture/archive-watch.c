/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtv-capture — the archival path's watch on the input: about once a
 * second the standard the decoder detects (VIDIOC_QUERYSTD on a second,
 * read-only descriptor of the video node: queries need no priority), and
 * the element's own signal messages (ivtvsrc-signal, posted by its watch
 * thread once a second); a lost lock or a changed standard is a warning
 * line and an event in the record.  The standard is never switched: the
 * recording goes on in the one it started with. */
#include "archive.h"

#include <glib/gi18n-lib.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <sys/ioctl.h>
#include <unistd.h>

static const gchar *
std_name (v4l2_std_id id, gchar * buf, gsize len)
{
  if (id & V4L2_STD_PAL_M)
    return "PAL-M";
  if (id & (V4L2_STD_PAL_N | V4L2_STD_PAL_Nc))
    return "PAL-N";
  if (id & V4L2_STD_NTSC)
    return "NTSC";
  if (id & V4L2_STD_PAL)
    return "PAL";
  if (id & V4L2_STD_SECAM)
    return "SECAM";
  g_snprintf (buf, len, "0x%" G_GINT64_MODIFIER "x", (guint64) id);
  return buf;
}

void
cap_archive_add_watch_event (Capture * c, const gchar * what)
{
  CapArchive *a = c->archive;
  CapWatchEvent e = { cap_elapsed (c), g_strdup (what) };

  g_array_append_val (a->watch_events, e);
}

static gboolean
watch_tick (gpointer data)
{
  Capture *c = data;
  CapArchive *a = c->archive;
  v4l2_std_id id = 0;
  gchar b1[32], b2[32], b3[32], *line, *shown;
  const gchar *s1, *s2, *s3;

  if (a == NULL || a->watch_fd < 0)
    return G_SOURCE_REMOVE;
  if (ioctl (a->watch_fd, VIDIOC_QUERYSTD, &id) != 0) {
    if (errno == ENOTTY || errno == EINVAL || errno == ENODATA) {
      close (a->watch_fd);      /* no standards here (a webcam-like input) */
      a->watch_fd = -1;
      a->watch_id = 0;
      return G_SOURCE_REMOVE;
    }
    return G_SOURCE_CONTINUE;
  }
  if (id == 0 || id == V4L2_STD_UNKNOWN || id == a->std_last)
    return G_SOURCE_CONTINUE;   /* no lock: the element's signal says so */
  if (a->std_seen == 0) {
    a->std_seen = a->std_last = id;
    return G_SOURCE_CONTINUE;
  }
  /* English for the record, the user's language for the line */
  if (id == a->std_seen) {
    s1 = std_name (id, b1, sizeof (b1));
    line = g_strdup_printf ("the input's standard is %s again", s1);
    shown = g_strdup_printf (_("the input's standard is %s again"), s1);
  } else {
    s1 = std_name (a->std_last, b1, sizeof (b1));
    s2 = std_name (id, b2, sizeof (b2));
    s3 = std_name (a->std_seen, b3, sizeof (b3));
    line = g_strdup_printf ("the input's standard changed from %s to %s; "
        "the recording stays in %s (it is never switched by itself)", s1,
        s2, s3);
    shown = g_strdup_printf (_("the input's standard changed from %s to %s; "
            "the recording stays in %s (it is never switched by itself)"),
        s1, s2, s3);
  }
  a->std_last = id;             /* told once per change */
  cap_status_event (c, _("Warning: %s"), shown);
  g_free (shown);
  cap_archive_add_watch_event (c, line);
  g_free (line);
  return G_SOURCE_CONTINUE;
}

void
cap_archive_watch_start (Capture * c)
{
  CapArchive *a = c->archive;

  a->watch_fd = open (c->device, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (a->watch_fd >= 0)
    a->watch_id = g_timeout_add_seconds (1, watch_tick, c);
}

void
cap_archive_watch_stop (CapArchive * a)
{
  guint i;

  if (a->watch_id)
    g_source_remove (a->watch_id);
  a->watch_id = 0;
  if (a->watch_fd >= 0)
    close (a->watch_fd);
  a->watch_fd = -1;
  for (i = 0; i < a->watch_events->len; i++)
    g_free (g_array_index (a->watch_events, CapWatchEvent, i).what);
  g_array_set_size (a->watch_events, 0);
}

void
cap_archive_watch_json (CapArchive * a, GString * s)
{
  guint i;

  g_string_append (s, ",\n    \"signal_events\": [");
  for (i = 0; i < a->watch_events->len; i++) {
    CapWatchEvent *e = &g_array_index (a->watch_events, CapWatchEvent, i);
    gchar *q = g_strescape (e->what, NULL);

    g_string_append_printf (s, "%s\n      {\"time\": %.1f, \"event\": \"%s\"}",
        i ? "," : "", e->time, q);
    g_free (q);
  }
  g_string_append (s, "]");
}
