/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* vbi.h - the emulated VBI nodes (vbi.c) and what they carry (vbi-gen.c). */
#ifndef IVTV_EMU_VBI_H
#define IVTV_EMU_VBI_H

#include "emu.h"

/* The caption every emulated card carries in CC1 (pop-on), starting at
 * frame 0 and again every EMU_VBI_CAPTION_PERIOD frames. */
#define EMU_VBI_CAPTION_TEXT "Captions from the emulated card"
#define EMU_VBI_CAPTION_PERIOD 60

/* raw VBI sampling of one standard family */
struct emu_vbi_raw
{
  uint32_t rate, offset, samples;
  uint32_t start[2], count;
};

/* what a card's VBI node is */
struct emu_vbi_desc
{
  const char *what;             /* for --list and the docs */
  uint32_t caps;                /* device caps */
  bool sliced;                  /* SLICED_VBI_CAPTURE: CC on 525, WSS on 625 */
  bool raw;                     /* VBI_CAPTURE */
  struct emu_vbi_raw raw525, raw625;
  bool frame_counter;           /* ivtv: the last 4 bytes of a raw frame */
  uint32_t queue_bytes;         /* the driver's VBI buffers */
};

/* vbi-gen.c: field 0 = first field (line 21), field 1 = second (284) */
void emu_vbi_cc_bytes (uint64_t frame, int field, uint8_t out[2]);
uint16_t emu_vbi_wss (int content);
void emu_vbi_cc_raw_line (uint8_t * line, uint32_t n, uint32_t rate,
    uint32_t offset, const uint8_t bytes[2]);

#endif /* IVTV_EMU_VBI_H */
