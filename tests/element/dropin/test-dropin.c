/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc as a drop-in for v4l2src: v4l2src's property names and values
 * work on ivtvsrc (gst/element/ivtvdropin.c, gst/element/ivtvorientation.c).
 * test_pvr_* run with --profile pvr250 --fault fast, test_tv_* with
 * --profile tv-streaming (a saa7134-like card with HFLIP), test_cam_* with
 * --profile webcam: norm with v4l2src's nicks sets the card's standard,
 * brightness/contrast/saturation/hue set the card's controls (at start and
 * while capturing) and read back the card's values, pixel-aspect-ratio
 * replaces the caps' pixel aspect, io-mode takes every v4l2src nick,
 * device-fd reads back the open descriptor, GstVideoOrientation flips
 * where the card can. */
#include "harness.h"

#include <gst/video/videoorientation.h>
#include <errno.h>
#include <fcntl.h>
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
run_ok (const gchar * launch)
{
  IcResult res;

  ic_run (launch, 10000, &res);
  fail_unless (res.eos && res.error == NULL, "%s: %s", launch, res.error);
  ic_result_clear (&res);
}

/* a pipeline with one ivtvsrc "src", set to @state */
static GstElement *
start (const gchar * launch, GstState state)
{
  GstElement *pipe = gst_parse_launch (launch, NULL);

  fail_unless (pipe != NULL, "%s", launch);
  gst_element_set_state (pipe, state);
  fail_unless (gst_element_get_state (pipe, NULL, NULL, 10 * GST_SECOND)
      == GST_STATE_CHANGE_SUCCESS, "%s did not reach its state", launch);
  return pipe;
}

static GstElement *
src_of (GstElement * pipe)
{
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipe), "src");

  gst_object_unref (src);       /* the pipeline keeps it */
  return src;
}

static void
stop (GstElement * pipe)
{
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
}

/* ---- norm ---- */

GST_START_TEST (test_pvr_norm_pal)
{
  GstElement *src = gst_element_factory_make ("ivtvsrc", NULL);
  gchar *std = NULL;

  run_ok ("ivtvsrc norm=NTSC-M num-buffers=3 ! fakesink");
  fail_unless_equals_uint64 (ic_get_std (), V4L2_STD_NTSC_M);
  run_ok ("ivtvsrc norm=PAL num-buffers=3 ! fakesink");
  fail_unless (ic_get_std () & V4L2_STD_PAL);
  fail_if (ic_get_std () & V4L2_STD_525_60);
  run_ok ("ivtvsrc norm=SECAM-L num-buffers=3 ! fakesink");
  fail_unless_equals_uint64 (ic_get_std (), V4L2_STD_SECAM_L);

  /* one setting: norm is read back from standard and the other way */
  gst_util_set_object_arg (G_OBJECT (src), "norm", "PAL-BG");
  g_object_get (src, "standard", &std, NULL);
  fail_unless_equals_string (std, "pal-bg");
  g_free (std);
  g_object_set (src, "standard", "ntsc-jp", NULL);
  std = ic_get_nick (G_OBJECT (src), "norm");
  fail_unless_equals_string (std, "NTSC-M-JP");
  g_free (std);
  gst_util_set_object_arg (G_OBJECT (src), "norm", "none");
  g_object_get (src, "standard", &std, NULL);
  fail_unless (std == NULL, "norm=none keeps the card's, got %s", std);
  gst_object_unref (src);
}

GST_END_TEST;

/* every nick of the enum means the standard of its value */
GST_START_TEST (test_pvr_norm_every_nick)
{
  GstElement *src = gst_element_factory_make ("ivtvsrc", NULL);
  GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (src),
      "norm");
  GEnumClass *ec = G_PARAM_SPEC_ENUM (ps)->enum_class;
  guint i;

  fail_unless_equals_int (ec->n_values, 31);    /* v4l2src's 31 */
  for (i = 1; i < ec->n_values; i++) {
    gchar *nick;
    gint v = 0;

    g_object_set (src, "norm", ec->values[i].value, NULL);
    g_object_get (src, "norm", &v, NULL);
    nick = ic_get_nick (G_OBJECT (src), "norm");
    fail_unless_equals_int (v, ec->values[i].value);
    fail_unless_equals_string (nick, ec->values[i].value_nick);
    fail_unless (i == 1 || ec->values[i].value > ec->values[i - 1].value,
        "values in numeric order");
    g_free (nick);
  }
  gst_object_unref (src);
}

GST_END_TEST;

/* ---- colour controls ---- */

GST_START_TEST (test_pvr_colour_at_start)
{
  GstElement *pipe;
  gint v = 0;

  run_ok ("ivtvsrc brightness=140 contrast=70 saturation=60 hue=10 "
      "num-buffers=3 ! fakesink");
  fail_unless_equals_int (get_ctrl (V4L2_CID_BRIGHTNESS), 140);
  fail_unless_equals_int (get_ctrl (V4L2_CID_CONTRAST), 70);
  fail_unless_equals_int (get_ctrl (V4L2_CID_SATURATION), 60);
  fail_unless_equals_int (get_ctrl (V4L2_CID_HUE), 10);

  /* while capturing: a change goes to the card at once, the property
   * reads the card's value */
  pipe = start ("ivtvsrc name=src ! fakesink", GST_STATE_PLAYING);
  g_object_set (src_of (pipe), "brightness", 100, NULL);
  fail_unless_equals_int (get_ctrl (V4L2_CID_BRIGHTNESS), 100);
  g_object_get (src_of (pipe), "contrast", &v, NULL);
  fail_unless_equals_int (v, 70);
  stop (pipe);
}

GST_END_TEST;

GST_START_TEST (test_pvr_colour_read_back)
{
  GstElement *src = gst_element_factory_make ("ivtvsrc", NULL);
  GstStructure *extra = NULL;
  gint v = -1;

  g_object_get (src, "hue", &v, NULL);
  fail_unless_equals_int (v, 0);        /* unset, closed: as v4l2src */
  g_object_set (src, "hue", -5, NULL);
  g_object_get (src, "hue", &v, "extra-controls", &extra, NULL);
  fail_unless_equals_int (v, -5);
  fail_unless (extra != NULL && gst_structure_get_int (extra, "hue", &v)
      && v == -5, "hue is an extra-controls entry");
  gst_structure_free (extra);
  gst_object_unref (src);
}

GST_END_TEST;

/* ---- device-fd ---- */

GST_START_TEST (test_pvr_device_fd_reads_open_fd)
{
  GstElement *pipe = start ("ivtvsrc name=src ! fakesink", GST_STATE_NULL);
  struct v4l2_capability cap;
  gint fd = 0;

  g_object_get (src_of (pipe), "device-fd", &fd, NULL);
  fail_unless_equals_int (fd, -1);
  gst_element_set_state (pipe, GST_STATE_READY);
  g_object_get (src_of (pipe), "device-fd", &fd, NULL);
  fail_unless (fd >= 0 && ioctl (fd, VIDIOC_QUERYCAP, &cap) == 0,
      "device-fd %d is the open device", fd);
  fail_unless_equals_string ((const gchar *) cap.driver, "ivtv");
  gst_element_set_state (pipe, GST_STATE_NULL);
  g_object_get (src_of (pipe), "device-fd", &fd, NULL);
  fail_unless_equals_int (fd, -1);
  stop (pipe);
}

GST_END_TEST;

/* ---- io-mode ---- */

GST_START_TEST (test_cam_io_mode_nicks)
{
  static const gchar *nicks[] = { "auto", "rw", "mmap", "userptr", "dmabuf",
    "dmabuf-import"
  };
  GstElement *src = gst_element_factory_make ("ivtvsrc", NULL);
  gchar *msg;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (nicks); i++) {
    gchar *got;

    gst_util_set_object_arg (G_OBJECT (src), "io-mode", nicks[i]);
    got = ic_get_nick (G_OBJECT (src), "io-mode");
    fail_unless_equals_string (got, nicks[i]);
    g_free (got);
  }
  gst_object_unref (src);
  run_ok ("ivtvsrc io-mode=mmap num-buffers=3 ! fakesink");
  msg = ic_expect_error ("ivtvsrc io-mode=dmabuf-import num-buffers=3 ! "
      "fakesink");
  fail_unless (strstr (msg, "dmabuf-import") && strstr (msg, "mmap"),
      "the error names the mode and what the device can do: %s", msg);
  g_free (msg);
}

GST_END_TEST;

/* ---- pixel-aspect-ratio ---- */

static gboolean
caps_par (GstCaps * caps, gint * n, gint * d)
{
  return caps && gst_structure_get_fraction (gst_caps_get_structure (caps, 0),
      "pixel-aspect-ratio", n, d);
}

GST_START_TEST (test_tv_pixel_aspect_ratio)
{
  IcPipe *run;
  IcResult res;
  gint n = 0, d = 0, dn = 0, dd = 0;

  run = ic_pipe_new ("ivtvsrc name=src standard=pal num-buffers=2 ! "
      "video/x-raw ! fakesink name=sink");
  ic_pipe_to_eos (run, 10000);
  fail_unless (caps_par (run->caps, &dn, &dd));
  fail_if (dn == dd, "the device's PAL pixels are not square");
  ic_pipe_free (run);

  run = ic_pipe_new ("ivtvsrc name=src standard=pal pixel-aspect-ratio=1/1 "
      "num-buffers=2 ! video/x-raw ! fakesink name=sink");
  ic_pipe_to_eos (run, 10000);
  fail_unless (caps_par (run->caps, &n, &d) && n == 1 && d == 1,
      "pixel-aspect-ratio=1/1 gives %d/%d", n, d);
  ic_pipe_free (run);

  /* a bad value: one warning, the device's */
  ic_run ("ivtvsrc standard=pal pixel-aspect-ratio=wide num-buffers=2 ! "
      "video/x-raw ! fakesink", 10000, &res);
  fail_unless (res.eos && res.error == NULL, "%s", res.error);
  fail_unless_equals_int (g_list_length (res.warnings), 1);
  fail_unless (ic_has_warning (&res, "pixel-aspect-ratio 'wide'"));
  ic_result_clear (&res);
}

GST_END_TEST;

/* ---- GstVideoOrientation ---- */

GST_START_TEST (test_tv_orientation_hflip)
{
  GstElement *pipe = start ("ivtvsrc name=src ! fakesink", GST_STATE_READY);
  GstVideoOrientation *vo = GST_VIDEO_ORIENTATION (src_of (pipe));
  gboolean flip = TRUE;

  fail_unless (gst_video_orientation_get_hflip (vo, &flip) && !flip);
  fail_unless (gst_video_orientation_set_hflip (vo, TRUE));
  fail_unless_equals_int (get_ctrl (V4L2_CID_HFLIP), 1);
  fail_unless (gst_video_orientation_get_hflip (vo, &flip) && flip);
  fail_unless (gst_video_orientation_set_hflip (vo, FALSE));
  fail_unless_equals_int (get_ctrl (V4L2_CID_HFLIP), 0);
  /* saa7134 has no vertical flip, nobody has the centre controls */
  fail_if (gst_video_orientation_set_vflip (vo, TRUE));
  fail_if (gst_video_orientation_get_vflip (vo, &flip));
  fail_if (gst_video_orientation_set_hcenter (vo, 1));
  stop (pipe);
}

GST_END_TEST;

GST_START_TEST (test_cam_orientation_none)
{
  GstElement *src = gst_element_factory_make ("ivtvsrc", NULL);
  GstElement *pipe;
  gboolean flip;

  /* closed: nothing to flip */
  fail_if (gst_video_orientation_set_hflip (GST_VIDEO_ORIENTATION (src),
          TRUE));
  gst_object_unref (src);
  pipe = start ("ivtvsrc name=src ! fakesink", GST_STATE_READY);
  fail_if (gst_video_orientation_get_hflip (GST_VIDEO_ORIENTATION (src_of
              (pipe)), &flip), "the webcam has no HFLIP");
  stop (pipe);
}

GST_END_TEST;

static Suite *
dropin_suite (void)
{
  Suite *s = suite_create ("dropin");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_pvr_norm_pal);
  tcase_add_test (tc, test_pvr_norm_every_nick);
  tcase_add_test (tc, test_pvr_colour_at_start);
  tcase_add_test (tc, test_pvr_colour_read_back);
  tcase_add_test (tc, test_pvr_device_fd_reads_open_fd);
  tcase_add_test (tc, test_cam_io_mode_nicks);
  tcase_add_test (tc, test_cam_orientation_none);
  tcase_add_test (tc, test_tv_pixel_aspect_ratio);
  tcase_add_test (tc, test_tv_orientation_hflip);
  return s;
}

GST_CHECK_MAIN (dropin);
