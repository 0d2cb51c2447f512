/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — GstVideoOrientation, as v4l2src implements it: horizontal and
 * vertical flip are the card's V4L2_CID_HFLIP and V4L2_CID_VFLIP controls,
 * set through the element's one way in for a control (ivtv_src_set_control
 * in gstivtvsrcpriv.h: recorded, so a reconnect flips again) and read from
 * the open device.  A card without the control, or a closed device,
 * answers FALSE (not supported); so do hcenter and vcenter (their controls
 * are deprecated in V4L2). */
#ifndef __IVTV_ORIENTATION_H__
#define __IVTV_ORIENTATION_H__

#include <gst/gst.h>
#include <gst/video/videoorientation.h>

G_BEGIN_DECLS

/* For G_IMPLEMENT_INTERFACE (GST_TYPE_VIDEO_ORIENTATION, ...). */
void ivtv_orientation_iface_init (GstVideoOrientationInterface * iface);

G_END_DECLS

#endif /* __IVTV_ORIENTATION_H__ */
