/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* profile-tv-streaming.c - the `tv-streaming` profile: an SDTV capture card
 * like bttv / saa7134.  READWRITE (whole frames per read()) and STREAMING,
 * YUYV and UYVY at the standard's size (720x576 for 625-line, 720x480 for
 * 525-line standards), inputs Television (tuner) / Composite1 / S-Video,
 * SDTV standards, a TV tuner, user controls.  Engine: stream.c. */
#include "emu.h"

#define TV_SIZES {                                                      \
    { 720, 576, { { 1, 25 } } },                                        \
    { 720, 480, { { 1001, 30000 } } },                                  \
  }

const struct emu_profile emu_profile_tv_streaming = {
  .name = "tv-streaming",
  .summary = "SDTV capture card (bttv/saa7134-like): read() and streaming, "
      "YUYV/UYVY 720x576/720x480, tuner",
  .driver = "bttv",
  .card = "Emulated BT878 TV card",
  .bus_info = "PCI:0000:03:00.0",
  .caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_TUNER | V4L2_CAP_READWRITE |
      V4L2_CAP_STREAMING,
  .buf_type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
  .inputs = {
        {.name = "Television",.type = V4L2_INPUT_TYPE_TUNER,
              .std = EMU_STD_SDTV,.tuner = 0,.capabilities = V4L2_IN_CAP_STD,
            .content = 0},
        {.name = "Composite1",.type = V4L2_INPUT_TYPE_CAMERA,
              .std = EMU_STD_SDTV,.capabilities = V4L2_IN_CAP_STD,
            .content = 1},
        {.name = "S-Video",.type = V4L2_INPUT_TYPE_CAMERA,
              .std = EMU_STD_SDTV,.capabilities = V4L2_IN_CAP_STD,
            .content = 2},
      },
  .def_std = V4L2_STD_PAL_BG,
  .tuner = {
        .name = "Television",
        .type = V4L2_TUNER_ANALOG_TV,
        .capability = V4L2_TUNER_CAP_NORM | V4L2_TUNER_CAP_STEREO |
            V4L2_TUNER_CAP_LANG1 | V4L2_TUNER_CAP_LANG2,
        .rangelow = 44 * 16,
        .rangehigh = 958 * 16,
        .rxsubchans = V4L2_TUNER_SUB_STEREO,
        .def_frequency = 8056,  /* 503.5 MHz */
      },
  .ctrls = {
        {V4L2_CID_USER_CLASS, V4L2_CTRL_TYPE_CTRL_CLASS, "User Controls",
              0, 0, 0, 0, V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_WRITE_ONLY,
            {NULL}, false},
        {V4L2_CID_BRIGHTNESS, V4L2_CTRL_TYPE_INTEGER, "Brightness",
            0, 65280, 256, 32768, V4L2_CTRL_FLAG_SLIDER, {NULL}, false},
        {V4L2_CID_CONTRAST, V4L2_CTRL_TYPE_INTEGER, "Contrast",
            0, 65280, 128, 27648, V4L2_CTRL_FLAG_SLIDER, {NULL}, false},
        {V4L2_CID_SATURATION, V4L2_CTRL_TYPE_INTEGER, "Saturation",
            0, 65280, 128, 32768, V4L2_CTRL_FLAG_SLIDER, {NULL}, false},
        {V4L2_CID_HUE, V4L2_CTRL_TYPE_INTEGER, "Hue",
            0, 65280, 256, 32768, V4L2_CTRL_FLAG_SLIDER, {NULL}, false},
        /* saa7134's mirror: V4L2_CID_HFLIP 0..1, default 0, in
         * saa7134_video_init1() (drivers/media/pci/saa7134/saa7134-video.c);
         * no VFLIP there */
        {V4L2_CID_HFLIP, V4L2_CTRL_TYPE_BOOLEAN, "Horizontal Flip",
            0, 1, 1, 0, 0, {NULL}, false},
        {V4L2_CID_AUDIO_MUTE, V4L2_CTRL_TYPE_BOOLEAN, "Mute",
            0, 1, 1, 0, 0, {NULL}, false},
      },
  .formats = {
        {.pixelformat = V4L2_PIX_FMT_YUYV,.description = "YUYV 4:2:2",
            .size_follows_std = true,.sizes = TV_SIZES},
        {.pixelformat = V4L2_PIX_FMT_UYVY,.description = "UYVY 4:2:2",
            .size_follows_std = true,.sizes = TV_SIZES},
      },
  .events = 0,
  .engine = &emu_engine_stream,
  .vbi = &emu_vbi_raw_saa7134,
};
