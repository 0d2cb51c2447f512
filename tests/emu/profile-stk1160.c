/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* profile-stk1160.c - `stk1160`: the common USB composite dongle
 * ("EasyCAP", stk1160 + saa7113).  Streaming and read(), UYVY only, at the
 * standard's size; inputs Composite0..3 and S-Video; PAL/NTSC; no
 * frame-size enumeration and no S_PARM.  Its sound is a separate USB audio
 * card (snd-usb-audio) under the same USB device.  Kernel sources
 * (drivers/media/usb/stk1160/):
 *  - stk1160-v4l.c vidioc_querycap(): VIDEO_CAPTURE | STREAMING | READWRITE
 *    (vb2 io_modes READ | MMAP | USERPTR | DMABUF, stk1160_vb2_setup());
 *  - stk1160-v4l.c format[] and vidioc_enum_fmt_vid_cap(): one format,
 *    UYVY (its description is the core's, v4l_fill_fmtdesc()); vidioc_g_fmt_vid_cap(): field INTERLACED, bytesperline 2 x width;
 *  - stk1160-v4l.c vidioc_s_std(): 720x480 for 525-line standards, 720x576
 *    otherwise; stk1160_video_register(): NTSC-M by default; v4l_template
 *    .tvnorms = V4L2_STD_525_60 | V4L2_STD_625_50 (the emulator lists the
 *    SDTV standards it knows, EMU_STD_SDTV);
 *  - stk1160-v4l.c vidioc_enum_input() and stk1160.h STK1160_MAX_INPUT /
 *    STK1160_SVIDEO_INPUT (4): "Composite0".."Composite3", "S-Video";
 *  - stk1160_ioctl_ops has no vidioc_enum_framesizes, no vidioc_g/s_parm:
 *    ENUM_FRAMESIZES and S_PARM give ENOTTY, and G_PARM is answered by the
 *    v4l2-ioctl.c core from the standard (v4l_g_parm()); the stream engine
 *    does the same for profiles whose size follows the standard (stream.c
 *    std_parm()).
 *  - stk1160_ioctl_ops has no vidioc_create_bufs and no vidioc_prepare_buf
 *    (vb2 handles REQBUFS, QUERYBUF, QBUF, DQBUF, STREAMON/OFF, EXPBUF):
 *    CREATE_BUFS and PREPARE_BUF give ENOTTY (v4l2-compliance warns
 *    "VIDIOC_CREATE_BUFS not supported" once per input, as on the driver);
 *  - stk1160-video.c stk1160_buffer_done(): `sequence` counts delivered
 *    frames only (a frame dropped for want of a buffer leaves no gap).
 * The emulator keeps 720 wide (the real chip decimates on S_FMT,
 * stk1160_try_fmt(); not modelled). */
#include "emu.h"

#include <errno.h>

static long
stk1160_ioctl (struct emu_file *f, unsigned long req, void *arg)
{
  if (req == VIDIOC_CREATE_BUFS || req == VIDIOC_PREPARE_BUF)
    return -ENOTTY;
  return emu_engine_stream.ioctl (f, req, arg);
}

/* the streaming engine without CREATE_BUFS / PREPARE_BUF (set at load) */
static struct emu_engine emu_engine_stk1160;

__attribute__((constructor))
static void
stk1160_engine_init (void)
{
  emu_engine_stk1160 = emu_engine_stream;
  emu_engine_stk1160.name = "stk1160";
  emu_engine_stk1160.ioctl = stk1160_ioctl;
}

#define STK_SIZES {                                                     \
    { 720, 480, { { 1001, 30000 } } },                                  \
    { 720, 576, { { 1, 25 } } },                                        \
  }

#define STK_INPUT(n, c) {.name = n,.type = V4L2_INPUT_TYPE_CAMERA,      \
    .std = EMU_STD_SDTV,                                                \
    .capabilities = V4L2_IN_CAP_STD,.content = (c)}

const struct emu_profile emu_profile_stk1160 = {
  .name = "stk1160",
  .summary = "USB composite dongle \"EasyCAP\" (stk1160): streaming and "
      "read(), UYVY, composite/s-video, no S_PARM",
  .driver = "stk1160",
  .card = "stk1160",
  .bus_info = "usb-0000:00:14.0-2",
  .caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING | V4L2_CAP_READWRITE,
  .buf_type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
  .inputs = {
        STK_INPUT ("Composite0", 1),
        STK_INPUT ("Composite1", 2),
        STK_INPUT ("Composite2", 1),
        STK_INPUT ("Composite3", 2),
        STK_INPUT ("S-Video", 0),
      },
  .def_std = V4L2_STD_NTSC_M,
  .ctrls = {
        {V4L2_CID_USER_CLASS, V4L2_CTRL_TYPE_CTRL_CLASS, "User Controls",
              0, 0, 0, 0, V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_WRITE_ONLY,
            {NULL}, false},
        /* the saa7113 decoder's controls (saa7115.c saa711x_probe()) */
        {V4L2_CID_BRIGHTNESS, V4L2_CTRL_TYPE_INTEGER, "Brightness",
            0, 255, 1, 128, V4L2_CTRL_FLAG_SLIDER, {NULL}, false},
        {V4L2_CID_CONTRAST, V4L2_CTRL_TYPE_INTEGER, "Contrast",
            0, 127, 1, 64, V4L2_CTRL_FLAG_SLIDER, {NULL}, false},
        {V4L2_CID_SATURATION, V4L2_CTRL_TYPE_INTEGER, "Saturation",
            0, 127, 1, 64, V4L2_CTRL_FLAG_SLIDER, {NULL}, false},
        {V4L2_CID_HUE, V4L2_CTRL_TYPE_INTEGER, "Hue",
            -128, 127, 1, 0, V4L2_CTRL_FLAG_SLIDER, {NULL}, false},
      },
  .formats = {
        {.pixelformat = V4L2_PIX_FMT_UYVY,
              .description = "UYVY 4:2:2",
            .size_follows_std = true,.sizes = STK_SIZES},
      },
  .seq_counts_delivered = true,   /* stk1160-video.c stk1160_buffer_done */
  .events = 0,
  .engine = &emu_engine_stk1160,
};
