/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the clean end (see ivtvsrcend.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvsrcend.h"
#include "ivtvcontrols.h"
#include "ivtvdebug.h"

GST_DEBUG_CATEGORY_EXTERN (ivtvsrc_debug);
#define GST_CAT_DEFAULT ivtvsrc_debug

static GstElementClass *parent_class;

/* EOS from the application (gst-launch -e) or the signal watch: a
 * read() MPEG encoder is stopped at the end of its GOP and the reader
 * goes on until the driver ends the stream (read() gives 0) or 2 s pass;
 * then create() returns EOS and the base class sends it downstream.  The
 * file ends with a complete GOP. */
static gboolean
gst_ivtv_src_send_event (GstElement * element, GstEvent * event)
{
  GstIvtvSrc *src = GST_IVTV_SRC (element);
  gboolean drain = FALSE;

  if (GST_EVENT_TYPE (event) == GST_EVENT_EOS) {
    g_mutex_lock (&src->dev_lock);
    if (src->capturing && src->io_started && src->mpeg && src->reader.started
        && src->stream == NULL && !src->draining
        && ivtv_device_is_open (&src->dev)
        && ivtv_controls_encoder_stop (&src->dev)) {
      src->draining = TRUE;
      ivtv_read_drain (&src->reader, IVTV_DRAIN_MAX_US);
      drain = TRUE;
    } else if (src->draining) {
      drain = TRUE;             /* already ending */
    }
    g_mutex_unlock (&src->dev_lock);
  }
  if (drain) {
    GST_INFO_OBJECT (src, "EOS: encoder stopped at the end of the GOP, "
        "reading the rest of the stream");
    gst_event_unref (event);
    return TRUE;
  }
  return parent_class->send_event (element, event);
}

void
ivtv_src_end_class_init (GstIvtvSrcClass * klass)
{
  parent_class = g_type_class_peek_parent (klass);
  GST_ELEMENT_CLASS (klass)->send_event =
      GST_DEBUG_FUNCPTR (gst_ivtv_src_send_event);
}
