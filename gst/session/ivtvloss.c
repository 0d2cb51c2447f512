/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the text of the warning posted on the element once per run
 * of buffers its capture queue dropped (see ivtvloss.h).
 */
#include "ivtvloss.h"

#include <string.h>

gchar *
ivtv_loss_format_position (GstClockTime t)
{
  gchar *s = g_strdup_printf ("%" GST_TIME_FORMAT, GST_TIME_ARGS (t));
  gchar *dot = strchr (s, '.');

  if (dot && dot[1])
    dot[2] = '\0';
  return s;
}

gchar *
ivtv_loss_describe (const IvtvLoss * l)
{
  gchar *size = g_format_size (l->bytes);
  gchar *dur = NULL, *at = NULL, *bound, *why, *msg;
  GstClockTime at_time = GST_CLOCK_TIME_IS_VALID (l->position) ?
      l->position : l->pts;

  if (GST_CLOCK_TIME_IS_VALID (l->duration) && l->frames > 0)
    dur = g_strdup_printf (" (%.1f s, %" G_GUINT64_FORMAT " frame%s)",
        (gdouble) l->duration / GST_SECOND, l->frames,
        l->frames == 1 ? "" : "s");
  else if (GST_CLOCK_TIME_IS_VALID (l->duration))
    dur = g_strdup_printf (" (%.1f s)", (gdouble) l->duration / GST_SECOND);
  else if (l->frames > 0)
    dur = g_strdup_printf (" (%" G_GUINT64_FORMAT " frame%s)", l->frames,
        l->frames == 1 ? "" : "s");
  if (GST_CLOCK_TIME_IS_VALID (at_time)) {
    gchar *t = ivtv_loss_format_position (at_time);
    at = g_strdup_printf (" at %s", t);
    g_free (t);
  }
  if (l->full == IVTV_QUEUE_FULL_TIME)
    bound = g_strdup_printf ("max-buffer-time=%" G_GUINT64_FORMAT, l->max_time);
  else
    bound = g_strdup_printf ("max-buffer-bytes=%" G_GUINT64_FORMAT,
        l->max_bytes);
  /* a consumer that kept taking buffers, only too slowly, did not stall:
   * "for 0 s" said nothing (issue 28 item 8) */
  if (GST_CLOCK_TIME_IS_VALID (l->stalled) && l->stalled >= GST_SECOND)
    why = g_strdup_printf (" because downstream did not take buffers for "
        "%.1f s", (gdouble) l->stalled / GST_SECOND);
  else if (GST_CLOCK_TIME_IS_VALID (l->stalled))
    why = g_strdup (" because downstream was slower than the capture");
  else
    why = g_strdup (" because downstream did not take buffers");
  msg = g_strdup_printf ("Lost %s%s of the recording%s: the element's queue "
      "(%s) was full%s", size, dur ? dur : "", at ? at : "", bound, why);
  g_free (size);
  g_free (dur);
  g_free (at);
  g_free (bound);
  g_free (why);
  return msg;
}
