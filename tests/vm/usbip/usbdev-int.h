/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* usbdev-int.h - what the core's two files share (not for models): the
 * RET_SUBMIT writer of usbdev.c and the control dispatcher of
 * usbdev-std.c. */
#ifndef USBDEV_INT_H
#define USBDEV_INT_H

#include "usbdev.h"

int ud_send_ret (struct ud_dev *d, uint32_t seq, uint32_t dir, uint32_t ep,
    int32_t status, const uint8_t * data, int len, const struct ud_urb *iso,
    const uint32_t * actual);
void ud_control (struct ud_dev *d, uint32_t seq, uint32_t dir,
    const uint8_t * setup, const uint8_t * out, int outlen);

#endif
