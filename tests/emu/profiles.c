/* profiles.c - the list of emulated device profiles, for --profile/--list.
 * Streaming profiles (A2) are weak references: the list skips a profile
 * whose file is not built. */
#include "emu.h"

#include <string.h>

extern const struct emu_profile emu_profile_webcam __attribute__((weak));
extern const struct emu_profile emu_profile_tv_streaming __attribute__((weak));
