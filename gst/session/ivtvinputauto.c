/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — `input=auto`: the first video input that has a signal.
 *
 * A tape deck is plugged into one of a card's inputs and nobody remembers
 * which.  The current input is tried first (no switch when it has a
 * signal) unless it is the tuner, then every other non-tuner input in the
 * card's order, the tuner last (an aerial gives a "signal" on almost any
 * channel, and a card fresh from the driver sits on its tuner).  After
 * each VIDIOC_S_INPUT the input's status (VIDIOC_ENUMINPUT, and G_TUNER's
 * signal for a tuner: ivtv_signal_query) is asked every 50 ms for at most
 * @settle_ms, since a decoder needs a moment to lock (ivtv's cx25840 takes
 * a few frames).  When none has a signal the card goes back to the input
 * it was on and the error names every input with what it reported.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvinputauto.h"
#include "ivtvdebug.h"
#include "ivtvsettings.h"
#include "ivtvsignal.h"

#include <errno.h>
#include <string.h>

#define GST_CAT_DEFAULT ivtv_debug
#define IVTV_INPUT_AUTO_STEP_US (50 * 1000)

gboolean
ivtv_input_is_auto (const gchar * name)
{
  return name && g_ascii_strcasecmp (name, "auto") == 0;
}

/* Switch to @index and wait up to @settle_ms for a signal.  The status
 * seen last goes to @status ("signal", "no signal", "no lock"). */
static gboolean
try_input (IvtvDevice * dev, guint32 index, guint settle_ms,
    const gchar ** status)
{
  gint64 deadline = g_get_monotonic_time () + settle_ms * (gint64) 1000;
  int idx = index;
  gboolean present, locked;
  int ret;

  ret = ivtv_ioctl (dev, VIDIOC_S_INPUT, &idx);
  if (ret < 0) {
    *status = ret == -EBUSY ? "busy" : "cannot switch to it";
    return FALSE;
  }
  for (;;) {
    present = ivtv_signal_query (dev, NULL, &locked);
    if (present && locked) {
      *status = "signal";
      return TRUE;
    }
    *status = present ? "no lock" : "no signal";
    if (g_get_monotonic_time () >= deadline)
      return FALSE;
    g_usleep (IVTV_INPUT_AUTO_STEP_US);
  }
}

/* The order to try: the current input first unless it is a tuner (a card
 * fresh from the driver sits on its tuner: ivtv, cx18 and pvrusb2 all
 * start on input 0, the tuner), then the others, tuners last. */
static guint
input_order (const IvtvProbe * probe, gint current, guint * order)
{
  guint i, n = 0, pass;

  for (i = 0; i < probe->n_inputs; i++)
    if ((gint) probe->inputs[i].index == current
        && probe->inputs[i].type != V4L2_INPUT_TYPE_TUNER)
      order[n++] = i;
  if (n == 0)
    current = -1;               /* a tuner: tried in its place, last */
  for (pass = 0; pass < 2; pass++)
    for (i = 0; i < probe->n_inputs; i++) {
      gboolean tuner = probe->inputs[i].type == V4L2_INPUT_TYPE_TUNER;

      if ((gint) probe->inputs[i].index != current && tuner == (pass == 1))
        order[n++] = i;
    }
  return n;
}

gboolean
ivtv_input_auto_select (IvtvDevice * dev, IvtvProbe * probe, guint settle_ms,
    GError ** error)
{
  guint order[IVTV_PROBE_MAX_INPUTS], n, k;
  GString *report;
  gint current = -1;

  if (probe->n_inputs == 0) {
    g_set_error (error, IVTV_SETTINGS_ERROR, IVTV_SETTINGS_ERROR_UNSUPPORTED,
        _("'%s' has no video inputs to choose from (input=auto)"), probe->card);
    return FALSE;
  }
  if (ivtv_ioctl (dev, VIDIOC_G_INPUT, &current) < 0)
    current = -1;
  n = input_order (probe, current, order);
  report = g_string_new (NULL);
  for (k = 0; k < n; k++) {
    const IvtvInput *in = &probe->inputs[order[k]];
    const gchar *status;

    if (try_input (dev, in->index, settle_ms, &status)) {
      GST_INFO_OBJECT (dev->owner, "input=auto: input %u '%s' has a signal",
          in->index, in->name);
      g_string_free (report, TRUE);
      ivtv_probe_inputs (probe, dev);
      ivtv_probe_tuner (probe, dev);
      ivtv_probe_standards (probe, dev);
      return TRUE;
    }
    g_string_append_printf (report, "%s'%s' (%s)", k ? ", " : "", in->name,
        status);
  }
  if (current >= 0)
    ivtv_ioctl (dev, VIDIOC_S_INPUT, &current);
  ivtv_probe_inputs (probe, dev);
  g_set_error (error, IVTV_SETTINGS_ERROR, IVTV_SETTINGS_ERROR_NO_SIGNAL,
      _("No input of '%s' has a signal (input=auto tried %s). Check that the "
      "player is on and its cable is in, or name the input (input=...)"),
      probe->card, report->str);
  g_string_free (report, TRUE);
  return FALSE;
}
