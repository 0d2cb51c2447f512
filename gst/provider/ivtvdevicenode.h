/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — one V4L2 video node as the GstDevice the provider lists
 * (ivtvdeviceprovider.h says what is listed and with which properties).
 *
 * IvtvNode is what finding the node told (its path, udev's device);
 * ivtv_node_describe() opens it as ivtvsrc opens it and makes the device:
 *   describe_capture    a capture node ivtvsrc opens: Video/Source, ivtvsrc
 *   describe_delegated  an output, multi-planar capture or (by default, see
 *                       node_for_ivtvsrc) streaming webcam node: the caps
 *                       and element of v4l2sink (v4l2src)
 *   describe_unopened   a node that does not open, with the reason
 * The properties are filled by props_new() (where it is, udev's keys),
 * props_add_querycap() (QUERYCAP, v4l2deviceprovider's keys),
 * props_add_probe() (what ivtvsrc probed) and props_add_card() (the
 * node's role by its kind, its card's siblings and ALSA device:
 * ivtvcard.h): a new kind of node adds a describe_ function and its
 * props_add_.
 */
#ifndef __IVTV_DEVICE_NODE_H__
#define __IVTV_DEVICE_NODE_H__

#include <gst/gst.h>

#if HAVE_GUDEV
#include <gudev/gudev.h>
#endif

G_BEGIN_DECLS

#define GST_TYPE_IVTV_SRC_DEVICE (gst_ivtv_src_device_get_type ())
G_DECLARE_FINAL_TYPE (GstIvtvSrcDevice, gst_ivtv_src_device,
    GST, IVTV_SRC_DEVICE, GstDevice);

/* The device node of a device from this provider (not a copy). */
const gchar *gst_ivtv_src_device_get_path (GstIvtvSrcDevice * device);

typedef struct
{
  gchar *path;
#if HAVE_GUDEV
  GUdevDevice *udev;            /* NULL: found by the /dev scan */
#endif
} IvtvNode;

IvtvNode *ivtv_node_new (const gchar * path);
#if HAVE_GUDEV
/* A video4linux device of udev's that may be a video node (/dev/videoN;
 * NULL for vbi, radio, v4l-subdev nodes), keeping udev's device. */
IvtvNode *ivtv_node_new_from_udev (GUdevDevice * udev);
#endif
void ivtv_node_free (gpointer node);

/* The node as the provider lists it: a new floating GstDevice, or NULL
 * when it is not listed (metadata, touch, m2m, no video, no caps). */
GstDevice *ivtv_node_describe (const IvtvNode * node);

G_END_DECLS

#endif /* __IVTV_DEVICE_NODE_H__ */
