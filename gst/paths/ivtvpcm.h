/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the other nodes of an encoder card that are not video capture:
 * the PCM node (ivtv, cx18: /dev/video24, raw audio by read()), which
 * ivtvsrc captures as audio/x-raw, and the radio node (/dev/radioN),
 * which tunes but carries no samples. */
#ifndef __IVTV_PCM_H__
#define __IVTV_PCM_H__

#include "ivtvdevice.h"

G_BEGIN_DECLS

/* The PCM node's stream: signed 16-bit little-endian stereo at 48 kHz
 * (Documentation/admin-guide/media/ivtv.rst, "/dev/video24"); the driver
 * has no format ioctl for it. */
#define IVTV_PCM_RATE 48000
#define IVTV_PCM_CHANNELS 2
#define IVTV_PCM_BYTES_PER_FRAME 4

/* audio/x-raw, S16LE, interleaved, 2 channels, 48000 Hz */
GstCaps *ivtv_pcm_caps (void);

/* The PCM buffer's duration and its offsets in sample frames (its
 * offsets in bytes from the read path on entry). */
void ivtv_pcm_stamp_buffer (GstBuffer * buf);

/* The session's advice for a node the device layer refused as "not a
 * capture node" (IVTV_DEVICE_ERROR_NO_CAPTURE; @dev's QUERYCAP still
 * filled): when it is a radio node, *error's message becomes the sentence
 * that says so and names the card's PCM node (ivtv_card_find_node, role
 * "audio"); otherwise *error is left as it is. */
void ivtv_pcm_advise_radio (const IvtvDevice * dev, GError ** error);

G_END_DECLS

#endif /* __IVTV_PCM_H__ */
