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
  .inputs = {PVR250_INPUTS},
  .audios = {PVR250_AUDIOS},
  IVTV_ENCODER,
  .vbi = &emu_vbi_ivtv_saa7115,
};

const struct emu_profile emu_profile_pvr150 = {
  .name = "pvr150",
  .summary = "Hauppauge WinTV PVR-150 (ivtv) MPEG encoder: read() only, "
      "Television/Composite/S-Video",
  .card = "WinTV PVR 150",
  .bus_info = "PCI:0000:04:00.0",
  .inputs = {PVR150_INPUTS},
  .audios = {PVR150_AUDIOS},
  IVTV_ENCODER,
  .vbi = &emu_vbi_ivtv_cx25840,
};
