/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — what raw caps say about the picture beyond its size: the
 * colorimetry from the driver's colorspace, ycbcr_enc, quantization and
 * xfer_func (struct v4l2_pix_format), and the field order of interleaved
 * SDTV frames (V4L2_FIELD_INTERLACED_TB/BT directly; for
 * V4L2_FIELD_INTERLACED the standard's: bottom field first on 525 lines,
 * top field first on 625, as the V4L2 spec's "Field Order" says).  Pure
 * functions: no device, no state. */
#ifndef __IVTV_COLOR_H__
#define __IVTV_COLOR_H__

#include <gst/gst.h>
#include <gst/video/video.h>
#include <linux/videodev2.h>

G_BEGIN_DECLS

/* GStreamer's colorimetry for a V4L2 format's colour fields (0 = the
 * driver's default, resolved as videodev2.h's V4L2_MAP_*_DEFAULT do);
 * @is_rgb: an RGB pixel format; @sdtv: an SDTV picture, whose unknown
 * colorspace is SMPTE 170M (BT.601).  FALSE when nothing is known (a
 * colorspace 0 that is not SDTV, or one GStreamer has no name for). */
gboolean ivtv_color_from_v4l2 (guint32 colorspace, guint32 ycbcr_enc,
    guint32 quantization, guint32 xfer_func, gboolean is_rgb, gboolean sdtv,
    GstVideoColorimetry * out);

/* "top-field-first", "bottom-field-first" or NULL (progressive or an
 * order the standard does not tell). */
const gchar *ivtv_color_field_order (guint32 field, v4l2_std_id std);

/* Every video/x-raw structure of @caps: "colorimetry" from @fmt's colour
 * fields when its pixel format is the structure's (@fmt may be NULL; else
 * the defaults), "field-order" on the interleaved ones (from @fmt's field
 * when it says TB or BT, else from @std). */
void ivtv_color_annotate_caps (GstCaps * caps, const struct v4l2_format *fmt,
    v4l2_std_id std);

G_END_DECLS

#endif /* __IVTV_COLOR_H__ */
