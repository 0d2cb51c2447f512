/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — HM12 -> NV12 detiling (see ivtvhm12.h).  The layout is the one
 * of the kernel's V4L2_PIX_FMT_NV12_16L16 (Documentation/userspace-api/
 * media/v4l/pixfmt-yuv-planar.rst) and of libv4lconvert's hm12.c: every
 * plane is cut in 16x16-byte tiles stored one after the other. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvhm12.h"

#include <string.h>

#define TILE 16

gsize
ivtv_hm12_frame_size (guint width, guint height)
{
  return (gsize) width *height * 3 / 2;
}

/* one tiled plane of @w x @h bytes (tiles cut at the right and bottom
 * edges) into rows of @stride; returns the tiled bytes consumed */
static gsize
detile_plane (const guint8 * src, guint w, guint h, guint8 * dst, gint stride)
{
  const guint8 *s = src;
  guint tx, ty, i;

  for (ty = 0; ty < h; ty += TILE) {
    guint rows = MIN (TILE, h - ty);

    for (tx = 0; tx < w; tx += TILE) {
      guint cols = MIN (TILE, w - tx);
      guint8 *d = dst + (gsize) ty * stride + tx;

      if (cols == TILE && rows == TILE) {
        for (i = 0; i < TILE; i++) {
          memcpy (d, s, TILE);
          d += stride;
          s += TILE;
        }
      } else {
        for (i = 0; i < rows; i++) {
          memcpy (d, s + (gsize) i * cols, cols);
          d += stride;
        }
        s += (gsize) rows * cols;
      }
    }
  }
  return (gsize) (s - src);
}

void
ivtv_hm12_to_nv12 (const guint8 * src, guint width, guint height,
    guint8 * dst_y, gint y_stride, guint8 * dst_uv, gint uv_stride)
{
  gsize ybytes = (gsize) width *height;

  detile_plane (src, width, height, dst_y, y_stride);
  detile_plane (src + ybytes, width, height / 2, dst_uv, uv_stride);
}

GstBuffer *
ivtv_hm12_convert_buffer (GstBuffer * in, guint width, guint height)
{
  gsize size = ivtv_hm12_frame_size (width, height);
  GstMapInfo src, dst;
  GstBuffer *out;

  if (width == 0 || height == 0 || gst_buffer_get_size (in) != size)
    return in;
  out = gst_buffer_new_allocate (NULL, size, NULL);
  if (out == NULL)
    return in;
  if (!gst_buffer_map (in, &src, GST_MAP_READ)) {
    gst_buffer_unref (out);
    return in;
  }
  if (!gst_buffer_map (out, &dst, GST_MAP_WRITE)) {
    gst_buffer_unmap (in, &src);
    gst_buffer_unref (out);
    return in;
  }
  ivtv_hm12_to_nv12 (src.data, width, height, dst.data, (gint) width,
      dst.data + (gsize) width * height, (gint) width);
  gst_buffer_unmap (out, &dst);
  gst_buffer_unmap (in, &src);
  gst_buffer_copy_into (out, in, GST_BUFFER_COPY_METADATA, 0, -1);
  gst_buffer_unref (in);
  return out;
}
