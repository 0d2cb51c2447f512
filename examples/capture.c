/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* examples/capture.c — capture an MPEG encoder card (Hauppauge PVR-150/250/
 * 350/500, driver ivtv; also cx18, pvrusb2) to a file with ivtvsrc.
 *
 * Finds the card through GStreamer's device monitor (the plugin's
 * ivtvdeviceprovider), captures for N seconds or until the end of the tape
 * (no signal for a while, where the element supports signal-timeout), and
 * prints a progress line once a second: bytes written, duration, signal.
 * Ctrl-C ends the capture cleanly (EOS, so the file is complete).
 *
 * Build:  cc capture.c -o capture $(pkg-config --cflags --libs gstreamer-1.0)
 * Run:    ./capture [-t SECONDS] [-i INPUT] [-s STANDARD] [-e SECONDS] OUT.mpg
 *         -t  stop after this many seconds (default: until Ctrl-C / tape end)
 *         -i  input (composite, svideo, tuner, ...; default: the card's)
 *         -s  TV standard (ntsc, pal, secam, ...; default: the card's)
 *         -e  end of tape: stop after this many seconds without signal
 *             (needs ivtvsrc's signal-timeout property; default 10)
 */
#include <gst/gst.h>
#include <glib-unix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  GMainLoop *loop;
  GstElement *pipeline;
  GstElement *src;
  gsize bytes;                  /* atomically updated by the probe */
  gchar *signal;                /* "yes (Composite 1)", "NO (Tuner 1)", ... */
  gboolean stopping;
  gboolean eos;                 /* the file is complete */
  gint status;
} Capture;

static const gchar *const mpeg_drivers[] = { "ivtv", "cx18", "pvrusb2", NULL };

/* The first device of the monitor that ivtvsrc captures from, MPEG encoder
 * cards first.  NULL if none. */
static GstDevice *
find_card (void)
{
  GstDeviceMonitor *mon = gst_device_monitor_new ();
  GList *devices, *l;
  GstDevice *best = NULL, *any = NULL;

  gst_device_monitor_add_filter (mon, "Video/Source", NULL);
  if (!gst_device_monitor_start (mon)) {
    gst_object_unref (mon);
    return NULL;
  }
  devices = gst_device_monitor_get_devices (mon);
  for (l = devices; l != NULL; l = l->next) {
    GstDevice *dev = l->data;
    GstStructure *props = gst_device_get_properties (dev);
    GstElement *probe = gst_device_create_element (dev, NULL);
    const gchar *driver = props ?
        gst_structure_get_string (props, "device.driver") : NULL;
    gboolean ours = probe != NULL &&
        g_strcmp0 (GST_OBJECT_NAME (gst_element_get_factory (probe)),
        "ivtvsrc") == 0;

    if (ours && driver && g_strv_contains (mpeg_drivers, driver) && !best)
      best = gst_object_ref (dev);
    if (ours && !any)
      any = gst_object_ref (dev);
    if (probe)
      gst_object_unref (probe);
    if (props)
      gst_structure_free (props);
  }
  g_list_free_full (devices, gst_object_unref);
  gst_device_monitor_stop (mon);
  gst_object_unref (mon);
  if (best) {
    if (any)
      gst_object_unref (any);
    return best;
  }
  return any;
}

static GstPadProbeReturn
count_bytes (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Capture *c = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);

  (void) pad;
  g_atomic_pointer_add (&c->bytes, gst_buffer_get_size (buf));
  return GST_PAD_PROBE_OK;
}

static void
stop (Capture * c, const gchar * why)
{
  if (c->stopping) {
    g_printerr ("\nStopping now (the file may be incomplete).\n");
    g_main_loop_quit (c->loop);
    return;
  }
  c->stopping = TRUE;
  g_printerr ("\n%s: finishing the file...\n", why);
  gst_element_send_event (c->pipeline, gst_event_new_eos ());
}

static gboolean
on_sigint (gpointer data)
{
  stop (data, "Interrupted");
  return G_SOURCE_CONTINUE;
}

static gboolean
on_duration (gpointer data)
{
  stop (data, "Duration reached");
  return G_SOURCE_REMOVE;
}

static gboolean
on_tick (gpointer data)
{
  Capture *c = data;
  gint64 pos = 0;
  gsize bytes = (gsize) g_atomic_pointer_get (&c->bytes);

  if (!gst_element_query_position (c->pipeline, GST_FORMAT_TIME, &pos))
    pos = 0;
  g_print ("\r%8.2f MB  %" GST_TIME_FORMAT "  signal: %-24s",
      bytes / 1e6, GST_TIME_ARGS (pos), c->signal ? c->signal : "?");
  fflush (stdout);
  return G_SOURCE_CONTINUE;
}

static gboolean
on_message (GstBus * bus, GstMessage * msg, gpointer data)
{
  Capture *c = data;
  GError *err = NULL;
  gchar *dbg = NULL;

  (void) bus;
  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_EOS:
      c->eos = TRUE;
      g_main_loop_quit (c->loop);
      break;
    case GST_MESSAGE_ERROR:
      gst_message_parse_error (msg, &err, &dbg);
      g_printerr ("\nError: %s\n(%s)\n", err->message, dbg ? dbg : "");
      c->status = 1;
      g_main_loop_quit (c->loop);
      break;
    case GST_MESSAGE_WARNING:
      gst_message_parse_warning (msg, &err, &dbg);
      g_printerr ("\nWarning: %s\n", err->message);
      break;
    case GST_MESSAGE_ELEMENT:{
      const GstStructure *s = gst_message_get_structure (msg);
      gboolean present;

      if (gst_structure_has_name (s, "ivtvsrc-signal")
          && gst_structure_get_boolean (s, "present", &present)) {
        const gchar *input = gst_structure_get_string (s, "input");
        g_free (c->signal);
        c->signal = g_strdup_printf ("%s (%s)", present ? "yes" : "NO",
            input ? input : "?");
      }
      break;
    }
    default:
      break;
  }
  g_clear_error (&err);
  g_free (dbg);
  return TRUE;
}

static void
set_if_supported (GstElement * e, const gchar * prop, const gchar * value)
{
  if (value == NULL)
    return;
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (e), prop))
    gst_util_set_object_arg (G_OBJECT (e), prop, value);
  else
    g_printerr ("Note: this ivtvsrc has no '%s' property; ignored.\n", prop);
}

int
main (int argc, char **argv)
{
  gint seconds = 0;
  gchar *input = NULL, *standard = NULL, *end_of_tape = NULL;
  GOptionEntry entries[] = {
    {"time", 't', 0, G_OPTION_ARG_INT, &seconds, "Capture this many seconds",
        "SECONDS"},
    {"input", 'i', 0, G_OPTION_ARG_STRING, &input, "Input", "INPUT"},
    {"standard", 's', 0, G_OPTION_ARG_STRING, &standard, "TV standard",
        "STD"},
    {"end-of-tape", 'e', 0, G_OPTION_ARG_STRING, &end_of_tape,
        "Stop after this many seconds without signal (default 10)", "SECONDS"},
    {NULL, 0, 0, 0, NULL, NULL, NULL}
  };
  GOptionContext *ctx = g_option_context_new ("OUTPUT.mpg");
  GError *err = NULL;
  Capture c = { 0 };
  GstDevice *dev;
  GstElement *queue, *sink;
  GstPad *pad;
  GstBus *bus;
  gchar *name;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err) || argc != 2) {
    g_printerr ("%s\n\n%s", err ? err->message : "Give one output file.",
        g_option_context_get_help (ctx, TRUE, NULL));
    return 2;
  }
  g_option_context_free (ctx);

  dev = find_card ();
  if (dev == NULL) {
    g_printerr ("No capture device found (is the card's driver loaded? "
        "ls /dev/video*; is the ivtv plugin installed? gst-inspect-1.0 "
        "ivtvsrc).\n");
    return 1;
  }
  name = gst_device_get_display_name (dev);
  c.src = gst_device_create_element (dev, "src");
  gst_object_unref (dev);
  {
    gchar *path = NULL;
    g_object_get (c.src, "device", &path, NULL);
    g_print ("Capturing from %s (%s) to %s\n", name, path, argv[1]);
    g_free (path);
  }
  g_free (name);

  set_if_supported (c.src, "input", input);
  set_if_supported (c.src, "standard", standard);
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (c.src),
          "signal-timeout"))
    gst_util_set_object_arg (G_OBJECT (c.src), "signal-timeout",
        end_of_tape ? end_of_tape : "10");

  c.pipeline = gst_pipeline_new ("capture");
  queue = gst_element_factory_make ("queue", NULL);
  sink = gst_element_factory_make ("filesink", NULL);
  if (!queue || !sink) {
    g_printerr ("GStreamer's core elements (queue, filesink) are missing.\n");
    return 1;
  }
  /* a slow disk must not stall the card: a large queue, bytes only */
  g_object_set (queue, "max-size-buffers", 0, "max-size-time",
      (guint64) 0, "max-size-bytes", 64 * 1024 * 1024, NULL);
  g_object_set (sink, "location", argv[1], NULL);
  gst_bin_add_many (GST_BIN (c.pipeline), c.src, queue, sink, NULL);
  if (!gst_element_link_many (c.src, queue, sink, NULL)) {
    g_printerr ("Could not link ivtvsrc ! queue ! filesink.\n");
    return 1;
  }
  /* bytes captured (what left the source); on EOS all of it is on disk */
  pad = gst_element_get_static_pad (c.src, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_bytes, &c, NULL);
  gst_object_unref (pad);

  c.loop = g_main_loop_new (NULL, FALSE);
  bus = gst_pipeline_get_bus (GST_PIPELINE (c.pipeline));
  gst_bus_add_watch (bus, on_message, &c);
  gst_object_unref (bus);
  g_unix_signal_add (SIGINT, on_sigint, &c);
  g_timeout_add_seconds (1, on_tick, &c);
  if (seconds > 0)
    g_timeout_add_seconds (seconds, on_duration, &c);

  if (gst_element_set_state (c.pipeline, GST_STATE_PLAYING)
      == GST_STATE_CHANGE_FAILURE) {
    /* the error message on the bus says why */
    c.status = 1;
    while (g_main_context_iteration (NULL, FALSE));
  } else {
    g_main_loop_run (c.loop);
  }
  on_tick (&c);
  g_print ("\n");
  gst_element_set_state (c.pipeline, GST_STATE_NULL);
  if (c.status == 0)
    g_print ("Wrote %" G_GSIZE_FORMAT " bytes to %s%s\n",
        (gsize) g_atomic_pointer_get (&c.bytes), argv[1],
        c.eos ? " (complete: end of stream)" : " (stopped before the end "
        "of stream: the file may be incomplete)");
  gst_object_unref (c.pipeline);
  g_main_loop_unref (c.loop);
  g_free (c.signal);
  g_free (input);
  g_free (standard);
  g_free (end_of_tape);
  return c.status;
}
