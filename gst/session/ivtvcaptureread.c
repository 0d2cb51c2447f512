/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the capture session's reading (see ivtvcapture.h): the reader
 * thread (ivtvreaderthread.h) that owns the path once it is started and
 * drains it into the capture queue, with the reconnect loop on its side;
 * the next buffer for create() from that queue (and the MPEG sniffing of
 * the first one); EOS (the encoder drain, or the end of the reading); the
 * queue's bounds.  Open, start, stop and reconnect are ivtvcapture.c's. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvcapturepriv.h"
#include "ivtvdebug.h"
#include "ivtvcaps.h"
#include "ivtvencoder.h"
#include "ivtvhm12.h"
#include "ivtvpcm.h"

#define GST_CAT_DEFAULT ivtvsrc_debug

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

/* The reader thread's produce (ivtvreaderthread.h): the path's next
 * buffer; a lost device is reconnected here. */
static GstFlowReturn
produce (gpointer data, gboolean behind, GstBuffer ** buf, gboolean * more,
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
  if (ret == GST_FLOW_OK)       /* ours: we may stop it at the end */
    cap->encoder_started = TRUE;
  /* read(): is more waiting already (the poll watches the device alone)? */
  if (ret == GST_FLOW_OK && cap->path->mode == IVTV_IO_RW)
    *more = gst_poll_wait (cap->poll, 0) > 0;
  return ret;
}

/* The path and the reader thread that drains it into the queue.  FALSE:
 * flushing (*ret FLUSHING) or an error (*ret ERROR, *@error). */
#define IVTV_READ_PACE (80 * GST_MSECOND)

static gboolean
start_reading (IvtvCapture * cap, GstFlowReturn * ret, IvtvError ** error)
{
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
  g_mutex_lock (&cap->state_lock);
  cap->reader = ivtv_reader_thread_start (cap->element, &cap->limits,
      ivtv_io_mode_is_streaming (cap->path->mode), pace, &cap->signal,
      produce, cap);
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
  if (ret == GST_FLOW_OK && cap->hm12_width)
    *buf = ivtv_hm12_convert_buffer (*buf, cap->hm12_width, cap->hm12_height);
  if (ret == GST_FLOW_OK && ivtv_pcm_is_node (&cap->dev))
    ivtv_pcm_stamp_buffer (*buf);
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
 * reads on until the driver ends the stream (IVTV_DRAIN_MAX_US). */
#define IVTV_DRAIN_MAX_US (2 * G_USEC_PER_SEC)

gboolean
ivtv_capture_drain (IvtvCapture * cap)
{
  gboolean drain = FALSE;

  g_mutex_lock (&cap->lock);
  if (cap->state == IVTV_CAPTURE_DRAINING) {
    drain = TRUE;               /* already ending */
  } else if (cap->state == IVTV_CAPTURE_RUNNING && cap->mpeg
      && cap->encoder_started && cap->path && cap->path->mode == IVTV_IO_RW
      && ivtv_device_is_open (&cap->dev)
      && ivtv_encoder_stop (&cap->dev)) {
    drain = cap->path->funcs->drain (cap->path, IVTV_DRAIN_MAX_US);
    if (drain)
      cap->state = IVTV_CAPTURE_DRAINING;
  }
  g_mutex_unlock (&cap->lock);
  if (!drain)
    drain = end_reading (cap);
  return drain;
}
