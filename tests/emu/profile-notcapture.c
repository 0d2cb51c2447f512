/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* profile-notcapture.c - `notcapture`: a V4L2 node that cannot capture
 * (the MPEG decoder output node of a PVR-350), for testing refusal paths. */
#include "emu.h"

const struct emu_profile emu_profile_notcapture = {
  .name = "notcapture",
  .summary = "Hauppauge PVR-350 MPEG decoder node: video output only, "
      "no VIDEO_CAPTURE",
  .driver = "ivtv",
  .card = "WinTV PVR 350",
  .bus_info = "PCI:0000:05:00.0",
  .caps = V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_READWRITE,
  .buf_type = V4L2_BUF_TYPE_VIDEO_OUTPUT,
  .inputs = {
        {.name = "S-Video + Composite",.type = V4L2_OUTPUT_TYPE_ANALOG,
            .std = EMU_STD_SDTV,.capabilities = V4L2_OUT_CAP_STD},
      },
  .def_std = V4L2_STD_NTSC_M,
  .ctrls = {
        {.id = V4L2_CID_USER_CLASS,.type = V4L2_CTRL_TYPE_CTRL_CLASS,
            .name = "User Controls"},
        {.id = V4L2_CID_AUDIO_MUTE,.type = V4L2_CTRL_TYPE_BOOLEAN,
            .name = "Mute",.min = 0,.max = 1,.step = 1,.def = 0},
      },
  .formats = {
        {.pixelformat = V4L2_PIX_FMT_MPEG,.description = "MPEG-1/2/4",
              .flags = V4L2_FMT_FLAG_COMPRESSED,.size_follows_std = true,
              .sizeimage = 128 * 1024,
            .sizes = {{.width = 720,.height = 480}}},
      },
  .engine = &emu_engine_sink,
};
