/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* marks.h - sync marks and clock skew for the A/V tests (marks.c) */
#ifndef EMU_MARKS_H
#define EMU_MARKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct emu_device;

/* the mark period in ns, 0 when the device has no `marks` */
int64_t emu_marks_period_ns (const struct emu_device *dev);
/* a frame that spans [begin_ns, begin_ns + iv_ns) of the tape's time shows
 * the flash when a mark falls in it */
bool emu_marks_flash (int64_t period_ns, int64_t begin_ns, int64_t iv_ns);
/* the device's crystal: 1 + clock-ppm / 1e6 */
double emu_marks_clock_scale (const struct emu_device *dev);
/* S16LE stereo bytes [byte_pos, byte_pos + n) of an audio device whose
 * sample 0 was taken at t0_ns and whose clock runs `scale` times fast:
 * silence, with a 1 kHz beep of 40 ms at every mark */
void emu_marks_pcm_fill (int64_t period_ns, int64_t t0_ns, double scale,
    uint64_t byte_pos, uint8_t * dst, size_t n);

#endif /* EMU_MARKS_H */
