/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc across PAUSED on an MPEG card (issue 28 item 1): PLAYING ->
 * PAUSED 8 s -> PLAYING -> EOS must not splice the recording.  On pvr250
 * (ivtv: ENCODER_CMD PAUSE) the encoder pauses: the file is the emulator's
 * stream without a hole (its SCR runs on pack after pack), the driver drops
 * nothing, nothing is reported lost, and the paused seconds are not in it;
 * PAUSED -> READY and a second capture, and an EOS sent while paused, end
 * cleanly (the last GOP complete, without waiting out the drain).  On
 * hdpvr (no PAUSE: EINVAL) the reader reads on into the queue while
 * paused: nothing is dropped, timestamps never go back; a queue too small
 * for the pause loses what does not fit, told (warning, DISCONT,
 * bytes-lost).  The emulator's drop counter is
 * $IVTV_EMU_RUNDIR/discarded-video0 (tests/emu/mpeg.c), counting every
 * capture of the run: each test takes its own difference. */
#include "harness.h"

#include <string.h>

/* the pvr250's default bitrate, 6 Mbit/s (tests/emu/profile-pvr.h) */
#define PVR_BYTES_PER_S 750000
/* hdpvr's, 6.5 Mbit/s (tests/emu/profile-hdpvr.c) */
#define HDPVR_BYTES_PER_S 812500
/* longer than the 4 MB driver queue lasts at either rate */
#define PAUSE_US (8 * G_USEC_PER_SEC)

typedef struct
{
  GMutex lock;
  GByteArray *data;             /* every byte pushed */
  guint disconts;               /* DISCONT after the first buffer */
  guint backwards;              /* a PTS before the one before it */
  GstClockTime last_pts;
  gint64 first_us;              /* monotonic: the first buffer */
  guint64 discarded0;           /* the emulator's count before (it counts
                                 * every capture of the run) */
  /* from the bus */
  GList *warnings;
  guint64 bytes_lost;
  gboolean eos;
} PauseRun;

static GstPadProbeReturn
pause_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  PauseRun *p = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstClockTime pts = GST_BUFFER_PTS (buf);
  GstMapInfo map;

  (void) pad;
  g_mutex_lock (&p->lock);
  if (p->first_us == 0)
    p->first_us = g_get_monotonic_time ();
  if (p->data->len > 0 && GST_BUFFER_FLAG_IS_SET (buf,
          GST_BUFFER_FLAG_DISCONT))
    p->disconts++;
  if (GST_CLOCK_TIME_IS_VALID (pts) && GST_CLOCK_TIME_IS_VALID (p->last_pts)
      && pts < p->last_pts)
    p->backwards++;
  if (GST_CLOCK_TIME_IS_VALID (pts))
    p->last_pts = pts;
  if (gst_buffer_map (buf, &map, GST_MAP_READ)) {
    g_byte_array_append (p->data, map.data, map.size);
    gst_buffer_unmap (buf, &map);
  }
  g_mutex_unlock (&p->lock);
  return GST_PAD_PROBE_OK;
}

static gsize
run_bytes (PauseRun * p)
{
  gsize n;

  g_mutex_lock (&p->lock);
  n = p->data->len;
  g_mutex_unlock (&p->lock);
  return n;
}

/* Pump the bus until @n bytes were pushed (0: until EOS) or @max_us pass;
 * TRUE when that came. */
static gboolean
pump (GstElement * pipe, PauseRun * p, gsize n, gint64 max_us)
{
  GstBus *bus = gst_element_get_bus (pipe);
  gint64 end = g_get_monotonic_time () + max_us;

  while (g_get_monotonic_time () < end && !p->eos
      && (n == 0 || run_bytes (p) < n)) {
    GstMessage *m = gst_bus_timed_pop (bus, 20 * GST_MSECOND);
    const GstStructure *st = m ? gst_message_get_structure (m) : NULL;

    if (m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_WARNING)
      p->warnings = g_list_append (p->warnings, ic_message_text (m));
    if (m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      gchar *text = ic_message_text (m);

      fail ("error: %s", text);
      g_free (text);
    }
    if (st && gst_structure_has_name (st, "ivtvsrc-stats"))
      gst_structure_get_uint64 (st, "bytes-lost", &p->bytes_lost);
    p->eos |= m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS;
    gst_clear_message (&m);
  }
  gst_object_unref (bus);
  return n == 0 ? p->eos : run_bytes (p) >= n;
}

/* What the emulated driver dropped so far (its full queue). */
static guint64
emu_discarded (void)
{
  const gchar *dir = g_getenv ("IVTV_EMU_RUNDIR");
  gchar *path, *text = NULL;
  guint64 n = 0;

  fail_unless (dir != NULL, "not under ivtv-emu");
  path = g_build_filename (dir, "discarded-video0", NULL);
  if (g_file_get_contents (path, &text, NULL, NULL))
    n = g_ascii_strtoull (text, NULL, 10);
  g_free (text);
  g_free (path);
  return n;
}

/* The program stream's clock: a pack header at every 2048 bytes (the
 * emulator's clips, as ivtv's DVD-ready streams), its SCR a few ms after
 * the one before.  The jumps of more than half a second (a hole: the
 * issue's was 4.5 s), or -1 when the bytes are not such packs. */
static gint
scr_jumps (const guint8 * d, gsize n)
{
  guint64 prev = 0;
  gint jumps = 0;
  gsize i;

  for (i = 0; i + 14 <= n; i += 2048) {
    const guint8 *b = d + i + 4;
    guint64 scr;

    if (d[i] != 0 || d[i + 1] != 0 || d[i + 2] != 1 || d[i + 3] != 0xba
        || b[0] >> 6 != 1)
      return -1;
    scr = (guint64) ((b[0] >> 3) & 7) << 30 | (guint64) (b[0] & 3) << 28
        | (guint64) b[1] << 20 | (guint64) (b[2] >> 3) << 15
        | (guint64) (b[2] & 3) << 13 | (guint64) b[3] << 5 | b[4] >> 3;
    if (i > 0 && (scr < prev || scr - prev > 45000)) {
      GST_INFO ("SCR jump at byte %" G_GSIZE_FORMAT ": %" G_GUINT64_FORMAT
          " -> %" G_GUINT64_FORMAT, i, prev, scr);
      jumps++;
    }
    prev = scr;
  }
  return jumps;
}

static gboolean
ends_with_gop (PauseRun * p)
{
  const guint8 *d = p->data->data;
  guint n = p->data->len;

  return n >= 4 && d[n - 4] == 0 && d[n - 3] == 0 && d[n - 2] == 1
      && d[n - 1] == 0xb9;
}

static GstElement *
pause_pipeline_with (PauseRun * p, const gchar * props)
{
  gchar *launch = g_strdup_printf ("ivtvsrc input=composite %s "
      "! fakesink name=sink sync=false", props);
  GstElement *pipe = gst_parse_launch (launch, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");

  memset (p, 0, sizeof (*p));
  g_mutex_init (&p->lock);
  p->data = g_byte_array_new ();
  p->last_pts = GST_CLOCK_TIME_NONE;
  p->discarded0 = emu_discarded ();
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, pause_probe, p, NULL);
  gst_object_unref (pad);
  gst_object_unref (sink);
  g_free (launch);
  return pipe;
}

static GstElement *
pause_pipeline (PauseRun * p)
{
  return pause_pipeline_with (p, "");
}

static void
pause_run_clear (PauseRun * p)
{
  g_list_free_full (p->warnings, g_free);
  g_byte_array_unref (p->data);
  g_mutex_clear (&p->lock);
}

static void
fail_on_warnings (PauseRun * p)
{
  g_print ("%u bytes, %" G_GUINT64_FORMAT " lost, %u DISCONT, %u PTS back, "
      "%" G_GUINT64_FORMAT " discarded by the driver, %d SCR jumps, %s\n",
      p->data->len, p->bytes_lost, p->disconts, p->backwards,
      emu_discarded () - p->discarded0, scr_jumps (p->data->data,
          p->data->len),
      ends_with_gop (p) ? "ends with a GOP end" : "ends inside a GOP");

  GList *l;

  for (l = p->warnings; l; l = l->next)
    fail ("warning: %s", (gchar *) l->data);
}

/* PLAYING until @first bytes, PAUSED for PAUSE_US, PLAYING for @more
 * bytes, EOS: the seconds from the first buffer to the EOS asked, the
 * stream's span (its bytes at the card's rate, less the pause if the
 * encoder paused). */
static gdouble
play_pause_play (GstElement * pipe, PauseRun * p, gsize first, gsize more)
{
  gint64 t_eos;

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  fail_unless (pump (pipe, p, first, 20 * G_USEC_PER_SEC), "no data");
  gst_element_set_state (pipe, GST_STATE_PAUSED);
  pump (pipe, p, G_MAXSIZE, PAUSE_US);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  fail_unless (pump (pipe, p, run_bytes (p) + more, 30 * G_USEC_PER_SEC),
      "no data after the pause");
  t_eos = g_get_monotonic_time ();
  gst_element_send_event (pipe, gst_event_new_eos ());
  fail_unless (pump (pipe, p, 0, 20 * G_USEC_PER_SEC), "no EOS");
  g_print ("first buffer to EOS asked: %.1f s\n", (gdouble) (t_eos -
          p->first_us) / G_USEC_PER_SEC);
  return (gdouble) (t_eos - p->first_us) / G_USEC_PER_SEC;
}

/* ---- pvr250: the encoder pauses ---- */

GST_START_TEST (test_pvr_pause_keeps_stream_whole)
{
  PauseRun p;
  GstElement *pipe = pause_pipeline (&p);
  gdouble secs = play_pause_play (pipe, &p, 1000000, 2000000);

  gst_element_set_state (pipe, GST_STATE_NULL);
  fail_on_warnings (&p);
  fail_unless_equals_uint64 (emu_discarded () - p.discarded0, 0);
  fail_unless_equals_uint64 (p.bytes_lost, 0);
  fail_unless_equals_int (p.disconts, 0);
  fail_unless_equals_int (p.backwards, 0);
  /* the bytes before and after the pause are one stream */
  fail_unless_equals_int (scr_jumps (p.data->data, p.data->len), 0);
  fail_unless (ends_with_gop (&p), "the last GOP is not complete");
  /* the encoder made nothing while paused: at least half of the pause is
   * not in the file (read on, all 8 s would be) */
  fail_unless (p.data->len < PVR_BYTES_PER_S * (secs - 4), "%u bytes in "
      "%.1f s: the encoder did not pause", p.data->len, secs);
  gst_object_unref (pipe);
  pause_run_clear (&p);
}

GST_END_TEST;

/* PAUSED (encoder paused) -> READY ends the capture; the next one pauses
 * its encoder again and loses nothing. */
GST_START_TEST (test_pvr_paused_to_ready_then_again)
{
  PauseRun p;
  GstElement *pipe = pause_pipeline (&p);
  guint64 discarded;
  gdouble secs;

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  fail_unless (pump (pipe, &p, 500000, 20 * G_USEC_PER_SEC), "no data");
  gst_element_set_state (pipe, GST_STATE_PAUSED);
  pump (pipe, &p, G_MAXSIZE, G_USEC_PER_SEC);
  fail_unless (gst_element_set_state (pipe, GST_STATE_READY)
      == GST_STATE_CHANGE_SUCCESS);
  /* what the stop threw away (unread backlog) is the first capture's */
  discarded = emu_discarded ();
  g_mutex_lock (&p.lock);
  g_byte_array_set_size (p.data, 0);
  p.last_pts = GST_CLOCK_TIME_NONE;
  p.first_us = 0;
  g_mutex_unlock (&p.lock);

  secs = play_pause_play (pipe, &p, 1000000, 1000000);
  gst_element_set_state (pipe, GST_STATE_NULL);
  fail_on_warnings (&p);
  fail_unless_equals_uint64 (emu_discarded (), discarded);
  fail_unless_equals_uint64 (p.bytes_lost, 0);
  fail_unless_equals_int (p.disconts, 0);
  fail_unless_equals_int (scr_jumps (p.data->data, p.data->len), 0);
  fail_unless (ends_with_gop (&p), "the last GOP is not complete");
  fail_unless (p.data->len < PVR_BYTES_PER_S * (secs - 4), "%u bytes in "
      "%.1f s: the encoder did not pause the second time", p.data->len, secs);
  gst_object_unref (pipe);
  pause_run_clear (&p);
}

GST_END_TEST;

/* EOS while paused (encoder paused), PLAYING after the drain's 2 s: the
 * encoder was resumed to end its GOP and the rest read meanwhile, so the
 * file ends with a complete GOP (a drain that ran out of time ends
 * inside one). */
GST_START_TEST (test_pvr_eos_while_paused_ends_at_gop)
{
  PauseRun p;
  GstElement *pipe = pause_pipeline (&p);

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  fail_unless (pump (pipe, &p, 1000000, 20 * G_USEC_PER_SEC), "no data");
  gst_element_set_state (pipe, GST_STATE_PAUSED);
  pump (pipe, &p, G_MAXSIZE, G_USEC_PER_SEC);
  gst_element_send_event (pipe, gst_event_new_eos ());
  pump (pipe, &p, G_MAXSIZE, 3 * G_USEC_PER_SEC);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  fail_unless (pump (pipe, &p, 0, 20 * G_USEC_PER_SEC), "no EOS");
  gst_element_set_state (pipe, GST_STATE_NULL);
  fail_on_warnings (&p);
  fail_unless_equals_uint64 (p.bytes_lost, 0);
  fail_unless_equals_int (p.disconts, 0);
  fail_unless_equals_int (scr_jumps (p.data->data, p.data->len), 0);
  fail_unless (ends_with_gop (&p), "the last GOP is not complete: the "
      "drain ran out of time");
  gst_object_unref (pipe);
  pause_run_clear (&p);
}

GST_END_TEST;

/* ---- hdpvr: no PAUSE, read on into the queue ---- */

GST_START_TEST (test_hdpvr_pause_reads_on)
{
  PauseRun p;
  GstElement *pipe = pause_pipeline (&p);
  gdouble secs = play_pause_play (pipe, &p, 1000000, 2000000);

  gst_element_set_state (pipe, GST_STATE_NULL);
  fail_on_warnings (&p);
  fail_unless_equals_uint64 (emu_discarded () - p.discarded0, 0);
  fail_unless_equals_uint64 (p.bytes_lost, 0);
  fail_unless_equals_int (p.disconts, 0);
  /* read while paused: stamped at the pause, never ahead of later ones */
  fail_unless_equals_int (p.backwards, 0);
  /* the paused seconds are in the file (not read on, the driver's 4 MB
   * would keep 5 of the 8: secs - 3) */
  fail_unless (p.data->len > HDPVR_BYTES_PER_S * (secs - 1.5), "%u bytes in "
      "%.1f s: the pause is missing", p.data->len, secs);
  gst_object_unref (pipe);
  pause_run_clear (&p);
}

GST_END_TEST;

/* Read on into a queue too small for the pause (max-buffer-bytes 2 MB,
 * 8 s at 812 kB/s): the queue's loss is told (a warning naming the bound,
 * DISCONT, bytes-lost), and the driver still drops nothing. */
GST_START_TEST (test_hdpvr_pause_queue_full_told)
{
  PauseRun p;
  GstElement *pipe = pause_pipeline_with (&p, "max-buffer-bytes=2000000");
  gboolean told = FALSE;
  GList *l;

  /* after the resume, past the 2 MB queued: the bytes after the hole */
  play_pause_play (pipe, &p, 1000000, 3000000);
  gst_element_set_state (pipe, GST_STATE_NULL);
  for (l = p.warnings; l; l = l->next)
    told |= strstr (l->data, "max-buffer-bytes=2000000") != NULL;
  g_print ("%u bytes, %" G_GUINT64_FORMAT " lost, %u DISCONT, %"
      G_GUINT64_FORMAT " discarded by the driver, %s\n", p.data->len,
      p.bytes_lost, p.disconts, emu_discarded () - p.discarded0, p.warnings ?
      (gchar *) p.warnings->data : "no warning");
  fail_unless (told, "no warning of the queue's loss");
  fail_unless (p.bytes_lost > 0, "bytes-lost 0");
  fail_unless (p.disconts >= 1, "no DISCONT after the loss");
  fail_unless_equals_uint64 (emu_discarded () - p.discarded0, 0);
  fail_unless_equals_int (p.backwards, 0);
  gst_object_unref (pipe);
  pause_run_clear (&p);
}

GST_END_TEST;

static Suite *
pause_suite (void)
{
  Suite *s = suite_create ("ivtvsrc-pause");
  TCase *tc = tcase_create ("pause");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_pvr_pause_keeps_stream_whole);
  tcase_add_test (tc, test_pvr_paused_to_ready_then_again);
  tcase_add_test (tc, test_pvr_eos_while_paused_ends_at_gop);
  tcase_add_test (tc, test_hdpvr_pause_reads_on);
  tcase_add_test (tc, test_hdpvr_pause_queue_full_told);
  return s;
}

GST_CHECK_MAIN (pause);
