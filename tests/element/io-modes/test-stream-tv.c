/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of ivtvsrc's streaming path and raw negotiation on SDTV cards:
 * the emulator's `tv-streaming` profile (test_tv_*: mmap in auto, the
 * standard's frame with interlacing and pixel aspect ratio; with
 * `--fault reqbufs-fails` or `--fault streamon-fails`, test_fallback_*:
 * auto falls back to read()), and `pvr250` (test_pvr_*: a forced
 * streaming mode fails with a message naming what the card can do), and
 * `tv-webcam` (test_tvcam_*: a card whose formats differ per input, as
 * vivid: the caps are those of the input and standard asked for, whatever
 * the card was left on).
 *
 * Run under `ivtv-emu --profile P [--fault F] --`; GST_CHECKS picks the
 * tests of each run (see meson.build). */
#include "harness.h"

#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <gst/video/video.h>

/* the frame of a 625- or 525-line standard, as the caps must say */
static void
check_sdtv_caps (GstCaps * caps, gint want_height)
{
  const GstStructure *s;
  gint w = 0, h = 0, fn = 0, fd = 0, pn = 0, pd = 0;

  fail_unless (caps != NULL);
  s = gst_caps_get_structure (caps, 0);
  fail_unless (gst_structure_has_name (s, "video/x-raw"));
  fail_unless (gst_structure_get_int (s, "width", &w));
  fail_unless (gst_structure_get_int (s, "height", &h));
  fail_unless (gst_structure_get_fraction (s, "framerate", &fn, &fd));
  fail_unless (gst_structure_get_fraction (s, "pixel-aspect-ratio", &pn,
          &pd));
  fail_unless_equals_int (w, 720);
  if (want_height)
    fail_unless_equals_int (h, want_height);
  fail_unless (h == 576 || h == 480, "%" GST_PTR_FORMAT, caps);
  if (h == 576) {
    fail_unless (fn == 25 && fd == 1, "%" GST_PTR_FORMAT, caps);
    fail_unless (pn == 12 && pd == 11, "%" GST_PTR_FORMAT, caps);
  } else {
    fail_unless (fn == 30000 && fd == 1001, "%" GST_PTR_FORMAT, caps);
    fail_unless (pn == 10 && pd == 11, "%" GST_PTR_FORMAT, caps);
  }
  fail_unless_equals_string (gst_structure_get_string (s, "interlace-mode"),
      "interleaved");
  /* the order of V4L2_FIELD_INTERLACED is the standard's; SDTV is BT.601 */
  fail_unless_equals_string (gst_structure_get_string (s, "field-order"),
      h == 576 ? "top-field-first" : "bottom-field-first");
  fail_unless_equals_string (gst_structure_get_string (s, "colorimetry"),
      "bt601");
}

static void
check_frames (IcPipe * run, guint n, gboolean want_shared)
{
  GstVideoInfo info;
  guint i;

  fail_unless_equals_int (run->n_buffers, n);
  fail_unless (gst_video_info_from_caps (&info, run->caps));
  for (i = 0; i < n; i++) {
    fail_unless_equals_int (run->rec[i].size, GST_VIDEO_INFO_SIZE (&info));
    if (want_shared)
      fail_unless (run->rec[i].shared, "frame %u copied", i);
  }
}

/* interlaced frames; PAL's top field first, NTSC's bottom field first
 * (the driver says V4L2_FIELD_INTERLACED: the standard's order) */
static void
check_field_order (IcPipe * run, gboolean tff)
{
  guint i;

  for (i = 0; i < run->n_buffers; i++) {
    fail_unless (run->rec[i].flags & GST_VIDEO_BUFFER_FLAG_INTERLACED,
        "frame %u not flagged interlaced", i);
    fail_unless (! !(run->rec[i].flags & GST_VIDEO_BUFFER_FLAG_TFF) == tff,
        "frame %u: wrong field order", i);
  }
}

GST_START_TEST (test_tv_auto_is_mmap)
{
  IcPipe *run = ic_pipe_new ("ivtvsrc name=src num-buffers=6 ! "
      "videoconvert ! fakesink name=sink");

  ic_pipe_to_eos (run, 10000);
  fail_unless_equals_string (run->io_mode, "mmap");
  ic_pipe_free (run);

  /* the frames themselves, zero copy, with the standard's caps */
  run = ic_pipe_new ("ivtvsrc name=src num-buffers=6 ! video/x-raw ! "
      "fakesink name=sink");
  ic_pipe_to_eos (run, 10000);
  check_sdtv_caps (run->caps, 0);
  check_frames (run, 6, TRUE);
  ic_pipe_free (run);
}

GST_END_TEST;

GST_START_TEST (test_tv_standard_decides)
{
  IcPipe *run = ic_pipe_new ("ivtvsrc name=src standard=pal num-buffers=3 ! "
      "video/x-raw ! fakesink name=sink");

  ic_pipe_to_eos (run, 10000);
  check_sdtv_caps (run->caps, 576);
  check_frames (run, 3, TRUE);
  check_field_order (run, TRUE);
  ic_pipe_free (run);

  run = ic_pipe_new ("ivtvsrc name=src standard=ntsc num-buffers=3 ! "
      "video/x-raw ! fakesink name=sink");
  ic_pipe_to_eos (run, 10000);
  check_sdtv_caps (run->caps, 480);
  check_frames (run, 3, TRUE);
  check_field_order (run, FALSE);
  ic_pipe_free (run);
}

GST_END_TEST;

GST_START_TEST (test_tv_uyvy_userptr)
{
  IcPipe *run = ic_pipe_new ("ivtvsrc name=src io-mode=userptr num-buffers=4 !"
      " video/x-raw,format=UYVY ! fakesink name=sink");

  ic_pipe_to_eos (run, 10000);
  fail_unless_equals_string (run->io_mode, "userptr");
  fail_unless_equals_string (gst_structure_get_string
      (gst_caps_get_structure (run->caps, 0), "format"), "UYVY");
  check_frames (run, 4, FALSE);
  ic_pipe_free (run);
}

GST_END_TEST;

/* --fault reqbufs-fails or streamon-fails: auto falls back to read(), the
 * frames still come */
GST_START_TEST (test_fallback_auto_reads)
{
  IcPipe *run = ic_pipe_new ("ivtvsrc name=src num-buffers=4 ! video/x-raw ! "
      "fakesink name=sink");

  ic_pipe_to_eos (run, 15000);
  fail_unless_equals_string (run->io_mode, "rw");
  check_sdtv_caps (run->caps, 0);
  check_frames (run, 4, FALSE);
  ic_pipe_free (run);
}

GST_END_TEST;

/* the same faults: a forced mmap is an error naming the failing step, not
 * a fallback */
GST_START_TEST (test_fallback_forced_mmap_fails)
{
  IcPipe *run = ic_pipe_new ("ivtvsrc name=src io-mode=mmap num-buffers=4 ! "
      "video/x-raw ! fakesink name=sink");
  GstMessage *msg;
  gchar *text;

  ic_pipe_play (run);
  msg = ic_pipe_wait (run, GST_MESSAGE_EOS | GST_MESSAGE_ERROR, 10000);
  fail_unless (msg != NULL);
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_ERROR);
  text = ic_message_text (msg);
  fail_unless (strstr (text, "mmap") && (strstr (text, "REQBUFS")
          || strstr (text, "STREAMON")), "%s", text);
  /* a refused REQBUFS says what the card can do instead */
  if (strstr (text, "REQBUFS"))
    fail_unless (strstr (text, "offers: rw") != NULL, "%s", text);
  g_free (text);
  gst_message_unref (msg);
  fail_unless_equals_int (run->n_buffers, 0);
  ic_pipe_free (run);
}

GST_END_TEST;

/* pvr250 is read()-only: forced streaming modes fail clearly */
static void
check_forced_fails (const gchar * mode)
{
  gchar *launch = g_strdup_printf ("ivtvsrc name=src io-mode=%s "
      "num-buffers=4 ! fakesink name=sink", mode);
  IcPipe *run = ic_pipe_new (launch);
  GstStateChangeReturn sret;
  GstMessage *msg;
  gchar *text;

  sret = gst_element_set_state (run->pipeline, GST_STATE_PLAYING);
  msg = ic_pipe_wait (run, GST_MESSAGE_EOS | GST_MESSAGE_ERROR, 10000);
  fail_unless (msg != NULL, "io-mode=%s: no error (state change %d)", mode,
      sret);
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_ERROR);
  text = ic_message_text (msg);
  /* names the mode asked for and the one the card has */
  fail_unless (strstr (text, mode) != NULL, "%s", text);
  fail_unless (strstr (text, "rw") != NULL || strstr (text, "read") != NULL,
      "%s", text);
  g_free (text);
  gst_message_unref (msg);
  fail_unless_equals_int (run->n_buffers, 0);
  ic_pipe_free (run);
  g_free (launch);
}

GST_START_TEST (test_pvr_forced_streaming_fails)
{
  check_forced_fails ("mmap");
  check_forced_fails ("dmabuf");
  check_forced_fails ("userptr");
}

GST_END_TEST;

GST_START_TEST (test_pvr_auto_is_rw)
{
  IcPipe *run = ic_pipe_new ("ivtvsrc name=src num-buffers=5 ! "
      "fakesink name=sink");

  ic_pipe_to_eos (run, 15000);
  fail_unless_equals_int (run->n_buffers, 5);
  fail_unless_equals_string (run->io_mode, "rw");
  ic_pipe_free (run);
}

GST_END_TEST;

/* What another program left the card on (as `v4l2-ctl -i N -s STD`). */
static void
leave_card_on (guint32 input, v4l2_std_id std)
{
  gint fd = ic_open ();

  fail_unless (ioctl (fd, VIDIOC_S_INPUT, &input) == 0, "S_INPUT %u", input);
  if (std)
    fail_unless (ioctl (fd, VIDIOC_S_STD, &std) == 0, "S_STD");
  close (fd);
}

static IcPipe *
run_caps (const gchar * props)
{
  gchar *launch = g_strdup_printf ("ivtvsrc name=src %s num-buffers=3 ! "
      "video/x-raw ! fakesink name=sink", props);
  IcPipe *run = ic_pipe_new (launch);

  g_free (launch);
  ic_pipe_to_eos (run, 10000);
  check_frames (run, 3, TRUE);
  return run;
}

/* left on the webcam: the TV input's frame at the standard asked for */
GST_START_TEST (test_tvcam_from_webcam_to_tv)
{
  IcPipe *run;

  leave_card_on (0, 0);
  run = run_caps ("input=tv standard=ntsc");
  check_sdtv_caps (run->caps, 480);
  check_field_order (run, FALSE);
  ic_pipe_free (run);
  fail_unless_equals_int (ic_get_input (), 1);

  leave_card_on (0, 0);
  run = run_caps ("input=svideo standard=pal");
  check_sdtv_caps (run->caps, 576);
  check_field_order (run, TRUE);
  ic_pipe_free (run);
}

GST_END_TEST;

/* left on NTSC: standard=pal gives PAL's frame and rate, and back */
GST_START_TEST (test_tvcam_from_other_standard)
{
  IcPipe *run;

  leave_card_on (1, V4L2_STD_NTSC_M);
  run = run_caps ("standard=pal");
  check_sdtv_caps (run->caps, 576);
  ic_pipe_free (run);

  leave_card_on (2, V4L2_STD_PAL_BG);
  run = run_caps ("input=tv standard=ntsc");
  check_sdtv_caps (run->caps, 480);
  ic_pipe_free (run);
}

GST_END_TEST;

/* left on a TV input: the webcam's own sizes, progressive */
GST_START_TEST (test_tvcam_from_tv_to_webcam)
{
  IcPipe *run;
  const GstStructure *s;
  gint w = 0, h = 0, fn = 0, fd = 0;

  leave_card_on (1, V4L2_STD_PAL_BG);
  run = run_caps ("input=webcam");
  s = gst_caps_get_structure (run->caps, 0);
  fail_unless (gst_structure_get_int (s, "width", &w));
  fail_unless (gst_structure_get_int (s, "height", &h));
  fail_unless (gst_structure_get_fraction (s, "framerate", &fn, &fd));
  fail_unless (w == 320 && h == 180 && fn == 30 && fd == 1, "%"
      GST_PTR_FORMAT, run->caps);
  fail_unless_equals_string (gst_structure_get_string (s, "interlace-mode"),
      "progressive");
  ic_pipe_free (run);
}

GST_END_TEST;

/* input and standard changed after start (PAUSED, nothing negotiated
 * yet): the caps are those of the new input */
GST_START_TEST (test_tvcam_input_changed_in_paused)
{
  IcPipe *run;

  leave_card_on (0, 0);
  run = ic_pipe_new ("ivtvsrc name=src num-buffers=3 ! video/x-raw ! "
      "fakesink name=sink");
  fail_unless (gst_element_set_state (run->pipeline, GST_STATE_PAUSED) ==
      GST_STATE_CHANGE_NO_PREROLL);
  g_object_set (run->src, "input", "tv", "standard", "pal", NULL);
  ic_pipe_to_eos (run, 10000);
  check_sdtv_caps (run->caps, 576);
  check_frames (run, 3, TRUE);
  ic_pipe_free (run);
}

GST_END_TEST;

static Suite *
stream_tv_suite (void)
{
  Suite *s = suite_create ("stream-tv");
  TCase *tc = tcase_create ("tv");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 60);
  tcase_add_checked_fixture (tc, NULL, ic_pipe_teardown);
  tcase_add_test (tc, test_tv_auto_is_mmap);
  tcase_add_test (tc, test_tv_standard_decides);
  tcase_add_test (tc, test_tv_uyvy_userptr);
  tcase_add_test (tc, test_fallback_auto_reads);
  tcase_add_test (tc, test_fallback_forced_mmap_fails);
  tcase_add_test (tc, test_pvr_forced_streaming_fails);
  tcase_add_test (tc, test_pvr_auto_is_rw);
  tcase_add_test (tc, test_tvcam_from_webcam_to_tv);
  tcase_add_test (tc, test_tvcam_from_other_standard);
  tcase_add_test (tc, test_tvcam_from_tv_to_webcam);
  tcase_add_test (tc, test_tvcam_input_changed_in_paused);
  return s;
}

GST_CHECK_MAIN (stream_tv);
