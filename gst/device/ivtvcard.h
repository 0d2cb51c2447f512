/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — a node's place on its card: its role (MPEG, raw video, audio,
 * VBI), the other V4L2 nodes of the same card (same driver and bus_info)
 * and the ALSA capture device with the same sysfs parent (the method of
 * v4l-utils' libv4l2util get_first_alsa_cap_device()).  For the device
 * provider's properties and ivtvsrc's alsa-device property (the element
 * installs it). */
#ifndef __IVTV_CARD_H__
#define __IVTV_CARD_H__

#include "ivtvdevice.h"
#include "ivtvprobe.h"

G_BEGIN_DECLS

/* "mpeg", "raw-video", "audio" (the PCM node) or "vbi" */
const gchar *ivtv_card_role (const IvtvDevice * dev, const IvtvProbe * p);

/* The other nodes of @dev's card, "/dev/video24,/dev/video32,/dev/vbi0"
 * (/dev/video0..63, /dev/vbi0..31, /dev/radio0..31 answering QUERYCAP with
 * the same driver and bus_info), or "" (g_free). */
gchar *ivtv_card_siblings (const IvtvDevice * dev);

/* "hw:CARD=ID" of the ALSA card with a capture PCM whose sysfs device is
 * the video node's, or (USB) an interface of the same USB device; NULL if
 * none.  sysfs is read under $IVTV_SYSFS (the emulator's fake tree),
 * else /sys. */
gchar *ivtv_card_alsa_device (const gchar * node_path);

G_END_DECLS

#endif /* __IVTV_CARD_H__ */
