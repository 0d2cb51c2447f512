/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the PCM and radio nodes of encoder cards (see ivtvpcm.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvpcm.h"
#include "ivtvcard.h"

#include <string.h>

GstCaps *
ivtv_pcm_caps (void)
{
  return gst_caps_new_simple ("audio/x-raw",
      "format", G_TYPE_STRING, "S16LE",
      "layout", G_TYPE_STRING, "interleaved",
      "channels", G_TYPE_INT, IVTV_PCM_CHANNELS,
      "channel-mask", GST_TYPE_BITMASK, (guint64) 0x3,
      "rate", G_TYPE_INT, IVTV_PCM_RATE, NULL);
}

void
ivtv_pcm_stamp_buffer (GstBuffer * buf)
{
  guint64 frames = gst_buffer_get_size (buf) / IVTV_PCM_BYTES_PER_FRAME;

  GST_BUFFER_DURATION (buf) = gst_util_uint64_scale (frames, GST_SECOND,
      IVTV_PCM_RATE);
  if (GST_BUFFER_OFFSET_IS_VALID (buf)) {
    GST_BUFFER_OFFSET (buf) /= IVTV_PCM_BYTES_PER_FRAME;
    GST_BUFFER_OFFSET_END (buf) = GST_BUFFER_OFFSET (buf) + frames;
  }
}

static gboolean
is_pcm_node (const gchar * path, const struct v4l2_capability *cap,
    const gchar * role, gpointer data)
{
  (void) path;
  (void) cap;
  (void) data;
  return g_str_equal (role, "audio");
}

void
ivtv_pcm_advise_radio (const IvtvDevice * dev, GError ** error)
{
  guint32 caps = (dev->cap.capabilities & V4L2_CAP_DEVICE_CAPS) ?
      dev->cap.device_caps : dev->cap.capabilities;
  gchar card[IVTV_NAME_LEN], driver[IVTV_NAME_LEN], *pcm, *msg;

  if (error == NULL || *error == NULL || !(caps & V4L2_CAP_RADIO)
      || !g_error_matches (*error, IVTV_DEVICE_ERROR,
          IVTV_DEVICE_ERROR_NO_CAPTURE))
    return;
  ivtv_device_copy_name (card, sizeof (card), dev->cap.card,
      sizeof (dev->cap.card));
  ivtv_device_copy_name (driver, sizeof (driver), dev->cap.driver,
      sizeof (dev->cap.driver));
  pcm = ivtv_card_find_node (&dev->cap, dev->path, is_pcm_node, NULL);
  msg = g_strdup_printf (_("%s ('%s', driver %s) is a radio node: it tunes "
          "the card's FM radio but carries no samples. Record the radio's "
          "sound from the card's PCM node (ivtvsrc device=%s, audio/x-raw), "
          "after tuning with v4l2-ctl -d %s --set-freq=MHZ."), dev->path,
      card, driver, pcm ? pcm : "/dev/video24", dev->path);
  g_free ((*error)->message);
  (*error)->message = msg;
  g_free (pcm);
}
