/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — GstColorBalance over the card's brightness, contrast,
 * saturation and hue controls: a thin adapter on the element's one way in
 * for a control (ivtv_src_set_control).  See ivtvcolorbalance.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvcolorbalance.h"
#include "gstivtvsrcpriv.h"
#include "ivtvdebug.h"

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

/* The channels of the open device's controls (none when it is closed). */
static GList *
make_channels (GstIvtvSrc * src)
{
  IvtvProbe *probe = ivtv_capture_probe (src->capture);
  GList *channels = NULL;
  guint i;

  ivtv_capture_lock (src->capture);
  for (i = 0; i < G_N_ELEMENTS (balance_cids)
      && ivtv_device_is_open (ivtv_capture_device (src->capture)); i++) {
    const IvtvControl *c = ivtv_probe_find_control (probe, balance_cids[i]);
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
    channels = g_list_append (channels, ch);
  }
  ivtv_capture_unlock (src->capture);
  GST_DEBUG_OBJECT (src, "%u colour balance channels",
      g_list_length (channels));
  return channels;
}

void
ivtv_color_balance_clear (GstIvtvSrc * src)
{
  GList *old;

  GST_OBJECT_LOCK (src);
  old = src->balance_channels;
  src->balance_channels = NULL;
  GST_OBJECT_UNLOCK (src);
  g_list_free_full (old, g_object_unref);
}

static const GList *
ivtv_color_balance_list_channels (GstColorBalance * balance)
{
  GstIvtvSrc *src = GST_IVTV_SRC (balance);
  GList *made = NULL;
  const GList *l;

  GST_OBJECT_LOCK (src);
  l = src->balance_channels;
  GST_OBJECT_UNLOCK (src);
  if (l == NULL)
    made = make_channels (src);
  GST_OBJECT_LOCK (src);
  if (src->balance_channels == NULL)
    src->balance_channels = g_steal_pointer (&made);
  l = src->balance_channels;
  GST_OBJECT_UNLOCK (src);
  g_list_free_full (made, g_object_unref);
  return l;
}

static void
ivtv_color_balance_set_value (GstColorBalance * balance,
    GstColorBalanceChannel * channel, gint value)
{
  GstIvtvSrc *src = GST_IVTV_SRC (balance);
  GError *err = NULL;
  guint32 cid;
  gint old = G_MININT, v;

  g_return_if_fail (channel != NULL);
  cid = channel_cid (channel);
  v = CLAMP (value, channel->min_value, channel->max_value);
  if (!ivtv_src_get_control (src, cid, NULL, &old))
    old = G_MININT;
  if (!ivtv_src_set_control (src, cid, NULL, v, &err)) {
    GST_ELEMENT_WARNING (src, RESOURCE, SETTINGS,
        (_("Could not set %s to %d: %s."), channel->label, value,
            err->message), (NULL));
    g_clear_error (&err);
    return;
  }
  if (old != v)
    gst_color_balance_value_changed (balance, channel, v);
}

static gint
ivtv_color_balance_get_value (GstColorBalance * balance,
    GstColorBalanceChannel * channel)
{
  gint v;

  g_return_val_if_fail (channel != NULL, 0);
  if (!ivtv_src_get_control (GST_IVTV_SRC (balance), channel_cid (channel),
          NULL, &v))
    v = channel->min_value;
  return CLAMP (v, channel->min_value, channel->max_value);
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
