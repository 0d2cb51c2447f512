/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* vbi-gen.c - what the emulated VBI nodes carry: the CEA-608 caption
 * sequence (EMU_VBI_CAPTION_TEXT in caption channel CC1, pop-on, once every
 * two seconds), the WSS aspect of each input, and a raw VBI line with a
 * CEA-608 waveform sampled at the node's rate (for the raw VBI nodes that
 * libzvbi decodes).  Pure functions of the frame number: every open sees the
 * same sequence. */
#include "vbi.h"

#include <math.h>
#include <string.h>

static uint8_t
odd_parity (uint8_t c)
{
  uint8_t p = c & 0x7f, v = p;

  v ^= v >> 4;
  v ^= v >> 2;
  v ^= v >> 1;
  return (v & 1) ? p : (p | 0x80);
}

/* The CC1 pair of one frame, without parity: control codes are sent twice
 * (as caption encoders do), the text two characters a frame. */
static void
cc1_pair (uint64_t frame, uint8_t pair[2])
{
  static const uint8_t head[][2] = {
    {0x14, 0x20}, {0x14, 0x20},       /* RCL: resume caption loading */
    {0x14, 0x2e}, {0x14, 0x2e},       /* ENM: erase non-displayed memory */
    {0x14, 0x60}, {0x14, 0x60},       /* PAC: row 15, white */
  };
  static const uint8_t eoc[2] = { 0x14, 0x2f };  /* end of caption */
  const char *text = EMU_VBI_CAPTION_TEXT;
  size_t nhead = sizeof (head) / sizeof (head[0]);
  size_t ntext = (strlen (text) + 1) / 2;
  uint64_t i = frame % EMU_VBI_CAPTION_PERIOD;

  pair[0] = pair[1] = 0;
  if (i < nhead) {
    memcpy (pair, head[i], 2);
    return;
  }
  i -= nhead;
  if (i < ntext) {
    pair[0] = (uint8_t) text[2 * i];
    pair[1] = (uint8_t) text[2 * i + 1];      /* '\0' pads an odd length */
    return;
  }
  i -= ntext;
  if (i < 2)
    memcpy (pair, eoc, 2);
}

void
emu_vbi_cc_bytes (uint64_t frame, int field, uint8_t out[2])
{
  uint8_t pair[2] = { 0, 0 };

  if (field == 0)
    cc1_pair (frame, pair);
  out[0] = odd_parity (pair[0]);
  out[1] = odd_parity (pair[1]);
}

uint16_t
emu_vbi_wss (int content)
{
  /* ETSI EN 300 294 group 1, bits 0-3 (odd parity in bit 3): 0x8 "4:3
   * full format" (what ivtv_set_wss() sends by default), 0x7 "16:9 full
   * format (anamorphic)".  Content 3 (the pvr250's S-Video 2) is 16:9. */
  return content == 3 ? 0x0007 : 0x0008;
}

/* ---- raw VBI: the CEA-608 line ---- */

#define CC_BIT_RATE 503496.5    /* 32 x fH (15734.264 Hz) */
#define CC_START_S 10.5e-6      /* clock run-in starts 10.5 us after 0H */
#define LEVEL_BLANK 16.0        /* ITU-R BT.601 black */
#define LEVEL_HIGH (16.0 + 0.5 * 219.0) /* 50 IRE */

void
emu_vbi_cc_raw_line (uint8_t * line, uint32_t n, uint32_t rate,
    uint32_t offset, const uint8_t bytes[2])
{
  const double bit = 1.0 / CC_BIT_RATE;
  /* start bits 0 0 1, then both bytes LSB first */
  uint32_t bits = 0x4 | ((uint32_t) bytes[0] << 3) | ((uint32_t) bytes[1] << 11);
  uint32_t i;

  for (i = 0; i < n; i++) {
    double t = (double) (i + offset) / rate - CC_START_S;
    double v = LEVEL_BLANK;

    if (t >= 0 && t < 7 * bit) {
      /* seven cycles of the clock run-in sine */
      v += (LEVEL_HIGH - LEVEL_BLANK) * 0.5 * (1.0 - cos (2 * M_PI * t / bit));
    } else if (t >= 7 * bit) {
      int b = (int) ((t - 7 * bit) / bit);

      if (b < 19 && (bits >> b) & 1)
        v = LEVEL_HIGH;
    }
    line[i] = (uint8_t) lround (v);
  }
}
