/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — negotiation: the caps a device can give (MPEG by the card's
 * stream type, raw video and MJPEG), choosing among the raw caps
 * downstream accepts, and applying the choice to the device (S_FMT +
 * S_PARM, checking what the driver did).  The current capture format is
 * read through ivtv_device_get_format(); two other G_FMTs ask other
 * questions and are not format reads for negotiation: the signal watch's
 * HD PVR check (ivtvsignal.c, EFAULT means no signal) and the VBI node's
 * sliced/raw set-up (ivtvvbi.c, the VBI buffer types).
 *
 * The caps themselves come from ivtvcaps (ivtv_caps_from_probe: fourcc
 * table, sizes, frame rates, SDTV interlacing and pixel aspect ratio);
 * ivtv_negotiate_probe_caps() keeps the non-MPEG ones, passes the std only
 * when the current input takes one (not for the camera input of a TV
 * card), and puts them in the order of preference below.
 *
 * Preference (ivtv_negotiate_fixate): on a card with an analogue standard
 * (the current input takes a std) the std's native frame: 720x480 at
 * 30000/1001 (525 lines) or 720x576 at 25/1 (625 lines), interleaved —
 * never the scaler's maximum.  Its pixel aspect ratio is the driver's
 * (VIDIOC_CROPCAP pixelaspect, which is y/x), else 10/11 (525) or 12/11
 * (625); other frame sizes get it scaled (same picture, other sampling:
 * 640x480 of NTSC is 45/44).  Otherwise the device's
 * current format (G_FMT, G_PARM).  Structures that have the preferred
 * format and size come first, then those that have the size, then raw
 * formats, then the rest (stable).  Fixation takes the first structure
 * ranked that way and fixes its fields to the nearest preferred values
 * (frame rate 30/1, 640x480 when the device says nothing).
 *
 * Applying (ivtv_negotiate_apply): S_FMT with the fourcc, size and field
 * order (progressive -> NONE, interleaved -> INTERLACED), then S_PARM with
 * the frame rate where the driver has V4L2_CAP_TIMEPERFRAME.  A driver that
 * changes the format or size is an error; a different frame rate, field
 * order or stride is logged, and the result says what the device does.
 */
#ifndef __IVTV_NEGOTIATE_H__
#define __IVTV_NEGOTIATE_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include "ivtvdevice.h"
#include "ivtvprobe.h"

G_BEGIN_DECLS

/* What the device does after ivtv_negotiate_apply(). */
typedef struct
{
  guint32 pixelformat;
  guint32 width, height;
  guint32 field;                /* V4L2_FIELD_* the driver chose */
  guint32 bytesperline;
  guint32 sizeimage;
  gint fps_n, fps_d;            /* 0/1: unknown */
  gboolean is_raw;              /* video/x-raw: info is valid */
  GstVideoInfo info;
} IvtvNegotiated;

/* The fourcc among @probe's formats that the first structure of @caps
 * names (format field for video/x-raw); 0 if none. */
guint32 ivtv_negotiate_fourcc_for_caps (const IvtvProbe * probe,
    const GstCaps * caps);

/* Every non-MPEG capture format of @probe as caps, preferred first (never
 * NULL).  @dev (may be NULL) is asked for its current format. */
GstCaps *ivtv_negotiate_probe_caps (const IvtvProbe * probe,
    IvtvDevice * dev);

/* Fixates @caps (transfer full) as described above; @dev (may be NULL) is
 * asked for its current format and frame rate. */
GstCaps *ivtv_negotiate_fixate (const IvtvProbe * probe, IvtvDevice * dev,
    GstCaps * caps);

/* S_FMT + S_PARM for fixed @caps with width and height; FALSE with @error
 * (GST_RESOURCE_ERROR_SETTINGS) saying what the driver refused or changed.
 * Call it while not streaming. */
gboolean ivtv_negotiate_apply (IvtvDevice * dev, const IvtvProbe * probe,
    const GstCaps * caps, IvtvNegotiated * result, GError ** error);

/* Does the device deliver MPEG now (G_FMT), or only MPEG at all? */
gboolean ivtv_negotiate_format_is_mpeg (const IvtvProbe * probe,
    IvtvDevice * dev);

/* Every format the device can give as caps: MPEG (of @mpeg_stream_type,
 * every system stream when it is -1: no control, sniffed) first, then the
 * rest as ivtv_negotiate_probe_caps(). */
GstCaps *ivtv_negotiate_device_caps (const IvtvProbe * probe,
    IvtvDevice * dev, gint mpeg_stream_type);

/* S_FMT to MPEG unless it is set; FALSE with @error when refused. */
gboolean ivtv_negotiate_set_mpeg (IvtvDevice * dev, GError ** error);

/* Why downstream's @wanted cannot be met by @offered, as the error's
 * sentence (g_free): the stream-type to set when the card makes MPEG of
 * another type (@mpeg_stream_type, -1 unknown), else the formats and sizes
 * the card offers.  NULL when the caps intersect. */
gchar *ivtv_negotiate_explain (const gchar * device, const gchar * card,
    const GstCaps * offered, const GstCaps * wanted, gint mpeg_stream_type);

G_END_DECLS

#endif /* __IVTV_NEGOTIATE_H__ */
