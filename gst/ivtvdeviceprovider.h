/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the device provider "ivtvdeviceprovider": lists every V4L2
 * video capture node ivtvsrc can capture from (udev through gudev when it
 * was built with it, plus a scan of /dev/video0../dev/video255 for nodes
 * udev does not know), each as a GstDevice of class Video/Source whose
 * caps are what ivtvsrc would produce from it, and watches udev for nodes
 * appearing and disappearing.  gst_device_create_element() gives an
 * ivtvsrc with "device" set.
 *
 * Device properties: device.path, device.driver, device.bus, device.api
 * ("v4l2"), v4l2.card, v4l2.inputs, v4l2.standards, v4l2.io-methods
 * (comma-separated lists of names) and v4l2.current-input.
 */
#ifndef __IVTV_DEVICE_PROVIDER_H__
#define __IVTV_DEVICE_PROVIDER_H__

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_TYPE_IVTV_DEVICE_PROVIDER (gst_ivtv_device_provider_get_type ())
G_DECLARE_FINAL_TYPE (GstIvtvDeviceProvider, gst_ivtv_device_provider,
    GST, IVTV_DEVICE_PROVIDER, GstDeviceProvider);

#define GST_TYPE_IVTV_SRC_DEVICE (gst_ivtv_src_device_get_type ())
G_DECLARE_FINAL_TYPE (GstIvtvSrcDevice, gst_ivtv_src_device,
    GST, IVTV_SRC_DEVICE, GstDevice);

GST_DEVICE_PROVIDER_REGISTER_DECLARE (ivtvdeviceprovider);

/* Probe one node: a new (floating) GstDevice, or NULL when @path is no
 * capture device ivtvsrc can produce anything from. */
GstDevice *ivtv_device_provider_probe_path (const gchar * path);

/* The device node of a device from this provider (not a copy). */
const gchar *gst_ivtv_src_device_get_path (GstIvtvSrcDevice * device);

G_END_DECLS

#endif /* __IVTV_DEVICE_PROVIDER_H__ */
