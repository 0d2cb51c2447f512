/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtv-capture — the archival recording of a raw card (a USB dongle, the
 * YUV node of an ivtv/cx18 card): one Matroska file with FFV1 video
 * (version 3, slices with CRCs, every frame a key frame) and the card's
 * audio as PCM, FILE.framemd5 beside it, and optionally an access copy
 * (H.264 + AAC in MP4).
 *
 *   ivtvsrc ! appsink          audio source ! audioconvert ! level ! appsink
 *              \__ sync.c: frame sequence = clock, audio mapped on it __/
 *   appsrc ! queue ! videoconvert ! [tee] ! avenc_ffv1 ! queue ! matroskamux
 *   appsrc ! queue ! [tee] ---------------------------------------'   filesink
 *
 * The capture half never waits for the encoder: the video appsrc blocks
 * only the card's streaming thread, so a slow encoder fills ivtvsrc's own
 * queue, whose losses are counted (and become repeats or cuts here); the
 * audio is never blocked. */
#include "archive.h"

#include <glib/gi18n-lib.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/audio/audio.h>
#include <string.h>

/* frames waiting for the encoder before the card's thread waits */
#define VIDEO_BACKLOG_BYTES (96 * 1024 * 1024)

static GstElement *
add (Capture * c, const gchar * factory, const gchar * name, GError ** error)
{
  GstElement *e = gst_element_factory_make (factory, name);

  if (e == NULL) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_MISSING_PLUGIN,
        _("GStreamer element '%s' is missing (is its plugin package "
            "installed? avenc_ffv1: gstreamer1.0-libav)"), factory);
    return NULL;
  }
  gst_bin_add (GST_BIN (c->pipeline), e);
  return e;
}

gboolean
cap_archive_wanted (Capture * c)
{
  CapArchive *a = g_new0 (CapArchive, 1);

  if (!cap_archive_find_node (c, a) || g_strcmp0 (a->role, "raw-video")) {
    g_free (a->role);
    g_free (a->siblings);
    g_free (a->alsa_device);
    g_free (a);
    return FALSE;
  }
  g_mutex_init (&a->lock);
  cap_levels_init (&a->levels);
  a->watch_fd = -1;
  a->watch_events = g_array_new (FALSE, FALSE, sizeof (CapWatchEvent));
  a->policy = g_strcmp0 (c->on_drop, "cut-audio") == 0 ? CAP_DROP_CUT_AUDIO :
      CAP_DROP_REPEAT;
  c->archive = a;
  c->status_more = cap_archive_status;  /* status.c calls it, not up here */
  return TRUE;
}

/* ---- from the capture half to the writing half ---- */

static void
sync_push (gpointer user, GstBuffer * buf, gboolean video)
{
  CapArchive *a = user;

  gst_app_src_push_buffer (GST_APP_SRC (video ? a->vsrc : a->aout), buf);
}

static GstFlowReturn
video_sample (GstAppSink * sink, gpointer data)
{
  Capture *c = data;
  CapArchive *a = c->archive;
  GstSample *smp = gst_app_sink_pull_sample (sink);
  GstVideoInfo info;
  CapSync *sync;

  if (smp == NULL)
    return GST_FLOW_OK;
  g_mutex_lock (&a->lock);
  if (a->sync == NULL && gst_video_info_from_caps (&info,
          gst_sample_get_caps (smp))) {
    gst_app_src_set_caps (GST_APP_SRC (a->vsrc), gst_sample_get_caps (smp));
    a->sync = cap_sync_new (a->policy, GST_VIDEO_INFO_FPS_N (&info),
        GST_VIDEO_INFO_FPS_D (&info), sync_push, a);
    if (a->audio_set)
      cap_sync_set_audio (a->sync, a->rate, a->bpf, a->audio_at_end);
    cap_sync_set_sample_offsets (a->sync, a->audio_sample_offsets);
  }
  sync = a->sync;
  g_mutex_unlock (&a->lock);
  if (sync)
    cap_sync_video (sync, gst_buffer_ref (gst_sample_get_buffer (smp)));
  gst_sample_unref (smp);
  return GST_FLOW_OK;
}

static GstFlowReturn
audio_sample (GstAppSink * sink, gpointer data)
{
  Capture *c = data;
  CapArchive *a = c->archive;
  GstSample *smp = gst_app_sink_pull_sample (sink);
  GstAudioInfo info;
  CapSync *sync;

  if (smp == NULL)
    return GST_FLOW_OK;
  g_mutex_lock (&a->lock);
  if (!a->audio_set && gst_audio_info_from_caps (&info,
          gst_sample_get_caps (smp))) {
    gst_app_src_set_caps (GST_APP_SRC (a->aout), gst_sample_get_caps (smp));
    a->rate = GST_AUDIO_INFO_RATE (&info);
    a->bpf = GST_AUDIO_INFO_BPF (&info);
    a->width = GST_AUDIO_INFO_WIDTH (&info);
    a->audio_set = TRUE;
    if (a->sync)
      cap_sync_set_audio (a->sync, a->rate, a->bpf, a->audio_at_end);
  }
  sync = a->sync;
  g_mutex_unlock (&a->lock);
  cap_levels_count_clipped (&a->levels, gst_sample_get_buffer (smp),
      a->width);
  if (sync)                     /* audio before the first frame is not kept */
    cap_sync_audio (sync, gst_buffer_ref (gst_sample_get_buffer (smp)));
  gst_sample_unref (smp);
  return GST_FLOW_OK;
}

static void
video_eos (GstAppSink * sink, gpointer data)
{
  Capture *c = data;

  (void) sink;
  gst_app_src_end_of_stream (GST_APP_SRC (c->archive->vsrc));
}

static void
audio_eos (GstAppSink * sink, gpointer data)
{
  Capture *c = data;
  CapArchive *a = c->archive;
  CapSync *sync;

  (void) sink;
  g_mutex_lock (&a->lock);
  sync = a->sync;
  g_mutex_unlock (&a->lock);
  if (sync)
    cap_sync_audio_flush (sync);
  gst_app_src_end_of_stream (GST_APP_SRC (a->aout));
}

/* ---- probes on the writing half ---- */

static GstPadProbeReturn
count_bytes (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Capture *c = data;
  gsize n = 0;

  (void) pad;
  if (info->type & GST_PAD_PROBE_TYPE_BUFFER)
    n = gst_buffer_get_size (GST_PAD_PROBE_INFO_BUFFER (info));
  if (n > 0) {
    int64_t zero = 0;

    atomic_compare_exchange_strong (&c->rec_start_us, &zero,
        g_get_monotonic_time ());
    atomic_fetch_add (&c->bytes, n);
  }
  return GST_PAD_PROBE_OK;
}

/* every frame the encoder takes goes into FILE.framemd5 */
static GstPadProbeReturn
hash_frame (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  CapArchive *a = data;

  (void) pad;
  if (info->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
    GstEvent *ev = GST_PAD_PROBE_INFO_EVENT (info);
    GstCaps *caps;

    if (GST_EVENT_TYPE (ev) == GST_EVENT_CAPS) {
      gst_event_parse_caps (ev, &caps);
      a->have_enc_info = gst_video_info_from_caps (&a->enc_info, caps);
    }
  } else if (a->have_enc_info && a->md5) {
    cap_framemd5_add (a->md5, &a->enc_info, GST_PAD_PROBE_INFO_BUFFER (info));
  }
  return GST_PAD_PROBE_OK;
}

static void
probe (GstElement * e, const gchar * pad_name, GstPadProbeType type,
    GstPadProbeCallback cb, gpointer data)
{
  GstPad *pad = gst_element_get_static_pad (e, pad_name);

  gst_pad_add_probe (pad, type, cb, data, NULL);
  gst_object_unref (pad);
}

/* ---- building ---- */

static void
set_encoder (GstElement * enc)
{
  /* version 3 comes with slices > 1 (ffv1enc.c encode_init), and with it
   * slice CRCs; one thread: SD keeps up on one core (docs/performance.md) */
  g_object_set (enc, "slices", 16, "gop-size", 1, NULL);
  gst_util_set_object_arg (G_OBJECT (enc), "threads", "1");
}

static void
set_caps (GstElement * capsfilter, const gchar * text)
{
  GstCaps *caps = gst_caps_from_string (text);

  g_object_set (capsfilter, "caps", caps, NULL);
  gst_caps_unref (caps);
}

static gboolean
build_capture_half (Capture * c, CapArchive * a, GError ** error)
{
  GstAppSinkCallbacks vcb = { 0 }, acb = { 0 };
  GstElement *conv, *caps, *level;
  gboolean floating;

  if (!(a->vsink = add (c, "appsink", "archive-vin", error)))
    return FALSE;
  g_object_set (a->vsink, "sync", FALSE, "async", FALSE, NULL);
  vcb.new_sample = video_sample;
  vcb.eos = video_eos;
  gst_app_sink_set_callbacks (GST_APP_SINK (a->vsink), &vcb, c, NULL);
  if (!gst_element_link (c->src, a->vsink))
    return FALSE;
  if (a->asrc == NULL)
    return TRUE;
  floating = g_object_is_floating (a->asrc);
  gst_bin_add (GST_BIN (c->pipeline), a->asrc);
  if (!floating)                /* opened once: ours, now the pipeline's */
    gst_object_unref (a->asrc);
  if (!(conv = add (c, "audioconvert", NULL, error))
      || !(caps = add (c, "capsfilter", NULL, error))
      || !(level = add (c, "level", "archive-level", error))
      || !(a->asink = add (c, "appsink", "archive-ain", error)))
    return FALSE;
  set_caps (caps, "audio/x-raw, format=(string){S16LE,S32LE}, "
      "layout=(string)interleaved");
  g_object_set (a->asink, "sync", FALSE, "async", FALSE, NULL);
  acb.new_sample = audio_sample;
  acb.eos = audio_eos;
  gst_app_sink_set_callbacks (GST_APP_SINK (a->asink), &acb, c, NULL);
  return gst_element_link_many (a->asrc, conv, caps, level, a->asink, NULL);
}

/* the access copy: H.264 + AAC in MP4 from the same frames and samples */
static gboolean
build_access (Capture * c, CapArchive * a, GstElement * vtee,
    GstElement * atee, GError ** error)
{
  GstElement *vq, *venc, *mux, *sink, *aq, *aconv, *aenc;

  if (!(vq = add (c, "queue", NULL, error))
      || !(venc = add (c, "x264enc", NULL, error))
      || !(mux = add (c, "mp4mux", NULL, error))
      || !(sink = add (c, "filesink", NULL, error)))
    return FALSE;
  gst_util_set_object_arg (G_OBJECT (venc), "speed-preset", "veryfast");
  g_object_set (vq, "max-size-time", (guint64) 0, "max-size-bytes", 0,
      "max-size-buffers", 0, NULL);
  g_object_set (sink, "location", c->access_copy, "async", FALSE, NULL);
  if (!gst_element_link_many (vtee, vq, venc, mux, NULL)
      || !gst_element_link (mux, sink))
    return FALSE;
  if (atee == NULL)
    return TRUE;
  if (!(aq = add (c, "queue", NULL, error))
      || !(aconv = add (c, "audioconvert", NULL, error))
      || !(aenc = add (c, "avenc_aac", NULL, error)))
    return FALSE;
  g_object_set (aq, "max-size-time", (guint64) 0, "max-size-bytes", 0,
      "max-size-buffers", 0, NULL);
  (void) a;
  return gst_element_link_many (atee, aq, aconv, aenc, mux, NULL);
}

static GstElement *
unbounded_queue (Capture * c, GError ** error)
{
  GstElement *q = add (c, "queue", NULL, error);

  if (q)
    g_object_set (q, "max-size-time", (guint64) 0, "max-size-bytes", 0,
        "max-size-buffers", 0, NULL);
  return q;
}

static gboolean
build_writing_half (Capture * c, CapArchive * a, GError ** error)
{
  GstElement *vq, *conv, *caps, *eq, *aq, *sink, *vtee = NULL, *atee = NULL;

  if (!(a->vsrc = add (c, "appsrc", "archive-video", error))
      || !(vq = add (c, "queue", NULL, error))
      || !(conv = add (c, "videoconvert", NULL, error))
      || !(caps = add (c, "capsfilter", NULL, error))
      || !(a->enc = add (c, "avenc_ffv1", NULL, error))
      || !(eq = unbounded_queue (c, error))
      || !(a->mux = add (c, "matroskamux", NULL, error))
      || !(sink = add (c, "filesink", "archive-file", error)))
    return FALSE;
  g_object_set (a->vsrc, "is-live", TRUE, "format", GST_FORMAT_TIME,
      "block", TRUE, "max-bytes", (guint64) VIDEO_BACKLOG_BYTES, NULL);
  set_caps (caps, "video/x-raw, format=(string){Y42B,I420,Y444}");
  set_encoder (a->enc);
  g_object_set (sink, "location", c->output, "async", FALSE, NULL);
  c->sink = sink;
  if (c->access_copy && !(vtee = add (c, "tee", NULL, error)))
    return FALSE;
  if (!gst_element_link_many (a->vsrc, vq, conv, caps, NULL)
      || (vtee && !gst_element_link (caps, vtee))
      || !gst_element_link_many (vtee ? vtee : caps, a->enc, eq, NULL)
      || !gst_element_link_pads (eq, "src", a->mux, "video_%u")
      || !gst_element_link (a->mux, sink))
    return FALSE;
  if (a->asrc) {
    if (!(a->aout = add (c, "appsrc", "archive-audio", error))
        || !(aq = unbounded_queue (c, error))
        || (c->access_copy && !(atee = add (c, "tee", NULL, error))))
      return FALSE;
    g_object_set (a->aout, "is-live", TRUE, "format", GST_FORMAT_TIME,
        "block", FALSE, "max-bytes", (guint64) 0, NULL);
    if (!gst_element_link (a->aout, atee ? atee : aq)
        || (atee && !gst_element_link (atee, aq))
        || !gst_element_link_pads (aq, "src", a->mux, "audio_%u"))
      return FALSE;
  }
  if (c->access_copy && !build_access (c, a, vtee, atee, error))
    return FALSE;
  probe (a->enc, "sink", GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, hash_frame, a);
  probe (sink, "sink", GST_PAD_PROBE_TYPE_BUFFER, count_bytes, c);
  return TRUE;
}

/* standard=auto (the default) on a node without standards (a webcam-like
 * dongle input) would be an error: keep the node's own then */
static void
check_standard (Capture * c)
{
  gchar **stds = NULL;

  if (g_strcmp0 (c->standard, "auto") != 0)
    return;
  if (gst_element_set_state (c->src, GST_STATE_READY) ==
      GST_STATE_CHANGE_FAILURE)
    return;                     /* the start says why */
  g_object_get (c->src, "standards", &stds, NULL);
  gst_element_set_state (c->src, GST_STATE_NULL);
  if (stds == NULL || stds[0] == NULL)
    g_object_set (c->src, "standard", NULL, NULL);
  g_strfreev (stds);
}

gboolean
cap_archive_build (Capture * c, GError ** error)
{
  CapArchive *a = c->archive;
  GstClock *clock = gst_system_clock_obtain ();

  check_standard (c);
  if (c->preview) {
    g_print (_("ivtv-capture: --preview: not on the archival path yet; "
            "recording without a preview\n"));
    c->preview = FALSE;
  }
  /* one clock for the card's frames and the audio's samples: the
   * monotonic clock the drivers stamp with (not an audio device's) */
  gst_pipeline_use_clock (GST_PIPELINE (c->pipeline), clock);
  gst_object_unref (clock);
  if (!c->no_audio && !(a->asrc = cap_archive_audio_source (c, a, error)))
    return FALSE;
  a->md5_path = g_strconcat (c->output, ".framemd5", NULL);
  if (!(a->md5 = cap_framemd5_open (a->md5_path, error)))
    return FALSE;
  if (!build_capture_half (c, a, error) || !build_writing_half (c, a, error)) {
    if (error && *error == NULL)
      g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
          _("cannot build the archival pipeline for %s"), c->device);
    return FALSE;
  }
  cap_archive_watch_start (c);
  return TRUE;
}

/* after the stop the encoder may still have a backlog (a slow machine):
 * the end is overdue only when nothing was written for 15 s */
static gboolean
eos_watch (gpointer data)
{
  Capture *c = data;
  CapArchive *a = c->archive;
  guint64 now = atomic_load (&c->bytes);

  if (c->got_eos || a == NULL)
    return G_SOURCE_REMOVE;
  if (now != a->bytes_at_stop) {
    a->bytes_at_stop = now;
    return G_SOURCE_CONTINUE;
  }
  cap_fail (c, CAP_EXIT_FAILED, N_("the recording did not finish within "
          "15 s of the stop (nothing written meanwhile); %s may be "
          "incomplete"),
      c->output);
  return G_SOURCE_REMOVE;
}

/* the end: EOS into the two capture sources only (the writing half's
 * appsrcs finish what they hold, then end) */
void
cap_archive_send_eos (Capture * c)
{
  c->archive->bytes_at_stop = atomic_load (&c->bytes);
  g_timeout_add_seconds (15, eos_watch, c);
  gst_element_send_event (c->src, gst_event_new_eos ());
  if (c->archive->asrc)
    gst_element_send_event (c->archive->asrc, gst_event_new_eos ());
}

void
cap_archive_end_audio (Capture * c)
{
  if (c->archive && c->archive->asrc)
    gst_element_send_event (c->archive->asrc, gst_event_new_eos ());
}

gboolean
cap_archive_message (Capture * c, GstMessage * msg)
{
  const GstStructure *s = gst_message_get_structure (msg);

  if (c->archive == NULL || s == NULL)
    return FALSE;
  if (gst_structure_has_name (s, "ivtvsrc-signal")
      && GST_MESSAGE_SRC (msg) == GST_OBJECT (c->src)) {
    gboolean present = TRUE, locked = TRUE;
    gchar *what;

    gst_structure_get_boolean (s, "present", &present);
    gst_structure_get_boolean (s, "locked", &locked);
    what = g_strdup_printf ("signal %s on '%s'", !present ? "none" :
        locked ? "present" : "no lock", gst_structure_get_string (s,
            "input") ? gst_structure_get_string (s, "input") : "?");
    cap_archive_add_watch_event (c, what);
    g_free (what);
    return FALSE;               /* pipeline.c's own handling goes on */
  }
  return cap_levels_message (&c->archive->levels, s);
}

void
cap_archive_free (Capture * c)
{
  CapArchive *a = c->archive;

  if (a == NULL)
    return;
  cap_archive_watch_stop (a);
  g_array_unref (a->watch_events);
  if (a->sync)
    cap_sync_free (a->sync);
  cap_framemd5_close (a->md5);
  cap_levels_clear (&a->levels);
  g_mutex_clear (&a->lock);
  g_free (a->role);
  g_free (a->siblings);
  g_free (a->alsa_device);
  g_free (a->audio_name);
  g_free (a->md5_path);
  g_free (a);
  c->archive = NULL;
}
