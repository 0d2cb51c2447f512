/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* tests/check: ivtvstreamclock (losses found from the stream's own clock)
 * on the emulator's payload clips (the bytes an emulated card streams):
 * clean streams give no loss, in any buffer sizes; a program stream with
 * packs cut out by hand gives one loss of about the size cut, where it
 * was cut; a transport stream with one packet dropped gives one loss of
 * 188 bytes; a cut that is not a whole number of packets or packs too.
 *
 *   test-stream-clock PAYLOAD_DIR */
#include "ivtvstreamclock.h"

#include <string.h>

static const gchar *payload_dir;

static GBytes *
clip (const gchar * name)
{
  gchar *path = g_build_filename (payload_dir, name, NULL), *data = NULL;
  gsize len = 0;
  GError *err = NULL;

  if (!g_file_get_contents (path, &data, &len, &err))
    g_error ("%s: %s", path, err->message);
  g_free (path);
  return g_bytes_new_take (data, len);
}

/* @data without the @n bytes at @at */
static GBytes *
cut (GBytes * data, gsize at, gsize n)
{
  gsize len;
  const guint8 *d = g_bytes_get_data (data, &len);
  guint8 *o = g_malloc (len - n);

  g_assert_cmpuint (at + n, <=, len);
  memcpy (o, d, at);
  memcpy (o + at, d + at + n, len - at - n);
  return g_bytes_new_take (o, len - n);
}

/* @data @times over, one after the other (each clip's clock starts over) */
static GBytes *
repeat (GBytes * data, guint times)
{
  gsize len;
  const guint8 *d = g_bytes_get_data (data, &len);
  guint8 *o = g_malloc (len * times);
  guint i;

  for (i = 0; i < times; i++)
    memcpy (o + i * len, d, len);
  return g_bytes_new_take (o, len * times);
}

/* every loss of @data fed in pieces of @chunk bytes (0: pieces of 1 to
 * 5000 bytes, from a fixed seed); the bytes skipped looking for a header
 * in *@resyncs */
static GArray *
losses (GBytes * data, IvtvStreamClockFormat format, gsize chunk,
    guint64 * resyncs)
{
  IvtvStreamClock *sc = ivtv_stream_clock_new (format);
  GArray *all = g_array_new (FALSE, FALSE, sizeof (IvtvStreamLoss));
  GRand *rand = g_rand_new_with_seed (28);
  gsize len, at = 0;
  const guint8 *d = g_bytes_get_data (data, &len);

  while (at < len) {
    gsize n = chunk ? chunk : (gsize) g_rand_int_range (rand, 1, 5001);
    const IvtvStreamLoss *l;
    guint k;

    n = MIN (n, len - at);
    k = ivtv_stream_clock_feed (sc, d + at, n, &l);
    g_array_append_vals (all, l, k);
    at += n;
  }
  g_rand_free (rand);
  *resyncs = ivtv_stream_clock_resyncs (sc);
  ivtv_stream_clock_free (sc);
  return all;
}

static void
print_losses (GArray * a)
{
  guint i;

  for (i = 0; i < a->len; i++) {
    IvtvStreamLoss *l = &g_array_index (a, IvtvStreamLoss, i);

    g_test_message ("loss at byte %" G_GUINT64_FORMAT ", stream time %.3f s: %"
        G_GUINT64_FORMAT " bytes, %.1f ms", l->offset, l->stream_time / 1e9,
        l->bytes, l->duration / 1e6);
  }
}

/* the same losses whatever the buffer sizes: headers read byte by byte
 * (pieces of 1 and 7), staged across pieces, and read in place in whole
 * buffers (the reader's 512 KiB, and 1 MiB) */
static GArray *
losses_any_chunks_resyncs (GBytes * data, IvtvStreamClockFormat format,
    guint64 * resyncs)
{
  static const gsize chunks[] = { 1, 7, 188, 2048, 32768, 524288, 0 };
  GArray *first = losses (data, format, 1 << 20, resyncs);
  guint c;

  for (c = 0; c < G_N_ELEMENTS (chunks); c++) {
    guint64 skipped;
    GArray *a = losses (data, format, chunks[c], &skipped);

    g_assert_cmpuint (skipped, ==, *resyncs);
    g_assert_cmpuint (a->len, ==, first->len);
    g_assert_cmpmem (a->data, a->len * sizeof (IvtvStreamLoss), first->data,
        first->len * sizeof (IvtvStreamLoss));
    g_array_unref (a);
  }
  print_losses (first);
  return first;
}

static GArray *
losses_any_chunks (GBytes * data, IvtvStreamClockFormat format)
{
  guint64 resyncs;

  return losses_any_chunks_resyncs (data, format, &resyncs);
}

static void
test_ps_clean (void)
{
  static const gchar *const clips[] = { "c0-ntsc.mpg", "c1-ntsc.mpg",
    "c2-pal.mpg", "black-ntsc.mpg", "black-pal.mpg", "c1-ntsc.dvd.mpg",
    "c1-ntsc.mpeg1.mpg", "c0-pal.svcd.mpg", NULL
  };
  guint i;

  for (i = 0; clips[i]; i++) {
    GBytes *one = clip (clips[i]), *three = repeat (one, 3);
    GArray *a = losses_any_chunks (three, IVTV_STREAM_CLOCK_AUTO);

    g_test_message ("%s x3: %u losses", clips[i], a->len);
    g_assert_cmpuint (a->len, ==, 0);
    g_array_unref (a);
    g_bytes_unref (three);
    g_bytes_unref (one);
  }
}

/* @n bytes cut out at byte @at of the third of three copies of a clip
 * (an average rate measured over two clips): one loss there, of about
 * their size (estimated from the average rate of a VBR stream: within a
 * third) */
static void
check_ps_cut (const gchar * name, gsize at, gsize n)
{
  GBytes *one = clip (name), *three = repeat (one, 3), *spliced;

  at += 2 * g_bytes_get_size (one);
  spliced = cut (three, at, n);
  GArray *a = losses_any_chunks (spliced, IVTV_STREAM_CLOCK_PS);
  IvtvStreamLoss *l;

  g_test_message ("%s without bytes %" G_GSIZE_FORMAT "-%" G_GSIZE_FORMAT
      ": %u losses", name, at, at + n, a->len);
  g_assert_cmpuint (a->len, ==, 1);
  l = &g_array_index (a, IvtvStreamLoss, 0);
  g_assert_cmpuint (l->offset, >=, at);
  g_assert_cmpuint (l->offset, <=, at + 2048);
  g_assert_cmpuint (l->bytes, >=, n * 2 / 3);
  g_assert_cmpuint (l->bytes, <=, n * 4 / 3);
  g_assert_cmpuint (l->duration, >, IVTV_STREAM_CLOCK_PS_MIN_LOSS_NS);
  g_assert_cmpuint (l->stream_time, >, 0);
  g_array_unref (a);
  g_bytes_unref (spliced);
  g_bytes_unref (three);
  g_bytes_unref (one);
}

static void
test_ps_spliced (void)
{
  check_ps_cut ("c1-ntsc.mpg", 100 * 2048, 150 * 2048);
  check_ps_cut ("c0-pal.mpg", 40 * 2048, 250 * 2048);
  /* a stall's loss: 16 driver transfers of 32 KiB, not pack-aligned */
  check_ps_cut ("c1-ntsc.mpg", 50 * 2048 + 777, 16 * 32768);
}

/* MPEG-1 packs (12-byte headers, a 90 kHz SCR) with a cut: the same
 * losses whether the headers are read in place or staged, the first at
 * the cut, of about its size.  (A second one of 2 KiB follows it, 141 ms
 * by the clock: this 1.1 Mbit/s VCD-like clip's audio timestamps come too
 * seldom to tell the pause after the cut from a loss; not asserted.) */
static void
test_ps_mpeg1_spliced (void)
{
  GBytes *one = clip ("c1-ntsc.mpeg1.mpg"), *three = repeat (one, 3);
  gsize at = 2 * g_bytes_get_size (one) + 20 * 2048, n = 40 * 2048;
  GBytes *spliced = cut (three, at, n);
  GArray *a = losses_any_chunks (spliced, IVTV_STREAM_CLOCK_PS);
  IvtvStreamLoss *l;

  g_assert_cmpuint (a->len, >=, 1);
  l = &g_array_index (a, IvtvStreamLoss, 0);
  g_assert_cmpuint (l->offset, >=, at);
  g_assert_cmpuint (l->offset, <=, at + 2048);
  g_assert_cmpuint (l->bytes, >=, n * 2 / 3);
  g_assert_cmpuint (l->bytes, <=, n * 4 / 3);
  g_array_unref (a);
  g_bytes_unref (spliced);
  g_bytes_unref (three);
  g_bytes_unref (one);
}

/* Bytes that are no header in the middle of a buffer (a pack header
 * overwritten): the walk over whole headers in place stops there, and
 * the search for the next pack header skips the same bytes and finds the
 * same (no) losses as when the headers come a byte at a time. */
static void
test_ps_not_a_header_mid_buffer (void)
{
  GBytes *one = clip ("c1-ntsc.mpg"), *three = repeat (one, 3), *broken;
  gsize len, at = g_bytes_get_size (one) + 300 * 2048;
  guint8 *d = g_bytes_unref_to_data (g_bytes_ref (three), &len);
  guint64 resyncs;
  GArray *a;

  g_assert_cmpmem (d + at, 4, "\x00\x00\x01\xba", 4);
  memset (d + at, 0xff, 4);
  broken = g_bytes_new_take (d, len);
  a = losses_any_chunks_resyncs (broken, IVTV_STREAM_CLOCK_PS, &resyncs);
  g_test_message ("pack header at %" G_GSIZE_FORMAT " overwritten: %"
      G_GUINT64_FORMAT " bytes skipped, %u losses", at, resyncs, a->len);
  /* the rest of that pack (2048 bytes, 2.7 ms at the mux rate: within
   * the jitter, no loss) */
  g_assert_cmpuint (resyncs, ==, 2048);
  g_assert_cmpuint (a->len, ==, 0);
  g_array_unref (a);
  g_bytes_unref (broken);
  g_bytes_unref (three);
  g_bytes_unref (one);
}

/* one clip each: a clip repeated as it is would jump its continuity
 * counters where it starts again (the emulator rewrites them as it loops,
 * tests/emu/payload-stamps.c; emu-mpeg-queue-clock-clean checks that) */
static void
test_ts_clean (void)
{
  static const gchar *const clips[] = { "c1-ntsc.ts", "c0-pal.ts",
    "black-ntsc.ts", NULL
  };
  guint i;

  for (i = 0; clips[i]; i++) {
    GBytes *one = clip (clips[i]);
    GArray *a = losses_any_chunks (one, IVTV_STREAM_CLOCK_AUTO);

    g_assert_cmpuint (a->len, ==, 0);
    g_array_unref (a);
    g_bytes_unref (one);
  }
}

static void
test_ts_dropped_packet (void)
{
  GBytes *one = clip ("c1-ntsc.ts");
  GBytes *dropped = cut (one, 1000 * 188, 188);
  GArray *a = losses_any_chunks (dropped, IVTV_STREAM_CLOCK_TS);
  IvtvStreamLoss *l;

  g_assert_cmpuint (a->len, ==, 1);
  l = &g_array_index (a, IvtvStreamLoss, 0);
  g_assert_cmpuint (l->bytes, ==, 188);
  g_assert_cmpuint (l->offset, >=, 1000 * 188);
  g_array_unref (a);
  g_bytes_unref (dropped);
  g_bytes_unref (one);
}

/* a driver transfer of 32 KiB is not a whole number of packets */
static void
test_ts_cut_unaligned (void)
{
  GBytes *one = clip ("c1-ntsc.ts");
  GBytes *dropped = cut (one, 500 * 188 + 100, 32768);
  GArray *a = losses_any_chunks (dropped, IVTV_STREAM_CLOCK_TS);

  g_assert_cmpuint (a->len, ==, 1);
  g_assert_cmpuint (g_array_index (a, IvtvStreamLoss, 0).bytes, >=, 188);
  g_array_unref (a);
  g_bytes_unref (dropped);
  g_bytes_unref (one);
}

static void
test_reset (void)
{
  GBytes *one = clip ("c1-ntsc.mpg");
  IvtvStreamClock *sc = ivtv_stream_clock_new (IVTV_STREAM_CLOCK_AUTO);
  gsize len;
  const guint8 *d = g_bytes_get_data (one, &len);

  g_assert_cmpuint (ivtv_stream_clock_feed (sc, d, len / 2, NULL), ==, 0);
  g_assert_cmpint (ivtv_stream_clock_format (sc), ==, IVTV_STREAM_CLOCK_PS);
  ivtv_stream_clock_reset (sc);
  g_assert_cmpint (ivtv_stream_clock_format (sc), ==, IVTV_STREAM_CLOCK_AUTO);
  /* a new stream that starts later in the clip: no loss */
  g_assert_cmpuint (ivtv_stream_clock_feed (sc, d + 200 * 2048,
          len - 200 * 2048, NULL), ==, 0);
  g_assert_cmpuint (ivtv_stream_clock_resyncs (sc), ==, 0);
  ivtv_stream_clock_free (sc);
  g_bytes_unref (one);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (argc < 2)
    g_error ("usage: test-stream-clock PAYLOAD_DIR");
  payload_dir = argv[1];
  g_test_add_func ("/stream-clock/ps-clean", test_ps_clean);
  g_test_add_func ("/stream-clock/ps-spliced", test_ps_spliced);
  g_test_add_func ("/stream-clock/ps-mpeg1-spliced", test_ps_mpeg1_spliced);
  g_test_add_func ("/stream-clock/ps-not-a-header-mid-buffer",
      test_ps_not_a_header_mid_buffer);
  g_test_add_func ("/stream-clock/ts-clean", test_ts_clean);
  g_test_add_func ("/stream-clock/ts-dropped-packet", test_ts_dropped_packet);
  g_test_add_func ("/stream-clock/ts-cut-unaligned", test_ts_cut_unaligned);
  g_test_add_func ("/stream-clock/reset", test_reset);
  return g_test_run ();
}
