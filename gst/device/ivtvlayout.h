/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — raw frame layouts: where the planes of a frame are in a V4L2
 * driver's buffer (one bytesperline for all planes), and the copy of a
 * frame into GStreamer's default layout when the two differ.  Used by the
 * streaming path: ivtvstreamsetup.c reads the layout from the format,
 * ivtvstream.c copies a frame when it differs. */
#ifndef __IVTV_LAYOUT_H__
#define __IVTV_LAYOUT_H__

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

/* Where the planes of a raw frame are in the driver's buffer: V4L2 gives
 * one bytesperline (of the first plane) and single-buffer planar formats
 * extrapolate it to the other planes, which follow each other.  When that
 * differs from GStreamer's default layout of the GstVideoInfo (drivers
 * that pad lines), ivtv_stream_create() copies each frame into the
 * default layout (counted in stats.copied) instead of pushing wrong
 * pictures. */
typedef struct
{
  guint n_planes;
  gsize offset[GST_VIDEO_MAX_PLANES];
  gint stride[GST_VIDEO_MAX_PLANES];
  gint rows[GST_VIDEO_MAX_PLANES];
  gsize size;                   /* bytes the frame needs */
} IvtvFrameLayout;

/* Fills @layout for @info with the driver's @bytesperline (0: the
 * driver's default, i.e. GStreamer's).  Returns TRUE when it differs from
 * @info's own layout (the frame must be repacked). */
gboolean ivtv_layout_from_driver (const GstVideoInfo * info,
    guint32 bytesperline, IvtvFrameLayout * layout);

/* A new system-memory buffer with the frame in @mem: its first @bytesused
 * bytes as they are when @info is NULL, else repacked from the driver's
 * @layout into @info's.  NULL when out of memory or @mem cannot be read. */
GstBuffer *ivtv_layout_copy_frame (GstMemory * mem, gsize bytesused,
    const GstVideoInfo * info, const IvtvFrameLayout * layout);

G_END_DECLS

#endif /* __IVTV_LAYOUT_H__ */
