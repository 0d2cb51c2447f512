/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtv-capture — which node this is and which audio goes with it, for the
 * archival path: the device provider's properties of the video node
 * (ivtv.role, ivtv.siblings, alsa.device: gst/ivtvdevicenode.c); the audio
 * source (--audio-device, else the ALSA device paired with the node, else
 * the card's PCM node), opened once before the recording so that a missing,
 * busy or refused device is one clear error naming the capture devices
 * there are and --no-audio, never a recording without sound. */
#include "archive.h"

#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <string.h>

/* the properties the device provider lists for @path */
static GstStructure *
node_props (const gchar * path)
{
  GstDeviceMonitor *mon = gst_device_monitor_new ();
  GList *devices, *l;
  GstStructure *found = NULL;

  gst_device_monitor_add_filter (mon, "Video/Source", NULL);
  gst_device_monitor_add_filter (mon, "Audio/Source", NULL);
  if (!gst_device_monitor_start (mon)) {
    gst_object_unref (mon);
    return NULL;
  }
  devices = gst_device_monitor_get_devices (mon);
  for (l = devices; l != NULL && found == NULL; l = l->next) {
    GstStructure *p = gst_device_get_properties (l->data);

    if (p && gst_structure_has_name (p, "ivtv-device-properties")
        && g_strcmp0 (gst_structure_get_string (p, "device.path"), path) == 0)
      found = p;
    else if (p)
      gst_structure_free (p);
  }
  g_list_free_full (devices, gst_object_unref);
  gst_device_monitor_stop (mon);
  gst_object_unref (mon);
  return found;
}

/* raw video with its own audio device: the archival path */
gboolean
cap_archive_find_node (Capture * c, CapArchive * a)
{
  GstStructure *p = node_props (c->device);

  if (p == NULL)
    return FALSE;
  a->role = g_strdup (gst_structure_get_string (p, "ivtv.role"));
  a->siblings = g_strdup (gst_structure_get_string (p, "ivtv.siblings"));
  a->alsa_device = g_strdup (gst_structure_get_string (p, "alsa.device"));
  gst_structure_free (p);
  return TRUE;
}

/* the card's PCM node (ivtv, cx18): a sibling whose role is audio */
static gchar *
pcm_sibling (CapArchive * a)
{
  gchar **nodes, *found = NULL;
  guint i;

  if (a->siblings == NULL || *a->siblings == '\0')
    return NULL;
  nodes = g_strsplit (a->siblings, ",", -1);
  for (i = 0; nodes[i] && !found; i++) {
    GstStructure *p = node_props (nodes[i]);

    if (p && g_strcmp0 (gst_structure_get_string (p, "ivtv.role"),
            "audio") == 0)
      found = g_strdup (nodes[i]);
    if (p)
      gst_structure_free (p);
  }
  g_strfreev (nodes);
  return found;
}

/* "hw:1,0 (USB Audio), ..." from /proc/asound/pcm, or NULL if none */
static gchar *
capture_devices (void)
{
  gchar *text = NULL, **lines;
  GString *s = g_string_new (NULL);
  guint i;

  if (g_file_get_contents ("/proc/asound/pcm", &text, NULL, NULL)) {
    lines = g_strsplit (text, "\n", -1);
    for (i = 0; lines[i]; i++) {
      gint card, dev;
      gchar **f = g_strsplit (lines[i], ": ", 4);

      if (strstr (lines[i], "capture") && g_strv_length (f) >= 2
          && sscanf (f[0], "%d-%d", &card, &dev) == 2)
        g_string_append_printf (s, "%shw:%d,%d (%s)", s->len ? ", " : "",
            card, dev, g_strstrip (f[1]));
      g_strfreev (f);
    }
    g_strfreev (lines);
    g_free (text);
  }
  return g_string_free (s, s->len == 0);
}

/* The audio device's failure, one sentence each (so that a translation
 * can order its parts): the reason it stops, the ALSA capture devices
 * there are ("none" translated), and --audio-device / --no-audio.  The
 * record's line is English, the user's in their language (cap_fail_both);
 * the GError is the user's.  The %s are the device, the reason (NO_OPEN
 * only: a GStreamer error's own text) and the list, in this order. */
#define NO_AUDIO_DEVICE N_("no audio device goes with %s (no ALSA device on " \
    "its USB device or card, no PCM node); ALSA capture devices here: %s; " \
    "choose one with --audio-device, or record without sound with " \
    "--no-audio")
#define NO_IVTVSRC N_("cannot open the audio device %s: the ivtvsrc element " \
    "is missing; ALSA capture devices here: %s; choose one with " \
    "--audio-device, or record without sound with --no-audio")
#define NO_ALSASRC N_("cannot open the audio device %s: GStreamer's alsasrc " \
    "element is missing (apt install gstreamer1.0-alsa); ALSA capture " \
    "devices here: %s; choose one with --audio-device, or record without " \
    "sound with --no-audio")
#define NO_OPEN N_("cannot open the audio device %s: %s; ALSA capture " \
    "devices here: %s; choose one with --audio-device, or record without " \
    "sound with --no-audio")

static void
audio_fail (Capture * c, GError ** error, gchar * line, gchar * shown)
{
  cap_fail_both (c, CAP_EXIT_NO_CARD, line, shown);
  g_set_error_literal (error, GST_RESOURCE_ERROR,
      GST_RESOURCE_ERROR_OPEN_READ, shown);
  g_free (line);
  g_free (shown);
}

/* no audio device goes with the video node: NO_AUDIO_DEVICE */
static void
no_audio_device (Capture * c, GError ** error)
{
  gchar *list = capture_devices ();
  const gchar *none = C_("audio devices", "none");

  audio_fail (c, error, g_strdup_printf (NO_AUDIO_DEVICE, c->device,
          list ? list : "none"), g_strdup_printf (_(NO_AUDIO_DEVICE),
          c->device, list ? list : none));
  g_free (list);
}

/* @name does not open: NO_OPEN with @why (NULL: "it does not open") */
static void
audio_open_failed (Capture * c, const gchar * name, const gchar * why,
    GError ** error)
{
  gchar *list = capture_devices (), *reason = g_strdup (why ? why : "");
  const gchar *none = C_("audio devices", "none");

  g_strchomp (reason);
  if (g_str_has_suffix (reason, "."))
    reason[strlen (reason) - 1] = '\0';
  audio_fail (c, error, g_strdup_printf (NO_OPEN, name,
          *reason ? reason : "it does not open", list ? list : "none"),
      g_strdup_printf (_(NO_OPEN), name,
          *reason ? reason : _("it does not open"), list ? list : none));
  g_free (list);
  g_free (reason);
}

/* the element that would read @name is not installed: NO_IVTVSRC or
 * NO_ALSASRC */
static void
audio_element_missing (Capture * c, const gchar * name, GError ** error)
{
  const gchar *fmt = g_str_has_prefix (name, "/dev/") ? NO_IVTVSRC :
      NO_ALSASRC;
  gchar *list = capture_devices ();
  const gchar *none = C_("audio devices", "none");

  audio_fail (c, error, g_strdup_printf (fmt, name, list ? list : "none"),
      g_strdup_printf (_(fmt), name, list ? list : none));
  g_free (list);
}

/* opens @e once (to READY) in a pipeline of its own, for its error */
static gboolean
try_open (GstElement * e, gchar ** why)
{
  GstElement *p = gst_pipeline_new (NULL);
  GstBus *bus = gst_pipeline_get_bus (GST_PIPELINE (p));
  GstMessage *m;
  gboolean ok;

  gst_bin_add (GST_BIN (p), gst_object_ref (e));
  ok = gst_element_set_state (p, GST_STATE_READY) != GST_STATE_CHANGE_FAILURE;
  m = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  if (!ok && m != NULL) {
    GError *err = NULL;

    gst_message_parse_error (m, &err, NULL);
    *why = g_strdup (err->message);
    g_clear_error (&err);
  }
  if (m)
    gst_message_unref (m);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_bin_remove (GST_BIN (p), e);
  gst_object_unref (bus);
  gst_object_unref (p);
  return ok;
}

static GstElement *
make_source (Capture * c, const gchar * name, CapArchive * a,
    GError ** error)
{
  GstElement *e;

  if (g_str_has_prefix (name, "gst:")) {
    /* a GStreamer source description (tests, pulsesrc, ...) */
    e = gst_parse_bin_from_description (name + 4, TRUE, error);
    a->audio_at_end = FALSE;
  } else if (g_str_has_prefix (name, "/dev/")) {
    e = gst_element_factory_make ("ivtvsrc", "audio-src");
    if (e)
      g_object_set (e, "device", name, NULL);
    a->audio_at_end = TRUE;     /* read(): stamped when the read ends */
  } else {
    e = gst_element_factory_make ("alsasrc", "audio-src");
    /* slave-method stays "skew": its time stamps are the ALSA position
     * (the delay it reports) mapped onto the pipeline clock, off by at
     * most half a segment, which the fit averages out; "re-timestamp"
     * subtracts the whole ring's length instead of the delay
     * (gstaudiobasesrc.c), a bias that changes with the ring's fill.
     * Half a second of ring: a busy machine does not make it overrun, and
     * skew skips samples only beyond the ring (then counted in the
     * offsets, put back as silence) */
    if (e)
      g_object_set (e, "buffer-time", (gint64) 500000, NULL);
    if (e)
      g_object_set (e, "device", name, NULL);
    a->audio_at_end = FALSE;
    a->audio_sample_offsets = TRUE;     /* GstAudioBaseSrc: sample counts */
  }
  if (e == NULL && error && *error == NULL)
    audio_element_missing (c, name, error);
  return e;
}

GstElement *
cap_archive_audio_source (Capture * c, CapArchive * a, GError ** error)
{
  GstElement *e;
  gchar *why = NULL;

  if (c->audio_device)
    a->audio_name = g_strdup (c->audio_device);
  else if (a->alsa_device)
    a->audio_name = g_strdup (a->alsa_device);
  else
    a->audio_name = pcm_sibling (a);
  if (a->audio_name == NULL) {
    no_audio_device (c, error);
    return NULL;
  }
  if ((e = make_source (c, a->audio_name, a, error)) == NULL)
    return NULL;
  if (!g_str_has_prefix (a->audio_name, "gst:") && !try_open (e, &why)) {
    audio_open_failed (c, a->audio_name, why, error);
    g_free (why);
    if (g_object_is_floating (e))
      gst_object_ref_sink (e);
    gst_object_unref (e);
    return NULL;
  }
  return e;
}
