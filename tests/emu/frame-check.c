/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* frame-check.c - checks a file of raw frames captured from an emulated
 * streaming node against the emulator's reference picture, byte for byte.
 *   frame-check FORMAT WIDTHxHEIGHT CONTENT FILE [MIN_FRAMES]
 *   frame-check S16LE - CONTENT FILE [MIN_BYTES]
 * FORMAT: UYVY, YUYV, HM12 (the bytes the node gives) or NV12 (what ivtvsrc
 * makes of an HM12 node: the reference is the same picture drawn as NV12).
 * S16LE: the file must be the PCM node's samples (pcm-samples.c) from the
 * first on, byte for byte.
 * CONTENT: the input's pattern (emu_input.content).  Frames may have been
 * dropped by the card (a slow reader), so each captured frame must equal
 * the reference of some frame number after the previous one's.  Prints the
 * frame numbers found; exit 0 when every frame matched and there were at
 * least MIN_FRAMES (default 1). */
#include "pcm.h"
#include "stream-frames.h"

#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEARCH 2000             /* frame numbers tried after the last match */

static uint32_t
fourcc_of (const char *s)
{
  if (strcmp (s, "UYVY") == 0)
    return V4L2_PIX_FMT_UYVY;
  if (strcmp (s, "YUYV") == 0)
    return V4L2_PIX_FMT_YUYV;
  if (strcmp (s, "NV12") == 0)
    return V4L2_PIX_FMT_NV12;
  if (strcmp (s, "HM12") == 0)
    return V4L2_PIX_FMT_HM12;
  return 0;
}

/* the PCM node's capture: every byte as pcm-samples.c makes it */
static int
check_pcm (int content, const char *path, long min)
{
  uint8_t got[4096], ref[4096];
  uint64_t pos = 0;
  size_t n, i;
  FILE *fp = fopen (path, "rb");

  if (!fp) {
    perror (path);
    return 2;
  }
  while ((n = fread (got, 1, sizeof (got), fp)) > 0) {
    emu_pcm_fill (content, pos, ref, n);
    for (i = 0; i < n; i++)
      if (got[i] != ref[i]) {
        printf ("byte %llu: 0x%02x, the card's sample has 0x%02x\n",
            (unsigned long long) (pos + i), got[i], ref[i]);
        fclose (fp);
        return 1;
      }
    pos += n;
  }
  fclose (fp);
  printf ("%llu bytes (%llu stereo frames) of S16LE match the card's "
      "samples\n", (unsigned long long) pos,
      (unsigned long long) (pos / EMU_PCM_FRAME_BYTES));
  return (long) pos >= min ? 0 : 1;
}

int
main (int argc, char **argv)
{
  struct emu_picture pic;
  uint32_t fourcc;
  unsigned w, h;
  size_t size;
  uint8_t *got, *ref;
  FILE *fp;
  uint64_t next = 0;
  long n = 0, min = argc > 5 ? atol (argv[5]) : 1;

  if (argc >= 5 && strcmp (argv[1], "S16LE") == 0)
    return check_pcm (atoi (argv[3]), argv[4], argc > 5 ? atol (argv[5]) : 1);
  if (argc < 5 || !(fourcc = fourcc_of (argv[1]))
      || sscanf (argv[2], "%ux%u", &w, &h) != 2) {
    fprintf (stderr, "usage: frame-check UYVY|YUYV|HM12|NV12 WxH CONTENT "
        "FILE [MIN_FRAMES]\n       frame-check S16LE - CONTENT FILE "
        "[MIN_BYTES]\n");
    return 2;
  }
  size = emu_frame_size (fourcc, w, h);
  fp = fopen (argv[4], "rb");
  if (!fp || size == 0) {
    perror (argv[4]);
    return 2;
  }
  got = malloc (size);
  ref = malloc (size);
  memset (&pic, 0, sizeof (pic));
  pic.width = w;
  pic.height = h;
  pic.content = atoi (argv[3]);
  while (fread (got, 1, size, fp) == size) {
    uint64_t k;

    for (k = next; k < next + SEARCH; k++) {
      pic.frame = k;
      if (emu_frame_draw (fourcc, &pic, ref, size) == size
          && memcmp (got, ref, size) == 0)
        break;
    }
    if (k == next + SEARCH) {
      printf ("frame %ld of the file matches no reference frame %llu..%llu\n",
          n, (unsigned long long) next,
          (unsigned long long) (next + SEARCH - 1));
      return 1;
    }
    printf ("%llu ", (unsigned long long) k);
    next = k + 1;
    n++;
  }
  printf ("\n%ld frames of %s %ux%u match the reference\n", n, argv[1], w, h);
  fclose (fp);
  free (got);
  free (ref);
  return n >= min ? 0 : 1;
}
