/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* stream-client.c - a small V4L2 streaming client that checks what the
 * emulator's streaming profiles deliver: sequence numbers, timestamps and
 * pacing, frame sizes and content, MMAP / USERPTR / EXPBUF / read(), and
 * the streaming faults.  Run under ivtv-emu by the test-stream-* tests:
 *   stream-client MODE [ARG] [--dev /dev/videoN] [--fmt YUYV|MJPG|UYVY]
 *                 [--size WxH] [--fps N] [--std ntsc|pal]
 * Exit 0 when every check holds, 1 with a message on the first that does
 * not. */
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define NBUF 4

struct client
{
  const char *dev;
  uint32_t fourcc, width, height, fps;
  v4l2_std_id std;
  int fd;
  uint32_t memory;
  struct v4l2_format fmt;
  void *mem[NBUF];
  size_t len[NBUF];
  unsigned nbuf;
};

static void
die (const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  fprintf (stderr, "stream-client: FAIL: ");
  vfprintf (stderr, fmt, ap);
  fprintf (stderr, "\n");
  va_end (ap);
  exit (1);
}

static int
xioctl (int fd, unsigned long req, void *arg)
{
  return ioctl (fd, req, arg) < 0 ? errno : 0;
}

static void
must (int err, const char *what)
{
  if (err)
    die ("%s: %s", what, strerror (err));
}

static double
now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
open_dev (struct client *c, int flags)
{
  c->fd = open (c->dev, O_RDWR | flags);
  if (c->fd < 0)
    die ("open %s: %s", c->dev, strerror (errno));
}

static void
set_format (struct client *c)
{
  struct v4l2_streamparm parm;

  if (c->std)
    must (xioctl (c->fd, VIDIOC_S_STD, &c->std), "S_STD");
  memset (&c->fmt, 0, sizeof (c->fmt));
  c->fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  must (xioctl (c->fd, VIDIOC_G_FMT, &c->fmt), "G_FMT");
  if (c->fourcc)
    c->fmt.fmt.pix.pixelformat = c->fourcc;
  if (c->width) {
    c->fmt.fmt.pix.width = c->width;
    c->fmt.fmt.pix.height = c->height;
  }
  must (xioctl (c->fd, VIDIOC_S_FMT, &c->fmt), "S_FMT");
  if (c->fourcc && c->fmt.fmt.pix.pixelformat != c->fourcc)
    die ("S_FMT did not take the format");
  if (c->fps) {
    memset (&parm, 0, sizeof (parm));
    parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    parm.parm.capture.timeperframe.numerator = 1;
    parm.parm.capture.timeperframe.denominator = c->fps;
    must (xioctl (c->fd, VIDIOC_S_PARM, &parm), "S_PARM");
  }
}

static double
frame_period (struct client *c)
{
  struct v4l2_streamparm parm;

  memset (&parm, 0, sizeof (parm));
  parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  must (xioctl (c->fd, VIDIOC_G_PARM, &parm), "G_PARM");
  if (!parm.parm.capture.timeperframe.denominator)
    die ("G_PARM: no frame period");
  return (double) parm.parm.capture.timeperframe.numerator /
      parm.parm.capture.timeperframe.denominator;
}

/* REQBUFS + QUERYBUF + mmap (or malloc for USERPTR), queue all; returns
 * the REQBUFS error instead of failing when `soft` */
static int
setup_buffers (struct client *c, uint32_t memory, int soft)
{
  struct v4l2_requestbuffers rb;
  unsigned i;
  int err;

  memset (&rb, 0, sizeof (rb));
  rb.count = NBUF;
  rb.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  rb.memory = memory;
  err = xioctl (c->fd, VIDIOC_REQBUFS, &rb);
  if (err && soft)
    return err;
  must (err, "REQBUFS");
  if (rb.count < 1 || rb.count > NBUF)
    die ("REQBUFS gave %u buffers", rb.count);
  c->nbuf = rb.count;
  c->memory = memory;
  for (i = 0; i < c->nbuf; i++) {
    struct v4l2_buffer b;

    memset (&b, 0, sizeof (b));
    b.index = i;
    b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    b.memory = memory;
    must (xioctl (c->fd, VIDIOC_QUERYBUF, &b), "QUERYBUF");
    if (b.length < c->fmt.fmt.pix.sizeimage)
      die ("buffer length %u < sizeimage %u", b.length,
          c->fmt.fmt.pix.sizeimage);
    c->len[i] = b.length;
    if (memory == V4L2_MEMORY_MMAP) {
      c->mem[i] = mmap (NULL, b.length, PROT_READ | PROT_WRITE, MAP_SHARED,
          c->fd, b.m.offset);
      if (c->mem[i] == MAP_FAILED)
        die ("mmap buffer %u: %s", i, strerror (errno));
    } else {
      c->mem[i] = calloc (1, b.length);
      b.m.userptr = (unsigned long) c->mem[i];
    }
    if (memory == V4L2_MEMORY_USERPTR)
      b.m.userptr = (unsigned long) c->mem[i];
    must (xioctl (c->fd, VIDIOC_QBUF, &b), "QBUF");
    if (!(b.flags & V4L2_BUF_FLAG_QUEUED))
      die ("QBUF: buffer not flagged QUEUED");
  }
  return 0;
}

static int
streamon (struct client *c)
{
  int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

  return xioctl (c->fd, VIDIOC_STREAMON, &type);
}

static int
dqbuf (struct client *c, struct v4l2_buffer *b)
{
  memset (b, 0, sizeof (*b));
  b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  b->memory = c->memory;
  return xioctl (c->fd, VIDIOC_DQBUF, b);
}

static void
qbuf (struct client *c, struct v4l2_buffer *b)
{
  if (c->memory == V4L2_MEMORY_USERPTR) {
    b->m.userptr = (unsigned long) c->mem[b->index];
    b->length = (uint32_t) c->len[b->index];
  }
  must (xioctl (c->fd, VIDIOC_QBUF, b), "QBUF (requeue)");
}

static void
check_frame (struct client *c, const struct v4l2_buffer *b)
{
  const uint8_t *p = c->mem[b->index];
  uint32_t pf = c->fmt.fmt.pix.pixelformat;

  if (pf == V4L2_PIX_FMT_MJPEG) {
    if (b->bytesused < 4 || b->bytesused > b->length)
      die ("MJPEG bytesused %u", b->bytesused);
    if (p[0] != 0xff || p[1] != 0xd8 || p[b->bytesused - 2] != 0xff
        || p[b->bytesused - 1] != 0xd9)
      die ("MJPEG frame lacks SOI/EOI markers");
  } else if (b->bytesused != c->fmt.fmt.pix.sizeimage) {
    die ("bytesused %u != sizeimage %u", b->bytesused,
        c->fmt.fmt.pix.sizeimage);
  }
  if (b->field != c->fmt.fmt.pix.field)
    die ("buffer field %u != format field %u", b->field, c->fmt.fmt.pix.field);
  if ((b->flags & V4L2_BUF_FLAG_TIMESTAMP_MASK) !=
      V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC)
    die ("timestamps are not flagged MONOTONIC");
  if (b->flags & (V4L2_BUF_FLAG_QUEUED | V4L2_BUF_FLAG_DONE |
          V4L2_BUF_FLAG_ERROR))
    die ("dequeued buffer has flags 0x%x", b->flags);
}

static double
ts_s (const struct v4l2_buffer *b)
{
  return b->timestamp.tv_sec + b->timestamp.tv_usec / 1e6;
}

/* captures n frames checking sequence, timestamps, pacing and content */
static void
mode_seq (struct client *c, uint32_t memory, unsigned n, int paced)
{
  struct v4l2_buffer b;
  double period, t0 = 0, tprev = 0, start, elapsed, clock_now;
  uint8_t *prev = NULL;
  size_t cmp = 0, prev_len = 0;
  int last_seq = -1, changes = 0;
  unsigned i;

  open_dev (c, 0);
  set_format (c);
  period = frame_period (c);
  setup_buffers (c, memory, 0);
  must (streamon (c), "STREAMON");
  start = now_s ();
  for (i = 0; i < n; i++) {
    must (dqbuf (c, &b), "DQBUF");
    check_frame (c, &b);
    if ((int) b.sequence <= last_seq)
      die ("sequence %u after %d", b.sequence, last_seq);
    if (i == 0 && b.sequence > 2)
      die ("first sequence number is %u", b.sequence);
    clock_now = now_s ();
    if (ts_s (&b) > clock_now + 0.001 || ts_s (&b) < start - 0.001)
      die ("timestamp %.6f outside [%.6f, %.6f]", ts_s (&b), start, clock_now);
    if (i == 0)
      t0 = ts_s (&b);
    else if (ts_s (&b) <= tprev)
      die ("timestamp went back: %.6f after %.6f", ts_s (&b), tprev);
    tprev = ts_s (&b);
    cmp = b.bytesused < 65536 ? b.bytesused : 65536;
    if (prev && memcmp (prev, c->mem[b.index],
            cmp < prev_len ? cmp : prev_len) != 0)
      changes++;
    free (prev);
    prev = malloc (cmp);
    prev_len = cmp;
    memcpy (prev, c->mem[b.index], cmp);
    last_seq = (int) b.sequence;
    qbuf (c, &b);
  }
  elapsed = now_s () - start;
  free (prev);
  if (changes < (int) n / 2)
    die ("frame content changed only %d times in %u frames", changes, n);
  if (paced) {
    double per = (tprev - t0) / (last_seq ? last_seq : 1);

    if (per < period * 0.8 || per > period * 1.25)
      die ("frame period %.4f s, expected %.4f s", per, period);
    if (elapsed < period * (n - 1) * 0.8)
      die ("%u frames took %.3f s, too fast for %.4f s/frame", n, elapsed,
          period);
  } else if (elapsed > 1.0) {
    die ("fast: %u frames took %.3f s", n, elapsed);
  }
  printf ("ok: %u frames %ux%u, last sequence %d, %.3f s, period %.4f s\n",
      n, c->fmt.fmt.pix.width, c->fmt.fmt.pix.height, last_seq, elapsed,
      period);
  if (c->width && (c->fmt.fmt.pix.width != c->width ||
          c->fmt.fmt.pix.height != c->height))
    die ("format is %ux%u, expected %ux%u", c->fmt.fmt.pix.width,
        c->fmt.fmt.pix.height, c->width, c->height);
}

/* dma fault: a buffer keeps the picture drawn into it first (the card's
 * DMA engine costs no CPU), while sequence numbers run on */
static void
mode_dma (struct client *c, unsigned n)
{
  struct v4l2_buffer b;
  uint32_t sum[64] = { 0 };
  unsigned seen[64] = { 0 }, i, again = 0;
  int last_seq = -1;
  size_t k;

  open_dev (c, 0);
  set_format (c);
  setup_buffers (c, V4L2_MEMORY_MMAP, 0);
  must (streamon (c), "STREAMON");
  for (i = 0; i < n; i++) {
    uint32_t h = 2166136261u;

    must (dqbuf (c, &b), "DQBUF");
    check_frame (c, &b);
    if ((int) b.sequence <= last_seq)
      die ("sequence %u after %d", b.sequence, last_seq);
    last_seq = (int) b.sequence;
    if (b.index >= 64)
      die ("buffer index %u", b.index);
    for (k = 0; k < b.bytesused; k += 61)
      h = (h ^ ((const uint8_t *) c->mem[b.index])[k]) * 16777619u;
    if (seen[b.index]++ == 0)
      sum[b.index] = h;
    else if (sum[b.index] != h)
      die ("buffer %u was redrawn (frame %u): dma should leave it alone",
          b.index, b.sequence);
    else
      again++;
    qbuf (c, &b);
  }
  if (again == 0)
    die ("no buffer came back in %u frames", n);
  printf ("ok: %u frames, %u of them in a buffer handed out before, "
      "unchanged\n", n, again);
}

/* EXPBUF: the exported fd maps the same memory as the buffer */
static void
mode_expbuf (struct client *c)
{
  struct v4l2_exportbuffer eb;
  struct v4l2_buffer b;
  void *emap[NBUF];
  unsigned i;

  open_dev (c, 0);
  set_format (c);
  setup_buffers (c, V4L2_MEMORY_MMAP, 0);
  for (i = 0; i < c->nbuf; i++) {
    memset (&eb, 0, sizeof (eb));
    eb.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    eb.index = i;
    eb.flags = O_CLOEXEC | O_RDWR;
    must (xioctl (c->fd, VIDIOC_EXPBUF, &eb), "EXPBUF");
    emap[i] = mmap (NULL, c->len[i], PROT_READ, MAP_SHARED, eb.fd, 0);
    if (emap[i] == MAP_FAILED)
      die ("mmap of the EXPBUF fd: %s", strerror (errno));
    close (eb.fd);
  }
  must (streamon (c), "STREAMON");
  for (i = 0; i < 8; i++) {
    must (dqbuf (c, &b), "DQBUF");
    if (memcmp (emap[b.index], c->mem[b.index], b.bytesused) != 0)
      die ("EXPBUF memory differs from the mmap()ed buffer");
    qbuf (c, &b);
  }
  printf ("ok: EXPBUF fds map the buffers\n");
}

/* read(): whole frames (tv-streaming) or EINVAL (webcam) */
/* read() retrying EINTR; counts the EINTRs */
static ssize_t
read_frame (int fd, void *buf, size_t n, int *eintr)
{
  ssize_t r;

  while ((r = read (fd, buf, n)) < 0 && errno == EINTR)
    (*eintr)++;
  return r;
}

static void
mode_read (struct client *c, int expect_einval, int want_eintr)
{
  int eintr = 0;

  uint8_t *buf;
  size_t size;
  ssize_t n;
  unsigned i;
  double start, period;

  open_dev (c, 0);
  set_format (c);
  period = frame_period (c);
  size = c->fmt.fmt.pix.sizeimage;
  buf = malloc (size + 4096);
  start = now_s ();
  for (i = 0; i < 10; i++) {
    n = read_frame (c->fd, buf, size + 4096, &eintr);
    if (expect_einval) {
      if (n >= 0 || errno != EINVAL)
        die ("read on a streaming-only device: %zd (%s), expected EINVAL", n,
            n < 0 ? strerror (errno) : "data");
      printf ("ok: read() fails with EINVAL\n");
      free (buf);
      return;
    }
    if (n != (ssize_t) size)
      die ("read %zd bytes, expected a whole frame of %zu", n, size);
  }
  /* a short read leaves the rest of the frame for the next read */
  n = read_frame (c->fd, buf, 1000, &eintr);
  if (n != 1000)
    die ("short read gave %zd", n);
  n = read_frame (c->fd, buf, size, &eintr);
  if (n != (ssize_t) size - 1000)
    die ("rest of the frame: %zd, expected %zu", n, size - 1000);
  if (now_s () - start < period * 9 * 0.8)
    die ("read() is not paced");
  if (want_eintr && eintr < 3)
    die ("only %d EINTR in 12 reads", eintr);
  if (!want_eintr && eintr)
    die ("%d unexpected EINTR", eintr);
  printf ("ok: read() of whole frames, %.3f s, %d EINTR\n", now_s () - start,
      eintr);
  free (buf);
}

/* --fault unplug-for=1 after the unplug: until a second has passed the
 * node cannot be opened; then it is a new device: a new descriptor
 * streams (REQBUFS is not refused because of the old one, which still has
 * its buffers mapped and one dequeued), the old descriptor stays dead and
 * its dequeued buffer stays readable. */
static void
check_replug (struct client *c, const struct v4l2_buffer *held)
{
  struct client n = *c;
  struct v4l2_buffer b;
  volatile const unsigned char *old = c->mem[held->index];
  unsigned char first = old[0];
  double t0 = now_s ();
  int fd;

  while ((fd = open (c->dev, O_RDWR)) < 0) {
    if (errno != ENODEV)
      die ("open while unplugged: %s, expected ENODEV", strerror (errno));
    if (now_s () - t0 > 3)
      die ("still unplugged after 3 s");
    usleep (50000);
  }
  close (fd);
  if (now_s () - t0 < 0.5)
    die ("back after %.2f s, before unplug-for=1", now_s () - t0);
  open_dev (&n, 0);
  set_format (&n);
  must (setup_buffers (&n, V4L2_MEMORY_MMAP, 1), "REQBUFS on the new device");
  must (streamon (&n), "STREAMON on the new device");
  must (dqbuf (&n, &b), "DQBUF on the new device");
  if (b.bytesused != n.fmt.fmt.pix.sizeimage)
    die ("new device: %u bytes, expected %u", b.bytesused,
        n.fmt.fmt.pix.sizeimage);
  if (dqbuf (c, &b) != ENODEV)
    die ("the old descriptor works again after the replug");
  if (old[0] != first)
    die ("the old descriptor's dequeued buffer changed");
  printf ("ok: back after %.2f s as a new device; old descriptor still ENODEV\n",
      now_s () - t0);
}

static void
mode_fault (struct client *c, const char *what, long arg)
{
  struct v4l2_buffer b;
  struct pollfd pfd;
  unsigned i;
  int err;

  open_dev (c, !strcmp (what, "eagain") || !strcmp (what, "stall") ?
      O_NONBLOCK : 0);
  set_format (c);
  if (!strcmp (what, "reqbufs")) {
    err = setup_buffers (c, V4L2_MEMORY_MMAP, 1);
    if (err != ENOMEM)
      die ("REQBUFS under reqbufs-fails: %s", strerror (err));
    printf ("ok: REQBUFS fails with ENOMEM\n");
    return;
  }
  setup_buffers (c, V4L2_MEMORY_MMAP, 0);
  err = streamon (c);
  if (!strcmp (what, "streamon")) {
    if (err != EIO)
      die ("STREAMON under streamon-fails: %s", strerror (err));
    printf ("ok: STREAMON fails with EIO\n");
    return;
  }
  must (err, "STREAMON");
  pfd.fd = c->fd;
  pfd.events = POLLIN;
  if (!strcmp (what, "unplug") || !strcmp (what, "replug")) {
    for (i = 0; i < arg; i++) {
      must (dqbuf (c, &b), "DQBUF before the unplug");
      if (i + 1 < arg)
        qbuf (c, &b);
    }
    err = dqbuf (c, &b);
    if (err != ENODEV)
      die ("DQBUF after %ld frames: %s, expected ENODEV", arg, strerror (err));
    if (poll (&pfd, 1, 1000) != 1 || !(pfd.revents & POLLERR))
      die ("poll after the unplug: revents 0x%x", pfd.revents);
    printf ("ok: %ld frames, then ENODEV and POLLERR\n", arg);
    if (!strcmp (what, "replug"))
      check_replug (c, &b);
  } else if (!strcmp (what, "eio")) {
    for (i = 0; i < arg; i++) {
      must (dqbuf (c, &b), "DQBUF before eio-at");
      qbuf (c, &b);
    }
    err = dqbuf (c, &b);
    if (err != EIO)
      die ("DQBUF %ld: %s, expected EIO", arg + 1, strerror (err));
    must (dqbuf (c, &b), "DQBUF after the EIO");
    printf ("ok: EIO once after %ld frames, then frames again\n", arg);
  } else if (!strcmp (what, "stall")) {
    for (i = 0; i < arg;) {
      if (poll (&pfd, 1, 2000) != 1)
        die ("poll timed out before the stall");
      err = dqbuf (c, &b);
      if (err == EAGAIN)
        continue;
      must (err, "DQBUF before the stall");
      qbuf (c, &b);
      i++;
    }
    if (poll (&pfd, 1, 600) != 0)
      die ("poll is ready after stall-after=%ld", arg);
    if (dqbuf (c, &b) != EAGAIN)
      die ("DQBUF after the stall is not EAGAIN");
    printf ("ok: %ld frames, then nothing\n", arg);
  } else if (!strcmp (what, "eintr") || !strcmp (what, "eagain")) {
    int want = !strcmp (what, "eintr") ? EINTR : EAGAIN, hits = 0, calls = 0;

    for (i = 0; i < 12;) {
      if (want == EAGAIN && poll (&pfd, 1, 2000) != 1)
        die ("poll timed out");
      err = dqbuf (c, &b);
      calls++;
      if (err == want) {
        if (calls % arg != 0)
          die ("%s on call %d, not a multiple of %ld", strerror (err), calls,
              arg);
        hits++;
        continue;
      }
      if (err == EAGAIN)
        continue;               /* non-blocking, frame not due yet */
      must (err, "DQBUF");
      qbuf (c, &b);
      i++;
    }
    if (hits < 12 / (int) arg - 1)
      die ("only %d %s in %d DQBUF calls", hits, strerror (want), calls);
    printf ("ok: %d x %s in %d calls\n", hits, strerror (want), calls);
  } else {
    die ("unknown fault mode %s", what);
  }
}

/* busy: S_FMT to another format / S_STD to another standard with buffers
 * allocated and a second handle's REQBUFS are refused with EBUSY, until the
 * buffers are freed */
static void
mode_busy (struct client *c)
{
  struct v4l2_requestbuffers rb;
  struct v4l2_format f;
  struct v4l2_fmtdesc fd;
  v4l2_std_id std, other;
  int fd2;

  open_dev (c, 0);
  set_format (c);
  setup_buffers (c, V4L2_MEMORY_MMAP, 0);
  memset (&fd, 0, sizeof (fd));
  fd.index = 1;
  fd.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  must (xioctl (c->fd, VIDIOC_ENUM_FMT, &fd), "ENUM_FMT 1");
  f = c->fmt;
  f.fmt.pix.pixelformat = fd.pixelformat;
  if (xioctl (c->fd, VIDIOC_S_FMT, &f) != EBUSY)
    die ("S_FMT to another format with buffers allocated is not EBUSY");
  if (xioctl (c->fd, VIDIOC_G_STD, &std) == 0) {
    other = (std & V4L2_STD_525_60) ? V4L2_STD_PAL_BG : V4L2_STD_NTSC_M;
    if (xioctl (c->fd, VIDIOC_S_STD, &other) != EBUSY)
      die ("S_STD to another standard with buffers allocated is not EBUSY");
    must (xioctl (c->fd, VIDIOC_S_STD, &std), "S_STD to the same standard");
  }
  fd2 = open (c->dev, O_RDWR);
  memset (&rb, 0, sizeof (rb));
  rb.count = 2;
  rb.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  rb.memory = V4L2_MEMORY_MMAP;
  if (xioctl (fd2, VIDIOC_REQBUFS, &rb) != EBUSY)
    die ("REQBUFS on a second handle is not EBUSY");
  /* like the kernel, a mapping keeps the file (and its buffers) alive */
  for (unsigned i = 0; i < c->nbuf; i++)
    munmap (c->mem[i], c->len[i]);
  close (c->fd);
  rb.count = 2;
  must (xioctl (fd2, VIDIOC_REQBUFS, &rb), "REQBUFS after the owner closed");
  printf ("ok: EBUSY while another handle owns the buffers\n");
}

/* content follows the input; no-signal gives black */
static void
grab (struct client *c, uint8_t * out, size_t n)
{
  struct v4l2_buffer b;
  int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  struct v4l2_requestbuffers rb;

  setup_buffers (c, V4L2_MEMORY_MMAP, 0);
  must (streamon (c), "STREAMON");
  must (dqbuf (c, &b), "DQBUF");
  memcpy (out, (uint8_t *) c->mem[b.index] + c->fmt.fmt.pix.sizeimage / 2, n);
  must (xioctl (c->fd, VIDIOC_STREAMOFF, &type), "STREAMOFF");
  for (unsigned i = 0; i < c->nbuf; i++)
    munmap (c->mem[i], c->len[i]);
  memset (&rb, 0, sizeof (rb));
  rb.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  rb.memory = V4L2_MEMORY_MMAP;
  must (xioctl (c->fd, VIDIOC_REQBUFS, &rb), "REQBUFS 0");
}

/* "drop gap|nogap": every buffer held for 80 frame periods, so the frames
 * of that time are dropped (the engine completes frames lazily: it drops
 * what came while no buffer was queued once the reader was away more than
 * 64 periods, stream_advance()); the next frame's timestamp shows the loss,
 * and its sequence number either jumps over it (vivid-like drivers) or
 * follows on (stk1160, usbtv: only delivered frames are counted) */
static void
mode_drop (struct client *c, const char *kind)
{
  struct v4l2_buffer held[NBUF], b;
  struct timespec nap;
  double period, gap_ts, last_ts;
  unsigned i;
  uint32_t step, last_seq;

  open_dev (c, 0);
  set_format (c);
  period = frame_period (c);
  setup_buffers (c, V4L2_MEMORY_MMAP, 0);
  must (streamon (c), "STREAMON");
  for (i = 0; i < c->nbuf; i++)
    must (dqbuf (c, &held[i]), "DQBUF");
  nap.tv_sec = (time_t) (period * 80);
  nap.tv_nsec = (long) ((period * 80 - (double) nap.tv_sec) * 1e9);
  nanosleep (&nap, NULL);       /* nothing queued: the driver drops */
  last_seq = held[c->nbuf - 1].sequence;        /* QBUF clears them */
  last_ts = ts_s (&held[c->nbuf - 1]);
  for (i = 0; i < c->nbuf; i++)
    qbuf (c, &held[i]);
  must (dqbuf (c, &b), "DQBUF after the drop");
  step = b.sequence - last_seq;
  gap_ts = ts_s (&b) - last_ts;
  if (gap_ts < period * 60)
    die ("the frame after an 80-frame drop is %.3f s later, not >= %.3f s",
        gap_ts, period * 60);
  if (!strcmp (kind, "nogap") && step != 1)
    die ("sequence %u after %u: a gap where the driver counts only "
        "delivered frames", b.sequence, last_seq);
  if (!strcmp (kind, "gap") && step < 60)
    die ("sequence %u after %u: no gap for %.3f s of dropped frames",
        b.sequence, last_seq, gap_ts);
  printf ("ok: %.3f s dropped, sequence %u -> %u\n", gap_ts, last_seq,
      b.sequence);
}

static void
mode_input (struct client *c, int expect_black)
{
  uint8_t a[4096], b[4096];
  int input = 0;
  size_t i;

  open_dev (c, 0);
  set_format (c);
  must (xioctl (c->fd, VIDIOC_S_INPUT, &input), "S_INPUT 0");
  grab (c, a, sizeof (a));
  input = 1;
  must (xioctl (c->fd, VIDIOC_S_INPUT, &input), "S_INPUT 1");
  grab (c, b, sizeof (b));
  if (expect_black) {
    for (i = 0; i < sizeof (a); i += 2)
      if (a[i] != 16 || b[i] != 16)
        die ("no-signal frame is not black (Y=%u)", a[i]);
    printf ("ok: black frames without signal\n");
    return;
  }
  if (memcmp (a, b, sizeof (a)) == 0)
    die ("inputs 0 and 1 show the same picture");
  printf ("ok: each input shows its own picture\n");
}

int
main (int argc, char **argv)
{
  struct client c;
  const char *mode, *arg = NULL;
  int i;

  memset (&c, 0, sizeof (c));
  c.dev = "/dev/video0";
  if (argc < 2)
    die ("usage: stream-client MODE [ARG] [--dev D] [--fmt F] [--size WxH] "
        "[--fps N]");
  mode = argv[1];
  for (i = 2; i < argc; i++) {
    if (!strcmp (argv[i], "--dev") && i + 1 < argc)
      c.dev = argv[++i];
    else if (!strcmp (argv[i], "--fmt") && i + 1 < argc) {
      const char *s = argv[++i];

      if (strlen (s) != 4)
        die ("bad fourcc %s", s);
      c.fourcc = v4l2_fourcc (s[0], s[1], s[2], s[3]);
    } else if (!strcmp (argv[i], "--size") && i + 1 < argc) {
      if (sscanf (argv[++i], "%ux%u", &c.width, &c.height) != 2)
        die ("bad size %s", argv[i]);
    } else if (!strcmp (argv[i], "--std") && i + 1 < argc) {
      i++;
      c.std = !strcmp (argv[i], "ntsc") ? V4L2_STD_NTSC_M : V4L2_STD_PAL_BG;
    } else if (!strcmp (argv[i], "--fps") && i + 1 < argc)
      c.fps = (uint32_t) atoi (argv[++i]);
    else if (!arg)
      arg = argv[i];
    else
      die ("unexpected argument %s", argv[i]);
  }
  if (!strcmp (mode, "mmap"))
    mode_seq (&c, V4L2_MEMORY_MMAP, 30, 1);
  else if (!strcmp (mode, "userptr"))
    mode_seq (&c, V4L2_MEMORY_USERPTR, 30, 1);
  else if (!strcmp (mode, "fast"))
    mode_seq (&c, V4L2_MEMORY_MMAP, 60, 0);
  else if (!strcmp (mode, "dma"))
    mode_dma (&c, 60);
  else if (!strcmp (mode, "expbuf"))
    mode_expbuf (&c);
  else if (!strcmp (mode, "read"))
    mode_read (&c, 0, 0);
  else if (!strcmp (mode, "read-eintr"))
    mode_read (&c, 0, 1);
  else if (!strcmp (mode, "read-einval"))
    mode_read (&c, 1, 0);
  else if (!strcmp (mode, "busy"))
    mode_busy (&c);
  else if (!strcmp (mode, "input"))
    mode_input (&c, 0);
  else if (!strcmp (mode, "black"))
    mode_input (&c, 1);
  else if (!strcmp (mode, "drop") && arg)
    mode_drop (&c, arg);
  else if (!strcmp (mode, "fault") && arg) {
    char what[32];
    long n = 0;

    if (sscanf (arg, "%31[a-z]=%ld", what, &n) < 1)
      die ("bad fault argument %s", arg);
    mode_fault (&c, what, n);
  } else
    die ("unknown mode %s", mode);
  return 0;
}
