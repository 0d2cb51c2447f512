/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtv-capture — FILE.framemd5, ffmpeg's per-frame checksums (framemd5.c) */
#ifndef IVTV_CAPTURE_FRAMEMD5_H
#define IVTV_CAPTURE_FRAMEMD5_H

#include <errno.h>
#include <gst/video/video.h>

typedef struct _CapFrameMd5 CapFrameMd5;

CapFrameMd5 *cap_framemd5_open (const gchar * path, GError ** error);
/* one planar frame as the encoder takes it; FALSE if it cannot be read */
gboolean cap_framemd5_add (CapFrameMd5 * m, const GstVideoInfo * info,
    GstBuffer * buf);
guint64 cap_framemd5_frames (CapFrameMd5 * m);
gboolean cap_framemd5_close (CapFrameMd5 * m);

#endif /* IVTV_CAPTURE_FRAMEMD5_H */
