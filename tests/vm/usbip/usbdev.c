/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* usbdev.c - the USB/IP device core: attaches to the kernel's vhci-hcd
 * over an AF_UNIX socketpair (drivers/usb/usbip/vhci_sysfs.c attach_store
 * takes "PORT SOCKFD DEVID SPEED"), reads USBIP_CMD_SUBMIT / CMD_UNLINK and
 * answers RET_SUBMIT / RET_UNLINK (Documentation/usb/usbip_protocol.rst:
 * 48-byte big-endian headers; OUT data after the command; ISO packet
 * descriptors after the data), answers the standard requests of the USB
 * core's enumeration (drivers/usb/core/hub.c hub_port_init and
 * usb_get_configuration in config.c), keeps every IN URB pending until
 * the model completes it, and runs the fault knobs read on stdin.
 * One thread: poll() on the socket, stdin and a pacing timerfd. */
#include "usbdev.h"
#include "usbdev-int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

enum
{ CMD_SUBMIT = 1, CMD_UNLINK = 2, RET_SUBMIT = 3, RET_UNLINK = 4 };
#define HDR_LEN 48

static const char *vhci_dir (void)
{
  const char *p = getenv ("UD_VHCI");
  return p ? p : "/sys/devices/platform/vhci_hcd.0";
}

double
ud_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

void
ud_event (struct ud_dev *d, const char *fmt, ...)
{
  va_list ap;
  (void) d;
  printf ("%.3f ", ud_now ());
  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
  putchar ('\n');
  fflush (stdout);
}

static uint32_t
get32 (const uint8_t * p)
{
  return (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 | p[2] << 8 | p[3];
}

static void
put32 (uint8_t * p, uint32_t v)
{
  p[0] = v >> 24;
  p[1] = v >> 16;
  p[2] = v >> 8;
  p[3] = v;
}

static int
read_full (int fd, void *buf, size_t len)
{
  uint8_t *p = buf;
  while (len) {
    ssize_t n = read (fd, p, len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return -1;
    p += n;
    len -= n;
  }
  return 0;
}

static int
writev_full (int fd, struct iovec *iov, int n)
{
  while (n) {
    ssize_t w = writev (fd, iov, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w < 0)
      return -1;
    while (n && (size_t) w >= iov->iov_len) {
      w -= iov->iov_len;
      iov++;
      n--;
    }
    if (n) {
      iov->iov_base = (uint8_t *) iov->iov_base + w;
      iov->iov_len -= w;
    }
  }
  return 0;
}

/* RET_SUBMIT: the answer to one CMD_SUBMIT (vhci_rx.c vhci_recv_ret_submit:
 * the seqnum finds the URB; IN data then ISO descriptors follow) */
int
ud_send_ret (struct ud_dev *d, uint32_t seq, uint32_t dir, uint32_t ep,
    int32_t status, const uint8_t * data, int len, const struct ud_urb *iso,
    const uint32_t * actual)
{
  uint8_t h[HDR_LEN] = { 0 };
  uint8_t desc[UD_MAX_ISO * 16];
  struct iovec iov[3];
  int n = 0, np = iso ? iso->npackets : 0;

  if (d->fd < 0)
    return -1;
  put32 (h, RET_SUBMIT);
  put32 (h + 4, seq);
  put32 (h + 12, dir);
  put32 (h + 16, ep);
  put32 (h + 20, (uint32_t) status);
  put32 (h + 24, (uint32_t) (dir ? len : len));
  put32 (h + 28, iso ? (uint32_t) iso->start_frame : 0);
  put32 (h + 32, (uint32_t) np);
  iov[n++] = (struct iovec) { h, HDR_LEN };
  if (dir && len > 0)
    iov[n++] = (struct iovec) { (void *) data, (size_t) len };
  if (np) {
    uint32_t off = 0;
    for (int i = 0; i < np; i++) {
      uint32_t a = actual ? actual[i] : 0;
      put32 (desc + i * 16, off);       /* offset in the URB's buffer */
      put32 (desc + i * 16 + 4, iso->iso_len[i]);
      put32 (desc + i * 16 + 8, a);
      put32 (desc + i * 16 + 12, 0);
      off += iso->iso_len[i];
    }
    iov[n++] = (struct iovec) { desc, (size_t) np * 16 };
  }
  if (writev_full (d->fd, iov, n) < 0) {
    ud_event (d, "error write %s", strerror (errno));
    return -1;
  }
  return 0;
}

int
ud_pending (struct ud_dev *d, int ep)
{
  int n = 0;
  for (struct ud_urb * u = d->pending[ep & 15]; u; u = u->next)
    n++;
  return n;
}

const struct ud_urb *
ud_head (struct ud_dev *d, int ep)
{
  return d->hold[ep & 15] ? NULL : d->pending[ep & 15];
}

static struct ud_urb *
pop (struct ud_dev *d, int ep)
{
  struct ud_urb *u = d->pending[ep & 15];
  if (u)
    d->pending[ep & 15] = u->next;
  return u;
}

int
ud_complete (struct ud_dev *d, int ep, const uint8_t * data, int len)
{
  struct ud_urb *u;
  if (!ud_head (d, ep))
    return 0;
  u = pop (d, ep);
  if (len > u->length)
    len = u->length;
  ud_send_ret (d, u->seqnum, 1, ep & 15, 0, data, len, NULL, NULL);
  d->sent[ep & 15] += len;
  free (u);
  return 1;
}

int
ud_complete_iso (struct ud_dev *d, int ep, const uint8_t * data,
    const uint32_t * actual, int npackets)
{
  struct ud_urb *u;
  int total = 0;
  if (!ud_head (d, ep))
    return 0;
  u = pop (d, ep);
  for (int i = 0; i < u->npackets; i++)
    total += i < npackets ? (int) actual[i] : 0;
  ud_send_ret (d, u->seqnum, 1, ep & 15, 0, data, total, u, actual);
  d->sent[ep & 15] += total;
  free (u);
  return 1;
}

/* URB errors: the next fail_count URBs of ep complete with fail_next
 * (-EPIPE is a stall, -EPROTO a bit-stuffing/CRC error, -EILSEQ...) */
static void
apply_faults (struct ud_dev *d)
{
  for (int ep = 1; ep < UD_MAX_EP; ep++)
    while (d->fail_count[ep] > 0 && d->pending[ep]) {
      struct ud_urb *u = pop (d, ep);
      ud_send_ret (d, u->seqnum, 1, ep, d->fail_next[ep], NULL, 0,
          u->npackets ? u : NULL, NULL);
      ud_event (d, "fault ep=%d status=%d", ep, d->fail_next[ep]);
      d->fail_count[ep]--;
      free (u);
    }
}

static void
drop_pending (struct ud_dev *d)
{
  for (int ep = 0; ep < UD_MAX_EP; ep++) {
    struct ud_urb *u;
    while ((u = pop (d, ep)))
      free (u);
  }
}

static int
write_sysfs (const char *name, const char *text)
{
  char path[256];
  int fd, ok;
  snprintf (path, sizeof path, "%s/%s", vhci_dir (), name);
  fd = open (path, O_WRONLY);
  if (fd < 0)
    return -errno;
  ok = write (fd, text, strlen (text)) == (ssize_t) strlen (text);
  ok = ok ? 0 : -errno;
  close (fd);
  return ok;
}

int
ud_attach (struct ud_dev *d)
{
  int sv[2], big = 4 << 20;
  char line[64];
  if (d->fd >= 0)
    return 0;
  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
    return -errno;
  setsockopt (sv[1], SOL_SOCKET, SO_SNDBUF, &big, sizeof big);
  for (int port = 0; port < 8; port++) {
    int r;
    /* devid: busnum << 16 | devnum, only echoed (vhci_sysfs.c) */
    snprintf (line, sizeof line, "%d %d %u %d", port, sv[0],
        (1u << 16) | (unsigned) (port + 2), d->m->speed);
    r = write_sysfs ("attach", line);
    if (r == 0) {
      close (sv[0]);            /* the kernel holds its own reference */
      d->fd = sv[1];
      d->port = port;
      d->config = 0;
      memset (d->alt, 0, sizeof d->alt);
      ud_event (d, "attached port=%d", port);
      if (d->m->attached)
        d->m->attached (d);
      return 0;
    }
  }
  ud_event (d, "error attach: no free vhci port (%s)", strerror (errno));
  close (sv[0]);
  close (sv[1]);
  return -EBUSY;
}

/* an unplug: vhci_sysfs.c detach_store shuts the connection down and
 * the hub sees the port disconnected; pending URBs die with it */
int
ud_detach (struct ud_dev *d)
{
  char line[16];
  int r;
  if (d->fd < 0)
    return 0;
  snprintf (line, sizeof line, "%d", d->port);
  r = write_sysfs ("detach", line);
  close (d->fd);
  d->fd = -1;
  drop_pending (d);
  ud_event (d, "detached port=%d rc=%d", d->port, r);
  d->port = -1;
  if (d->m->detached)
    d->m->detached (d);
  return r;
}

static int
handle_submit (struct ud_dev *d, const uint8_t * h)
{
  uint32_t seq = get32 (h + 4), dir = get32 (h + 12), ep = get32 (h + 16);
  int32_t len = (int32_t) get32 (h + 24);
  int32_t np = (int32_t) get32 (h + 32);
  uint8_t *buf = NULL;
  struct ud_urb *u;

  if (len < 0 || len > (64 << 20))
    return -1;
  if (np == -1)
    np = 0;
  if (!dir && len > 0) {
    buf = malloc (len);
    if (!buf || read_full (d->fd, buf, len) < 0)
      return free (buf), -1;
  }
  if (np < 0 || np > UD_MAX_ISO)
    return free (buf), -1;
  if (seq > d->max_seq)
    d->max_seq = seq;
  u = calloc (1, sizeof *u);
  u->seqnum = seq;
  u->ep = ep;
  u->length = len;
  u->npackets = np;
  u->start_frame = (int32_t) get32 (h + 28);
  u->interval = (int32_t) get32 (h + 36);
  if (np) {
    uint8_t desc[UD_MAX_ISO * 16];
    if (read_full (d->fd, desc, (size_t) np * 16) < 0)
      return free (buf), free (u), -1;
    for (int i = 0; i < np; i++)
      u->iso_len[i] = get32 (desc + i * 16 + 4);
  }
  for (int i = 0; i < 16; i++)
    if (d->early[i] == seq && seq) {
      /* already given back by our RET_UNLINK: never answer it */
      d->early[i] = 0;
      free (u);
      free (buf);
      return 0;
    }
  if (ep == 0) {
    ud_control (d, seq, dir, h + 40, buf, dir ? 0 : len);
    free (u);
  } else if (!dir) {
    int st = d->m->bulk_out ? d->m->bulk_out (d, ep, buf, len) : 0;
    ud_send_ret (d, seq, 0, ep, st, NULL, st ? 0 : len, np ? u : NULL, NULL);
    free (u);
  } else {
    struct ud_urb **t = &d->pending[ep & 15];
    while (*t)
      t = &(*t)->next;
    *t = u;
    if (d->m->urb_queued)
      d->m->urb_queued (d, ep & 15);
  }
  free (buf);
  return 0;
}

/* CMD_UNLINK (usb_kill_urb / a timeout in the driver): a URB still pending
 * is given back with -ECONNRESET and never completed; one already answered
 * gets status 0 (vhci_rx.c vhci_recv_ret_unlink).  vhci_tx.c can send the
 * CMD_UNLINK of a URB before its CMD_SUBMIT (a URB resubmitted from its
 * completion and killed while vhci_send_cmd_unlink runs): that one is
 * unlinked too (-ECONNRESET) and its CMD_SUBMIT, when it comes, is dropped;
 * answering it would be a RET_SUBMIT of an unknown seqnum, on which vhci
 * drops the connection (vhci_recv_ret_submit). */
static int
handle_unlink (struct ud_dev *d, const uint8_t * h)
{
  uint32_t seq = get32 (h + 4), victim = get32 (h + 20);
  int32_t status = 0;
  uint8_t r[HDR_LEN] = { 0 };
  for (int ep = 0; ep < UD_MAX_EP && !status; ep++)
    for (struct ud_urb ** t = &d->pending[ep]; *t; t = &(*t)->next)
      if ((*t)->seqnum == victim) {
        struct ud_urb *u = *t;
        *t = u->next;
        free (u);
        status = -ECONNRESET;
        d->unlinked++;
        break;
      }
  if (!status && victim > d->max_seq) {
    static unsigned next;
    d->early[next++ % 16] = victim;
    status = -ECONNRESET;
    ud_event (d, "unlink-before-submit seqnum=%u", victim);
  }
  put32 (r, RET_UNLINK);
  put32 (r + 4, seq);
  put32 (r + 20, (uint32_t) status);
  struct iovec iov = { r, HDR_LEN };
  return writev_full (d->fd, &iov, 1);
}

static int
read_socket (struct ud_dev *d)
{
  uint8_t h[HDR_LEN];
  if (read_full (d->fd, h, HDR_LEN) < 0)
    return -1;
  switch (get32 (h)) {
    case CMD_SUBMIT:
      return handle_submit (d, h);
    case CMD_UNLINK:
      return handle_unlink (d, h);
    default:
      ud_event (d, "error unknown command %u", get32 (h));
      return -1;
  }
}

static int
core_command (struct ud_dev *d, char *line)
{
  int ep = 0, v = 0, n = 1;
  if (!strcmp (line, "unplug"))
    return ud_detach (d), 0;
  if (!strcmp (line, "plug"))
    return ud_attach (d), 0;
  if (!strcmp (line, "status")) {
    ud_event (d, "status port=%d sent1=%llu sent2=%llu unlinked=%llu "
        "pending1=%d", d->port, (unsigned long long) d->sent[1],
        (unsigned long long) d->sent[2], (unsigned long long) d->unlinked,
        ud_pending (d, 1));
    return 0;
  }
  if (sscanf (line, "hold %d", &ep) == 1 && ep > 0 && ep < UD_MAX_EP)
    return d->hold[ep] = 1, 0;
  if (sscanf (line, "release %d", &ep) == 1 && ep > 0 && ep < UD_MAX_EP)
    return d->hold[ep] = 0, 0;
  if (sscanf (line, "stall %d %d", &ep, &n) >= 1 && ep > 0 && ep < UD_MAX_EP) {
    d->fail_next[ep] = -EPIPE;
    d->fail_count[ep] = n;
    return 0;
  }
  if (sscanf (line, "error %d %d %d", &ep, &v, &n) >= 2 && ep > 0
      && ep < UD_MAX_EP) {
    d->fail_next[ep] = -v;
    d->fail_count[ep] = n;
    return 0;
  }
  return -1;
}

static int
read_stdin (struct ud_dev *d, char *acc, size_t *fill, size_t cap)
{
  ssize_t n = read (0, acc + *fill, cap - 1 - *fill);
  char *nl;
  if (n <= 0)
    return -1;
  *fill += n;
  acc[*fill] = 0;
  while ((nl = strchr (acc, '\n'))) {
    *nl = 0;
    if (!strcmp (acc, "quit"))
      return -1;
    if (acc[0] && core_command (d, acc) < 0
        && (!d->m->command || d->m->command (d, acc) < 0))
      ud_event (d, "error unknown command '%s'", acc);
    else if (acc[0])
      ud_event (d, "ok %s", acc);
    *fill -= nl + 1 - acc;
    memmove (acc, nl + 1, *fill + 1);
  }
  return 0;
}

int
ud_run (const struct ud_model *m, void *priv)
{
  struct ud_dev dev = { .m = m, .priv = priv, .fd = -1, .port = -1 };
  struct ud_dev *d = &dev;
  char acc[1024];
  size_t fill = 0;
  int tfd = -1;

  if (m->tick_us > 0) {
    struct itimerspec it = { {0, m->tick_us * 1000L}, {0, m->tick_us * 1000L} };
    tfd = timerfd_create (CLOCK_MONOTONIC, TFD_CLOEXEC);
    timerfd_settime (tfd, 0, &it, NULL);
  }
  if (ud_attach (d) < 0)
    return 1;
  for (;;) {
    struct pollfd p[3] = { {0, POLLIN, 0}, {tfd, POLLIN, 0}, {d->fd, POLLIN, 0} };
    if (poll (p, d->fd >= 0 ? 3 : 2, -1) < 0 && errno != EINTR)
      return 1;
    if (p[0].revents && read_stdin (d, acc, &fill, sizeof acc) < 0)
      break;
    if (d->fd >= 0 && p[2].revents && read_socket (d) < 0) {
      ud_event (d, "connection closed by the host");
      close (d->fd);
      d->fd = -1;
      drop_pending (d);
      if (m->detached)
        m->detached (d);
    }
    if (tfd >= 0 && p[1].revents) {
      uint64_t ticks;
      if (read (tfd, &ticks, sizeof ticks) > 0 && m->tick && d->fd >= 0)
        m->tick (d, ud_now ());
    }
    if (d->fd >= 0)
      apply_faults (d);
  }
  ud_detach (d);
  ud_event (d, "quit");
  return 0;
}
