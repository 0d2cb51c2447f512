/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of gst/device/ivtvnames.c: fuzzy input names and standard names.
 * No device needed. */
#include <gst/check/gstcheck.h>

#include "ivtvnames.h"

/* a PVR-250 as the emulator describes it */
static const IvtvNameEntry pvr250[] = {
  {"Tuner 1", TRUE},
  {"S-Video 1", FALSE},
  {"Composite 1", FALSE},
  {"S-Video 2", FALSE},
  {"Composite 2", FALSE},
};

/* vivid's inputs */
static const IvtvNameEntry vivid[] = {
  {"Webcam 0", FALSE},
  {"TV 0", TRUE},
  {"S-Video 0", FALSE},
  {"HDMI 0", FALSE},
};

static const IvtvNameEntry audio[] = {
  {"Tuner 1", FALSE},
  {"Line In 1", FALSE},
  {"Line In 2", FALSE},
};

#define M(list, q) ivtv_names_match ((list), G_N_ELEMENTS (list), (q))

GST_START_TEST (test_input_index)
{
  fail_unless_equals_int (M (pvr250, "0"), 0);
  fail_unless_equals_int (M (pvr250, "4"), 4);
  fail_unless_equals_int (M (pvr250, " 2 "), 2);
  fail_unless_equals_int (M (pvr250, "5"), IVTV_NAMES_NO_MATCH);
  fail_unless_equals_int (M (pvr250, "99999999999999999999"),
      IVTV_NAMES_NO_MATCH);
}

GST_END_TEST;

GST_START_TEST (test_input_exact)
{
  fail_unless_equals_int (M (pvr250, "Composite 2"), 4);
  fail_unless_equals_int (M (pvr250, "composite 1"), 2);
  fail_unless_equals_int (M (pvr250, "COMPOSITE 2"), 4);
  fail_unless_equals_int (M (pvr250, "s-video 2"), 3);
  fail_unless_equals_int (M (pvr250, "S_Video_2"), 3);
  fail_unless_equals_int (M (pvr250, "svideo2"), 3);
  fail_unless_equals_int (M (pvr250, "composite1"), 2);
  fail_unless_equals_int (M (pvr250, "Composite-2"), 4);
  fail_unless_equals_int (M (pvr250, "tuner1"), 0);
}

GST_END_TEST;

GST_START_TEST (test_input_fuzzy)
{
  fail_unless_equals_int (M (pvr250, "composite"), 2);
  fail_unless_equals_int (M (pvr250, "Composite"), 2);
  fail_unless_equals_int (M (pvr250, "composite2"), 4);
  fail_unless_equals_int (M (pvr250, "svideo"), 1);
  fail_unless_equals_int (M (pvr250, "s-video"), 1);
  fail_unless_equals_int (M (pvr250, "S-Video"), 1);
  fail_unless_equals_int (M (pvr250, "tuner"), 0);
  fail_unless_equals_int (M (pvr250, "tv"), 0);
  fail_unless_equals_int (M (pvr250, "TV"), 0);
  fail_unless_equals_int (M (pvr250, "television"), 0);
  fail_unless_equals_int (M (pvr250, "cvbs"), 2);
  fail_unless_equals_int (M (pvr250, "cvbs2"), 4);
  fail_unless_equals_int (M (pvr250, "yc"), 1);
  fail_unless_equals_int (M (pvr250, "comp"), 2);
  fail_unless_equals_int (M (pvr250, "compo"), 2);

  fail_unless_equals_int (M (vivid, "tv"), 1);
  fail_unless_equals_int (M (vivid, "tuner"), 1);
  fail_unless_equals_int (M (vivid, "svideo"), 2);
  fail_unless_equals_int (M (vivid, "hdmi"), 3);
  fail_unless_equals_int (M (vivid, "webcam"), 0);
  fail_unless_equals_int (M (vivid, "camera"), 0);

  fail_unless_equals_int (M (audio, "tuner"), 0);
  fail_unless_equals_int (M (audio, "tv"), 0);
  fail_unless_equals_int (M (audio, "line"), 1);
  fail_unless_equals_int (M (audio, "line2"), 2);
  fail_unless_equals_int (M (audio, "line-in-2"), 2);
  fail_unless_equals_int (M (audio, "linein"), 1);
}

GST_END_TEST;

GST_START_TEST (test_input_unknown)
{
  static const IvtvNameEntry scart[] = {
    {"S-Video 1", FALSE},
    {"SCART 1", FALSE},
  };

  fail_unless_equals_int (M (pvr250, "bogus"), IVTV_NAMES_NO_MATCH);
  fail_unless_equals_int (M (pvr250, ""), IVTV_NAMES_NO_MATCH);
  fail_unless_equals_int (M (pvr250, "   "), IVTV_NAMES_NO_MATCH);
  fail_unless_equals_int (M (pvr250, "---"), IVTV_NAMES_NO_MATCH);
  fail_unless_equals_int (ivtv_names_match (pvr250, 5, NULL),
      IVTV_NAMES_NO_MATCH);
  fail_unless_equals_int (M (pvr250, "composite3"), IVTV_NAMES_NO_MATCH);
  fail_unless_equals_int (M (pvr250, "svideo3"), IVTV_NAMES_NO_MATCH);
  fail_unless_equals_int (M (pvr250, "hdmi"), IVTV_NAMES_NO_MATCH);
  fail_unless_equals_int (M (pvr250, "tv2"), IVTV_NAMES_NO_MATCH);
  fail_unless_equals_int (M (vivid, "composite"), IVTV_NAMES_NO_MATCH);
  fail_unless_equals_int (ivtv_names_match (NULL, 0, "tv"),
      IVTV_NAMES_NO_MATCH);

  /* "s" starts both S-Video and SCART */
  fail_unless_equals_int (M (scart, "s"), IVTV_NAMES_AMBIGUOUS);
  fail_unless_equals_int (M (scart, "sc"), 1);
  fail_unless_equals_int (M (scart, "sv"), 0);
}

GST_END_TEST;

GST_START_TEST (test_input_join)
{
  gchar *s = ivtv_names_join (pvr250, G_N_ELEMENTS (pvr250));

  fail_unless_equals_string (s, "'Tuner 1', 'S-Video 1', 'Composite 1', "
      "'S-Video 2', 'Composite 2'");
  g_free (s);
  s = ivtv_names_join (NULL, 0);
  fail_unless_equals_string (s, "(none)");
  g_free (s);
  s = ivtv_names_normalize ("S-Video_1 .X");
  fail_unless_equals_string (s, "svideo1x");
  g_free (s);
}

GST_END_TEST;

static v4l2_std_id
parse (const gchar * name)
{
  v4l2_std_id id = 0;
  gboolean is_auto = TRUE;

  fail_unless (ivtv_names_parse_std (name, &id, &is_auto), "'%s'", name);
  fail_if (is_auto);
  return id;
}

static void
fail_parse (const gchar * name)
{
  v4l2_std_id id = 0;
  gboolean is_auto = FALSE;

  fail_if (ivtv_names_parse_std (name, &id, &is_auto), "'%s' parsed", name);
  fail_unless (id == 0);
}

GST_START_TEST (test_std_names)
{
  v4l2_std_id id;
  gboolean is_auto;

  fail_unless (parse ("ntsc") == V4L2_STD_NTSC);
  fail_unless (parse ("NTSC") == V4L2_STD_NTSC);
  fail_unless (parse ("ntsc-m") == V4L2_STD_NTSC_M);
  fail_unless (parse ("NTSC-M") == V4L2_STD_NTSC_M);
  fail_unless (parse ("ntsc-jp") == V4L2_STD_NTSC_M_JP);
  fail_unless (parse ("NTSC-M-JP") == V4L2_STD_NTSC_M_JP);
  fail_unless (parse ("ntsc-kr") == V4L2_STD_NTSC_M_KR);
  fail_unless (parse ("ntsc-443") == V4L2_STD_NTSC_443);
  fail_unless (parse ("pal") == V4L2_STD_PAL);
  fail_unless (parse ("pal-bg") == V4L2_STD_PAL_BG);
  fail_unless (parse ("PAL_BG") == V4L2_STD_PAL_BG);
  fail_unless (parse ("palbg") == V4L2_STD_PAL_BG);
  fail_unless (parse ("pal-i") == V4L2_STD_PAL_I);
  fail_unless (parse ("pal-dk") == V4L2_STD_PAL_DK);
  fail_unless (parse ("pal-m") == V4L2_STD_PAL_M);
  fail_unless (parse ("pal-n") == V4L2_STD_PAL_N);
  fail_unless (parse ("pal-nc") == V4L2_STD_PAL_Nc);
  fail_unless (parse ("PAL-Nc") == V4L2_STD_PAL_Nc);
  fail_unless (parse ("pal-60") == V4L2_STD_PAL_60);
  fail_unless (parse ("secam") == V4L2_STD_SECAM);
  fail_unless (parse ("secam-l") == V4L2_STD_SECAM_L);
  fail_unless (parse ("secam-dk") == V4L2_STD_SECAM_DK);
  fail_unless (parse ("SECAM-DK") == V4L2_STD_SECAM_DK);
  fail_unless (parse ("secam-lc") == V4L2_STD_SECAM_LC);
  fail_unless (parse (" pal ") == V4L2_STD_PAL);
  fail_unless (parse ("0x1000") == V4L2_STD_NTSC_M);
  fail_unless (parse ("0xff") == 0xff);

  fail_unless (ivtv_names_parse_std ("auto", &id, &is_auto));
  fail_unless (is_auto);
  fail_unless (id == 0);
  fail_unless (ivtv_names_parse_std ("AUTO", &id, &is_auto));
  fail_unless (is_auto);

  fail_parse ("bogus");
  fail_parse ("");
  fail_parse ("pal-x");
  fail_parse ("ntscm-jp-extra");
  fail_parse ("0x");
  fail_parse ("0x0");
  fail_parse ("0xzz");
  fail_parse (NULL);
}

GST_END_TEST;

GST_START_TEST (test_std_to_string)
{
  const gchar *const *all;
  gchar *s;
  guint i;

  fail_unless_equals_string (ivtv_names_std_to_string (V4L2_STD_NTSC_M),
      "ntsc-m");
  fail_unless_equals_string (ivtv_names_std_to_string (V4L2_STD_PAL_BG),
      "pal-bg");
  fail_unless (ivtv_names_std_to_string (V4L2_STD_PAL_M | V4L2_STD_NTSC_M)
      == NULL);

  s = ivtv_names_std_describe (V4L2_STD_PAL_M | V4L2_STD_NTSC_M);
  fail_unless_equals_string (s, "ntsc-m/pal-m");
  g_free (s);
  s = ivtv_names_std_describe (V4L2_STD_SECAM_L);
  fail_unless_equals_string (s, "secam-l");
  g_free (s);
  s = ivtv_names_std_describe (0);
  fail_unless_equals_string (s, "none");
  g_free (s);
  s = ivtv_names_std_describe (((v4l2_std_id) 1) << 40);
  fail_unless_equals_string (s, "0x10000000000");
  g_free (s);

  /* every listed name parses back to an id whose name it is */
  all = ivtv_names_std_all ();
  for (i = 0; all[i]; i++) {
    v4l2_std_id id = parse (all[i]);
    fail_unless_equals_string (ivtv_names_std_to_string (id), all[i]);
  }
  fail_unless (i >= 30);
}

GST_END_TEST;

static Suite *
names_suite (void)
{
  Suite *s = suite_create ("ivtvnames");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_input_index);
  tcase_add_test (tc, test_input_exact);
  tcase_add_test (tc, test_input_fuzzy);
  tcase_add_test (tc, test_input_unknown);
  tcase_add_test (tc, test_input_join);
  tcase_add_test (tc, test_std_names);
  tcase_add_test (tc, test_std_to_string);
  return s;
}

GST_CHECK_MAIN (names);
