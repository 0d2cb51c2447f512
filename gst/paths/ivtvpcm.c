/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the PCM and radio nodes of encoder cards (see ivtvpcm.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvpcm.h"

#include <string.h>

gboolean
ivtv_pcm_is_node (const IvtvDevice * dev)
{
  const gchar *drv = (const gchar *) dev->cap.driver;
  guint32 want = V4L2_CAP_AUDIO | V4L2_CAP_READWRITE;

  if ((dev->device_caps & want) != want || (dev->device_caps &
          (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_RADIO | V4L2_CAP_VBI_CAPTURE |
              V4L2_CAP_SLICED_VBI_CAPTURE)))
    return FALSE;
  return strncmp (drv, "ivtv", sizeof (dev->cap.driver)) == 0
      || strncmp (drv, "cx18", sizeof (dev->cap.driver)) == 0;
}

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

/* /dev/videoN of the same card (bus_info) that is a PCM node, or NULL */
static gchar *
find_pcm_sibling (const IvtvDevice * radio)
{
  IvtvDevice d;
  gchar *found = NULL;
  guint i;

  ivtv_device_init (&d, NULL);
  for (i = 0; i < 64 && found == NULL; i++) {
    gchar *path = g_strdup_printf ("/dev/video%u", i);

    if (ivtv_device_open (&d, path, TRUE, NULL) && strncmp ((const gchar *) d.cap.bus_info,
            (const gchar *) radio->cap.bus_info,
            sizeof (d.cap.bus_info)) == 0 && ivtv_pcm_is_node (&d))
      found = g_strdup (path);
    ivtv_device_close (&d);
    g_free (path);
  }
  ivtv_device_clear (&d);
  return found;
}

gchar *
ivtv_pcm_radio_message (const IvtvDevice * dev, const gchar * card,
    const gchar * driver)
{
  gchar *pcm, *msg;

  if (!(dev->device_caps & V4L2_CAP_RADIO))
    return NULL;
  pcm = find_pcm_sibling (dev);
  msg = g_strdup_printf (_("%s ('%s', driver %s) is a radio node: it tunes "
          "the card's FM radio but carries no samples. Record the radio's "
          "sound from the card's PCM node (ivtvsrc device=%s, audio/x-raw), "
          "after tuning with v4l2-ctl -d %s --set-freq=MHZ."), dev->path,
      card, driver, pcm ? pcm : "/dev/video24", dev->path);
  g_free (pcm);
  return msg;
}
