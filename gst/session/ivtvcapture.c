/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the capture session (see ivtvcapture.h): open/reopen, start,
 * stop, the path and its fallback, reconnect.  Settings and format are
 * ivtvcapturesetup.c's; the reader thread, the next buffer and drain
 * ivtvcaptureread.c's. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvcapturepriv.h"
#include "ivtvdebug.h"
#include "ivtvcaps.h"
#include "ivtvencoder.h"
#include "ivtvpriority.h"
#include "ivtvstream.h"

#include <errno.h>
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

/* ---- the open recipe ---- */

/* The node behind an adopted fd, to reopen it by path when the fd died
 * with the device (reconnect).  NULL when it is not a /dev node. */
static gchar *
node_of_fd (gint fd)
{
  gchar link[64], *target;

  g_snprintf (link, sizeof (link), "/proc/self/fd/%d", fd);
  target = g_file_read_link (link, NULL);
  if (target && !g_str_has_prefix (target, "/dev/"))
    g_clear_pointer (&target, g_free);
  return target;
}

/* A node that is the same card as the one first opened (driver, card and
 * bus info of QUERYCAP): where an unplugged device came back when its
 * adopted fd died and /proc does not name its node.  NULL if none. */
#define SAME_FIELD(a, b, f) \
  (strncmp ((const char *) (a)->f, (const char *) (b)->f, sizeof ((a)->f)) == 0)

static gchar *
find_same_card (IvtvCapture * cap)
{
  IvtvDevice probe_dev;
  gchar *found = NULL;
  guint i;

  ivtv_device_init (&probe_dev, NULL);
  for (i = 0; i < 64 && found == NULL; i++) {
    gchar *path = g_strdup_printf ("/dev/video%u", i);

    if (ivtv_device_open (&probe_dev, path, TRUE, NULL)
        && SAME_FIELD (&probe_dev.cap, &cap->identity, driver)
        && SAME_FIELD (&probe_dev.cap, &cap->identity, card)
        && SAME_FIELD (&probe_dev.cap, &cap->identity, bus_info))
      found = g_strdup (path);
    ivtv_device_close (&probe_dev);
    g_free (path);
  }
  ivtv_device_clear (&probe_dev);
  return found;
}

/* Open the node as the recipe says: the application's fd (dup) or the
 * path; an adopted fd that no longer works (the device went away and came
 * back) is replaced by its node, or by the node of the same card.
 * libv4l2 when the recipe chose it at the first open.  Lock held. */
static gboolean
open_node (IvtvCapture * cap, GError ** error)
{
  gboolean ok;

  if (cap->recipe_fd >= 0) {
    ok = ivtv_device_adopt_fd (&cap->dev, cap->recipe_fd, error);
    if (!ok && cap->identity.driver[0]) {
      gchar *node = cap->node ? g_strdup (cap->node) : find_same_card (cap);

      GST_DEBUG ("fd %d: %s; opening %s", cap->recipe_fd,
          (*error)->message, node ? node : "(no node of the same card)");
      if (node) {
        g_clear_error (error);
        ok = ivtv_device_open (&cap->dev, node, TRUE, error);
      }
      g_free (node);
    }
  } else {
    ok = ivtv_device_open (&cap->dev, cap->recipe_path, TRUE, error);
  }
  if (ok && cap->via_libv4l2 && !ivtv_device_use_libv4l2 (&cap->dev, 0))
    GST_WARNING ("libv4l2 refused %s this time", cap->dev.path);
  return ok;
}

/* Close and open again with the recipe; @reprobe: the device may be a new
 * one (reconnect), ask it what it is now.  Lock held.  FALSE (closed). */
gboolean
ivtv_capture_reopen (IvtvCapture * cap, gboolean reprobe, GError ** error)
{
  ivtv_device_close (&cap->dev);
  cap->prio_held = FALSE;       /* it went with the descriptor */
  if (!open_node (cap, error))
    return FALSE;
  if (reprobe) {
    ivtv_probe_clear (&cap->probe);
    if (!ivtv_probe_run (&cap->probe, &cap->dev, error)) {
      ivtv_device_close (&cap->dev);
      return FALSE;
    }
  }
  return TRUE;
}

/* READY -> PAUSED after the device went away (the pipeline went back to
 * READY after the error): open it again with the recipe, a new device
 * maybe, once it is back.  Lock held.  FALSE after posting the error. */
gboolean
ivtv_capture_ensure_open (IvtvCapture * cap)
{
  struct v4l2_capability qc;
  GError *err = NULL;
  int ret = ivtv_device_is_open (&cap->dev) ?
      ivtv_ioctl (&cap->dev, VIDIOC_QUERYCAP, &qc) : -ENODEV;

  if (ret != -ENODEV && ret != -ENXIO)
    return TRUE;
  GST_INFO_OBJECT (cap->element, "the device went away: opening it again");
  if (ivtv_capture_reopen (cap, TRUE, &err))
    return TRUE;
  GST_ELEMENT_ERROR (cap->element, RESOURCE, NOT_FOUND, ("%s",
          err->message), ("opening the device again after it went away"));
  g_clear_error (&err);
  return FALSE;
}

/* libv4l2 when asked, or (auto) for a streaming device none of whose
 * formats GStreamer knows (it converts them to RGB/YUV).  FALSE with
 * @error when use-libv4l2=on in a build without libv4l2. */
static gboolean
choose_libv4l2 (IvtvCapture * cap, IvtvLibv4l2Mode mode, GError ** error)
{
  gboolean want = mode == IVTV_LIBV4L2_ON;
  guint i;

  if (mode == IVTV_LIBV4L2_ON && !HAVE_LIBV4L2) {
    g_set_error (error, IVTV_DEVICE_ERROR, IVTV_DEVICE_ERROR_FAILED,
        _("This ivtvsrc was built without libv4l2 (meson option libv4l2), so "
        "use-libv4l2=on is not possible for %s; use use-libv4l2=auto or off."),
        cap->dev.path);
    return FALSE;
  }
  if (mode == IVTV_LIBV4L2_AUTO
      && ivtv_device_has_cap (&cap->dev, V4L2_CAP_STREAMING)
      && cap->probe.n_formats > 0) {
    want = TRUE;
    for (i = 0; i < cap->probe.n_formats; i++)
      if (ivtv_caps_lookup_fourcc (cap->probe.formats[i].pixelformat))
        want = FALSE;
  }
  if (!want)
    return TRUE;
  cap->via_libv4l2 = ivtv_device_use_libv4l2 (&cap->dev, 0);
  if (cap->via_libv4l2)
    ivtv_probe_formats (&cap->probe, &cap->dev);        /* + emulated ones */
  else if (mode == IVTV_LIBV4L2_ON && cap->element)
    GST_ELEMENT_WARNING (cap->element, RESOURCE, SETTINGS,
        (_("libv4l2 could not be used for %s; using the device directly."),
            cap->dev.path), (NULL));
  return TRUE;
}

gboolean
ivtv_capture_open (IvtvCapture * cap, const IvtvOpenRecipe * recipe,
    GError ** error)
{
  gboolean ok;

  g_mutex_lock (&cap->lock);
  g_free (cap->recipe_path);
  g_free (cap->node);
  cap->recipe_path = g_strdup (recipe->path);
  cap->recipe_fd = recipe->fd;
  cap->node = recipe->fd >= 0 ? node_of_fd (recipe->fd) : NULL;
  cap->via_libv4l2 = FALSE;
  memset (&cap->identity, 0, sizeof (cap->identity));
  ok = open_node (cap, error) && ivtv_probe_run (&cap->probe, &cap->dev,
      error) && choose_libv4l2 (cap, recipe->libv4l2, error);
  if (ok)
    cap->identity = cap->dev.cap;
  if (!ok) {
    ivtv_probe_clear (&cap->probe);
    ivtv_device_close (&cap->dev);
  } else {
    GST_INFO ("opened %s: '%s' (driver %s), %u inputs, %u standards, %u "
        "formats", cap->dev.path, cap->probe.card, cap->probe.driver,
        cap->probe.n_inputs, cap->probe.n_stds, cap->probe.n_formats);
  }
  g_mutex_unlock (&cap->lock);
  return ok;
}

void
ivtv_capture_close (IvtvCapture * cap)
{
  g_mutex_lock (&cap->lock);
  ivtv_vbi_forget_holder (&cap->dev);
  ivtv_probe_clear (&cap->probe);
  ivtv_device_close (&cap->dev);
  g_mutex_unlock (&cap->lock);
}

/* ---- start, stop ---- */

static void
set_mode (IvtvCapture * cap, IvtvIoMode mode)
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

/* The one choice of the I/O method (the fallback to read() is
 * start_path's).  Lock held. */
static gboolean
choose_io_mode (IvtvCapture * cap)
{
  GError *err = NULL;
  IvtvIoMode chosen;
  guint modes;

  if (ivtv_vbi_node (&cap->dev)) {      /* read(); set up at start */
    set_mode (cap, IVTV_IO_RW);
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
  set_mode (cap, chosen);
  GST_INFO_OBJECT (cap->element, "io-mode %s: using %s",
      ivtv_io_mode_nick (cap->settings.io_mode), ivtv_io_mode_nick (chosen));
  return TRUE;
}

/* The card is ours before any setting is touched (ivtvpriority.h): FALSE
 * after posting the one busy error.  Lock held. */
gboolean
ivtv_capture_take_card (IvtvCapture * cap)
{
  GError *err = NULL;

  if (ivtv_vbi_node (&cap->dev))        /* with the card's video capture */
    return ivtv_vbi_take_card (&cap->dev, &cap->prio_held);
  if (ivtv_priority_take (&cap->dev, cap->probe.card,
          cap->settings.record_priority, &cap->prio_held, &err)) {
    ivtv_vbi_note_holder (&cap->dev, cap->prio_held);
    return TRUE;
  }
  GST_ELEMENT_ERROR (cap->element, RESOURCE, BUSY, ("%s", err->message),
      ("device %s: nothing was set", cap->dev.path));
  g_clear_error (&err);
  return FALSE;
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
      || (ivtv_vbi_node (&cap->dev) && !ivtv_vbi_setup (&cap->dev,
              cap->element, &cap->settings.vbi, &cap->vbi))) {
    ivtv_vbi_forget_holder (&cap->dev);
    ivtv_priority_release (&cap->dev, &cap->prio_held);
    set_mode (cap, IVTV_IO_AUTO);
    g_mutex_unlock (&cap->lock);
    return FALSE;
  }
  if (ivtv_vbi_node (&cap->dev))        /* set up: reading needs no priority */
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
  ivtv_signal_start (&cap->signal, cap->element, &cap->dev, &cap->lock,
      settings->signal_timeout);
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

    ivtv_encoder_stop (&cap->dev);
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
  cap->settings.timeout = seconds;
  if (cap->path)
    cap->path->funcs->set_timeout (cap->path, seconds);
  g_mutex_unlock (&cap->state_lock);
}

/* ---- the path ---- */

/* Start the path for the chosen mode; a streaming start that fails for
 * another reason than a lost device falls back to read() where the device
 * has it.  Lock held.  FALSE with *@error. */
gboolean
ivtv_capture_start_path (IvtvCapture * cap, IvtvError ** error)
{
  IvtvPathConfig cfg = { cap->element, &cap->dev, cap->poll,
    ivtv_capture_get_io_mode (cap), cap->frame_size ? cap->frame_size :
        cap->settings.blocksize, cap->extra_buffers, cap->settings.timeout,
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
    path = ivtv_vbi_node (&cap->dev) ? ivtv_vbi_path_new (&cfg, &cap->vbi,
        &err) : ivtv_read_path_new (&cfg, &err);
    if (path == NULL) {
      IVTV_ERROR (error, RESOURCE, NO_SPACE_LEFT, ("%s", err->message),
          (NULL));
      g_clear_error (&err);
      return FALSE;
    }
  }
  g_mutex_lock (&cap->state_lock);
  cap->path = path;
  cap->mode = path->mode;
  g_mutex_unlock (&cap->state_lock);
  cap->state = IVTV_CAPTURE_RUNNING;
  return TRUE;
}

/* ---- lost -> reconnect ---- */

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
      cap->settings.record_priority, &cap->prio_held,
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

GstFlowReturn
ivtv_capture_reconnect (IvtvCapture * cap, IvtvError ** error)
{
  IvtvError *why = NULL;
  IvtvPathPosition before;
  guint waited = 0, limit = MAX (60, 12 * cap->settings.timeout);
  gchar *path = g_strdup (cap->dev.path);
  gint64 t0 = g_get_monotonic_time ();
  GstFlowReturn ret = GST_FLOW_ERROR;

  cap->path->funcs->get_position (cap->path, &before);
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

GType
ivtv_libv4l2_mode_get_type (void)
{
  static gsize id = 0;
  static const GEnumValue values[] = {
    {IVTV_LIBV4L2_AUTO, "Only for streaming devices whose formats need "
          "conversion", "auto"},
    {IVTV_LIBV4L2_ON, "Always use libv4l2", "on"},
    {IVTV_LIBV4L2_OFF, "Never use libv4l2", "off"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&id)) {
    GType t = g_enum_register_static ("GstIvtvLibv4l2", values);
    g_once_init_leave (&id, t);
  }
  return id;
}
