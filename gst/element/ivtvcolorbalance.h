/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — GstColorBalance for the element: one channel for each of the
 * user controls brightness, contrast, saturation and hue the card has
 * (range from VIDIOC_QUERYCTRL, via the probe), values set and read with
 * VIDIOC_S_CTRL / VIDIOC_G_CTRL on the capture session's open device.
 * The channel list is made when first asked for while the device is open
 * and dropped when the device is closed.
 *
 * It knows no element: the object that implements the interface carries
 * its IvtvColorBalance (ivtv_color_balance_attach), which holds the
 * capture session it works on. */
#ifndef __IVTV_COLOR_BALANCE_H__
#define __IVTV_COLOR_BALANCE_H__

#include <gst/gst.h>
#include <gst/video/colorbalance.h>
#include "ivtvcapture.h"

G_BEGIN_DECLS

typedef struct _IvtvColorBalance IvtvColorBalance;

/* Attach a colour balance over @cap to @object (freed with it); messages
 * are posted on @object when it is an element. */
void ivtv_color_balance_attach (GObject * object, IvtvCapture * cap);

/* Drop the channels of @object (the device was closed). */
void ivtv_color_balance_clear (GObject * object);

/* For G_IMPLEMENT_INTERFACE (GST_TYPE_COLOR_BALANCE, ...). */
void ivtv_color_balance_iface_init (GstColorBalanceInterface * iface);

G_END_DECLS

#endif /* __IVTV_COLOR_BALANCE_H__ */
