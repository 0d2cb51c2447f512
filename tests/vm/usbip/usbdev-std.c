/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* usbdev-std.c - control transfers on endpoint 0: the standard requests the
 * USB core sends while it enumerates and configures a device
 * (drivers/usb/core/hub.c hub_port_init: GET_DESCRIPTOR device;
 * config.c usb_get_configuration: GET_DESCRIPTOR configuration, first 9
 * bytes then wTotalLength; message.c usb_string / usb_get_langid:
 * GET_DESCRIPTOR string 0 then strings; message.c usb_set_configuration
 * and usb_set_interface; hub.c usb_get_device_qualifier ... ), and every
 * other request handed to the model's control callback.  SET_ADDRESS never
 * arrives: vhci_hcd.c vhci_urb_enqueue answers it itself. */
#include "usbdev-int.h"

#include <errno.h>
#include <string.h>

static int
string_desc (const struct ud_model *m, int index, uint8_t * out)
{
  const char *s;
  int n = 0;
  if (index == 0) {
    out[0] = 4;
    out[1] = 3;
    out[2] = 0x09;              /* English (US), usb_get_langid */
    out[3] = 0x04;
    return 4;
  }
  for (int i = 1; m->strings && m->strings[i - 1]; i++)
    if (i == index) {
      s = m->strings[i - 1];
      for (n = 0; s[n] && n < 126; n++) {
        out[2 + 2 * n] = (uint8_t) s[n];
        out[3 + 2 * n] = 0;
      }
      out[0] = 2 + 2 * n;
      out[1] = 3;
      return out[0];
    }
  return -EPIPE;
}

/* GET_DESCRIPTOR; returns the length or -EPIPE (a stall, as a device
 * without that descriptor answers) */
static int
get_descriptor (struct ud_dev *d, int type, int index, uint8_t * out)
{
  const struct ud_model *m = d->m;
  switch (type) {
    case 1:
      memcpy (out, m->dev_desc, 18);
      return 18;
    case 2:
      memcpy (out, m->config_desc, m->config_len);
      return (int) m->config_len;
    case 3:
      return string_desc (m, index, out);
    case 6:
      if (!m->qualifier)
        return -EPIPE;
      memcpy (out, m->qualifier, 10);
      return 10;
    default:                   /* BOS (0x0f), OTG, debug: none */
      return -EPIPE;
  }
}

static int
standard (struct ud_dev *d, const struct ud_setup *s, uint8_t * data)
{
  switch (s->bRequest) {
    case 0:                    /* GET_STATUS: self-powered 0, no wakeup */
      data[0] = data[1] = 0;
      return 2;
    case 1:                    /* CLEAR_FEATURE (endpoint halt) */
    case 3:                    /* SET_FEATURE */
      return 0;
    case 6:
      return get_descriptor (d, s->wValue >> 8, s->wValue & 0xff, data);
    case 8:
      data[0] = (uint8_t) d->config;
      return 1;
    case 9:
      d->config = s->wValue;
      ud_event (d, "set-configuration %d", s->wValue);
      return 0;
    case 10:
      data[0] = (uint8_t) d->alt[s->wIndex & 7];
      return 1;
    case 11:
      d->alt[s->wIndex & 7] = s->wValue;
      ud_event (d, "set-interface %d alt %d", s->wIndex, s->wValue);
      if (d->m->set_interface)
        d->m->set_interface (d, s->wIndex, s->wValue);
      return 0;
    default:
      return -EPIPE;
  }
}

void
ud_control (struct ud_dev *d, uint32_t seq, uint32_t dir,
    const uint8_t * setup, const uint8_t * out, int outlen)
{
  struct ud_setup s;
  static uint8_t data[65536];
  int r;

  s.bRequestType = setup[0];
  s.bRequest = setup[1];
  s.wValue = setup[2] | setup[3] << 8;
  s.wIndex = setup[4] | setup[5] << 8;
  s.wLength = setup[6] | setup[7] << 8;
  memset (data, 0, s.wLength);
  if (outlen > 0)
    memcpy (data, out, outlen);
  if ((s.bRequestType & 0x60) == 0)
    r = standard (d, &s, data);
  else
    r = d->m->control ? d->m->control (d, &s, data, outlen) : -EPIPE;
  if (r < 0) {
    ud_event (d, "control %02x %02x %04x %04x %d -> %d", s.bRequestType,
        s.bRequest, s.wValue, s.wIndex, s.wLength, r);
    ud_send_ret (d, seq, dir, 0, r, NULL, 0, NULL, NULL);
    return;
  }
  if (!(s.bRequestType & 0x80))
    r = outlen;                 /* an OUT stage is taken whole */
  else if (r > s.wLength)
    r = s.wLength;
  ud_send_ret (d, seq, dir, 0, 0, data, r, NULL, NULL);
}
