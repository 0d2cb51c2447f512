/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* tests/capture: ivtv-capture's reading of the element's messages, without
 * a card: an `ivtvsrc-stats` message in the format
 * agreed for issue 13 (fields bytes, buffers, duration, bitrate, signal,
 * queue-bytes, queue-time, queue-fill, bytes-lost, frames-lost, final)
 * and `ivtvsrc-signal` messages go through the program's own bus handler;
 * the status line must then show the queue fill and the loss, the signal
 * states, and the record must carry the loss and the signal gap.  Before
 * any stats message the status shows "-" (no guessing).
 *
 *   test-stats OUTPUT-DIR   (prints the lines it checked; exit 0 = pass) */
#include "capture.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static gint failures;

static void
check (gboolean ok, const gchar * what)
{
  g_print ("%s: %s\n", ok ? "ok" : "FAIL", what);
  if (!ok)
    failures++;
}

static void
post (Capture * c, GstStructure * s)
{
  GstMessage *m = gst_message_new_element (GST_OBJECT (c->src), s);

  cap_bus_message (NULL, m, c);
  gst_message_unref (m);
}

static GstStructure *
stats (gdouble fill, guint64 lost, guint64 frames, gboolean final)
{
  return gst_structure_new ("ivtvsrc-stats",
      "bytes", G_TYPE_UINT64, (guint64) 3000000,
      "buffers", G_TYPE_UINT64, (guint64) 46,
      "duration", G_TYPE_UINT64, (guint64) 4 * GST_SECOND,
      "bitrate", G_TYPE_UINT64, (guint64) 6000000,
      "signal", G_TYPE_STRING, "present",
      "queue-bytes", G_TYPE_UINT64, (guint64) 1000000,
      "queue-time", G_TYPE_UINT64, (guint64) GST_SECOND,
      "queue-fill", G_TYPE_DOUBLE, fill,
      "bytes-lost", G_TYPE_UINT64, lost,
      "frames-lost", G_TYPE_UINT64, frames,
      "final", G_TYPE_BOOLEAN, final, NULL);
}

static GstStructure *
signal_msg (gboolean present, gboolean locked)
{
  return gst_structure_new ("ivtvsrc-signal", "present", G_TYPE_BOOLEAN,
      present, "input", G_TYPE_STRING, "Composite 1", "locked",
      G_TYPE_BOOLEAN, locked, NULL);
}

/* the status line as the program prints it (stdout to a file) */
static gchar *
status_line (Capture * c, const gchar * path)
{
  gchar *text = NULL;
  int saved, fd;

  fflush (stdout);
  saved = dup (STDOUT_FILENO);
  fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (saved < 0 || fd < 0)
    return g_strdup ("");
  dup2 (fd, STDOUT_FILENO);
  close (fd);
  cap_status_finish (c);
  fflush (stdout);
  dup2 (saved, STDOUT_FILENO);
  close (saved);
  g_file_get_contents (path, &text, NULL, NULL);
  return text ? text : g_strdup ("");
}

int
main (int argc, char **argv)
{
  Capture c;
  gchar *line, *path, *json;

  gst_init (&argc, &argv);
  g_return_val_if_fail (argc == 2, 2);
  memset (&c, 0, sizeof (c));
  c.src = gst_element_factory_make ("fakesrc", "src");
  c.gaps = g_array_new (FALSE, FALSE, sizeof (CapGap));
  c.warnings = g_ptr_array_new_with_free_func (g_free);
  c.output = g_build_filename (argv[1], "tape.mpg", NULL);
  c.media_duration = -1;
  c.no_signal = 10;
  atomic_store (&c.bytes, 3000000);
  atomic_store (&c.rec_start_us, g_get_monotonic_time () - 4 * G_USEC_PER_SEC);
  path = g_build_filename (argv[1], "status.txt", NULL);

  post (&c, signal_msg (TRUE, TRUE));
  line = status_line (&c, path);
  g_print ("before stats: %s", line);
  check (strstr (line, "signal: present (Composite 1)") != NULL,
      "signal present from ivtvsrc-signal");
  check (strstr (line, "queue: -  lost: -") != NULL,
      "queue and loss '-' before any ivtvsrc-stats");
  g_free (line);

  post (&c, stats (0.42, 1500000, 0, FALSE));
  line = status_line (&c, path);
  g_print ("after stats: %s", line);
  check (strstr (line, "queue: 42%  lost: 1.50 MB") != NULL,
      "queue fill and bytes lost from ivtvsrc-stats");
  g_free (line);

  post (&c, stats (0.05, 0, 12, TRUE));
  post (&c, signal_msg (TRUE, FALSE));
  line = status_line (&c, path);
  g_print ("final stats, no lock: %s", line);
  check (strstr (line, "queue: 5%  lost: 0.0 MB, 12 frames") != NULL,
      "frames lost from the final ivtvsrc-stats");
  check (strstr (line, "signal: no lock (Composite 1)") != NULL,
      "no lock from ivtvsrc-signal locked=false");
  g_free (line);
  line = cap_overlay_text (&c);
  check (strstr (line, "lost: <span foreground=\"#FF2020\">12 frames, "
          "0.00 MB</span>") != NULL, "the preview's lost line, red");
  g_free (line);

  /* one frame: singular (ngettext), on the status line and the preview */
  post (&c, stats (0.05, 0, 1, TRUE));
  line = status_line (&c, path);
  g_print ("one frame lost: %s", line);
  check (strstr (line, "lost: 0.0 MB, 1 frame") != NULL
      && strstr (line, "1 frames") == NULL, "one frame lost: '1 frame'");
  g_free (line);
  line = cap_overlay_text (&c);
  check (strstr (line, ">1 frame, 0.00 MB</span>") != NULL,
      "the preview's lost line: '1 frame'");
  g_free (line);
  post (&c, stats (0.05, 0, 12, TRUE));

  post (&c, signal_msg (FALSE, FALSE));
  check (c.gaps->len == 2, "two signal gaps (no lock, then none)");
  c.exit_code = CAP_EXIT_OK;
  g_file_set_contents (c.output, "x", 1, NULL);
  check (cap_sidecar_write (&c, NULL), "record written");
  json = cap_sidecar_path (c.output);
  g_file_get_contents (json, &line, NULL, NULL);
  check (line && strstr (line, "\"lost\": {\"reported_by\": \"ivtvsrc-stats\", "
          "\"bytes\": 0, \"frames\": 12}") != NULL,
      "the record has the element's final loss figures");
  check (line && strstr (line, "\"signal\": \"no lock\"}, {\"start\"") != NULL,
      "the record has the no-lock gap and the no-signal gap");
  g_free (line);
  g_free (json);
  g_free (path);
  return failures ? 1 : 0;
}
