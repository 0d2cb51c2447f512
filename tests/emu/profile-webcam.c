/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* profile-webcam.c - the `webcam` profile: a UVC-like USB camera.  Streaming
 * I/O only (MMAP with EXPBUF, USERPTR, DMABUF import; read() fails with
 * EINVAL), YUYV and MJPEG at four sizes with several frame rates, one
 * "Camera 1" input, no standards, user controls.  Engine: stream.c. */
#include "emu.h"

#define IV(n, d) { n, d }
#define WEBCAM_SIZES(fast) {                                            \
    { 640, 480, { IV (1, 30), IV (1, 15), fast } },                     \
    { 320, 240, { IV (1, 30), IV (1, 15), fast } },                     \
    { 1280, 720, { IV (1, 30), IV (1, 15), IV (1, 10) } },              \
    { 1920, 1080, { IV (1, 30), IV (1, 15), IV (1, 5) } },              \
  }

const struct emu_profile emu_profile_webcam = {
  .name = "webcam",
  .summary = "USB webcam (uvcvideo-like): streaming only, YUYV + MJPEG, "
      "320x240..1920x1080, 5-60 fps",
  .driver = "uvcvideo",
  .card = "Emulated Webcam",
  .bus_info = "usb-0000:00:14.0-1",
  .caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING,
  .buf_type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
  .inputs = {
        {.name = "Camera 1",.type = V4L2_INPUT_TYPE_CAMERA,.content = 0},
      },
  .def_std = 0,
  .ctrls = {
        {V4L2_CID_USER_CLASS, V4L2_CTRL_TYPE_CTRL_CLASS, "User Controls",
              0, 0, 0, 0, V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_WRITE_ONLY,
            {NULL}, false},
        {V4L2_CID_BRIGHTNESS, V4L2_CTRL_TYPE_INTEGER, "Brightness",
            -64, 64, 1, 0, V4L2_CTRL_FLAG_SLIDER, {NULL}, false},
        {V4L2_CID_CONTRAST, V4L2_CTRL_TYPE_INTEGER, "Contrast",
            0, 95, 1, 32, V4L2_CTRL_FLAG_SLIDER, {NULL}, false},
        {V4L2_CID_SATURATION, V4L2_CTRL_TYPE_INTEGER, "Saturation",
            0, 100, 1, 64, V4L2_CTRL_FLAG_SLIDER, {NULL}, false},
        {V4L2_CID_HUE, V4L2_CTRL_TYPE_INTEGER, "Hue",
            -2000, 2000, 1, 0, V4L2_CTRL_FLAG_SLIDER, {NULL}, false},
        {V4L2_CID_POWER_LINE_FREQUENCY, V4L2_CTRL_TYPE_MENU,
              "Power Line Frequency", 0, 2, 1, 1, 0,
            {"Disabled", "50 Hz", "60 Hz"}, false},
        {V4L2_CID_SHARPNESS, V4L2_CTRL_TYPE_INTEGER, "Sharpness",
            0, 7, 1, 2, V4L2_CTRL_FLAG_SLIDER, {NULL}, false},
      },
  .formats = {
        {.pixelformat = V4L2_PIX_FMT_YUYV,.description = "YUYV 4:2:2",
            .sizes = WEBCAM_SIZES (IV (1, 60))},
        {.pixelformat = V4L2_PIX_FMT_MJPEG,.description = "Motion-JPEG",
              .flags = V4L2_FMT_FLAG_COMPRESSED,
            .sizes = WEBCAM_SIZES (IV (1, 60))},
      },
  .events = 0,
  .engine = &emu_engine_stream,
};
