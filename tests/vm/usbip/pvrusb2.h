/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* pvrusb2.h - what the three files of the PVR-USB2 model share (pvrusb2.c:
 * USB side and FX2 command set; pvrusb2-i2c.c: the chips on the FX2's I2C
 * bus; pvrusb2-enc.c: the cx23416's mailbox and its MPEG stream).  The
 * model serves the kernel's pvrusb2 driver (drivers/media/usb/pvrusb2). */
#ifndef PVRUSB2_MODEL_H
#define PVRUSB2_MODEL_H

#include "usbdev.h"

#include <stddef.h>
#include <stdint.h>

#define PVR_CTL_EP 1            /* pvrusb2-hdw-internal.h PVR2_CTL_*_ENDPOINT */
#define PVR_FW_EP 2             /* PVR2_FIRMWARE_ENDPOINT */
#define PVR_VID_EP 4            /* PVR2_VID_ENDPOINT (0x84) */
#define PVR_MBOX_WORDS 0x60     /* encoder memory words modelled */

struct pvr_stream_file
{
  uint8_t *data;
  size_t len;
};

struct pvr
{
  int warm;                     /* FX2 firmware running (re-enumerated) */
  int reenumerate;              /* CPUCS released: disconnect, come back warm */
  double reenumerate_at;
  unsigned fw1_bytes;           /* 0xa0 bytes written while held in reset */
  unsigned long long fw2_bytes; /* encoder firmware on ep 2 */
  /* the one control reply the driver waits for on ep 0x81
   * (pvrusb2-hdw.c pvr2_send_request_ex: one request at a time) */
  uint8_t reply[80];
  int reply_len;
  uint32_t regs[64];            /* FX2CMD_REG_WRITE/READ, hashed */
  uint16_t reg_addr[64];
  /* chips */
  uint8_t saa[256];
  int signal;
  uint32_t tuner_freq_div;      /* last divider written to the tuner */
  /* encoder */
  uint32_t mem[PVR_MBOX_WORDS];
  int mbox_hang;                /* the encoder stops answering */
  uint32_t stream_type, bitrate, peak, gop, bframes, bitrate_mode;
  int capturing, usb_streaming, session;
  double t0;
  unsigned long long produced;
  unsigned long long gate;      /* "gate N": send no more than N bytes */
  unsigned lead;                /* "lead N": N bytes before the first pack */
  uint32_t is_50hz;             /* CX2341X_ENC_SET_FRAME_RATE */
  /* [60 Hz, 50 Hz][cx2341x stream type] */
  struct pvr_stream_file files[2][16];
};

/* pvrusb2-i2c.c: one I2C transfer; returns the status byte (8 ack,
 * 7 no device: pvrusb2-i2c-core.c pvr2_i2c_write/pvr2_i2c_read) */
int pvr_i2c_write (struct ud_dev *d, struct pvr *p, int addr,
    const uint8_t * data, int len);
int pvr_i2c_read (struct ud_dev *d, struct pvr *p, int addr,
    const uint8_t * wdata, int wlen, uint8_t * out, int rlen);
void pvr_i2c_reset (struct pvr *p);

/* pvrusb2-enc.c */
void pvr_mem_write (struct ud_dev *d, struct pvr *p, uint32_t addr,
    uint32_t val);
uint32_t pvr_mem_read (struct pvr *p, uint32_t addr);
void pvr_stream_tick (struct ud_dev *d, struct pvr *p, double now);
void pvr_stream_stop (struct ud_dev *d, struct pvr *p, const char *why);
void pvr_stream_usb (struct ud_dev *d, struct pvr *p, int on);
int pvr_load_files (struct pvr *p, int is_50hz, const char *base);

#endif
