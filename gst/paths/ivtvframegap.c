/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — frames lost, from the frames' times: the device's own period
 * estimated from them, each frame judged against where the last ones say
 * it should come (see ivtvframegap.h for the method and the drivers that
 * make it needed). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdlib.h>

#include "ivtvframegap.h"

/* a pause shorter than this is the clocks' own jitter */
#define MIN_PAUSE (20 * GST_MSECOND)
/* frames of the window a prediction is made from */
#define PREDICT_FROM 16
/* how far the estimated period may be from the nominal one, in percent */
#define MAX_OFF 15
/* a count is settled when its error (one sigma, in frames) is below */
#define SETTLED 0.2
/* or when the frames after the hole are this many */
#define SETTLE_AFTER 32

static guint64 refine (IvtvFrameGap * g, gboolean settle, gdouble * err);

void
ivtv_frame_gap_init (IvtvFrameGap * g, IvtvFrameGapKind kind,
    GstClockTime period)
{
  g->kind = kind;
  g->period = period > 0 ? period : GST_CLOCK_TIME_NONE;
  g->est = g->period;
  g->ignore_before = 0;
  g->last_mono = g->last_running = GST_CLOCK_TIME_NONE;
  g->hole_t = GST_CLOCK_TIME_NONE;
  g->index = 0;
  g->run = 0;
  g->est_err = g->jitter = 0;
  g->refining = FALSE;
  g->owed = 0;
  ivtv_frame_gap_restart (g);
}

void
ivtv_frame_gap_restart (IvtvFrameGap * g)
{
  gdouble unused;

  refine (g, TRUE, &unused);    /* owed to the next frame's return */
  g->prev = g->last_t = GST_CLOCK_TIME_NONE;
  g->last_d = -1;
  g->win_first = g->win_len = 0;
  g->run++;
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

static int
cmp_diff (const void *a, const void *b)
{
  GstClockTimeDiff x = *(const GstClockTimeDiff *) a;
  GstClockTimeDiff y = *(const GstClockTimeDiff *) b;

  return x < y ? -1 : x > y;
}

static GstClockTimeDiff
median (GstClockTimeDiff * v, guint n)
{
  qsort (v, n, sizeof (*v), cmp_diff);
  return n % 2 ? v[n / 2] : v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
}

/* The mean of the middle half of @v (sorted): robust as a median to a
 * few late frames, and not thrown a whole step by a jitter of two values
 * taking turns (a median of 8 of one and 7 of the other is the one). */
static GstClockTimeDiff
mid_mean (GstClockTimeDiff * v, guint n)
{
  GstClockTimeDiff sum = 0;
  guint k, lo = n / 4, hi = n - n / 4;

  median (v, n);                /* sorts */
  for (k = lo; k < hi; k++)
    sum += v[k];
  return sum / (GstClockTimeDiff) (hi - lo);
}

#define WIN(g, k) (((g)->win_first + (k)) % IVTV_FRAME_GAP_WINDOW)

/* Pairs of window frames @h apart in the same run (no hole counted
 * between them): their slopes into @slopes, how many. */
static guint
slopes_at (IvtvFrameGap * g, guint h, GstClockTimeDiff * slopes)
{
  guint k, n = 0;

  for (k = 0; k + h < g->win_len; k++) {
    guint a = WIN (g, k), b = WIN (g, k + h);

    if (g->win_run[a] != g->win_run[b])
      continue;
    if (slopes)
      slopes[n] = (GstClockTimeDiff) (g->win_t[b] - g->win_t[a]) /
          (gint64) (g->win_i[b] - g->win_i[a]);
    n++;
  }
  return n;
}

/* The period: the mean of the middle half of the slopes of pairs of
 * window frames @h apart in the same run, @h the one that spans the most
 * periods in all (half the window in one run: the jitter of a pair's ends
 * is divided by @h, and a late frame is left out with the outer
 * quarters); held near the nominal period (a prior that pulled it there
 * would be 0.5 % off, a frame in a 2 s hole, for a device 10 % off, so
 * none).  Its standard error from the frames' jitter as that of the
 * median of @n slopes each over @h periods, taken 3 / sqrt (n) rather
 * than a median's 1.25 / sqrt (n): the spread of a dozen intervals often
 * says too little (a simulated 55-frame stall 12 frames in, 10 % jitter:
 * 22 of 1100 counts off with 1.25, none with 3). */
static void
estimate (IvtvFrameGap * g)
{
  GstClockTimeDiff slopes[IVTV_FRAME_GAP_WINDOW];
  guint h, n, best_h = 0, best = 0;
  GstClockTime lo = g->period - g->period * MAX_OFF / 100;
  GstClockTime hi = g->period + g->period * MAX_OFF / 100;

  if (g->win_len < 3)
    return;
  for (h = 1; h < g->win_len; h++) {
    n = slopes_at (g, h, NULL);
    if (n * h > best) {
      best = n * h;
      best_h = h;
    }
  }
  if (best == 0)
    return;
  n = slopes_at (g, best_h, slopes);
  g->est = CLAMP ((GstClockTime) mid_mean (slopes, n), lo, hi);
  /* the jitter, from the intervals' spread: their interquartile range,
   * 1.349 sigmas, over sqrt (2) for one frame's */
  if ((n = slopes_at (g, 1, slopes)) == 0)
    return;
  median (slopes, n);
  g->jitter = (GstClockTime) ((slopes[n - 1 - n / 4] - slopes[n / 4]) /
      1.349 / G_SQRT2);
  n = slopes_at (g, best_h, NULL);
  g->est_err = (GstClockTime) (3.0 * G_SQRT2 * g->jitter / (best_h *
          sqrt (n)));
}

static void
push (IvtvFrameGap * g, GstClockTime t, guint64 i)
{
  guint k;

  if (g->win_len == IVTV_FRAME_GAP_WINDOW) {
    g->win_first = WIN (g, 1);
    g->win_len--;
  }
  k = WIN (g, g->win_len);
  g->win_t[k] = t;
  g->win_i[k] = i;
  g->win_run[k] = g->run;
  g->win_len++;
  estimate (g);
}

/* The last window frames of the current run when a count is being
 * settled (the frames after the hole are on their own grid until then),
 * else the last ones: how many, up to PREDICT_FROM. */
static guint
predict_from (IvtvFrameGap * g)
{
  guint n = 0;

  if (!g->refining)
    return MIN (g->win_len, PREDICT_FROM);
  while (n < MIN (g->win_len, PREDICT_FROM)
      && g->win_run[WIN (g, g->win_len - 1 - n)] == g->run)
    n++;
  return n > 0 ? n : MIN (g->win_len, PREDICT_FROM);
}

/* When frame @i should come: the last window frames' times carried on by
 * the period, their median (CAPTURE: a stamp is late or early by
 * chance) or their first eighth (ARRIVAL: a read is only ever late, the
 * earliest say when frames come). */
static GstClockTimeDiff
predict (IvtvFrameGap * g, guint64 i)
{
  GstClockTimeDiff at[PREDICT_FROM];
  guint k, n = predict_from (g);

  if (n == 0)
    return (GstClockTimeDiff) (g->prev + g->est);
  for (k = 0; k < n; k++) {
    guint w = WIN (g, g->win_len - n + k);

    at[k] = (GstClockTimeDiff) g->win_t[w] + (gint64) (i - g->win_i[w]) *
        (GstClockTimeDiff) g->est;
  }
  if (g->kind == IVTV_FRAME_GAP_CAPTURE)
    return median (at, n);
  median (at, n);               /* sorted */
  return at[n / 8];
}

/* Run @run's time of frame 0 (the median of t - i * period over its
 * PREDICT_FROM window frames nearest the hole: its last ones, or with
 * @first its first ones) and their mean number; how many (0: none). */
static guint
intercept (IvtvFrameGap * g, guint run, gboolean first,
    GstClockTimeDiff * b, gdouble * mean_i)
{
  GstClockTimeDiff v[PREDICT_FROM];
  guint k, n = 0;
  gdouble sum = 0;

  for (k = 0; k < g->win_len && n < PREDICT_FROM; k++) {
    guint w = WIN (g, first ? k : g->win_len - 1 - k);

    if (g->win_run[w] != run)
      continue;
    v[n++] = (GstClockTimeDiff) g->win_t[w] - (GstClockTimeDiff) g->win_i[w]
        * (GstClockTimeDiff) g->est;
    sum += g->win_i[w];
  }
  if (n == 0)
    return 0;
  *b = median (v, n);
  *mean_i = sum / n;
  return n;
}

/* A count being settled: the frames found missing beyond those counted
 * (the runs before and after the hole, each on its own grid, are that
 * many periods further apart); with @settle, they are owed to the next
 * return and the numbers after the hole move on.  The error of the
 * count in frames into @err. */
static guint64
refine (IvtvFrameGap * g, gboolean settle, gdouble * err)
{
  GstClockTimeDiff b_old, b_new, p = (GstClockTimeDiff) g->est;
  gdouble i_old, i_new;
  guint64 more = 0;
  guint k, m_old, m_new;

  *err = 0;
  if (!g->refining)
    return 0;
  if ((m_old = intercept (g, g->pend_old, FALSE, &b_old, &i_old))
      && (m_new = intercept (g, g->pend_run, TRUE, &b_new, &i_new))) {
    more = b_new - b_old < p / 2 ? 0 : (guint64) ((b_new - b_old + p / 2) / p);
    more = MIN (more, g->pend_max);     /* no more than its error allows */
    /* the period's error carried across, each median's own (1.25) */
    *err = ((i_new - i_old) * (gdouble) g->est_err + 1.25 * g->jitter *
        sqrt (1.0 / m_old + 1.0 / m_new)) / g->est;
  }
  if (!settle)
    return more;
  for (k = 0; k < g->win_len; k++)
    if (g->win_run[WIN (g, k)] == g->pend_run)
      g->win_i[WIN (g, k)] += more;
  if (g->run == g->pend_run)
    g->index += more;
  g->owed += more;
  g->refining = FALSE;
  return more;
}

/* A hole of @lost frames is confirmed: the frames counted now.  When the
 * period is not known well enough for so long a hole (a stall after a
 * few frames of a device off its nominal rate), fewer (never more than
 * are missing), and the rest when the frames after it settle it. */
static guint64
count_hole (IvtvFrameGap * g, guint64 lost)
{
  gdouble err = (lost + PREDICT_FROM / 2) * (gdouble) g->est_err / g->est;
  guint64 margin = (guint64) (2 * err + 0.5);
  gdouble unused;

  refine (g, TRUE, &unused);   /* one hole settled at a time */
  g->pend_old = g->run;
  g->run++;                     /* the hole's count is not measured again */
  if (err < SETTLED)
    return lost;
  g->refining = TRUE;
  g->pend_run = g->run;
  g->pend_after = 0;
  g->pend_max = 2 * margin + 1;
  return lost > margin + 1 ? lost - margin : 1;
}

/* Frames missing before the frame at @t: its lateness in whole periods
 * (rounded, from half of one), when it and the frame before agree; that
 * frame (the first after the hole) and this one go in the window then. */
static guint64
feed (IvtvFrameGap * g, GstClockTime t)
{
  GstClockTimeDiff p = (GstClockTimeDiff) g->est;
  GstClockTimeDiff iv = (GstClockTimeDiff) (t - g->prev);
  gboolean paced = iv >= p / 2;
  guint64 i = g->index + 1, lost = 0;
  GstClockTimeDiff r = (GstClockTimeDiff) t - predict (g, i);
  /* late by half a period (ARRIVAL: 7/8, as reads are late), or by 3
   * sigmas of jitter when that is more; in whole periods, rounded */
  GstClockTimeDiff from = g->kind == IVTV_FRAME_GAP_CAPTURE ? p / 2 : p * 7 / 8;
  gint64 d = r < MAX (from, 3 * (GstClockTimeDiff) g->jitter) ? 0 :
      (r + p - from) / p;
  gdouble err;

  /* after a frame at its pace, the interval alone must say as many
   * (CAPTURE: a read late by chance before it would make it say fewer) */
  if (d >= 1 && g->last_d == 0 && g->kind == IVTV_FRAME_GAP_CAPTURE)
    d = MIN (d, (iv - p / 2) / p);
  /* confirmed by a frame at its pace after the first one after the hole
   * (not by a run of frames each late a period more: a slow host) */
  if (paced && iv <= p + p / 2 && d >= 1 && g->last_d >= 1) {
    lost = count_hole (g, (guint64) MIN (d, g->last_d));
    g->hole_t = g->last_t;
    if ((guint64) g->last_d == lost || g->refining)
      push (g, g->last_t, i - 1 + lost);
    i += lost;
    d = g->refining ? 0 : d - (gint64) lost;
  }
  g->index = i;
  g->last_d = paced ? d : -1;
  g->last_t = t;
  if (paced && d == 0)
    push (g, t, i);
  if (g->refining && paced) {
    g->pend_after++;
    refine (g, FALSE, &err);
    if (err < SETTLED || g->pend_after >= SETTLE_AFTER)
      refine (g, TRUE, &err);
  }
  lost += g->owed;
  g->owed = 0;
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
    g->index++;
    push (g, t, g->index);
    g->prev = g->last_t = t;
    lost = g->owed;
    g->owed = 0;
    return lost;
  }
  lost = feed (g, t);
  g->prev = t;
  return lost;
}

GstClockTime
ivtv_frame_gap_hole_time (const IvtvFrameGap * g)
{
  return g->hole_t;
}

GstClockTime
ivtv_frame_gap_period (const IvtvFrameGap * g)
{
  return g->est;
}

void
ivtv_frame_gap_account (IvtvFrameGap * g, guint64 frames)
{
  /* a count the sequence makes is exact: the run goes on across it */
  if (GST_CLOCK_TIME_IS_VALID (g->prev))
    g->index += frames;
}
