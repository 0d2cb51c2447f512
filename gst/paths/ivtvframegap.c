/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — frames lost, from the frames' times (see ivtvframegap.h for
 * the method and the drivers that make it needed). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvframegap.h"

/* a pause shorter than this is the clocks' own jitter */
#define MIN_PAUSE (20 * GST_MSECOND)

void
ivtv_frame_gap_init (IvtvFrameGap * g, IvtvFrameGapKind kind,
    GstClockTime period)
{
  g->kind = kind;
  g->period = period > 0 ? period : GST_CLOCK_TIME_NONE;
  g->ignore_before = 0;
  g->last_mono = g->last_running = GST_CLOCK_TIME_NONE;
  ivtv_frame_gap_restart (g);
}

void
ivtv_frame_gap_restart (IvtvFrameGap * g)
{
  g->prev = GST_CLOCK_TIME_NONE;
  g->anchor_t = GST_CLOCK_TIME_NONE;
  g->anchor_i = g->count = 0;
  g->last_d = -1;
}

gboolean
ivtv_frame_gap_clock (IvtvFrameGap * g, GstClockTime mono,
    GstClockTime running)
{
  gboolean paused = FALSE;
  GstClockTime limit;

  if (!GST_CLOCK_TIME_IS_VALID (running) || !GST_CLOCK_TIME_IS_VALID (mono)) {
    g->last_mono = g->last_running = GST_CLOCK_TIME_NONE;
    return FALSE;
  }
  limit = GST_CLOCK_TIME_IS_VALID (g->period) ? MAX (g->period / 2, MIN_PAUSE)
      : MIN_PAUSE;
  if (GST_CLOCK_TIME_IS_VALID (g->last_mono) && mono >= g->last_mono
      && (GstClockTimeDiff) (mono - g->last_mono) -
      GST_CLOCK_DIFF (g->last_running, running) > (GstClockTimeDiff) limit) {
    g->ignore_before = mono;
    ivtv_frame_gap_restart (g);
    paused = TRUE;
  }
  g->last_mono = mono;
  g->last_running = running;
  return paused;
}

/* r, how much later than the anchor says the frame came (or was made); the
 * anchor is the earliest-coming frame (a frame earlier than it becomes
 * it, a card a little slower than its nominal rate moves it on slowly).
 * Frames missing: r in whole periods (from 7/8 of one: the anchor came early, a frame after a loss may come late), seen on two
 * frames in a row that come at least half a period after the one before
 * (not in a burst from the driver's queue: those came late). */
static guint64
feed (IvtvFrameGap * g, GstClockTime t)
{
  GstClockTime p = g->period, iv = t - g->prev;
  GstClockTimeDiff r = GST_CLOCK_DIFF (g->anchor_t + (g->count - g->anchor_i)
      * p, t);
  gint64 d = r < 0 ? 0 : (r + (GstClockTimeDiff) p / 8) / (gint64) p;
  gint64 last_d = g->last_d;
  guint64 lost;

  g->count++;
  g->last_d = iv >= p / 2 ? d : -1;
  if (r < 0) {
    g->anchor_t = t;
    g->anchor_i = g->count - 1;
    return 0;
  }
  if (d == 0 && iv >= p / 2 && iv <= p + p / 2)
    g->anchor_t += r / 16;      /* drift */
  if (g->last_d < 1 || last_d < 1)
    return 0;
  lost = (guint64) MIN (d, last_d);
  g->count += lost;             /* they are counted: the anchor holds */
  g->last_d = d - (gint64) lost;
  return lost;
}

guint64
ivtv_frame_gap_feed (IvtvFrameGap * g, GstClockTime t)
{
  guint64 lost;

  if (!GST_CLOCK_TIME_IS_VALID (t) || !GST_CLOCK_TIME_IS_VALID (g->period)) {
    ivtv_frame_gap_restart (g);
    return 0;
  }
  if (g->kind == IVTV_FRAME_GAP_CAPTURE && t < g->ignore_before) {
    ivtv_frame_gap_restart (g); /* made while paused: the next starts anew */
    return 0;
  }
  if (!GST_CLOCK_TIME_IS_VALID (g->prev) || t <= g->prev) {
    ivtv_frame_gap_restart (g);
    g->prev = t;
    g->anchor_t = t;
    g->anchor_i = 0;
    g->count = 1;
    g->last_d = -1;
    return 0;
  }
  lost = feed (g, t);
  g->prev = t;
  return lost;
}

void
ivtv_frame_gap_account (IvtvFrameGap * g, guint64 frames)
{
  if (GST_CLOCK_TIME_IS_VALID (g->prev))
    g->count += frames;
}
