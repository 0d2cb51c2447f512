/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the device provider "ivtvdeviceprovider": lists every V4L2
 * video node once (udev through gudev when it was built with it, plus a
 * scan of /dev/video0../dev/video255 for nodes udev does not know) and
 * hides v4l2deviceprovider, which would list the same nodes again.
 *   - a capture node for ivtvsrc (MPEG, PCM, VBI, HM12, read()-only raw:
 *     ivtvdevicenode.c node_for_ivtvsrc): class Video/Source, the caps
 *     ivtvsrc would produce, gst_device_create_element() gives an ivtvsrc
 *     with "device" set;
 *   - an output node: Video/Sink for v4l2sink; a multi-planar capture
 *     node, and a streaming raw one (a webcam) unless
 *     IVTV_DEVICE_PROVIDER=all: Video/Source for v4l2src; each with that
 *     element's caps;
 *   - a node that does not open (permission, busy, gone): listed all the
 *     same, with the reason in ivtv.open-error and ivtv.open-error-code.
 * udev's add and remove events update the list.
 *
 * Device properties: v4l2deviceprovider's keys with its meaning
 * (device.path, device.api "v4l2", udev-probed, v4l2.device.driver,
 * v4l2.device.card, v4l2.device.bus_info, v4l2.device.version,
 * v4l2.device.capabilities, v4l2.device.device_caps, and from udev
 * device.bus_path, sysfs.path, udev.id, device.subsystem,
 * device.vendor.id, device.vendor.name, device.product.id,
 * device.product.name, device.serial, device.capabilities), and for
 * capture nodes ivtvsrc's: device.driver, device.bus (QUERYCAP's
 * bus_info), v4l2.card, v4l2.inputs, v4l2.standards, v4l2.io-methods
 * (comma-separated lists of names), v4l2.current-input, and the node's
 * place on its card: ivtv.role, ivtv.siblings, alsa.device when there is
 * one (ivtvcard.h).  Each device has the property "device-path", as
 * v4l2deviceprovider's.
 */
#ifndef __IVTV_DEVICE_PROVIDER_H__
#define __IVTV_DEVICE_PROVIDER_H__

#include <gst/gst.h>
#include "ivtvdevicenode.h"

G_BEGIN_DECLS

#define GST_TYPE_IVTV_DEVICE_PROVIDER (gst_ivtv_device_provider_get_type ())
G_DECLARE_FINAL_TYPE (GstIvtvDeviceProvider, gst_ivtv_device_provider,
    GST, IVTV_DEVICE_PROVIDER, GstDeviceProvider);

GST_DEVICE_PROVIDER_REGISTER_DECLARE (ivtvdeviceprovider);

/* Probe one node: a new (floating) GstDevice as the provider lists it,
 * or NULL when the node is not listed (no video node, no caps). */
GstDevice *ivtv_device_provider_probe_path (const gchar * path);

G_END_DECLS

#endif /* __IVTV_DEVICE_PROVIDER_H__ */
