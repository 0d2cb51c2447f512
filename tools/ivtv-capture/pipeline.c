/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtv-capture — the pipelines and what they say: finding the first capture
 * card through the device monitor, the recording pipeline
 * (ivtvsrc ! queue ! filesink, with a tee when previewing), the preview
 * pipeline fed through a leaky queue, and the bus messages (EOS, errors,
 * warnings, ivtvsrc-signal, ivtvsrc-stats) that drive the status and the
 * end of the capture (an element's warning or error: on the screen as it
 * comes, in the user's language; in the record in English). */
#include "capture.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <glib/gstdio.h>
#include <string.h>

/* the recording queue: a slow disk must not stall the card; it blocks when
 * full (never drops), so it costs no byte */
#define RECORD_QUEUE_BYTES (64 * 1024 * 1024)
/* the preview gets at most this many buffers of backlog, then the oldest
 * are dropped */
#define PREVIEW_QUEUE_BUFFERS 8

static const gchar *const mpeg_drivers[] = { "ivtv", "cx18", "pvrusb2", NULL };

/* ---- finding the card ---- */

/* how much we like a device: 0 = not a V4L2 node; 1 = one the provider
 * could not open (chosen last, the element then says why) */
static gint
device_score (GstDevice * dev)
{
  GstStructure *props = gst_device_get_properties (dev);
  const gchar *path, *driver;
  gint score = 0;

  if (props == NULL)
    return 0;
  path = gst_structure_get_string (props, "device.path");
  driver = gst_structure_get_string (props, "device.driver");
  if (path != NULL && g_str_has_prefix (path, "/dev/")) {
    score = 1;
    if (gst_structure_has_name (props, "ivtv-device-properties")
        && !gst_structure_has_field (props, "ivtv.open-error"))
      score += 2;               /* listed (and probed) by ivtvsrc's provider */
    if (driver != NULL && g_strv_contains (mpeg_drivers, driver))
      score += 4;               /* an MPEG encoder card: what we are for */
  }
  gst_structure_free (props);
  return score;
}

GstDevice *
cap_find_card (GError ** error)
{
  GstDeviceMonitor *mon = gst_device_monitor_new ();
  GList *devices, *l;
  GstDevice *best = NULL;
  gint best_score = 0;

  gst_device_monitor_add_filter (mon, "Video/Source", NULL);
  if (!gst_device_monitor_start (mon)) {
    g_set_error_literal (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
        N_("GStreamer's device monitor does not start"));
    gst_object_unref (mon);
    return NULL;
  }
  devices = gst_device_monitor_get_devices (mon);
  for (l = devices; l != NULL; l = l->next) {
    gint score = device_score (l->data);

    if (score > best_score) {   /* the first of the best kind */
      best_score = score;
      gst_clear_object (&best);
      best = gst_object_ref (l->data);
    }
  }
  g_list_free_full (devices, gst_object_unref);
  gst_device_monitor_stop (mon);
  gst_object_unref (mon);
  if (best == NULL)
    g_set_error_literal (error, GST_RESOURCE_ERROR,
        GST_RESOURCE_ERROR_NOT_FOUND, N_("no capture card found (is its "
            "driver loaded? ls /dev/video*; is the ivtv plugin installed? "
            "gst-inspect-1.0 ivtvsrc)"));
  return best;
}

/* the states of ivtvsrc-reconnect (post_reconnect in
 * gst/session/ivtvcaptureread.c), marked for the translators */
static const gchar *const reconnect_states[] G_GNUC_UNUSED = {
  NC_ ("card", "lost"), NC_ ("card", "restored")
};

/* ---- the end ---- */

static gboolean
eos_overdue (gpointer data)
{
  Capture *c = data;

  if (!c->got_eos)
    cap_fail (c, CAP_EXIT_FAILED, N_("the card did not finish the stream "
            "within 15 s of the stop; the file may end in the middle of a "
            "GOP"));
  return G_SOURCE_REMOVE;
}

/* Ask for the end: EOS, so ivtvsrc stops the encoder at the end of a GOP
 * and the rest reaches the file; the main loop ends on the EOS message. */
void
cap_stop (Capture * c, const gchar * why, const gchar * shown)
{
  if (c->stopping)
    return;
  c->stopping = 1;
  if (c->end_reason == NULL) {
    c->end_reason = g_strdup (why);
    c->end_reason_shown = g_strdup (shown);
  }
  cap_status_event (c, _("%s: finishing the file..."), shown);
  if (c->archive) {
    cap_archive_send_eos (c);   /* its own watch: the encoder's backlog */
    return;
  }
  gst_element_send_event (c->pipeline, gst_event_new_eos ());
  g_timeout_add_seconds (15, eos_overdue, c);
}

/* ---- the recording pipeline ---- */

static GstPadProbeReturn
count_bytes (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Capture *c = data;
  gsize n = 0;

  (void) pad;
  if (info->type & GST_PAD_PROBE_TYPE_BUFFER)
    n = gst_buffer_get_size (GST_PAD_PROBE_INFO_BUFFER (info));
  else if (info->type & GST_PAD_PROBE_TYPE_BUFFER_LIST)
    n = gst_buffer_list_calculate_size (GST_PAD_PROBE_INFO_BUFFER_LIST (info));
  if (n > 0) {
    int64_t zero = 0;

    atomic_compare_exchange_strong (&c->rec_start_us, &zero,
        g_get_monotonic_time ());
    atomic_fetch_add (&c->bytes, n);
  }
  return GST_PAD_PROBE_OK;
}

static GstElement *
make (const gchar * factory, GError ** error)
{
  GstElement *e = gst_element_factory_make (factory, NULL);

  if (e == NULL)
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_MISSING_PLUGIN,
        _("GStreamer element '%s' is missing (is its plugin package "
            "installed?)"), factory);
  return e;
}

static void
set_src_options (Capture * c)
{
  if (c->input)
    g_object_set (c->src, "input", c->input, NULL);
  if (c->standard)
    g_object_set (c->src, "standard", c->standard, NULL);
  g_object_set (c->src, "wait-for-signal", TRUE,
      "signal-timeout", (guint) c->no_signal, NULL);
  if (c->dvd) {
    gst_util_set_object_arg (G_OBJECT (c->src), "stream-type", "dvd");
    gst_util_set_object_arg (G_OBJECT (c->src), "aspect", "4:3");
    g_object_set (c->src, "audio-rate", 48000, NULL);
  }
}

/* ---- the preview: tee ! queue leaky=downstream ! appsink, then a pipeline
 * of its own (appsrc ! decodebin ! videoconvert ! textoverlay (overlay.c) !
 * videoconvert ! videoscale ! a window sink; the audio to level), so that
 * nothing the preview does (a slow decoder, a closed window, an error) can
 * reach the recording branch: the appsink always takes, never fails ---- */

static GstFlowReturn
preview_sample (GstAppSink * sink, gpointer data)
{
  Capture *c = data;
  GstSample *s = gst_app_sink_pull_sample (sink);

  if (s == NULL)
    return GST_FLOW_OK;
  if (c->preview_in != NULL)
    gst_app_src_push_sample (GST_APP_SRC (c->preview_in), s);
  gst_sample_unref (s);
  return GST_FLOW_OK;           /* whatever the preview thinks of it */
}

/* audioconvert ! level ! fakesink for the overlay's audio level; returns
 * the first element (a new reference), or NULL */
static GstElement *
preview_audio (Capture * c)
{
  GstElement *conv = gst_element_factory_make ("audioconvert", NULL);
  GstElement *level = gst_element_factory_make ("level", NULL);
  GstElement *sink = gst_element_factory_make ("fakesink", NULL);

  if (conv == NULL || level == NULL || sink == NULL) {
    gst_clear_object (&conv);
    gst_clear_object (&level);
    gst_clear_object (&sink);
    return NULL;
  }
  g_object_set (level, "interval", (guint64) 100 * GST_MSECOND,
      "post-messages", TRUE, NULL);
  g_object_set (sink, "sync", FALSE, "async", FALSE, NULL);
  gst_bin_add_many (GST_BIN (c->preview_pipe), conv, level, sink, NULL);
  gst_element_link_many (conv, level, sink, NULL);
  gst_element_sync_state_with_parent (sink);
  gst_element_sync_state_with_parent (level);
  gst_element_sync_state_with_parent (conv);
  c->audio_channels = 1;        /* the pad is taken; level says how many */
  return gst_object_ref (conv);
}

static void
preview_pad_added (GstElement * dec, GstPad * pad, gpointer data)
{
  Capture *c = data;
  GstCaps *caps = gst_pad_get_current_caps (pad);
  const gchar *name = caps ?
      gst_structure_get_name (gst_caps_get_structure (caps, 0)) : "";
  GstElement *next;
  GstPad *sinkpad;

  if (g_str_has_prefix (name, "video/") && !c->preview_linked) {
    next = gst_bin_get_by_name (GST_BIN (c->preview_pipe), "pconv");
    c->preview_linked = TRUE;
  } else if (g_str_has_prefix (name, "audio/") && c->audio_channels == 0
      && (next = preview_audio (c)) != NULL) {
    /* the first audio: its level for the overlay (overlay.c) */
  } else {                      /* a second audio or video: nowhere */
    next = gst_element_factory_make ("fakesink", NULL);
    g_object_set (next, "sync", FALSE, "async", FALSE, NULL);
    gst_bin_add (GST_BIN (c->preview_pipe), gst_object_ref (next));
    gst_element_sync_state_with_parent (next);
  }
  sinkpad = gst_element_get_static_pad (next, "sink");
  if (gst_pad_link (pad, sinkpad) != GST_PAD_LINK_OK)
    g_printerr (_("ivtv-capture: preview: cannot show %s\n"), name);
  gst_object_unref (sinkpad);
  gst_object_unref (next);
  if (caps)
    gst_caps_unref (caps);
  (void) dec;
}

static gboolean
preview_bus (GstBus * bus, GstMessage * msg, gpointer data)
{
  Capture *c = data;
  GError *err = NULL;

  (void) bus;
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT
      && gst_message_has_name (msg, "level"))
    cap_overlay_level (c, gst_message_get_structure (msg));
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, &err, NULL);
    cap_status_event (c, _("Preview stopped (%s); the recording goes on."),
        err->message);
    g_clear_error (&err);
    gst_element_set_state (c->preview_pipe, GST_STATE_NULL);
    return G_SOURCE_REMOVE;
  }
  return G_SOURCE_CONTINUE;
}

/* The first window sink that opens the display.  Not autovideosink: with
 * only X11 it may try the DirectFB sink, which crashes the program. */
static GstElement *
pick_video_sink (GError ** error)
{
  static const gchar *const x11[] = { "xvimagesink", "ximagesink",
    "glimagesink", NULL
  };
  static const gchar *const wayland[] = { "waylandsink", "glimagesink",
    "xvimagesink", "ximagesink", NULL
  };
  const gchar *const *names = g_getenv ("WAYLAND_DISPLAY") ? wayland : x11;
  gchar *tried;
  guint i;

  for (i = 0; names[i]; i++) {
    GstElement *e = gst_element_factory_make (names[i], NULL);

    if (e == NULL)
      continue;
    if (gst_element_set_state (e, GST_STATE_READY) == GST_STATE_CHANGE_SUCCESS) {
      gst_element_set_state (e, GST_STATE_NULL);
      return e;
    }
    gst_element_set_state (e, GST_STATE_NULL);
    gst_object_unref (e);
  }
  tried = g_strjoinv (", ", (gchar **) names);
  g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_OPEN_WRITE,
      _("--preview: no video window sink can open the display (tried %s)"),
      tried);
  g_free (tried);
  return NULL;
}

static gboolean
build_preview (Capture * c, GstElement * tee, GError ** error)
{
  GstElement *q, *appsink, *dec, *conv, *ovl, *conv2, *scale, *vsink;
  GstAppSinkCallbacks cb;
  GstBus *bus;

  if (!(q = make ("queue", error)) || !(appsink = make ("appsink", error)))
    return FALSE;
  g_object_set (q, "leaky", 2 /* downstream: drop the oldest */ ,
      "max-size-buffers", PREVIEW_QUEUE_BUFFERS, "max-size-bytes", 0,
      "max-size-time", (guint64) 0, NULL);
  memset (&cb, 0, sizeof (cb));
  cb.new_sample = preview_sample;
  g_object_set (appsink, "sync", FALSE, "async", FALSE, "drop", TRUE,
      "max-buffers", 2, NULL);
  gst_app_sink_set_callbacks (GST_APP_SINK (appsink), &cb, c, NULL);
  gst_bin_add_many (GST_BIN (c->pipeline), q, appsink, NULL);
  if (!gst_element_link_many (tee, q, appsink, NULL))
    return FALSE;

  c->preview_pipe = gst_pipeline_new ("preview");
  if (!(c->preview_in = make ("appsrc", error)) || !(dec = make ("decodebin",
              error)) || !(conv = make ("videoconvert", error))
      || !(ovl = cap_overlay_make (c, &conv2, error))
      || !(scale = make ("videoscale", error))
      || !(vsink = pick_video_sink (error)))
    return FALSE;
  g_object_set (c->preview_in, "is-live", TRUE, "format", GST_FORMAT_BYTES,
      "block", FALSE, "max-bytes", (guint64) 4 * 1024 * 1024, NULL);
  gst_util_set_object_arg (G_OBJECT (c->preview_in), "leaky-type",
      "downstream");
  g_object_set (vsink, "sync", FALSE, NULL);
  gst_element_set_name (conv, "pconv");
  gst_bin_add_many (GST_BIN (c->preview_pipe), c->preview_in, dec, conv,
      ovl, conv2, scale, vsink, NULL);
  if (!gst_element_link (c->preview_in, dec)
      || !gst_element_link_many (conv, ovl, conv2, scale, vsink, NULL))
    return FALSE;
  g_signal_connect (dec, "pad-added", G_CALLBACK (preview_pad_added), c);
  bus = gst_pipeline_get_bus (GST_PIPELINE (c->preview_pipe));
  gst_bus_add_watch (bus, preview_bus, c);
  gst_object_unref (bus);
  return TRUE;
}

gboolean
cap_build (Capture * c, GError ** error)
{
  GstElement *q, *tee = NULL;
  GstPad *pad;

  c->pipeline = gst_pipeline_new ("ivtv-capture");
  gst_bin_add (GST_BIN (c->pipeline), c->src);
  set_src_options (c);
  if (cap_archive_wanted (c))   /* a raw card: archive.c */
    return cap_archive_build (c, error);
  if (!(q = make ("queue", error)) || !(c->sink = make ("filesink", error)))
    return FALSE;
  g_object_set (q, "max-size-buffers", 0, "max-size-time", (guint64) 0,
      "max-size-bytes", RECORD_QUEUE_BYTES, NULL);
  g_object_set (c->sink, "location", c->output, "async", FALSE, NULL);
  gst_bin_add_many (GST_BIN (c->pipeline), q, c->sink, NULL);
  if (c->preview) {
    if (!(tee = make ("tee", error)))
      return FALSE;
    gst_bin_add (GST_BIN (c->pipeline), tee);
  }
  if (!gst_element_link_many (c->src, tee ? tee : q, NULL)
      || (tee && !gst_element_link (tee, q))
      || !gst_element_link (q, c->sink)) {
    g_set_error_literal (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        N_("cannot link ivtvsrc to filesink"));
    return FALSE;
  }
  if (tee && !build_preview (c, tee, error)) {
    if (error && *error == NULL)
      g_set_error_literal (error, GST_CORE_ERROR,
          GST_CORE_ERROR_NEGOTIATION, N_("cannot build the preview"));
    return FALSE;
  }
  pad = gst_element_get_static_pad (c->sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_BUFFER_LIST, count_bytes, c, NULL);
  gst_object_unref (pad);
  return TRUE;
}

/* ---- bus messages of the recording pipeline ---- */

static void
on_signal (Capture * c, const GstStructure * s)
{
  gboolean present = TRUE, locked = TRUE;
  const gchar *input = gst_structure_get_string (s, "input");
  CapSignal was = c->signal;
  gdouble t = cap_elapsed (c);
  gchar tb[CAP_TIME_LEN];

  gst_structure_get_boolean (s, "present", &present);
  if (!gst_structure_get_boolean (s, "locked", &locked))
    locked = TRUE;
  c->signal = !present ? CAP_SIGNAL_NONE :
      locked ? CAP_SIGNAL_PRESENT : CAP_SIGNAL_NO_LOCK;
  if (input && *input) {
    g_free (c->signal_input);
    c->signal_input = g_strdup (input);
  }
  if (c->signal == CAP_SIGNAL_PRESENT)
    c->ever_present = TRUE;
  /* gaps are stretches of the recording: not the wait before it */
  if (atomic_load (&c->rec_start_us) == 0 || was == c->signal
      || was == CAP_SIGNAL_UNKNOWN)
    return;
  if (c->in_gap) {
    g_array_index (c->gaps, CapGap, c->gaps->len - 1).end = t;
    c->in_gap = FALSE;
  }
  if (c->signal != CAP_SIGNAL_PRESENT) {
    CapGap g = { t, -1, c->signal };

    g_array_append_val (c->gaps, g);
    c->in_gap = TRUE;
  }
  cap_status_event (c, _("%s: signal %s on '%s'"), cap_format_time (t, tb),
      _(cap_signal_word (c->signal)),
      c->signal_input ? c->signal_input : "?");
}

static void
on_stats (Capture * c, const GstStructure * s)
{
  c->have_stats = TRUE;
  gst_structure_get_double (s, "queue-fill", &c->queue_fill);
  gst_structure_get_uint64 (s, "bytes-lost", &c->bytes_lost);
  gst_structure_get_uint64 (s, "frames-lost", &c->frames_lost);
  gst_structure_get_uint64 (s, "bytes", &c->stats_bytes);
}

static gint64
file_size (const gchar * path)
{
  GStatBuf st;

  return g_stat (path, &st) == 0 ? (gint64) st.st_size : 0;
}

/* ivtvsrc's setting errors say which setting and why in their details */
static gboolean
setting_error (GstMessage * msg, const gchar * setting, const gchar * reason)
{
  const GstStructure *d = NULL;

  gst_message_parse_error_details (msg, &d);
  return d != NULL && (setting == NULL || g_strcmp0 (setting,
          gst_structure_get_string (d, "setting")) == 0)
      && g_strcmp0 (reason, gst_structure_get_string (d, "reason")) == 0;
}

/* The English of an element's warning or error, for the record: its text
 * when the messages are in English (cap_messages_english).  Else that
 * text is in the user's language (ivtvsrc and GStreamer translate it as
 * they post it, and the message keeps no English of it), and the record
 * gets what the message carries untranslated: the element's name, the
 * error's domain and code by GStreamer's names, and the debug detail
 * ("src: resource error 'read': gap in the driver's frame sequence
 * numbers"). */
static gchar *
message_english (GstMessage * msg, const GError * err, const gchar * dbg)
{
  const gchar *detail = dbg ? strchr (dbg, '\n') : NULL;
  GType type = err->domain == GST_CORE_ERROR ? GST_TYPE_CORE_ERROR :
      err->domain == GST_LIBRARY_ERROR ? GST_TYPE_LIBRARY_ERROR :
      err->domain == GST_RESOURCE_ERROR ? GST_TYPE_RESOURCE_ERROR :
      err->domain == GST_STREAM_ERROR ? GST_TYPE_STREAM_ERROR : G_TYPE_INVALID;
  GEnumClass *codes = type ? g_type_class_ref (type) : NULL;
  GEnumValue *v = codes ? g_enum_get_value (codes, err->code) : NULL;
  gchar *domain, *text;

  if (cap_messages_english ()) {
    if (codes)
      g_type_class_unref (codes);
    return g_strdup (err->message);
  }
  /* GStreamer's debug: "file(line): function (): /path/to/element:\n"
   * before the element's own */
  detail = detail ? detail + 1 : dbg ? dbg : "no details";
  domain = g_strdelimit (g_strdup (g_quark_to_string (err->domain)), "-",
      ' ');
  if (g_str_has_prefix (domain, "gst ") && g_str_has_suffix (domain,
          " quark")) {          /* "gst-resource-error-quark" */
    memmove (domain, domain + 4, strlen (domain) - 3);
    domain[strlen (domain) - 6] = '\0';
  }
  text = v ? g_strdup_printf ("%s: %s '%s': %s", GST_MESSAGE_SRC_NAME (msg),
      domain, v->value_nick, detail) : g_strdup_printf ("%s: %s %d: %s",
      GST_MESSAGE_SRC_NAME (msg), domain, err->code, detail);
  g_free (domain);
  if (codes)
    g_type_class_unref (codes);
  return g_strdelimit (text, "\r\n", ' ');
}

/* How long an error of ivtvsrc may wait for the data read before it to
 * reach the file (on_error): a disk that stalls does not hold the end */
#define ERROR_DRAIN_S 10

static gboolean
error_drain_overdue (gpointer data)
{
  Capture *c = data;

  if (c->loop)
    g_main_loop_quit (c->loop);
  return G_SOURCE_REMOVE;
}

/* the exit status of an error of the recording pipeline (not a full
 * disk's or filesink's: on_error) */
static gint
error_code (Capture * c, GstMessage * msg, const GError * err, guint64 n)
{
  gboolean from_src = GST_MESSAGE_SRC (msg) == GST_OBJECT (c->src);

  if (n == 0 && from_src && err->domain == GST_RESOURCE_ERROR
      && (err->code == GST_RESOURCE_ERROR_NOT_FOUND
          || err->code == GST_RESOURCE_ERROR_OPEN_READ
          || err->code == GST_RESOURCE_ERROR_OPEN_READ_WRITE
          || err->code == GST_RESOURCE_ERROR_BUSY))
    return CAP_EXIT_NO_CARD;
  if (n == 0 && setting_error (msg, "input", "no-signal"))
    /* input=auto found no input with a signal; the text names them all */
    return CAP_EXIT_NO_SIGNAL;
  if (n == 0 && (setting_error (msg, NULL, "unknown")
          || setting_error (msg, NULL, "ambiguous")))
    /* --input or --standard names nothing the card has */
    return CAP_EXIT_USAGE;
  return CAP_EXIT_FAILED;
}

static void
on_error (Capture * c, GstMessage * msg)
{
  GError *err = NULL;
  gchar *dbg = NULL, *en, *line, *shown;
  guint64 n = atomic_load (&c->bytes);
  gchar tb[CAP_TIME_LEN];
  /* ivtvsrc posts its error after the buffers read before it and then
   * ends its stream (EOS): those buffers may still be in the recording
   * queue, and belong in the file.  The loop ends on that EOS
   * (cap_bus_message), not here. */
  gboolean drain = n > 0 && c->error_line == NULL
      && GST_MESSAGE_SRC (msg) == GST_OBJECT (c->src);

  c->hold_quit = drain;
  if (drain)
    g_timeout_add_seconds (ERROR_DRAIN_S, error_drain_overdue, c);
  if (drain)
    cap_archive_end_audio (c);  /* a raw card's audio ends with its video */
  gst_message_parse_error (msg, &err, &dbg);
  /* the record's line in English, the user's in their language */
  en = message_english (msg, err, dbg);
  if (err->domain == GST_RESOURCE_ERROR &&
      err->code == GST_RESOURCE_ERROR_NO_SPACE_LEFT)
    cap_fail (c, CAP_EXIT_DISK_FULL, N_("disk full: %s is intact up to "
            "its last complete write (%" PRId64 " bytes); the "
            "recording stopped after %s"), c->output, file_size (c->output),
        cap_format_time (cap_elapsed (c), tb));
  else if (GST_MESSAGE_SRC (msg) == GST_OBJECT (c->sink)) {
    line = g_strdup_printf ("cannot write %s: %s", c->output, en);
    shown = g_strdup_printf (_("cannot write %s: %s"), c->output,
        err->message);
    cap_fail_both (c, CAP_EXIT_DISK_FULL, line, shown);
    g_free (line);
    g_free (shown);
  } else
    cap_fail_both (c, error_code (c, msg, err, n), en, err->message);
  c->hold_quit = FALSE;
  g_clear_error (&err);
  g_free (dbg);
  g_free (en);
}

static void
on_warning (Capture * c, GstMessage * msg)
{
  GError *err = NULL;
  gchar *dbg = NULL, *en, tb[CAP_TIME_LEN];

  gst_message_parse_warning (msg, &err, &dbg);
  cap_format_time (cap_elapsed (c), tb);
  cap_status_event (c, _("Warning at %s: %s"), tb, err->message);
  /* the record's in English (message_english) */
  en = message_english (msg, err, dbg);
  if (c->warnings->len < 100)
    g_ptr_array_add (c->warnings, g_strdup_printf ("%s: %s", tb, en));
  g_free (en);
  g_clear_error (&err);
  g_free (dbg);
}

static void
on_info (Capture * c, GstMessage * msg)
{
  GError *err = NULL;
  gchar *dbg = NULL;

  gst_message_parse_info (msg, &err, &dbg);
  /* ivtvsrc's signal-timeout ("No signal on input ... ending the
   * recording", debug "signal-timeout", ivtvsignal.c), not its other
   * notices: "Data from ... flows again" after a stall warning (a pvrusb2
   * under load takes > 5 s to its first data) was taken for the end of
   * the tape, and the recording then ran past --max-time into the 15 s
   * "did not finish the stream" failure */
  if (GST_MESSAGE_SRC (msg) == GST_OBJECT (c->src) && !c->stopping
      && dbg != NULL && strstr (dbg, "signal-timeout") != NULL) {
    c->stopping = 1;
    g_free (c->end_reason);
    c->end_reason = g_strdup_printf ("end of tape (no signal for %d s)",
        c->no_signal);
    g_free (c->end_reason_shown);
    c->end_reason_shown = g_strdup_printf (_("end of tape (no signal for "
            "%d s)"), c->no_signal);
    g_timeout_add_seconds (15, eos_overdue, c);
  }
  cap_status_event (c, "%s", err->message);
  g_clear_error (&err);
  g_free (dbg);
}

gboolean
cap_bus_message (GstBus * bus, GstMessage * msg, gpointer data)
{
  Capture *c = data;
  const GstStructure *s;
  gchar tb[CAP_TIME_LEN];

  (void) bus;
  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_EOS:
      c->got_eos = TRUE;
      g_main_loop_quit (c->loop);
      break;
    case GST_MESSAGE_ERROR:
      on_error (c, msg);
      break;
    case GST_MESSAGE_WARNING:
      on_warning (c, msg);
      break;
    case GST_MESSAGE_INFO:
      on_info (c, msg);
      break;
    case GST_MESSAGE_ELEMENT:
      s = gst_message_get_structure (msg);
      if (cap_archive_message (c, msg))
        break;
      if (GST_MESSAGE_SRC (msg) != GST_OBJECT (c->src) || s == NULL)
        break;
      if (gst_structure_has_name (s, "ivtvsrc-signal"))
        on_signal (c, s);
      else if (gst_structure_has_name (s, "ivtvsrc-stats"))
        on_stats (c, s);
      else if (gst_structure_has_name (s, "ivtvsrc-reconnect"))
        cap_status_event (c, _("%s: the card was %s"),
            cap_format_time (cap_elapsed (c), tb),
            g_dpgettext2 (GETTEXT_PACKAGE, "card",
                gst_structure_get_string (s, "state")));
      break;
    default:
      break;
  }
  return G_SOURCE_CONTINUE;
}
