/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtv-capture — FILE.framemd5: one MD5 per frame of the archival file in
 * ffmpeg's framemd5 format (libavformat/hashenc.c, "framemd5": a header,
 * then "stream, dts, pts, duration, size, hash" per packet of the decoded
 * frames as rawvideo), so that `ffmpeg -i FILE.mkv -f framemd5 -` prints
 * the same video lines.  The frames are hashed as the encoder takes them
 * (planar, lossless FFV1 gives them back bit for bit): each plane's rows
 * without padding, as ffmpeg's rawvideo encoder packs them
 * (av_image_copy_to_buffer with alignment 1); time base 1/fps, so pts is
 * the frame's number. */
#include "framemd5.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <gst/video/video.h>
#include <stdio.h>

struct _CapFrameMd5
{
  FILE *f;
  gint fps_n, fps_d;
  gboolean header;
  guint64 frames;
};

CapFrameMd5 *
cap_framemd5_open (const gchar * path, GError ** error)
{
  CapFrameMd5 *m;
  FILE *f = fopen (path, "w");

  if (f == NULL) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        _("cannot write %s: %s"), path, g_strerror (errno));
    return NULL;
  }
  m = g_new0 (CapFrameMd5, 1);
  m->f = f;
  return m;
}

static void
write_header (CapFrameMd5 * m, const GstVideoInfo * info)
{
  gint par_n = GST_VIDEO_INFO_PAR_N (info), par_d = GST_VIDEO_INFO_PAR_D (info);

  m->fps_n = GST_VIDEO_INFO_FPS_N (info) > 0 ? GST_VIDEO_INFO_FPS_N (info) : 25;
  m->fps_d = GST_VIDEO_INFO_FPS_D (info) > 0 ? GST_VIDEO_INFO_FPS_D (info) : 1;
  fprintf (m->f, "#format: frame checksums\n#version: 2\n#hash: MD5\n"
      "#software: ivtv-capture\n#tb 0: %d/%d\n#media_type 0: video\n"
      "#codec_id 0: rawvideo\n#dimensions 0: %dx%d\n#sar 0: %d/%d\n"
      "#stream#, dts,        pts, duration,     size, hash\n",
      m->fps_d, m->fps_n, GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), par_n > 0 ? par_n : 1,
      par_d > 0 ? par_d : 1);
  m->header = TRUE;
}

gboolean
cap_framemd5_add (CapFrameMd5 * m, const GstVideoInfo * info, GstBuffer * buf)
{
  GstVideoFrame frame;
  GChecksum *sum;
  guint p, row, size = 0;
  gint64 pts;

  if (!gst_video_frame_map (&frame, (GstVideoInfo *) info, buf, GST_MAP_READ))
    return FALSE;
  if (!m->header)
    write_header (m, info);
  sum = g_checksum_new (G_CHECKSUM_MD5);
  for (p = 0; p < GST_VIDEO_FRAME_N_PLANES (&frame); p++) {
    const guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (&frame, p);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p);
    guint rows = GST_VIDEO_FRAME_COMP_HEIGHT (&frame, p);
    guint bytes = GST_VIDEO_FRAME_COMP_WIDTH (&frame, p) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, p);

    for (row = 0; row < rows; row++)
      g_checksum_update (sum, data + (gsize) row * stride, bytes);
    size += rows * bytes;
  }
  gst_video_frame_unmap (&frame);
  pts = GST_BUFFER_PTS_IS_VALID (buf) ?
      (gint64) gst_util_uint64_scale_round (GST_BUFFER_PTS (buf), m->fps_n,
      (guint64) m->fps_d * GST_SECOND) : (gint64) m->frames;
  fprintf (m->f, "0, %10" G_GINT64_FORMAT ", %10" G_GINT64_FORMAT
      ", %8d, %8u, %s\n", pts, pts, 1, size, g_checksum_get_string (sum));
  g_checksum_free (sum);
  m->frames++;
  return TRUE;
}

guint64
cap_framemd5_frames (CapFrameMd5 * m)
{
  return m ? m->frames : 0;
}

gboolean
cap_framemd5_close (CapFrameMd5 * m)
{
  gboolean ok;

  if (m == NULL)
    return TRUE;
  ok = fclose (m->f) == 0;
  g_free (m);
  return ok;
}
