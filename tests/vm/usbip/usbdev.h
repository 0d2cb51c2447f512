/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* usbdev.h - the USB/IP device core's API: a device model (descriptors,
 * a control handler, a pacing tick, model commands) served to the kernel's
 * vhci-hcd over a socketpair (drivers/usb/usbip/vhci_sysfs.c attach_store;
 * Documentation/usb/usbip_protocol.rst).  The core owns the protocol, the
 * pending URBs of every IN endpoint, UNLINK, attach/detach and the fault
 * knobs; a model only answers control requests and completes the URBs its
 * content is ready for.  See README.md in this folder. */
#ifndef USBDEV_H
#define USBDEV_H

#include <stddef.h>
#include <stdint.h>

#define UD_MAX_EP 16
#define UD_MAX_ISO 64           /* ISO packets per URB the core accepts */

struct ud_setup
{
  uint8_t bRequestType, bRequest;
  uint16_t wValue, wIndex, wLength;
};

/* one pending IN (or ISO) URB, as the kernel submitted it */
struct ud_urb
{
  uint32_t seqnum;
  uint32_t ep;
  int32_t length;               /* transfer_buffer_length */
  int32_t npackets;             /* ISO only */
  uint32_t iso_len[UD_MAX_ISO]; /* each ISO packet's length */
  int32_t start_frame, interval;
  struct ud_urb *next;
};

struct ud_dev;

struct ud_model
{
  const char *name;
  const uint8_t *dev_desc;      /* 18 bytes */
  const uint8_t *config_desc;   /* whole configuration, wTotalLength */
  size_t config_len;
  const uint8_t *qualifier;     /* device qualifier (10 bytes) or NULL */
  const char *const *strings;   /* index 1.. ; NULL-terminated */
  int speed;                    /* 2 full, 3 high (vhci attach_store) */
  int tick_us;                  /* pacing tick; 0: no tick */
  /* A control request the core does not answer itself (everything but
   * GET_DESCRIPTOR, SET_CONFIGURATION, SET_INTERFACE, GET_STATUS,
   * CLEAR_FEATURE).  data holds the OUT stage (len bytes) and receives
   * the IN stage; return the IN length (0 for OUT) or a negative errno
   * (-EPIPE: a stall). */
  int (*control) (struct ud_dev * d, const struct ud_setup * s,
      uint8_t * data, int len);
  void (*set_interface) (struct ud_dev * d, int intf, int alt);
  /* called every tick_us with the monotonic time in seconds */
  void (*tick) (struct ud_dev * d, double now);
  /* an OUT transfer on a non-zero endpoint; return its status */
  int (*bulk_out) (struct ud_dev * d, int ep, const uint8_t * data, int len);
  /* a model command from stdin ("signal off"...); 0 if known */
  int (*command) (struct ud_dev * d, const char *line);
  void (*attached) (struct ud_dev * d);   /* after each (re)attach */
  void (*detached) (struct ud_dev * d);   /* unplug: forget the stream */
  /* optional: an IN URB was just queued on ep (a model that answers a
   * command written on another endpoint completes it at once rather than
   * on its next tick) */
  void (*urb_queued) (struct ud_dev * d, int ep);
};

struct ud_dev
{
  const struct ud_model *m;
  void *priv;                   /* the model's state */
  int fd;                       /* our end of the socketpair, -1 detached */
  int port;                     /* vhci port, -1 detached */
  int config, alt[8];
  struct ud_urb *pending[UD_MAX_EP];      /* IN URBs, oldest first */
  /* fault knobs (stdin: see README.md) */
  int hold[UD_MAX_EP];          /* NAK: complete nothing on this ep */
  int fail_next[UD_MAX_EP];     /* next URB on ep completes with this */
  int fail_count[UD_MAX_EP];    /* how many URBs get fail_next */
  uint64_t sent[UD_MAX_EP];     /* payload bytes completed per ep */
  uint64_t unlinked;
  uint32_t max_seq;             /* highest CMD_SUBMIT seqnum seen */
  uint32_t early[16];           /* unlinked before their CMD_SUBMIT came */
};

/* core services for models */
double ud_now (void);
void ud_event (struct ud_dev *d, const char *fmt, ...)
    __attribute__((format (printf, 2, 3)));
int ud_pending (struct ud_dev *d, int ep);
const struct ud_urb *ud_head (struct ud_dev *d, int ep);
/* completes the oldest URB of ep with data (len <= its length); returns 1
 * when an URB was completed, 0 when none was pending or ep is held */
int ud_complete (struct ud_dev *d, int ep, const uint8_t * data, int len);
/* ISO: packet i carries actual[i] bytes of data (packed, in order) */
int ud_complete_iso (struct ud_dev *d, int ep, const uint8_t * data,
    const uint32_t * actual, int npackets);
/* unplug (vhci detach) and plug in again */
int ud_detach (struct ud_dev *d);
int ud_attach (struct ud_dev *d);

/* runs the device until stdin says "quit" or closes; returns exit code */
int ud_run (const struct ud_model *m, void *priv);

#endif
