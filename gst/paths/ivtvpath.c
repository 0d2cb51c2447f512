/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — what every capture path shares: the stall watchdog and the
 * error as data (see ivtvpath.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvpath.h"
#include "ivtvdebug.h"

#define GST_CAT_DEFAULT ivtv_debug

void
ivtv_stall_init (IvtvStall * stall, guint timeout)
{
  stall->warned = FALSE;
  stall->set_at = 0;
  stall->generation = 0;        /* valgrind: was counted on from garbage */
  ivtv_stall_set_timeout (stall, timeout);
  stall->seen_generation = g_atomic_int_get (&stall->generation);
}

void
ivtv_stall_set_timeout (IvtvStall * stall, guint seconds)
{
  g_atomic_int_set (&stall->timeout, (gint) seconds);
  g_atomic_int_inc (&stall->generation);
}

GstFlowReturn
ivtv_stall_check (IvtvStall * stall, GstElement * element,
    const IvtvDevice * dev, gint64 since, IvtvError ** error)
{
  guint timeout = (guint) g_atomic_int_get (&stall->timeout);
  gint generation = g_atomic_int_get (&stall->generation);
  gint64 now = g_get_monotonic_time (), idle;
  gint64 limit = (gint64) timeout * G_USEC_PER_SEC;

  /* a timeout set (again) counts from then: seen here first */
  if (generation != stall->seen_generation) {
    stall->seen_generation = generation;
    stall->set_at = now;
  }
  idle = now - MAX (since, stall->set_at);

  if (timeout == 0)
    return GST_FLOW_OK;
  if (idle >= 2 * limit) {
    IVTV_ERROR (error, RESOURCE, READ,
        (_("No data from %s for %u seconds: the device or its driver hangs; "
            "giving up."), dev->path, 2 * timeout),
        ("no data for %" G_GINT64_FORMAT " ms (timeout=%u)", idle / 1000,
            timeout));
    return GST_FLOW_ERROR;
  }
  if (idle >= limit && !stall->warned) {
    GST_ELEMENT_WARNING (element, RESOURCE, READ,
        (_("No data from %s for %u seconds: the device seems stalled "
            "(giving up after %u seconds)."), dev->path, timeout,
            2 * timeout), ("still waiting (timeout=%u)", timeout));
    stall->warned = TRUE;
  }
  return GST_FLOW_OK;
}

void
ivtv_stall_data (IvtvStall * stall, GstElement * element,
    const IvtvDevice * dev)
{
  if (!stall->warned)
    return;
  GST_ELEMENT_INFO (element, RESOURCE, READ,
      (_("Data from %s flows again."), dev->path), (NULL));
  stall->warned = FALSE;
}

/* ---- an error as data ---- */

void
ivtv_error_set (IvtvError ** error, GQuark domain, gint code, gchar * text,
    gchar * debug, const gchar * file, const gchar * function, gint line)
{
  IvtvError *e;

  if (*error != NULL) {
    GST_WARNING ("a second error after the first one: %s (%s)",
        text ? text : "", debug ? debug : "");
    g_free (text);
    g_free (debug);
    return;
  }
  e = g_new0 (IvtvError, 1);
  e->domain = domain;
  e->code = code;
  e->text = text;
  e->debug = debug;
  e->file = file;
  e->function = function;
  e->line = line;
  *error = e;
}

void
ivtv_error_post (IvtvError * error, GstElement * element)
{
  if (error == NULL)
    return;
  /* takes the strings */
  gst_element_message_full (element, GST_MESSAGE_ERROR, error->domain,
      error->code, error->text, error->debug, error->file, error->function,
      error->line);
  error->text = error->debug = NULL;
  ivtv_error_free (error);
}

void
ivtv_error_free (IvtvError * error)
{
  if (error == NULL)
    return;
  g_free (error->text);
  g_free (error->debug);
  g_free (error);
}
