/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of ivtvsrc's streaming path (gst/ivtvstream.c, ivtvbufqueue.c,
 * ivtvnegotiate.c) against the emulator's `webcam` profile: io-mode auto
 * picks mmap; frames are the device's memory (zero copy, recycled); the
 * copy threshold; dmabuf and userptr; MJPEG; size and frame rate set via a
 * capsfilter reach the device; buffers outliving stop; state cycles
 * without leaking mappings; EOS and stop during a blocked wait (with
 * `--fault stall-after=N`: test_stall_*); errors that say what happened
 * (`--fault eio-at=N`: test_eio_*, `--fault unplug-after=N`:
 * test_unplug_*; with `--fault unplug-for=1` and reconnect=true the
 * capture goes on: test_reconnect_*).
 *
 * Run under `ivtv-emu --profile webcam [--fault ...] --`; GST_CHECKS picks
 * the tests of each run (see meson.build). */
#include "test-stream-util.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/videodev2.h>
#include <gst/video/video.h>

#define DEV "/dev/video0"

static gsize
frame_size (GstCaps * caps)
{
  GstVideoInfo info;

  fail_unless (caps != NULL);
  fail_unless (gst_video_info_from_caps (&info, caps), "%" GST_PTR_FORMAT,
      caps);
  return GST_VIDEO_INFO_SIZE (&info);
}

/* io-mode auto on a streaming-only camera: mmap, whole frames */
GST_START_TEST (test_cam_auto_is_mmap)
{
  TsRun *run = ts_run_new ("ivtvsrc name=src num-buffers=10 ! "
      "videoconvert ! fakesink name=sink");
  guint i;
  gsize size;

  ts_run_to_eos (run, 10000);
  fail_unless_equals_int (run->n_buffers, 10);
  fail_unless_equals_string (run->io_mode, "mmap");
  size = frame_size (run->caps);
  for (i = 0; i < run->n_buffers; i++)
    fail_unless_equals_int (run->rec[i].size, size);
  ts_run_free (run);
}

GST_END_TEST;

/* Frames are the driver's mmap'd memory, a few buffers going round; the
 * timestamps increase and the offsets are the driver's sequence numbers. */
GST_START_TEST (test_cam_zero_copy)
{
  TsRun *run = ts_run_new ("ivtvsrc name=src num-buffers=30 ! "
      "video/x-raw ! fakesink name=sink");
  GHashTable *ptrs = g_hash_table_new (NULL, NULL);
  GstClockTime avg;
  guint i;

  ts_run_to_eos (run, 15000);
  fail_unless_equals_int (run->n_buffers, 30);
  fail_unless_equals_string (run->io_mode, "mmap");
  /* the driver's timestamps: on average one frame period apart */
  avg = (run->rec[29].pts - run->rec[0].pts) / 29;
  fail_unless (avg > run->rec[0].duration * 8 / 10
      && avg < run->rec[0].duration * 12 / 10, "frames %" GST_TIME_FORMAT
      " apart, duration %" GST_TIME_FORMAT, GST_TIME_ARGS (avg),
      GST_TIME_ARGS (run->rec[0].duration));
  for (i = 0; i < run->n_buffers; i++) {
    TsRecord *r = &run->rec[i];
    fail_unless (r->shared, "frame %u at %p is not in a shared mapping "
        "(copied?)", i, r->data);
    fail_unless (!r->dmabuf);
    g_hash_table_add (ptrs, (gpointer) r->data);
    fail_unless (GST_CLOCK_TIME_IS_VALID (r->pts), "frame %u has no PTS", i);
    fail_unless (GST_CLOCK_TIME_IS_VALID (r->duration));
    if (i > 0) {
      fail_unless (r->pts > run->rec[i - 1].pts, "PTS not increasing at %u",
          i);
      fail_unless (r->offset > run->rec[i - 1].offset);
    }
  }
  /* recycled: never more distinct frames than buffers requested */
  fail_unless (g_hash_table_size (ptrs) >= 2);
  fail_unless (g_hash_table_size (ptrs) <= 8, "%u distinct buffers",
      g_hash_table_size (ptrs));
  /* consecutive frames differ (moving picture, not a stale buffer) */
  fail_unless (run->rec[5].sum != run->rec[6].sum);
  g_hash_table_unref (ptrs);
  ts_run_free (run);
}

GST_END_TEST;

/* Downstream keeps every buffer: once fewer than 2 are left in the driver
 * the frames are copied, and capture goes on (no starvation). */
GST_START_TEST (test_cam_copy_threshold)
{
  TsRun *run = ts_run_new ("ivtvsrc name=src num-buffers=12 ! "
      "video/x-raw ! fakesink name=sink");
  guint i, zero_copy = 0;

  run->hold_max = 1000;
  ts_run_to_eos (run, 15000);
  fail_unless_equals_int (run->n_buffers, 12);
  for (i = 0; i < run->n_buffers; i++) {
    if (run->rec[i].shared)
      zero_copy++;
    else if (zero_copy == 0)
      fail ("frame %u copied before any zero-copy frame", i);
  }
  /* 4 buffers (+ what fakesink asks): at least 2 go out without a copy,
   * and 2 always stay queued in the driver */
  fail_unless (zero_copy >= 2, "only %u zero-copy frames", zero_copy);
  fail_unless (zero_copy <= 6, "%u zero-copy frames held at once", zero_copy);
  for (i = zero_copy; i < run->n_buffers; i++)
    fail_unless (!run->rec[i].shared, "frame %u not copied", i);
  ts_run_free (run);
}

GST_END_TEST;

GST_START_TEST (test_cam_dmabuf)
{
  TsRun *run = ts_run_new ("ivtvsrc name=src io-mode=dmabuf num-buffers=10"
      " ! video/x-raw ! fakesink name=sink");
  guint i;
  gsize size;

  ts_run_to_eos (run, 10000);
  fail_unless_equals_int (run->n_buffers, 10);
  fail_unless_equals_string (run->io_mode, "dmabuf");
  size = frame_size (run->caps);
  for (i = 0; i < run->n_buffers; i++) {
    fail_unless (run->rec[i].dmabuf, "frame %u is not dmabuf memory", i);
    fail_unless_equals_int (run->rec[i].size, size);
  }
  fail_unless (run->rec[3].sum != run->rec[4].sum);
  ts_run_free (run);
}

GST_END_TEST;

GST_START_TEST (test_cam_userptr)
{
  TsRun *run = ts_run_new ("ivtvsrc name=src io-mode=userptr num-buffers=10"
      " ! video/x-raw ! fakesink name=sink");
  GHashTable *ptrs = g_hash_table_new (NULL, NULL);
  guint i;
  gsize size;

  ts_run_to_eos (run, 10000);
  fail_unless_equals_int (run->n_buffers, 10);
  fail_unless_equals_string (run->io_mode, "userptr");
  size = frame_size (run->caps);
  for (i = 0; i < run->n_buffers; i++) {
    fail_unless_equals_int (run->rec[i].size, size);
    g_hash_table_add (ptrs, (gpointer) run->rec[i].data);
  }
  fail_unless (g_hash_table_size (ptrs) <= 8);
  fail_unless (run->rec[3].sum != run->rec[4].sum);
  g_hash_table_unref (ptrs);
  ts_run_free (run);
}

GST_END_TEST;

GST_START_TEST (test_cam_mjpeg)
{
  TsRun *run = ts_run_new ("ivtvsrc name=src num-buffers=8 ! image/jpeg ! "
      "fakesink name=sink");
  const GstStructure *s;
  guint i;

  ts_run_to_eos (run, 10000);
  fail_unless_equals_int (run->n_buffers, 8);
  s = gst_caps_get_structure (run->caps, 0);
  fail_unless (gst_structure_has_name (s, "image/jpeg"));
  fail_unless (gst_structure_has_field (s, "width"));
  fail_unless (gst_structure_has_field (s, "framerate"));
  for (i = 0; i < run->n_buffers; i++) {
    TsRecord *r = &run->rec[i];
    fail_unless (r->head[0] == 0xff && r->head[1] == 0xd8,
        "frame %u does not start with SOI", i);
    fail_unless (r->tail[0] == 0xff && r->tail[1] == 0xd9,
        "frame %u does not end with EOI", i);
  }
  ts_run_free (run);

  /* and jpegdec can decode them */
  run = ts_run_new ("ivtvsrc name=src num-buffers=5 ! image/jpeg ! jpegdec !"
      " fakesink name=sink");
  ts_run_to_eos (run, 10000);
  fail_unless_equals_int (run->n_buffers, 5);
  ts_run_free (run);
}

GST_END_TEST;

/* what the device itself says, asked on a second descriptor */
static void
device_format (guint * w, guint * h, guint32 * fourcc, gint * fps_n,
    gint * fps_d)
{
  struct v4l2_format fmt;
  struct v4l2_streamparm parm;
  int fd = open (DEV, O_RDWR);

  fail_unless (fd >= 0, "open %s", DEV);
  memset (&fmt, 0, sizeof (fmt));
  fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  fail_unless (ioctl (fd, VIDIOC_G_FMT, &fmt) == 0);
  memset (&parm, 0, sizeof (parm));
  parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  fail_unless (ioctl (fd, VIDIOC_G_PARM, &parm) == 0);
  close (fd);
  *w = fmt.fmt.pix.width;
  *h = fmt.fmt.pix.height;
  *fourcc = fmt.fmt.pix.pixelformat;
  *fps_n = parm.parm.capture.timeperframe.denominator;
  *fps_d = parm.parm.capture.timeperframe.numerator;
}

static void
check_size_rate (gint w, gint h, gint fn, gint fd)
{
  gchar *launch = g_strdup_printf ("ivtvsrc name=src num-buffers=4 ! "
      "video/x-raw,format=YUY2,width=%d,height=%d,framerate=%d/%d ! "
      "fakesink name=sink", w, h, fn, fd);
  TsRun *run = ts_run_new (launch);
  guint dw, dh;
  guint32 fourcc;
  gint dfn, dfd;
  guint i;

  ts_run_play (run);
  fail_unless (ts_run_wait_buffers (run, 4, 10000), "no frames at %dx%d", w,
      h);
  /* still streaming: the device has the format now */
  device_format (&dw, &dh, &fourcc, &dfn, &dfd);
  fail_unless_equals_int (dw, w);
  fail_unless_equals_int (dh, h);
  fail_unless_equals_int (fourcc, V4L2_PIX_FMT_YUYV);
  fail_unless (gst_util_fraction_compare (dfn, dfd, fn, fd) == 0,
      "device runs at %d/%d, wanted %d/%d", dfn, dfd, fn, fd);
  for (i = 0; i < 4; i++) {
    fail_unless_equals_int (run->rec[i].size, w * h * 2);
    fail_unless_equals_uint64 (run->rec[i].duration,
        gst_util_uint64_scale_int (GST_SECOND, fd, fn));
  }
  ts_run_free (run);
  g_free (launch);
}

GST_START_TEST (test_cam_size_and_rate)
{
  check_size_rate (320, 240, 15, 1);
  check_size_rate (1280, 720, 30, 1);
  check_size_rate (640, 480, 15, 1);
}

GST_END_TEST;

/* A buffer kept after stop stays readable; once released its mapping is
 * gone (nothing leaks); 20 cycles of NULL -> PLAYING -> NULL. */
GST_START_TEST (test_cam_state_cycles)
{
  TsRun *run = ts_run_new ("ivtvsrc name=src ! video/x-raw ! "
      "fakesink name=sink");
  guint cycle;

  for (cycle = 0; cycle < 20; cycle++) {
    GstBuffer *kept;
    GstMapInfo map;
    gboolean shared = FALSE;
    guintptr start = 0;
    guint64 inode = 0;
    guint before;

    g_mutex_lock (&run->lock);
    run->hold_max = 1;
    before = run->n_buffers;
    g_mutex_unlock (&run->lock);
    ts_run_play (run);
    fail_unless (ts_run_wait_buffers (run, before + 3, 10000),
        "cycle %u: no frames", cycle);
    ts_run_stop (run, 2000);

    g_mutex_lock (&run->lock);
    fail_unless (run->held->len == 1);
    kept = gst_buffer_ref (g_ptr_array_index (run->held, 0));
    g_mutex_unlock (&run->lock);
    ts_run_release_held (run);

    /* the device is closed; the frame is still there */
    fail_unless (gst_buffer_map (kept, &map, GST_MAP_READ));
    fail_unless (ts_find_mapping (map.data, &shared, &start, &inode));
    fail_unless (shared);
    fail_unless (map.size > 0);
    gst_buffer_unmap (kept, &map);
    gst_buffer_unref (kept);
    fail_if (ts_mapping_exists (start, inode),
        "cycle %u: the buffer's mapping outlives its last reference", cycle);
  }
  ts_run_free (run);
}

GST_END_TEST;

/* READY and back (the device stays open) while downstream still holds a
 * frame of the first run: the second run captures, the old frame stays
 * readable until released. */
GST_START_TEST (test_cam_restart_with_frame_held)
{
  TsRun *run = ts_run_new ("ivtvsrc name=src ! video/x-raw ! "
      "fakesink name=sink");
  GstBuffer *kept;
  GstMapInfo map;
  guint8 first;

  run->hold_max = 1;
  ts_run_play (run);
  fail_unless (ts_run_wait_buffers (run, 3, 10000));
  fail_unless (gst_element_set_state (run->pipeline, GST_STATE_READY) ==
      GST_STATE_CHANGE_SUCCESS);
  g_mutex_lock (&run->lock);
  kept = gst_buffer_ref (g_ptr_array_index (run->held, 0));
  g_mutex_unlock (&run->lock);
  ts_run_release_held (run);
  fail_unless (gst_buffer_map (kept, &map, GST_MAP_READ));
  first = map.data[0];

  ts_run_play (run);
  fail_unless (ts_run_wait_buffers (run, 8, 10000),
      "no frames after the restart");
  /* still the old frame's bytes */
  fail_unless (map.data[0] == first, "the held frame changed");
  gst_buffer_unmap (kept, &map);
  gst_buffer_unref (kept);
  ts_run_stop (run, 2000);
  ts_run_free (run);
}

GST_END_TEST;

/* PAUSED for a while: the driver runs out of buffers and skips frames; the
 * sequence gap is posted as a QoS message counting them as dropped. */
GST_START_TEST (test_cam_dropped_frames_reported)
{
  TsRun *run = ts_run_new ("ivtvsrc name=src ! video/x-raw,framerate=30/1 !"
      " fakesink name=sink");
  GstMessage *msg;
  GstFormat fmt;
  guint64 processed = 0, dropped = 0;
  guint i;

  ts_run_play (run);
  fail_unless (ts_run_wait_buffers (run, 5, 10000));
  gst_element_set_state (run->pipeline, GST_STATE_PAUSED);
  g_usleep (600 * 1000);        /* ~18 frames, only 4 buffers */
  ts_run_play (run);
  /* the source's QoS message for the pause (not one of a sink's, nor one
   * for a frame or two lost earlier on a busy machine: the counts are
   * totals, so the pause's message is the first with 5 or more) */
  while ((msg = ts_run_wait (run, GST_MESSAGE_QOS | GST_MESSAGE_ERROR,
              5000)) != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_QOS) {
    if (GST_MESSAGE_SRC (msg) == GST_OBJECT (run->src)) {
      gst_message_parse_qos_stats (msg, &fmt, &processed, &dropped);
      fail_unless_equals_int (fmt, GST_FORMAT_BUFFERS);
      if (dropped >= 5)
        break;
    }
    gst_message_unref (msg);
  }
  fail_unless (msg != NULL, "no QoS message for the pause (%" G_GUINT64_FORMAT
      " dropped in all)", dropped);
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_QOS);
  gst_message_unref (msg);
  fail_unless (dropped >= 5, "%" G_GUINT64_FORMAT " dropped", dropped);
  fail_unless (processed >= 5);
  /* the QoS message is posted before the frame after the gap is pushed:
   * let that frame and a few more reach the sink before stopping */
  g_mutex_lock (&run->lock);
  i = run->n_buffers;
  g_mutex_unlock (&run->lock);
  fail_unless (ts_run_wait_buffers (run, i + 3, 5000));
  /* the offsets (driver sequence) jump by as many */
  ts_run_stop (run, 2000);
  for (i = 1; i < run->n_buffers && i < TS_MAX_RECORDS; i++)
    if (run->rec[i].offset > run->rec[i - 1].offset + 1)
      break;
  fail_unless (i < run->n_buffers, "no gap in the buffer offsets");
  ts_run_free (run);
}

GST_END_TEST;

/* The device stalls after a few frames (--fault stall-after=N): EOS from
 * the application and stopping return within a second. */
GST_START_TEST (test_stall_eos_returns)
{
  TsRun *run = ts_run_new ("ivtvsrc name=src ! video/x-raw ! "
      "fakesink name=sink");
  GstMessage *msg;
  gint64 t0, ms;
  guint n;

  ts_run_play (run);
  fail_unless (ts_run_wait_buffers (run, 1, 10000));
  /* let it run into the stall */
  g_usleep (800 * 1000);
  n = run->n_buffers;
  g_usleep (300 * 1000);
  fail_unless_equals_int (run->n_buffers, n);   /* really blocked */

  t0 = g_get_monotonic_time ();
  gst_element_send_event (run->pipeline, gst_event_new_eos ());
  msg = ts_run_wait (run, GST_MESSAGE_EOS | GST_MESSAGE_ERROR, 3000);
  ms = (g_get_monotonic_time () - t0) / 1000;
  fail_unless (msg != NULL, "no EOS");
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_EOS);
  gst_message_unref (msg);
  fail_unless (ms < 1000, "EOS took %" G_GINT64_FORMAT " ms", ms);
  ts_run_stop (run, 1000);
  ts_run_free (run);
}

GST_END_TEST;

GST_START_TEST (test_stall_stop_returns)
{
  TsRun *run = ts_run_new ("ivtvsrc name=src ! video/x-raw ! "
      "fakesink name=sink");

  ts_run_play (run);
  fail_unless (ts_run_wait_buffers (run, 1, 10000));
  g_usleep (800 * 1000);
  ts_run_stop (run, 1000);
  ts_run_free (run);
}

GST_END_TEST;

/* A stalled device is reported (warning), not fatal. */
GST_START_TEST (test_stall_warns)
{
  TsRun *run = ts_run_new ("ivtvsrc name=src ! video/x-raw ! "
      "fakesink name=sink");
  GstMessage *msg;
  gchar *text;

  ts_run_play (run);
  msg = ts_run_wait (run, GST_MESSAGE_WARNING | GST_MESSAGE_ERROR, 9000);
  fail_unless (msg != NULL, "no warning about the stalled device");
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_WARNING);
  text = ts_message_text (msg);
  fail_unless (strstr (text, "seems stalled") != NULL, "%s", text);
  g_free (text);
  gst_message_unref (msg);
  ts_run_stop (run, 1000);
  ts_run_free (run);
}

GST_END_TEST;

/* Through libv4l2: its RGB conversion of the camera's YUYV arrives whole,
 * and a frame kept past stop (the device closed) is still readable. */
GST_START_TEST (test_cam_libv4l2)
{
  TsRun *run = ts_run_new ("ivtvsrc name=src use-libv4l2=on ! "
      "video/x-raw,format=RGB ! fakesink name=sink");
  GstBuffer *kept;
  GstMapInfo map;
  gsize size, i;
  guint sum = 0;

  run->hold_max = 1;
  ts_run_play (run);
  fail_unless (ts_run_wait_buffers (run, 5, 10000));
  ts_run_stop (run, 2000);
  size = frame_size (run->caps);
  fail_unless_equals_int (run->rec[4].size, size);
  g_mutex_lock (&run->lock);
  kept = gst_buffer_ref (g_ptr_array_index (run->held, 0));
  g_mutex_unlock (&run->lock);
  ts_run_release_held (run);
  fail_unless (gst_buffer_map (kept, &map, GST_MAP_READ));
  for (i = 0; i < map.size; i += 4096)
    sum += map.data[i];
  gst_buffer_unmap (kept, &map);
  gst_buffer_unref (kept);
  fail_unless (sum > 0, "the kept frame is black");
  ts_run_free (run);
}

GST_END_TEST;

/* A new size from downstream while playing: the stream restarts with it. */
GST_START_TEST (test_cam_renegotiate)
{
  TsRun *run = ts_run_new ("ivtvsrc name=src ! capsfilter name=cf "
      "caps=video/x-raw,width=320,height=240 ! fakesink name=sink");
  GstElement *cf = gst_bin_get_by_name (GST_BIN (run->pipeline), "cf");
  GstCaps *caps;
  guint n, i;
  gboolean big = FALSE;

  ts_run_play (run);
  fail_unless (ts_run_wait_buffers (run, 5, 10000));
  fail_unless_equals_int (run->rec[4].size, 320 * 240 * 2);
  caps = gst_caps_from_string ("video/x-raw,width=640,height=480");
  g_object_set (cf, "caps", caps, NULL);
  gst_caps_unref (caps);
  n = run->n_buffers;
  fail_unless (ts_run_wait_buffers (run, n + 10, 10000),
      "no frames after the new caps");
  for (i = n; i < run->n_buffers && i < TS_MAX_RECORDS; i++)
    if (run->rec[i].size == 640 * 480 * 2)
      big = TRUE;
  fail_unless (big, "no 640x480 frame after renegotiation");
  gst_object_unref (cf);
  ts_run_stop (run, 2000);
  ts_run_free (run);
}

GST_END_TEST;

/* Runs until the error a fault causes; the frames before it arrive. */
static gchar *
error_after_frames (guint min_frames)
{
  TsRun *run = ts_run_new ("ivtvsrc name=src ! video/x-raw ! "
      "fakesink name=sink");
  GstMessage *msg;
  gchar *text;

  ts_run_play (run);
  msg = ts_run_wait (run, GST_MESSAGE_EOS | GST_MESSAGE_ERROR, 10000);
  fail_unless (msg != NULL, "no error from the fault");
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_ERROR);
  fail_unless (GST_MESSAGE_SRC (msg) == GST_OBJECT (run->src));
  text = ts_message_text (msg);
  gst_message_unref (msg);
  fail_unless (run->n_buffers >= min_frames, "only %u frames before: %s",
      run->n_buffers, text);
  ts_run_stop (run, 1000);
  ts_run_free (run);
  return text;
}

/* --fault eio-at=5: DQBUF fails with EIO */
GST_START_TEST (test_eio_is_an_error)
{
  gchar *text = error_after_frames (4);

  fail_unless (strstr (text, "Could not capture from /dev/video0") != NULL
      && strstr (text, "DQBUF") != NULL, "%s", text);
  g_free (text);
}

GST_END_TEST;

/* --fault unplug-after=5: the device goes away */
GST_START_TEST (test_unplug_says_disconnected)
{
  gchar *text = error_after_frames (4);

  fail_unless (strstr (text, "disconnected") != NULL, "%s", text);
  g_free (text);
}

GST_END_TEST;

/* --fault unplug-after=5 --fault unplug-for=1 with reconnect=true: the
 * emulated camera goes away after every 5 frames a descriptor reads and
 * is back a second later.  Each time: a warning, ivtvsrc-reconnect lost
 * (5 frames so far) then restored, and capture goes on in the same format
 * and I/O mode to num-buffers, frame offsets counting on, DISCONT on the
 * first frame after each gap; no error. */
GST_START_TEST (test_reconnect_streaming_resumes)
{
  TsRun *run = ts_run_new ("ivtvsrc name=src reconnect=true num-buffers=12 "
      "! video/x-raw ! fakesink name=sink");
  GPtrArray *states = g_ptr_array_new_with_free_func (g_free);
  guint64 frames[4] = { 0 };
  gboolean warned = FALSE;
  GstMessage *msg;
  gsize size;
  guint i;

  ts_run_play (run);
  while ((msg = ts_run_wait (run, GST_MESSAGE_EOS | GST_MESSAGE_ERROR |
              GST_MESSAGE_WARNING | GST_MESSAGE_ELEMENT, 15000)) != NULL) {
    const GstStructure *st = gst_message_get_structure (msg);
    GstMessageType type = GST_MESSAGE_TYPE (msg);

    if (type == GST_MESSAGE_ERROR) {
      gchar *text = ts_message_text (msg);

      fail ("error after %u frames: %s", run->n_buffers, text);
      g_free (text);
    }
    if (type == GST_MESSAGE_WARNING) {
      gchar *text = ts_message_text (msg);

      warned |= strstr (text, "went away after") != NULL;
      g_free (text);
    }
    if (type == GST_MESSAGE_ELEMENT
        && gst_structure_has_name (st, "ivtvsrc-reconnect")) {
      if (states->len < G_N_ELEMENTS (frames))
        fail_unless (gst_structure_get_uint64 (st, "buffers",
                &frames[states->len]), "%" GST_PTR_FORMAT, st);
      g_ptr_array_add (states,
          g_strdup (gst_structure_get_string (st, "state")));
    }
    gst_message_unref (msg);
    if (type == GST_MESSAGE_EOS)
      break;
  }
  fail_unless (msg != NULL, "no EOS within 15 s (%u frames)", run->n_buffers);
  fail_unless (warned, "no warning about the device going away");
  fail_unless_equals_int (states->len, 4);
  for (i = 0; i < 4; i++)
    fail_unless_equals_string (g_ptr_array_index (states, i),
        i % 2 ? "restored" : "lost");
  fail_unless_equals_int (frames[0], 5);
  fail_unless_equals_int (frames[2], 10);
  fail_unless_equals_int (run->n_buffers, 12);
  fail_unless_equals_string (run->io_mode, "mmap");
  size = frame_size (run->caps);
  for (i = 0; i < 12; i++) {
    gboolean discont = (run->rec[i].flags & GST_BUFFER_FLAG_DISCONT) != 0;

    fail_unless_equals_int (run->rec[i].size, size);
    if (i > 0)
      fail_unless (run->rec[i].offset > run->rec[i - 1].offset,
          "frame %u: offset %" G_GUINT64_FORMAT " after %" G_GUINT64_FORMAT,
          i, run->rec[i].offset, run->rec[i - 1].offset);
    fail_unless_equals_int (discont, i == 0 || i == 5 || i == 10);
  }
  g_ptr_array_unref (states);
  ts_run_stop (run, 2000);
  ts_run_free (run);
}

GST_END_TEST;

static Suite *
stream_suite (void)
{
  Suite *s = suite_create ("stream");
  TCase *tc = tcase_create ("webcam");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 60);
  tcase_add_checked_fixture (tc, NULL, ts_teardown);
  tcase_add_test (tc, test_cam_auto_is_mmap);
  tcase_add_test (tc, test_cam_zero_copy);
  tcase_add_test (tc, test_cam_copy_threshold);
  tcase_add_test (tc, test_cam_dmabuf);
  tcase_add_test (tc, test_cam_userptr);
  tcase_add_test (tc, test_cam_mjpeg);
  tcase_add_test (tc, test_cam_size_and_rate);
  tcase_add_test (tc, test_cam_state_cycles);
  tcase_add_test (tc, test_cam_dropped_frames_reported);
  tcase_add_test (tc, test_cam_restart_with_frame_held);
  tcase_add_test (tc, test_cam_renegotiate);
  tcase_add_test (tc, test_cam_libv4l2);
  tcase_add_test (tc, test_stall_eos_returns);
  tcase_add_test (tc, test_stall_stop_returns);
  tcase_add_test (tc, test_stall_warns);
  tcase_add_test (tc, test_eio_is_an_error);
  tcase_add_test (tc, test_unplug_says_disconnected);
  tcase_add_test (tc, test_reconnect_streaming_resumes);
  return s;
}

GST_CHECK_MAIN (stream);
