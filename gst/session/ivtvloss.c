/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the text of the warning posted on the element once per run
 * of buffers its capture queue dropped (see ivtvloss.h).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvloss.h"

#include <inttypes.h>
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
    dur = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
            " (%.1f s, %" PRIu64 " frame)", " (%.1f s, %" PRIu64 " frames)",
            (gulong) MIN (l->frames, G_MAXULONG)),
        (gdouble) l->duration / GST_SECOND, (uint64_t) l->frames);
  else if (GST_CLOCK_TIME_IS_VALID (l->duration))
    dur = g_strdup_printf (" (%.1f s)", (gdouble) l->duration / GST_SECOND);
  else if (l->frames > 0)
    dur = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, " (%" PRIu64
            " frame)", " (%" PRIu64 " frames)",
            (gulong) MIN (l->frames, G_MAXULONG)), (uint64_t) l->frames);
  if (GST_CLOCK_TIME_IS_VALID (at_time)) {
    gchar *t = ivtv_loss_format_position (at_time);
    /* TRANSLATORS: where in the recording, after the amount lost */
    at = g_strdup_printf (_(" at %s"), t);
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
    why = g_strdup_printf (_(" because downstream did not take buffers for "
            "%.1f s"), (gdouble) l->stalled / GST_SECOND);
  else if (GST_CLOCK_TIME_IS_VALID (l->stalled))
    why = g_strdup (_(" because downstream was slower than the capture"));
  else
    why = g_strdup (_(" because downstream did not take buffers"));
  /* TRANSLATORS: the amount, its duration and frames, where (" at ..."),
   * the queue's bound, and why (" because ...") */
  msg = g_strdup_printf (_("Lost %s%s of the recording%s: the element's "
          "queue (%s) was full%s"), size, dur ? dur : "", at ? at : "", bound,
      why);
  g_free (size);
  g_free (dur);
  g_free (at);
  g_free (bound);
  g_free (why);
  return msg;
}
