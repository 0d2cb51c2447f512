/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — GstVideoOrientation over the card's flip controls, a thin
 * adapter on the element's one way in for a control.  See
 * ivtvorientation.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvorientation.h"
#include "gstivtvsrcpriv.h"
#include "ivtvdebug.h"

#define GST_CAT_DEFAULT ivtvsrc_debug

/* The card's value of the flip control, FALSE when it has none or the
 * device is not open. */
static gboolean
get_flip (GstVideoOrientation * vo, guint32 cid, gboolean * flip)
{
  GstIvtvSrc *src = GST_IVTV_SRC (vo);
  gboolean has;
  gint v = 0;

  ivtv_capture_lock (src->capture);
  has = ivtv_device_is_open (ivtv_capture_device (src->capture))
      && ivtv_probe_find_control (ivtv_capture_probe (src->capture), cid);
  ivtv_capture_unlock (src->capture);
  if (!has || !ivtv_src_get_control (src, cid, NULL, &v))
    return FALSE;
  *flip = v != 0;
  return TRUE;
}

/* Through the element's one way in for a control (recorded: a reconnect
 * flips again). */
static gboolean
set_flip (GstVideoOrientation * vo, guint32 cid, gboolean flip)
{
  GError *err = NULL;

  if (ivtv_src_set_control (GST_IVTV_SRC (vo), cid, NULL, flip ? 1 : 0,
          &err))
    return TRUE;
  GST_DEBUG_OBJECT (vo, "%s flip not set: %s",
      cid == V4L2_CID_HFLIP ? "horizontal" : "vertical", err->message);
  g_clear_error (&err);
  return FALSE;
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
