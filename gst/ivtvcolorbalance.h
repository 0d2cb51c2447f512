/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — GstColorBalance on the element: one channel for each of the
 * user controls brightness, contrast, saturation and hue the card has
 * (range from VIDIOC_QUERYCTRL, via the probe), values set and read with
 * VIDIOC_S_CTRL / VIDIOC_G_CTRL on the open device.  The channel list is
 * made when first asked for while the device is open and dropped when the
 * device is closed. */
#ifndef __IVTV_COLOR_BALANCE_H__
#define __IVTV_COLOR_BALANCE_H__

#include <gst/gst.h>
#include <gst/video/colorbalance.h>

G_BEGIN_DECLS

struct _GstIvtvSrc;

/* For G_IMPLEMENT_INTERFACE (GST_TYPE_COLOR_BALANCE, ...). */
void ivtv_color_balance_iface_init (GstColorBalanceInterface * iface);

/* Drop the channels (device closed, finalize); the device lock held. */
void ivtv_color_balance_clear (struct _GstIvtvSrc *src);

G_END_DECLS

#endif /* __IVTV_COLOR_BALANCE_H__ */
