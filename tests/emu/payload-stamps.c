/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* payload-stamps.c - keeps time running across the loops of a payload clip.
 * Each clip is a complete ~1 s stream whose clock (pack SCR or TS PCR) and
 * PES time stamps (PTS/DTS) start near zero; looped as it is, a 10 s
 * capture would claim to last one second.  A real encoder's clock runs on,
 * so the engine adds the clip's duration times the number of loops played
 * (per open: every open still streams the same bytes) to every clock and
 * time stamp as it copies bytes out (MPEG-2 and MPEG-1 pack and PES syntax:
 * an MPEG-1 pack's SCR has the layout of a PTS field).  emu_clip_scan() finds, once per clip,
 * where those fields are; emu_clip_stamp_range() rewrites the part of them
 * that falls into one copied range (a field may straddle two reads).  A
 * transport stream's continuity counters run on the same way: each loop
 * adds the clip's payload packets per PID (emu_cc_played). */
#include "payload.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum
{
  STAMP_PTS,                    /* 5-byte PES PTS/DTS */
  STAMP_SCR,                    /* 6-byte MPEG-2 pack SCR */
  STAMP_PCR,                    /* 6-byte TS PCR */
  STAMP_CC                      /* TS header byte 3: continuity counter */
};

static int
add (struct emu_clip *c, size_t *cap, size_t off, int kind)
{
  if (c->n_stamps == *cap) {
    size_t n = *cap ? *cap * 2 : 256;
    struct emu_stamp *s = realloc (c->stamps, n * sizeof (*s));

    if (!s)
      return -1;
    c->stamps = s;
    *cap = n;
  }
  c->stamps[c->n_stamps].off = off;
  c->stamps[c->n_stamps].kind = kind;
  c->n_stamps++;
  return 0;
}

/* the PTS/DTS of an MPEG-1 PES header at p: stuffing, STD buffer, then
 * '0010' PTS or '0011' PTS + DTS */
static int
scan_pes1 (struct emu_clip *c, size_t *cap, size_t at, size_t end)
{
  const unsigned char *p = c->data + at;
  size_t h = 6;

  while (at + h < end && p[h] == 0xff && h < 6 + 16)
    h++;
  if (at + h < end && (p[h] & 0xc0) == 0x40)
    h += 2;
  if (at + h + 5 > end)
    return 0;
  if ((p[h] & 0xf0) == 0x20 || (p[h] & 0xf0) == 0x30)
    if (add (c, cap, at + h, STAMP_PTS) < 0)
      return -1;
  if ((p[h] & 0xf0) == 0x30 && at + h + 10 <= end)
    if (add (c, cap, at + h + 5, STAMP_PTS) < 0)
      return -1;
  return 0;
}

/* the PTS/DTS of a PES header at p (p[0..2] = 00 00 01), if any */
static int
scan_pes (struct emu_clip *c, size_t *cap, size_t at, size_t end)
{
  const unsigned char *p = c->data + at;
  unsigned flags;

  if (at + 9 > end)
    return 0;
  if ((p[6] & 0xc0) != 0x80)
    return scan_pes1 (c, cap, at, end);
  flags = p[7] >> 6;
  if ((flags & 2) && at + 14 <= end && add (c, cap, at + 9, STAMP_PTS) < 0)
    return -1;
  if (flags == 3 && at + 19 <= end && add (c, cap, at + 14, STAMP_PTS) < 0)
    return -1;
  return 0;
}

static int
scan_ps (struct emu_clip *c, size_t *cap)
{
  const unsigned char *d = c->data;
  size_t i = 0;

  while (i + 4 <= c->len) {
    unsigned id;

    if (d[i] != 0 || d[i + 1] != 0 || d[i + 2] != 1) {
      i++;                      /* resynchronise */
      continue;
    }
    id = d[i + 3];
    if (id == 0xba && i + 12 <= c->len && (d[i + 4] & 0xf0) == 0x20) {
      /* MPEG-1 pack header: 12 bytes, SCR laid out as a PTS */
      if (add (c, cap, i + 4, STAMP_PTS) < 0)
        return -1;
      i += 12;
    } else if (id == 0xba) {    /* MPEG-2 pack header */
      if (i + 14 > c->len || (d[i + 4] & 0xc0) != 0x40)
        break;
      if (add (c, cap, i + 4, STAMP_SCR) < 0)
        return -1;
      i += 14 + (d[i + 13] & 7);
    } else if (id == 0xb9) {    /* program end */
      i += 4;
    } else if (id >= 0xbb) {    /* system header, PSM, PES packets */
      size_t len;

      if (i + 6 > c->len)
        break;
      len = ((size_t) d[i + 4] << 8) | d[i + 5];
      if ((id >= 0xc0 && id <= 0xef) || id == 0xbd)
        if (scan_pes (c, cap, i, i + 6 + len > c->len ? c->len : i + 6 + len)
            < 0)
          return -1;
      i += 6 + len;
    } else {
      i++;
    }
  }
  return 0;
}

static int
scan_ts (struct emu_clip *c, size_t *cap)
{
  const unsigned char *d = c->data;
  size_t i;

  for (i = 0; i + 188 <= c->len; i += 188) {
    const unsigned char *p = d + i;
    size_t pay = 4;

    if (p[0] != 0x47)
      break;
    if ((p[3] & 0x10) && (((p[1] & 0x1f) << 8 | p[2]) != 0x1fff)) {
      unsigned pid = (p[1] & 0x1f) << 8 | p[2];
      int k;

      for (k = 0; k < c->cc.count && c->cc.pid[k] != pid; k++);
      if (k == c->cc.count && k < EMU_CC_PIDS) {
        c->cc.pid[k] = pid;
        c->cc.n[k] = 0;
        c->cc.count++;
      }
      if (k < c->cc.count)
        c->cc.n[k] = (c->cc.n[k] + 1) & 15;
      if (add (c, cap, i + 3, STAMP_CC) < 0)
        return -1;
    }
    if (p[3] & 0x20) {          /* adaptation field */
      unsigned alen = p[4];

      if (alen > 0 && (p[5] & 0x10) && alen >= 7
          && add (c, cap, i + 6, STAMP_PCR) < 0)
        return -1;
      pay = 5 + alen;
    }
    if ((p[1] & 0x40) && (p[3] & 0x10) && pay + 9 <= 188
        && p[pay] == 0 && p[pay + 1] == 0 && p[pay + 2] == 1) {
      unsigned id = p[pay + 3];

      if (((id >= 0xc0 && id <= 0xef) || id == 0xbd)
          && scan_pes (c, cap, i + pay, i + 188) < 0)
        return -1;
    }
  }
  return 0;
}

void
emu_clip_scan (struct emu_clip *c, bool ts, bool pal)
{
  size_t cap = 0;

  c->stamps = NULL;
  c->n_stamps = 0;
  memset (&c->cc, 0, sizeof (c->cc));
  /* 30 frames of 30000/1001 or 25 frames of 25 Hz, in 90 kHz ticks */
  c->dur90k = pal ? 90000 : 30 * 3003;
  if ((ts ? scan_ts (c, &cap) : scan_ps (c, &cap)) < 0) {
    free (c->stamps);
    c->stamps = NULL;
    c->n_stamps = 0;
  }
}

/* the field of `kind` at f (original bytes) with `add` 90 kHz ticks added */
static void
patch (const unsigned char *f, int kind, uint64_t add, unsigned char *o)
{
  uint64_t t;

  if (kind == STAMP_PTS) {
    t = ((uint64_t) (f[0] & 0x0e) << 29) | ((uint64_t) f[1] << 22)
        | ((uint64_t) (f[2] & 0xfe) << 14) | ((uint64_t) f[3] << 7)
        | (f[4] >> 1);
    t = (t + add) & ((1ULL << 33) - 1);
    o[0] = (f[0] & 0xf1) | ((t >> 29) & 0x0e);
    o[1] = (t >> 22) & 0xff;
    o[2] = ((t >> 14) & 0xfe) | 1;
    o[3] = (t >> 7) & 0xff;
    o[4] = ((t << 1) & 0xfe) | 1;
  } else if (kind == STAMP_SCR) {
    t = ((uint64_t) (f[0] & 0x38) << 27) | ((uint64_t) (f[0] & 0x03) << 28)
        | ((uint64_t) f[1] << 20) | ((uint64_t) (f[2] & 0xf8) << 12)
        | ((uint64_t) (f[2] & 0x03) << 13) | ((uint64_t) f[3] << 5)
        | (f[4] >> 3);
    t = (t + add) & ((1ULL << 33) - 1);
    o[0] = 0x44 | ((t >> 27) & 0x38) | ((t >> 28) & 0x03);
    o[1] = (t >> 20) & 0xff;
    o[2] = ((t >> 12) & 0xf8) | 0x04 | ((t >> 13) & 0x03);
    o[3] = (t >> 5) & 0xff;
    o[4] = ((t << 3) & 0xf8) | 0x04 | (f[4] & 0x03);
    o[5] = f[5];
  } else {
    t = ((uint64_t) f[0] << 25) | ((uint64_t) f[1] << 17)
        | ((uint64_t) f[2] << 9) | ((uint64_t) f[3] << 1) | (f[4] >> 7);
    t = (t + add) & ((1ULL << 33) - 1);
    o[0] = (t >> 25) & 0xff;
    o[1] = (t >> 17) & 0xff;
    o[2] = (t >> 9) & 0xff;
    o[3] = (t >> 1) & 0xff;
    o[4] = ((t << 7) & 0x80) | (f[4] & 0x7f);
    o[5] = f[5];
  }
}

/* what `cc` adds to the counter of `pid` */
static unsigned
cc_add (const struct emu_cc *cc, unsigned pid)
{
  int k;

  for (k = 0; cc && k < cc->count; k++)
    if (cc->pid[k] == pid)
      return cc->n[k];
  return 0;
}

void
emu_cc_played (struct emu_cc *cc, const struct emu_clip *c)
{
  int i, k;

  for (i = 0; i < c->cc.count; i++) {
    for (k = 0; k < cc->count && cc->pid[k] != c->cc.pid[i]; k++);
    if (k == cc->count && k < EMU_CC_PIDS) {
      cc->pid[k] = c->cc.pid[i];
      cc->n[k] = 0;
      cc->count++;
    }
    if (k < cc->count)
      cc->n[k] = (cc->n[k] + c->cc.n[i]) & 15;
  }
}

void
emu_clip_stamp_range (const struct emu_clip *c, size_t off, size_t n,
    uint64_t add, const struct emu_cc *cc, unsigned char *out)
{
  size_t lo = 0, hi = c->n_stamps;
  bool counters = false;
  int k;

  for (k = 0; cc && k < cc->count; k++)
    counters |= cc->n[k] != 0;
  if ((add == 0 && !counters) || n == 0)
    return;
  /* the first field that ends after off (fields are at most 6 bytes) */
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;

    if (c->stamps[mid].off + 6 <= off)
      lo = mid + 1;
    else
      hi = mid;
  }
  for (; lo < c->n_stamps && c->stamps[lo].off < off + n; lo++) {
    const struct emu_stamp *s = &c->stamps[lo];
    size_t w = s->kind == STAMP_PTS ? 5 : s->kind == STAMP_CC ? 1 : 6, j;
    unsigned char o[6];

    if (s->off + w > c->len)
      continue;
    if (s->kind == STAMP_CC) {
      const unsigned char *h = c->data + s->off - 3;

      o[0] = (h[3] & 0xf0) | ((h[3] + cc_add (cc,
                  (h[1] & 0x1f) << 8 | h[2])) & 15);
    } else if (add == 0)
      continue;
    else
      patch (c->data + s->off, s->kind, add, o);
    for (j = 0; j < w; j++)
      if (s->off + j >= off && s->off + j < off + n)
        out[s->off + j - off] = o[j];
  }
}
