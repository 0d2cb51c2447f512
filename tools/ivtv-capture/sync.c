/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtv-capture — holding the card's audio to its video (see sync.h).
 *
 * The file's clock is the video's: frame q (the driver's sequence) is at
 * (q - first) frame periods, so a frame the driver dropped is a hole the
 * policy fills (a repeat) or closes (the same length of audio removed).
 * Two fits against the running time (exponentially weighted least squares,
 * about a minute of memory) give when each frame began and when each
 * audio sample was taken; an audio sample then belongs at the file time of
 * the video at its moment.  The audio is held until the video has passed
 * it (so a hole is known before the audio that spans it is placed), then
 * written with single samples repeated or left out, spread evenly over a
 * buffer: a feed-forward of the measured rate ratio plus a small share of
 * the remaining offset.  Offsets beyond 50 ms (samples the device lost,
 * seen as a jump of its time stamps) are closed at once with silence or a
 * cut, and recorded.
 *
 * A time stamp more than 50 ms off the audio's line is left out of the fit:
 * on a busy machine a reader stamps late now and then.  Only a run of them
 * (JUMP_CONFIRM_N stamps over JUMP_CONFIRM_S) is a jump, and then the line
 * moves by it, keeping its slope; the audio from the first stamp off is
 * held until that is known.  A source stamped when its read ended (a read()
 * node) is never early and late by however long its reader waited: its
 * samples are dated by the lower edge of its stamps (the earliest over the
 * last ENV_S), not by their mean, which moves with the machine's load. */
#include "sync.h"

#include <math.h>
#include <string.h>

#define FIT_MEMORY 1500.0       /* points: a minute of frames */
#define HOLD_MAX_S 5.0          /* audio held for the video at most */
#define RESYNC_S 0.05          /* more than a frame: lost samples, a jump */
#define JUMP_S 0.05            /* a time stamp this far off the fit: a jump */
#define GAIN 0.1
#define SETTLE_S 5.0            /* the first seconds do not count for max */
#define POINT_PERIOD_S 10.0
#define JUMP_CONFIRM_N 8        /* stamps off the line in a row: a jump */
#define JUMP_CONFIRM_S 0.25     /* ... spanning this much audio */
#define ENV_S 5.0               /* the lower edge over this much audio */

typedef struct
{
  gdouble w, mx, my, cxx, cxy;
  guint n;
  gdouble prior;                /* the slope until the fit has its own */
} Fit;

typedef struct
{
  gdouble x, t;                 /* sample index, its running time (s) */
} Stamp;

typedef struct
{
  gdouble t;                    /* running time the hole began */
  guint64 frames, sequence;
} Cut;

struct _CapSync
{
  GMutex lock;
  CapDropPolicy policy;
  gdouble iv;                   /* frame period, s */
  CapSyncPush push;
  gpointer user;
  gint rate, bpf;
  gboolean at_end, sample_offsets;
  guint64 silence_pending;      /* samples the device said it lost */

  /* video */
  gboolean have_video;
  guint64 q0, q_last, file_frames;
  GstBuffer *prev;
  Fit vfit;
  gdouble horizon;              /* running time the video has reached */
  GArray *cuts;                 /* Cut, not yet reached by the audio */
  guint64 cut_frames;           /* frames of cuts the audio has passed */

  /* audio */
  GQueue held;                  /* GstBuffer, OFFSET = first sample index */
  guint64 j_next;
  Fit afit;
  gdouble env;                  /* at_end: lower edge of the stamps - fit */
  GArray *recent;               /* Stamp: the last ENV_S (at_end) */
  GArray *suspects;             /* Stamp: a run off the line, left out */
  gboolean started;
  guint64 out_pos, drop_pending;
  gdouble frac, next_point;

  CapSyncTotals tot;
  GArray *events, *points;
};

/* ---- fits: y = running time (s), x = frame or sample index ---- */

static void
fit_add (Fit * f, gdouble x, gdouble y)
{
  gdouble lambda = 1.0 - 1.0 / FIT_MEMORY, dx;

  f->w = lambda * f->w + 1.0;
  f->cxx *= lambda;
  f->cxy *= lambda;
  dx = x - f->mx;
  f->mx += dx / f->w;
  f->my += (y - f->my) / f->w;
  f->cxx += dx * (x - f->mx);
  f->cxy += dx * (y - f->my);
  f->n++;
}

static gdouble
fit_slope (const Fit * f, gdouble nominal)
{
  if (f->n < 8 || f->cxx <= 0)
    return f->prior > 0 ? f->prior : nominal;
  return f->cxy / f->cxx;
}

static gdouble
fit_y (const Fit * f, gdouble x, gdouble nominal)
{
  return f->my + (x - f->mx) * fit_slope (f, nominal);
}

static gdouble
fit_x (const Fit * f, gdouble y, gdouble nominal)
{
  return f->mx + (y - f->my) / fit_slope (f, nominal);
}

/* ---- set-up ---- */

CapSync *
cap_sync_new (CapDropPolicy policy, gint fps_n, gint fps_d, CapSyncPush push,
    gpointer user)
{
  CapSync *s = g_new0 (CapSync, 1);

  g_mutex_init (&s->lock);
  s->policy = policy;
  s->iv = fps_n > 0 && fps_d > 0 ? (gdouble) fps_d / fps_n : 1.0 / 25;
  s->push = push;
  s->user = user;
  s->rate = 48000;
  s->bpf = 4;
  s->cuts = g_array_new (FALSE, FALSE, sizeof (Cut));
  s->events = g_array_new (FALSE, FALSE, sizeof (CapSyncEvent));
  s->points = g_array_new (FALSE, FALSE, sizeof (CapSyncPoint));
  s->recent = g_array_new (FALSE, FALSE, sizeof (Stamp));
  s->suspects = g_array_new (FALSE, FALSE, sizeof (Stamp));
  g_queue_init (&s->held);
  return s;
}

void
cap_sync_set_audio (CapSync * s, gint rate, gint bpf, gboolean stamped_at_end)
{
  g_mutex_lock (&s->lock);
  s->rate = rate > 0 ? rate : 48000;
  s->bpf = bpf > 0 ? bpf : 4;
  s->at_end = stamped_at_end;
  g_mutex_unlock (&s->lock);
}

void
cap_sync_set_sample_offsets (CapSync * s, gboolean on)
{
  g_mutex_lock (&s->lock);
  s->sample_offsets = on;
  g_mutex_unlock (&s->lock);
}

void
cap_sync_free (CapSync * s)
{
  g_queue_clear_full (&s->held, (GDestroyNotify) gst_buffer_unref);
  gst_clear_buffer (&s->prev);
  g_array_unref (s->cuts);
  g_array_unref (s->events);
  g_array_unref (s->points);
  g_array_unref (s->recent);
  g_array_unref (s->suspects);
  g_mutex_clear (&s->lock);
  g_free (s);
}

static void
add_event (CapSync * s, gdouble t, guint64 seq, guint64 n, const gchar * what)
{
  CapSyncEvent e = { t, seq, n, what };

  g_array_append_val (s->events, e);
}

/* ---- video ---- */

static GstBuffer *
stamp_frame (CapSync * s, GstBuffer * buf)
{
  buf = gst_buffer_make_writable (buf);
  GST_BUFFER_PTS (buf) = (GstClockTime) llround (s->file_frames * s->iv *
      GST_SECOND);
  GST_BUFFER_DTS (buf) = GST_CLOCK_TIME_NONE;
  GST_BUFFER_DURATION (buf) = (GstClockTime) llround (s->iv * GST_SECOND);
  s->file_frames++;
  return buf;
}

/* a hole of @k frames before sequence @q that began at running time @t */
static void
fill_hole (CapSync * s, guint64 q, guint64 k, gdouble t, GQueue * out)
{
  gdouble ft = s->file_frames * s->iv;
  guint64 i;

  s->tot.frames_lost += k;
  if (s->policy == CAP_DROP_REPEAT && s->prev != NULL) {
    for (i = 0; i < k; i++) {
      GstBuffer *r = gst_buffer_copy (s->prev);

      GST_BUFFER_FLAG_UNSET (r, GST_BUFFER_FLAG_DISCONT);
      g_queue_push_tail (out, stamp_frame (s, r));
      s->tot.frames_repeated++;
    }
    add_event (s, ft, q - k, k, "repeated");
  } else {
    Cut c = { t, k, q - k };

    g_array_append_val (s->cuts, c);
    add_event (s, ft, q - k, k, "audio removed");
  }
}

void
cap_sync_video (CapSync * s, GstBuffer * buf)
{
  GQueue out = G_QUEUE_INIT;
  GstBuffer *b;
  guint64 q;
  gdouble t, slope;

  g_mutex_lock (&s->lock);
  q = GST_BUFFER_OFFSET_IS_VALID (buf) ? GST_BUFFER_OFFSET (buf) :
      s->have_video ? s->q_last + 1 : 0;
  t = GST_BUFFER_PTS_IS_VALID (buf) ? GST_BUFFER_PTS (buf) / 1e9 :
      g_get_monotonic_time () / 1e6;
  if (!s->have_video) {
    s->have_video = TRUE;
    s->q0 = q;
  } else if (q > s->q_last + 1) {
    fill_hole (s, q, q - s->q_last - 1,
        fit_y (&s->vfit, s->q_last + 1.0 - s->q0, s->iv), &out);
  } else if (q <= s->q_last) {
    q = s->q_last + 1;          /* the sequence went back: go on from here */
  }
  fit_add (&s->vfit, (gdouble) (q - s->q0), t);
  slope = fit_slope (&s->vfit, s->iv);
  b = stamp_frame (s, buf);
  gst_buffer_replace (&s->prev, b);
  g_queue_push_tail (&out, b);
  s->tot.frames_delivered++;
  s->q_last = q;
  s->horizon = fit_y (&s->vfit, (gdouble) (q - s->q0), s->iv) + slope;
  s->tot.frames_out = s->file_frames;
  g_mutex_unlock (&s->lock);
  while ((b = g_queue_pop_head (&out)) != NULL)
    s->push (s->user, b, TRUE);
}

/* ---- audio ---- */

/* the audio sample @x was taken at this running time */
static gdouble
audio_time (CapSync * s, gdouble x)
{
  return fit_y (&s->afit, x, 1.0 / s->rate) + s->env;
}

/* where (in output samples) the audio of running time @t belongs */
static gdouble
audio_target (CapSync * s, gdouble t)
{
  return (fit_x (&s->vfit, t, s->iv) - s->cut_frames) * s->iv * s->rate;
}

/* output samples per input sample: the two clocks' ratio */
static gdouble
clock_ratio (CapSync * s)
{
  return fit_slope (&s->afit, 1.0 / s->rate) / fit_slope (&s->vfit, s->iv)
      * s->iv * s->rate;
}

static void
append_silence (GByteArray * out, guint64 n, gint bpf)
{
  guint old = out->len;

  g_byte_array_set_size (out, old + n * bpf);
  memset (out->data + old, 0, n * bpf);
}

/* @m input samples written as @m + @c, the repeats or gaps spread evenly */
static void
append_stretched (GByteArray * out, const guint8 * in, guint64 m, gint64 c,
    gint bpf)
{
  guint64 n_out = (guint64) ((gint64) m + c), o;
  guint old = out->len;

  g_byte_array_set_size (out, old + n_out * bpf);
  for (o = 0; o < n_out; o++) {
    guint64 i = o * m / n_out;

    memcpy (out->data + old + o * bpf, in + i * bpf, bpf);
  }
}

static void
record_point (CapSync * s, gdouble e)
{
  gdouble ft = (gdouble) s->out_pos / s->rate;

  s->tot.offset_ms = e * 1000.0 / s->rate;
  if (ft >= SETTLE_S && fabs (s->tot.offset_ms) > s->tot.max_offset_ms)
    s->tot.max_offset_ms = fabs (s->tot.offset_ms);
  if (ft >= s->next_point) {
    CapSyncPoint p = { ft, s->tot.ppm, s->tot.offset_ms, s->tot.inserted,
      s->tot.removed
    };
    g_array_append_val (s->points, p);
    s->next_point += POINT_PERIOD_S;
  }
}

/* the first audio written: what came before the first frame is left out,
 * a late start is padded with silence */
static guint64
start_audio (CapSync * s, const guint8 * in, guint64 j, guint64 m,
    GByteArray * out)
{
  gdouble d = audio_target (s, audio_time (s, (gdouble) j));
  guint64 skip = 0;

  if (d < 0) {
    skip = MIN ((guint64) ceil (-d * clock_ratio (s)), m);
    if (skip == m)
      return m;
    d = audio_target (s, audio_time (s, (gdouble) (j + skip)));
  }
  if (d > 0.5) {
    append_silence (out, (guint64) llround (d), s->bpf);
    s->out_pos += (guint64) llround (d);
  }
  s->started = TRUE;
  (void) in;
  return skip;
}

/* input samples [@j, @j + @m) of @in */
static void
write_segment (CapSync * s, const guint8 * in, guint64 j, guint64 m,
    GByteArray * out)
{
  guint64 take = MIN (s->drop_pending, m), before = out->len / s->bpf;
  gdouble e, want;
  gint64 c, lim;

  s->drop_pending -= take;
  s->tot.removed += take;
  in += take * s->bpf, j += take, m -= take;
  if (m > 0 && s->started && s->silence_pending > 0) {
    /* the device lost them: silence where they were */
    add_event (s, (gdouble) s->out_pos / s->rate, s->q_last,
        s->silence_pending, "audio silence inserted");
    append_silence (out, s->silence_pending, s->bpf);
    s->tot.inserted += s->silence_pending;
    s->out_pos += s->silence_pending;
    before += s->silence_pending;
    s->silence_pending = 0;
  }
  if (m > 0 && !s->started) {
    take = start_audio (s, in, j, m, out);
    in += take * s->bpf, j += take, m -= take;
    before = out->len / s->bpf;
  }
  if (m == 0)
    return;
  e = (gdouble) s->out_pos - audio_target (s, audio_time (s, (gdouble) j));
  record_point (s, e);
  if (fabs (e) > RESYNC_S * s->rate) {
    c = (gint64) llround (-e);
    add_event (s, (gdouble) s->out_pos / s->rate, s->q_last,
        (guint64) ABS (c), c > 0 ? "audio silence inserted" :
        "audio removed to resync");
    if (c > 0)
      append_silence (out, (guint64) c, s->bpf), s->tot.inserted += c;
    else
      s->drop_pending += (guint64) (-c);
    take = MIN (s->drop_pending, m);
    s->drop_pending -= take, s->tot.removed += take;
    in += take * s->bpf, m -= take;
    c = 0;
  } else {
    want = m * (clock_ratio (s) - 1.0) - e * GAIN + s->frac;
    c = (gint64) want;
    s->frac = want - c;
    lim = (gint64) (m / 4);
    c = CLAMP (c, -lim, lim);
    if (c > 0)
      s->tot.inserted += c;
    else
      s->tot.removed += -c;
  }
  if (m > 0)
    append_stretched (out, in, m, c, s->bpf);
  s->out_pos += out->len / s->bpf - before;
}

/* one held buffer onto the file's timeline; cuts (holes the video left
 * under the cut-audio policy) are applied at their sample */
static void
map_audio (CapSync * s, GstBuffer * buf)
{
  GstMapInfo map;
  GByteArray *out = g_byte_array_new ();
  guint64 j = GST_BUFFER_OFFSET (buf), n, i = 0, ic;
  guint64 pos0 = s->out_pos;
  gdouble t0, dt;

  gst_buffer_map (buf, &map, GST_MAP_READ);
  n = map.size / s->bpf;
  t0 = audio_time (s, (gdouble) j);
  dt = fit_slope (&s->afit, 1.0 / s->rate);
  while (s->cuts->len > 0 && g_array_index (s->cuts, Cut, 0).t < t0 + n * dt) {
    Cut cut = g_array_index (s->cuts, Cut, 0);

    ic = cut.t <= t0 ? i : MIN (n, (guint64) ceil ((cut.t - t0) / dt));
    ic = MAX (ic, i);
    write_segment (s, map.data + i * s->bpf, j + i, ic - i, out);
    s->drop_pending += (guint64) llround (cut.frames * s->iv * s->rate);
    s->cut_frames += cut.frames;
    g_array_remove_index (s->cuts, 0);
    i = ic;
  }
  write_segment (s, map.data + i * s->bpf, j + i, n - i, out);
  gst_buffer_unmap (buf, &map);
  gst_buffer_unref (buf);
  s->tot.samples_out = s->out_pos;
  if (out->len == 0) {
    g_byte_array_unref (out);
    return;
  }
  buf = gst_buffer_new_wrapped (out->data, out->len);
  g_byte_array_free (out, FALSE);
  GST_BUFFER_PTS (buf) = gst_util_uint64_scale (pos0, GST_SECOND, s->rate);
  GST_BUFFER_DURATION (buf) = gst_util_uint64_scale (s->out_pos, GST_SECOND,
      s->rate) - GST_BUFFER_PTS (buf);
  GST_BUFFER_OFFSET (buf) = pos0;
  GST_BUFFER_OFFSET_END (buf) = s->out_pos;
  s->push (s->user, buf, FALSE);
}

/* the held audio the video has passed (all of it when @flush) */
static void
release_audio (CapSync * s, gboolean flush)
{
  GstBuffer *head;

  while ((head = g_queue_peek_head (&s->held)) != NULL) {
    guint64 j = GST_BUFFER_OFFSET (head);
    guint64 n = gst_buffer_get_size (head) / s->bpf;
    gdouble held_s = (gdouble) (s->j_next - j) / s->rate;

    if (!s->have_video) {
      if (!flush && held_s <= HOLD_MAX_S)
        break;
      gst_buffer_unref (g_queue_pop_head (&s->held));   /* before video */
      continue;
    }
    if (!flush && held_s <= HOLD_MAX_S
        && (audio_time (s, (gdouble) (j + n)) > s->horizon
            || (s->suspects->len > 0
                && j + n > g_array_index (s->suspects, Stamp, 0).x)))
      break;
    map_audio (s, g_queue_pop_head (&s->held));
  }
  if (s->afit.n >= 8 && s->vfit.n >= 8) {
    s->tot.ppm = (1.0 / clock_ratio (s) - 1.0) * 1e6;
    s->tot.have_ppm = TRUE;
  }
}

/* the lower edge of the last ENV_S of stamps against the fit (at_end) */
static void
update_envelope (CapSync * s)
{
  gdouble lo = G_MAXDOUBLE, last;
  guint i;

  s->env = 0;
  if (!s->at_end || s->recent->len == 0)
    return;
  last = g_array_index (s->recent, Stamp, s->recent->len - 1).x;
  for (i = 0; i < s->recent->len
      && g_array_index (s->recent, Stamp, i).x < last - ENV_S * s->rate;
      i++);
  g_array_remove_range (s->recent, 0, i);
  for (i = 0; i < s->recent->len; i++) {
    Stamp *p = &g_array_index (s->recent, Stamp, i);

    lo = MIN (lo, p->t - fit_y (&s->afit, p->x, 1.0 / s->rate));
  }
  s->env = lo;
}

static void
stamp_add (CapSync * s, const Stamp * p)
{
  fit_add (&s->afit, p->x, p->t);
  if (s->at_end)
    g_array_append_vals (s->recent, p, 1);
  update_envelope (s);
}

/* a run of stamps off the line that lasted: the line moves by how far
 * they are off (their earliest, for a source stamped at the read's end;
 * their mean otherwise), with the slope it had */
static void
take_jump (CapSync * s)
{
  gdouble d = s->at_end ? G_MAXDOUBLE : 0;
  guint i;

  for (i = 0; i < s->suspects->len; i++) {
    Stamp *p = &g_array_index (s->suspects, Stamp, i);
    gdouble r = p->t - audio_time (s, p->x);

    d = s->at_end ? MIN (d, r) : d + r / s->suspects->len;
  }
  s->afit.my += d + s->env;
  g_array_set_size (s->recent, 0);
  s->env = 0;
  for (i = 0; i < s->suspects->len; i++)
    stamp_add (s, &g_array_index (s->suspects, Stamp, i));
  g_array_set_size (s->suspects, 0);
}

/* the running time @t of sample @x; @disc: the source says it lost
 * samples (and does not count them) */
static void
take_stamp (CapSync * s, gdouble x, gdouble t, gboolean disc)
{
  Stamp p = { x, t };
  Stamp *first;

  if (s->afit.n >= 8 && disc) {
    /* the fit starts again from here, with the slope it had */
    gdouble slope = fit_slope (&s->afit, 1.0 / s->rate);

    memset (&s->afit, 0, sizeof (s->afit));
    s->afit.prior = slope;
    g_array_set_size (s->recent, 0);
    g_array_set_size (s->suspects, 0);
    s->env = 0;
  }
  if (s->afit.n < 8 || fabs (t - audio_time (s, x)) <= JUMP_S) {
    g_array_set_size (s->suspects, 0);  /* a run that ended: left out */
    stamp_add (s, &p);
    return;
  }
  g_array_append_val (s->suspects, p);
  first = &g_array_index (s->suspects, Stamp, 0);
  if (s->suspects->len >= JUMP_CONFIRM_N
      && x - first->x >= JUMP_CONFIRM_S * s->rate)
    take_jump (s);
}

void
cap_sync_audio (CapSync * s, GstBuffer * buf)
{
  guint64 n;
  gdouble t;

  g_mutex_lock (&s->lock);
  n = gst_buffer_get_size (buf) / s->bpf;
  if (n == 0) {
    g_mutex_unlock (&s->lock);
    gst_buffer_unref (buf);
    return;
  }
  if (s->sample_offsets && GST_BUFFER_OFFSET_IS_VALID (buf)
      && GST_BUFFER_OFFSET (buf) > s->j_next && s->j_next > 0) {
    /* the source counts samples: a gap is what it lost (an overrun) */
    s->silence_pending += GST_BUFFER_OFFSET (buf) - s->j_next;
    s->j_next = GST_BUFFER_OFFSET (buf);
  } else if (s->sample_offsets && GST_BUFFER_OFFSET_IS_VALID (buf)
      && s->j_next == 0)
    s->j_next = GST_BUFFER_OFFSET (buf);
  if (GST_BUFFER_PTS_IS_VALID (buf)) {
    t = GST_BUFFER_PTS (buf) / 1e9;
    if (s->at_end)
      t -= (gdouble) n / s->rate;
    take_stamp (s, (gdouble) s->j_next, t, !s->sample_offsets
        && GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_DISCONT));
  }
  buf = gst_buffer_make_writable (buf);
  GST_BUFFER_OFFSET (buf) = s->j_next;
  s->j_next += n;
  s->tot.samples_in += n;
  g_queue_push_tail (&s->held, buf);
  release_audio (s, FALSE);
  g_mutex_unlock (&s->lock);
}

void
cap_sync_audio_flush (CapSync * s)
{
  g_mutex_lock (&s->lock);
  release_audio (s, TRUE);
  g_mutex_unlock (&s->lock);
}

/* ---- what happened ---- */

void
cap_sync_totals (CapSync * s, CapSyncTotals * t)
{
  g_mutex_lock (&s->lock);
  *t = s->tot;
  g_mutex_unlock (&s->lock);
}

static GArray *
copy_array (CapSync * s, GArray * a)
{
  GArray *c;

  g_mutex_lock (&s->lock);
  c = g_array_sized_new (FALSE, FALSE, g_array_get_element_size (a), a->len);
  g_array_append_vals (c, a->data, a->len);
  g_mutex_unlock (&s->lock);
  return c;
}

GArray *
cap_sync_events (CapSync * s)
{
  return copy_array (s, s->events);
}

GArray *
cap_sync_points (CapSync * s)
{
  return copy_array (s, s->points);
}
