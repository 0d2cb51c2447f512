/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — HM12 (V4L2_PIX_FMT_NV12_16L16), the macroblock-tiled NV12 of
 * the cx23415/6/8 YUV nodes (ivtv, cx18 /dev/video32), detiled into plain
 * NV12, a format GStreamer knows.  Pure functions. */
#ifndef __IVTV_HM12_H__
#define __IVTV_HM12_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* Bytes of one HM12 frame (= of the NV12 frame it becomes, stride =
 * width): width x height x 3 / 2. */
gsize ivtv_hm12_frame_size (guint width, guint height);

/* Detiles one HM12 frame @src (ivtv_hm12_frame_size() bytes: the Y plane
 * in 16x16-byte tiles, left to right then top to bottom, each tile row
 * after row, then the interleaved CbCr plane tiled the same way) into NV12
 * at @dst with strides @y_stride (Y) and @uv_stride (CbCr).  Sizes that
 * are not multiples of 16 are allowed: the tiles of the last column and
 * row are cut. */
void ivtv_hm12_to_nv12 (const guint8 * src, guint width, guint height,
    guint8 * dst_y, gint y_stride, guint8 * dst_uv, gint uv_stride);

/* A new buffer holding @in (an HM12 frame) as NV12 in GStreamer's default
 * layout, with @in's timestamps, offsets and flags; @in is unreffed.  A
 * buffer of another size (a partial frame) is returned as it is. */
GstBuffer *ivtv_hm12_convert_buffer (GstBuffer * in, guint width,
    guint height);

G_END_DECLS

#endif /* __IVTV_HM12_H__ */
