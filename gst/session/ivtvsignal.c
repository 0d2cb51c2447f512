/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the signal watch thread (see ivtvsignal.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvsignal.h"
#include "ivtvdebug.h"
#include "ivtvnames.h"

#include <errno.h>
#include <string.h>

#define GST_CAT_DEFAULT ivtv_debug
#define IVTV_SIGNAL_PERIOD_US G_USEC_PER_SEC

void
ivtv_signal_init (IvtvSignal * s)
{
  memset (s, 0, sizeof (*s));
  g_mutex_init (&s->lock);
  g_cond_init (&s->cond);
}

void
ivtv_signal_clear (IvtvSignal * s)
{
  ivtv_signal_stop (s);
  g_free (s->input);
  s->input = NULL;
  g_mutex_clear (&s->lock);
  g_cond_clear (&s->cond);
}

gboolean
ivtv_signal_query (IvtvDevice * dev, gchar ** name, gboolean * locked)
{
  struct v4l2_input in;
  gint index = 0;
  gboolean present = TRUE;

  if (name)
    *name = NULL;
  if (locked)
    *locked = TRUE;
  if (ivtv_ioctl (dev, VIDIOC_G_INPUT, &index) < 0)
    return TRUE;                /* no inputs: nothing to tell */
  memset (&in, 0, sizeof (in));
  in.index = index;
  if (ivtv_ioctl (dev, VIDIOC_ENUMINPUT, &in) < 0)
    return TRUE;
  if (name) {
    gchar buf[IVTV_NAME_LEN];

    ivtv_device_copy_name (buf, sizeof (buf), in.name, sizeof (in.name));
    *name = g_strdup (buf);
  }
  if (in.status & (V4L2_IN_ST_NO_POWER | V4L2_IN_ST_NO_SIGNAL))
    present = FALSE;
  else if (locked && (in.status & (V4L2_IN_ST_NO_H_LOCK
              | V4L2_IN_ST_NO_V_LOCK | V4L2_IN_ST_NO_SYNC)))
    *locked = FALSE;
  if (present && in.type == V4L2_INPUT_TYPE_TUNER) {
    struct v4l2_tuner t;

    memset (&t, 0, sizeof (t));
    t.index = in.tuner;
    if (ivtv_ioctl (dev, VIDIOC_G_TUNER, &t) == 0 && t.signal == 0)
      present = FALSE;
  }
  if (present) {
    /* the HD PVR has no input status: G_FMT fails with EFAULT while it
     * detects no signal (hdpvr-video.c vidioc_g_fmt_vid_cap()) */
    struct v4l2_format f;

    memset (&f, 0, sizeof (f));
    f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (ivtv_ioctl (dev, VIDIOC_G_FMT, &f) == -EFAULT)
      present = FALSE;
  }
  return present;
}

static void
post_signal_message (IvtvSignal * s, gboolean present, gboolean locked,
    const gchar * input)
{
  GstStructure *st = gst_structure_new ("ivtvsrc-signal",
      "present", G_TYPE_BOOLEAN, present,
      "input", G_TYPE_STRING, input ? input : "",
      "locked", G_TYPE_BOOLEAN, present && locked, NULL);

  gst_element_post_message (s->element,
      gst_message_new_element (GST_OBJECT (s->element), st));
}

/* One check: update the state, tell the user about changes.  Called
 * without any lock held. */
/* The standard now (G_STD; 0 when the node has none) and the one the
 * session set or read (the probe's).  dev_lock held. */
static v4l2_std_id
query_std (IvtvSignal * s, v4l2_std_id * expected)
{
  v4l2_std_id std = 0;

  *expected = s->probe ? s->probe->current_std : 0;
  if (ivtv_ioctl (s->dev, VIDIOC_G_STD, &std) < 0)
    return 0;
  return std;
}

/* A standard that changed under the recording on the same input, by no
 * setting of ours: the recording mixes two standards (issue 28). */
static void
check_std (IvtvSignal * s, v4l2_std_id std, v4l2_std_id expected,
    const gchar * input, gboolean same_input)
{
  v4l2_std_id before;
  gchar *from, *to;

  g_mutex_lock (&s->lock);
  before = s->std;
  s->std = std;
  g_mutex_unlock (&s->lock);
  if (!same_input || before == 0 || std == 0 || std == before
      || std == expected)
    return;
  from = ivtv_names_std_describe (before);
  to = ivtv_names_std_describe (std);
  GST_ELEMENT_WARNING (s->element, STREAM, FORMAT,
      (_("The TV standard of input '%s' changed from %s to %s during the "
              "recording: the file now mixes two standards, which a DVD or a "
              "player may refuse. Record the parts separately, or set "
              "standard= to the tape's."), input ? input : "?", from, to),
      ("VIDIOC_G_STD 0x%" G_GINT64_MODIFIER "x -> 0x%" G_GINT64_MODIFIER
          "x", (guint64) before, (guint64) std));
  gst_element_post_message (s->element,
      gst_message_new_element (GST_OBJECT (s->element),
          gst_structure_new ("ivtvsrc-standard-changed",
              "input", G_TYPE_STRING, input, "from", G_TYPE_STRING, from,
              "to", G_TYPE_STRING, to, NULL)));
  g_free (from);
  g_free (to);
}

static void
check (IvtvSignal * s)
{
  gchar *name = NULL;
  gboolean present, locked, first, changed, lock_lost, held, send_eos = FALSE;
  gboolean same_input;
  gint64 now = g_get_monotonic_time ();
  v4l2_std_id std, expected_std;

  g_mutex_lock (s->dev_lock);
  if (!ivtv_device_is_open (s->dev)) {
    /* closed for a moment (reconnect): nothing to tell */
    g_mutex_unlock (s->dev_lock);
    return;
  }
  present = ivtv_signal_query (s->dev, &name, &locked);
  std = query_std (s, &expected_std);
  g_mutex_unlock (s->dev_lock);

  g_mutex_lock (&s->lock);
  first = !s->checked;
  same_input = !first && g_strcmp0 (name, s->input) == 0;
  locked = locked && present;
  changed = first || present != s->present || g_strcmp0 (name, s->input)
      || locked != s->locked;
  /* at start the element itself warns about a signal without lock */
  lock_lost = !first && present && !locked && (s->locked || !s->present);
  held = s->holding;
  s->checked = TRUE;
  s->present = present;
  s->locked = locked;
  g_free (s->input);
  s->input = g_strdup (name);
  if (present)
    s->lost_since = 0;
  else if (s->lost_since == 0 || changed)
    s->lost_since = now;
  if (!present && s->timeout > 0 && !s->eos_sent
      && now - s->lost_since >= (gint64) s->timeout * G_USEC_PER_SEC) {
    s->eos_sent = TRUE;
    send_eos = TRUE;
  }
  g_cond_broadcast (&s->cond);
  g_mutex_unlock (&s->lock);

  if (changed) {
    GST_INFO_OBJECT (s->element, "signal on '%s': %s", name ? name : "?",
        present ? "present" : "none");
    if (!present && held)
      GST_ELEMENT_WARNING (s->element, RESOURCE, READ,
          (_("No signal on input '%s' yet: the recording is held back until "
              "there is one (wait-for-signal). Is the camera playing? Is "
              "this the right input?"), name ? name : "?"),
          ("input status: no signal"));
    else if (!present && first)
      GST_ELEMENT_WARNING (s->element, RESOURCE, READ,
          (_("No signal on input '%s': the recording will be black. Is the "
              "camera playing? Is this the right input?"), name ? name : "?"),
          ("input status: no signal"));
    else if (!present)
      GST_ELEMENT_WARNING (s->element, RESOURCE, READ,
          (_("No signal on input '%s' any more: the recording will be black. "
              "Is the camera playing? Is this the right input?"),
              name ? name : "?"), ("input status: no signal"));
    if (lock_lost)
      GST_ELEMENT_WARNING (s->element, RESOURCE, READ,
          (_("Input '%s' has a signal the card cannot lock on any more (wrong "
              "standard, or a damaged stretch of tape?)."), name ? name : "?"),
          ("input status: no horizontal/vertical lock or sync"));
    post_signal_message (s, present, locked, name);
  }
  check_std (s, std, expected_std, name, same_input);
  if (send_eos) {
    GST_ELEMENT_INFO (s->element, RESOURCE, READ,
        (_("No signal on input '%s' for %u seconds: ending the recording."),
            name ? name : "?", s->timeout), ("signal-timeout"));
    gst_element_send_event (s->element, gst_event_new_eos ());
  }
  g_free (name);
}

static gpointer
watch_thread (gpointer data)
{
  IvtvSignal *s = data;

  g_mutex_lock (&s->lock);
  while (s->running) {
    gint64 until = g_get_monotonic_time () + IVTV_SIGNAL_PERIOD_US;

    while (s->running && g_cond_wait_until (&s->cond, &s->lock, until));
    if (!s->running)
      break;
    g_mutex_unlock (&s->lock);
    check (s);
    g_mutex_lock (&s->lock);
  }
  g_mutex_unlock (&s->lock);
  return NULL;
}

void
ivtv_signal_start (IvtvSignal * s, GstElement * element, IvtvDevice * dev,
    const IvtvProbe * probe, GMutex * dev_lock, guint timeout)
{
  ivtv_signal_stop (s);
  s->element = element;
  s->dev = dev;
  s->probe = probe;
  s->std = 0;
  s->dev_lock = dev_lock;
  s->timeout = timeout;
  s->checked = FALSE;
  s->present = TRUE;
  s->eos_sent = FALSE;
  s->lost_since = 0;
  check (s);
  s->running = TRUE;
  s->thread = g_thread_new ("ivtvsrc-signal", watch_thread, s);
}

void
ivtv_signal_stop (IvtvSignal * s)
{
  GThread *t;

  g_mutex_lock (&s->lock);
  s->running = FALSE;
  t = s->thread;
  s->thread = NULL;
  g_cond_broadcast (&s->cond);
  g_mutex_unlock (&s->lock);
  if (t)
    g_thread_join (t);
}

gboolean
ivtv_signal_wait_present (IvtvSignal * s, GstPoll * poll)
{
  for (;;) {
    gboolean present, running;

    g_mutex_lock (&s->lock);
    present = s->present;
    running = s->running;
    if (present)
      s->holding = FALSE;       /* recording from now on */
    g_mutex_unlock (&s->lock);
    if (present)
      return TRUE;
    if (!running)
      return FALSE;
    /* nothing is watched in the poll yet: it returns on flushing */
    if (gst_poll_wait (poll, 200 * GST_MSECOND) < 0 && errno == EBUSY)
      return FALSE;
  }
}
