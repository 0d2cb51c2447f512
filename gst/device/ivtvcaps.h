/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — V4L2 formats as GStreamer caps.
 *
 * Owns the mapping table V4L2 fourcc <-> caps (raw video formats, MJPEG,
 * H.264, DV, MPEG), the MPEG caps that follow V4L2_CID_MPEG_STREAM_TYPE
 * (or, without that control, what the first bytes of the stream look like),
 * and the SDTV geometry of a TV standard (size, frame rate, interlacing,
 * pixel aspect ratio).  Pure functions: no device access.  Negotiation
 * (S_FMT / S_PARM) is ivtvnegotiate's.
 */
#ifndef __IVTV_CAPS_H__
#define __IVTV_CAPS_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include "ivtvprobe.h"

G_BEGIN_DECLS

/* An MPEG stream type we know nothing about: sniff the data. */
#define IVTV_MPEG_STREAM_UNKNOWN (-1)

/* Caps for V4L2_PIX_FMT_MPEG with V4L2_CID_MPEG_STREAM_TYPE @stream_type
 * (V4L2_MPEG_STREAM_TYPE_*):
 *   MPEG2_PS, MPEG2_DVD, MPEG2_SVCD -> video/mpeg, mpegversion=2, systemstream=true
 *   MPEG2_TS                        -> video/mpegts, systemstream=true, packetsize=188
 *   MPEG1_SS, MPEG1_VCD             -> video/mpeg, mpegversion=1, systemstream=true
 * NULL for IVTV_MPEG_STREAM_UNKNOWN or a value not listed. */
GstCaps *ivtv_caps_for_mpeg_stream_type (gint stream_type);

/* Guess the stream type from the first bytes of the stream: 0x47 every
 * 188 bytes -> TS; a pack header 00 00 01 BA -> PS (MPEG-1 or -2 from the
 * pack header's marker bits).  IVTV_MPEG_STREAM_UNKNOWN when unsure. */
gint ivtv_caps_sniff_mpeg (const guint8 * data, gsize len);

/* "MPEG-2 program stream", ... for messages. */
const gchar *ivtv_caps_mpeg_stream_type_name (gint stream_type);

/* One entry of the fourcc table. */
typedef struct
{
  guint32 fourcc;               /* V4L2_PIX_FMT_* */
  const gchar *media_type;      /* "video/x-raw", "image/jpeg", ... */
  GstVideoFormat format;        /* for video/x-raw, else UNKNOWN */
} IvtvFormatMap;

/* NULL when the fourcc has no caps (HM12, vendor formats, ...). */
const IvtvFormatMap *ivtv_caps_lookup_fourcc (guint32 fourcc);

/* The fourcc @s (one caps structure) describes, 0 if none.  For
 * video/x-raw the "format" field must be fixed. For video/mpeg and
 * video/mpegts: V4L2_PIX_FMT_MPEG. */
guint32 ivtv_caps_fourcc_from_structure (const GstStructure * s);

/* A structure for @fourcc with only the media type (and format): NULL
 * when unknown; MPEG gets the caps of @mpeg_stream_type (PS if unknown). */
GstStructure *ivtv_caps_structure_for_fourcc (guint32 fourcc,
    gint mpeg_stream_type);

/* Everything the device offers, in its order of preference: one structure
 * per format x size with width/height/framerate; MPEG without size.
 * @std is the current standard (for SDTV interlacing and aspect); 0 if
 * none.  Formats without a mapping are left out. Never NULL. */
GstCaps *ivtv_caps_from_probe (const IvtvProbe * probe, v4l2_std_id std,
    gint mpeg_stream_type);

/* SDTV geometry of a standard: 720x480 at 30000/1001 with pixel aspect
 * 10/11 for 525-line standards, 720x576 at 25/1 with 12/11 for 625-line
 * standards.  FALSE (outputs untouched) for 0 or an unknown mask. */
gboolean ivtv_caps_std_geometry (v4l2_std_id std, gint * width,
    gint * height, gint * fps_n, gint * fps_d, gint * par_n, gint * par_d);

/* Everything ivtvsrc can ever produce (pad template). */
GstCaps *ivtv_caps_template (void);

G_END_DECLS

#endif /* __IVTV_CAPS_H__ */
