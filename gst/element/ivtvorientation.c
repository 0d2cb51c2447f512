/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — GstVideoOrientation over the card's flip controls.  See
 * ivtvorientation.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvorientation.h"
#include "ivtvdropin.h"
#include "ivtvdebug.h"

#include <errno.h>

#define GST_CAT_DEFAULT ivtvsrc_debug

/* The control's value, FALSE when the card has no such control or the
 * device is not open. */
static gboolean
get_flip (GstVideoOrientation * vo, guint32 cid, gboolean * flip)
{
  IvtvCapture *cap = ivtv_dropin_capture (G_OBJECT (vo));
  IvtvDevice *dev = ivtv_capture_device (cap);
  gint64 v = 0;
  gboolean ok;

  ivtv_capture_lock (cap);
  ok = ivtv_device_is_open (dev)
      && ivtv_probe_find_control (ivtv_capture_probe (cap), cid)
      && ivtv_device_get_control (dev, cid, &v);
  ivtv_capture_unlock (cap);
  if (ok)
    *flip = v != 0;
  return ok;
}

static gboolean
set_flip (GstVideoOrientation * vo, guint32 cid, gboolean flip)
{
  IvtvCapture *cap = ivtv_dropin_capture (G_OBJECT (vo));
  IvtvDevice *dev = ivtv_capture_device (cap);
  struct v4l2_control c = { cid, flip ? 1 : 0 };
  int ret = -ENOTTY;

  ivtv_capture_lock (cap);
  if (ivtv_device_is_open (dev)
      && ivtv_probe_find_control (ivtv_capture_probe (cap), cid))
    ret = ivtv_ioctl (dev, VIDIOC_S_CTRL, &c);
  ivtv_capture_unlock (cap);
  if (ret < 0)
    GST_DEBUG_OBJECT (vo, "%s flip not set: %s",
        cid == V4L2_CID_HFLIP ? "horizontal" : "vertical", g_strerror (-ret));
  return ret == 0;
}

static gboolean
get_hflip (GstVideoOrientation * vo, gboolean * flip)
{
  return get_flip (vo, V4L2_CID_HFLIP, flip);
}

static gboolean
get_vflip (GstVideoOrientation * vo, gboolean * flip)
{
  return get_flip (vo, V4L2_CID_VFLIP, flip);
}

static gboolean
set_hflip (GstVideoOrientation * vo, gboolean flip)
{
  return set_flip (vo, V4L2_CID_HFLIP, flip);
}

static gboolean
set_vflip (GstVideoOrientation * vo, gboolean flip)
{
  return set_flip (vo, V4L2_CID_VFLIP, flip);
}

void
ivtv_orientation_iface_init (GstVideoOrientationInterface * iface)
{
  iface->get_hflip = get_hflip;
  iface->get_vflip = get_vflip;
  iface->set_hflip = set_hflip;
  iface->set_vflip = set_vflip;
}
