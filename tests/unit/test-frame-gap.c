/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of ivtvframegap.c (frames a driver dropped, found from the
 * frames' times): capture timestamps with a gap of 3 periods give 2 lost,
 * jitter and the first frames none, frames the sequence counted are not
 * counted again, a burst faster than real time is not judged, frames made
 * during a pause are not judged; arrival times: a
 * late reader without a drop gives none, frames skipped give their count
 * once the stream comes at its pace again, a burst from a driver's queue
 * after a stall counts only what is missing, a slow card's drift none. */
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

static Suite *
frame_gap_suite (void)
{
  Suite *s = suite_create ("ivtvframegap");
  TCase *tc = tcase_create ("frame-gap");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_capture_gap);
  tcase_add_test (tc, test_capture_not_judged);
  tcase_add_test (tc, test_arrival);
  return s;
}

GST_CHECK_MAIN (frame_gap);
