/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* pcm-samples.c - the samples the emulated PCM nodes deliver (pcm.h); pure
 * functions, shared by the engine (pcm.c) and the checker (frame-check). */
#include "pcm.h"

int16_t
emu_pcm_sample (int content, uint64_t frame, int channel)
{
  /* a sawtooth of (content + 2) x 110 Hz, the right channel its inverse */
  uint32_t step = (uint32_t) ((content + 2) * 110) * 65536u / EMU_PCM_RATE;
  int16_t v = (int16_t) (uint16_t) (frame * step);

  if (content < 0)
    return 0;                   /* no signal: silence */
  return channel ? (int16_t) ~v : v;
}

void
emu_pcm_fill (int content, uint64_t byte_pos, uint8_t * dst, size_t n)
{
  size_t i;

  for (i = 0; i < n; i++) {
    uint64_t b = byte_pos + i;
    uint64_t frame = b / EMU_PCM_FRAME_BYTES;
    int ch = (int) (b / 2 % EMU_PCM_CHANNELS);
    uint16_t s = (uint16_t) emu_pcm_sample (content, frame, ch);

    dst[i] = (b & 1) ? (uint8_t) (s >> 8) : (uint8_t) s;
  }
}
