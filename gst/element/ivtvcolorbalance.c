/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — GstColorBalance over the card's brightness, contrast,
 * saturation and hue controls.  See ivtvcolorbalance.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvcolorbalance.h"
#include "ivtvdebug.h"

#include <errno.h>
#include <string.h>

#define GST_CAT_DEFAULT ivtvsrc_debug

struct _IvtvColorBalance
{
  IvtvCapture *cap;             /* not owned */
  GList *channels;              /* under the capture's lock */
};

static GQuark
balance_quark (void)
{
  return g_quark_from_static_string ("ivtv-color-balance");
}

static void
balance_free (gpointer data)
{
  IvtvColorBalance *cb = data;

  g_list_free_full (cb->channels, g_object_unref);
  g_free (cb);
}

void
ivtv_color_balance_attach (GObject * object, IvtvCapture * cap)
{
  IvtvColorBalance *cb = g_new0 (IvtvColorBalance, 1);

  cb->cap = cap;
  g_object_set_qdata_full (object, balance_quark (), cb, balance_free);
}

static IvtvColorBalance *
balance_of (gpointer object)
{
  return g_object_get_qdata (G_OBJECT (object), balance_quark ());
}

static const guint32 balance_cids[] = {
  V4L2_CID_BRIGHTNESS, V4L2_CID_CONTRAST, V4L2_CID_SATURATION, V4L2_CID_HUE
};

#define CID_KEY "ivtv-cid"

static guint32
channel_cid (GstColorBalanceChannel * ch)
{
  return GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (ch), CID_KEY));
}

/* the capture's lock held */
static void
build_channels (IvtvColorBalance * cb)
{
  IvtvProbe *probe = ivtv_capture_probe (cb->cap);
  guint i;

  if (cb->channels || !ivtv_device_is_open (ivtv_capture_device (cb->cap)))
    return;
  for (i = 0; i < G_N_ELEMENTS (balance_cids); i++) {
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
    cb->channels = g_list_append (cb->channels, ch);
  }
  GST_DEBUG ("%u colour balance channels", g_list_length (cb->channels));
}

void
ivtv_color_balance_clear (GObject * object)
{
  IvtvColorBalance *cb = balance_of (object);

  ivtv_capture_lock (cb->cap);
  g_list_free_full (cb->channels, g_object_unref);
  cb->channels = NULL;
  ivtv_capture_unlock (cb->cap);
}

static const GList *
ivtv_color_balance_list_channels (GstColorBalance * balance)
{
  IvtvColorBalance *cb = balance_of (balance);
  const GList *l;

  ivtv_capture_lock (cb->cap);
  build_channels (cb);
  l = cb->channels;
  ivtv_capture_unlock (cb->cap);
  return l;
}

static void
ivtv_color_balance_set_value (GstColorBalance * balance,
    GstColorBalanceChannel * channel, gint value)
{
  IvtvColorBalance *cb = balance_of (balance);
  IvtvDevice *dev = ivtv_capture_device (cb->cap);
  struct v4l2_control c;
  gint64 old = G_MININT64;
  int ret = -ENODEV;

  g_return_if_fail (channel != NULL);
  memset (&c, 0, sizeof (c));
  c.id = channel_cid (channel);
  c.value = CLAMP (value, channel->min_value, channel->max_value);
  ivtv_capture_lock (cb->cap);
  if (ivtv_device_is_open (dev) && c.id) {
    ivtv_device_get_control (dev, c.id, &old);
    ret = ivtv_ioctl (dev, VIDIOC_S_CTRL, &c);
  }
  ivtv_capture_unlock (cb->cap);

  if (ret < 0) {
    if (GST_IS_ELEMENT (balance))
      GST_ELEMENT_WARNING (balance, RESOURCE, SETTINGS,
          (_("Could not set %s to %d: %s."), channel->label, value,
              ret == -ENODEV ? "the device is not open" :
              g_strerror (-ret)), (NULL));
    return;
  }
  if (old != c.value)
    gst_color_balance_value_changed (balance, channel, c.value);
}

static gint
ivtv_color_balance_get_value (GstColorBalance * balance,
    GstColorBalanceChannel * channel)
{
  IvtvColorBalance *cb = balance_of (balance);
  IvtvDevice *dev = ivtv_capture_device (cb->cap);
  gint64 v = 0;
  guint32 cid;

  g_return_val_if_fail (channel != NULL, 0);
  cid = channel_cid (channel);
  ivtv_capture_lock (cb->cap);
  if (!ivtv_device_is_open (dev) || !cid
      || !ivtv_device_get_control (dev, cid, &v))
    v = channel->min_value;
  ivtv_capture_unlock (cb->cap);
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
