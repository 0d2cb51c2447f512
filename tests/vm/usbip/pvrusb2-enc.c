/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* pvrusb2-enc.c - the cx23416 encoder behind the PVR-USB2's FX2: its
 * mailbox and its MPEG stream on bulk 0x84.
 *  - Mailbox (pvrusb2-encoder.c pvr2_encoder_cmd; Documentation/
 *    driver-api/media/drivers/cx2341x-devel.rst): words 0x44.. are flags,
 *    command, return value, timeout, then the arguments.  The driver
 *    writes them with flags 0, then flags = DRIVER_DONE | DRIVER_BUSY (3)
 *    which runs the command here; it then polls word 0x44 for
 *    FIRMWARE_DONE (4) and writes 0.  "mbox hang" leaves the bit clear:
 *    the driver gives up after 1000 polls ("encoder appears to be stuck").
 *  - The commands that shape the stream are kept and reported as events:
 *    CX2341X_ENC_SET_STREAM_TYPE (0xb9: 0 PS, 1 TS, 2 MPEG-1, 14 DVD, 11
 *    VCD, 12 SVCD as cx2341x.c maps V4L2_CID_MPEG_STREAM_TYPE),
 *    SET_BIT_RATE (0x95: mode, bit/s, peak/400), SET_GOP_PROPERTIES
 *    (0x97: size, B-frames + 1), SET_FRAME_RATE (0x8f: 1 for 50 Hz,
 *    cx2341x.c cx2341x_update is_50hz), START_CAPTURE (0x81), STOP_CAPTURE
 *    (0x82).
 *  - The stream: while the encoder captures and the FX2 streams (0x36,
 *    pvr2_hdw_cmd_usbstream), the payload file of the stream type and
 *    frame rate (the standard's family: NTSC or PAL clip) set is
 *    sent from its first byte (looped), 16 KiB per URB, at the video bit
 *    rate set (bit/s / 8 bytes a second).  When no URB took anything for
 *    4 MiB worth of stream, an "overflow" event is reported and the
 *    pacing restarts from there: no byte is skipped, so every capture
 *    stays a byte-exact prefix of the file.  "lead N" puts N bytes of 0xaa
 *    before the file in each stream: pvrusb2-ioread.c drops what comes
 *    before the first pack start (pvr2_ioread_set_sync_key, 00 00 01 ba);
 *    "gate N" sends no more than N bytes of a stream until "gate 0" (the
 *    pacing then catches up). */
#include "pvrusb2.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 16384
#define ENC_BUFFER (4u << 20)
#define MBOX 0x44

static const struct
{
  uint32_t type;
  const char *suffix;
} stream_files[] = {
  {0, ".mpg"}, {1, ".ts"}, {2, ".mpeg1.mpg"}, {14, ".dvd.mpg"},
  {11, ".vcd.mpg"}, {12, ".svcd.mpg"},
};

static int
load (const char *path, struct pvr_stream_file *f)
{
  FILE *fp = fopen (path, "rb");
  long n;
  if (!fp)
    return -1;
  fseek (fp, 0, SEEK_END);
  n = ftell (fp);
  rewind (fp);
  f->data = malloc (n > 0 ? n : 1);
  f->len = fread (f->data, 1, n > 0 ? n : 0, fp);
  fclose (fp);
  return f->len > 0 ? 0 : -1;
}

int
pvr_load_files (struct pvr *p, int is_50hz, const char *base)
{
  char path[4096];
  for (size_t i = 0; i < sizeof stream_files / sizeof stream_files[0]; i++) {
    snprintf (path, sizeof path, "%s%s", base, stream_files[i].suffix);
    load (path, &p->files[is_50hz][stream_files[i].type]);
  }
  return p->files[is_50hz][0].len ? 0 : -1;
}

/* the clip of the standard's family and the stream type set; PS when
 * that type has none */
static const struct pvr_stream_file *
current_file (struct pvr *p)
{
  int fam = p->is_50hz && p->files[1][0].len ? 1 : 0;
  if (p->stream_type < 16 && p->files[fam][p->stream_type].len)
    return &p->files[fam][p->stream_type];
  return &p->files[fam][0];
}

static double
rate (const struct pvr *p)
{
  return (p->bitrate ? p->bitrate : 6000000) / 8.0;
}

void
pvr_stream_stop (struct ud_dev *d, struct pvr *p, const char *why)
{
  if (!p->capturing)
    return;
  p->capturing = 0;
  ud_event (d, "stream-stop session=%d bytes=%llu why=%s", p->session,
      p->produced, why);
}

static void
maybe_start (struct ud_dev *d, struct pvr *p)
{
  if (!p->capturing || !p->usb_streaming || p->t0 > 0)
    return;
  p->t0 = ud_now ();
  ud_event (d, "stream-start session=%d type=%u bitrate=%u peak=%u "
      "mode=%u gop=%u bframes=%u 50hz=%u file-bytes=%zu", p->session,
      p->stream_type, p->bitrate, p->peak, p->bitrate_mode, p->gop,
      p->bframes, p->is_50hz, current_file (p)->len);
}

void
pvr_stream_usb (struct ud_dev *d, struct pvr *p, int on)
{
  p->usb_streaming = on;
  ud_event (d, "usb-streaming %s", on ? "on" : "off");
  maybe_start (d, p);
}

static void
run_command (struct ud_dev *d, struct pvr *p, uint32_t cmd,
    const uint32_t * a)
{
  ud_event (d, "mbox cmd=0x%02x args=%u,%u,%u,%u", cmd, a[0], a[1], a[2],
      a[3]);
  switch (cmd) {
    case 0x81:                 /* CX2341X_ENC_START_CAPTURE */
      p->capturing = 1;
      p->session++;
      p->produced = 0;
      p->t0 = 0;
      maybe_start (d, p);
      break;
    case 0x82:                 /* CX2341X_ENC_STOP_CAPTURE */
      pvr_stream_stop (d, p, "stop-capture");
      break;
    case 0x95:                 /* CX2341X_ENC_SET_BIT_RATE */
      p->bitrate_mode = a[0];
      p->bitrate = a[1];
      p->peak = a[2] * 400;
      break;
    case 0x97:                 /* CX2341X_ENC_SET_GOP_PROPERTIES */
      p->gop = a[0];
      p->bframes = a[1] ? a[1] - 1 : 0;
      break;
    case 0x8f:                 /* CX2341X_ENC_SET_FRAME_RATE: 1 = 25 fps */
      p->is_50hz = a[0];
      break;
    case 0xb9:                 /* CX2341X_ENC_SET_STREAM_TYPE */
      p->stream_type = a[0];
      break;
    case 0xc4:                 /* CX2341X_ENC_GET_VERSION */
      p->mem[MBOX + 4] = 0x02060039;
      break;
    default:
      break;
  }
}

void
pvr_mem_write (struct ud_dev *d, struct pvr *p, uint32_t addr, uint32_t val)
{
  if (addr >= PVR_MBOX_WORDS)
    return;
  p->mem[addr] = val;
  if (addr != MBOX || (val & 3) != 3)
    return;
  if (p->mbox_hang) {
    ud_event (d, "mbox hang cmd=0x%02x", p->mem[MBOX + 1]);
    return;
  }
  run_command (d, p, p->mem[MBOX + 1], &p->mem[MBOX + 4]);
  p->mem[MBOX] = val | 4;       /* IVTV_MBOX_FIRMWARE_DONE */
}

uint32_t
pvr_mem_read (struct pvr *p, uint32_t addr)
{
  return addr < PVR_MBOX_WORDS ? p->mem[addr] : 0;
}

void
pvr_stream_tick (struct ud_dev *d, struct pvr *p, double now)
{
  const struct pvr_stream_file *f = current_file (p);
  unsigned long long due;
  uint8_t buf[CHUNK];
  if (!p->capturing || !p->usb_streaming || p->t0 <= 0)
    return;
  due = (unsigned long long) ((now - p->t0) * rate (p));
  if (p->gate && due > p->gate)
    due = p->gate;
  while (due >= p->produced + CHUNK && ud_head (d, PVR_VID_EP)) {
    for (int i = 0; i < CHUNK; i++) {
      unsigned long long at = p->produced + i;
      buf[i] = at < p->lead ? 0xaa : f->data[(at - p->lead) % f->len];
    }
    ud_complete (d, PVR_VID_EP, buf, CHUNK);
    p->produced += CHUNK;
  }
  if (!p->gate && due > p->produced + ENC_BUFFER) {
    ud_event (d, "overflow session=%d at=%llu: the driver took nothing "
        "for %u bytes", p->session, p->produced, ENC_BUFFER);
    p->t0 = now - p->produced / rate (p);
  }
}
