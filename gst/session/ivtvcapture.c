/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the capture session (see ivtvcapture.h): new/free, start,
 * stop, the one choice of the I/O method, live changes and a new format,
 * flushing.  It ties the three parts together, each of one lifetime:
 * the opener (ivtvcaptureopen.c: recipe, card, settings), the format
 * state (ivtvcaptureformat.c) and the run (ivtvcaptureread.c: path,
 * reader thread, reconnect, drain); stop resumes a paused encoder first
 * (ivtvcapturepause.c).  They never call this file. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvcapturepriv.h"
#include "ivtvdebug.h"
#include "ivtvencoder.h"
#include "ivtvpriority.h"
#include "ivtvstream.h"

#include <errno.h>
#include <poll.h>
#include <string.h>

#define GST_CAT_DEFAULT ivtvsrc_debug

IvtvCapture *
ivtv_capture_new (GstElement * element)
{
  IvtvCapture *cap = g_new0 (IvtvCapture, 1);

  cap->element = element;
  g_mutex_init (&cap->lock);
  g_mutex_init (&cap->state_lock);
  ivtv_device_init (&cap->dev, GST_OBJECT (element));
  ivtv_probe_init (&cap->probe);
  ivtv_signal_init (&cap->signal);
  ivtv_capture_settings_init (&cap->settings);
  cap->recipe_fd = -1;
  cap->mode = IVTV_IO_AUTO;
  cap->mpeg_stream_type = -1;
  cap->limits.max_bytes = IVTV_DEFAULT_MAX_BUFFER_BYTES;
  cap->limits.max_time = IVTV_DEFAULT_MAX_BUFFER_TIME;
  cap->limits.stats_interval = IVTV_DEFAULT_STATS_INTERVAL;
  return cap;
}

void
ivtv_capture_free (IvtvCapture * cap)
{
  ivtv_vbi_forget_holder (&cap->dev);
  ivtv_signal_clear (&cap->signal);
  ivtv_probe_clear (&cap->probe);
  ivtv_device_clear (&cap->dev);
  ivtv_capture_settings_clear (&cap->settings);
  gst_clear_caps (&cap->caps);
  g_free (cap->recipe_path);
  g_free (cap->node);
  g_mutex_clear (&cap->lock);
  g_mutex_clear (&cap->state_lock);
  g_free (cap);
}

void
ivtv_capture_lock (IvtvCapture * cap)
{
  g_mutex_lock (&cap->lock);
}

void
ivtv_capture_unlock (IvtvCapture * cap)
{
  g_mutex_unlock (&cap->lock);
}

IvtvDevice *
ivtv_capture_device (IvtvCapture * cap)
{
  return &cap->dev;
}

IvtvProbe *
ivtv_capture_probe (IvtvCapture * cap)
{
  return &cap->probe;
}

/* ---- start, stop ---- */

/* The one choice of the I/O method (the fallback to read() is
 * start_path's).  Lock held. */
static gboolean
choose_io_mode (IvtvCapture * cap)
{
  GError *err = NULL;
  IvtvIoMode chosen;
  guint modes;

  if (cap->kind == IVTV_NODE_VBI) {    /* read(); set up at start */
    ivtv_capture_set_io_mode (cap, IVTV_IO_RW);
    return TRUE;
  }
  modes = ivtv_stream_probe_modes (&cap->dev);
  if (!ivtv_io_mode_choose (cap->settings.io_mode, cap->dev.device_caps,
          modes, cap->dev.path, &chosen, &err)) {
    GST_ELEMENT_ERROR (cap->element, RESOURCE, SETTINGS, ("%s",
            err->message), ("device caps 0x%08x", cap->dev.device_caps));
    g_clear_error (&err);
    return FALSE;
  }
  ivtv_capture_set_io_mode (cap, chosen);
  GST_INFO_OBJECT (cap->element, "io-mode %s: using %s",
      ivtv_io_mode_nick (cap->settings.io_mode), ivtv_io_mode_nick (chosen));
  return TRUE;
}

gboolean
ivtv_capture_start (IvtvCapture * cap, const IvtvCaptureSettings * settings)
{
  g_mutex_lock (&cap->lock);
  if (!ivtv_device_is_open (&cap->dev)) {
    g_mutex_unlock (&cap->lock);
    GST_ELEMENT_ERROR (cap->element, RESOURCE, OPEN_READ,
        (_("The device is not open.")), (NULL));
    return FALSE;
  }
  ivtv_capture_settings_clear (&cap->settings);
  ivtv_capture_settings_copy (&cap->settings, settings);
  /* nothing is set on a card that is not ours or cannot capture so */
  if (!ivtv_capture_take_card (cap) || !choose_io_mode (cap)
      || !ivtv_capture_apply_settings (cap, IVTV_SETTING_ALL, FALSE)
      || (cap->kind == IVTV_NODE_VBI && !ivtv_vbi_setup (&cap->dev,
              cap->element, &cap->settings.vbi, &cap->vbi))) {
    ivtv_vbi_forget_holder (&cap->dev);
    ivtv_priority_release (&cap->dev, &cap->prio_held);
    ivtv_capture_set_io_mode (cap, IVTV_IO_AUTO);
    g_mutex_unlock (&cap->lock);
    return FALSE;
  }
  if (cap->kind == IVTV_NODE_VBI)       /* set up: reading needs no priority */
    ivtv_priority_release (&cap->dev, &cap->prio_held);
  ivtv_probe_inputs (&cap->probe, &cap->dev);   /* fresh signal status */
  ivtv_capture_reprobe_formats (cap);   /* the caps of this input */
  ivtv_capture_check_lock (cap);
  cap->mpeg_stream_type = ivtv_encoder_get_stream_type (&cap->dev);
  g_mutex_lock (&cap->state_lock);
  cap->poll = gst_poll_new (TRUE);
  g_mutex_unlock (&cap->state_lock);
  cap->need_sniff = FALSE;
  cap->state = IVTV_CAPTURE_STARTED;
  g_mutex_unlock (&cap->lock);

  /* it takes the lock for its first check */
  cap->signal.holding = settings->wait_for_signal;
  ivtv_signal_start (&cap->signal, cap->element, &cap->dev, &cap->probe,
      &cap->lock, settings->signal_timeout);
  return TRUE;
}

gboolean
ivtv_capture_is_capturing (IvtvCapture * cap)
{
  return cap->state != IVTV_CAPTURE_STOPPED;
}

gboolean
ivtv_capture_refuse_device_change (IvtvCapture * cap, const gchar * property)
{
  gchar *path;

  if (cap->state == IVTV_CAPTURE_STOPPED)
    return FALSE;
  g_mutex_lock (&cap->lock);
  path = g_strdup (cap->dev.path);
  g_mutex_unlock (&cap->lock);
  GST_ELEMENT_WARNING (cap->element, RESOURCE, SETTINGS,
      (_("'%s' cannot change while capturing from %s: the capture goes on "
          "from %s. Stop the pipeline (NULL state) to change the device."),
          property, path ? path : "the device", path ? path : "it"),
      ("set while capturing; refused"));
  g_free (path);
  return TRUE;
}

/* At most this much of a stopped stream's tail is read away, and reading
 * gives up after this many 100 ms polls without data. */
#define IVTV_DRAIN_MAX_BYTES (8 * 1024 * 1024)
#define IVTV_DRAIN_IDLE_POLLS 20

/* An application's fd (issue 28): its open file outlives our dup, so the
 * stream our STOP ended at its GOP end stays in it, and the next start
 * would read that tail and then its end (ivtv_v4l2_read gives 0 once,
 * IVTV_F_S_STREAMOFF, ivtv-fileops.c).  Read it to that end here, bounded,
 * so the next start begins a fresh stream.  Lock held. */
static void
drain_stopped_stream (IvtvCapture * cap)
{
  gsize size = 65536, total = 0;
  guint8 *buf = g_malloc (size);
  guint idle = 0;
  gboolean ended = FALSE;

  while (!ended && total < IVTV_DRAIN_MAX_BYTES
      && idle < IVTV_DRAIN_IDLE_POLLS) {
    struct pollfd pfd = { cap->dev.fd, POLLIN, 0 };
    gssize n;

    if (poll (&pfd, 1, 100) <= 0) {
      idle++;
      continue;
    }
    n = ivtv_device_read (&cap->dev, buf, size);
    if (n == -EAGAIN || n == -EINTR)
      idle++;
    else if (n <= 0)
      ended = TRUE;
    else
      total += (gsize) n;
  }
  GST_DEBUG_OBJECT (cap->element, "%s: the stopped stream's last %"
      G_GSIZE_FORMAT " bytes read away, %s", cap->dev.path, total,
      ended ? "to its end" : "gave up before its end");
  g_free (buf);
}

void
ivtv_capture_stop (IvtvCapture * cap)
{
  GstPoll *poll;

  ivtv_capture_stop_reader (cap);
  ivtv_signal_stop (&cap->signal);      /* it takes the lock */
  g_mutex_lock (&cap->lock);
  cap->state = IVTV_CAPTURE_STOPPED;
  ivtv_capture_stop_path (cap);
  ivtv_vbi_forget_holder (&cap->dev);
  ivtv_priority_release (&cap->dev, &cap->prio_held);
  /* never stop an encoder another program started */
  if (ivtv_device_is_open (&cap->dev) && cap->mpeg && cap->encoder_started) {
    GError *err = NULL;
    gboolean at_gop_end;

    /* paused (PAUSED -> READY): resumed first, or the STOP at the GOP end
     * would wait for a GOP end that never comes (ivtvcapturepause.c) */
    ivtv_capture_resume_encoder (cap);
    /* an adopted fd's open file is the application's: the encoder our
     * reads started may run on in it, ours at the next start (issue 28) */
    if (ivtv_encoder_stop_full (&cap->dev, &at_gop_end) && at_gop_end
        && cap->recipe_fd >= 0)
      drain_stopped_stream (cap);
    cap->encoder_on_app_fd = cap->recipe_fd >= 0;
    /* a fresh descriptor: the driver forgets the stopped stream, the next
     * start begins a new one (an adopted fd is the application's) */
    if (cap->recipe_fd < 0 && !ivtv_capture_reopen (cap, FALSE, &err)) {
      GST_WARNING_OBJECT (cap->element, "reopening %s failed: %s",
          cap->recipe_path, err->message);
      g_clear_error (&err);
    }
  }
  g_mutex_lock (&cap->state_lock);
  poll = cap->poll;
  cap->poll = NULL;
  cap->mode = IVTV_IO_AUTO;
  g_mutex_unlock (&cap->state_lock);
  if (poll)
    gst_poll_free (poll);
  cap->mpeg = FALSE;
  cap->need_sniff = FALSE;
  cap->encoder_started = FALSE;
  cap->encoder_paused = FALSE;
  gst_clear_caps (&cap->caps);  /* the next capture negotiates again */
  g_mutex_unlock (&cap->lock);
}

void
ivtv_capture_set_flushing (IvtvCapture * cap, gboolean flushing)
{
  g_mutex_lock (&cap->state_lock);
  cap->flushing = flushing;
  if (cap->poll)
    gst_poll_set_flushing (cap->poll, flushing);
  if (cap->reader)
    ivtv_reader_thread_set_flushing (cap->reader, flushing);
  g_mutex_unlock (&cap->state_lock);
}

void
ivtv_capture_set_timeout (IvtvCapture * cap, guint seconds)
{
  g_mutex_lock (&cap->state_lock);
  g_atomic_int_set ((gint *) & cap->settings.timeout, (gint) seconds);
  if (cap->path)
    cap->path->funcs->set_timeout (cap->path, seconds);
  g_mutex_unlock (&cap->state_lock);
}

/* ---- live changes, a new format ---- */

/* Is the current input the tuner (after a switch)? */
static gboolean
on_tuner (IvtvCapture * cap)
{
  const IvtvInput *in = cap->probe.current_input < 0 ? NULL :
      ivtv_probe_find_input (&cap->probe, cap->probe.current_input);

  return in && in->type == V4L2_INPUT_TYPE_TUNER;
}

gboolean
ivtv_capture_update (IvtvCapture * cap, IvtvCaptureSettings * settings,
    IvtvSettingMask what, IvtvSettingMask * refused)
{
  gboolean renegotiate = FALSE;

  IvtvCaptureSettings old;

  g_mutex_lock (&cap->lock);
  cap->refused = 0;
  if (ivtv_device_is_open (&cap->dev) && cap->state != IVTV_CAPTURE_STOPPED) {
    old = cap->settings;
    ivtv_capture_settings_copy (&cap->settings, settings);
    ivtv_capture_apply_settings (cap, what, TRUE);
    /* a switch to the tuner tunes to the frequency set before */
    if ((what & IVTV_SETTING_INPUT) && !cap->refused && on_tuner (cap))
      ivtv_capture_apply_settings (cap, IVTV_SETTING_FREQUENCY, TRUE);
    if (what & (IVTV_SETTING_INPUT | IVTV_SETTING_STANDARD))
      renegotiate = ivtv_capture_reprobe_formats (cap);
    /* what was refused keeps its old value (a reconnect applies it) */
    ivtv_capture_settings_restore (&cap->settings, &old, cap->refused);
    ivtv_capture_settings_restore (settings, &old, cap->refused);
    ivtv_capture_settings_clear (&old);
  }
  *refused = cap->refused;
  g_mutex_unlock (&cap->lock);
  return renegotiate;
}

gboolean
ivtv_capture_set_format (IvtvCapture * cap, GstCaps * caps)
{
  gboolean ok, restart;

  g_mutex_lock (&cap->lock);
  restart = cap->path && !cap->need_sniff && !cap->mpeg;
  g_mutex_unlock (&cap->lock);
  if (restart)                  /* renegotiation: restart */
    ivtv_capture_stop_reader (cap);
  g_mutex_lock (&cap->lock);
  if (restart && cap->path) {
    ivtv_capture_stop_path (cap);
    cap->state = IVTV_CAPTURE_STARTED;
  }
  ok = ivtv_capture_apply_format (cap, caps);
  gst_caps_replace (&cap->caps, caps);
  g_mutex_unlock (&cap->lock);
  return ok;
}
