/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Live property changes on the emulated PVR-250 (issue 13): a change the
 * card refuses posts one warning and leaves the property at its old value,
 * so the next start works; the warning of a refused encoder change does not
 * blame another program when this element is the one recording; a live
 * input=tuner tunes to the stored frequency; a refused stream type is not
 * applied when the card comes back after an unplug; re-use from READY
 * after an unplug works once the card is back; a colour balance value
 * set while capturing is set again when the card comes back (it comes
 * back with its default controls); a live timeout change
 * works on the streaming path as on read(). */
#include "harness.h"

#include <gst/video/colorbalance.h>

#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

typedef struct
{
  GstElement *pipe, *src;
  GstBus *bus;
} Live;

/* ivtvsrc @props ! fakesink, PLAYING, the encoder running */
static void
live_start (Live * l, const gchar * props)
{
  gchar *launch = g_strdup_printf (strchr (props, '!') ? "ivtvsrc name=src "
      "%s" : "ivtvsrc name=src %s ! fakesink", props);

  l->pipe = gst_parse_launch (launch, NULL);
  fail_unless (l->pipe != NULL);
  g_free (launch);
  l->src = gst_bin_get_by_name (GST_BIN (l->pipe), "src");
  l->bus = gst_element_get_bus (l->pipe);
  gst_element_set_state (l->pipe, GST_STATE_PLAYING);
  fail_unless (gst_element_get_state (l->pipe, NULL, NULL, 5 * GST_SECOND)
      == GST_STATE_CHANGE_SUCCESS);
  g_usleep (200000);
}

static void
live_stop (Live * l)
{
  gst_element_set_state (l->pipe, GST_STATE_NULL);
  gst_object_unref (l->bus);
  gst_object_unref (l->src);
  gst_object_unref (l->pipe);
}

/* The warnings and errors posted within @ms: the number of warnings, the
 * first one's text in *first (g_free), errors fail the test. */
static guint
count_warnings (Live * l, gint ms, gchar ** first)
{
  GstMessage *msg;
  guint n = 0;

  *first = NULL;
  while ((msg = gst_bus_timed_pop_filtered (l->bus, ms * GST_MSECOND,
              GST_MESSAGE_WARNING | GST_MESSAGE_ERROR))) {
    gchar *text = ic_message_text (msg);

    fail_unless (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING,
        "an error: %s", text);
    if (n++ == 0)
      *first = text;
    else
      g_free (text);
    gst_message_unref (msg);
  }
  return n;
}

static gchar *
get_string (GstElement * e, const gchar * name)
{
  gchar *v = NULL;

  g_object_get (e, name, &v, NULL);
  return v;
}

/* input=bogus while capturing: one warning, input is 'composite' again,
 * the card stays on Composite 1, and a restart works */
GST_START_TEST (test_live_bad_input_keeps_old_value)
{
  Live l;
  gchar *w, *v;

  live_start (&l, "input=composite");
  fail_unless_equals_int (ic_get_input (), 2);
  g_object_set (l.src, "input", "bogus", NULL);
  fail_unless_equals_int (count_warnings (&l, 500, &w), 1);
  fail_unless (strstr (w, "Unknown input 'bogus'"), "%s", w);
  g_free (w);
  v = get_string (l.src, "input");
  fail_unless_equals_string (v, "composite");
  g_free (v);
  fail_unless_equals_int (ic_get_input (), 2);

  /* READY and back: the stored input is good */
  gst_element_set_state (l.pipe, GST_STATE_READY);
  gst_element_set_state (l.pipe, GST_STATE_PLAYING);
  fail_unless (gst_element_get_state (l.pipe, NULL, NULL, 5 * GST_SECOND)
      == GST_STATE_CHANGE_SUCCESS, "the restart failed");
  fail_unless_equals_int (count_warnings (&l, 300, &w), 0);
  live_stop (&l);
}

GST_END_TEST;

/* a bad standard name and an out-of-range frequency: the same */
GST_START_TEST (test_live_bad_standard_frequency_keep_old_value)
{
  Live l;
  gchar *w, *v;
  guint64 f = 0;

  live_start (&l, "input=tuner frequency=211250000 standard=ntsc-m");
  g_object_set (l.src, "standard", "bogus", NULL);
  fail_unless_equals_int (count_warnings (&l, 500, &w), 1);
  g_free (w);
  v = get_string (l.src, "standard");
  fail_unless_equals_string (v, "ntsc-m");
  g_free (v);

  g_object_set (l.src, "frequency", (guint64) 5000000000ULL, NULL);
  fail_unless_equals_int (count_warnings (&l, 500, &w), 1);
  fail_unless (strstr (w, "outside the range"), "%s", w);
  g_free (w);
  g_object_get (l.src, "frequency", &f, NULL);
  fail_unless_equals_uint64 (f, 211250000);

  gst_element_set_state (l.pipe, GST_STATE_READY);
  gst_element_set_state (l.pipe, GST_STATE_PLAYING);
  fail_unless (gst_element_get_state (l.pipe, NULL, NULL, 5 * GST_SECOND)
      == GST_STATE_CHANGE_SUCCESS, "the restart failed");
  fail_unless_equals_int (count_warnings (&l, 300, &w), 0);
  live_stop (&l);
}

GST_END_TEST;

/* the stream type cannot change while this element encodes: one warning
 * that does not blame another program; extra-controls is unset again */
GST_START_TEST (test_live_encoder_refusal_blames_nobody)
{
  Live l;
  GstStructure *st = gst_structure_new ("controls", "stream_type",
      G_TYPE_INT, 1, NULL);
  GstStructure *now = NULL;
  gchar *w;

  live_start (&l, "input=composite");
  g_object_set (l.src, "extra-controls", st, NULL);
  gst_structure_free (st);
  fail_unless_equals_int (count_warnings (&l, 500, &w), 1);
  fail_unless (strstr (w, "while it is encoding"), "%s", w);
  fail_if (strstr (w, "another program"), "blames another program: %s", w);
  g_free (w);
  g_object_get (l.src, "extra-controls", &now, NULL);
  fail_unless (now == NULL, "extra-controls kept the refused value");
  live_stop (&l);
}

GST_END_TEST;

/* The tuner's frequency in Hz, read on a fresh descriptor. */
static guint64
get_frequency_hz (void)
{
  struct v4l2_tuner t = {.index = 0 };
  struct v4l2_frequency f = {.tuner = 0 };
  gint fd = ic_open ();

  fail_unless (ioctl (fd, VIDIOC_G_TUNER, &t) == 0, "%s", g_strerror (errno));
  fail_unless (ioctl (fd, VIDIOC_G_FREQUENCY, &f) == 0, "%s",
      g_strerror (errno));
  close (fd);
  return (guint64) f.frequency * ((t.capability & V4L2_TUNER_CAP_LOW) ?
      62 : 62500);
}

/* frequency set while on Composite (kept for later, one warning), then a
 * live input=tuner: the tuner is tuned to it */
GST_START_TEST (test_live_tuner_applies_frequency)
{
  Live l;
  gchar *w;
  guint64 f = 0;

  live_start (&l, "input=composite");
  fail_if (get_frequency_hz () == 183250000);
  g_object_set (l.src, "frequency", (guint64) 183250000, NULL);
  fail_unless_equals_int (count_warnings (&l, 500, &w), 1);
  fail_unless (strstr (w, "not the tuner"), "%s", w);
  g_free (w);
  g_object_get (l.src, "frequency", &f, NULL);
  fail_unless_equals_uint64 (f, 183250000);

  g_object_set (l.src, "input", "tuner", NULL);
  fail_unless_equals_int (count_warnings (&l, 300, &w), 0);
  fail_unless_equals_int (ic_get_input (), 0);
  fail_unless_equals_uint64 (get_frequency_hz (), 183250000);
  live_stop (&l);
}

GST_END_TEST;

/* ---- --fault unplug-after=1000000 --fault unplug-for=1 ---- */

/* Waits for ivtvsrc-reconnect state=restored (FALSE after @ms). */
static gboolean
wait_restored (Live * l, gint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;
  GstMessage *msg;
  gboolean restored = FALSE;

  while (!restored && g_get_monotonic_time () < end) {
    const GstStructure *st;

    msg = gst_bus_timed_pop_filtered (l->bus, 100 * GST_MSECOND,
        GST_MESSAGE_ELEMENT);
    if (msg == NULL)
      continue;
    st = gst_message_get_structure (msg);
    restored = gst_structure_has_name (st, "ivtvsrc-reconnect")
        && g_strcmp0 (gst_structure_get_string (st, "state"),
        "restored") == 0;
    gst_message_unref (msg);
  }
  return restored;
}

/* A stream type the card refused while capturing (live extra-controls)
 * is not applied when the card comes back after an unplug: the bytes of
 * the new open are the program stream the caps say, not TS. */
GST_START_TEST (test_reconnect_skips_refused_stream_type)
{
  gchar *path = ic_tmp_path ("reconnect.mpg"), *props, *w;
  GstStructure *st = gst_structure_new ("controls", "stream_type",
      G_TYPE_INT, 1, NULL);
  const guint8 *d;
  GBytes *bytes;
  gsize n;
  Live l;

  fail_unless (ic_set_stream_type (V4L2_MPEG_STREAM_TYPE_MPEG2_PS));
  props = g_strdup_printf ("input=composite reconnect=true ! filesink "
      "location=%s", path);
  live_start (&l, props);
  g_free (props);
  g_object_set (l.src, "extra-controls", st, NULL);
  gst_structure_free (st);
  fail_unless_equals_int (count_warnings (&l, 200, &w), 1);
  g_free (w);
  fail_unless (wait_restored (&l, 10000), "no reconnect");
  g_usleep (500000);
  live_stop (&l);

  bytes = ic_read_file (path);
  d = g_bytes_get_data (bytes, &n);
  fail_unless (n > 1000000 + 2048, "%" G_GSIZE_FORMAT " bytes", n);
  fail_unless (d[1000000] == 0 && d[1000001] == 0 && d[1000002] == 1
      && d[1000003] == 0xba, "after the reconnect: %02x %02x %02x %02x, not "
      "a program stream pack (0x47: transport stream)", d[1000000],
      d[1000001], d[1000002], d[1000003]);
  g_bytes_unref (bytes);
  g_free (path);
}

GST_END_TEST;

/* The card comes back with its default stream type (PS) after an
 * unplug, but the capture negotiated TS (v4l2-ctl set it before): the
 * reconnect sets TS again, the bytes after it are TS. */
GST_START_TEST (test_reconnect_keeps_negotiated_stream_type)
{
  gchar *path = ic_tmp_path ("reconnect.ts"), *props;
  const guint8 *d;
  GBytes *bytes;
  gsize n;
  Live l;

  fail_unless (ic_set_stream_type (V4L2_MPEG_STREAM_TYPE_MPEG2_TS));
  props = g_strdup_printf ("input=composite reconnect=true ! filesink "
      "location=%s", path);
  live_start (&l, props);
  g_free (props);
  fail_unless (wait_restored (&l, 10000), "no reconnect");
  g_usleep (500000);
  live_stop (&l);

  bytes = ic_read_file (path);
  d = g_bytes_get_data (bytes, &n);
  fail_unless (n > 1000000 + 2048, "%" G_GSIZE_FORMAT " bytes", n);
  fail_unless (d[0] == 0x47, "not a transport stream at the start");
  fail_unless (d[1000000] == 0x47 && d[1000188] == 0x47, "after the "
      "reconnect: %02x %02x %02x %02x, not TS packets (the caps say TS)",
      d[1000000], d[1000001], d[1000002], d[1000003]);
  g_bytes_unref (bytes);
  g_free (path);
  fail_unless (ic_set_stream_type (V4L2_MPEG_STREAM_TYPE_MPEG2_PS));
}

GST_END_TEST;

/* The card's brightness, read on a descriptor of our own. */
static gint
card_brightness (void)
{
  struct v4l2_control c = { V4L2_CID_BRIGHTNESS, 0 };
  gint fd = ic_open ();

  fail_unless (ioctl (fd, VIDIOC_G_CTRL, &c) == 0, "G_CTRL: %s",
      g_strerror (errno));
  close (fd);
  return c.value;
}

/* Colour balance goes through the element's one way in: the value is
 * recorded, so the card that comes back with its default brightness after
 * the unplug gets it again (it was lost before: S_CTRL only). */
GST_START_TEST (test_reconnect_keeps_color_balance)
{
  GstColorBalance *cb;
  GstColorBalanceChannel *bright = NULL;
  const GList *ch;
  gint before;
  Live l;

  live_start (&l, "input=composite reconnect=true");
  cb = GST_COLOR_BALANCE (l.src);
  for (ch = gst_color_balance_list_channels (cb); ch; ch = ch->next)
    if (g_ascii_strcasecmp (GST_COLOR_BALANCE_CHANNEL (ch->data)->label,
            "brightness") == 0)
      bright = ch->data;
  fail_unless (bright != NULL, "no Brightness channel");
  before = card_brightness ();
  fail_if (before == 200, "the card's default is the test's value");
  gst_color_balance_set_value (cb, bright, 200);
  fail_unless_equals_int (card_brightness (), 200);
  fail_unless (wait_restored (&l, 10000), "no reconnect");
  fail_unless_equals_int (card_brightness (), 200);
  fail_unless_equals_int (gst_color_balance_get_value (cb, bright), 200);
  live_stop (&l);
}

GST_END_TEST;

/* Re-use from READY: the card went away (reconnect=false: an error), the
 * application sets the pipeline to READY, the card comes back, PLAYING
 * again captures (the element opens the node again). */
GST_START_TEST (test_ready_reuse_after_unplug)
{
  GstMessage *msg;
  gchar *w;
  Live l;

  live_start (&l, "");       /* the card's input: any profile */
  msg = gst_bus_timed_pop_filtered (l.bus, 10 * GST_SECOND,
      GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error when the card went away");
  w = ic_message_text (msg);
  fail_unless (strstr (w, "went away") || strstr (w, "was disconnected"),
      "%s", w);
  g_free (w);
  gst_message_unref (msg);
  gst_element_set_state (l.pipe, GST_STATE_READY);
  gst_bus_set_flushing (l.bus, TRUE);   /* the base class's error too */
  gst_bus_set_flushing (l.bus, FALSE);
  g_usleep (1500000);           /* unplug-for=1: it is back */

  gst_element_set_state (l.pipe, GST_STATE_PLAYING);
  fail_unless (gst_element_get_state (l.pipe, NULL, NULL, 5 * GST_SECOND)
      == GST_STATE_CHANGE_SUCCESS, "PLAYING again failed");
  msg = gst_bus_timed_pop_filtered (l.bus, 500 * GST_MSECOND,
      GST_MESSAGE_ERROR);
  if (msg) {
    w = ic_message_text (msg);
    fail ("an error after the card came back: %s", w);
    g_free (w);
    gst_message_unref (msg);
  }
  live_stop (&l);
}

GST_END_TEST;

/* ---- --fault stall-after=N (read() and streaming) ---- */

/* timeout=30 at start, timeout=1 once the data stopped: the warning after
 * 1 s and the error after 2 s come from the new value, on either path. */
GST_START_TEST (test_stall_live_timeout)
{
  GstMessage *msg;
  gint64 t0;
  gchar *w;
  Live l;

  live_start (&l, "timeout=30");
  g_usleep (500000);            /* the data has stopped (stall-after) */
  t0 = g_get_monotonic_time ();
  g_object_set (l.src, "timeout", 1, NULL);
  msg = gst_bus_timed_pop_filtered (l.bus, 6 * GST_SECOND,
      GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error within 6 s of timeout=1");
  w = ic_message_text (msg);
  fail_unless (strstr (w, "for 2 seconds"), "%s", w);
  fail_unless (g_get_monotonic_time () - t0 < 4 * G_USEC_PER_SEC,
      "the error came %" G_GINT64_FORMAT " ms after timeout=1",
      (g_get_monotonic_time () - t0) / 1000);
  g_free (w);
  gst_message_unref (msg);
  live_stop (&l);
}

GST_END_TEST;

static Suite *
live_suite (void)
{
  Suite *s = suite_create ("live-changes");
  TCase *tc = tcase_create ("pvr250");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_live_bad_input_keeps_old_value);
  tcase_add_test (tc, test_live_bad_standard_frequency_keep_old_value);
  tcase_add_test (tc, test_live_encoder_refusal_blames_nobody);
  tcase_add_test (tc, test_live_tuner_applies_frequency);
  tcase_add_test (tc, test_reconnect_skips_refused_stream_type);
  tcase_add_test (tc, test_reconnect_keeps_negotiated_stream_type);
  tcase_add_test (tc, test_reconnect_keeps_color_balance);
  tcase_add_test (tc, test_ready_reuse_after_unplug);
  tcase_add_test (tc, test_stall_live_timeout);
  return s;
}

GST_CHECK_MAIN (live);
