/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* stream-frames.c - the picture the emulated streaming devices show:
 * moving colour bars (one pattern per input) with the frame number drawn in
 * a box, as raw YUYV / UYVY / NV12 / HM12 frames and as MJPEG frames from a tiny baseline
 * JPEG encoder.  The encoder codes each 8x8 block by its DC coefficient only
 * (the block's colour, taken at its centre), so a frame costs next to no CPU
 * yet is a real JFIF image any decoder (jpegdec, avdec_mjpeg) accepts;
 * sampling 4:2:2 (MCU 16x8: Y0 Y1 Cb Cr) as USB webcams send.
 * Pure functions, no emulator state: the same (format, size, frame,
 * content) always gives the same bytes. */
#include "stream-frames.h"

#include <linux/videodev2.h>
#include <stdlib.h>
#include <string.h>

/* 75 % colour bars, BT.601 limited range: white yellow cyan green magenta
 * red blue black */
static const uint8_t bar_yuv[8][3] = {
  {180, 128, 128}, {162, 44, 142}, {131, 156, 44}, {112, 72, 58},
  {84, 184, 198}, {65, 100, 212}, {35, 212, 114}, {16, 128, 128},
};

static const uint8_t black_yuv[3] = { 16, 128, 128 };
static const uint8_t white_yuv[3] = { 235, 128, 128 };

/* 5x7 digits, one byte per row, bit 4 = leftmost column */
static const uint8_t digit_rows[10][7] = {
  {0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e},   /* 0 */
  {0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e},   /* 1 */
  {0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f},   /* 2 */
  {0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e},   /* 3 */
  {0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02},   /* 4 */
  {0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e},   /* 5 */
  {0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e},   /* 6 */
  {0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08},   /* 7 */
  {0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e},   /* 8 */
  {0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c},   /* 9 */
};

#define COUNTER_DIGITS 6

/* Size of one font pixel: a multiple of 8 so that the digits stay sharp in
 * the 8x8 blocks of the MJPEG frames. */
static uint32_t
font_scale (const struct emu_picture *pic)
{
  uint32_t s = 8 * (pic->height / 480 ? pic->height / 480 : 1);

  /* the box is (6 * 6 + 1) font pixels wide plus a margin */
  while (s > 1 && (COUNTER_DIGITS * 6 + 3) * s > pic->width)
    s /= 2;
  return s;
}

/* Counter box, in font pixels: starts at (1, 1), 6 digits of 5 columns with
 * one column of space around each, 7 rows plus one above and below. */
static int
counter_pixel (const struct emu_picture *pic, uint32_t x, uint32_t y, int *lit)
{
  uint32_t s = font_scale (pic);
  uint32_t fx = x / s, fy = y / s;
  uint32_t col, digit, value, i;

  if (fx < 1 || fy < 1 || fx >= 1 + COUNTER_DIGITS * 6 + 1 || fy >= 1 + 9)
    return 0;
  fx -= 1;
  fy -= 1;
  *lit = 0;
  if (fy == 0 || fy == 8)
    return 1;
  col = fx % 6;
  if (col == 0 || fx >= COUNTER_DIGITS * 6)
    return 1;
  value = (uint32_t) (pic->frame % 1000000);
  for (i = fx / 6; i < COUNTER_DIGITS - 1; i++)
    value /= 10;
  digit = value % 10;
  *lit = (digit_rows[digit][fy - 1] >> (5 - col)) & 1;
  return 1;
}

static void
copy3 (uint8_t dst[3], const uint8_t src[3])
{
  dst[0] = src[0];
  dst[1] = src[1];
  dst[2] = src[2];
}

void
emu_picture_pixel (const struct emu_picture *pic, uint32_t x, uint32_t y,
    uint8_t yuv[3])
{
  uint32_t w = pic->width ? pic->width : 1, h = pic->height ? pic->height : 1;
  uint32_t bar, cell;
  int lit;

  if (pic->black || pic->white) {
    copy3 (yuv, pic->white ? white_yuv : black_yuv);
    return;
  }
  if (counter_pixel (pic, x, y, &lit)) {
    copy3 (yuv, lit ? white_yuv : black_yuv);
    return;
  }
  switch (pic->content % 3) {
    case 0:                    /* vertical bars moving right */
      bar = (uint32_t) (((x + w - (pic->frame * (w / 64 + 1)) % w) % w) * 8
          / w);
      break;
    case 1:                    /* horizontal bars moving down */
      bar = (uint32_t) (((y + h - (pic->frame * (h / 64 + 1)) % h) % h) * 8
          / h);
      break;
    default:                   /* checkerboard moving diagonally */
      cell = h / 6 ? h / 6 : 1;
      bar = (uint32_t) ((((x + pic->frame * 2) / cell) +
              ((y + pic->frame * 2) / cell) * 3) % 8);
      break;
  }
  copy3 (yuv, bar_yuv[bar % 8]);
}

/* Rows that look the same: pattern 0 is the same on every row outside the
 * counter box; keying rows lets the raw drawer copy instead of redraw. */
static int64_t
row_key (const struct emu_picture *pic, uint32_t y)
{
  uint32_t s = font_scale (pic);

  if (pic->black || pic->white)
    return 0;
  if (y / s < 1 + 9)
    return -1;                  /* counter rows: always draw */
  if (pic->content % 3 == 0)
    return 1;
  return -1;
}

size_t
emu_frame_size (uint32_t fourcc, uint32_t width, uint32_t height)
{
  switch (fourcc) {
    case V4L2_PIX_FMT_YUYV:
    case V4L2_PIX_FMT_UYVY:
      return (size_t) width *2 * height;
    case V4L2_PIX_FMT_NV12:
    case V4L2_PIX_FMT_HM12:
      return (size_t) width *height * 3 / 2;
    case V4L2_PIX_FMT_MJPEG:
    case V4L2_PIX_FMT_JPEG:
      /* DC-only JPEG: at most ~6 bytes per 16x8 MCU, plus headers */
      return (size_t) width *height / 2 + 4096;
    default:
      return 0;
  }
}

static void
draw_packed (const struct emu_picture *pic, uint8_t * dst, int uyvy)
{
  size_t bpl = (size_t) pic->width * 2;
  int64_t prev_key = -1, key;
  uint32_t x, y;
  uint8_t a[3], b[3];

  for (y = 0; y < pic->height; y++) {
    uint8_t *row = dst + bpl * y;

    key = row_key (pic, y);
    if (y > 0 && key >= 0 && key == prev_key) {
      memcpy (row, row - bpl, bpl);
      continue;
    }
    prev_key = key;
    for (x = 0; x + 1 < pic->width; x += 2) {
      uint8_t *p = row + (size_t) x * 2;

      emu_picture_pixel (pic, x, y, a);
      emu_picture_pixel (pic, x + 1, y, b);
      if (uyvy) {
        p[0] = (uint8_t) ((a[1] + b[1]) / 2);
        p[1] = a[0];
        p[2] = (uint8_t) ((a[2] + b[2]) / 2);
        p[3] = b[0];
      } else {
        p[0] = a[0];
        p[1] = (uint8_t) ((a[1] + b[1]) / 2);
        p[2] = b[0];
        p[3] = (uint8_t) ((a[2] + b[2]) / 2);
      }
    }
  }
}

/* NV12: the Y plane, then Cb Cr interleaved at half size, each chroma
 * sample the one of the top-left pixel of its 2x2 block.  The ivtv/cx18
 * YUV node's HM12 is the same picture in 16x16 tiles (below). */
static void
draw_nv12 (const struct emu_picture *pic, uint8_t * dst)
{
  uint8_t *uv = dst + (size_t) pic->width * pic->height;
  uint32_t x, y;
  uint8_t c[3];

  for (y = 0; y < pic->height; y++)
    for (x = 0; x < pic->width; x++) {
      emu_picture_pixel (pic, x, y, c);
      dst[(size_t) y * pic->width + x] = c[0];
      if (!(x & 1) && !(y & 1)) {
        uint8_t *p = uv + (size_t) (y / 2) * pic->width + x;

        p[0] = c[1];
        p[1] = c[2];
      }
    }
}

/* HM12 (V4L2_PIX_FMT_NV12_16L16, the cx23415/6/8 YUV stream): the NV12
 * planes cut in 16x16-byte tiles, tile after tile left to right, then tile
 * rows top to bottom, each tile's 16 rows of 16 bytes in a row
 * (Documentation/userspace-api/media/v4l/pixfmt-yuv-planar.rst, "Tiled
 * NV12"; ivtv-fileops.c hands the firmware's buffer out as it is).  Width
 * and height multiples of 16 (32 for the chroma plane); 720x480/576 are. */
static void
tile_plane (const uint8_t * src, uint8_t * dst, uint32_t w, uint32_t h)
{
  uint32_t tx, ty, i;

  for (ty = 0; ty < h; ty += 16)
    for (tx = 0; tx < w; tx += 16)
      for (i = 0; i < 16 && ty + i < h; i++) {
        memcpy (dst, src + (size_t) (ty + i) * w + tx, 16);
        dst += 16;
      }
}

static void
draw_hm12 (const struct emu_picture *pic, uint8_t * dst)
{
  size_t ysize = (size_t) pic->width * pic->height;
  uint8_t *nv12 = malloc (ysize * 3 / 2);

  if (!nv12)
    return;
  draw_nv12 (pic, nv12);
  tile_plane (nv12, dst, pic->width, pic->height);
  tile_plane (nv12 + ysize, dst + ysize, pic->width, pic->height / 2);
  free (nv12);
}

/* ---- MJPEG ---- */

/* Huffman table for DC categories 0..11 (the usual luminance DC table of
 * the JPEG standard, Annex K): code counts per length 1..16 */
static const uint8_t dc_bits[16] = { 0, 1, 5, 1, 1, 1, 1, 1, 1 };

/* AC table with one symbol, EOB (0x00), code "0" */
static const uint8_t ac_bits[16] = { 1 };

struct jpeg_out
{
  uint8_t *p, *end;
  uint32_t acc;                 /* pending bits, most significant first */
  int nbits;
  int overflow;
  uint16_t dc_code[12];
  uint8_t dc_len[12];
};

static void
put_byte (struct jpeg_out *o, uint8_t b)
{
  if (o->p >= o->end) {
    o->overflow = 1;
    return;
  }
  *o->p++ = b;
}

static void
put_bytes (struct jpeg_out *o, const uint8_t * b, size_t n)
{
  size_t i;

  for (i = 0; i < n; i++)
    put_byte (o, b[i]);
}

static void
put_u16 (struct jpeg_out *o, uint32_t v)
{
  put_byte (o, (uint8_t) (v >> 8));
  put_byte (o, (uint8_t) v);
}

/* entropy-coded data: bytes 0xff get a stuffed 0x00 */
static void
put_bits (struct jpeg_out *o, uint32_t bits, int n)
{
  o->acc = (o->acc << n) | (bits & ((1u << n) - 1));
  o->nbits += n;
  while (o->nbits >= 8) {
    uint8_t b = (uint8_t) (o->acc >> (o->nbits - 8));

    put_byte (o, b);
    if (b == 0xff)
      put_byte (o, 0);
    o->nbits -= 8;
  }
}

static void
flush_bits (struct jpeg_out *o)
{
  if (o->nbits > 0)
    put_bits (o, 0x7f, 8 - o->nbits);   /* pad with 1 bits */
}

/* canonical Huffman codes from the per-length counts */
static void
make_dc_codes (struct jpeg_out *o)
{
  uint32_t code = 0;
  int len, i, sym = 0;

  for (len = 1; len <= 16; len++) {
    for (i = 0; i < dc_bits[len - 1] && sym < 12; i++, sym++) {
      o->dc_code[sym] = (uint16_t) code++;
      o->dc_len[sym] = (uint8_t) len;
    }
    code <<= 1;
  }
}

static void
put_block (struct jpeg_out *o, int value, int *pred)
{
  int diff = value - *pred;
  int mag = diff < 0 ? -diff : diff;
  int cat = 0;

  *pred = value;
  while (mag) {
    cat++;
    mag >>= 1;
  }
  put_bits (o, o->dc_code[cat], o->dc_len[cat]);
  if (cat)
    put_bits (o, (uint32_t) (diff < 0 ? diff - 1 : diff), cat);
  put_bits (o, 0, 1);           /* EOB: all AC coefficients are zero */
}

static void
put_headers (struct jpeg_out *o, uint32_t w, uint32_t h)
{
  static const uint8_t soi_app0[] = {
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 'J', 'F', 'I', 'F', 0x00,
    0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00
  };
  static const uint8_t sos[] = {
    0xff, 0xda, 0x00, 0x0c, 0x03, 0x01, 0x00, 0x02, 0x00, 0x03, 0x00,
    0x00, 0x3f, 0x00
  };
  uint8_t sym;
  int i;

  put_bytes (o, soi_app0, sizeof (soi_app0));

  /* DQT: one table, all 8 (the DC step that maps a flat block's
   * coefficient 8 * (v - 128) onto v - 128) */
  put_u16 (o, 0xffdb);
  put_u16 (o, 67);
  put_byte (o, 0);
  for (i = 0; i < 64; i++)
    put_byte (o, 8);

  /* SOF0: 8 bit, 3 components, Y 2x1, Cb 1x1, Cr 1x1, table 0 */
  put_u16 (o, 0xffc0);
  put_u16 (o, 17);
  put_byte (o, 8);
  put_u16 (o, h);
  put_u16 (o, w);
  put_byte (o, 3);
  put_bytes (o, (const uint8_t[]) {
        1, 0x21, 0, 2, 0x11, 0, 3, 0x11, 0
      }, 9);

  /* DHT: DC table 0 (12 symbols) and AC table 0 (EOB only) */
  put_u16 (o, 0xffc4);
  put_u16 (o, 2 + 17 + 12 + 17 + 1);
  put_byte (o, 0x00);
  put_bytes (o, dc_bits, 16);
  for (sym = 0; sym < 12; sym++)
    put_byte (o, sym);
  put_byte (o, 0x10);
  put_bytes (o, ac_bits, 16);
  put_byte (o, 0x00);

  put_bytes (o, sos, sizeof (sos));
}

size_t
emu_jpeg_encode (const struct emu_picture *pic, uint8_t * dst, size_t cap)
{
  struct jpeg_out o;
  int pred[3] = { 0, 0, 0 };
  uint32_t mx, my;

  if (pic->width % 16 || pic->height % 8 || !pic->width || !pic->height
      || pic->width > 65535 || pic->height > 65535)
    return 0;
  memset (&o, 0, sizeof (o));
  o.p = dst;
  o.end = dst + cap;
  make_dc_codes (&o);
  put_headers (&o, pic->width, pic->height);

  for (my = 0; my < pic->height / 8 && !o.overflow; my++) {
    for (mx = 0; mx < pic->width / 16; mx++) {
      uint32_t y = my * 8 + 4, x = mx * 16;
      uint8_t a[3], b[3];

      emu_picture_pixel (pic, x + 4, y, a);
      emu_picture_pixel (pic, x + 12, y, b);
      put_block (&o, a[0] - 128, &pred[0]);
      put_block (&o, b[0] - 128, &pred[0]);
      put_block (&o, (a[1] + b[1]) / 2 - 128, &pred[1]);
      put_block (&o, (a[2] + b[2]) / 2 - 128, &pred[2]);
    }
  }
  flush_bits (&o);
  put_u16 (&o, 0xffd9);
  if (o.overflow)
    return 0;
  return (size_t) (o.p - dst);
}

/* ---- entry point ---- */

size_t
emu_frame_draw (uint32_t fourcc, const struct emu_picture *pic, void *dst,
    size_t cap)
{
  size_t size = emu_frame_size (fourcc, pic->width, pic->height);

  if (size == 0 || pic->width < 2 || pic->height < 1)
    return 0;
  switch (fourcc) {
    case V4L2_PIX_FMT_YUYV:
    case V4L2_PIX_FMT_UYVY:
      if (cap < size)
        return 0;
      draw_packed (pic, dst, fourcc == V4L2_PIX_FMT_UYVY);
      return size;
    case V4L2_PIX_FMT_NV12:
    case V4L2_PIX_FMT_HM12:
      if (cap < size || pic->width % 16 || pic->height % 32)
        return 0;
      if (fourcc == V4L2_PIX_FMT_NV12)
        draw_nv12 (pic, dst);
      else
        draw_hm12 (pic, dst);
      return size;
    case V4L2_PIX_FMT_MJPEG:
    case V4L2_PIX_FMT_JPEG:
      return emu_jpeg_encode (pic, dst, cap);
    default:
      return 0;
  }
}
