/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests without a device: MPEG caps by stream type and by sniffing,
 * SDTV geometry, caps from a probe, the io-mode choice, standard and
 * input resolution messages, and the probe's robustness against a driver
 * giving absurd answers (a fake I/O table behind IvtvDevice). */
#include <gst/check/gstcheck.h>
#include <errno.h>
#include <string.h>

#include "ivtvcaps.h"
#include "ivtvsettings.h"
#include "ivtvdevice.h"
#include "ivtviomode.h"
#include "ivtvprobe.h"
#include "ivtvread.h"

#include <unistd.h>

/* ---- caps ---- */

static void
check_caps (GstCaps * caps, const gchar * expected)
{
  GstCaps *e = gst_caps_from_string (expected);

  fail_unless (caps != NULL, "no caps, expected %s", expected);
  fail_unless (gst_caps_is_equal (caps, e), "%" GST_PTR_FORMAT " != %s",
      caps, expected);
  gst_caps_unref (caps);
  gst_caps_unref (e);
}

GST_START_TEST (test_mpeg_caps)
{
  check_caps (ivtv_caps_for_mpeg_stream_type (V4L2_MPEG_STREAM_TYPE_MPEG2_PS),
      "video/mpeg, mpegversion=(int)2, systemstream=(boolean)true");
  check_caps (ivtv_caps_for_mpeg_stream_type (V4L2_MPEG_STREAM_TYPE_MPEG2_DVD),
      "video/mpeg, mpegversion=(int)2, systemstream=(boolean)true");
  check_caps (ivtv_caps_for_mpeg_stream_type
      (V4L2_MPEG_STREAM_TYPE_MPEG2_SVCD),
      "video/mpeg, mpegversion=(int)2, systemstream=(boolean)true");
  check_caps (ivtv_caps_for_mpeg_stream_type (V4L2_MPEG_STREAM_TYPE_MPEG2_TS),
      "video/mpegts, systemstream=(boolean)true, packetsize=(int)188");
  check_caps (ivtv_caps_for_mpeg_stream_type (V4L2_MPEG_STREAM_TYPE_MPEG1_SS),
      "video/mpeg, mpegversion=(int)1, systemstream=(boolean)true");
  check_caps (ivtv_caps_for_mpeg_stream_type (V4L2_MPEG_STREAM_TYPE_MPEG1_VCD),
      "video/mpeg, mpegversion=(int)1, systemstream=(boolean)true");
  fail_unless (ivtv_caps_for_mpeg_stream_type (-1) == NULL);
  fail_unless (ivtv_caps_for_mpeg_stream_type (99) == NULL);
}

GST_END_TEST;

GST_START_TEST (test_mpeg_sniff)
{
  guint8 ps2[16] = { 0, 0, 1, 0xba, 0x44 };
  guint8 ps1[16] = { 0, 0, 1, 0xba, 0x21 };
  guint8 ts[3 * 188 + 10];
  guint8 junk[600];

  memset (ts, 0xff, sizeof (ts));
  ts[5] = ts[5 + 188] = ts[5 + 376] = 0x47;
  memset (junk, 0x47, sizeof (junk));
  junk[188] = 0;                /* no regular sync */
  junk[189] = 0;
  junk[376] = 1;
  junk[377] = 1;
  junk[564] = 2;
  junk[565] = 2;

  fail_unless_equals_int (ivtv_caps_sniff_mpeg (ps2, sizeof (ps2)),
      V4L2_MPEG_STREAM_TYPE_MPEG2_PS);
  fail_unless_equals_int (ivtv_caps_sniff_mpeg (ps1, sizeof (ps1)),
      V4L2_MPEG_STREAM_TYPE_MPEG1_SS);
  fail_unless_equals_int (ivtv_caps_sniff_mpeg (ts, sizeof (ts)),
      V4L2_MPEG_STREAM_TYPE_MPEG2_TS);
  fail_unless_equals_int (ivtv_caps_sniff_mpeg (ts, 100),
      IVTV_MPEG_STREAM_UNKNOWN);
  fail_unless_equals_int (ivtv_caps_sniff_mpeg (ps2, 3),
      IVTV_MPEG_STREAM_UNKNOWN);
  fail_unless_equals_int (ivtv_caps_sniff_mpeg (NULL, 0),
      IVTV_MPEG_STREAM_UNKNOWN);
}

GST_END_TEST;

GST_START_TEST (test_std_geometry)
{
  gint w = 0, h = 0, fn = 0, fd = 0, pn = 0, pd = 0;

  fail_unless (ivtv_caps_std_geometry (V4L2_STD_NTSC_M, &w, &h, &fn, &fd,
          &pn, &pd));
  fail_unless (w == 720 && h == 480 && fn == 30000 && fd == 1001
      && pn == 10 && pd == 11);
  fail_unless (ivtv_caps_std_geometry (V4L2_STD_PAL_BG, &w, &h, &fn, &fd,
          &pn, &pd));
  fail_unless (w == 720 && h == 576 && fn == 25 && fd == 1 && pn == 12
      && pd == 11);
  fail_unless (ivtv_caps_std_geometry (V4L2_STD_SECAM_L, &w, &h, &fn, &fd,
          &pn, &pd));
  fail_unless (h == 576);
  fail_unless (ivtv_caps_std_geometry (V4L2_STD_PAL_M, &w, &h, &fn, &fd,
          &pn, &pd));
  fail_unless (h == 480);       /* PAL-M is a 525-line standard */
  fail_if (ivtv_caps_std_geometry (0, &w, &h, &fn, &fd, &pn, &pd));
  fail_if (ivtv_caps_std_geometry (V4L2_STD_NTSC_M | V4L2_STD_PAL_BG, &w, &h,
          &fn, &fd, &pn, &pd));
}

GST_END_TEST;

GST_START_TEST (test_fourcc_map)
{
  GstStructure *s;

  fail_unless (ivtv_caps_lookup_fourcc (V4L2_PIX_FMT_YUYV)->format ==
      GST_VIDEO_FORMAT_YUY2);
  fail_unless (ivtv_caps_lookup_fourcc (V4L2_PIX_FMT_HM12) == NULL);
  s = gst_structure_from_string ("video/x-raw, format=(string)YUY2", NULL);
  fail_unless_equals_int (ivtv_caps_fourcc_from_structure (s),
      V4L2_PIX_FMT_YUYV);
  gst_structure_free (s);
  s = gst_structure_from_string ("video/mpegts", NULL);
  fail_unless_equals_int (ivtv_caps_fourcc_from_structure (s),
      V4L2_PIX_FMT_MPEG);
  gst_structure_free (s);
  s = gst_structure_from_string ("image/jpeg", NULL);
  fail_unless_equals_int (ivtv_caps_fourcc_from_structure (s),
      V4L2_PIX_FMT_MJPEG);
  gst_structure_free (s);
  s = gst_structure_from_string ("audio/x-raw", NULL);
  fail_unless_equals_int (ivtv_caps_fourcc_from_structure (s), 0);
  gst_structure_free (s);
}

GST_END_TEST;

/* A card's formats as caps: MPEG of the card's stream type, raw formats
 * at the standard's rate and interlacing, formats GStreamer has no name
 * for (HM12) left out. */
GST_START_TEST (test_caps_from_probe)
{
  static IvtvFrameSize pal_size[] = {
    {720, 576, {0, 0, NULL, {0, 0}, {0, 0}, {0, 0}}},
  };
  IvtvFormat f[3];
  IvtvProbe p;
  GstCaps *caps;
  GstStructure *s;
  gint v, n, d;

  ivtv_probe_init (&p);
  memset (f, 0, sizeof (f));
  f[0].pixelformat = V4L2_PIX_FMT_MPEG;
  f[0].flags = V4L2_FMT_FLAG_COMPRESSED;
  f[1].pixelformat = V4L2_PIX_FMT_UYVY;
  f[1].size_type = V4L2_FRMSIZE_TYPE_DISCRETE;
  f[1].n_sizes = 1;
  f[1].sizes = pal_size;
  f[2].pixelformat = V4L2_PIX_FMT_HM12;
  p.formats = f;
  p.n_formats = 3;

  caps = ivtv_caps_from_probe (&p, V4L2_STD_PAL,
      V4L2_MPEG_STREAM_TYPE_MPEG2_TS);
  fail_unless_equals_int (gst_caps_get_size (caps), 2);
  s = gst_caps_get_structure (caps, 0);
  fail_unless (gst_structure_has_name (s, "video/mpegts"), "%" GST_PTR_FORMAT,
      caps);
  s = gst_caps_get_structure (caps, 1);
  fail_unless (gst_structure_has_name (s, "video/x-raw"));
  fail_unless_equals_string (gst_structure_get_string (s, "format"), "UYVY");
  fail_unless (gst_structure_get_int (s, "width", &v) && v == 720);
  fail_unless (gst_structure_get_int (s, "height", &v) && v == 576);
  fail_unless (gst_structure_get_fraction (s, "framerate", &n, &d));
  fail_unless (n == 25 && d == 1, "%d/%d", n, d);
  fail_unless_equals_string (gst_structure_get_string (s, "interlace-mode"),
      "interleaved");
  fail_unless (gst_structure_get_fraction (s, "pixel-aspect-ratio", &n, &d));
  fail_unless (n == 12 && d == 11, "%d/%d", n, d);
  gst_caps_unref (caps);
}

GST_END_TEST;

/* ---- io-mode ---- */

GST_START_TEST (test_io_mode_choice)
{
  const guint32 ivtv = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_READWRITE;
  const guint32 cam = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
  const guint32 both = ivtv | V4L2_CAP_STREAMING;
  const guint all = IVTV_IO_BIT (IVTV_IO_MMAP) | IVTV_IO_BIT (IVTV_IO_USERPTR)
      | IVTV_IO_BIT (IVTV_IO_DMABUF);
  IvtvIoMode m = -1;
  GError *err = NULL;

  fail_unless (ivtv_io_mode_choose (IVTV_IO_AUTO, ivtv, 0, "d", &m, NULL));
  fail_unless_equals_int (m, IVTV_IO_RW);
  fail_unless (ivtv_io_mode_choose (IVTV_IO_AUTO, cam, all, "d", &m, NULL));
  fail_unless_equals_int (m, IVTV_IO_MMAP);
  fail_unless (ivtv_io_mode_choose (IVTV_IO_AUTO, both, all, "d", &m, NULL));
  fail_unless_equals_int (m, IVTV_IO_MMAP);
  /* REQBUFS refused: read() */
  fail_unless (ivtv_io_mode_choose (IVTV_IO_AUTO, both, 0, "d", &m, NULL));
  fail_unless_equals_int (m, IVTV_IO_RW);
  fail_unless (ivtv_io_mode_choose (IVTV_IO_AUTO, cam,
          IVTV_IO_BIT (IVTV_IO_USERPTR), "d", &m, NULL));
  fail_unless_equals_int (m, IVTV_IO_USERPTR);
  fail_unless (ivtv_io_mode_choose (IVTV_IO_DMABUF, cam, all, "d", &m, NULL));
  fail_unless_equals_int (m, IVTV_IO_DMABUF);

  /* mask without STREAMING is ignored */
  fail_if (ivtv_io_mode_choose (IVTV_IO_MMAP, ivtv, all, "/dev/video0", &m,
          &err));
  fail_unless (strstr (err->message, "/dev/video0") != NULL);
  fail_unless (strstr (err->message, "io-mode=mmap") != NULL);
  fail_unless (strstr (err->message, "It can do: rw") != NULL, "%s",
      err->message);
  g_clear_error (&err);

  fail_if (ivtv_io_mode_choose (IVTV_IO_RW, cam, all, "d", &m, &err));
  fail_unless (strstr (err->message, "mmap, userptr, dmabuf") != NULL, "%s",
      err->message);
  g_clear_error (&err);

  fail_if (ivtv_io_mode_choose (IVTV_IO_AUTO, cam, 0, "d", &m, &err));
  fail_unless (err != NULL);
  g_clear_error (&err);

  fail_unless (ivtv_io_mode_can_fall_back (IVTV_IO_AUTO, both));
  fail_if (ivtv_io_mode_can_fall_back (IVTV_IO_MMAP, both));
  fail_if (ivtv_io_mode_can_fall_back (IVTV_IO_AUTO, cam));
  fail_unless_equals_string (ivtv_io_mode_nick (IVTV_IO_USERPTR), "userptr");
}

GST_END_TEST;

/* ---- a fake driver ---- */

static gint fake_mode;
static guint fake_calls;

enum
{
  FAKE_SANE,
  FAKE_HOSTILE
};

static int
fake_ioctl (int fd, unsigned long req, void *arg)
{
  (void) fd;
  fake_calls++;
  if (fake_calls > 100000) {    /* an unbounded loop in the probe */
    errno = EINVAL;
    return -1;
  }
  switch (req) {
    case VIDIOC_QUERYCAP:{
      struct v4l2_capability *c = arg;
      memset (c, 'A', sizeof (*c));     /* no NUL anywhere */
      c->capabilities = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_READWRITE
          | V4L2_CAP_TUNER | V4L2_CAP_AUDIO | V4L2_CAP_DEVICE_CAPS;
      c->device_caps = c->capabilities & ~V4L2_CAP_DEVICE_CAPS;
      return 0;
    }
    case VIDIOC_ENUMINPUT:{
      struct v4l2_input *in = arg;
      guint32 i = in->index;
      if (fake_mode == FAKE_SANE && i >= 3)
        break;
      memset (in, 0, sizeof (*in));
      in->index = i;
      /* hostile: endless inputs, names full of junk */
      memset (in->name, fake_mode == FAKE_HOSTILE ? '\n' : 'x',
          sizeof (in->name));
      if (fake_mode == FAKE_SANE)
        g_snprintf ((gchar *) in->name, sizeof (in->name), "%s",
            i == 0 ? "Tuner 1" : i == 1 ? "Composite 1" : "S-Video 1");
      in->type = i == 0 ? V4L2_INPUT_TYPE_TUNER : V4L2_INPUT_TYPE_CAMERA;
      return 0;
    }
    case VIDIOC_G_INPUT:
      *(int *) arg = fake_mode == FAKE_HOSTILE ? 1000000 : 1;
      return 0;
    case VIDIOC_ENUMSTD:{
      struct v4l2_standard *s = arg;
      guint32 i = s->index;
      if (fake_mode == FAKE_SANE && i >= 2)
        break;
      memset (s, 0xff, sizeof (*s));    /* invalid UTF-8, no NUL */
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
    case VIDIOC_G_STD:
      *(v4l2_std_id *) arg = V4L2_STD_NTSC_M;
      return 0;
    case VIDIOC_ENUM_FMT:{
      struct v4l2_fmtdesc *d = arg;
      guint32 i = d->index;
      if (fake_mode == FAKE_SANE && i >= 1)
        break;
      memset (d, 0, sizeof (*d));
      /* hostile: always answers, index 0 again and again */
      d->index = fake_mode == FAKE_HOSTILE && i > 5 ? 0 : i;
      d->pixelformat = fake_mode == FAKE_HOSTILE ? V4L2_PIX_FMT_YUYV + i
          : V4L2_PIX_FMT_MPEG;
      return 0;
    }
    case VIDIOC_ENUM_FRAMESIZES:{
      struct v4l2_frmsizeenum *f = arg;
      if (fake_mode == FAKE_SANE)
        break;
      f->type = V4L2_FRMSIZE_TYPE_DISCRETE;     /* endless sizes */
      f->discrete.width = 16 + f->index;
      f->discrete.height = 16;
      return 0;
    }
    case VIDIOC_ENUM_FRAMEINTERVALS:{
      struct v4l2_frmivalenum *f = arg;
      f->type = V4L2_FRMIVAL_TYPE_DISCRETE;     /* endless intervals */
      f->discrete.numerator = 1;
      f->discrete.denominator = 1 + f->index;
      return 0;
    }
    case VIDIOC_QUERY_EXT_CTRL:{
      struct v4l2_query_ext_ctrl *q = arg;
      guint32 id = q->id & ~(V4L2_CTRL_FLAG_NEXT_CTRL |
          V4L2_CTRL_FLAG_NEXT_COMPOUND);
      if (fake_mode == FAKE_SANE && id >= V4L2_CID_BASE + 1)
        break;
      memset (q, 0, sizeof (*q));
      /* hostile: the same control forever */
      q->id = fake_mode == FAKE_HOSTILE ? V4L2_CID_BRIGHTNESS :
          V4L2_CID_BASE + 1;
      q->type = V4L2_CTRL_TYPE_MENU;
      q->minimum = 0;
      q->maximum = fake_mode == FAKE_HOSTILE ? G_MAXINT : 2;
      memset (q->name, 'c', sizeof (q->name));
      return 0;
    }
    case VIDIOC_QUERYMENU:{
      struct v4l2_querymenu *m = arg;
      g_snprintf ((gchar *) m->name, sizeof (m->name), "item %u", m->index);
      return 0;
    }
    default:
      break;
  }
  errno = req == VIDIOC_ENUMINPUT || req == VIDIOC_ENUMSTD
      || req == VIDIOC_ENUM_FMT || req == VIDIOC_ENUM_FRAMESIZES
      || req == VIDIOC_QUERY_EXT_CTRL ? EINVAL : ENOTTY;
  return -1;
}

static int
fake_close (int fd)
{
  (void) fd;
  return 0;
}

static IvtvIoFuncs fake_io;

static void
fake_device (IvtvDevice * dev, gint mode)
{
  fake_io = ivtv_io_libc;
  fake_io.name = "fake";
  fake_io.ioctl = fake_ioctl;
  fake_io.close = fake_close;
  fake_mode = mode;
  fake_calls = 0;
  ivtv_device_init (dev, NULL);
  dev->io = &fake_io;
  dev->fd = 1000;
  dev->path = g_strdup ("/dev/fake");
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

GST_START_TEST (test_copy_name)
{
  gchar out[IVTV_NAME_LEN];
  const gchar raw[4] = { 'a', 'b', 'c', 'd' };

  ivtv_device_copy_name (out, sizeof (out), raw, sizeof (raw));
  fail_unless_equals_string (out, "abcd");
  ivtv_device_copy_name (out, 3, raw, sizeof (raw));
  fail_unless_equals_string (out, "ab");
  ivtv_device_copy_name (out, sizeof (out), "S-Video 1   ", 12);
  fail_unless_equals_string (out, "S-Video 1");
  ivtv_device_copy_name (out, sizeof (out), "a\tb\x7f", 4);
  fail_unless_equals_string (out, "a?b?");
  ivtv_device_copy_name (out, sizeof (out), "caf\xe9", 4);
  fail_unless_equals_string (out, "caf?");
  ivtv_device_copy_name (out, sizeof (out), "caf\xc3\xa9", 5);
  fail_unless_equals_string (out, "caf\xc3\xa9");
}

GST_END_TEST;

GST_START_TEST (test_device_closed)
{
  IvtvDevice dev;
  IvtvProbe p;
  GError *err = NULL;
  struct v4l2_capability cap;

  ivtv_device_init (&dev, NULL);
  fail_unless_equals_int (ivtv_ioctl (&dev, VIDIOC_QUERYCAP, &cap), -EBADF);
  fail_unless (ivtv_device_read (&dev, &cap, 1) == -EBADF);
  ivtv_probe_init (&p);
  fail_if (ivtv_probe_run (&p, &dev, &err));
  g_clear_error (&err);
  fail_if (ivtv_device_open (&dev, "", FALSE, &err));
  fail_unless (err->code == IVTV_DEVICE_ERROR_NOT_FOUND);
  g_clear_error (&err);
  fail_if (ivtv_device_adopt_fd (&dev, -5, &err));
  fail_unless (err->code == IVTV_DEVICE_ERROR_BAD_FD);
  g_clear_error (&err);
  ivtv_device_clear (&dev);
  ivtv_device_clear (&dev);     /* twice is fine */
}

GST_END_TEST;

/* ---- the read() path against a scripted fake read ---- */

static const gssize *script;    /* >0 bytes, 0 EOS, <0 -errno */
static guint script_pos;

static ssize_t
script_read (int fd, void *buf, size_t len)
{
  gssize r = script[script_pos++];

  (void) fd;
  if (r < 0) {
    errno = (int) -r;
    return -1;
  }
  if ((size_t) r > len)
    r = len;
  memset (buf, 'a' + script_pos, r);
  return r;
}

typedef struct
{
  GstElement *pipe, *el;
  IvtvDevice dev;
  IvtvReader r;
  GstPoll *poll;
  gint pfd[2];
} ReadFixture;

static void
read_setup (ReadFixture * f, const gssize * s, guint blocksize)
{
  script = s;
  script_pos = 0;
  f->pipe = gst_pipeline_new (NULL);
  f->el = gst_element_factory_make ("fakesrc", NULL);
  gst_bin_add (GST_BIN (f->pipe), f->el);
  fail_unless (pipe (f->pfd) == 0);
  fail_unless (write (f->pfd[1], "x", 1) == 1); /* always readable */
  fake_io = ivtv_io_libc;
  fake_io.read = script_read;
  ivtv_device_init (&f->dev, NULL);
  f->dev.io = &fake_io;
  f->dev.fd = f->pfd[0];
  f->dev.path = g_strdup ("/dev/fake");
  f->poll = gst_poll_new (TRUE);
  ivtv_read_init (&f->r);
  fail_unless (ivtv_read_start (&f->r, f->el, &f->dev, f->poll, blocksize,
          NULL));
}

static gchar *
read_teardown (ReadFixture * f)
{
  GstBus *bus = gst_element_get_bus (f->pipe);
  GstMessage *m = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  gchar *msg = NULL;

  if (m) {
    GError *e = NULL;
    gst_message_parse_error (m, &e, NULL);
    msg = g_strdup (e->message);
    g_error_free (e);
    gst_message_unref (m);
  }
  gst_object_unref (bus);
  ivtv_read_stop (&f->r);
  ivtv_read_stop (&f->r);
  gst_poll_free (f->poll);
  f->dev.fd = -1;
  ivtv_device_clear (&f->dev);
  close (f->pfd[0]);
  close (f->pfd[1]);
  gst_object_unref (f->pipe);
  return msg;
}

GST_START_TEST (test_read_short_and_retry)
{
  static const gssize s[] = { 100, -EINTR, -EAGAIN, 4096, 7, 0 };
  ReadFixture f;
  GstBuffer *b;
  gchar *err;

  read_setup (&f, s, 4096);
  fail_unless_equals_int (ivtv_read_create (&f.r, &b), GST_FLOW_OK);
  fail_unless_equals_int (gst_buffer_get_size (b), 100);        /* short: as is */
  fail_unless_equals_int (GST_BUFFER_OFFSET (b), 0);
  gst_buffer_unref (b);
  /* EINTR and EAGAIN: waited again, then the next full read */
  fail_unless_equals_int (ivtv_read_create (&f.r, &b), GST_FLOW_OK);
  fail_unless_equals_int (gst_buffer_get_size (b), 4096);
  fail_unless_equals_int (GST_BUFFER_OFFSET (b), 100);
  fail_unless_equals_int (GST_BUFFER_OFFSET_END (b), 4196);
  gst_buffer_unref (b);
  fail_unless_equals_int (ivtv_read_create (&f.r, &b), GST_FLOW_OK);
  fail_unless_equals_int (gst_buffer_get_size (b), 7);
  gst_buffer_unref (b);
  fail_unless_equals_int (ivtv_read_create (&f.r, &b), GST_FLOW_EOS);
  fail_unless (b == NULL);
  fail_unless_equals_int (f.r.n_short, 2);
  err = read_teardown (&f);
  fail_unless (err == NULL, "%s", err);
}

GST_END_TEST;

GST_START_TEST (test_read_errors)
{
  static const gssize enodev[] = { -ENODEV };
  /* EIO: retried IVTV_READ_EIO_RETRIES times, then an error */
  static const gssize eio[] = { 10, -EIO, -EIO, -EIO, -EIO };
  static const gssize eio_once[] = { -EIO, 20 };
  static const gssize ebusy[] = { -EBUSY };
  ReadFixture f;
  GstBuffer *b;
  gchar *err;

  read_setup (&f, enodev, 4096);
  fail_unless_equals_int (ivtv_read_create (&f.r, &b), GST_FLOW_ERROR);
  err = read_teardown (&f);
  fail_unless (err && strstr (err, "went away"), "%s", err);
  g_free (err);

  read_setup (&f, eio, 4096);
  fail_unless_equals_int (ivtv_read_create (&f.r, &b), GST_FLOW_OK);
  gst_buffer_unref (b);
  fail_unless_equals_int (ivtv_read_create (&f.r, &b), GST_FLOW_ERROR);
  err = read_teardown (&f);
  fail_unless (err && strstr (err, "I/O error"), "%s", err);
  fail_unless_equals_int (script_pos, 5);
  g_free (err);

  read_setup (&f, eio_once, 4096);
  fail_unless_equals_int (ivtv_read_create (&f.r, &b), GST_FLOW_OK);
  fail_unless_equals_int (gst_buffer_get_size (b), 20);
  fail_unless_equals_int (GST_BUFFER_OFFSET (b), 0);
  gst_buffer_unref (b);
  err = read_teardown (&f);
  fail_unless (err == NULL, "%s", err);

  read_setup (&f, ebusy, 4096);
  fail_unless_equals_int (ivtv_read_create (&f.r, &b), GST_FLOW_ERROR);
  err = read_teardown (&f);
  fail_unless (err && strstr (err, "busy"), "%s", err);
  g_free (err);
}

GST_END_TEST;

GST_START_TEST (test_read_flushing)
{
  static const gssize s[] = { 10 };
  ReadFixture f;
  GstBuffer *b;

  read_setup (&f, s, 4096);
  gst_poll_set_flushing (f.poll, TRUE);
  fail_unless_equals_int (ivtv_read_create (&f.r, &b), GST_FLOW_FLUSHING);
  fail_unless_equals_int (script_pos, 0);       /* no read happened */
  gst_poll_set_flushing (f.poll, FALSE);
  fail_unless_equals_int (ivtv_read_create (&f.r, &b), GST_FLOW_OK);
  gst_buffer_unref (b);
  g_free (read_teardown (&f));
}

GST_END_TEST;

static Suite *
units_suite (void)
{
  Suite *s = suite_create ("ivtv-units");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_mpeg_caps);
  tcase_add_test (tc, test_mpeg_sniff);
  tcase_add_test (tc, test_std_geometry);
  tcase_add_test (tc, test_fourcc_map);
  tcase_add_test (tc, test_caps_from_probe);
  tcase_add_test (tc, test_io_mode_choice);
  tcase_add_test (tc, test_probe_sane);
  tcase_add_test (tc, test_probe_hostile);
  tcase_add_test (tc, test_copy_name);
  tcase_add_test (tc, test_device_closed);
  tcase_add_test (tc, test_read_short_and_retry);
  tcase_add_test (tc, test_read_errors);
  tcase_add_test (tc, test_read_flushing);
  return s;
}

GST_CHECK_MAIN (units);
