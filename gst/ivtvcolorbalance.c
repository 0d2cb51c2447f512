/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — GstColorBalance over the card's brightness, contrast,
 * saturation and hue controls.  See ivtvcolorbalance.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvcolorbalance.h"
#include "ivtvcontrols.h"
#include "gstivtvsrc.h"

#include <errno.h>
#include <string.h>

GST_DEBUG_CATEGORY_EXTERN (ivtvsrc_debug);
#define GST_CAT_DEFAULT ivtvsrc_debug

static const guint32 balance_cids[] = {
  V4L2_CID_BRIGHTNESS, V4L2_CID_CONTRAST, V4L2_CID_SATURATION, V4L2_CID_HUE
};

#define CID_KEY "ivtv-cid"

static guint32
channel_cid (GstColorBalanceChannel * ch)
{
  return GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (ch), CID_KEY));
}

/* the device lock held */
static void
build_channels (GstIvtvSrc * src)
{
  guint i;

  if (src->cb_channels || !ivtv_device_is_open (&src->dev))
    return;
  for (i = 0; i < G_N_ELEMENTS (balance_cids); i++) {
    const IvtvControl *c = ivtv_probe_find_control (&src->probe,
        balance_cids[i]);
    GstColorBalanceChannel *ch;

    if (c == NULL || (c->flags & (V4L2_CTRL_FLAG_DISABLED |
                V4L2_CTRL_FLAG_READ_ONLY)) || c->minimum < G_MININT
        || c->maximum > G_MAXINT)
      continue;
    ch = g_object_new (GST_TYPE_COLOR_BALANCE_CHANNEL, NULL);
    ch->label = g_strdup (c->name);
    ch->min_value = (gint) c->minimum;
    ch->max_value = (gint) c->maximum;
    g_object_set_data (G_OBJECT (ch), CID_KEY,
        GUINT_TO_POINTER (balance_cids[i]));
    src->cb_channels = g_list_append (src->cb_channels, ch);
  }
  GST_DEBUG_OBJECT (src, "%u colour balance channels",
      g_list_length (src->cb_channels));
}

void
ivtv_color_balance_clear (GstIvtvSrc * src)
{
  g_list_free_full (src->cb_channels, g_object_unref);
  src->cb_channels = NULL;
}

static const GList *
ivtv_color_balance_list_channels (GstColorBalance * balance)
{
  GstIvtvSrc *src = GST_IVTV_SRC (balance);
  const GList *l;

  g_mutex_lock (&src->dev_lock);
  build_channels (src);
  l = src->cb_channels;
  g_mutex_unlock (&src->dev_lock);
  return l;
}

static void
ivtv_color_balance_set_value (GstColorBalance * balance,
    GstColorBalanceChannel * channel, gint value)
{
  GstIvtvSrc *src = GST_IVTV_SRC (balance);
  struct v4l2_control c;
  gint64 old = G_MININT64;
  int ret = -ENODEV;

  g_return_if_fail (channel != NULL);
  memset (&c, 0, sizeof (c));
  c.id = channel_cid (channel);
  c.value = CLAMP (value, channel->min_value, channel->max_value);
  g_mutex_lock (&src->dev_lock);
  if (ivtv_device_is_open (&src->dev) && c.id) {
    ivtv_controls_get_int (&src->dev, c.id, &old);
    ret = ivtv_ioctl (&src->dev, VIDIOC_S_CTRL, &c);
  }
  g_mutex_unlock (&src->dev_lock);

  if (ret < 0) {
    GST_ELEMENT_WARNING (src, RESOURCE, SETTINGS,
        ("Could not set %s to %d: %s.", channel->label, value,
            ret == -ENODEV ? "the device is not open" : g_strerror (-ret)),
        (NULL));
    return;
  }
  if (old != c.value)
    gst_color_balance_value_changed (balance, channel, c.value);
}

static gint
ivtv_color_balance_get_value (GstColorBalance * balance,
    GstColorBalanceChannel * channel)
{
  GstIvtvSrc *src = GST_IVTV_SRC (balance);
  gint64 v = 0;
  guint32 cid;

  g_return_val_if_fail (channel != NULL, 0);
  cid = channel_cid (channel);
  g_mutex_lock (&src->dev_lock);
  if (!ivtv_device_is_open (&src->dev) || !cid
      || !ivtv_controls_get_int (&src->dev, cid, &v))
    v = channel->min_value;
  g_mutex_unlock (&src->dev_lock);
  return (gint) CLAMP (v, channel->min_value, channel->max_value);
}

static GstColorBalanceType
ivtv_color_balance_get_balance_type (GstColorBalance * balance)
{
  (void) balance;
  return GST_COLOR_BALANCE_HARDWARE;
}

void
ivtv_color_balance_iface_init (GstColorBalanceInterface * iface)
{
  iface->list_channels = ivtv_color_balance_list_channels;
  iface->set_value = ivtv_color_balance_set_value;
  iface->get_value = ivtv_color_balance_get_value;
  iface->get_balance_type = ivtv_color_balance_get_balance_type;
}
