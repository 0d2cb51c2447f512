/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the capture session's run (see ivtvcapture.h), what lives from
 * the first buffer to the stop: the path and its fallback, the reader
 * thread (ivtvreaderthread.h) that owns the path once it is started and
 * drains it into the capture queue, the lost -> reconnect loop on its
 * side; the next buffer for create() from that queue (and the MPEG
 * sniffing of the first one); EOS (the encoder drain, or the end of the
 * reading); the queue's bounds.  It calls the opener and the format state,
 * never ivtvcapture.c. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvcapturepriv.h"
#include "ivtvdebug.h"
#include "ivtvcaps.h"
#include "ivtvencoder.h"
#include "ivtvdecorate.h"
#include "ivtvpriority.h"
#include "ivtvstream.h"

#include <gst/base/gstbasesrc.h>
#include <errno.h>

#define GST_CAT_DEFAULT ivtvsrc_debug

/* ---- the path ---- */

void
ivtv_capture_set_io_mode (IvtvCapture * cap, IvtvIoMode mode)
{
  g_mutex_lock (&cap->state_lock);
  cap->mode = mode;
  g_mutex_unlock (&cap->state_lock);
}

IvtvIoMode
ivtv_capture_get_io_mode (IvtvCapture * cap)
{
  IvtvIoMode mode;

  g_mutex_lock (&cap->state_lock);
  mode = cap->mode;
  g_mutex_unlock (&cap->state_lock);
  return mode;
}

/* Lock held. */
void
ivtv_capture_stop_path (IvtvCapture * cap)
{
  IvtvPath *path;

  g_mutex_lock (&cap->state_lock);
  path = cap->path;
  cap->path = NULL;
  g_mutex_unlock (&cap->state_lock);
  ivtv_path_free (path);
}

/* Start the path for the chosen mode; a streaming start that fails for
 * another reason than a lost device falls back to read() where the device
 * has it.  Lock held.  FALSE with *@error. */
gboolean
ivtv_capture_start_path (IvtvCapture * cap, IvtvError ** error)
{
  IvtvPathConfig cfg = { cap->element, &cap->dev, cap->poll,
    ivtv_capture_get_io_mode (cap), cap->frame_size ? cap->frame_size :
        cap->settings.blocksize, cap->extra_buffers, capture_timeout (cap),
    cap->settings.reconnect
  };
  IvtvPath *path = NULL;
  GError *err = NULL;

  if (ivtv_io_mode_is_streaming (cfg.mode)) {
    path = ivtv_stream_path_new (&cfg, &err);
    if (path == NULL && (err->code == IVTV_STREAM_ERROR_DEVICE
            || !ivtv_io_mode_can_fall_back (cap->settings.io_mode,
                cap->dev.device_caps))) {
      IVTV_ERROR (error, RESOURCE, SETTINGS, ("%s", err->message),
          ("io-mode %s", ivtv_io_mode_nick (cfg.mode)));
      g_clear_error (&err);
      return FALSE;
    }
    if (path == NULL) {
      GST_ELEMENT_INFO (cap->element, RESOURCE, SETTINGS,
          (_("%s streaming failed (%s); capturing with read() instead."),
              ivtv_io_mode_nick (cfg.mode), err->message), (NULL));
      g_clear_error (&err);
    }
  }
  if (path == NULL) {
    cfg.mode = IVTV_IO_RW;
    path = cap->kind == IVTV_NODE_VBI ? ivtv_vbi_path_new (&cfg, &cap->vbi,
        &err) : ivtv_read_path_new (&cfg, &err);
    if (path == NULL) {
      IVTV_ERROR (error, RESOURCE, NO_SPACE_LEFT, ("%s", err->message),
          (NULL));
      g_clear_error (&err);
      return FALSE;
    }
  }
  /* what the node's kind needs, on the reader thread with the path */
  if (cap->hm12_width)
    path = ivtv_hm12_path_wrap (path, cap->element, cap->hm12_width,
        cap->hm12_height);
  else if (cap->kind == IVTV_NODE_PCM)
    path = ivtv_pcm_path_wrap (path);
  g_mutex_lock (&cap->state_lock);
  cap->path = path;
  cap->mode = path->mode;
  g_mutex_unlock (&cap->state_lock);
  cap->read_block = cfg.blocksize;
  cap->state = IVTV_CAPTURE_RUNNING;
  return TRUE;
}

/* @pos: what was pushed before the device went away */
static void
post_reconnect (IvtvCapture * cap, const gchar * state,
    const IvtvPathPosition * pos)
{
  gst_element_post_message (cap->element,
      gst_message_new_element (GST_OBJECT (cap->element),
          gst_structure_new ("ivtvsrc-reconnect", "state", G_TYPE_STRING,
              state, "device", G_TYPE_STRING, cap->dev.path,
              "bytes", G_TYPE_UINT64, pos->bytes,
              "buffers", G_TYPE_UINT64, pos->buffers, NULL)));
}

/* The card came back making another MPEG stream than the caps say (a new
 * device starts with the driver's default stream type; a stream type
 * refused before is not in the settings): the negotiated one is set
 * again.  Lock held.  FALSE when the card refuses it. */
static gboolean
keep_stream_type (IvtvCapture * cap)
{
  gint want[IVTV_ENC_N_NAMED], current[IVTV_ENC_N_NAMED], i;
  gchar *warning = NULL;
  GError *err = NULL;
  gboolean ok;

  if (!cap->mpeg || cap->caps == NULL || cap->mpeg_stream_type < 0
      || ivtv_encoder_get_stream_type (&cap->dev) == cap->mpeg_stream_type)
    return TRUE;
  for (i = 0; i < IVTV_ENC_N_NAMED; i++)
    want[i] = IVTV_ENCODER_KEEP;
  want[IVTV_ENC_STREAM_TYPE] = cap->mpeg_stream_type;
  ok = ivtv_encoder_apply (&cap->dev, &cap->probe, want, NULL, current,
      &warning, &err);
  GST_INFO_OBJECT (cap->element, "%s came back with another stream type; "
      "setting %d again: %s", cap->dev.path, cap->mpeg_stream_type,
      ok ? "done" : err->message);
  g_free (warning);
  g_clear_error (&err);
  return ok;
}

/* Open the node again with the recipe and set it up as it was: what the
 * card is now (probe), the settings, the applied format with the same
 * frame size.  Lock held.  FALSE (closed again) when any step fails: why
 * in *@why (replaced each try). */
static gboolean
restore (IvtvCapture * cap, IvtvError ** why)
{
  GError *err = NULL;
  guint old_size = cap->frame_size;
  gboolean ok;

  g_clear_pointer (why, ivtv_error_free);
  cap->restore_error = why;     /* the settings' errors: data */

  ok = ivtv_capture_reopen (cap, TRUE, &err)
      && ivtv_priority_take (&cap->dev, cap->probe.card,
      cap->settings.record_priority, FALSE, &cap->prio_held,
      &err) && ivtv_capture_apply_settings (cap, IVTV_SETTING_ALL, FALSE)
      && keep_stream_type (cap)
      && (cap->caps == NULL || ivtv_capture_apply_format (cap, cap->caps));
  if (ok && cap->caps && cap->frame_size != old_size) {
    GST_WARNING_OBJECT (cap->element, "%s came back with frames of %u "
        "bytes, not %u", cap->dev.path, cap->frame_size, old_size);
    cap->frame_size = old_size;
    ok = FALSE;
  }
  cap->restore_error = NULL;
  if (!ok)
    ivtv_device_close (&cap->dev);
  GST_DEBUG_OBJECT (cap->element, "reopening: %s", ok ? "done" :
      err ? err->message : *why ? (*why)->text : "settings refused");
  g_clear_error (&err);
  return ok;
}

/* Wait until @t (monotonic us) in the poll, which watches no fd now:
 * FALSE when it is set flushing. */
static gboolean
sleep_until (IvtvCapture * cap, gint64 t)
{
  gint64 left;

  while ((left = t - g_get_monotonic_time ()) > 0)
    if (gst_poll_wait (cap->poll, left * GST_USECOND) < 0 && errno == EBUSY)
      return FALSE;
  return TRUE;
}

/* The device went away while the encoder drained for EOS (issue 28 item
 * 4): what was read is the end of the recording, which the user asked
 * for; the capture ends now (EOS) instead of waiting for the device and
 * reading a new stream.  Lock not held. */
static GstFlowReturn
lost_while_draining (IvtvCapture * cap, const IvtvPathPosition * before)
{
  gchar *size = g_format_size (before->bytes);

  GST_ELEMENT_WARNING (cap->element, RESOURCE, READ,
      (_("The device %s went away while the recording was ending, after %s: "
              "the recording ends there."), cap->dev.path, size),
      ("reconnect=true, draining; %" G_GUINT64_FORMAT " bytes",
          before->bytes));
  g_free (size);
  post_reconnect (cap, "lost", before);
  g_mutex_lock (&cap->lock);
  ivtv_capture_stop_path (cap);
  ivtv_device_close (&cap->dev);
  g_mutex_unlock (&cap->lock);
  return GST_FLOW_EOS;
}

GstFlowReturn
ivtv_capture_reconnect (IvtvCapture * cap, IvtvError ** error)
{
  IvtvError *why = NULL;
  IvtvPathPosition before;
  guint waited = 0, limit = MAX (60, 12 * capture_timeout (cap));
  gchar *path;
  gint64 t0 = g_get_monotonic_time ();
  GstFlowReturn ret = GST_FLOW_ERROR;
  gboolean draining;

  cap->path->funcs->get_position (cap->path, &before);
  g_mutex_lock (&cap->lock);
  draining = cap->state == IVTV_CAPTURE_DRAINING;
  g_mutex_unlock (&cap->lock);
  if (draining)
    return lost_while_draining (cap, &before);
  path = g_strdup (cap->dev.path);
  GST_ELEMENT_WARNING (cap->element, RESOURCE, READ,
      ("The device %s went away after %" G_GUINT64_FORMAT " bytes; waiting "
          "up to %u seconds for it to come back.", path, before.bytes,
          limit), ("reconnect=true"));
  post_reconnect (cap, "lost", &before);
  g_mutex_lock (&cap->lock);
  cap->state = IVTV_CAPTURE_LOST;
  ivtv_capture_stop_path (cap);
  ivtv_device_close (&cap->dev);
  g_mutex_unlock (&cap->lock);

  for (;;) {
    gboolean ok;

    /* an attempt a second */
    waited++;
    if (!sleep_until (cap, t0 + (gint64) waited * G_USEC_PER_SEC)) {
      ret = GST_FLOW_FLUSHING;
      break;
    }
    g_mutex_lock (&cap->lock);
    ok = restore (cap, &why);
    if (ok) {
      GST_ELEMENT_INFO (cap->element, RESOURCE, READ,
          (_("The device %s is back after %u seconds; capture resumes."),
              path, waited), (NULL));
      post_reconnect (cap, "restored", &before);
      ret = ivtv_capture_start_path (cap, error) ? GST_FLOW_OK :
          GST_FLOW_ERROR;
      if (ret == GST_FLOW_OK)
        cap->path->funcs->resume_from (cap->path, &before);
    }
    g_mutex_unlock (&cap->lock);
    if (ok)
      break;
    if (waited >= limit) {
      IVTV_ERROR (error, RESOURCE, NOT_FOUND,
          (_("The device %s went away and did not come back within %u "
              "seconds."), path, limit), ("reconnect=true%s%s",
              why ? "; the last try: " : "", why && why->text ? why->text :
              ""));
      break;
    }
  }
  ivtv_error_free (why);
  g_free (path);
  return ret;
}

/* ---- the reader thread and the queue ---- */

void
ivtv_capture_set_limits (IvtvCapture * cap, const IvtvReaderLimits * limits)
{
  g_mutex_lock (&cap->state_lock);
  cap->limits = *limits;
  if (cap->reader)
    ivtv_reader_thread_set_limits (cap->reader, limits);
  g_mutex_unlock (&cap->state_lock);
}

void
ivtv_capture_get_limits (IvtvCapture * cap, IvtvReaderLimits * limits)
{
  g_mutex_lock (&cap->state_lock);
  *limits = cap->limits;
  g_mutex_unlock (&cap->state_lock);
}

/* The first buffer of an MPEG stream without a stream-type control: what
 * it looks like decides the caps. */
static GstCaps *
sniff (IvtvCapture * cap, GstBuffer * buf)
{
  GstMapInfo map;
  gint type = IVTV_MPEG_STREAM_UNKNOWN;

  if (gst_buffer_map (buf, &map, GST_MAP_READ)) {
    type = ivtv_caps_sniff_mpeg (map.data, map.size);
    gst_buffer_unmap (buf, &map);
  }
  if (type == IVTV_MPEG_STREAM_UNKNOWN) {
    GST_WARNING_OBJECT (cap->element, "cannot tell the MPEG stream type; "
        "assuming a program stream");
    type = V4L2_MPEG_STREAM_TYPE_MPEG2_PS;
  }
  cap->mpeg_stream_type = type;
  cap->need_sniff = FALSE;
  GST_INFO_OBJECT (cap->element, "stream looks like a %s",
      ivtv_caps_mpeg_stream_type_name (type));
  return ivtv_caps_for_mpeg_stream_type (type);
}

/* read(): is more data waiting already, after the read that gave @buf?  A
 * small read asks the poll (it watches the device alone): the reader
 * paces those by it.  A big one does not (a syscall per buffer, issue 26):
 * an MPEG read that filled its whole block found a backlog, most likely;
 * a shorter one emptied the driver.  (The block is the path's, kept by
 * start_path: the blocksize setting may change meanwhile on another
 * thread.)  Reader thread. */
static gboolean
more_waiting (IvtvCapture * cap, GstBuffer * buf)
{
  gsize size = gst_buffer_get_size (buf);

  if (size < IVTV_READER_BIG_READ)
    return gst_poll_wait (cap->poll, 0) > 0;
  return cap->mpeg && cap->read_block > 0 && size >= cap->read_block;
}

/* The reader thread's produce (ivtvreaderthread.h): the path's next
 * buffer; a lost device is reconnected here. */
static GstFlowReturn
read_next (gpointer data, gboolean behind, GstBuffer ** buf, gboolean * more,
    IvtvError ** error)
{
  IvtvCapture *cap = data;
  GstFlowReturn ret;

  if (cap->path->funcs->set_behind)
    cap->path->funcs->set_behind (cap->path, behind);
  ret = ivtv_path_create (cap->path, buf, error);
  while (ret == IVTV_FLOW_DEVICE_LOST) {
    ret = ivtv_capture_reconnect (cap, error);
    if (ret == GST_FLOW_OK)
      ret = ivtv_path_create (cap->path, buf, error);
    if (ret == GST_FLOW_OK)     /* what was lost meanwhile is a gap */
      GST_BUFFER_FLAG_SET (*buf, GST_BUFFER_FLAG_DISCONT);
  }
  /* ours: we may stop it at the end.  Set under the lock, which the
   * drain and the pause read it under (this thread is its only writer
   * while it runs: the unlocked test is safe) */
  if (ret == GST_FLOW_OK && !cap->encoder_started) {
    g_mutex_lock (&cap->lock);
    cap->encoder_started = TRUE;
    g_mutex_unlock (&cap->lock);
  }
  if (ret == GST_FLOW_OK && cap->path->mode == IVTV_IO_RW)
    *more = more_waiting (cap, *buf);
  return ret;
}

/* The buffers the source will still push (GstBaseSrc's num-buffers,
 * counted down before each create(), this one included: we are in
 * create(), on the streaming thread that counts), -1 when unbounded. */
static gint64
num_buffers (IvtvCapture * cap)
{
  GstBaseSrc *src;

  if (cap->element == NULL || !GST_IS_BASE_SRC (cap->element))
    return -1;
  src = GST_BASE_SRC (cap->element);
  if (src->num_buffers < 0 || src->num_buffers_left < 0)
    return -1;
  return (gint64) src->num_buffers_left + 1;
}

/* The path and the reader thread that drains it into the queue.  FALSE:
 * flushing (*ret FLUSHING) or an error (*ret ERROR, *@error). */
#define IVTV_READ_PACE (80 * GST_MSECOND)

static gboolean
start_reading (IvtvCapture * cap, GstFlowReturn * ret, IvtvError ** error)
{
  gint64 max_buffers;
  gboolean ok = TRUE;
  GstClockTime pace = 0;

  if (cap->path == NULL) {
    if (cap->settings.wait_for_signal
        && !ivtv_signal_wait_present (&cap->signal, cap->poll)) {
      *ret = GST_FLOW_FLUSHING;
      return FALSE;
    }
    g_mutex_lock (&cap->lock);
    ok = ivtv_capture_start_path (cap, error);
    g_mutex_unlock (&cap->lock);
  }
  if (!ok) {
    *ret = GST_FLOW_ERROR;
    return FALSE;
  }
  /* an MPEG byte stream is read every IVTV_READ_PACE at most (data waits
   * no longer than the latency reported for it) */
  if (cap->path->mode == IVTV_IO_RW && cap->mpeg)
    pace = MIN (ivtv_capture_latency (cap, cap->settings.blocksize),
        IVTV_READ_PACE);
  max_buffers = num_buffers (cap);
  g_mutex_lock (&cap->state_lock);
  cap->limits.max_buffers = max_buffers;
  cap->reader = ivtv_reader_thread_start (cap->element, &cap->limits,
      ivtv_io_mode_is_streaming (cap->path->mode) || cap->hm12_width > 0,
      cap->mpeg, pace,
      &cap->signal, read_next, cap);
  if (cap->flushing)
    ivtv_reader_thread_set_flushing (cap->reader, TRUE);
  g_mutex_unlock (&cap->state_lock);
  return TRUE;
}

void
ivtv_capture_stop_reader (IvtvCapture * cap)
{
  IvtvReaderThread *reader;

  g_mutex_lock (&cap->state_lock);
  reader = cap->reader;
  cap->reader = NULL;
  if (reader && cap->poll)      /* wake the path's wait */
    gst_poll_set_flushing (cap->poll, TRUE);
  g_mutex_unlock (&cap->state_lock);
  if (reader == NULL)
    return;
  ivtv_reader_thread_stop (reader);
  g_mutex_lock (&cap->state_lock);
  if (cap->poll)
    gst_poll_set_flushing (cap->poll, cap->flushing);
  g_mutex_unlock (&cap->state_lock);
}

/* (the streaming thread, from create) the reader is stopped in this thread
 * (renegotiation) or once it has ended (stop), not meanwhile; the message
 * is posted without the lock, which a bus sync handler reading a property
 * would take */
void
ivtv_capture_last_buffer (IvtvCapture * cap)
{
  IvtvReaderThread *reader;

  g_mutex_lock (&cap->state_lock);
  reader = cap->reader;
  g_mutex_unlock (&cap->state_lock);
  if (reader)
    ivtv_reader_thread_post_final (reader);
}

GstFlowReturn
ivtv_capture_next (IvtvCapture * cap, GstBuffer ** buf, GstCaps ** sniffed,
    IvtvError ** error)
{
  GstFlowReturn ret;

  *sniffed = NULL;
  *error = NULL;
  if (cap->reader == NULL && !start_reading (cap, &ret, error))
    return ret;
  ret = ivtv_reader_thread_pop (cap->reader, buf, error);
  if (ret == GST_FLOW_OK && cap->need_sniff)
    *sniffed = sniff (cap, *buf);
  return ret;
}

/* EOS without an encoder to stop: the reader ends, create() hands out
 * what is queued, then EOS.  FALSE when nothing is being read. */
static gboolean
end_reading (IvtvCapture * cap)
{
  gboolean ending = FALSE;

  g_mutex_lock (&cap->state_lock);
  if (cap->reader) {
    ivtv_reader_thread_end (cap->reader);
    if (cap->poll)              /* wake the path's wait */
      gst_poll_set_flushing (cap->poll, TRUE);
    ending = TRUE;
  }
  g_mutex_unlock (&cap->state_lock);
  return ending;
}

/* Encoder drain on EOS: ENCODER_CMD STOP at the end of the GOP, the path
 * reads on until the driver ends the stream (IVTV_DRAIN_MAX_US).  A driver
 * without the command (pvrusb2) stops its encoder only when the file is
 * closed, and throws away what it holds then (pvrusb2-v4l2.c
 * pvr2_v4l2_release): the path reads what the driver holds at the EOS,
 * without waiting for more (ivtvread.c read_held), for at most
 * IVTV_HELD_DRAIN_MAX_US. */
#define IVTV_DRAIN_MAX_US (2 * G_USEC_PER_SEC)
#define IVTV_HELD_DRAIN_MAX_US (G_USEC_PER_SEC)

/* The path's IvtvPathStopFunc: ENCODER_CMD STOP at the end of the GOP,
 * and whether the driver drains (kept the flag) or stopped at once (issue
 * 23: hdpvr-video.c vidioc_encoder_cmd clears it; a read() after would
 * start a new stream).  Lock held. */
static IvtvStopResult
encoder_stop_now (gpointer data)
{
  IvtvCapture *cap = data;
  gboolean at_gop_end;

  if (!ivtv_encoder_stop_full (&cap->dev, &at_gop_end))
    return IVTV_STOP_REFUSED;
  return at_gop_end ? IVTV_STOP_DRAINS : IVTV_STOP_AT_ONCE;
}

gboolean
ivtv_capture_drain (IvtvCapture * cap)
{
  gboolean drain = FALSE;
  IvtvStopResult res;

  g_mutex_lock (&cap->lock);
  if (cap->state == IVTV_CAPTURE_DRAINING) {
    drain = TRUE;               /* already ending */
  } else if (cap->state == IVTV_CAPTURE_RUNNING && cap->mpeg
      && cap->encoder_started && cap->path && cap->path->mode == IVTV_IO_RW
      && ivtv_device_is_open (&cap->dev)) {
    /* no read() between the stop and what it says */
    res = cap->path->funcs->stop_encoder ?
        cap->path->funcs->stop_encoder (cap->path, encoder_stop_now, cap) :
        encoder_stop_now (cap);
    if (res == IVTV_STOP_DRAINS)
      drain = cap->path->funcs->drain (cap->path, IVTV_DRAIN_MAX_US);
    else if (res == IVTV_STOP_AT_ONCE)  /* the path ends with EOS now */
      drain = TRUE;
    else if (cap->path->funcs->stop_encoder)    /* it knows the refusal */
      drain = cap->path->funcs->drain (cap->path, IVTV_HELD_DRAIN_MAX_US);
    if (drain)
      cap->state = IVTV_CAPTURE_DRAINING;
  }
  g_mutex_unlock (&cap->lock);
  if (!drain)
    drain = end_reading (cap);
  return drain;
}
