/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — raw frame layouts (see ivtvlayout.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvlayout.h"

#include <string.h>

gboolean
ivtv_layout_from_driver (const GstVideoInfo * info, guint32 bytesperline,
    IvtvFrameLayout * l)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  gboolean differs = FALSE;
  gsize offset = 0;
  guint p, c;

  memset (l, 0, sizeof (*l));
  l->n_planes = GST_VIDEO_INFO_N_PLANES (info);
  for (p = 0; p < l->n_planes; p++) {
    l->rows[p] = GST_VIDEO_INFO_COMP_HEIGHT (info, 0);
    l->stride[p] = GST_VIDEO_INFO_PLANE_STRIDE (info, p);
    l->offset[p] = GST_VIDEO_INFO_PLANE_OFFSET (info, p);
  }
  l->size = GST_VIDEO_INFO_SIZE (info);
  if (bytesperline == 0 || GST_VIDEO_FORMAT_INFO_IS_TILED (finfo)
      || GST_VIDEO_INFO_COMP_WIDTH (info, 0) <= 0)
    return FALSE;

  for (p = 0; p < l->n_planes; p++) {
    gint pstride0 = MAX (GST_VIDEO_INFO_COMP_PSTRIDE (info, 0), 1);
    gint width0 = GST_VIDEO_INFO_COMP_WIDTH (info, 0);

    /* the first component stored in this plane */
    for (c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++)
      if (GST_VIDEO_FORMAT_INFO_PLANE (finfo, c) == p)
        break;
    if (c == GST_VIDEO_INFO_N_COMPONENTS (info))
      c = 0;
    l->rows[p] = GST_VIDEO_INFO_COMP_HEIGHT (info, c);
    if (p == 0)
      l->stride[p] = bytesperline;
    else
      l->stride[p] = (gint) ((guint64) bytesperline *
          GST_VIDEO_INFO_COMP_WIDTH (info, c) *
          MAX (GST_VIDEO_INFO_COMP_PSTRIDE (info, c), 1) /
          ((guint64) width0 * pstride0));
    l->offset[p] = offset;
    offset += (gsize) l->stride[p] * l->rows[p];
    if (l->stride[p] != GST_VIDEO_INFO_PLANE_STRIDE (info, p)
        || l->offset[p] != GST_VIDEO_INFO_PLANE_OFFSET (info, p))
      differs = TRUE;
  }
  l->size = offset;
  return differs;
}

GstBuffer *
ivtv_layout_copy_frame (GstMemory * mem, gsize bytesused,
    const GstVideoInfo * info, const IvtvFrameLayout * l)
{
  GstBuffer *out;
  GstMapInfo in, o;
  guint p;
  gint r;

  out = gst_buffer_new_allocate (NULL, info ? GST_VIDEO_INFO_SIZE (info) :
      bytesused, NULL);
  if (out == NULL)
    return NULL;
  if (!gst_memory_map (mem, &in, GST_MAP_READ)) {
    gst_buffer_unref (out);
    return NULL;
  }
  if (info == NULL) {
    gst_buffer_fill (out, 0, in.data, bytesused);
    gst_memory_unmap (mem, &in);
    return out;
  }
  if (!gst_buffer_map (out, &o, GST_MAP_WRITE)) {
    gst_memory_unmap (mem, &in);
    gst_buffer_unref (out);
    return NULL;
  }
  for (p = 0; p < l->n_planes; p++) {
    gint dst_stride = GST_VIDEO_INFO_PLANE_STRIDE (info, p);
    gsize row = MIN (dst_stride, l->stride[p]);

    for (r = 0; r < l->rows[p]; r++)
      memcpy (o.data + GST_VIDEO_INFO_PLANE_OFFSET (info, p) +
          (gsize) r * dst_stride, in.data + l->offset[p] +
          (gsize) r * l->stride[p], row);
  }
  gst_buffer_unmap (out, &o);
  gst_memory_unmap (mem, &in);
  return out;
}
