/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — a node's place on its card: its kind (MPEG, raw video, HM12,
 * audio, VBI, radio: decided here, once), the one iterator over the other
 * V4L2 nodes of the same card (same driver and bus_info) with their roles,
 * and the ALSA capture device with the same sysfs parent (the method of
 * v4l-utils' libv4l2util get_first_alsa_cap_device()).  Used by the
 * session (the kind at open, a device-fd's node), the PCM/radio advice
 * (ivtvpcm.c), the device provider's properties and ivtvsrc's alsa-device
 * property (the element installs it). */
#ifndef __IVTV_CARD_H__
#define __IVTV_CARD_H__

#include "ivtvdevice.h"
#include "ivtvprobe.h"

G_BEGIN_DECLS

/* What a node is, decided by ivtv_card_node_kind() and nowhere else: the
 * session keeps it from its open (ivtv_capture_node_kind) and chooses its
 * path and caps by it; the device provider's class, caps and role and this
 * iterator's roles follow from it. */
typedef enum
{
  IVTV_NODE_NONE,               /* not open */
  IVTV_NODE_MPEG,               /* an encoder's compressed stream */
  IVTV_NODE_RAW,                /* raw video (webcam, vivid, ...) */
  IVTV_NODE_HM12,               /* the cx2341x YUV node: HM12, detiled */
  IVTV_NODE_PCM,                /* the cx2341x PCM node: S16LE audio */
  IVTV_NODE_VBI,                /* a VBI node (raw or sliced) */
  IVTV_NODE_RADIO               /* a radio node: tunes, carries no samples */
} IvtvNodeKind;

/* The kind of the open node @dev from what it says it is: its capabilities
 * (VBI, the PCM node, radio) and its formats (all MPEG: MPEG; all HM12:
 * HM12; else raw).  The formats are @p's, or (@p NULL) asked with
 * VIDIOC_ENUM_FMT. */
IvtvNodeKind ivtv_card_node_kind (IvtvDevice * dev, const IvtvProbe * p);

/* The kind as the device provider's ivtv.role and the iterator's roles
 * name it: "mpeg", "raw-video" (raw and HM12), "audio" (the PCM node),
 * "vbi", "radio"; "other" for IVTV_NODE_NONE. */
const gchar *ivtv_card_kind_role (IvtvNodeKind kind);

/* The one iterator over "the other nodes of this card, by role":
 * /dev/video0..63, then /dev/vbi0..31, then /dev/radio0..31 answering
 * QUERYCAP with @card's driver and bus_info, but @skip (a path, may be
 * NULL).  @visit gets each one's path, QUERYCAP and role ("mpeg",
 * "raw-video", "audio", "vbi" for capture nodes; "radio" or "other" for
 * nodes that are not) and returns TRUE to stop there: that path is
 * returned (g_free), else NULL.  Used by the session (the node of an
 * application's fd that went away), the PCM node's and radio's advice
 * (ivtvpcm.c) and the device provider (siblings). */
typedef gboolean (*IvtvCardVisit) (const gchar * path,
    const struct v4l2_capability * cap, const gchar * role, gpointer data);
gchar *ivtv_card_find_node (const struct v4l2_capability *card,
    const gchar * skip, IvtvCardVisit visit, gpointer data);

/* The other nodes of @dev's card, "/dev/video24,/dev/video32,/dev/vbi0"
 * (ivtv_card_find_node), or "" (g_free). */
gchar *ivtv_card_siblings (const IvtvDevice * dev);

/* "hw:CARD=ID" of the ALSA card with a capture PCM whose sysfs device is
 * the video node's, or (USB) an interface of the same USB device; NULL if
 * none.  sysfs is read under $IVTV_SYSFS (the emulator's fake tree),
 * else /sys. */
gchar *ivtv_card_alsa_device (const gchar * node_path);

G_END_DECLS

#endif /* __IVTV_CARD_H__ */
