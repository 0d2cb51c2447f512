/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* dev-usbtv.c - a Fushicai USBTV007 "EasyCAP" (1b71:3002) for the kernel's
 * usbtv driver (drivers/media/usb/usbtv): the interface usbtv_probe
 * accepts (two altsettings, four endpoints in the second), register
 * writes (usbtv_set_regs, vendor request 12) and reads (controls, request
 * 11), and isochronous video on 0x81 in usbtv-video.c's packet format:
 * 3072-byte packets of three 1024-byte chunks, each a big-endian header
 * (0x88 magic, frame id, odd bit 15, chunk number) and 960 bytes of YUYV
 * (usbtv_iso_cb, usbtv_image_chunk, usbtv_chunk_to_vbuf), the even field
 * (odd = 0) then the odd one, 360 chunks each at 720x480, 29.97 frames a
 * second.  Frame n's picture is known in advance (usbtv_frame() below and
 * guest/usbtv.py's twin): a 16-bit counter in the first pixels of every
 * line, a grey level per frame and field.  The audio endpoint 0x83 is
 * present (usbtv-audio.c registers its ALSA card at probe) but carries no
 * samples: its URBs stay pending. */
#include "usbdev.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define W 720
#define H 480
#define CHUNK_DATA 960          /* USBTV_CHUNK words x 4 */
#define CHUNK_SIZE 1024         /* header + data + padding */
#define NCHUNKS (W * H * 2 / 2 / CHUNK_DATA)    /* per field: 360 */

struct usbtv
{
  int streaming;
  double t0;
  uint32_t burst_to;             /* "burst N": unpaced up to this frame */
  uint64_t chunks;              /* chunks sent since the stream began */
  uint32_t frame;               /* frame counter of the picture */
  uint8_t field[2][W * H];      /* the current frame's two fields */
};

static const uint8_t dev_desc[18] = {
  18, 1, 0x00, 0x02, 0, 0, 0, 64, 0x71, 0x1b, 0x02, 0x30, 0x00, 0x01,
  1, 2, 0, 1
};

/* interface 0: alt 0 without endpoints, alt 1 with four (usbtv_probe:
 * num_altsetting == 2, altsetting[1] has 4 endpoints, the first is the
 * video one and its size is maxp x mult: 0x1400 = 1024 x 3) */
static const uint8_t config_desc[9 + 9 + 9 + 4 * 7] = {
  9, 2, sizeof config_desc, 0, 1, 1, 0, 0x80, 250,
  9, 4, 0, 0, 0, 0xff, 0, 0, 0,
  9, 4, 0, 1, 4, 0xff, 0, 0, 0,
  7, 5, 0x81, 0x05, 0x00, 0x14, 1,      /* ISO in, 3 x 1024 */
  7, 5, 0x83, 0x02, 0x00, 0x02, 0,      /* bulk in: audio */
  7, 5, 0x02, 0x02, 0x00, 0x02, 0,
  7, 5, 0x84, 0x03, 0x08, 0x00, 4,
};

static const uint8_t qualifier[10] = { 10, 6, 0x00, 0x02, 0, 0, 0, 64, 1, 0 };

static const char *const strings[] = { "fushicai", "USBTV007", NULL };

/* the picture of frame n: line r belongs to the top field when r is even;
 * its first 16 pixels carry n's bits (MSB first) as luma 40/220 (top) or
 * 60/200 (bottom), the rest a grey level of the frame and field; no byte
 * is 0x88, so no picture byte looks like a chunk header to
 * usbtv_iso_cb's 256-byte scan */
static uint8_t
luma (uint32_t n, int x, int bottom)
{
  if (x < 16) {
    int bit = (n >> (15 - x)) & 1;
    return bottom ? (bit ? 200 : 60) : (bit ? 220 : 40);
  }
  uint8_t g = 16 + (n * 7 + bottom * 50) % 200;
  return g == 0x88 ? 0x89 : g;
}

static void
make_fields (struct usbtv *t, uint32_t n)
{
  for (int f = 0; f < 2; f++)
    for (int x = 0; x < W; x++) {
      /* one line of the field, YUYV: Y U Y V with U = V = 128 */
      t->field[f][x * 2] = luma (n, x, f);
      t->field[f][x * 2 + 1] = 128;
    }
}

/* chunk c of the stream: frame c / 720, field (c / 360) & 1 (0 = even
 * lines = usbtv's odd flag 1 comes second), chunk number c % 360 */
static void
make_chunk (struct usbtv *t, uint64_t c, uint8_t * out)
{
  uint32_t n = (uint32_t) (c / (2 * NCHUNKS));
  int second = (c / NCHUNKS) & 1;       /* 0: odd = 0 (bottom lines) */
  int no = (int) (c % NCHUNKS);
  uint32_t h = 0x88000000u | (n & 0xff) << 16 | (uint32_t) second << 15 | no;
  if (n != t->frame || c == 0) {
    t->frame = n;
    make_fields (t, n);
  }
  out[0] = h >> 24;
  out[1] = h >> 16;
  out[2] = h >> 8;
  out[3] = h;
  /* the chunk holds 960 bytes = 2/3 of a 1440-byte line; every line of a
   * field is the same, so a chunk's bytes start at (no * 960) % 1440 */
  for (int i = 0; i < CHUNK_DATA; i++)
    out[4 + i] = t->field[second ? 0 : 1][(no * CHUNK_DATA + i) % (W * 2)];
  memset (out + 4 + CHUNK_DATA, 0, CHUNK_SIZE - 4 - CHUNK_DATA);
}

static int
control (struct ud_dev *d, const struct ud_setup *s, uint8_t * data, int len)
{
  (void) d;
  (void) len;
  if ((s->bRequestType & 0x60) != 0x40)
    return -EPIPE;
  if (s->bRequestType & 0x80) { /* request 11: usbtv_s_ctrl reads 3 bytes */
    memset (data, 0, s->wLength);
    return s->wLength;
  }
  return 0;                     /* request 12: usbtv_set_regs */
}

static void
set_interface (struct ud_dev *d, int intf, int alt)
{
  struct usbtv *t = d->priv;
  /* usbtv_start: alt 0, the setup registers, then alt 1 and the ISO URBs */
  if (intf == 0 && alt == 1 && !t->streaming) {
    t->streaming = 1;
    t->t0 = ud_now ();
    t->chunks = 0;
    ud_event (d, "stream-start");
  } else if (intf == 0 && alt == 0 && t->streaming) {
    t->streaming = 0;
    ud_event (d, "stream-stop frames=%llu",
        (unsigned long long) (t->chunks / (2 * NCHUNKS)));
  }
}

static void
tick (struct ud_dev *d, double now)
{
  struct usbtv *t = d->priv;
  const struct ud_urb *u;
  double per_s = 2.0 * NCHUNKS * 30000 / 1001;
  static uint8_t buf[64 * 3 * CHUNK_SIZE];
  uint32_t actual[64];
  if (!t->streaming)
    return;
  while ((u = ud_head (d, 1)) && u->npackets > 0
      && (t->chunks / (2 * NCHUNKS) < t->burst_to
          || (now - t->t0) * per_s >= t->chunks + 3.0 * u->npackets)) {
    int np = u->npackets > 64 ? 64 : u->npackets;
    size_t off = 0;
    for (int p = 0; p < np; p++) {
      int per = (int) (u->iso_len[p] / CHUNK_SIZE);
      if (per > 3)
        per = 3;
      /* packed: packet p's data follows packet p-1's (usbip_pad_iso) */
      for (int k = 0; k < per; k++, off += CHUNK_SIZE)
        make_chunk (t, t->chunks++, buf + off);
      actual[p] = per * CHUNK_SIZE;
    }
    ud_complete_iso (d, 1, buf, actual, np);
    if (t->burst_to && t->chunks / (2 * NCHUNKS) >= t->burst_to) {
      t->burst_to = 0;          /* paced again from here */
      t->t0 = now - t->chunks / per_s;
      ud_event (d, "burst-end frame=%llu",
          (unsigned long long) (t->chunks / (2 * NCHUNKS)));
    }
  }
}

/* "burst N": the next N frames as fast as URBs come (a driver without a
 * free buffer drops frames: usbtv_image_chunk) */
static int
command (struct ud_dev *d, const char *line)
{
  struct usbtv *t = d->priv;
  unsigned n;
  if (sscanf (line, "burst %u", &n) != 1)
    return -1;
  t->burst_to = (uint32_t) (t->chunks / (2 * NCHUNKS)) + n;
  return 0;
}

static void
detached (struct ud_dev *d)
{
  struct usbtv *t = d->priv;
  t->streaming = 0;
}

static const struct ud_model usbtv_model = {
  .name = "usbtv",
  .dev_desc = dev_desc,
  .config_desc = config_desc,
  .config_len = sizeof config_desc,
  .qualifier = qualifier,
  .strings = strings,
  .speed = 3,
  .tick_us = 2000,
  .control = control,
  .set_interface = set_interface,
  .tick = tick,
  .command = command,
  .detached = detached,
};

int
model_usbtv (int argc, char **argv)
{
  static struct usbtv t;
  (void) argc;
  (void) argv;
  return ud_run (&usbtv_model, &t);
}
