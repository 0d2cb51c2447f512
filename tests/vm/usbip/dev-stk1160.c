/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* dev-stk1160.c - a Syntek STK1160 "EasyCAP" (05e1:0408) for the kernel's
 * stk1160 driver (drivers/media/usb/stk1160): its registers (vendor
 * requests 0 read, 1 write: stk1160-core.c stk1160_read_reg,
 * stk1160_write_reg), the serial bus behind them with a saa7113 at 0x4a
 * (stk1160-i2c.c stk1160_i2c_read_reg / write_reg / check_for_device:
 * SICTL+1 bit 0 read done, bit 2 write done; saa7115.c
 * saa711x_detect_chip reads its version register sixteen times), the AC97
 * done bits (stk1160-ac97.c: AC97CTL_0 reads with the CR/CW bits clear),
 * and isochronous video on 0x82 as stk1160-video.c stk1160_process_isoc
 * parses it: an 8-byte 0xc0 packet starts a frame and its top field, 0x80
 * the bottom field, every other packet is 4 header bytes and UYVY.  Frame n
 * is known in advance (the same picture as dev-usbtv.c, in UYVY: a 16-bit
 * counter in each line's first pixels).  A USB Audio Class interface pair
 * (control + streaming, 48 kHz stereo 16-bit, ISO in 0x81) is there for
 * snd-usb-audio; its endpoint carries no samples. */
#include "usbdev.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define W 720
#define FIELD (W * 2 * 240)     /* bytes of one field */
#define PKT 3072                /* wMaxPacketSize 0x1400: 1024 x 3 */
#define DATA (PKT - 4)

struct stk
{
  uint8_t reg[0x600];
  uint8_t saa[256];
  int saa_ver;                  /* saa7113 version register index */
  int streaming;
  double t0;
  uint32_t burst_to;             /* "burst N": unpaced up to this frame */
  uint64_t packets;             /* packets sent since the stream began */
  uint32_t frame;               /* frame of the next packet */
  int phase;                    /* 0 top header, 1 top data, 2, 3 bottom */
  int pos;                      /* bytes of the field sent */
  uint8_t line[2][W * 2];
};

static const uint8_t dev_desc[18] = {
  18, 1, 0x00, 0x02, 0, 0, 0, 64, 0xe1, 0x05, 0x08, 0x04, 0x00, 0x01,
  1, 2, 0, 1
};

/* interface 0: video, alt 0 (packet size 0) and alt 1 (3 x 1024): both
 * carry the video endpoint, whose size stk1160_scan_usb records per alt;
 * interfaces 1 and 2: USB Audio Class 1 control and streaming, which
 * stk1160_probe rejects (USB_CLASS_AUDIO) and snd-usb-audio takes */
static const uint8_t config_desc[] = {
  9, 2, 0, 0, 3, 1, 0, 0x80, 250,       /* wTotalLength set in main */
  9, 4, 0, 0, 1, 0xff, 0, 0, 0,
  7, 5, 0x82, 0x05, 0x00, 0x00, 1,
  9, 4, 0, 1, 1, 0xff, 0, 0, 0,
  7, 5, 0x82, 0x05, 0x00, 0x14, 1,
  /* audio control: header (UAC 1.0, one streaming interface: 2), an
   * input terminal (microphone, stereo), an output terminal (USB
   * streaming) */
  9, 4, 1, 0, 0, 1, 1, 0, 0,
  9, 0x24, 1, 0x00, 0x01, 30, 0, 1, 2,
  12, 0x24, 2, 1, 0x01, 0x02, 0, 2, 0x03, 0, 0, 0,
  9, 0x24, 3, 2, 0x01, 0x01, 0, 1, 0,
  /* audio streaming: alt 0 idle, alt 1 PCM 48 kHz 2 x 16 bit */
  9, 4, 2, 0, 0, 1, 2, 0, 0,
  9, 4, 2, 1, 1, 1, 2, 0, 0,
  7, 0x24, 1, 2, 1, 0x01, 0x00,
  11, 0x24, 2, 1, 2, 2, 16, 1, 0x80, 0xbb, 0x00,
  9, 5, 0x81, 0x05, 0xc4, 0x00, 4, 0, 0,
  7, 0x25, 1, 0, 0, 0, 0,
};

static uint8_t config_buf[sizeof config_desc];

static const uint8_t qualifier[10] = { 10, 6, 0x00, 0x02, 0, 0, 0, 64, 1, 0 };

static const char *const strings[] = { "Syntek", "STK1160", NULL };

/* saa711x_detect_chip: the low nibbles of 16 reads of register 0 spell
 * "1f7113" then zeros: a saa7113 */
static const uint8_t saa_version[16] = { 1, 0xf, 7, 1, 1, 3 };

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
make_lines (struct stk *s, uint32_t n)
{
  for (int f = 0; f < 2; f++)
    for (int x = 0; x < W; x++) {
      s->line[f][2 * x] = 128;  /* UYVY: U/V then Y */
      s->line[f][2 * x + 1] = luma (n, x, f);
    }
}

/* the next packet of the stream; returns its length */
static int
next_packet (struct stk *s, uint8_t * out)
{
  if (s->phase == 0 || s->phase == 2) {
    memset (out, 0, 8);
    out[0] = s->phase == 0 ? 0xc0 : 0x80;
    if (s->phase == 0)
      make_lines (s, s->frame);
    s->phase++;
    s->pos = 0;
    return 8;
  }
  int n = FIELD - s->pos < DATA ? FIELD - s->pos : DATA;
  const uint8_t *l = s->line[s->phase == 1 ? 0 : 1];
  memset (out, 0, 4);
  for (int i = 0; i < n; i++)
    out[4 + i] = l[(s->pos + i) % (W * 2)];
  s->pos += n;
  if (s->pos == FIELD) {
    s->phase = (s->phase + 1) % 4;
    if (s->phase == 0)
      s->frame++;
  }
  return n + 4;
}

static void
i2c_start (struct ud_dev *d, struct stk *s, uint8_t cmd)
{
  int addr = s->reg[0x203];
  if (addr != 0x4a) {           /* nobody answers: no done bit */
    s->reg[0x201] = 0;
    return;
  }
  if (cmd == 0x01) {            /* write SBUSW_WA <- SBUSW_WD */
    int r = s->reg[0x204];
    if (r == 0)
      s->saa_ver = s->reg[0x205] & 15;
    s->saa[r] = s->reg[0x205];
    s->reg[0x201] = 0x04;
  } else if (cmd == 0x20) {     /* read SBUSR_RA -> SBUSR_RD */
    int r = s->reg[0x208];
    s->reg[0x209] = r == 0 ? saa_version[s->saa_ver] : s->saa[r];
    s->reg[0x201] = 0x01;
  }
  (void) d;
}

static int
control (struct ud_dev *d, const struct ud_setup *r, uint8_t * data, int len)
{
  struct stk *s = d->priv;
  int reg = r->wIndex;
  (void) len;
  if ((r->bRequestType & 0x60) == 0x20) /* audio class: accept */
    return (r->bRequestType & 0x80) ? (memset (data, 0, r->wLength),
        r->wLength) : 0;
  if ((r->bRequestType & 0x60) != 0x40 || reg >= (int) sizeof s->reg)
    return -EPIPE;
  if (r->bRequest == 0x00) {    /* stk1160_read_reg */
    data[0] = reg == 0x500 ? 0 : s->reg[reg];
    return 1;
  }
  if (r->bRequest != 0x01)
    return -EPIPE;
  s->reg[reg] = (uint8_t) r->wValue;    /* stk1160_write_reg */
  if (reg == 0x200)
    i2c_start (d, s, (uint8_t) r->wValue);
  return 0;
}

static void
set_interface (struct ud_dev *d, int intf, int alt)
{
  struct stk *s = d->priv;
  if (intf != 0)
    return;
  if (alt == 1 && !s->streaming) {     /* stk1160_set_alternate */
    s->streaming = 1;
    s->t0 = ud_now ();
    s->packets = 0;
    s->frame = 0;
    s->phase = 0;
    ud_event (d, "stream-start");
  } else if (alt == 0 && s->streaming) {
    s->streaming = 0;
    ud_event (d, "stream-stop frames=%u", s->frame);
  }
}

static void
tick (struct ud_dev *d, double now)
{
  struct stk *s = d->priv;
  const struct ud_urb *u;
  /* 228 packets a frame (2 headers, 2 x 113 data), 29.97 frames/s */
  double per_s = 228.0 * 30000 / 1001;
  static uint8_t buf[UD_MAX_ISO * PKT];
  uint32_t actual[UD_MAX_ISO];
  if (!s->streaming)
    return;
  while ((u = ud_head (d, 2)) && u->npackets > 0
      && (s->frame < s->burst_to
          || (now - s->t0) * per_s >= s->packets + u->npackets)) {
    size_t off = 0;
    for (int p = 0; p < u->npackets; p++) {
      actual[p] = (uint32_t) next_packet (s, buf + off);
      off += actual[p];
      s->packets++;
    }
    ud_complete_iso (d, 2, buf, actual, u->npackets);
    if (s->burst_to && s->frame >= s->burst_to) {
      s->burst_to = 0;          /* paced again from here */
      s->t0 = now - s->packets / per_s;
      ud_event (d, "burst-end frame=%u", s->frame);
    }
  }
}

/* "burst N": the next N frames as fast as URBs come (a driver without a
 * free buffer drops the frame: stk1160_process_isoc, stk1160_next_buffer) */
static int
command (struct ud_dev *d, const char *line)
{
  struct stk *s = d->priv;
  unsigned n;
  if (sscanf (line, "burst %u", &n) != 1)
    return -1;
  s->burst_to = s->frame + n;
  return 0;
}

static void
detached (struct ud_dev *d)
{
  ((struct stk *) d->priv)->streaming = 0;
}

static const struct ud_model stk_model = {
  .name = "stk1160",
  .dev_desc = dev_desc,
  .config_desc = config_buf,
  .config_len = sizeof config_buf,
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
model_stk1160 (int argc, char **argv)
{
  static struct stk s;
  (void) argc;
  (void) argv;
  memcpy (config_buf, config_desc, sizeof config_desc);
  config_buf[2] = sizeof config_desc & 0xff;
  config_buf[3] = sizeof config_desc >> 8;
  return ud_run (&stk_model, &s);
}
