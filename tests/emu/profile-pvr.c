/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* profile-pvr.c - the read()-only MPEG encoder cards: `pvr250` (Hauppauge
 * WinTV PVR-250, ivtv /dev/video0) and `pvr150` (PVR-150, other inputs).
 * Facts follow the kernel's ivtv driver and the cx2341x encoder controls. */
#include "profile-pvr.h"

const struct emu_profile emu_profile_pvr250 = {
  .name = "pvr250",
  .summary = "Hauppauge WinTV PVR-250 (ivtv) MPEG encoder: read() only, "
      "5 inputs, tuner, MPEG-2 PS",
  .card = "WinTV PVR 250",
  .bus_info = "PCI:0000:03:01.0",
  .inputs = {
        TUNER_INPUT ("Tuner 1"),
        LINE_INPUT ("S-Video 1", 1, 1),
        LINE_INPUT ("Composite 1", 1, 2),
        LINE_INPUT ("S-Video 2", 2, 3),
        LINE_INPUT ("Composite 2", 2, 4),
      },
  .audios = {
        {.name = "Tuner 1",.capability = V4L2_AUDCAP_STEREO},
        {.name = "Line In 1",.capability = V4L2_AUDCAP_STEREO},
        {.name = "Line In 2",.capability = V4L2_AUDCAP_STEREO},
      },
  IVTV_ENCODER,
};

const struct emu_profile emu_profile_pvr150 = {
  .name = "pvr150",
  .summary = "Hauppauge WinTV PVR-150 (ivtv) MPEG encoder: read() only, "
      "Television/Composite/S-Video",
  .card = "WinTV PVR 150",
  .bus_info = "PCI:0000:04:00.0",
  .inputs = {
        TUNER_INPUT ("Television"),
        LINE_INPUT ("Composite 1", 1, 2),
        LINE_INPUT ("S-Video 1", 1, 1),
      },
  .audios = {
        {.name = "Television",.capability = V4L2_AUDCAP_STEREO},
        {.name = "Line In",.capability = V4L2_AUDCAP_STEREO},
      },
  IVTV_ENCODER,
};
