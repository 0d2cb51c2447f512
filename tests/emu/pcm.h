/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* pcm.h - the samples of the emulated PCM nodes (pcm.c), for the engine and
 * the tests that compare a capture with them. */
#ifndef IVTV_EMU_PCM_H
#define IVTV_EMU_PCM_H

#include <stddef.h>
#include <stdint.h>

#define EMU_PCM_RATE 48000
#define EMU_PCM_CHANNELS 2
#define EMU_PCM_FRAME_BYTES 4   /* S16LE stereo */
#define EMU_PCM_BYTES_PER_S (EMU_PCM_RATE * EMU_PCM_FRAME_BYTES)

/* sample `frame` of `channel` (0 left, 1 right) for an input's content
 * (-1: no signal, silence) */
int16_t emu_pcm_sample (int content, uint64_t frame, int channel);
/* the S16LE stereo bytes from byte position `byte_pos` on */
void emu_pcm_fill (int content, uint64_t byte_pos, uint8_t * dst, size_t n);

#endif
