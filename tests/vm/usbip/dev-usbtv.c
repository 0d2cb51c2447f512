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
 * line, a grey level per frame and field.  The audio endpoint 0x83
 * carries what usbtv-audio.c reads (usbtv_audio_urb_received): 256-byte
 * chunks of a 4-byte header and 60 stereo S16LE frames at 48 kHz, from the
 * register write that starts it (usbtv_audio_start: 0xc27d = 0xa6) to the
 * one that stops it (usbtv_audio_stop: 0xc27d = 0).  Both streams run on
 * this process's one clock: the picture's 29.97 Hz, and the samples at
 * 48 kHz x (1 + ppm / 1e6) of the same clock (`ppm N`: a crystal N ppm
 * fast).  `marks N`: a sync test tape, a white frame every N frames and a
 * 1 kHz beep of 40 ms (phase 0) at the instant that frame begins (the idea
 * of tests/emu/marks.c), so a guest stall delays picture and sound alike. */
#include "usbdev.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define W 720
#define H 480
#define CHUNK_DATA 960          /* USBTV_CHUNK words x 4 */
#define CHUNK_SIZE 1024         /* header + data + padding */
#define NCHUNKS (W * H * 2 / 2 / CHUNK_DATA)    /* per field: 360 */
#define FRAME_S (1001.0 / 30000.0)
/* usbtv.h: USBTV_CHUNK_SIZE 256, USBTV_AUDIO_HDRSIZE 4, USBTV_AUDIO_URBSIZE */
#define A_CHUNK 256
#define A_FRAMES 60             /* (256 - 4) / 4 rounded down: USBTV_CHUNK */
#define A_URB_CHUNKS 80         /* 20480 / 256 */
#define A_MIN_CHUNKS 8          /* complete an URB once 10 ms are owed */
#define A_RATE 48000.0
#define A_FIFO_S 2.0            /* owed beyond this is lost (an event) */
#define BEEP_S 0.040
#define BEEP_HZ 1000.0
#define BEEP_AMPLITUDE 16000.0
#define FLASH_Y 235
#define LAG_FRAMES 2            /* the device's picture FIFO, in frames */

struct usbtv
{
  int streaming;
  double t0;
  uint32_t burst_to;             /* "burst N": unpaced up to this frame */
  uint64_t chunks;              /* chunks sent since the stream began */
  uint32_t frame;               /* frame counter of the picture */
  uint8_t field[2][W * H];      /* the current frame's two fields */
  /* the device's clock: marks at epoch + j x marks frame periods; a
   * stream's frame n is frame g0 + n of that grid */
  double epoch;
  uint64_t g0;
  unsigned marks;               /* "marks N": flash + beep every N frames */
  int realtime;                 /* "realtime 1": late frames are skipped */
  double ppm;                   /* "ppm N": the audio crystal's error */
  uint64_t flashes, skipped;
  /* audio: sample k of the run begun at a0 is taken at a0 + k / rate */
  int audio;
  double a0, a_rate;
  uint64_t a_frames, a_lost, beeps;
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
luma (uint32_t n, int x, int bottom, int flash)
{
  if (x < 16) {
    int bit = (n >> (15 - x)) & 1;
    return bottom ? (bit ? 200 : 60) : (bit ? 220 : 40);
  }
  uint8_t g = 16 + (n * 7 + bottom * 50) % 200;
  if (flash)
    return FLASH_Y;
  return g == 0x88 ? 0x89 : g;
}

/* a mark's frame: the frame of the device's grid that begins at a mark */
static int
is_flash (const struct usbtv *t, uint32_t n)
{
  return t->marks && (t->g0 + n) % t->marks == 0;
}

static void
make_fields (struct usbtv *t, uint32_t n)
{
  int flash = is_flash (t, n);
  t->flashes += flash;
  for (int f = 0; f < 2; f++)
    for (int x = 0; x < W; x++) {
      /* one line of the field, YUYV: Y U Y V with U = V = 128 */
      t->field[f][x * 2] = luma (n, x, f, flash);
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

/* the device's clock starts with its first stream (picture or sound) */
static double
dev_clock (struct usbtv *t, double now)
{
  if (t->epoch == 0)
    t->epoch = now;
  return now - t->epoch;
}

/* usbtv-audio.c usbtv_audio_start writes 0xa6 to 0xc27d (among its setup
 * registers) before it submits the bulk URB; usbtv_audio_stop writes 0 */
static void
audio_register (struct ud_dev *d, uint16_t value, double now)
{
  struct usbtv *t = d->priv;
  if (value && !t->audio) {
    t->audio = 1;
    t->a0 = now;
    t->a_rate = A_RATE * (1.0 + t->ppm * 1e-6);
    t->a_frames = 0;
    t->a_lost = 0;
    t->beeps = 0;
    ud_event (d, "audio-start clock=%.6f rate=%.3f", dev_clock (t, now),
        t->a_rate);
  } else if (!value && t->audio) {
    t->audio = 0;
    ud_event (d, "audio-stop frames=%llu lost=%llu beeps=%llu",
        (unsigned long long) t->a_frames, (unsigned long long) t->a_lost,
        (unsigned long long) t->beeps);
  }
}

static int
control (struct ud_dev *d, const struct ud_setup *s, uint8_t * data, int len)
{
  (void) len;
  if ((s->bRequestType & 0x60) != 0x40)
    return -EPIPE;
  if (s->bRequestType & 0x80) { /* request 11: usbtv_s_ctrl reads 3 bytes */
    memset (data, 0, s->wLength);
    return s->wLength;
  }
  /* request 12: usbtv_set_regs, the register in wIndex, its value wValue */
  if (s->wIndex == 0xc27d)
    audio_register (d, s->wValue, ud_now ());
  return 0;
}

static void
set_interface (struct ud_dev *d, int intf, int alt)
{
  struct usbtv *t = d->priv;
  /* usbtv_start: alt 0, the setup registers, then alt 1 and the ISO URBs */
  if (intf == 0 && alt == 1 && !t->streaming) {
    /* the first frame begins on the device's frame grid */
    double now = ud_now (), c = dev_clock (t, now);
    t->g0 = (uint64_t) ceil (c / FRAME_S - 1e-9);
    t->streaming = 1;
    t->t0 = now + (t->g0 * FRAME_S - c);
    t->chunks = 0;
    t->skipped = t->flashes = 0;
    ud_event (d, "stream-start frame=%llu clock=%.6f",
        (unsigned long long) t->g0, t->g0 * FRAME_S);
  } else if (intf == 0 && alt == 0 && t->streaming) {
    t->streaming = 0;
    ud_event (d, "stream-stop frames=%llu flashes=%llu",
        (unsigned long long) (t->chunks / (2 * NCHUNKS)),
        (unsigned long long) t->flashes);
  }
}

/* An isochronous stream does not wait for the host: frames the host has
 * not fetched within LAG_FRAMES of their time are gone (a real device's
 * FIFO overflows), so the picture stays on the device's clock, as its
 * sound does.  The skip starts at a frame's first chunk, which
 * usbtv_image_chunk takes as a new frame (chunk 0 resets chunks_done):
 * the driver never sees the skipped frames, and its sequence numbers do
 * not count them.  Only with "realtime 1" (the archival checks): the
 * other checks compare every frame sent, late or not; never during a
 * "burst". */
static void
skip_late (struct ud_dev *d, double owed)
{
  struct usbtv *t = d->priv;
  uint64_t per_frame = 2 * NCHUNKS, to;
  if (!t->realtime || t->burst_to || t->chunks % per_frame
      || owed < (double) t->chunks + LAG_FRAMES * per_frame)
    return;
  to = (uint64_t) (owed / per_frame) * per_frame;
  t->skipped += (to - t->chunks) / per_frame;
  ud_event (d, "video-late skipped=%llu at=%llu",
      (unsigned long long) ((to - t->chunks) / per_frame),
      (unsigned long long) (t->chunks / per_frame));
  t->chunks = to;
}

static void
video_tick (struct ud_dev *d, double now)
{
  struct usbtv *t = d->priv;
  const struct ud_urb *u;
  double per_s = 2.0 * NCHUNKS * 30000 / 1001;
  static uint8_t buf[64 * 3 * CHUNK_SIZE];
  uint32_t actual[64];
  if (!t->streaming)
    return;
  skip_late (d, (now - t->t0) * per_s);
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

/* sample value at the device's clock time c (s): the beep of a mark, whose
 * instant is the start of a flash frame (marks x frame periods apart) */
static int16_t
beep_at (const struct usbtv *t, double c)
{
  double period = t->marks * FRAME_S, into;
  if (!t->marks || c < 0)
    return 0;
  into = c - floor (c / period) * period;
  if (into >= BEEP_S)
    return 0;
  return (int16_t) lrint (BEEP_AMPLITUDE * sin (2 * M_PI * BEEP_HZ * into));
}

/* one chunk as usbtv_audio_urb_received reads it: a header it skips, then
 * A_FRAMES stereo frames */
static void
audio_chunk (struct usbtv *t, uint8_t * out)
{
  double c0 = t->a0 - t->epoch;
  memset (out, 0, A_CHUNK);
  for (int i = 0; i < A_FRAMES; i++) {
    uint64_t k = t->a_frames++;
    double c = c0 + (double) k / t->a_rate;
    uint16_t v = (uint16_t) beep_at (t, c);
    if (v && beep_at (t, c0 + (double) (k - 1) / t->a_rate) == 0)
      t->beeps++;
    for (int ch = 0; ch < 2; ch++) {
      out[4 + i * 4 + ch * 2] = v & 0xff;
      out[4 + i * 4 + ch * 2 + 1] = v >> 8;
    }
  }
}

/* the samples owed by now, in URBs of whole chunks (the driver copies 60
 * frames per 256 bytes of actual_length); what the driver has not come for
 * within A_FIFO_S is lost, as a full FIFO would lose it */
static void
audio_tick (struct ud_dev *d, double now)
{
  struct usbtv *t = d->priv;
  static uint8_t buf[A_URB_CHUNKS * A_CHUNK];
  const struct ud_urb *u;
  uint64_t owed;
  if (!t->audio)
    return;
  owed = (uint64_t) ((now - t->a0) * t->a_rate);
  if (owed > t->a_frames + (uint64_t) (A_FIFO_S * A_RATE)) {
    uint64_t lose = owed - t->a_frames - (uint64_t) (A_FIFO_S * A_RATE / 2);
    lose -= lose % A_FRAMES;
    t->a_frames += lose;
    t->a_lost += lose;
    ud_event (d, "audio-overflow lost=%llu", (unsigned long long) lose);
  }
  while (owed >= t->a_frames + A_MIN_CHUNKS * A_FRAMES
      && (u = ud_head (d, 3))) {
    int n = (int) ((owed - t->a_frames) / A_FRAMES);
    int fit = u->length / A_CHUNK;
    if (n > fit)
      n = fit;
    if (n > A_URB_CHUNKS)
      n = A_URB_CHUNKS;
    if (n <= 0)
      break;
    for (int i = 0; i < n; i++)
      audio_chunk (t, buf + i * A_CHUNK);
    ud_complete (d, 3, buf, n * A_CHUNK);
  }
}

static void
tick (struct ud_dev *d, double now)
{
  video_tick (d, now);
  audio_tick (d, now);
}

/* "burst N": the next N frames as fast as URBs come (a driver without a
 * free buffer drops frames: usbtv_image_chunk); "marks N" (frames, 0 off)
 * and "ppm N" for the streams begun after them; "realtime 0|1" (skip_late);
 * "av-status" */
static int
command (struct ud_dev *d, const char *line)
{
  struct usbtv *t = d->priv;
  unsigned n;
  double ppm;
  if (sscanf (line, "burst %u", &n) == 1)
    t->burst_to = (uint32_t) (t->chunks / (2 * NCHUNKS)) + n;
  else if (sscanf (line, "marks %u", &n) == 1)
    t->marks = n;
  else if (sscanf (line, "realtime %u", &n) == 1)
    t->realtime = n != 0;
  else if (sscanf (line, "ppm %lf", &ppm) == 1)
    t->ppm = ppm;
  else if (strcmp (line, "av-status") == 0)       /* this stream's */
    ud_event (d, "av-status frames=%llu skipped=%llu flashes=%llu "
        "audio-frames=%llu lost=%llu beeps=%llu", (unsigned long long)
        (t->chunks / (2 * NCHUNKS)), (unsigned long long) t->skipped,
        (unsigned long long) t->flashes,
        (unsigned long long) t->a_frames, (unsigned long long) t->a_lost,
        (unsigned long long) t->beeps);
  else
    return -1;
  return 0;
}

static void
detached (struct ud_dev *d)
{
  struct usbtv *t = d->priv;
  t->streaming = 0;
  t->audio = 0;
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
