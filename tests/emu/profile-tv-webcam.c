/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* profile-tv-webcam.c - the `tv-webcam` profile: a card whose formats
 * differ per input, modelled on the kernel's vivid driver
 * (drivers/media/test-drivers/vivid/vivid-vid-cap.c): input 0 is a webcam
 * with discrete sizes and frame intervals (vidioc_enum_framesizes(),
 * webcam_sizes[]), inputs 1 and 2 ("TV", "S-Video") capture at the
 * standard's size and rate, interlaced (vivid_update_format_cap()), with
 * no size enumeration (vivid without a scaler: vidioc_enum_framesizes()
 * returns EINVAL there).  READWRITE and STREAMING, YUYV.  Engine:
 * stream.c. */
#include "emu.h"

const struct emu_profile emu_profile_tv_webcam = {
  .name = "tv-webcam",
  .summary = "vivid-like card: a webcam input (320x180..1280x720) and "
      "SDTV inputs (720x480/576), read() and streaming",
  .driver = "tvcam",
  .card = "Emulated TV card with a webcam input",
  .bus_info = "platform:tvcam-000",
  .caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_TUNER | V4L2_CAP_READWRITE |
      V4L2_CAP_STREAMING,
  .buf_type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
  .inputs = {
        {.name = "Webcam 0",.type = V4L2_INPUT_TYPE_CAMERA,.content = 0},
        {.name = "TV 0",.type = V4L2_INPUT_TYPE_TUNER,.std = EMU_STD_SDTV,
              .tuner = 0,.capabilities = V4L2_IN_CAP_STD,.content = 1},
        {.name = "S-Video 0",.type = V4L2_INPUT_TYPE_CAMERA,
              .std = EMU_STD_SDTV,.capabilities = V4L2_IN_CAP_STD,
            .content = 2},
      },
  .def_std = V4L2_STD_PAL_BG,
  .tuner = {
        .name = "TV Tuner",
        .type = V4L2_TUNER_ANALOG_TV,
        .capability = V4L2_TUNER_CAP_NORM | V4L2_TUNER_CAP_STEREO |
            V4L2_TUNER_CAP_LANG1 | V4L2_TUNER_CAP_LANG2,
        .rangelow = 44 * 16,
        .rangehigh = 958 * 16,
        .rxsubchans = V4L2_TUNER_SUB_STEREO,
        .def_frequency = 8056,
      },
  .ctrls = {
        {V4L2_CID_USER_CLASS, V4L2_CTRL_TYPE_CTRL_CLASS, "User Controls",
              0, 0, 0, 0, V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_WRITE_ONLY,
            {NULL}, false},
        {V4L2_CID_BRIGHTNESS, V4L2_CTRL_TYPE_INTEGER, "Brightness",
            0, 255, 1, 128, V4L2_CTRL_FLAG_SLIDER, {NULL}, false},
      },
  .formats = {
        {.pixelformat = V4L2_PIX_FMT_YUYV,.description = "YUYV 4:2:2",
              .sizes = {
                  {320, 180, {{1, 30}, {1, 15}}},
                  {640, 360, {{1, 30}, {1, 15}}},
                  {640, 480, {{1, 30}, {1, 15}}},
                  {1280, 720, {{1, 30}, {1, 15}}},
                }},
      },
  .std_inputs_follow_std = true,
  .events = 0,
  .engine = &emu_engine_stream,
};
