/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* tests/archive: ivtv-capture's A/V sync (tools/ivtv-capture/sync.c) over
 * simulated captures of two hours: a card at 25 fps whose frames carry a
 * flash every 10 s, and an audio device whose crystal is off by a set ppm,
 * with a beep at the same instants, jitter on its time stamps, frames the
 * driver drops, and samples the device loses.  What comes out is measured
 * as the checker measures a file: the beep's output time minus the flash
 * frame's, at every mark, <= 20 ms; frame totals equal.  Audio at 8 kHz
 * mono (the algorithm does not depend on the rate) keeps it fast.
 *
 * A read() node (the ivtv/cx18 PCM node) is stamped when its read ends:
 * its data comes a DMA transfer at a time, and the reader takes all there
 * is when it wakes, so a stamp is never early, and late by how long after
 * the transfer the reader ran; on a loaded machine also by how long the
 * thread waited between its read and its stamp.  The load-* cases model
 * that: load episodes in which the reader is late (and the card's
 * buffers not taken, so the driver drops a burst of frames first).
 *
 *   test-sync-two-hours CASE   (plus300, minus300, drops-repeat,
 *                               drops-cut-audio, audio-lost, audio-overruns,
 *                               compressed, load-bursts) */
#include "sync.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define RATE 8000
#define FPS 25
#define MARK_FRAMES (10 * FPS)
#define BEEP_SAMPLES 160        /* 20 ms */
#define BUF 80                  /* samples per audio buffer (10 ms) */
#define START 0.35              /* true time of the first frame, s */
#define CHUNK 192               /* samples of a PCM DMA transfer: 24 ms, as
                                 * ivtv's (ivtv-driver.c ivtv_probe:
                                 * stream_buf_size[...PCM] = 0x1200 bytes) */
#define EPISODE_S 6.0           /* a load episode, s */
#define BURST_S 1.5             /* frames dropped at its start, s */

typedef struct
{
  const gchar *name;
  gdouble seconds, ppm, jitter_ms;
  guint drop_every, drop_n;     /* frames: every N frames lose M */
  CapDropPolicy policy;
  gdouble lose_audio_at;        /* s, 0 = never: samples lost there */
  gdouble lose_s;               /* how many, s */
  gboolean flagged;             /* the source marks the buffer DISCONT */
  gdouble load_every;           /* s, 0 = none: a load episode every N s */
} Case;

static const Case cases[] = {
  {"plus300", 7200, 300, 3, 0, 0, CAP_DROP_REPEAT, 0, 0, FALSE, 0},
  {"minus300", 7200, -300, 3, 0, 0, CAP_DROP_REPEAT, 0, 0, FALSE, 0},
  {"drops-repeat", 1800, 250, 3, 173, 3, CAP_DROP_REPEAT, 0, 0, FALSE, 0},
  {"drops-cut-audio", 1800, -250, 3, 173, 3, CAP_DROP_CUT_AUDIO, 0, 0, FALSE, 0},
  {"audio-lost", 600, 250, 3, 0, 0, CAP_DROP_REPEAT, 300, 0.1, FALSE, 0},
  /* alsasrc's overruns: a few ms lost, the next buffer DISCONT, every 10 s */
  {"audio-overruns", 600, 250, 3, 0, 0, CAP_DROP_REPEAT, 10, 0.015, TRUE, 0},
  /* two hours of +250 ppm drift (1.8 s) in one minute */
  {"compressed", 60, 30000, 3, 0, 0, CAP_DROP_REPEAT, 0, 0, FALSE, 0},
  /* the PCM node read under load (the 2-hour soak's +22.1 ms at 799 s,
   * after a burst of dropped frames), an episode every 30 s for 10 min */
  {"load-bursts", 600, 250, 0, 0, 0, CAP_DROP_REPEAT, 0, 0, FALSE, 30},
};

typedef struct
{
  GArray *flash_t;              /* gdouble, output time of flash frames */
  GArray *audio;                /* gint16 output */
  guint64 frames;
} Out;

static void
push (gpointer user, GstBuffer * buf, gboolean video)
{
  Out *o = user;
  GstMapInfo map;

  gst_buffer_map (buf, &map, GST_MAP_READ);
  if (video) {
    if (map.data[0] == 255) {
      gdouble t = GST_BUFFER_PTS (buf) / 1e9;

      /* a repeat of a flash is no new flash */
      if (o->flash_t->len == 0 || t - g_array_index (o->flash_t, gdouble,
              o->flash_t->len - 1) > 1.0)
        g_array_append_val (o->flash_t, t);
    }
    g_assert_cmpuint (GST_BUFFER_PTS (buf), ==,
        gst_util_uint64_scale (o->frames, GST_SECOND, FPS));
    o->frames++;
  } else {
    g_assert_cmpuint (GST_BUFFER_OFFSET (buf), ==, o->audio->len);
    g_array_append_vals (o->audio, map.data, map.size / 2);
  }
  gst_buffer_unmap (buf, &map);
  gst_buffer_unref (buf);
}

static GstBuffer *
frame (guint64 seq, gdouble t, gboolean flash)
{
  GstBuffer *b = gst_buffer_new_allocate (NULL, 4, NULL);

  gst_buffer_memset (b, 0, flash ? 255 : 0, 4);
  GST_BUFFER_OFFSET (b) = seq;
  GST_BUFFER_PTS (b) = (GstClockTime) llround (t * GST_SECOND);
  return b;
}

/* device samples [j, j + n): sample i taken at true time
 * i / (RATE * (1 + ppm)); a beep where the true time is a mark */
static GstBuffer *
audio_n (const Case * c, guint64 j, guint64 n)
{
  GstBuffer *b = gst_buffer_new_allocate (NULL, n * 2, NULL);
  gdouble rate = RATE * (1 + c->ppm * 1e-6), period = MARK_FRAMES / 1.0 / FPS;
  GstMapInfo map;
  guint64 i;

  gst_buffer_map (b, &map, GST_MAP_WRITE);
  for (i = 0; i < n; i++) {
    gdouble t = (j + i) / rate - START, into = fmod (t, period);
    gint16 v = t >= 0 && into * RATE < BEEP_SAMPLES ? 10000 : 0;

    memcpy (map.data + 2 * i, &v, 2);
  }
  gst_buffer_unmap (b, &map);
  return b;
}

/* the buffer [j, j + BUF) of a source that stamps its first sample, with
 * up to jitter_ms of error */
static GstBuffer *
audio (const Case * c, guint64 j, GRand * r)
{
  GstBuffer *b = audio_n (c, j, BUF);
  gdouble rate = RATE * (1 + c->ppm * 1e-6);

  GST_BUFFER_PTS (b) = (GstClockTime) llround ((j / rate +
          g_rand_double_range (r, 0, c->jitter_ms / 1000.0)) * GST_SECOND);
  return b;
}

/* a load episode: it begins 2 s before a mark (every load_every s) and
 * lasts EPISODE_S; the first BURST_S of it the card's buffers were not
 * taken (the driver drops the frames), and all through it the reader runs
 * late */
static gboolean
in_episode (const Case * c, gdouble t, gdouble len)
{
  gdouble into;

  if (c->load_every <= 0)
    return FALSE;
  into = fmod (t - START + 2.0, c->load_every);
  return t - START > 2.0 && into < len;
}

typedef struct
{
  gdouble wake;                 /* true time the reader runs next */
  guint64 j;                    /* samples read */
} Reader;

/* the PCM node's reads up to true time @until: each takes every whole DMA
 * transfer made by then and is stamped when it ends (cap_sync_set_audio's
 * stamped_at_end): late by the reader's wake-up, under load also by a wait
 * between its read and its stamp (5 % of them 60-150 ms) */
static void
read_node (const Case * c, CapSync * s, Reader * rd, GRand * r, gdouble until)
{
  gdouble arate = RATE * (1 + c->ppm * 1e-6);

  while (rd->wake < until) {
    guint64 made = (guint64) (rd->wake * arate) / CHUNK * CHUNK;
    gboolean busy = in_episode (c, rd->wake, EPISODE_S);
    GstBuffer *b;
    gdouble late = !busy ? g_rand_double_range (r, 0, 0.0005) :
        g_rand_double (r) < 0.05 ? g_rand_double_range (r, 0.06, 0.15) :
        g_rand_double_range (r, 0, 0.02);

    if (made > rd->j) {
      b = audio_n (c, rd->j, made - rd->j);
      GST_BUFFER_PTS (b) = (GstClockTime) llround ((rd->wake + late) *
          GST_SECOND);
      cap_sync_audio (s, b);
      rd->j = made;
    }
    rd->wake = (gdouble) (made / CHUNK + 1) * CHUNK / arate +
        g_rand_double_range (r, 0, busy ? 0.06 : 0.001);
  }
}

/* beep onsets in the output, s */
static GArray *
beeps (GArray * a)
{
  GArray *t = g_array_new (FALSE, FALSE, sizeof (gdouble));
  guint i, quiet = RATE;

  for (i = 0; i < a->len; i++) {
    if (g_array_index (a, gint16, i) != 0) {
      if (quiet >= RATE / 10) {
        gdouble x = (gdouble) i / RATE;

        g_array_append_val (t, x);
      }
      quiet = 0;
    } else
      quiet++;
  }
  return t;
}

static guint
measure (const Case * c, Out * o, CapSyncTotals * tot)
{
  GArray *b = beeps (o->audio);
  guint i, k = 0, marks = 0;
  gdouble worst = 0;

  for (i = 0; i < o->flash_t->len; i++) {
    gdouble f = g_array_index (o->flash_t, gdouble, i), best = 1e9;

    for (; k < b->len && g_array_index (b, gdouble, k) < f - 1.0; k++);
    if (k < b->len)
      best = g_array_index (b, gdouble, k) - f;
    if (k + 1 < b->len && fabs (g_array_index (b, gdouble, k + 1) - f) <
        fabs (best))
      best = g_array_index (b, gdouble, k + 1) - f;
    if (g_getenv ("TEST_SYNC_MARKS"))     /* every mark, for a figure */
      g_print ("mark %u at %.3f s: %+.1f ms\n", i, f, best * 1000);
    if (fabs (best) > 0.020)
      g_error ("%s: mark %u at %.3f s: offset %+.1f ms", c->name, i, f,
          best * 1000);
    worst = MAX (worst, fabs (best));
    marks++;
  }
  g_print ("%s: %u marks, largest offset %.2f ms; measured drift %+.1f ppm "
      "(set %+.0f); frames %" G_GUINT64_FORMAT " + %" G_GUINT64_FORMAT
      " repeated = %" G_GUINT64_FORMAT " (lost %" G_GUINT64_FORMAT
      "); samples +%" G_GUINT64_FORMAT " -%" G_GUINT64_FORMAT "\n", c->name,
      marks, worst * 1000, tot->ppm, c->ppm, tot->frames_delivered,
      tot->frames_repeated, tot->frames_out, tot->frames_lost, tot->inserted,
      tot->removed);
  g_array_unref (b);
  return marks;
}

static gboolean
has_event (CapSync * s, const gchar * action)
{
  GArray *e = cap_sync_events (s);
  gboolean found = FALSE;
  guint i;

  for (i = 0; i < e->len; i++)
    found |= g_str_equal (g_array_index (e, CapSyncEvent, i).action, action);
  g_array_unref (e);
  return found;
}

static void
run (const Case * c)
{
  Out o = { g_array_new (FALSE, FALSE, sizeof (gdouble)),
    g_array_new (FALSE, FALSE, sizeof (gint16)), 0
  };
  CapSync *s = cap_sync_new (c->policy, FPS, 1, push, &o);
  GRand *r = g_rand_new_with_seed (25);
  gdouble arate = RATE * (1 + c->ppm * 1e-6), start = START;
  guint64 n = 0, j = 0, frames = (guint64) (c->seconds * FPS), expect;
  CapSyncTotals tot;
  GstBuffer *buf;
  gdouble next_loss = c->lose_audio_at;
  gboolean disc = FALSE;
  Reader rd = { 0, 0 };

  cap_sync_set_audio (s, RATE, 2, c->load_every > 0);
  cap_sync_set_sample_offsets (s, c->flagged);
  /* the audio device starts a little before the card: 0.35 s of samples */
  for (n = 0; n < frames; n++) {
    gdouble t = start + (gdouble) n / FPS;

    if (c->load_every > 0)
      read_node (c, s, &rd, r, t + 1.0 / FPS);
    while (c->load_every <= 0 && j / arate < t + 1.0 / FPS) {
      if (next_loss > 0 && j / arate > next_loss) {
        j += (guint64) (c->lose_s * arate);     /* an overrun: never come */
        next_loss = c->flagged ? next_loss + c->lose_audio_at : 0;
        disc = c->flagged;
      }
      buf = audio (c, j, r);
      GST_BUFFER_OFFSET (buf) = j;      /* a sample count, as alsasrc's */
      if (disc)
        GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_DISCONT);
      disc = FALSE;
      cap_sync_audio (s, buf);
      j += BUF;
    }
    if (c->drop_every && n % c->drop_every < c->drop_n && n > 0)
      continue;                 /* the driver dropped it */
    if (in_episode (c, t, BURST_S))
      continue;                 /* not taken in time: dropped */
    cap_sync_video (s, frame (n, t, (n % MARK_FRAMES) == 0));
  }
  cap_sync_audio_flush (s);
  cap_sync_totals (s, &tot);
  g_assert_cmpuint (tot.frames_delivered + tot.frames_repeated, ==,
      tot.frames_out);
  g_assert_cmpuint (tot.frames_out, ==, o.frames);
  expect = c->policy == CAP_DROP_REPEAT ? frames : tot.frames_delivered;
  g_assert_cmpuint (tot.frames_out, ==, expect);
  /* a dropped flash frame is a mark less */
  g_assert_cmpuint (measure (c, &o, &tot), >=,
      (guint) (c->seconds / 10 * (c->drop_every ? 0.9 : 1.0)) - 1);
  if (c->lose_audio_at > 0)
    g_assert_true (has_event (s, "audio silence inserted"));
  if (c->drop_every)
    g_assert_true (has_event (s, c->policy == CAP_DROP_REPEAT ?
            "repeated" : "audio removed"));
  g_assert_cmpfloat (fabs (tot.ppm - c->ppm), <, 50 + fabs (c->ppm) * 0.01);
  cap_sync_free (s);
  g_rand_free (r);
  g_array_unref (o.flash_t);
  g_array_unref (o.audio);
}

int
main (int argc, char **argv)
{
  guint i;

  gst_init (&argc, &argv);
  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    if (argc < 2 || g_str_equal (argv[1], cases[i].name)) {
      run (&cases[i]);
      if (argc >= 2)
        return 0;
    }
  if (argc >= 2) {
    g_printerr ("no case '%s'\n", argv[1]);
    return 2;
  }
  return 0;
}
