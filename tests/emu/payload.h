/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* payload.h - the MPEG clips the MPEG engine streams (payload.c). */
#ifndef IVTV_EMU_PAYLOAD_H
#define IVTV_EMU_PAYLOAD_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#define EMU_CONTENT_BLACK (-1)

/* clip kinds, by V4L2_CID_MPEG_STREAM_TYPE value (V4L2_MPEG_STREAM_TYPE_*) */
#define EMU_CLIP_TYPES 7
#define EMU_CLIP_PS 0           /* MPEG-2 program stream, 2048-byte packs */
#define EMU_CLIP_TS 1           /* MPEG-2 transport stream */
#define EMU_CLIP_MPEG1 2        /* MPEG-1 system stream */
#define EMU_CLIP_DVD 3          /* DVD: 2048-byte packs with NAV packs */
#define EMU_CLIP_VCD 4          /* VCD: MPEG-1, 2324-byte packs */
#define EMU_CLIP_SVCD 5         /* SVCD: MPEG-2, 2324-byte packs */
#define EMU_CLIP_H264 6         /* TS of H.264 + AAC (hdpvr; profile .clip) */

struct emu_stamp
{
  size_t off;                   /* of a clock or time stamp field */
  int kind;
};

/* a transport stream's continuity counters: per PID, what one clip adds
 * (its payload packets, modulo 16), or what the loops so far added */
#define EMU_CC_PIDS 8
struct emu_cc
{
  uint16_t pid[EMU_CC_PIDS];
  uint8_t n[EMU_CC_PIDS];
  int count;
};

struct emu_clip
{
  const unsigned char *data;
  size_t len;
  struct emu_stamp *stamps;     /* payload-stamps.c, sorted by offset */
  size_t n_stamps;
  uint32_t dur90k;              /* what one loop adds to the clock */
  struct emu_cc cc;             /* TS: each PID's payload packets */
};

/* payload-stamps.c: find the clock and PTS/DTS fields (and a TS's
 * continuity counters) of a loaded clip; write into out (the bytes
 * [off, off + n) of the clip, as copied) those fields with add 90 kHz
 * ticks added and the counters advanced by cc (NULL: not) */
void emu_clip_scan (struct emu_clip *c, bool ts, bool pal);
void emu_clip_stamp_range (const struct emu_clip *c, size_t off, size_t n,
    uint64_t add, const struct emu_cc *cc, unsigned char *out);
/* after a clip of a TS was played through: its counters run on in `cc`
 * (an encoder's continuity counters do not start again, ISO 13818-1
 * 2.4.3.3: a jump is a discontinuity a reader reports as a loss) */
void emu_cc_played (struct emu_cc *cc, const struct emu_clip *c);

/* The clip for an input content (or EMU_CONTENT_BLACK: no signal), in the
 * 625-line (pal) or 525-line family, of stream type `type` (EMU_CLIP_*).
 * NULL (with a message on stderr, once) if the clip file is missing. */
const struct emu_clip *emu_clip_get (int content, bool pal, int type);

/* The same clip with its first EMU_MUTE_FRAMES audio frames silent (what
 * the encoder makes right after an input switch); the plain clip if it
 * cannot be made. */
#define EMU_MUTE_FRAMES 6       /* x 24 ms at 48 kHz = 144 ms */
const struct emu_clip *emu_clip_get_muted (int content, bool pal, int type);

/* payload-mute.c: a malloc'd copy of c with the first `frames` MPEG audio
 * frames silenced, or NULL */
unsigned char *emu_clip_mute (const struct emu_clip *c, bool ts, int frames);

#endif
