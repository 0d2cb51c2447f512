/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* pvrusb2-i2c.c - the chips on a PVR-USB2 29xxx's I2C bus, as the FX2
 * relays them (pvrusb2-i2c-core.c pvr2_i2c_write: "08 addr len data",
 * pvr2_i2c_read: "09 wlen rlen addr data"; the reply's first byte is 8 for
 * an ack, 7 for no device).  pvrusb2-devattr.c pvr2_cli_29xxx names the
 * sub-devices the driver loads; each must answer or the driver registers
 * no node (pvr2_hdw_load_modules -> "failure of one or more sub-device"):
 *  - 0x50 the Hauppauge EEPROM: 8-bit addressed, the driver reads its last
 *    128 bytes 16 at a time (pvrusb2-eeprom.c pvr2_eeprom_fetch) and hands
 *    them to tveeprom (drivers/media/common/tveeprom.c
 *    tveeprom_hauppauge_analog): model 29032, a Philips FM1236 MK3 tuner
 *    (index 58) for NTSC(M) and PAL(B/G), an MSP3400 and a SAA7115, FM radio;
 *  - 0x21 saa7115: register 0 read after writing i gives the i-th nibble
 *    of the chip's version string (saa7115.c saa711x_detect_chip wants
 *    "?f7115..."); status bytes 0x1e/0x1f say locked (saa711x_g_input_status:
 *    0x80 / 0x81) or, after "signal off", no signal;
 *  - 0x40 msp3400: DSP registers 0x1e/0x1f give rev1 0x0207 and rev2 0x0003,
 *    "MSP3400G-B3" (msp3400-driver.c msp_probe; msp_reset needs the
 *    write + 2-byte read to be acked);
 *  - 0x61 the tuner (module_i2c_addresses 0x60-0x63 are probed; the
 *    status byte says in lock, tuner-simple.c tuner_islocked: 0x40);
 *  - 0x43 the tda9887 demodulator (tuner-core.c tuner_probe: not a
 *    tda829x, so a tda9887).
 * Every other address answers "no device". */
#include "pvrusb2.h"

#include <string.h>

static const uint8_t saa_version[16] = {
  0x1, 0xf, 0x7, 0x1, 0x1, 0x5, 0xd, 0x0, 0xe, 0x1, 0, 0, 0, 0, 0, 0
};

/* the last 128 bytes of the EEPROM, in tveeprom's tagged packets */
static const uint8_t eeprom_tail[] = {
  0x84, 0x08, 0x00, 0x06, 0x68, 0x71, 0x00, 0x00, 0x62, 0xe1, 0x08,
  /* 'ModelRev': model 29032 */
  0x84, 0x09, 0x00, 0x04, 0, 0, 0, 0, 0x87, 0xd6, 0x12, 0x00,
  /* 'SerialID2': 1234567 */
  0x72, 0x05, 0x04,             /* 'Audio2': MSP3400C */
  0x73, 0x0a, 0x0c, 0x3a,       /* 'Tuner': PAL(B/G)+NTSC(M), FM1236 MK3 */
  0x72, 0x09, 0x13,             /* 'Video': SAA7115 */
  0x72, 0x0e, 0x04,             /* 'Radio': FM */
  0x79, 0x00,                   /* end */
};

void
pvr_i2c_reset (struct pvr *p)
{
  memset (p->saa, 0, sizeof p->saa);
  p->saa[0x1e] = p->signal ? 0x80 : 0x00;
  p->saa[0x1f] = p->signal ? 0x81 : 0x40;
}

static void
msp_read (const uint8_t * w, int wlen, uint8_t * out)
{
  /* 0x13 = read DSP, 0x11 = read demodulator; 16-bit address */
  int reg = wlen >= 3 ? (w[1] << 8 | w[2]) : -1;
  uint16_t v = 0;
  if (wlen >= 3 && w[0] == 0x13 && reg == 0x1e)
    v = 0x0207;
  else if (wlen >= 3 && w[0] == 0x13 && reg == 0x1f)
    v = 0x0003;
  out[0] = v >> 8;
  out[1] = v & 0xff;
}

int
pvr_i2c_write (struct ud_dev *d, struct pvr *p, int addr,
    const uint8_t * data, int len)
{
  (void) d;
  switch (addr) {
    case 0x21:                 /* saa7115: subaddress, then data */
      for (int i = 1; i < len; i++)
        if (!(data[0] + i - 1 >= 0x1e && data[0] + i - 1 <= 0x1f))
          p->saa[(data[0] + i - 1) & 0xff] = data[i];
      return 8;
    case 0x61:                 /* tuner: divider (2 bytes), control ... */
      if (len >= 2 && !(data[0] & 0x80))
        p->tuner_freq_div = data[0] << 8 | data[1];
      return 8;
    case 0x40:
    case 0x43:
    case 0x50:
      return 8;
    default:
      return 7;
  }
}

int
pvr_i2c_read (struct ud_dev *d, struct pvr *p, int addr,
    const uint8_t * w, int wlen, uint8_t * out, int rlen)
{
  (void) d;
  memset (out, 0, rlen);
  switch (addr) {
    case 0x50:                 /* EEPROM: 8-bit offset, last 128 bytes */
      for (int i = 0; i < rlen; i++) {
        int off = (wlen ? w[0] : 0) + i - 128;
        if (off >= 0 && off < (int) sizeof eeprom_tail)
          out[i] = eeprom_tail[off];
      }
      return 8;
    case 0x21:{
      int reg = wlen ? w[0] : 0;
      for (int i = 0; i < rlen; i++)
        out[i] = reg + i == 0 ? saa_version[p->saa[0] & 15] :
            p->saa[(reg + i) & 0xff];
      return 8;
    }
    case 0x40:
      if (rlen >= 2)
        msp_read (w, wlen, out);
      return 8;
    case 0x61:                 /* tuner status: in lock, AFC centred */
      if (rlen >= 1)
        out[0] = p->signal ? 0x42 : 0x02;
      return 8;
    case 0x43:                 /* tda9887 status */
      return 8;
    default:
      return 7;
  }
}
