/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* clock-bench FILE [ROUNDS] — the cost of the stream-clock loss detector
 * (gst/session/ivtvstreamclock.c) on the reader thread: FILE (a program or
 * transport stream, loaded once) fed in 512 KiB buffers, as ivtvsrc's
 * reader does, ROUNDS times (default 20); prints the best round's
 * microseconds per 512 KiB buffer (the least disturbed on a loaded
 * machine) and the losses seen (0 on a clean stream). */
#include "ivtvstreamclock.h"

#include <stdio.h>
#include <stdlib.h>

#define BUF (512 * 1024)

int
main (int argc, char **argv)
{
  gchar *data = NULL;
  gsize len = 0, at;
  guint rounds = argc > 2 ? (guint) atoi (argv[2]) : 20, r, losses = 0;
  gdouble best = G_MAXDOUBLE;

  if (argc < 2 || !g_file_get_contents (argv[1], &data, &len, NULL) || len < BUF) {
    fprintf (stderr, "usage: clock-bench FILE(>= 512 KiB) [ROUNDS]\n");
    return 2;
  }
  for (r = 0; r < rounds; r++) {
    IvtvStreamClock *sc = ivtv_stream_clock_new (IVTV_STREAM_CLOCK_AUTO);
    gint64 t0 = g_get_monotonic_time ();
    guint n = 0;

    losses = 0;
    for (at = 0; at + BUF <= len; at += BUF, n++)
      losses += ivtv_stream_clock_feed (sc, (const guint8 *) data + at, BUF,
          NULL);
    best = MIN (best, (gdouble) (g_get_monotonic_time () - t0) / n);
    ivtv_stream_clock_free (sc);
  }
  printf ("%s: %.1f us per 512 KiB buffer (best of %u), %u losses\n",
      argv[1], best, rounds, losses);
  g_free (data);
  return 0;
}
