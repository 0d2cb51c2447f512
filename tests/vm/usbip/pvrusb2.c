/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* pvrusb2.c - a Hauppauge WinTV PVR-USB2 Model 29xxx (2040:2900) for the
 * kernel's pvrusb2 driver (drivers/media/usb/pvrusb2): the USB side.
 *  - Cold, the FX2 has no firmware: one vendor interface without endpoints
 *    (pvrusb2-hdw.c pvr2_hdw_setup_low: bNumEndpoints == 0 means "load
 *    it"); vendor request 0xa0 writes the 8051's RAM and CPUCS at 0xe600
 *    holds (1) and releases (0) its CPU (pvr2_upload_firmware1,
 *    pvr2_hdw_cpureset_assert).  On the release the device disconnects and
 *    comes back warm, as the real FX2 re-enumerates with its new firmware.
 *  - Warm: bulk 0x01/0x81 carry the FX2 command set of pvrusb2-fx2-cmd.h
 *    (pvr2_send_request_ex: one command written, then its reply read), 0x02
 *    takes the encoder firmware (pvr2_upload_firmware2), 0x84 the MPEG
 *    stream (pvrusb2-io.c, PVR2_VID_ENDPOINT).
 * An unplug (the core's "unplug") makes it cold again: a re-plug uploads
 * the firmware anew, as after a real power loss.
 * Model commands: "signal off|on", "mbox hang|ok", "lead N",
 * "gate N", "pvr-status".
 * Usage: ivtv-usbdev pvrusb2 NTSC_BASE [PAL_BASE] (BASE.mpg, .ts ... of
 * tests/emu/mkpayload.sh, one file per stream type and standard family). */
#include "pvrusb2.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t dev_desc[18] = {
  18, 1, 0x00, 0x02, 0, 0, 0, 64, 0x40, 0x20, 0x00, 0x29, 0x00, 0x01,
  1, 2, 3, 1
};

/* cold: interface 0 without endpoints */
static const uint8_t cold_config[18] = {
  9, 2, 18, 0, 1, 1, 0, 0x80, 250,
  9, 4, 0, 0, 0, 0xff, 0, 0, 0,
};

/* warm: the four bulk endpoints of pvrusb2-hdw-internal.h, 512 bytes */
static const uint8_t warm_config[46] = {
  9, 2, 46, 0, 1, 1, 0, 0x80, 250,
  9, 4, 0, 0, 4, 0xff, 0, 0, 0,
  7, 5, 0x01, 2, 0x00, 0x02, 0,
  7, 5, 0x81, 2, 0x00, 0x02, 0,
  7, 5, 0x02, 2, 0x00, 0x02, 0,
  7, 5, 0x84, 2, 0x00, 0x02, 0,
};

static const uint8_t qualifier[10] = { 10, 6, 0x00, 0x02, 0, 0, 0, 64, 1, 0 };

static const char *const strings[] = { "Hauppauge", "WinTV PVR USB2",
  "0012d687", NULL
};

static struct ud_model cold_model, warm_model;

static uint32_t
le32 (const uint8_t * b)
{
  return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t) b[3] << 24;
}

static void
put_le32 (uint8_t * b, uint32_t v)
{
  b[0] = v;
  b[1] = v >> 8;
  b[2] = v >> 16;
  b[3] = v >> 24;
}

/* FX2CMD_REG_WRITE / REG_READ (pvr2_write_register, pvr2_read_register):
 * the cx23416's registers as the FX2 relays them; GPIO direction and
 * output are read back by pvr2_hdw_gpio_chg_dir/chg_out */
static uint32_t *
reg_slot (struct pvr *p, uint16_t reg)
{
  for (int i = 0; i < 64; i++)
    if (p->reg_addr[i] == reg || p->reg_addr[i] == 0xffff) {
      p->reg_addr[i] = reg;
      return &p->regs[i];
    }
  return &p->regs[63];
}

static void
reply (struct pvr *p, const uint8_t * data, int len)
{
  memcpy (p->reply, data, len);
  p->reply_len = len;
}

/* one command written on 0x01 (pvrusb2-fx2-cmd.h); its reply, if the
 * driver reads one, waits for the read URB on 0x81 */
static void
fx2_command (struct ud_dev *d, struct pvr *p, const uint8_t * c, int len)
{
  uint8_t r[80] = { 0 };
  switch (c[0]) {
    case 0x01:                 /* FX2CMD_MEM_WRITE_DWORD: 7-byte chunks */
      for (int i = 1; i + 7 <= len; i += 7)
        pvr_mem_write (d, p, (uint32_t) c[i + 4] << 16 | c[i + 5] << 8 |
            c[i + 6], le32 (c + i));
      return;
    case 0x02:                 /* FX2CMD_MEM_READ_DWORD */
    case 0x28:                 /* FX2CMD_MEM_READ_64BYTES */
    {
      uint32_t a = (uint32_t) c[5] << 16 | c[6] << 8 | c[7];
      int n = c[0] == 0x02 ? 1 : 16;
      for (int i = 0; i < n; i++)
        put_le32 (r + 4 * i, pvr_mem_read (p, a + i));
      reply (p, r, 4 * n);
      return;
    }
    case 0x04:                 /* FX2CMD_REG_WRITE: val LE32, 0, reg BE16 */
      *reg_slot (p, c[6] << 8 | c[7]) = le32 (c + 1);
      return;
    case 0x05:                 /* FX2CMD_REG_READ */
      put_le32 (r, *reg_slot (p, c[6] << 8 | c[7]));
      reply (p, r, 4);
      return;
    case 0x08:                 /* FX2CMD_I2C_WRITE: addr len data */
      r[0] = pvr_i2c_write (d, p, c[1], c + 3, len - 3 < c[2] ? len - 3 : c[2]);
      reply (p, r, 1);
      return;
    case 0x09:                 /* FX2CMD_I2C_READ: wlen rlen addr data */
      r[0] = pvr_i2c_read (d, p, c[3], c + 4, c[1], r + 1,
          c[2] < 64 ? c[2] : 64);
      reply (p, r, 1 + (c[2] < 64 ? c[2] : 64));
      return;
    case 0x36:                 /* FX2CMD_STREAMING_ON */
    case 0x37:                 /* FX2CMD_STREAMING_OFF */
      pvr_stream_usb (d, p, c[0] == 0x36);
      return;
    case 0xeb:                 /* FX2CMD_GET_EEPROM_ADDR: 0xa0 -> 0x50
                                 * (pvrusb2-eeprom.c pvr2_eeprom_fetch) */
      r[0] = 0xa0;
      reply (p, r, 1);
      return;
    case 0x0b:                 /* FX2CMD_GET_USB_SPEED: high */
      r[0] = 1;
      reply (p, r, 1);
      return;
    case 0xec:                 /* FX2CMD_GET_IR_CODE: no key */
      reply (p, r, 4);
      return;
    case 0xdd:                 /* FX2CMD_DEEP_RESET (before firmware2) */
      ud_event (d, "deep-reset");
      p->fw2_bytes = 0;
      return;
    case 0x06:                 /* FX2CMD_MEMSEL */
    case 0x10:                 /* FX2CMD_HCW_ZILOG_RESET */
    case 0x52:                 /* FX2CMD_FWPOST1 */
    case 0xdc:                 /* FX2CMD_POWER_OFF */
    case 0xde:                 /* FX2CMD_POWER_ON */
      return;
    default:
      ud_event (d, "fx2 unknown command 0x%02x len=%d", c[0], len);
      return;
  }
}

static int
bulk_out (struct ud_dev *d, int ep, const uint8_t * data, int len)
{
  struct pvr *p = d->priv;
  if (ep == PVR_CTL_EP && len > 0)
    fx2_command (d, p, data, len);
  else if (ep == PVR_FW_EP) {
    if (!p->fw2_bytes)
      ud_event (d, "encoder-firmware start");
    p->fw2_bytes += len;
  }
  return 0;
}

/* vendor request 0xa0 (the FX2's boot loader): RAM writes and CPUCS */
static int
control (struct ud_dev *d, const struct ud_setup *s, uint8_t * data, int len)
{
  struct pvr *p = d->priv;
  if (s->bRequest != 0xa0)
    return -EPIPE;
  if (s->bRequestType == 0xc0)  /* pvr2_hdw_cpufw_set_enabled: read back */
    return s->wLength;
  if (s->bRequestType != 0x40)
    return -EPIPE;
  if (s->wValue == 0xe600) {
    if (len > 0 && data[0] == 0 && p->fw1_bytes) {
      ud_event (d, "fx2-firmware bytes=%u, cpu released", p->fw1_bytes);
      /* disconnect a moment later: the answer to this request must reach
       * the driver first (pvr2_hdw_cpureset_assert waits for it) */
      p->reenumerate_at = ud_now () + 0.3;
      p->reenumerate = 1;
    }
    return 0;
  }
  p->fw1_bytes += len;
  return 0;
}

static void
tick (struct ud_dev *d, double now)
{
  struct pvr *p = d->priv;
  if (p->reenumerate && now >= p->reenumerate_at) {
    /* the FX2 renumerates with its new firmware */
    ud_detach (d);
    p->reenumerate = 0;
    p->warm = 1;
    d->m = &warm_model;
    ud_attach (d);
    return;
  }
  if (p->reenumerate)
    return;
  if (p->reply_len && ud_head (d, PVR_CTL_EP)) {
    ud_complete (d, PVR_CTL_EP, p->reply, p->reply_len);
    p->reply_len = 0;
  }
  pvr_stream_tick (d, p, now);
}

/* the read URB of a command's reply: answered at once (on the tick it
 * waited up to a tick, seconds per encoder command under a loaded TCG) */
static void
urb_queued (struct ud_dev *d, int ep)
{
  struct pvr *p = d->priv;
  if (ep == PVR_CTL_EP && p->reply_len && !p->reenumerate
      && ud_complete (d, PVR_CTL_EP, p->reply, p->reply_len))
    p->reply_len = 0;
}

static void
go_cold (struct pvr *p)
{
  p->warm = 0;
  p->fw1_bytes = 0;
  p->fw2_bytes = 0;
  p->reply_len = 0;
  memset (p->regs, 0, sizeof p->regs);
  memset (p->reg_addr, 0xff, sizeof p->reg_addr);
  memset (p->mem, 0, sizeof p->mem);
  pvr_i2c_reset (p);
}

static void
detached (struct ud_dev *d)
{
  struct pvr *p = d->priv;
  pvr_stream_stop (d, p, "unplug");
  p->usb_streaming = 0;
  if (!p->reenumerate) {        /* a real unplug: power lost, FX2 cold */
    go_cold (p);
    d->m = &cold_model;
  }
}

static int
command (struct ud_dev *d, const char *line)
{
  struct pvr *p = d->priv;
  if (!strcmp (line, "signal off") || !strcmp (line, "signal on")) {
    p->signal = !strcmp (line, "signal on");
    pvr_i2c_reset (p);
    return 0;
  }
  if (!strcmp (line, "mbox hang") || !strcmp (line, "mbox ok")) {
    p->mbox_hang = !strcmp (line, "mbox hang");
    return 0;
  }
  if (sscanf (line, "lead %u", &p->lead) == 1)
    return 0;
  if (sscanf (line, "gate %llu", &p->gate) == 1)
    return 0;
  if (!strcmp (line, "pvr-status")) {
    ud_event (d, "pvr-status warm=%d session=%d capturing=%d usb=%d "
        "bytes=%llu sent4=%llu type=%u bitrate=%u gop=%u", p->warm,
        p->session, p->capturing, p->usb_streaming, p->produced,
        (unsigned long long) d->sent[PVR_VID_EP], p->stream_type,
        p->bitrate, p->gop);
    return 0;
  }
  return -1;
}

int
model_pvrusb2 (int argc, char **argv)
{
  static struct pvr p = { .signal = 1 };
  static const struct ud_model base = {
    .name = "pvrusb2",
    .dev_desc = dev_desc,
    .qualifier = qualifier,
    .strings = strings,
    .speed = 3,
    .tick_us = 1000,
    .control = control,
    .tick = tick,
    .bulk_out = bulk_out,
    .command = command,
    .detached = detached,
    .urb_queued = urb_queued,
  };
  if (argc < 2 || pvr_load_files (&p, 0, argv[1]) < 0
      || (argc > 2 && pvr_load_files (&p, 1, argv[2]) < 0)) {
    fprintf (stderr, "usage: ivtv-usbdev pvrusb2 NTSC_BASE [PAL_BASE] "
        "(BASE.mpg must exist)\n");
    return 2;
  }
  cold_model = base;
  cold_model.config_desc = cold_config;
  cold_model.config_len = sizeof cold_config;
  warm_model = base;
  warm_model.config_desc = warm_config;
  warm_model.config_len = sizeof warm_config;
  go_cold (&p);
  return ud_run (&cold_model, &p);
}
