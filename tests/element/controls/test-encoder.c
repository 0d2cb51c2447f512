/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc's encoder controls and colour balance under the emulator:
 * test_pvr_* run with --profile pvr250 --fault fast (MPEG and user
 * controls), test_cam_* with --profile webcam (user controls only).
 * Named properties applied and read back (from the element and from the
 * device, also with v4l2-ctl), "keep" leaves the card alone, values out of
 * range are errors naming the range, missing controls a warning naming the
 * card's controls, extra-controls, GstColorBalance, caps after
 * stream-type. */
#include "harness.h"

#include <gst/app/gstappsink.h>
#include <gst/video/colorbalance.h>
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static gint
get_ctrl (guint32 id)
{
  gint fd = ic_open ();
  struct v4l2_control c = {.id = id };

  fail_unless (ioctl (fd, VIDIOC_G_CTRL, &c) == 0, "G_CTRL 0x%x: %s", id,
      g_strerror (errno));
  close (fd);
  return c.value;
}

static void
set_ctrl (guint32 id, gint value)
{
  gint fd = ic_open ();
  struct v4l2_control c = {.id = id,.value = value };

  fail_unless (ioctl (fd, VIDIOC_S_CTRL, &c) == 0, "S_CTRL 0x%x: %s", id,
      g_strerror (errno));
  close (fd);
}

/* A running "ivtvsrc @props ! appsink": the pipeline in PLAYING with its
 * first sample pulled (caps and data in @sample). */
typedef struct
{
  GstElement *pipe, *src;
  GstSample *sample;
} Running;

static void
run_start (Running * r, const gchar * props)
{
  gchar *desc = g_strdup_printf ("ivtvsrc name=src %s ! appsink name=sink "
      "sync=false", props);
  GError *err = NULL;
  GstElement *sink;

  r->pipe = gst_parse_launch (desc, &err);
  fail_unless (r->pipe != NULL, "%s: %s", desc, err ? err->message : "?");
  r->src = gst_bin_get_by_name (GST_BIN (r->pipe), "src");
  sink = gst_bin_get_by_name (GST_BIN (r->pipe), "sink");
  gst_element_set_state (r->pipe, GST_STATE_PLAYING);
  r->sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
      10 * GST_SECOND);
  fail_unless (r->sample != NULL, "no data from '%s'", desc);
  gst_object_unref (sink);
  g_free (desc);
}

static void
run_stop (Running * r)
{
  gst_element_set_state (r->pipe, GST_STATE_NULL);
  gst_sample_unref (r->sample);
  gst_object_unref (r->src);
  gst_object_unref (r->pipe);
}

static gint
prop_int (GstElement * e, const gchar * name)
{
  GValue v = G_VALUE_INIT;
  gint out;

  g_object_get_property (G_OBJECT (e), name, &v);
  if (G_VALUE_HOLDS_ENUM (&v))
    out = g_value_get_enum (&v);
  else
    out = g_value_get_int (&v);
  g_value_unset (&v);
  return out;
}

static gboolean
has_warning (IcResult * res, const gchar * a, const gchar * b)
{
  GList *l;

  for (l = res->warnings; l; l = l->next)
    if (strstr (l->data, a) && (!b || strstr (l->data, b)))
      return TRUE;
  return FALSE;
}

/* ---- named properties ---- */

GST_START_TEST (test_pvr_named_applied)
{
  Running r;
  gchar *out = NULL;
  gint status = 1;
  gboolean spawned;

  set_ctrl (V4L2_CID_MPEG_VIDEO_BITRATE_MODE, 0);
  run_start (&r, "bitrate-mode=cbr bitrate=4000000 peak-bitrate=5000000 "
      "gop-size=15 b-frames=1 aspect=16:9 audio-rate=44100 "
      "audio-bitrate=256000");
  /* the element shows what it read back from the card */
  fail_unless_equals_int (prop_int (r.src, "bitrate-mode"),
      V4L2_MPEG_VIDEO_BITRATE_MODE_CBR);
  fail_unless_equals_int (prop_int (r.src, "bitrate"), 4000000);
  fail_unless_equals_int (prop_int (r.src, "peak-bitrate"), 5000000);
  fail_unless_equals_int (prop_int (r.src, "gop-size"), 15);
  fail_unless_equals_int (prop_int (r.src, "b-frames"), 1);
  fail_unless_equals_int (prop_int (r.src, "aspect"),
      V4L2_MPEG_VIDEO_ASPECT_16x9);
  fail_unless_equals_int (prop_int (r.src, "audio-rate"), 44100);
  fail_unless_equals_int (prop_int (r.src, "audio-bitrate"), 256000);

  /* and the card has them, seen by another program of the same run */
  /* (v4l2-ctl from v4l-utils; the ioctl checks below do not need it) */
  spawned = g_spawn_command_line_sync ("v4l2-ctl -d " IC_DEVICE
          " --get-ctrl video_bitrate,video_gop_size,video_aspect,"
          "audio_sampling_frequency,audio_layer_ii_bitrate,"
          "video_bitrate_mode", &out, NULL, &status, NULL);
  run_stop (&r);
  if (spawned && g_spawn_check_wait_status (status, NULL)) {
    fail_unless (strstr (out, "video_bitrate: 4000000"), "%s", out);
    fail_unless (strstr (out, "video_gop_size: 15"), "%s", out);
    fail_unless (strstr (out, "video_aspect: 2"), "%s", out);
    fail_unless (strstr (out, "audio_sampling_frequency: 0"), "%s", out);
    fail_unless (strstr (out, "audio_layer_ii_bitrate: 11"), "%s", out);
    fail_unless (strstr (out, "video_bitrate_mode: 1"), "%s", out);
  }
  g_free (out);
  fail_unless_equals_int (get_ctrl (V4L2_CID_MPEG_VIDEO_BITRATE), 4000000);
  fail_unless_equals_int (get_ctrl (V4L2_CID_MPEG_VIDEO_BITRATE_PEAK), 5000000);
  fail_unless_equals_int (get_ctrl (V4L2_CID_MPEG_VIDEO_B_FRAMES), 1);
}

GST_END_TEST;

GST_START_TEST (test_pvr_keep_reads_back)
{
  Running r;
  GstElement *e;

  set_ctrl (V4L2_CID_MPEG_VIDEO_BITRATE, 3500000);
  set_ctrl (V4L2_CID_MPEG_VIDEO_GOP_SIZE, 12);
  set_ctrl (V4L2_CID_MPEG_AUDIO_SAMPLING_FREQ, 1);

  e = gst_element_factory_make ("ivtvsrc", NULL);
  fail_unless_equals_int (prop_int (e, "bitrate"), -1);
  fail_unless_equals_int (prop_int (e, "stream-type"), -1);
  gst_object_unref (e);

  run_start (&r, "");
  /* nothing asked: the card keeps its values, the element shows them */
  fail_unless_equals_int (prop_int (r.src, "bitrate"), 3500000);
  fail_unless_equals_int (prop_int (r.src, "gop-size"), 12);
  fail_unless_equals_int (prop_int (r.src, "audio-rate"), 48000);
  fail_unless_equals_int (prop_int (r.src, "stream-type"),
      V4L2_MPEG_STREAM_TYPE_MPEG2_PS);
  run_stop (&r);
  fail_unless_equals_int (get_ctrl (V4L2_CID_MPEG_VIDEO_BITRATE), 3500000);
}

GST_END_TEST;

static void
expect_error (const gchar * props, const gchar * a, const gchar * b)
{
  gchar *launch = g_strdup_printf ("ivtvsrc %s num-buffers=5 ! fakesink",
      props);
  gchar *msg = ic_expect_error (launch);

  fail_unless (strstr (msg, a) && (!b || strstr (msg, b)),
      "'%s': error '%s' does not name '%s'/'%s'", props, msg, a, b);
  g_free (msg);
  g_free (launch);
}

GST_START_TEST (test_pvr_out_of_range)
{
  set_ctrl (V4L2_CID_MPEG_VIDEO_BITRATE, 6000000);
  expect_error ("bitrate=30000000", "bitrate 30000000", "0 to 27000000");
  expect_error ("gop-size=0", "gop-size 0", "1 to 34");
  expect_error ("b-frames=40", "b-frames 40", "0 to 33");
  expect_error ("audio-rate=22050", "22050", "44100 Hz, 48000 Hz, 32000 Hz");
  expect_error ("audio-bitrate=100000", "100000", "384000");
  expect_error ("extra-controls=\"controls,brightness=300\"",
      "brightness 300", "0 to 255");
  /* a double: rounded, and far out of range said as it was given */
  expect_error ("extra-controls=\"controls,brightness=(double)255.6\"",
      "brightness 256", "0 to 255");
  expect_error ("extra-controls=\"controls,brightness=(double)1e30\"",
      "brightness 1e+30", "0 to 255");
  expect_error ("extra-controls=\"controls,video_aspect=5x4\"",
      "video_aspect 5x4", "16x9");
  /* nothing was changed by the refused start */
  fail_unless_equals_int (get_ctrl (V4L2_CID_MPEG_VIDEO_BITRATE), 6000000);
}

GST_END_TEST;

/* another program encodes (no priority taken, the stream type control is
 * grabbed): one busy error before anything is set */
GST_START_TEST (test_pvr_busy_encoder)
{
  gint fd = ic_open ();
  guint8 b[4096];
  gchar *msg;

  fail_unless (read (fd, b, sizeof (b)) > 0 || errno == EAGAIN,
      "read: %s", g_strerror (errno));
  msg = ic_expect_error ("ivtvsrc stream-type=ts num-buffers=5 ! fakesink");
  fail_unless (strstr (msg, "is busy: its MPEG encoder is running for "
          "another program"), "error '%s' does not say the encoder is busy",
      msg);
  g_free (msg);
  close (fd);
  fail_unless_equals_int (get_ctrl (V4L2_CID_MPEG_STREAM_TYPE),
      V4L2_MPEG_STREAM_TYPE_MPEG2_PS);
}

GST_END_TEST;

/* ---- extra-controls ---- */

GST_START_TEST (test_pvr_extra_controls)
{
  IcResult res;

  set_ctrl (V4L2_CID_BRIGHTNESS, 128);
  set_ctrl (V4L2_CID_MPEG_VIDEO_GOP_SIZE, 12);
  ic_run ("ivtvsrc gop-size=18 extra-controls=\"controls,brightness=10,"
      "video-temporal-decimation=3,video_aspect=(string)2.21x1,"
      "audio_stereo_mode=3,video_gop_size=20\" num-buffers=5 ! fakesink",
      20000, &res);
  fail_unless (res.error == NULL, "error: %s", res.error);
  fail_unless (res.eos);
  fail_unless (res.warnings == NULL, "warning: %s",
      res.warnings ? (gchar *) res.warnings->data : "");
  ic_result_clear (&res);
  fail_unless_equals_int (get_ctrl (V4L2_CID_BRIGHTNESS), 10);
  fail_unless_equals_int (get_ctrl (V4L2_CID_MPEG_VIDEO_TEMPORAL_DECIMATION),
      3);
  fail_unless_equals_int (get_ctrl (V4L2_CID_MPEG_VIDEO_ASPECT),
      V4L2_MPEG_VIDEO_ASPECT_221x100);
  fail_unless_equals_int (get_ctrl (V4L2_CID_MPEG_AUDIO_MODE), 3);
  /* the named property wins over the entry for the same control */
  fail_unless_equals_int (get_ctrl (V4L2_CID_MPEG_VIDEO_GOP_SIZE), 18);
}

GST_END_TEST;

GST_START_TEST (test_pvr_extra_controls_unknown)
{
  IcResult res;

  set_ctrl (V4L2_CID_CONTRAST, 64);
  ic_run ("ivtvsrc extra-controls=\"controls,frobnication=1,contrast=100\" "
      "num-buffers=5 ! fakesink", 20000, &res);
  fail_unless (res.error == NULL, "error: %s", res.error);
  fail_unless (res.eos, "capture did not go on");
  fail_unless (has_warning (&res, "frobnication", "video_bitrate"),
      "no warning naming the unknown and the known controls");
  fail_unless (has_warning (&res, "brightness", NULL));
  ic_result_clear (&res);
  fail_unless_equals_int (get_ctrl (V4L2_CID_CONTRAST), 100);
}

GST_END_TEST;

/* a change while capturing: user controls at once, locked MPEG controls a
 * warning, capture goes on */
GST_START_TEST (test_pvr_extra_controls_live)
{
  Running r;
  GstStructure *s;
  GstBus *bus;
  GstMessage *msg;
  GstElement *sink;
  GstSample *more;
  GError *err = NULL;

  set_ctrl (V4L2_CID_BRIGHTNESS, 128);
  run_start (&r, "");
  s = gst_structure_from_string ("controls,brightness=33", NULL);
  g_object_set (r.src, "extra-controls", s, NULL);
  gst_structure_free (s);
  fail_unless_equals_int (get_ctrl (V4L2_CID_BRIGHTNESS), 33);

  s = gst_structure_from_string ("controls,stream_type=1", NULL);
  g_object_set (r.src, "extra-controls", s, NULL);
  gst_structure_free (s);
  bus = gst_element_get_bus (r.pipe);
  msg = gst_bus_timed_pop_filtered (bus, 5 * GST_SECOND,
      GST_MESSAGE_WARNING | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING,
      "no warning for a locked control");
  gst_message_parse_warning (msg, &err, NULL);
  fail_unless (strstr (err->message, "stream_type") &&
      strstr (err->message, "encoding"), "%s", err->message);
  g_clear_error (&err);
  gst_message_unref (msg);
  gst_object_unref (bus);
  fail_unless_equals_int (get_ctrl (V4L2_CID_MPEG_STREAM_TYPE),
      V4L2_MPEG_STREAM_TYPE_MPEG2_PS);

  sink = gst_bin_get_by_name (GST_BIN (r.pipe), "sink");
  more = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 5 * GST_SECOND);
  fail_unless (more != NULL, "capture stopped");
  gst_sample_unref (more);
  gst_object_unref (sink);
  run_stop (&r);
}

GST_END_TEST;

/* ---- caps follow the stream type ---- */

static void
check_stream_type (const gchar * props, const gchar * caps_str, gint type)
{
  Running r;
  GstCaps *expect = gst_caps_from_string (caps_str);
  GstBuffer *buf;
  GstMapInfo map;

  run_start (&r, props);
  fail_unless (gst_caps_is_equal (gst_sample_get_caps (r.sample), expect),
      "%s: caps %" GST_PTR_FORMAT, props, gst_sample_get_caps (r.sample));
  fail_unless_equals_int (prop_int (r.src, "stream-type"), type);
  fail_unless_equals_int (get_ctrl (V4L2_CID_MPEG_STREAM_TYPE), type);
  buf = gst_sample_get_buffer (r.sample);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  fail_unless (map.size > 2 * 188);
  if (type == V4L2_MPEG_STREAM_TYPE_MPEG2_TS) {
    fail_unless_equals_int (map.data[0], 0x47);
    fail_unless_equals_int (map.data[188], 0x47);
    fail_unless_equals_int (map.data[376], 0x47);
  } else {
    fail_unless (memcmp (map.data, "\0\0\1\xba", 4) == 0);
  }
  gst_buffer_unmap (buf, &map);
  gst_caps_unref (expect);
  run_stop (&r);
}

GST_START_TEST (test_pvr_stream_type_caps)
{
  check_stream_type ("stream-type=ts", "video/mpegts, "
      "systemstream=(boolean)true, packetsize=(int)188",
      V4L2_MPEG_STREAM_TYPE_MPEG2_TS);
  check_stream_type ("stream-type=ps", "video/mpeg, mpegversion=(int)2, "
      "systemstream=(boolean)true", V4L2_MPEG_STREAM_TYPE_MPEG2_PS);
  check_stream_type ("stream-type=dvd", "video/mpeg, mpegversion=(int)2, "
      "systemstream=(boolean)true", V4L2_MPEG_STREAM_TYPE_MPEG2_DVD);
  /* the caps of MPEG-1 (the emulator's payload stays MPEG-2: only the
   * caps and the control are checked here) */
  {
    Running r;
    GstCaps *expect = gst_caps_from_string ("video/mpeg, "
        "mpegversion=(int)1, systemstream=(boolean)true");

    run_start (&r, "stream-type=vcd");
    fail_unless (gst_caps_is_equal (gst_sample_get_caps (r.sample), expect),
        "vcd: caps %" GST_PTR_FORMAT, gst_sample_get_caps (r.sample));
    fail_unless_equals_int (get_ctrl (V4L2_CID_MPEG_STREAM_TYPE),
        V4L2_MPEG_STREAM_TYPE_MPEG1_VCD);
    run_stop (&r);
    gst_caps_unref (expect);
  }
  set_ctrl (V4L2_CID_MPEG_STREAM_TYPE, V4L2_MPEG_STREAM_TYPE_MPEG2_PS);
}

GST_END_TEST;

/* ---- colour balance ---- */

static GstColorBalanceChannel *
find_channel (GstColorBalance * cb, const gchar * label)
{
  const GList *l;

  for (l = gst_color_balance_list_channels (cb); l; l = l->next) {
    GstColorBalanceChannel *ch = l->data;

    if (g_ascii_strcasecmp (ch->label, label) == 0)
      return ch;
  }
  return NULL;
}

static void
on_value_changed (GstColorBalance * cb, GstColorBalanceChannel * ch,
    gint value, gpointer data)
{
  (void) cb;
  (void) ch;
  *(gint *) data = value;
}

/* list, ranges, set (seen on the device), get (of a value set elsewhere) */
static void
check_balance (gint bmin, gint bmax, gint hmin, gint hmax)
{
  GstElement *e = gst_element_factory_make ("ivtvsrc", NULL);
  GstColorBalance *cb;
  GstColorBalanceChannel *ch;
  gint changed = G_MININT;

  fail_unless (GST_IS_COLOR_BALANCE (e));
  cb = GST_COLOR_BALANCE (e);
  fail_unless (gst_color_balance_list_channels (cb) == NULL,
      "channels without a device");
  fail_unless_equals_int (gst_color_balance_get_balance_type (cb),
      GST_COLOR_BALANCE_HARDWARE);
  fail_unless (gst_element_set_state (e, GST_STATE_READY) ==
      GST_STATE_CHANGE_SUCCESS);
  fail_unless_equals_int (g_list_length ((GList *)
          gst_color_balance_list_channels (cb)), 4);
  fail_unless (find_channel (cb, "contrast") != NULL);
  fail_unless (find_channel (cb, "saturation") != NULL);
  ch = find_channel (cb, "hue");
  fail_unless (ch != NULL);
  fail_unless_equals_int (ch->min_value, hmin);
  fail_unless_equals_int (ch->max_value, hmax);
  ch = find_channel (cb, "brightness");
  fail_unless (ch != NULL);
  fail_unless_equals_int (ch->min_value, bmin);
  fail_unless_equals_int (ch->max_value, bmax);

  g_signal_connect (e, "value-changed", G_CALLBACK (on_value_changed),
      &changed);
  set_ctrl (V4L2_CID_BRIGHTNESS, bmin + 1);
  gst_color_balance_set_value (cb, ch, bmin + 7);
  fail_unless_equals_int (get_ctrl (V4L2_CID_BRIGHTNESS), bmin + 7);
  fail_unless_equals_int (changed, bmin + 7);
  fail_unless_equals_int (gst_color_balance_get_value (cb, ch), bmin + 7);
  set_ctrl (V4L2_CID_BRIGHTNESS, bmin + 3);
  fail_unless_equals_int (gst_color_balance_get_value (cb, ch), bmin + 3);

  gst_element_set_state (e, GST_STATE_NULL);
  fail_unless (gst_color_balance_list_channels (cb) == NULL);
  gst_object_unref (e);
}

GST_START_TEST (test_pvr_color_balance)
{
  check_balance (0, 255, -128, 127);
}

GST_END_TEST;

/* while capturing: the user controls are not locked by the encoder */
GST_START_TEST (test_pvr_color_balance_playing)
{
  Running r;
  GstColorBalance *cb;
  GstColorBalanceChannel *ch;

  run_start (&r, "");
  cb = GST_COLOR_BALANCE (r.src);
  ch = find_channel (cb, "saturation");
  fail_unless (ch != NULL);
  gst_color_balance_set_value (cb, ch, 99);
  fail_unless_equals_int (get_ctrl (V4L2_CID_SATURATION), 99);
  fail_unless_equals_int (gst_color_balance_get_value (cb, ch), 99);
  /* out of the channel's range: clamped, not refused */
  gst_color_balance_set_value (cb, ch, 1000);
  fail_unless_equals_int (get_ctrl (V4L2_CID_SATURATION), 127);
  run_stop (&r);
}

GST_END_TEST;

/* ---- a card without MPEG controls ---- */

GST_START_TEST (test_cam_color_balance)
{
  check_balance (-64, 64, -2000, 2000);
}

GST_END_TEST;

GST_START_TEST (test_cam_missing_controls_warn)
{
  IcResult res;

  ic_run ("ivtvsrc stream-type=ts bitrate=4000000 aspect=16:9 "
      "num-buffers=5 ! fakesink", 20000, &res);
  fail_unless (res.error == NULL, "error: %s", res.error);
  fail_unless (res.eos, "capture did not go on");
  fail_unless (has_warning (&res, "stream-type, bitrate, aspect",
          "brightness"), "no warning naming the missing and the card's "
      "controls");
  ic_result_clear (&res);
}

GST_END_TEST;

static Suite *
encoder_suite (void)
{
  Suite *s = suite_create ("ivtvsrc-encoder");
  TCase *tc = tcase_create ("encoder");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_pvr_named_applied);
  tcase_add_test (tc, test_pvr_keep_reads_back);
  tcase_add_test (tc, test_pvr_out_of_range);
  tcase_add_test (tc, test_pvr_busy_encoder);
  tcase_add_test (tc, test_pvr_extra_controls);
  tcase_add_test (tc, test_pvr_extra_controls_unknown);
  tcase_add_test (tc, test_pvr_extra_controls_live);
  tcase_add_test (tc, test_pvr_stream_type_caps);
  tcase_add_test (tc, test_pvr_color_balance);
  tcase_add_test (tc, test_pvr_color_balance_playing);
  tcase_add_test (tc, test_cam_color_balance);
  tcase_add_test (tc, test_cam_missing_controls_warn);
  return s;
}

GST_CHECK_MAIN (encoder);
