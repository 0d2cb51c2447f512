/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* dev-hdpvr.c - a Hauppauge HD PVR (2040:4900) for the kernel's hdpvr
 * driver (drivers/media/usb/hdpvr): the status/authorisation requests of
 * hdpvr-core.c, the config calls and video info of hdpvr-control.c, and a
 * bulk-in endpoint carrying a real H.264+AAC transport stream (a file made
 * at test time) paced at the bit rate the driver set.  Every stream the
 * driver starts (config call CTRL_START_STREAMING_VALUE) begins at byte 0
 * of the file (looped at its end), so a capture is checked byte for byte
 * against a prefix of it; the events on stdout say how many bytes each
 * stream carried.  The loops are seamless, as the card's encoder's stream
 * is one: in loop k every PID's continuity counter goes on (+ k times its
 * payload packets in the file, mod 16) and PCR, PTS and DTS run on (+ k
 * times the file's duration at its PCR rate), so a reader that checks the
 * counters and the PCR (ivtvsrc's loss detector) sees no gap; the guest's
 * reference (guest/usbcheck.py Stream) makes the same loops.
 * `ivtv-usbdev hdpvr STREAM.ts --dump BYTES` writes the first BYTES of a
 * stream to stdout instead (no USB/IP: host tests of the loops).  Model
 * commands: "signal off|on" (no video: the status
 * get_video_info reads, and no data), "fifo BYTES". */
#include "usbdev.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 8192              /* hdpvr-core.c hdpvr_probe: bulk_in_size */

#define TS_PACKET 188
#define CLOCK_WRAP ((uint64_t) 1 << 33)    /* the 90 kHz base's range */

struct hdpvr
{
  uint8_t *ts;
  size_t ts_len;
  uint8_t *loop;                /* the file as loop loop_k sends it */
  uint64_t loop_k;
  uint8_t cc_step[8192];        /* per PID: payload packets in the file, mod 16 */
  uint64_t clip_90k;            /* the file's duration, 90 kHz (0: not a TS) */
  int signal;
  int streaming, session;
  double t0;
  uint64_t produced;            /* bytes of this stream sent */
  uint64_t dropped;             /* bytes the device FIFO lost (overflow) */
  uint64_t fifo;                /* device buffer, bytes */
  unsigned bitrate;             /* in 100 kbit/s, CTRL_BITRATE_VALUE */
  unsigned config[0x40];        /* last value of each config call */
};

static const uint8_t dev_desc[18] = {
  18, 1, 0x00, 0x02, 0, 0, 0, 64, 0x40, 0x20, 0x00, 0x49, 0x00, 0x01,
  1, 2, 3, 1
};

/* one vendor interface with bulk-in 0x81: hdpvr_probe takes the first
 * bulk-in endpoint it finds */
static const uint8_t config_desc[25] = {
  9, 2, 25, 0, 1, 1, 0, 0x80, 250,
  9, 4, 0, 0, 1, 0xff, 0, 0, 0,
  7, 5, 0x81, 2, 0x00, 0x02, 0
};

static const uint8_t qualifier[10] = { 10, 6, 0x00, 0x02, 0, 0, 0, 64, 1, 0 };

static const char *const strings[] = { "Hauppauge", "HD PVR", "00A12345", NULL };

static double
rate (const struct hdpvr *h)
{
  return (h->bitrate ? h->bitrate : 65) * 100000.0 / 8;
}

static void
stream_stop (struct ud_dev *d, struct hdpvr *h, const char *why)
{
  if (!h->streaming)
    return;
  h->streaming = 0;
  ud_event (d, "stream-stop session=%d bytes=%llu dropped=%llu why=%s",
      h->session, (unsigned long long) h->produced,
      (unsigned long long) h->dropped, why);
}

/* hdpvr-control.c get_video_info: 0x81/0xb8 wValue 0x1400, 5 bytes
 * (width LE16, height LE16, fps); all zero means no signal, and
 * hdpvr_start_streaming then returns -EAGAIN */
static int
video_info (struct hdpvr *h, uint8_t * data)
{
  if (h->signal) {
    data[0] = 720 & 0xff;
    data[1] = 720 >> 8;
    data[2] = 480 & 0xff;
    data[3] = 480 >> 8;
    data[4] = 30;
  }
  return 5;
}

/* hdpvr-core.c device_authorization: 0x81 wValue 0x0400, 46 bytes: [1] the
 * firmware version, [2..] its date, [38..45] the challenge; the driver
 * answers the challenge with 0xd1 (8 bytes) */
static int
status_request (uint8_t * data)
{
  static const uint8_t challenge[8] = { 0x13, 0x57, 0x9b, 0xdf, 2, 4, 6, 8 };
  memset (data, 0, 46);
  data[1] = 0x1e;               /* HDPVR_FIRMWARE_VERSION_0X1E */
  strcpy ((char *) data + 2, "Mar 10 2011");
  memcpy (data + 38, challenge, 8);
  return 46;
}

static void
config_call (struct ud_dev *d, struct hdpvr *h, unsigned value,
    const uint8_t * data, int len)
{
  unsigned v = len > 0 ? data[0] : 0;
  h->config[(value >> 8) & 0x3f] = v;
  switch (value) {
    case 0x0700:               /* CTRL_START_STREAMING_VALUE */
      h->streaming = 1;
      h->session++;
      h->t0 = ud_now ();
      h->produced = h->dropped = 0;
      ud_event (d, "stream-start session=%d bitrate=%u", h->session,
          h->bitrate);
      break;
    case 0x0800:               /* CTRL_STOP_STREAMING_VALUE */
      stream_stop (d, h, "stop-request");
      break;
    case 0x1000:               /* CTRL_BITRATE_VALUE: average, peak (LE16) */
      if (len >= 2)
        h->bitrate = data[0] | data[1] << 8;
      break;
    default:
      break;
  }
}

static int
control (struct ud_dev *d, const struct ud_setup *s, uint8_t * data, int len)
{
  struct hdpvr *h = d->priv;
  if (s->bRequestType == 0xb8 && s->bRequest == 0x81) {
    switch (s->wValue) {
      case 0x0400:
        return status_request (data);
      case 0x1400:
        return video_info (h, data);
      case 0x1800:             /* get_input_lines_info: 3 bytes */
        data[0] = h->signal ? 0xe0 : 0;
        data[1] = h->signal ? 0x01 : 0;
        return 3;
      default:
        return -EPIPE;
    }
  }
  if (s->bRequestType != 0x38)
    return -EPIPE;
  switch (s->bRequest) {
    case 0x01:                 /* hdpvr_config_call, hdpvr_set_bitrate ... */
      config_call (d, h, s->wValue, data, len);
      return 0;
    case 0xd1:                 /* device_authorization: the response */
      ud_event (d, "authorised");
      return 0;
    case 0xb8:                 /* hdpvr_start_streaming: encoder start */
    case 0xd4:                 /* hdpvr_device_init: fan and LEDs */
    case 0xd5:                 /* hdpvr_device_init: boost audio */
      return 0;
    default:
      return -EPIPE;
  }
}

/* ---- seamless loops ---- */

static uint64_t
pcr_base (const uint8_t * a)
{
  return (uint64_t) a[0] << 25 | (uint64_t) a[1] << 17 | (uint64_t) a[2] << 9
      | (uint64_t) a[3] << 1 | a[4] >> 7;
}

/* the file's payload packets per PID and its duration (from its first and
 * last PCR, at the rate between them); none if it is not whole packets */
static void
loop_setup (struct hdpvr *h)
{
  uint64_t p0 = 0, p1 = 0, b0 = 0, b1 = 0;
  int have = 0;

  if (h->ts_len % TS_PACKET)
    return;
  for (size_t at = 0; at < h->ts_len; at += TS_PACKET) {
    const uint8_t *p = h->ts + at;
    unsigned pid = (p[1] & 0x1f) << 8 | p[2], afc = (p[3] >> 4) & 3;
    if (p[0] != 0x47)
      return;
    if (afc & 1)
      h->cc_step[pid] = (h->cc_step[pid] + 1) & 15;
    if ((afc & 2) && p[4] >= 7 && (p[5] & 0x10)) {
      p1 = pcr_base (p + 6), b1 = at;
      if (!have)
        p0 = p1, b0 = at, have = 1;
    }
  }
  if (have && b1 > b0 && p1 > p0)
    h->clip_90k = (uint64_t) ((double) (p1 - p0) * h->ts_len / (b1 - b0) + 0.5);
  h->loop = malloc (h->ts_len);
  if (!h->loop)
    h->clip_90k = 0;
  h->loop_k = UINT64_MAX;
}

static void
put_ts (uint8_t * b, uint64_t ts)
{
  b[0] = (b[0] & 0xf0) | ((ts >> 29) & 0x0e) | 1;
  b[1] = ts >> 22;
  b[2] = ((ts >> 14) & 0xfe) | 1;
  b[3] = ts >> 7;
  b[4] = ((ts << 1) & 0xfe) | 1;
}

static uint64_t
get_ts (const uint8_t * b)
{
  return ((uint64_t) (b[0] >> 1) & 7) << 30 | (uint64_t) b[1] << 22 |
      (uint64_t) (b[2] >> 1) << 15 | (uint64_t) b[3] << 7 | b[4] >> 1;
}

/* one packet of loop k: counters, PCR and the PES header's PTS/DTS on */
static void
loop_packet (const struct hdpvr *h, uint8_t * p, uint64_t k)
{
  unsigned pid = (p[1] & 0x1f) << 8 | p[2], afc = (p[3] >> 4) & 3, off = 4;
  uint64_t dt = (k * h->clip_90k) % CLOCK_WRAP;

  if (afc & 1)
    p[3] = (p[3] & 0xf0) | ((p[3] + k * h->cc_step[pid]) & 15);
  if (afc & 2) {
    if (p[4] >= 7 && (p[5] & 0x10)) {
      uint64_t b = (pcr_base (p + 6) + dt) % CLOCK_WRAP;
      p[6] = b >> 25, p[7] = b >> 17, p[8] = b >> 9, p[9] = b >> 1;
      p[10] = (p[10] & 0x7f) | (b & 1) << 7;
    }
    off = 5 + p[4];
  }
  /* a PES packet starts here: 00 00 01 sid, length, flags, PTS (DTS) */
  if (!(p[1] & 0x40) || !(afc & 1) || off + 19 > TS_PACKET)
    return;
  uint8_t *e = p + off;
  if (e[0] || e[1] || e[2] != 1 || e[3] < 0xbd || (e[6] >> 6) != 2)
    return;
  if (e[7] & 0x80)
    put_ts (e + 9, (get_ts (e + 9) + dt) % CLOCK_WRAP);
  if ((e[7] & 0xc0) == 0xc0)
    put_ts (e + 14, (get_ts (e + 14) + dt) % CLOCK_WRAP);
}

/* the byte at @pos of the stream */
static uint8_t
stream_byte (struct hdpvr *h, uint64_t pos)
{
  uint64_t k = pos / h->ts_len;

  if (!h->clip_90k || k == 0)
    return h->ts[pos % h->ts_len];
  if (k != h->loop_k) {
    memcpy (h->loop, h->ts, h->ts_len);
    for (size_t at = 0; at < h->ts_len; at += TS_PACKET)
      loop_packet (h, h->loop + at, k);
    h->loop_k = k;
  }
  return h->loop[pos % h->ts_len];
}

/* the encoder produces bitrate/8 bytes a second; URBs pending take it in
 * 8 KiB pieces; what no URB takes waits in the device FIFO, and what the
 * FIFO cannot hold is lost (counted, reported) */
static void
tick (struct ud_dev *d, double now)
{
  struct hdpvr *h = d->priv;
  uint64_t due;
  if (!h->streaming || !h->signal)
    return;
  due = (uint64_t) ((now - h->t0) * rate (h));
  while (due >= h->produced + h->dropped + CHUNK && ud_head (d, 1)) {
    uint8_t buf[CHUNK];
    uint64_t pos = h->produced + h->dropped;
    for (int i = 0; i < CHUNK; i++)
      buf[i] = stream_byte (h, pos + i);
    ud_complete (d, 1, buf, CHUNK);
    h->produced += CHUNK;
  }
  if (due > h->produced + h->dropped + h->fifo) {
    uint64_t lost = due - h->produced - h->dropped - h->fifo;
    lost -= lost % 188;
    if (lost) {
      h->dropped += lost;
      ud_event (d, "overflow session=%d dropped=%llu", h->session,
          (unsigned long long) h->dropped);
    }
  }
}

static int
command (struct ud_dev *d, const char *line)
{
  struct hdpvr *h = d->priv;
  unsigned long long n;
  if (!strcmp (line, "signal off")) {
    h->signal = 0;
    ud_event (d, "signal off session=%d bytes=%llu", h->session,
        (unsigned long long) h->produced);
    return 0;
  }
  if (!strcmp (line, "signal on")) {
    h->signal = 1;
    h->t0 = ud_now () - (h->produced + h->dropped) / rate (h);
    return 0;
  }
  if (sscanf (line, "fifo %llu", &n) == 1)
    return h->fifo = n, 0;
  return -1;
}

static void
detached (struct ud_dev *d)
{
  stream_stop (d, d->priv, "unplug");
}

static const struct ud_model hdpvr_model = {
  .name = "hdpvr",
  .dev_desc = dev_desc,
  .config_desc = config_desc,
  .config_len = sizeof config_desc,
  .qualifier = qualifier,
  .strings = strings,
  .speed = 3,
  .tick_us = 4000,
  .control = control,
  .tick = tick,
  .command = command,
  .detached = detached,
};

static int
load (const char *path, uint8_t ** data, size_t *len)
{
  FILE *f = fopen (path, "rb");
  long n;
  if (!f)
    return -1;
  fseek (f, 0, SEEK_END);
  n = ftell (f);
  rewind (f);
  *data = malloc (n > 0 ? n : 1);
  *len = fread (*data, 1, n, f);
  fclose (f);
  return *len > 0 ? 0 : -1;
}

int
model_hdpvr (int argc, char **argv)
{
  static struct hdpvr h = { .signal = 1, .fifo = 1 << 20, .bitrate = 65 };
  if (argc < 2 || load (argv[1], &h.ts, &h.ts_len) < 0) {
    fprintf (stderr, "usage: ivtv-usbdev hdpvr STREAM.ts (cannot read it)\n");
    return 2;
  }
  loop_setup (&h);
  if (argc == 4 && !strcmp (argv[2], "--dump")) {
    /* the first BYTES the device would send (host tests of the loops) */
    unsigned long long n = strtoull (argv[3], NULL, 0);
    for (unsigned long long i = 0; i < n; i++)
      putchar (stream_byte (&h, i));
    return fflush (stdout) ? 1 : 0;
  }
  return ud_run (&hdpvr_model, &h);
}
