/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* marks.c - a test tape for A/V sync: `marks=MS` makes a streaming node
 * show a white frame, and a PCM node beep (1 kHz, 40 ms), whenever a
 * multiple of MS milliseconds of CLOCK_MONOTONIC (the tape's time) begins,
 * so flash and beep are simultaneous at the source as on a sync test tape.
 * A streaming node with marks starts its frames on the frame period's grid
 * of the same clock, so the flash frame begins at the mark.  `clock-ppm=N`
 * gives a PCM node a crystal N ppm fast (negative: slow): its samples come
 * that much faster and each is taken at its own clock's time, as the ALSA
 * device of a USB dongle beside the video (100-300 ppm apart is normal);
 * the model of snd-aloop's "PCM Rate Shift 100000" control
 * (sound/drivers/aloop.c, loopback_rate_shift_put). */
#include "emu.h"
#include "marks.h"
#include "pcm.h"

#include <math.h>

#define BEEP_NS 40000000LL
#define BEEP_HZ 1000.0
#define BEEP_AMPLITUDE 16000.0

int64_t
emu_marks_period_ns (const struct emu_device *dev)
{
  return emu_fault_arg (dev, EMU_FAULT_MARKS) * 1000000LL;
}

bool
emu_marks_flash (int64_t period_ns, int64_t begin_ns, int64_t iv_ns)
{
  int64_t next;

  if (period_ns <= 0 || begin_ns < 0)
    return false;
  next = (begin_ns + period_ns - 1) / period_ns * period_ns;
  return next < begin_ns + iv_ns;
}

double
emu_marks_clock_scale (const struct emu_device *dev)
{
  return 1.0 + (double) emu_fault_arg (dev, EMU_FAULT_CLOCK_PPM) * 1e-6;
}

static int16_t
beep_at (int64_t period_ns, int64_t t_ns)
{
  int64_t into = t_ns % period_ns;

  if (t_ns < 0 || into >= BEEP_NS)
    return 0;
  return (int16_t) lrint (BEEP_AMPLITUDE * sin (2 * M_PI * BEEP_HZ *
          (double) into / 1e9));
}

void
emu_marks_pcm_fill (int64_t period_ns, int64_t t0_ns, double scale,
    uint64_t byte_pos, uint8_t * dst, size_t n)
{
  double ns_per_sample = 1e9 / (EMU_PCM_RATE * scale);
  size_t i;

  for (i = 0; i < n; i++) {
    uint64_t b = byte_pos + i;
    uint64_t frame = b / EMU_PCM_FRAME_BYTES;
    int64_t t = t0_ns + (int64_t) llround ((double) frame * ns_per_sample);
    uint16_t s = (uint16_t) beep_at (period_ns, t);

    dst[i] = (b & 1) ? (uint8_t) (s >> 8) : (uint8_t) s;
  }
}
