/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — GstColorBalance for the element: one channel for each of the
 * user controls brightness, contrast, saturation and hue the card has
 * (range from VIDIOC_QUERYCTRL, via the probe).  A value goes through the
 * element's one way in for a control (ivtv_src_set_control: recorded, so
 * the next start and a reconnect set it again, and set at once while the
 * device is open); a value read is the card's.  The channel list lives in
 * the element's private struct: made when first asked for while the
 * device is open, dropped when it is closed (ivtv_color_balance_clear in
 * gstivtvsrcpriv.h). */
#ifndef __IVTV_COLOR_BALANCE_H__
#define __IVTV_COLOR_BALANCE_H__

#include <gst/video/colorbalance.h>

G_BEGIN_DECLS

/* For G_IMPLEMENT_INTERFACE (GST_TYPE_COLOR_BALANCE, ...). */
void ivtv_color_balance_iface_init (GstColorBalanceInterface * iface);

G_END_DECLS

#endif /* __IVTV_COLOR_BALANCE_H__ */
