/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* profiles.c - the list of emulated device profiles, for --profile/--list.
 * Streaming profiles (A2) are weak references: the list skips a profile
 * whose file is not built. */
#include "emu.h"

#include <string.h>

extern const struct emu_profile emu_profile_webcam __attribute__((weak));
extern const struct emu_profile emu_profile_tv_streaming __attribute__((weak));
extern const struct emu_profile emu_profile_tv_webcam __attribute__((weak));
extern const struct emu_profile emu_profile_pvrusb2;
extern const struct emu_profile emu_profile_stk1160;
extern const struct emu_profile emu_profile_usbtv;
extern const struct emu_profile emu_profile_hdpvr;
extern const struct emu_profile emu_profile_cx18, emu_profile_cx18_yuv,
    emu_profile_cx18_pcm;
extern const struct emu_profile emu_profile_pvr250_yuv, emu_profile_pvr250_pcm,
    emu_profile_pvr250_radio, emu_profile_pvr150_yuv, emu_profile_pvr150_pcm;

const struct emu_profile *const emu_profiles[] = {
  &emu_profile_pvr250,
  &emu_profile_pvr150,
  &emu_profile_pvr250_yuv,
  &emu_profile_pvr250_pcm,
  &emu_profile_pvr250_radio,
  &emu_profile_pvr150_yuv,
  &emu_profile_pvr150_pcm,
  &emu_profile_cx18,
  &emu_profile_cx18_yuv,
  &emu_profile_cx18_pcm,
  &emu_profile_pvrusb2,
  &emu_profile_hdpvr,
  &emu_profile_webcam,
  &emu_profile_tv_streaming,
  &emu_profile_tv_webcam,
  &emu_profile_stk1160,
  &emu_profile_usbtv,
  &emu_profile_notcapture,
};

const int emu_n_profiles = sizeof (emu_profiles) / sizeof (emu_profiles[0]);

const struct emu_profile *
emu_profile_find (const char *name)
{
  int i;

  for (i = 0; i < emu_n_profiles; i++)
    if (emu_profiles[i] && strcmp (emu_profiles[i]->name, name) == 0)
      return emu_profiles[i];
  return NULL;
}
