/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* payload-mute.c - the "audio muted during an input switch" copy of a
 * payload clip: as ivtv mutes the encoder's audio for ~100 ms while it
 * switches inputs (ivtv_mute()/ivtv_unmute() around the routing change),
 * the first EMU_MUTE_FRAMES MPEG-1 Layer II audio frames of the clip are
 * made silent (every bit allocation zero: a valid frame that decodes to
 * silence).  Works on program streams (audio PES 0xC0-0xDF) and transport
 * streams (the PID that carries such PES); the video is untouched. */
#include "emu.h"
#include "payload.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* a byte stream scattered over a buffer: the pieces in order */
struct segs
{
  size_t *off, *len;
  size_t n, cap, total;
};

static bool
segs_add (struct segs *s, size_t off, size_t len)
{
  if (len == 0)
    return true;
  if (s->n == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 256;
    size_t *o = realloc (s->off, cap * sizeof (*o));
    size_t *l;

    if (!o)
      return false;
    s->off = o;
    l = realloc (s->len, cap * sizeof (*l));
    if (!l)
      return false;
    s->len = l;
    s->cap = cap;
  }
  s->off[s->n] = off;
  s->len[s->n] = len;
  s->n++;
  s->total += len;
  return true;
}

static void
segs_free (struct segs *s)
{
  free (s->off);
  free (s->len);
  memset (s, 0, sizeof (*s));
}

static unsigned char *
gather (const unsigned char *src, const struct segs *s)
{
  unsigned char *out = malloc (s->total ? s->total : 1), *p = out;
  size_t i;

  for (i = 0; out && i < s->n; i++) {
    memcpy (p, src + s->off[i], s->len[i]);
    p += s->len[i];
  }
  return out;
}

static void
scatter (unsigned char *dst, const struct segs *s, const unsigned char *in)
{
  size_t i;

  for (i = 0; i < s->n; i++) {
    memcpy (dst + s->off[i], in, s->len[i]);
    in += s->len[i];
  }
}

/* header length of the PES packet at d (MPEG-2 or MPEG-1 syntax) */
static size_t
pes_header_len (const unsigned char *d, size_t avail)
{
  size_t h = 6;

  if (avail < 9)
    return avail;
  if ((d[6] & 0xc0) == 0x80)
    return 9 + d[8];
  while (h < avail && d[h] == 0xff)
    h++;
  if (h < avail && (d[h] & 0xc0) == 0x40)
    h += 2;
  if (h < avail && (d[h] & 0xf0) == 0x20)
    return h + 5;
  if (h < avail && (d[h] & 0xf0) == 0x30)
    return h + 10;
  return h + 1;
}

static bool
is_audio_pes (const unsigned char *d)
{
  return d[0] == 0 && d[1] == 0 && d[2] == 1 && d[3] >= 0xc0 && d[3] <= 0xdf;
}

/* audio elementary-stream pieces of a sequence of PES packets */
static bool
pes_audio_segs (const unsigned char *d, size_t n, struct segs *out)
{
  size_t i = 0;

  while (i + 6 <= n) {
    size_t plen, end, h;

    if (d[i] != 0 || d[i + 1] != 0 || d[i + 2] != 1) {
      i++;
      continue;
    }
    if (d[i + 3] == 0xba) {     /* pack header */
      i += (d[i + 4] & 0xc0) == 0x40 && i + 14 <= n ? 14 + (d[i + 13] & 7) : 12;
      continue;
    }
    if (d[i + 3] < 0xbb) {
      i += 4;
      continue;
    }
    plen = (size_t) d[i + 4] << 8 | d[i + 5];
    end = plen ? i + 6 + plen : n;
    if (end > n)
      end = n;
    if (is_audio_pes (d + i)) {
      h = pes_header_len (d + i, end - i);
      if (i + h < end && !segs_add (out, i + h, end - i - h))
        return false;
    }
    i = end;
  }
  return true;
}

/* payload pieces of the TS packets that carry the audio PES */
static bool
ts_audio_segs (const unsigned char *d, size_t n, struct segs *out)
{
  int pid = -1;
  size_t i;

  for (i = 0; i + 188 <= n; i += 188) {
    int p = (d[i + 1] & 0x1f) << 8 | d[i + 2];
    size_t start = 4;

    if (d[i] != 0x47 || !(d[i + 3] & 0x10))
      continue;
    if (d[i + 3] & 0x20)
      start += 1 + d[i + 4];
    if (start >= 188)
      continue;
    if (pid < 0 && (d[i + 1] & 0x40) && start + 4 <= 188 &&
        is_audio_pes (d + i + start))
      pid = p;
    if (p == pid && !segs_add (out, i + start, 188 - start))
      return false;
  }
  return true;
}

/* silences the first `frames` Layer II frames of an audio ES */
static int
silence_mp2 (unsigned char *e, size_t m, int frames)
{
  static const int br1[] = { 0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192,
    224, 256, 320, 384
  };
  static const int br2[] = { 0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112,
    128, 144, 160
  };
  static const int sr1[] = { 44100, 48000, 32000 };
  size_t j = 0;
  int done = 0;

  while (j + 4 <= m && done < frames) {
    int ver, bri, sri, pad, crc, br, sr;
    size_t flen, body;

    if (e[j] != 0xff || (e[j + 1] & 0xe6) != 0xe4) {    /* sync, layer II */
      j++;
      continue;
    }
    ver = (e[j + 1] >> 3) & 3;  /* 3: MPEG-1, 2: MPEG-2 LSF */
    crc = !(e[j + 1] & 1);
    bri = e[j + 2] >> 4;
    sri = (e[j + 2] >> 2) & 3;
    pad = (e[j + 2] >> 1) & 1;
    if ((ver != 3 && ver != 2) || bri == 0 || bri == 15 || sri == 3) {
      j++;
      continue;
    }
    br = ver == 3 ? br1[bri] : br2[bri];
    sr = ver == 3 ? sr1[sri] : sr1[sri] / 2;
    flen = (size_t) (144000 * br / sr) + (size_t) pad;
    body = 4 + (crc ? 2 : 0);
    if (flen <= body || j + flen > m)
      break;
    memset (e + j + body, 0, flen - body);
    j += flen;
    done++;
  }
  return done;
}

unsigned char *
emu_clip_mute (const struct emu_clip *c, bool ts, int frames)
{
  struct segs outer = { 0 }, inner = { 0 };
  unsigned char *copy = malloc (c->len), *l1 = NULL, *l2 = NULL;
  bool ok;

  if (!copy)
    return NULL;
  memcpy (copy, c->data, c->len);
  if (ts) {
    /* TS payloads -> the PES sequence -> its audio ES, and back */
    ok = ts_audio_segs (copy, c->len, &outer) &&
        (l1 = gather (copy, &outer)) &&
        pes_audio_segs (l1, outer.total, &inner) && (l2 = gather (l1, &inner));
    if (ok) {
      silence_mp2 (l2, inner.total, frames);
      scatter (l1, &inner, l2);
      scatter (copy, &outer, l1);
    }
  } else {
    ok = pes_audio_segs (copy, c->len, &inner) && (l2 = gather (copy, &inner));
    if (ok) {
      silence_mp2 (l2, inner.total, frames);
      scatter (copy, &inner, l2);
    }
  }
  free (l1);
  free (l2);
  segs_free (&outer);
  segs_free (&inner);
  if (!ok) {
    free (copy);
    return NULL;
  }
  return copy;
}
