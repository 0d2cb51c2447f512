/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — reconnect after an unplug (see ivtvreconnect.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvreconnect.h"
#include "ivtvsrcio.h"

#include "ivtvstream.h"

#include <errno.h>

GST_DEBUG_CATEGORY_EXTERN (ivtvsrc_debug);
#define GST_CAT_DEFAULT ivtvsrc_debug

gboolean
ivtv_src_io_lost (GstIvtvSrc * src)
{
  if (src->stream)
    return ivtv_stream_is_lost (src->stream);
  return src->reader.lost;
}

/* @bytes and @buffers: pushed before the device went away */
static void
post_reconnect (GstIvtvSrc * src, const gchar * state, guint64 bytes,
    guint64 buffers)
{
  gst_element_post_message (GST_ELEMENT (src),
      gst_message_new_element (GST_OBJECT (src),
          gst_structure_new ("ivtvsrc-reconnect", "state", G_TYPE_STRING,
              state, "device", G_TYPE_STRING, src->dev.path,
              "bytes", G_TYPE_UINT64, bytes,
              "buffers", G_TYPE_UINT64, buffers, NULL)));
}

/* Open @path again and set it up as it was: what the card is now (probe),
 * the element's settings, the negotiated @caps (NULL: none yet) with the
 * same frame size.  dev_lock held.  FALSE (the node closed again) when any
 * step fails; the reason goes to the debug log. */
static gboolean
reopen (GstIvtvSrc * src, const gchar * path, GstCaps * caps)
{
  GError *err = NULL;
  guint old_size = src->frame_size;
  gboolean ok;

  ok = ivtv_device_open (&src->dev, path, TRUE, &err);
  if (ok) {
    ivtv_probe_clear (&src->probe);     /* a new device: what it is now */
    ok = ivtv_probe_run (&src->probe, &src->dev, &err)
        && ivtv_src_io_apply_settings (src)
        && (caps == NULL || ivtv_src_io_apply_format (src, caps));
    if (ok && caps && src->frame_size != old_size) {
      GST_WARNING_OBJECT (src, "%s came back with frames of %u bytes, not "
          "%u", path, src->frame_size, old_size);
      src->frame_size = old_size;
      ok = FALSE;
    }
    if (!ok)
      ivtv_device_close (&src->dev);
  }
  GST_DEBUG_OBJECT (src, "reopening %s: %s", path, ok ? "done" :
      err ? err->message : "settings refused");
  g_clear_error (&err);
  return ok;
}

GstFlowReturn
ivtv_src_reconnect (GstIvtvSrc * src)
{
  guint64 bytes = src->reader.offset, buffers = src->reader.n_buffers;
  gchar *path = g_strdup (src->dev.path);
  GstCaps *caps = gst_pad_get_current_caps (GST_BASE_SRC_PAD (src));
  guint timeout, waited = 0, limit;
  gint64 t0;
  GstFlowReturn ret = GST_FLOW_ERROR;
  IvtvStreamStats before = { 0 };

  if (src->stream) {
    ivtv_stream_get_stats (src->stream, &before);
    bytes = before.bytes;
    buffers = before.frames;
  }
  GST_OBJECT_LOCK (src);
  timeout = src->timeout;
  GST_OBJECT_UNLOCK (src);
  limit = MAX (60, 12 * timeout);
  GST_ELEMENT_WARNING (src, RESOURCE, READ,
      ("The device %s went away after %" G_GUINT64_FORMAT " bytes; waiting "
          "up to %u seconds for it to come back.", path, bytes, limit),
      ("reconnect=true"));
  post_reconnect (src, "lost", bytes, buffers);
  g_mutex_lock (&src->dev_lock);
  ivtv_src_io_stop (src);
  ivtv_device_close (&src->dev);
  g_mutex_unlock (&src->dev_lock);

  t0 = g_get_monotonic_time ();
  for (;;) {
    gboolean ok;
    gint64 left;

    /* an attempt a second; the poll watches nothing now: it returns when
     * the time is up or when flushing */
    waited++;
    while ((left = t0 + (gint64) waited * G_USEC_PER_SEC -
            g_get_monotonic_time ()) > 0) {
      if (gst_poll_wait (src->poll, left * GST_USECOND) < 0 && errno == EBUSY)
        goto flushing;
    }
    g_mutex_lock (&src->dev_lock);
    ok = reopen (src, path, caps);
    g_mutex_unlock (&src->dev_lock);
    if (ok) {
      GST_ELEMENT_INFO (src, RESOURCE, READ,
          ("The device %s is back after %u seconds; capture resumes.", path,
              waited), (NULL));
      post_reconnect (src, "restored", bytes, buffers);
      ret = ivtv_src_io_start (src) ? GST_FLOW_OK : GST_FLOW_ERROR;
      src->io_started = ret == GST_FLOW_OK;
      if (src->stream)
        ivtv_stream_continue (src->stream, &before);
      else
      {
        src->reader.offset = bytes;     /* offsets go on */
        src->reader.n_buffers = buffers;
      }
      break;
    }
    if (waited >= limit) {
      GST_ELEMENT_ERROR (src, RESOURCE, NOT_FOUND,
          ("The device %s went away and did not come back within %u "
              "seconds.", path, limit), ("reconnect=true"));
      break;
    }
  }
done:
  gst_clear_caps (&caps);
  g_free (path);
  return ret;

flushing:
  ret = GST_FLOW_FLUSHING;
  goto done;
}
