/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of gst/device/ivtvprobe.c and the name resolution of
 * gst/session/ivtvsettings.c against the fake driver (fakedev.h): a sane card is
 * read right, a hostile one (endless enumerations, names full of junk,
 * absurd indices) cannot make the probe loop or overflow. */
#include <gst/check/gstcheck.h>
#include <errno.h>
#include <string.h>

#include "fakedev.h"
#include "ivtvcaps.h"
#include "ivtvprobe.h"
#include "ivtvsettings.h"

/* ---- a driver that answers sanely or absurdly ---- */

static gint fake_mode;
static guint fake_calls;

enum
{
  FAKE_SANE,
  FAKE_HOSTILE
};

static int
answer_querycap (void *arg)
{
  struct v4l2_capability *c = arg;

  memset (c, 'A', sizeof (*c)); /* no NUL anywhere */
  c->capabilities = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_READWRITE
      | V4L2_CAP_TUNER | V4L2_CAP_AUDIO | V4L2_CAP_DEVICE_CAPS;
  c->device_caps = c->capabilities & ~V4L2_CAP_DEVICE_CAPS;
  return 0;
}

static int
answer_enuminput (void *arg)
{
  struct v4l2_input *in = arg;
  guint32 i = in->index;

  if (fake_mode == FAKE_SANE && i >= 3)
    return -1;
  memset (in, 0, sizeof (*in));
  in->index = i;
  /* hostile: endless inputs, names full of junk */
  memset (in->name, fake_mode == FAKE_HOSTILE ? '\n' : 'x', sizeof (in->name));
  if (fake_mode == FAKE_SANE)
    g_snprintf ((gchar *) in->name, sizeof (in->name), "%s",
        i == 0 ? "Tuner 1" : i == 1 ? "Composite 1" : "S-Video 1");
  in->type = i == 0 ? V4L2_INPUT_TYPE_TUNER : V4L2_INPUT_TYPE_CAMERA;
  return 0;
}

static int
answer_enumstd (void *arg)
{
  struct v4l2_standard *s = arg;
  guint32 i = s->index;

  if (fake_mode == FAKE_SANE && i >= 2)
    return -1;
  memset (s, 0xff, sizeof (*s));        /* invalid UTF-8, no NUL */
  s->index = i;
  s->id = fake_mode == FAKE_HOSTILE ? V4L2_STD_PAL : (i ? V4L2_STD_PAL_BG
      : V4L2_STD_NTSC_M);
  if (fake_mode == FAKE_SANE)
    g_snprintf ((gchar *) s->name, sizeof (s->name), "%s",
        i ? "PAL-BG" : "NTSC-M");
  s->frameperiod.numerator = fake_mode == FAKE_HOSTILE ? 0 : 1001;
  s->frameperiod.denominator = 30000;
  return 0;
}

static int
answer_enum_fmt (void *arg)
{
  struct v4l2_fmtdesc *d = arg;
  guint32 i = d->index;

  if (fake_mode == FAKE_SANE && i >= 1)
    return -1;
  memset (d, 0, sizeof (*d));
  /* hostile: always answers, index 0 again and again */
  d->index = fake_mode == FAKE_HOSTILE && i > 5 ? 0 : i;
  d->pixelformat = fake_mode == FAKE_HOSTILE ? V4L2_PIX_FMT_YUYV + i
      : V4L2_PIX_FMT_MPEG;
  return 0;
}

static int
answer_enum_framesizes (void *arg)
{
  struct v4l2_frmsizeenum *f = arg;

  if (fake_mode == FAKE_SANE)
    return -1;
  f->type = V4L2_FRMSIZE_TYPE_DISCRETE; /* endless sizes */
  f->discrete.width = 16 + f->index;
  f->discrete.height = 16;
  return 0;
}

static int
answer_enum_frameintervals (void *arg)
{
  struct v4l2_frmivalenum *f = arg;

  f->type = V4L2_FRMIVAL_TYPE_DISCRETE; /* endless intervals */
  f->discrete.numerator = 1;
  f->discrete.denominator = 1 + f->index;
  return 0;
}

static int
answer_query_ext_ctrl (void *arg)
{
  struct v4l2_query_ext_ctrl *q = arg;
  guint32 id = q->id & ~(V4L2_CTRL_FLAG_NEXT_CTRL |
      V4L2_CTRL_FLAG_NEXT_COMPOUND);
  if (fake_mode == FAKE_SANE && id >= V4L2_CID_BASE + 1)
    return -1;
  memset (q, 0, sizeof (*q));
  /* hostile: the same control forever */
  q->id = fake_mode == FAKE_HOSTILE ? V4L2_CID_BRIGHTNESS : V4L2_CID_BASE + 1;
  q->type = V4L2_CTRL_TYPE_MENU;
  q->minimum = 0;
  q->maximum = fake_mode == FAKE_HOSTILE ? G_MAXINT : 2;
  memset (q->name, 'c', sizeof (q->name));
  return 0;
}

static int
answer_querymenu (void *arg)
{
  struct v4l2_querymenu *m = arg;

  g_snprintf ((gchar *) m->name, sizeof (m->name), "item %u", m->index);
  return 0;
}

static int
fake_ioctl (unsigned long req, void *arg)
{
  gint ret = -1;

  fake_calls++;
  if (fake_calls > 100000)      /* an unbounded loop in the probe */
    return fake_fail (EINVAL);
  switch (req) {
    case VIDIOC_QUERYCAP:
      ret = answer_querycap (arg);
      break;
    case VIDIOC_ENUMINPUT:
      ret = answer_enuminput (arg);
      break;
    case VIDIOC_ENUMSTD:
      ret = answer_enumstd (arg);
      break;
    case VIDIOC_ENUM_FMT:
      ret = answer_enum_fmt (arg);
      break;
    case VIDIOC_ENUM_FRAMESIZES:
      ret = answer_enum_framesizes (arg);
      break;
    case VIDIOC_ENUM_FRAMEINTERVALS:
      ret = answer_enum_frameintervals (arg);
      break;
    case VIDIOC_QUERY_EXT_CTRL:
      ret = answer_query_ext_ctrl (arg);
      break;
    case VIDIOC_QUERYMENU:
      ret = answer_querymenu (arg);
      break;
    case VIDIOC_G_INPUT:
      *(int *) arg = fake_mode == FAKE_HOSTILE ? 1000000 : 1;
      ret = 0;
      break;
    case VIDIOC_G_STD:
      *(v4l2_std_id *) arg = V4L2_STD_NTSC_M;
      ret = 0;
      break;
    default:
      break;
  }
  if (ret == 0)
    return 0;
  return fake_fail (req == VIDIOC_ENUMINPUT || req == VIDIOC_ENUMSTD
      || req == VIDIOC_ENUM_FMT || req == VIDIOC_ENUM_FRAMESIZES
      || req == VIDIOC_QUERY_EXT_CTRL ? EINVAL : ENOTTY);
}

static void
fake_device (IvtvDevice * dev, gint mode)
{
  fake_mode = mode;
  fake_calls = 0;
  fake_dev_init (dev, 1000, fake_ioctl, NULL);
  fail_unless (ivtv_ioctl (dev, VIDIOC_QUERYCAP, &dev->cap) == 0);
  dev->device_caps = dev->cap.device_caps;
}

GST_START_TEST (test_probe_sane)
{
  IvtvDevice dev;
  IvtvProbe p;
  GError *err = NULL;

  fake_device (&dev, FAKE_SANE);
  ivtv_probe_init (&p);
  fail_unless (ivtv_probe_run (&p, &dev, NULL));
  fail_unless_equals_int (strlen (p.card), 32); /* bounded, no NUL given */
  fail_unless_equals_int (p.n_inputs, 3);
  fail_unless_equals_string (p.inputs[1].name, "Composite 1");
  fail_unless_equals_int (p.current_input, 1);
  fail_unless_equals_int (p.n_stds, 2);
  fail_unless_equals_string (p.stds[1].name, "PAL-BG");
  fail_unless (p.stds[0].fps_n == 30000 && p.stds[0].fps_d == 1001);
  fail_unless_equals_int (p.n_formats, 1);
  fail_unless_equals_int (p.formats[0].pixelformat, V4L2_PIX_FMT_MPEG);
  fail_unless_equals_int (p.n_controls, 1);
  fail_unless_equals_int (p.controls[0].n_menu, 3);
  fail_unless_equals_string (p.controls[0].menu[2].name, "item 2");

  /* names resolve against this card */
  fail_unless_equals_int (ivtv_settings_find_input (&p, "tv", NULL), 0);
  fail_unless_equals_int (ivtv_settings_find_input (&p, "svideo", NULL), 2);
  fail_unless_equals_int (ivtv_settings_find_input (&p, "hdmi", &err), -1);
  fail_unless (strstr (err->message, "'Tuner 1', 'Composite 1', "
          "'S-Video 1'") != NULL, "%s", err->message);
  fail_unless (strstr (err->message, "hdmi") != NULL);
  g_clear_error (&err);

  {
    v4l2_std_id id = 0;
    gboolean is_auto = FALSE;

    fail_unless (ivtv_settings_resolve_std (&p, "ntsc", &id, &is_auto, NULL));
    fail_unless (id == V4L2_STD_NTSC_M);        /* only what the card has */
    fail_unless (ivtv_settings_resolve_std (&p, "PAL-BG", &id, &is_auto, NULL));
    fail_unless (id == V4L2_STD_PAL_BG);
    fail_unless (ivtv_settings_resolve_std (&p, "auto", &id, &is_auto, NULL));
    fail_unless (is_auto);
    fail_if (ivtv_settings_resolve_std (&p, "secam", &id, &is_auto, &err));
    fail_unless (strstr (err->message, "Unsupported standard 'secam'"),
        "%s", err->message);
    fail_unless (strstr (err->message, "'NTSC-M'") != NULL
        && strstr (err->message, "'PAL-BG'") != NULL, "%s", err->message);
    g_clear_error (&err);
    fail_if (ivtv_settings_resolve_std (&p, "bogus", &id, &is_auto, &err));
    fail_unless (strstr (err->message, "Unknown standard 'bogus'"), "%s",
        err->message);
    g_clear_error (&err);
  }

  ivtv_probe_clear (&p);
  ivtv_device_clear (&dev);
}

GST_END_TEST;

GST_START_TEST (test_probe_hostile)
{
  IvtvDevice dev;
  IvtvProbe p;
  guint i;

  fake_device (&dev, FAKE_HOSTILE);
  ivtv_probe_init (&p);
  fail_unless (ivtv_probe_run (&p, &dev, NULL));
  fail_unless (fake_calls < 100000, "unbounded enumeration");

  fail_unless_equals_int (p.n_inputs, IVTV_PROBE_MAX_INPUTS);
  for (i = 0; i < p.n_inputs; i++) {
    fail_unless (strlen (p.inputs[i].name) < IVTV_NAME_LEN);
    fail_unless (strchr (p.inputs[i].name, '\n') == NULL);
    fail_unless (g_utf8_validate (p.inputs[i].name, -1, NULL));
  }
  fail_unless_equals_int (p.current_input, -1); /* 1000000 is nonsense */
  /* the same standard again and again counts once */
  fail_unless_equals_int (p.n_stds, 1);
  fail_unless (g_utf8_validate (p.stds[0].name, -1, NULL));
  fail_unless (p.stds[0].fps_n == 0 && p.stds[0].fps_d == 1);
  /* formats stop at the repeated index */
  fail_unless (p.n_formats <= 6);
  fail_unless (p.formats[0].n_sizes <= IVTV_PROBE_MAX_SIZES);
  fail_unless (p.formats[0].sizes[0].intervals.n_discrete <=
      IVTV_PROBE_MAX_INTERVALS);
  /* a control that repeats itself: once; its huge menu bounded */
  fail_unless_equals_int (p.n_controls, 1);
  fail_unless (p.controls[0].n_menu <= IVTV_PROBE_MAX_MENU);

  /* caps from this probe stay sane */
  {
    GstCaps *caps = ivtv_caps_from_probe (&p, 0, -1);

    fail_unless (caps != NULL && !gst_caps_is_empty (caps));
    gst_caps_unref (caps);
  }
  ivtv_probe_clear (&p);
  ivtv_device_clear (&dev);
}

GST_END_TEST;

static Suite *
probe_suite (void)
{
  Suite *s = suite_create ("ivtv-probe");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_probe_sane);
  tcase_add_test (tc, test_probe_hostile);
  return s;
}

GST_CHECK_MAIN (probe);
