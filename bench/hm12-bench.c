/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* hm12-bench.c - HM12 -> planar 4:2:0, ivtvsrc's own detiling
 * (gst/paths/ivtvhm12.c, to NV12) against libv4lconvert (v4lconvert_convert(),
 * HM12 to YUV420 = I420, its conversion), the same frames in the same run.
 *   ivtv-emu --profile pvr250-yuv -- hm12-bench [FRAMES]
 * Reads one real frame from the emulated YUV node (/dev/video0), converts
 * it FRAMES times (default 500) each way and prints the time per frame
 * and the ratio.  libv4lconvert needs a V4L2 fd: the emulated node's. */
#include "ivtvhm12.h"

#include <fcntl.h>
#include <libv4lconvert.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define W 720
#define H 480

static double
now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main (int argc, char **argv)
{
  int frames = argc > 1 ? atoi (argv[1]) : 500, i;
  size_t size = ivtv_hm12_frame_size (W, H);
  unsigned char *src = malloc (size), *dst = malloc (size);
  struct v4l2_format sf, df;
  struct v4lconvert_data *conv;
  double t0, own, lib;
  int fd = open ("/dev/video0", O_RDWR);

  if (fd < 0 || read (fd, src, size) != (ssize_t) size) {
    fprintf (stderr, "hm12-bench: no HM12 frame from /dev/video0 "
        "(run under ivtv-emu --profile pvr250-yuv)\n");
    return 2;
  }
  conv = v4lconvert_create (fd);
  memset (&sf, 0, sizeof (sf));
  sf.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  sf.fmt.pix.width = W;
  sf.fmt.pix.height = H;
  sf.fmt.pix.pixelformat = V4L2_PIX_FMT_HM12;
  sf.fmt.pix.bytesperline = W;
  sf.fmt.pix.sizeimage = size;
  df = sf;
  df.fmt.pix.pixelformat = V4L2_PIX_FMT_YUV420;
  if (!conv || v4lconvert_convert (conv, &sf, &df, src, size, dst, size) < 0) {
    fprintf (stderr, "hm12-bench: libv4lconvert cannot convert HM12: %s\n",
        conv ? v4lconvert_get_error_message (conv) : "no converter");
    return 2;
  }
  t0 = now_s ();
  for (i = 0; i < frames; i++)
    ivtv_hm12_to_nv12 (src, W, H, dst, W, dst + W * H, W);
  own = (now_s () - t0) / frames;
  t0 = now_s ();
  for (i = 0; i < frames; i++)
    v4lconvert_convert (conv, &sf, &df, src, size, dst, size);
  lib = (now_s () - t0) / frames;
  printf ("HM12 %dx%d, %d frames each, same run:\n", W, H, frames);
  printf ("  ivtvsrc detile (NV12):      %8.1f us/frame\n", own * 1e6);
  printf ("  libv4lconvert (YUV420/I420): %8.1f us/frame\n", lib * 1e6);
  printf ("  ratio libv4lconvert / ivtvsrc: %.2f\n", lib / own);
  v4lconvert_destroy (conv);
  close (fd);
  return 0;
}
