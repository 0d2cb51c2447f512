/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the capture session across PAUSED (see ivtvcapture.h,
 * ivtv_capture_set_playing; issue 28 item 1): a pause does not splice a
 * live MPEG recording.
 *
 * A live source is not read in PAUSED, and an MPEG card goes on encoding
 * meanwhile: its driver's buffers fill (ivtv: 4 MB, ~5 s) and it throws
 * data away.  So, for a read() MPEG capture:
 *  - PLAYING -> PAUSED pauses the encoder where the driver can
 *    (VIDIOC_ENCODER_CMD PAUSE: ivtv and cx18, ivtv-ioctl.c
 *    ivtv_encoder_cmd, cx18-ioctl.c cx18_encoder_cmd): nothing is made
 *    while paused, and the recording goes on from there, as a VCR's pause;
 *    the path's stall watchdog rests meanwhile (no data is due);
 *  - where it cannot (hdpvr: EINVAL, pvrusb2: ENOTTY), nothing is paused
 *    and the reader thread reads on into the capture queue (bounded by
 *    max-buffer-bytes / max-buffer-time: what does not fit is the queue's
 *    loss, counted and warned about; nothing is lost in the driver);
 *  - either way the reader reads on what the driver holds, stamped with
 *    the running time at the pause (it stands still in PAUSED,
 *    ivtvreaderthread.h), and create() hands it out in PLAYING;
 *  - PAUSED -> PLAYING resumes the encoder.
 * Before any stop of the encoder (EOS drain, PAUSED -> READY) a paused
 * encoder is resumed: a STOP at the end of the GOP waits for a GOP end
 * that a paused encoder never makes (ivtv-streams.c
 * ivtv_stop_v4l2_encode_stream waits 2 s for the EOS interrupt), and ivtv
 * clears IVTV_F_I_ENC_PAUSED and unmutes the audio on RESUME only. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvcapturepriv.h"
#include "ivtvdebug.h"
#include "ivtvencoder.h"

#include <errno.h>

#define GST_CAT_DEFAULT ivtvsrc_debug

/* The running path's stall watchdog (a timeout set counts from then on,
 * ivtvpath.h).  Lock held. */
static void
set_stall_timeout (IvtvCapture * cap, guint seconds)
{
  g_mutex_lock (&cap->state_lock);
  if (cap->path)
    cap->path->funcs->set_timeout (cap->path, seconds);
  g_mutex_unlock (&cap->state_lock);
}

static void
set_read_paused (IvtvCapture * cap, gboolean read)
{
  g_mutex_lock (&cap->state_lock);
  if (cap->reader)
    ivtv_reader_thread_set_read_paused (cap->reader, read);
  g_mutex_unlock (&cap->state_lock);
}

/* A read() MPEG capture (an encoder that makes data whether we read or
 * not).  Lock held. */
static gboolean
is_mpeg_read (IvtvCapture * cap)
{
  return cap->mpeg && cap->path != NULL && cap->path->mode == IVTV_IO_RW;
}

/* Lock held. */
static void
pause_encoder (IvtvCapture * cap)
{
  gint ret;

  if (cap->encoder_paused || cap->state != IVTV_CAPTURE_RUNNING
      || !cap->encoder_started || !is_mpeg_read (cap)
      || !ivtv_device_is_open (&cap->dev))
    return;
  ret = ivtv_encoder_pause (&cap->dev, TRUE);
  if (ret == 0) {
    cap->encoder_paused = TRUE;
    set_stall_timeout (cap, 0);
    GST_INFO_OBJECT (cap->element, "PAUSED: the encoder of %s is paused "
        "until PLAYING", cap->dev.path);
  } else {
    GST_INFO_OBJECT (cap->element, "PAUSED: %s cannot pause its encoder "
        "(%s): reading on into the queue", cap->dev.path, g_strerror (-ret));
  }
}

void
ivtv_capture_resume_encoder (IvtvCapture * cap)
{
  gint ret;

  if (!cap->encoder_paused)
    return;
  cap->encoder_paused = FALSE;
  if (!ivtv_device_is_open (&cap->dev))
    return;
  ret = ivtv_encoder_pause (&cap->dev, FALSE);
  set_stall_timeout (cap, capture_timeout (cap));
  /* the firmware's SCR may have run on while paused (cx2341x: not
   * documented; the emulator's does not): no loss to report there */
  g_mutex_lock (&cap->state_lock);
  if (cap->reader)
    ivtv_reader_thread_restart_clock (cap->reader);
  g_mutex_unlock (&cap->state_lock);
  /* EPERM: not capturing (a new stream after a reconnect was never
   * paused) */
  if (ret < 0 && ret != -EPERM)
    GST_ELEMENT_WARNING (cap->element, RESOURCE, SETTINGS,
        (_("Could not resume the MPEG encoder of %s after the pause (%s): "
                "the recording may not go on."), cap->dev.path,
            g_strerror (-ret)), ("VIDIOC_ENCODER_CMD RESUME"));
  else
    GST_INFO_OBJECT (cap->element, "the encoder of %s resumes",
        cap->dev.path);
}

void
ivtv_capture_set_playing (IvtvCapture * cap, gboolean playing)
{
  gboolean read;

  g_mutex_lock (&cap->lock);
  if (playing)
    ivtv_capture_resume_encoder (cap);
  else
    pause_encoder (cap);
  read = !playing && is_mpeg_read (cap);
  g_mutex_unlock (&cap->lock);
  set_read_paused (cap, read);
}

void
ivtv_capture_end_pause (IvtvCapture * cap)
{
  gboolean read;

  g_mutex_lock (&cap->lock);
  ivtv_capture_resume_encoder (cap);
  read = is_mpeg_read (cap);
  g_mutex_unlock (&cap->lock);
  /* the rest of the stream is read even while PAUSED: the drain's time
   * is not spent waiting for PLAYING (the driver frees what is unread at
   * the end) */
  if (read)
    set_read_paused (cap, TRUE);
}
