/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of ivtvsrc's streaming path (gst/paths/ivtvstream.c, ivtvbufqueue.c,
 * ivtvnegotiate.c) against the emulator's `webcam` profile: io-mode auto
 * picks mmap; frames are the device's memory (zero copy, recycled); the
 * copy threshold; dmabuf and userptr; MJPEG; size and frame rate set via a
 * capsfilter reach the device; buffers outliving stop; state cycles
 * without leaking mappings; EOS and stop during a blocked wait (with
 * `--fault stall-after=N`: test_stall_*); an error that says what
 * happened (`--fault eio-at=N`: test_eio_*).  A device that goes away:
 * test-reconnect.c.
 *
 * Run under `ivtv-emu --profile webcam [--fault ...] --`; GST_CHECKS picks
 * the tests of each run (see meson.build). */
#include "harness.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/videodev2.h>
#include <gst/video/video.h>

#define DEV "/dev/video0"

/* io-mode auto on a streaming-only camera: mmap, whole frames */
GST_START_TEST (test_cam_auto_is_mmap)
{
  IcPipe *run = ic_pipe_new ("ivtvsrc name=src num-buffers=10 ! "
      "videoconvert ! fakesink name=sink");
  guint i;
  gsize size;

  ic_pipe_to_eos (run, 10000);
  fail_unless_equals_int (run->n_buffers, 10);
  fail_unless_equals_string (run->io_mode, "mmap");
  size = ic_frame_size (run->caps);
  for (i = 0; i < run->n_buffers; i++)
    fail_unless_equals_int (run->rec[i].size, size);
  ic_pipe_free (run);
}

GST_END_TEST;

/* Frames are the driver's mmap'd memory, a few buffers going round; the
 * timestamps increase and the offsets are the driver's sequence numbers. */
GST_START_TEST (test_cam_zero_copy)
{
  IcPipe *run = ic_pipe_new ("ivtvsrc name=src num-buffers=30 ! "
      "video/x-raw ! fakesink name=sink");
  GHashTable *ptrs = g_hash_table_new (NULL, NULL);
  GstClockTime avg;
  guint i;

  ic_pipe_to_eos (run, 15000);
  fail_unless_equals_int (run->n_buffers, 30);
  fail_unless_equals_string (run->io_mode, "mmap");
  /* the driver's timestamps: on average one frame period apart */
  avg = (run->rec[29].pts - run->rec[0].pts) / 29;
  fail_unless (avg > run->rec[0].duration * 8 / 10
      && avg < run->rec[0].duration * 12 / 10, "frames %" GST_TIME_FORMAT
      " apart, duration %" GST_TIME_FORMAT, GST_TIME_ARGS (avg),
      GST_TIME_ARGS (run->rec[0].duration));
  for (i = 0; i < run->n_buffers; i++) {
    IcRecord *r = &run->rec[i];
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
  ic_pipe_free (run);
}

GST_END_TEST;

/* Downstream keeps every buffer: once fewer than 2 are left in the driver
 * the frames are copied, and capture goes on (no starvation). */
GST_START_TEST (test_cam_copy_threshold)
{
  IcPipe *run = ic_pipe_new ("ivtvsrc name=src num-buffers=12 ! "
      "video/x-raw ! fakesink name=sink");
  guint i, zero_copy = 0;

  run->hold_max = 1000;
  ic_pipe_to_eos (run, 15000);
  fail_unless_equals_int (run->n_buffers, 12);
  for (i = 0; i < run->n_buffers; i++) {
    if (run->rec[i].shared)
      zero_copy++;
    else if (zero_copy == 0)
      fail ("frame %u copied before any zero-copy frame", i);
  }
  /* 8 buffers (+ what fakesink asks): at least 2 go out without a copy,
   * and 2 always stay queued in the driver */
  fail_unless (zero_copy >= 2, "only %u zero-copy frames", zero_copy);
  fail_unless (zero_copy <= 6, "%u zero-copy frames held at once", zero_copy);
  for (i = zero_copy; i < run->n_buffers; i++)
    fail_unless (!run->rec[i].shared, "frame %u not copied", i);
  ic_pipe_free (run);
}

GST_END_TEST;

GST_START_TEST (test_cam_dmabuf)
{
  IcPipe *run = ic_pipe_new ("ivtvsrc name=src io-mode=dmabuf num-buffers=10"
      " ! video/x-raw ! fakesink name=sink");
  guint i;
  gsize size;

  ic_pipe_to_eos (run, 10000);
  fail_unless_equals_int (run->n_buffers, 10);
  fail_unless_equals_string (run->io_mode, "dmabuf");
  size = ic_frame_size (run->caps);
  for (i = 0; i < run->n_buffers; i++) {
    fail_unless (run->rec[i].dmabuf, "frame %u is not dmabuf memory", i);
    fail_unless_equals_int (run->rec[i].size, size);
  }
  fail_unless (run->rec[3].sum != run->rec[4].sum);
  ic_pipe_free (run);
}

GST_END_TEST;

GST_START_TEST (test_cam_userptr)
{
  IcPipe *run = ic_pipe_new ("ivtvsrc name=src io-mode=userptr num-buffers=10"
      " ! video/x-raw ! fakesink name=sink");
  GHashTable *ptrs = g_hash_table_new (NULL, NULL);
  guint i;
  gsize size;

  ic_pipe_to_eos (run, 10000);
  fail_unless_equals_int (run->n_buffers, 10);
  fail_unless_equals_string (run->io_mode, "userptr");
  size = ic_frame_size (run->caps);
  for (i = 0; i < run->n_buffers; i++) {
    fail_unless_equals_int (run->rec[i].size, size);
    g_hash_table_add (ptrs, (gpointer) run->rec[i].data);
  }
  fail_unless (g_hash_table_size (ptrs) <= 8);
  fail_unless (run->rec[3].sum != run->rec[4].sum);
  g_hash_table_unref (ptrs);
  ic_pipe_free (run);
}

GST_END_TEST;

GST_START_TEST (test_cam_mjpeg)
{
  IcPipe *run = ic_pipe_new ("ivtvsrc name=src num-buffers=8 ! image/jpeg ! "
      "fakesink name=sink");
  const GstStructure *s;
  guint i;

  ic_pipe_to_eos (run, 10000);
  fail_unless_equals_int (run->n_buffers, 8);
  s = gst_caps_get_structure (run->caps, 0);
  fail_unless (gst_structure_has_name (s, "image/jpeg"));
  fail_unless (gst_structure_has_field (s, "width"));
  fail_unless (gst_structure_has_field (s, "framerate"));
  for (i = 0; i < run->n_buffers; i++) {
    IcRecord *r = &run->rec[i];
    fail_unless (r->head[0] == 0xff && r->head[1] == 0xd8,
        "frame %u does not start with SOI", i);
    fail_unless (r->tail[0] == 0xff && r->tail[1] == 0xd9,
        "frame %u does not end with EOI", i);
  }
  ic_pipe_free (run);

  /* and jpegdec can decode them */
  run = ic_pipe_new ("ivtvsrc name=src num-buffers=5 ! image/jpeg ! jpegdec !"
      " fakesink name=sink");
  ic_pipe_to_eos (run, 10000);
  fail_unless_equals_int (run->n_buffers, 5);
  ic_pipe_free (run);
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
  IcPipe *run = ic_pipe_new (launch);
  guint dw, dh;
  guint32 fourcc;
  gint dfn, dfd;
  guint i;

  ic_pipe_play (run);
  fail_unless (ic_pipe_wait_buffers (run, 4, 10000), "no frames at %dx%d", w,
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
  ic_pipe_free (run);
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
  IcPipe *run = ic_pipe_new ("ivtvsrc name=src ! video/x-raw ! "
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
    ic_pipe_play (run);
    fail_unless (ic_pipe_wait_buffers (run, before + 3, 10000),
        "cycle %u: no frames", cycle);
    ic_pipe_stop (run, 2000);

    g_mutex_lock (&run->lock);
    fail_unless (run->held->len == 1);
    kept = gst_buffer_ref (g_ptr_array_index (run->held, 0));
    g_mutex_unlock (&run->lock);
    ic_pipe_release_held (run);

    /* the device is closed; the frame is still there */
    fail_unless (gst_buffer_map (kept, &map, GST_MAP_READ));
    fail_unless (ic_find_mapping (map.data, &shared, &start, &inode));
    fail_unless (shared);
    fail_unless (map.size > 0);
    gst_buffer_unmap (kept, &map);
    gst_buffer_unref (kept);
    fail_if (ic_mapping_exists (start, inode),
        "cycle %u: the buffer's mapping outlives its last reference", cycle);
  }
  ic_pipe_free (run);
}

GST_END_TEST;

/* READY and back (the device stays open) while downstream still holds a
 * frame of the first run: the second run captures, the old frame stays
 * readable until released. */
GST_START_TEST (test_cam_restart_with_frame_held)
{
  IcPipe *run = ic_pipe_new ("ivtvsrc name=src ! video/x-raw ! "
      "fakesink name=sink");
  GstBuffer *kept;
  GstMapInfo map;
  guint8 first;

  run->hold_max = 1;
  ic_pipe_play (run);
  fail_unless (ic_pipe_wait_buffers (run, 3, 10000));
  fail_unless (gst_element_set_state (run->pipeline, GST_STATE_READY) ==
      GST_STATE_CHANGE_SUCCESS);
  g_mutex_lock (&run->lock);
  kept = gst_buffer_ref (g_ptr_array_index (run->held, 0));
  g_mutex_unlock (&run->lock);
  ic_pipe_release_held (run);
  fail_unless (gst_buffer_map (kept, &map, GST_MAP_READ));
  first = map.data[0];

  ic_pipe_play (run);
  fail_unless (ic_pipe_wait_buffers (run, 8, 10000),
      "no frames after the restart");
  /* still the old frame's bytes */
  fail_unless (map.data[0] == first, "the held frame changed");
  gst_buffer_unmap (kept, &map);
  gst_buffer_unref (kept);
  ic_pipe_stop (run, 2000);
  ic_pipe_free (run);
}

GST_END_TEST;

/* PAUSED for a while: the driver runs out of buffers and skips frames; the
 * sequence gap is posted as a QoS message counting them as dropped. */
GST_START_TEST (test_cam_dropped_frames_reported)
{
  IcPipe *run = ic_pipe_new ("ivtvsrc name=src ! video/x-raw,framerate=30/1 !"
      " fakesink name=sink");
  GstMessage *msg;
  GstFormat fmt;
  guint64 processed = 0, dropped = 0;
  guint i, n;

  ic_pipe_play (run);
  fail_unless (ic_pipe_wait_buffers (run, 5, 10000));
  gst_element_set_state (run->pipeline, GST_STATE_PAUSED);
  g_usleep (600 * 1000);        /* ~18 frames, only 8 buffers */
  ic_pipe_play (run);
  /* the source's QoS message for the pause (not one of a sink's, nor one
   * for a frame or two lost earlier on a busy machine: the counts are
   * totals, so the pause's message is the first with 5 or more) */
  while ((msg = ic_pipe_wait (run, GST_MESSAGE_QOS | GST_MESSAGE_ERROR,
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
  /* the QoS message is posted when the frame after the gap is dequeued,
   * before the frames read before the pause (still in the element's queue)
   * and it reach the sink: wait, buffer by buffer, for the offsets (driver
   * sequence) to jump by as many */
  for (;;) {
    g_mutex_lock (&run->lock);
    n = MIN (run->n_buffers, IC_MAX_RECORDS);
    for (i = 1; i < n; i++)
      if (run->rec[i].offset > run->rec[i - 1].offset + 1)
        break;
    g_mutex_unlock (&run->lock);
    if (i < n || n == IC_MAX_RECORDS || !ic_pipe_wait_buffers (run, n + 1,
            5000))
      break;
  }
  ic_pipe_stop (run, 2000);
  fail_unless (i < n, "no gap in the offsets of %u buffers", n);
  ic_pipe_free (run);
}

GST_END_TEST;

/* The device stalls after a few frames (--fault stall-after=N): EOS from
 * the application and stopping return within a second. */
GST_START_TEST (test_stall_eos_returns)
{
  IcPipe *run = ic_pipe_new ("ivtvsrc name=src ! video/x-raw ! "
      "fakesink name=sink");
  GstMessage *msg;
  gint64 t0, ms;
  guint n;

  ic_pipe_play (run);
  fail_unless (ic_pipe_wait_buffers (run, 1, 10000));
  /* let it run into the stall */
  g_usleep (800 * 1000);
  n = run->n_buffers;
  g_usleep (300 * 1000);
  fail_unless_equals_int (run->n_buffers, n);   /* really blocked */

  t0 = g_get_monotonic_time ();
  gst_element_send_event (run->pipeline, gst_event_new_eos ());
  msg = ic_pipe_wait (run, GST_MESSAGE_EOS | GST_MESSAGE_ERROR, 3000);
  ms = (g_get_monotonic_time () - t0) / 1000;
  fail_unless (msg != NULL, "no EOS");
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_EOS);
  gst_message_unref (msg);
  fail_unless (ms < 1000, "EOS took %" G_GINT64_FORMAT " ms", ms);
  ic_pipe_stop (run, 1000);
  ic_pipe_free (run);
}

GST_END_TEST;

GST_START_TEST (test_stall_stop_returns)
{
  IcPipe *run = ic_pipe_new ("ivtvsrc name=src ! video/x-raw ! "
      "fakesink name=sink");
  guint n;

  ic_pipe_play (run);
  fail_unless (ic_pipe_wait_buffers (run, 1, 10000));
  /* let it run into the stall, and check it stalled */
  g_usleep (800 * 1000);
  n = run->n_buffers;
  g_usleep (300 * 1000);
  fail_unless_equals_int (run->n_buffers, n);   /* really blocked */
  ic_pipe_stop (run, 1000);
  ic_pipe_free (run);
}

GST_END_TEST;

/* A stalled device is reported (warning), not fatal. */
GST_START_TEST (test_stall_warns)
{
  IcPipe *run = ic_pipe_new ("ivtvsrc name=src ! video/x-raw ! "
      "fakesink name=sink");
  GstMessage *msg;
  gchar *text;

  ic_pipe_play (run);
  msg = ic_pipe_wait (run, GST_MESSAGE_WARNING | GST_MESSAGE_ERROR, 9000);
  fail_unless (msg != NULL, "no warning about the stalled device");
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_WARNING);
  text = ic_message_text (msg);
  fail_unless (strstr (text, "seems stalled") != NULL, "%s", text);
  g_free (text);
  gst_message_unref (msg);
  ic_pipe_stop (run, 1000);
  ic_pipe_free (run);
}

GST_END_TEST;

/* Through libv4l2: its RGB conversion of the camera's YUYV arrives whole,
 * and a frame kept past stop (the device closed) is still readable. */
GST_START_TEST (test_cam_libv4l2)
{
  IcPipe *run = ic_pipe_new ("ivtvsrc name=src use-libv4l2=on ! "
      "video/x-raw,format=RGB ! fakesink name=sink");
  GstBuffer *kept;
  GstMapInfo map;
  gsize size, i;
  guint sum = 0;

  run->hold_max = 1;
  ic_pipe_play (run);
  fail_unless (ic_pipe_wait_buffers (run, 5, 10000));
  ic_pipe_stop (run, 2000);
  size = ic_frame_size (run->caps);
  fail_unless_equals_int (run->rec[4].size, size);
  g_mutex_lock (&run->lock);
  kept = gst_buffer_ref (g_ptr_array_index (run->held, 0));
  g_mutex_unlock (&run->lock);
  ic_pipe_release_held (run);
  fail_unless (gst_buffer_map (kept, &map, GST_MAP_READ));
  for (i = 0; i < map.size; i += 4096)
    sum += map.data[i];
  gst_buffer_unmap (kept, &map);
  gst_buffer_unref (kept);
  fail_unless (sum > 0, "the kept frame is black");
  ic_pipe_free (run);
}

GST_END_TEST;

/* A new size from downstream while playing: the stream restarts with it. */
GST_START_TEST (test_cam_renegotiate)
{
  IcPipe *run = ic_pipe_new ("ivtvsrc name=src ! capsfilter name=cf "
      "caps=video/x-raw,width=320,height=240 ! fakesink name=sink");
  GstElement *cf = gst_bin_get_by_name (GST_BIN (run->pipeline), "cf");
  GstCaps *caps;
  guint n, i;
  gboolean big = FALSE;

  ic_pipe_play (run);
  fail_unless (ic_pipe_wait_buffers (run, 5, 10000));
  fail_unless_equals_int (run->rec[4].size, 320 * 240 * 2);
  caps = gst_caps_from_string ("video/x-raw,width=640,height=480");
  g_object_set (cf, "caps", caps, NULL);
  gst_caps_unref (caps);
  n = run->n_buffers;
  fail_unless (ic_pipe_wait_buffers (run, n + 10, 10000),
      "no frames after the new caps");
  for (i = n; i < run->n_buffers && i < IC_MAX_RECORDS; i++)
    if (run->rec[i].size == 640 * 480 * 2)
      big = TRUE;
  fail_unless (big, "no 640x480 frame after renegotiation");
  gst_object_unref (cf);
  ic_pipe_stop (run, 2000);
  ic_pipe_free (run);
}

GST_END_TEST;

/* --fault eio-at=5: DQBUF fails with EIO */
GST_START_TEST (test_eio_is_an_error)
{
  gchar *text = ic_pipe_error_after (4);

  fail_unless (strstr (text, "Could not capture from /dev/video0") != NULL
      && strstr (text, "DQBUF") != NULL, "%s", text);
  g_free (text);
}

GST_END_TEST;

static Suite *
stream_suite (void)
{
  Suite *s = suite_create ("stream");
  TCase *tc = tcase_create ("webcam");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 60);
  tcase_add_checked_fixture (tc, NULL, ic_pipe_teardown);
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
  return s;
}

GST_CHECK_MAIN (stream);
