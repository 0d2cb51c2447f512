/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of ivtvframegap.c (frames a driver dropped, found from the
 * frames' times): capture timestamps with a gap of 3 periods give 2 lost,
 * jitter and the first frames none, frames the sequence counted are not
 * counted again, a burst faster than real time is not judged, frames made
 * during a pause are not judged; arrival times: a
 * late reader without a drop gives none, frames skipped give their count
 * once the stream comes at its pace again, a burst from a driver's queue
 * after a stall counts only what is missing, a slow card's drift none.
 * A device off the nominal rate (27.9 and 30.6 frames/s on NTSC, 24 and
 * 26.5 on PAL, 10 % either side): each hole counted exactly, where it is;
 * a long stall early in a capture exact once settled; +-20 % jitter
 * none; a slow host's late stamps none. */
#include "ivtvframegap.h"

#include <gst/check/gstcheck.h>

#define P (GST_SECOND / 30)

/* feeds @n times t0 + k * P + @jitter(k) for k in [from, from + n) */
static guint64
feed_run (IvtvFrameGap * g, GstClockTime t0, guint from, guint n,
    GstClockTime jitter)
{
  guint64 lost = 0;
  guint k;

  for (k = from; k < from + n; k++)
    lost += ivtv_frame_gap_feed (g, t0 + k * P + (k % 3 ? jitter : 0));
  return lost;
}

GST_START_TEST (test_capture_gap)
{
  IvtvFrameGap g;

  ivtv_frame_gap_init (&g, IVTV_FRAME_GAP_CAPTURE, P);
  fail_unless_equals_uint64 (feed_run (&g, GST_SECOND, 0, 10, P / 3), 0);
  /* frames 10 and 11 missing: found on the frames after the gap */
  fail_unless_equals_uint64 (feed_run (&g, GST_SECOND, 12, 10, 0), 2);
  /* a whole second missing (22 to 51) */
  fail_unless_equals_uint64 (feed_run (&g, GST_SECOND, 52, 10, 0), 30);
  /* the sequence said so already: not again */
  ivtv_frame_gap_account (&g, 3);
  fail_unless_equals_uint64 (feed_run (&g, GST_SECOND, 65, 10, 0), 0);
  /* a frame 1.6 periods after 74, then 77 on: one (of 75, 76) missing */
  fail_unless_equals_uint64 (ivtv_frame_gap_feed (&g, GST_SECOND + 75 * P +
          P * 8 / 5), 0);
  fail_unless_equals_uint64 (feed_run (&g, GST_SECOND, 77, 10, 0), 1);
}

GST_END_TEST;

GST_START_TEST (test_capture_not_judged)
{
  IvtvFrameGap g;
  GstClockTime t = GST_SECOND, mono = 10 * GST_SECOND;
  guint k;

  ivtv_frame_gap_init (&g, IVTV_FRAME_GAP_CAPTURE, P);
  /* the first two frames far apart (a start): no interval before */
  fail_unless_equals_uint64 (ivtv_frame_gap_feed (&g, t), 0);
  fail_unless_equals_uint64 (ivtv_frame_gap_feed (&g, t + 5 * P), 0);
  /* a burst faster than real time (no pacing), then a wait: not judged */
  ivtv_frame_gap_restart (&g);
  for (k = 0; k < 10; k++)
    fail_unless_equals_uint64 (ivtv_frame_gap_feed (&g, t + k * 1000), 0);
  fail_unless_equals_uint64 (ivtv_frame_gap_feed (&g, t + 10 * P), 0);
  /* a pause: the monotonic clock ran 2 s, the running time did not;
   * frames captured before the resume and the first after are not judged */
  ivtv_frame_gap_init (&g, IVTV_FRAME_GAP_CAPTURE, P);
  fail_unless (!ivtv_frame_gap_clock (&g, mono, GST_SECOND));
  fail_unless_equals_uint64 (feed_run (&g, mono - 10 * P, 0, 10, 0), 0);
  fail_unless (!ivtv_frame_gap_clock (&g, mono + 10 * P, GST_SECOND +
          10 * P));
  fail_unless (ivtv_frame_gap_clock (&g, mono + 2 * GST_SECOND + 10 * P,
          GST_SECOND + 11 * P));
  /* 8 frames the driver held from the pause's start, then the new ones */
  fail_unless_equals_uint64 (feed_run (&g, mono, 10, 8, 0), 0);
  fail_unless_equals_uint64 (feed_run (&g, mono + 2 * GST_SECOND, 70, 5, 0),
      0);
  /* after that, a gap counts again (75 and 76) */
  fail_unless_equals_uint64 (feed_run (&g, mono + 2 * GST_SECOND, 77, 5, 0),
      2);
}

GST_END_TEST;

GST_START_TEST (test_arrival)
{
  IvtvFrameGap g;
  GstClockTime t0 = GST_SECOND;
  guint64 lost;
  guint k;

  ivtv_frame_gap_init (&g, IVTV_FRAME_GAP_ARRIVAL, P);
  fail_unless_equals_uint64 (feed_run (&g, t0, 0, 20, P / 5), 0);
  /* the reader late by 1.6 periods, nothing dropped: frame 20 late, 21 at
   * once after it, 22 on time */
  fail_unless_equals_uint64 (ivtv_frame_gap_feed (&g, t0 + 20 * P + P * 8 /
          5), 0);
  fail_unless_equals_uint64 (ivtv_frame_gap_feed (&g, t0 + 21 * P + P / 10),
      0);
  fail_unless_equals_uint64 (feed_run (&g, t0, 22, 10, 0), 0);
  /* three frames skipped (32-34), then at the pace again */
  lost = feed_run (&g, t0 + 3 * P, 32, 10, P / 5);
  fail_unless_equals_uint64 (lost, 3);
  /* a 2 s stall, a burst of 4 frames the driver kept, the rest dropped:
   * 60 periods, 4 + 1 frames came, 56 missing... counted when the pace
   * is back */
  lost = 0;
  for (k = 0; k < 4; k++)
    lost += ivtv_frame_gap_feed (&g, t0 + 3 * P + 102 * P + k * 1000);
  lost += feed_run (&g, t0 + 3 * P, 103, 10, 0);
  fail_unless_equals_uint64 (lost, 102 - 42 - 4 + 1);
  /* a card 0.1 % slower than nominal for a minute: no loss */
  ivtv_frame_gap_init (&g, IVTV_FRAME_GAP_ARRIVAL, P);
  lost = 0;
  for (k = 0; k < 1800; k++)
    lost += ivtv_frame_gap_feed (&g, t0 + k * (P + P / 1000));
  fail_unless_equals_uint64 (lost, 0);
}

GST_END_TEST;

/* ---- a device off the standard's rate ---- */

#define NTSC (GST_SECOND * 1001 / 30000)
#define PAL (GST_SECOND / 25)

/* A device whose frames come every @dev_period (its own rate) with a
 * jitter uniform within +-@jitter_pct % of a period (seeded: the same
 * every run), fed to a helper at @nominal; the frames numbered in
 * @holes[] (pairs: first missing, how many; 0-terminated) are missing.
 * Checks that each hole is counted exactly: on the second frame after it
 * (with the first one's time as where it is), all of it or, when the
 * period is not known well enough for so long a hole, part of it and the
 * rest within 34 frames; nothing else counted.  Returns the total. */
static guint64
run_seed (guint32 seed, IvtvFrameGapKind kind, GstClockTime nominal,
    GstClockTime dev_period, guint jitter_pct, guint frames,
    const guint * holes)
{
  IvtvFrameGap g;
  GRand *rand = g_rand_new_with_seed (seed);
  guint64 total = 0, expect = 0, got = 0;
  guint k, h = 0, after = 0;
  GstClockTime hole_t = GST_CLOCK_TIME_NONE;

  ivtv_frame_gap_init (&g, kind, nominal);
  for (k = 0; k < frames; k++) {
    gint64 j = (gint64) dev_period * jitter_pct / 100;
    GstClockTime t = GST_SECOND + k * dev_period + (j ? g_rand_int_range (rand,
            (gint32) - j, (gint32) j) : 0);
    guint64 lost;

    if (holes[h] && k == holes[h]) {
      fail_unless (got == expect, "a hole of %" G_GUINT64_FORMAT " counted as %"
          G_GUINT64_FORMAT, expect, got);
      expect = holes[h + 1];
      got = 0;
      k += expect;
      t += expect * dev_period;
      after = 0;
      h += 2;
    }
    lost = ivtv_frame_gap_feed (&g, t);
    if (expect && after == 0)
      hole_t = t;
    if (lost) {
      fail_unless (expect && after >= 1 && after <= 34 && (got > 0
              || after == 1) && got + lost <= expect, "frame %u: %"
          G_GUINT64_FORMAT " lost, %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
          " counted %u frames after a hole", k, lost, got, expect, after);
      fail_unless_equals_uint64 (ivtv_frame_gap_hole_time (&g), hole_t);
      got += lost;
    }
    after++;
    total += lost;
  }
  fail_unless (got == expect, "a hole of %" G_GUINT64_FORMAT " counted as %"
      G_GUINT64_FORMAT, expect, got);
  g_rand_free (rand);
  return total;
}

#define run_device(...) run_seed (4711, __VA_ARGS__)

#define FPS(f) ((GstClockTime) (GST_SECOND / (f)))

/* 27.9 and 30.6 frames/s on NTSC (usbtv and stk1160 under a slow virtual
 * machine), 10 % either side: holes of 1, 2, 3 and 60 frames (a 2 s
 * stall) each counted exactly where they are, with a 10 % jitter */
GST_START_TEST (test_off_rate_ntsc)
{
  static const guint holes[] = { 40, 1, 100, 2, 150, 60, 300, 1, 350, 3, 0 };
  static const gdouble rates[] = { 27.9, 30.6, 27.0, 33.0, 29.97 };
  guint k;

  for (k = 0; k < G_N_ELEMENTS (rates); k++)
    fail_unless_equals_uint64 (run_device (IVTV_FRAME_GAP_CAPTURE, NTSC,
            FPS (rates[k]), 10, 500, holes), 67);
}

GST_END_TEST;

/* the stall in the virtual machine's check: after 12 frames only (the
 * period known from 11 intervals), 54 and 60 frames missing */
GST_START_TEST (test_off_rate_early_stall)
{
  static const guint holes279[] = { 12, 54, 0 };
  static const guint holes306[] = { 12, 60, 0 };

  fail_unless_equals_uint64 (run_device (IVTV_FRAME_GAP_CAPTURE, NTSC,
          FPS (27.9), 5, 120, holes279), 54);
  fail_unless_equals_uint64 (run_device (IVTV_FRAME_GAP_CAPTURE, NTSC,
          FPS (30.6), 5, 120, holes306), 60);
}

GST_END_TEST;

/* the same stall (55 frames after 12) with a 10 % jitter, 40 times: the
 * period from 11 intervals is not known well enough for a count that
 * long at once (0.5 % off is a frame in 55); each is exact once the
 * frames after it settle it */
GST_START_TEST (test_off_rate_early_stall_settled)
{
  static const guint holes[] = { 12, 55, 0 };
  guint32 seed;

  for (seed = 1; seed <= 20; seed++) {
    fail_unless_equals_uint64 (run_seed (seed, IVTV_FRAME_GAP_CAPTURE, NTSC,
            FPS (27.9), 10, 120, holes), 55);
    fail_unless_equals_uint64 (run_seed (seed, IVTV_FRAME_GAP_CAPTURE, NTSC,
            FPS (30.6), 10, 120, holes), 55);
  }
}

GST_END_TEST;

/* PAL: 24 and 26.5 frames/s on 25 */
GST_START_TEST (test_off_rate_pal)
{
  static const guint holes[] = { 30, 1, 90, 5, 200, 50, 0 };

  fail_unless_equals_uint64 (run_device (IVTV_FRAME_GAP_CAPTURE, PAL,
          FPS (24.0), 10, 400, holes), 56);
  fail_unless_equals_uint64 (run_device (IVTV_FRAME_GAP_ARRIVAL, PAL,
          FPS (26.5), 10, 400, holes), 56);
}

GST_END_TEST;

/* jitter of +-20 % of a period, nothing missing, 5 minutes each: none
 * counted, on and off the nominal rate, NTSC and PAL */
GST_START_TEST (test_jitter_no_loss)
{
  static const guint none[] = { 0 };

  fail_unless_equals_uint64 (run_device (IVTV_FRAME_GAP_CAPTURE, NTSC,
          FPS (27.9), 20, 9000, none), 0);
  fail_unless_equals_uint64 (run_device (IVTV_FRAME_GAP_CAPTURE, NTSC,
          FPS (30.6), 20, 9000, none), 0);
  fail_unless_equals_uint64 (run_device (IVTV_FRAME_GAP_ARRIVAL, NTSC,
          NTSC, 20, 9000, none), 0);
  fail_unless_equals_uint64 (run_device (IVTV_FRAME_GAP_CAPTURE, PAL,
          FPS (23.0), 20, 7500, none), 0);
}

GST_END_TEST;

/* read(): a device at 27.9 frames/s, the reader stalled 2 s; the
 * driver's queue kept 4 frames, given at once, the rest dropped: what is
 * missing counted, once the frames come at their pace again (and the
 * period's error, from 30 frames read 0 and 0.1 periods late in turn,
 * is small enough for 52) */
GST_START_TEST (test_off_rate_burst)
{
  IvtvFrameGap g;
  GstClockTime p = FPS (27.9), t0 = GST_SECOND;
  guint64 lost = 0;
  guint k;

  ivtv_frame_gap_init (&g, IVTV_FRAME_GAP_ARRIVAL, NTSC);
  for (k = 0; k < 30; k++)
    lost += ivtv_frame_gap_feed (&g, t0 + k * p + (k % 2) * p / 10);
  fail_unless_equals_uint64 (lost, 0);
  /* 30..33 kept, read at once as the reader comes back before 86 is
   * made; 34..85 dropped; 86 on at their pace */
  for (k = 30; k < 34; k++)
    lost += ivtv_frame_gap_feed (&g, t0 + 85 * p + p / 2 + (k - 30) * 1000);
  for (k = 86; k < 130; k++)
    lost += ivtv_frame_gap_feed (&g, t0 + k * p + (k % 2) * p / 10);
  fail_unless_equals_uint64 (lost, 86 - 34 - 0);
}

GST_END_TEST;

/* a slow host (a loaded qemu guest stamping usbtv's frames as it gets to
 * them): nothing missing, but 4 frames stamped each about 1.3 periods
 * later than the last, then 6 in a burst that catches up: no loss; a
 * real hole after it still counts */
GST_START_TEST (test_slow_host)
{
  IvtvFrameGap g;
  GstClockTime t0 = GST_SECOND;
  guint64 lost = 0;
  guint k;

  ivtv_frame_gap_init (&g, IVTV_FRAME_GAP_CAPTURE, NTSC);
  for (k = 0; k < 20; k++)
    lost += ivtv_frame_gap_feed (&g, t0 + k * NTSC);
  for (k = 20; k < 24; k++)
    lost += ivtv_frame_gap_feed (&g, t0 + k * NTSC + (k - 19) * NTSC * 13 / 10);
  for (k = 24; k < 30; k++)
    lost += ivtv_frame_gap_feed (&g, t0 + 23 * NTSC + 4 * NTSC * 13 / 10 +
        (k - 23) * NTSC / 5);
  for (k = 30; k < 60; k++)
    lost += ivtv_frame_gap_feed (&g, t0 + k * NTSC);
  fail_unless_equals_uint64 (lost, 0);
  /* 60 and 61 missing */
  for (k = 62; k < 70; k++)
    lost += ivtv_frame_gap_feed (&g, t0 + k * NTSC);
  fail_unless_equals_uint64 (lost, 2);
}

GST_END_TEST;

/* a device at 30.6 frames/s that numbers some drops (the caller counts
 * the sequence's gap and accounts it) and not others: the times count
 * only the ones the sequence did not show, also while a long hole's count
 * is being settled */
GST_START_TEST (test_sequence_and_times)
{
  IvtvFrameGap g;
  GRand *rand = g_rand_new_with_seed (7);
  GstClockTime p = FPS (30.6);
  guint64 lost = 0;
  guint k;

  ivtv_frame_gap_init (&g, IVTV_FRAME_GAP_CAPTURE, NTSC);
  for (k = 0; k < 200; k++) {
    GstClockTime t = GST_SECOND + k * p + g_rand_int_range (rand,
        -(gint32) (p / 10), (gint32) (p / 10));

    if (k == 50 || k == 120 || k == 20)
      continue;                 /* dropped, the sequence shows it */
    if (k >= 80 && k < 84)
      continue;                 /* dropped, the sequence goes on */
    if (k >= 12 && k < 19)
      continue;                 /* an early stall, the sequence goes on */
    if (k == 51 || k == 121 || k == 21)
      ivtv_frame_gap_account (&g, 1);
    lost += ivtv_frame_gap_feed (&g, t);
  }
  fail_unless_equals_uint64 (lost, 4 + 7);
  g_rand_free (rand);
}

GST_END_TEST;

/* read(): a device at 27.9 and 30.6 frames/s read late by 0 to 0.6 of a
 * period (mostly little: u^3), 1 to 3 frames dropped now and then, 10
 * seeds: each exactly counted */
GST_START_TEST (test_arrival_late_reader)
{
  static const gdouble rates[] = { 27.9, 30.6 };
  guint32 seed;
  guint r;

  for (seed = 1; seed <= 10; seed++)
    for (r = 0; r < G_N_ELEMENTS (rates); r++) {
      GRand *rand = g_rand_new_with_seed (seed);
      GstClockTime p = FPS (rates[r]), last = 0;
      IvtvFrameGap g;
      guint64 lost = 0, missing = 0;
      guint k;

      ivtv_frame_gap_init (&g, IVTV_FRAME_GAP_ARRIVAL, NTSC);
      for (k = 0; k < 600; k++) {
        gdouble u = g_rand_double (rand);
        GstClockTime t;

        if (k > 20 && k < 580 && g_rand_int_range (rand, 0, 50) == 0) {
          guint n = g_rand_int_range (rand, 1, 4);

          k += n;
          missing += n;
        }
        t = GST_SECOND + k * p + (GstClockTime) (u * u * u * 0.6 * p);
        last = t = MAX (t, last + 1000);
        lost += ivtv_frame_gap_feed (&g, t);
      }
      fail_unless (lost == missing, "seed %u, %.1f frames/s: %" G_GUINT64_FORMAT
          " counted, %" G_GUINT64_FORMAT " missing", seed, rates[r], lost,
          missing);
      g_rand_free (rand);
    }
}

GST_END_TEST;

static Suite *
frame_gap_suite (void)
{
  Suite *s = suite_create ("ivtvframegap");
  TCase *tc = tcase_create ("frame-gap");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_capture_gap);
  tcase_add_test (tc, test_capture_not_judged);
  tcase_add_test (tc, test_arrival);
  tcase_add_test (tc, test_off_rate_ntsc);
  tcase_add_test (tc, test_off_rate_early_stall);
  tcase_add_test (tc, test_off_rate_early_stall_settled);
  tcase_add_test (tc, test_off_rate_pal);
  tcase_add_test (tc, test_jitter_no_loss);
  tcase_add_test (tc, test_off_rate_burst);
  tcase_add_test (tc, test_slow_host);
  tcase_add_test (tc, test_sequence_and_times);
  tcase_add_test (tc, test_arrival_late_reader);
  return s;
}

GST_CHECK_MAIN (frame_gap);
