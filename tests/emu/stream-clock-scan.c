/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* tests/emu: stream-clock-scan FILE... — runs ivtvstreamclock over each
 * file (or stdin for "-") in 64 KiB reads and prints one line per loss,
 * then "losses N bytes B" (for the tests that make the emulator's driver
 * queue overflow and compare with what the emulator says it dropped). */
#include "ivtvstreamclock.h"

#include <stdio.h>

static int
scan (FILE * f)
{
  IvtvStreamClock *sc = ivtv_stream_clock_new (IVTV_STREAM_CLOCK_AUTO);
  guint8 buf[65536];
  size_t n;
  guint count = 0;
  guint64 bytes = 0;

  while ((n = fread (buf, 1, sizeof (buf), f)) > 0) {
    const IvtvStreamLoss *l;
    guint k = ivtv_stream_clock_feed (sc, buf, n, &l), i;

    for (i = 0; i < k; i++) {
      printf ("loss at byte %" G_GUINT64_FORMAT " stream time %.3f s: %"
          G_GUINT64_FORMAT " bytes, %.1f ms\n", l[i].offset,
          l[i].stream_time / 1e9, l[i].bytes, l[i].duration / 1e6);
      bytes += l[i].bytes;
    }
    count += k;
  }
  printf ("losses %u bytes %" G_GUINT64_FORMAT " resync %" G_GUINT64_FORMAT
      "\n", count, bytes, ivtv_stream_clock_resyncs (sc));
  ivtv_stream_clock_free (sc);
  return 0;
}

int
main (int argc, char **argv)
{
  int i;

  for (i = 1; i < argc; i++) {
    FILE *f = g_strcmp0 (argv[i], "-") == 0 ? stdin : fopen (argv[i], "rb");

    if (f == NULL) {
      perror (argv[i]);
      return 2;
    }
    scan (f);
    if (f != stdin)
      fclose (f);
  }
  return 0;
}
