/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of gst/session/ivtvencoder.c without a device: v4l2-ctl control
 * names, and ivtv_encoder_apply against the fake driver (fakedev.h) whose
 * ioctl()
 * acts as drivers the emulator does not imitate: one that refuses a batch
 * of S_EXT_CTRLS (old drivers: one class per call), one without
 * S_EXT_CTRLS at all (S_CTRL only), one that refuses a single control. */
#include <gst/check/gstcheck.h>
#include <errno.h>
#include <string.h>

#include "gstivtvsrc.h"
#include "fakedev.h"
#include "ivtvsettings.h"
#include "ivtvencoder.h"

enum
{
  FAKE_ALL_OK,
  FAKE_NO_BATCH,                /* S_EXT_CTRLS with count > 1: EINVAL */
  FAKE_NO_EXT,                  /* S/G_EXT_CTRLS: ENOTTY */
  FAKE_REFUSE_GOP               /* GOP size: EACCES */
};

static gint fake_mode;
static gint fake_s_ext_calls, fake_s_ctrl_calls;

static guint32 fake_ids[] = {
  V4L2_CID_BRIGHTNESS, V4L2_CID_MPEG_STREAM_TYPE,
  V4L2_CID_MPEG_VIDEO_GOP_SIZE, V4L2_CID_MPEG_VIDEO_BITRATE,
  V4L2_CID_MPEG_AUDIO_L2_BITRATE
};

static gint32 fake_values[G_N_ELEMENTS (fake_ids)];

static gint32 *
fake_value (guint32 id)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (fake_ids); i++)
    if (fake_ids[i] == id)
      return &fake_values[i];
  return NULL;
}

static int
fake_ioctl (unsigned long req, void *arg)
{
  if (req == VIDIOC_S_EXT_CTRLS || req == VIDIOC_G_EXT_CTRLS) {
    struct v4l2_ext_controls *cs = arg;
    guint i;

    if (fake_mode == FAKE_NO_EXT)
      return fake_fail (ENOTTY);
    if (req == VIDIOC_S_EXT_CTRLS) {
      fake_s_ext_calls++;
      if (fake_mode == FAKE_NO_BATCH && cs->count > 1)
        return fake_fail (EINVAL);
    }
    for (i = 0; i < cs->count; i++) {
      gint32 *v = fake_value (cs->controls[i].id);

      if (v == NULL)
        return fake_fail (EINVAL);
      if (req == VIDIOC_S_EXT_CTRLS && fake_mode == FAKE_REFUSE_GOP
          && cs->controls[i].id == V4L2_CID_MPEG_VIDEO_GOP_SIZE)
        return fake_fail (EACCES);
    }
    for (i = 0; i < cs->count; i++) {
      gint32 *v = fake_value (cs->controls[i].id);

      if (req == VIDIOC_S_EXT_CTRLS)
        *v = cs->controls[i].value;
      else
        cs->controls[i].value = *v;
    }
    return 0;
  }
  if (req == VIDIOC_S_CTRL || req == VIDIOC_G_CTRL) {
    struct v4l2_control *c = arg;
    gint32 *v = fake_value (c->id);

    if (v == NULL)
      return fake_fail (EINVAL);
    if (req == VIDIOC_S_CTRL) {
      fake_s_ctrl_calls++;
      *v = c->value;
    } else {
      c->value = *v;
    }
    return 0;
  }
  return fake_fail (ENOTTY);
}

static IvtvMenuItem stream_menu[] = {
  {0, 0, "MPEG-2 Program Stream"}, {1, 1, "MPEG-2 Transport Stream"}
};

static IvtvMenuItem l2_menu[] = {
  {9, 9, "192 kbps"}, {10, 10, "224 kbps"}, {13, 13, "384 kbps"}
};

static IvtvControl fake_controls[] = {
  {V4L2_CID_BRIGHTNESS, V4L2_CTRL_TYPE_INTEGER, "Brightness", 0, 255, 128,
      1, 0, 0, NULL},
  {V4L2_CID_MPEG_STREAM_TYPE, V4L2_CTRL_TYPE_MENU, "Stream Type", 0, 1, 0,
      1, 0, 2, stream_menu},
  {V4L2_CID_MPEG_VIDEO_GOP_SIZE, V4L2_CTRL_TYPE_INTEGER, "Video GOP Size",
      1, 34, 12, 1, 0, 0, NULL},
  {V4L2_CID_MPEG_VIDEO_BITRATE, V4L2_CTRL_TYPE_INTEGER, "Video Bitrate",
      0, 27000000, 6000000, 1, 0, 0, NULL},
  {V4L2_CID_MPEG_AUDIO_L2_BITRATE, V4L2_CTRL_TYPE_MENU,
      "Audio Layer II Bitrate", 9, 13, 10, 1, 0, 3, l2_menu},
};

static IvtvDevice dev;
static IvtvProbe probe;
static gint want[IVTV_ENC_N_NAMED], current[IVTV_ENC_N_NAMED];

static void
setup (gint mode)
{
  guint i;

  g_type_class_unref (g_type_class_ref (GST_TYPE_IVTV_SRC));    /* debug */
  fake_dev_clear (&dev);
  fake_dev_init (&dev, 1000, fake_ioctl, NULL);
  memset (&probe, 0, sizeof (probe));
  g_strlcpy (probe.card, "Fake Card", sizeof (probe.card));
  probe.controls = fake_controls;
  probe.n_controls = G_N_ELEMENTS (fake_controls);
  for (i = 0; i < IVTV_ENC_N_NAMED; i++)
    want[i] = IVTV_ENCODER_KEEP;
  for (i = 0; i < G_N_ELEMENTS (fake_ids); i++)
    fake_values[i] = 0;
  fake_mode = mode;
  fake_s_ext_calls = fake_s_ctrl_calls = 0;
}

static gboolean
apply (const gchar * extra, gchar ** warning, GError ** error)
{
  GstStructure *s = extra ? gst_structure_from_string (extra, NULL) : NULL;
  gboolean ok;

  ok = ivtv_encoder_apply (&dev, &probe, want, s, current, warning, error);
  if (s)
    gst_structure_free (s);
  return ok;
}

GST_START_TEST (test_control_names)
{
  const gchar *cases[][2] = {
    {"Video Bitrate", "video_bitrate"},
    {"Audio Layer II Bitrate", "audio_layer_ii_bitrate"},
    {"Video B-Frames (count)", "video_b_frames_count"},
    {"  Hue  ", "hue"},
    {"video-temporal-decimation", "video_temporal_decimation"},
    {"", ""},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *n = ivtv_encoder_control_name (cases[i][0]);

    fail_unless_equals_string (n, cases[i][1]);
    g_free (n);
  }
}

GST_END_TEST;

GST_START_TEST (test_apply_batch)
{
  gchar *warning = NULL;
  GError *err = NULL;

  setup (FAKE_ALL_OK);
  want[IVTV_ENC_STREAM_TYPE] = V4L2_MPEG_STREAM_TYPE_MPEG2_TS;
  want[IVTV_ENC_GOP_SIZE] = 15;
  want[IVTV_ENC_AUDIO_BITRATE] = 384000;
  want[IVTV_ENC_ASPECT] = V4L2_MPEG_VIDEO_ASPECT_16x9;  /* card lacks it */
  fail_unless (apply ("c,brightness=7,frobnicate=1", &warning, &err),
      "%s", err ? err->message : "");
  fail_unless_equals_int (fake_s_ext_calls, 1);
  fail_unless_equals_int (*fake_value (V4L2_CID_MPEG_STREAM_TYPE), 1);
  fail_unless_equals_int (*fake_value (V4L2_CID_MPEG_VIDEO_GOP_SIZE), 15);
  fail_unless_equals_int (*fake_value (V4L2_CID_MPEG_AUDIO_L2_BITRATE), 13);
  fail_unless_equals_int (*fake_value (V4L2_CID_BRIGHTNESS), 7);
  fail_unless_equals_int (current[IVTV_ENC_AUDIO_BITRATE], 384000);
  fail_unless_equals_int (current[IVTV_ENC_GOP_SIZE], 15);
  fail_unless_equals_int (current[IVTV_ENC_ASPECT], IVTV_ENCODER_KEEP);
  fail_unless (warning != NULL);
  fail_unless (strstr (warning, "no encoder control for aspect"), "%s",
      warning);
  fail_unless (strstr (warning, "frobnicate"), "%s", warning);
  fail_unless (strstr (warning, "brightness, stream_type, video_gop_size"),
      "%s", warning);
  g_free (warning);
}

GST_END_TEST;

GST_START_TEST (test_apply_one_by_one)
{
  gchar *warning = NULL;
  GError *err = NULL;

  setup (FAKE_NO_BATCH);
  want[IVTV_ENC_BITRATE] = 2000000;
  want[IVTV_ENC_GOP_SIZE] = 6;
  fail_unless (apply ("c,brightness=9", &warning, &err), "%s",
      err ? err->message : "");
  fail_unless (warning == NULL, "%s", warning);
  fail_unless_equals_int (fake_s_ext_calls, 1 + 3);
  fail_unless_equals_int (*fake_value (V4L2_CID_MPEG_VIDEO_BITRATE), 2000000);
  fail_unless_equals_int (*fake_value (V4L2_CID_MPEG_VIDEO_GOP_SIZE), 6);
  fail_unless_equals_int (*fake_value (V4L2_CID_BRIGHTNESS), 9);
}

GST_END_TEST;

GST_START_TEST (test_apply_s_ctrl_only)
{
  gchar *warning = NULL;
  GError *err = NULL;

  setup (FAKE_NO_EXT);
  want[IVTV_ENC_BITRATE] = 3000000;
  fail_unless (apply ("c,brightness=200", &warning, &err), "%s",
      err ? err->message : "");
  fail_unless_equals_int (fake_s_ctrl_calls, 2);
  fail_unless_equals_int (*fake_value (V4L2_CID_MPEG_VIDEO_BITRATE), 3000000);
  fail_unless_equals_int (*fake_value (V4L2_CID_BRIGHTNESS), 200);
  /* read back with G_CTRL */
  fail_unless_equals_int (current[IVTV_ENC_BITRATE], 3000000);
  g_free (warning);
}

GST_END_TEST;

GST_START_TEST (test_apply_refused_names_control)
{
  gchar *warning = NULL;
  GError *err = NULL;

  setup (FAKE_REFUSE_GOP);
  want[IVTV_ENC_BITRATE] = 3000000;
  want[IVTV_ENC_GOP_SIZE] = 6;
  fail_if (apply (NULL, &warning, &err));
  fail_unless (err != NULL);
  fail_unless (g_error_matches (err, IVTV_SETTINGS_ERROR,
          IVTV_SETTINGS_ERROR_FAILED));
  fail_unless (strstr (err->message, "gop-size") != NULL, "%s", err->message);
  fail_unless (strstr (err->message, "Fake Card") != NULL, "%s", err->message);
  g_clear_error (&err);
  g_free (warning);
}

GST_END_TEST;

GST_START_TEST (test_apply_menu_not_offered)
{
  gchar *warning = NULL;
  GError *err = NULL;

  setup (FAKE_ALL_OK);
  want[IVTV_ENC_STREAM_TYPE] = V4L2_MPEG_STREAM_TYPE_MPEG1_VCD;
  fail_if (apply (NULL, &warning, &err));
  fail_unless (g_error_matches (err, IVTV_SETTINGS_ERROR,
          IVTV_SETTINGS_ERROR_RANGE));
  fail_unless (strstr (err->message, "'vcd'") &&
      strstr (err->message, "'MPEG-2 Transport Stream' (1)"), "%s",
      err->message);
  fail_unless_equals_int (fake_s_ext_calls, 0);
  g_clear_error (&err);
  g_free (warning);
}

GST_END_TEST;

static Suite *
encoder_units_suite (void)
{
  Suite *s = suite_create ("ivtvencoder");
  TCase *tc = tcase_create ("units");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_control_names);
  tcase_add_test (tc, test_apply_batch);
  tcase_add_test (tc, test_apply_one_by_one);
  tcase_add_test (tc, test_apply_s_ctrl_only);
  tcase_add_test (tc, test_apply_refused_names_control);
  tcase_add_test (tc, test_apply_menu_not_offered);
  return s;
}

GST_CHECK_MAIN (encoder_units);
