/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mpeg-client.c - test client of the MPEG encoder engine (pvr250/pvr150)
 * under ivtv-emu: checks each read() fault at its exact byte count, the
 * no-signal and standard-change faults, pacing, and V4L2 events sent by
 * another process.  One check per run:
 *   mpeg-client unplug N | eio N | eintr K | eagain K | short MAX
 *   mpeg-client stall N | no-signal | std-change N | pacing
 *   mpeg-client events   (subscribes, prints "ready", waits for the
 *                         SOURCE_CHANGE of input 2 and a brightness event)
 *   mpeg-client capture OUT SECONDS [STALL_AT STALL_FOR]
 *                        (full 64 KiB blocking reads into OUT for SECONDS,
 *                         with no read at all from STALL_AT for STALL_FOR
 *                         seconds: a reader that stalls, for the queue)
 *   mpeg-client stop-backlog OUT STALL read|close
 *                        (a backlog, then ENCODER_CMD STOP at GOP end,
 *                         then read to the end, or close)
 *   mpeg-client pause    (ENCODER_CMD PAUSE/RESUME as ivtv's: EPERM before
 *                         the encoder runs, the backlog still read while
 *                         paused, then nothing, one stream across it)
 * Exit 0 = pass, 1 = fail (with a message). */
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define DEV "/dev/video0"
#define CHUNK 65536

static unsigned char buf[CHUNK];

static void
fail (const char *fmt, ...)
{
  va_list ap;

  va_start (ap, fmt);
  fputs ("FAIL: ", stdout);
  vprintf (fmt, ap);
  fputc ('\n', stdout);
  va_end (ap);
  exit (1);
}

static int
open_dev (int flags)
{
  int fd = open (DEV, O_RDWR | flags);

  if (fd < 0)
    fail ("open %s: %s", DEV, strerror (errno));
  return fd;
}

static double
now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* reads until an error; returns the bytes read before it, errno kept */
static uint64_t
read_until_error (int fd, uint64_t limit)
{
  uint64_t total = 0;

  for (;;) {
    ssize_t n = read (fd, buf, sizeof (buf));

    if (n < 0)
      return total;
    if (n == 0)
      fail ("unexpected end of stream after %llu bytes",
          (unsigned long long) total);
    total += (uint64_t) n;
    if (total > limit)
      fail ("no error after %llu bytes", (unsigned long long) total);
  }
}

static int
check_unplug (uint64_t n)
{
  int fd = open_dev (0), fd2;
  uint64_t got = read_until_error (fd, n + CHUNK);
  struct v4l2_capability cap;
  struct pollfd pfd = {.fd = fd,.events = POLLIN };

  if (errno != ENODEV)
    fail ("read after %llu bytes: %s, expected ENODEV",
        (unsigned long long) got, strerror (errno));
  if (got != n)
    fail ("ENODEV after %llu bytes, expected exactly %llu",
        (unsigned long long) got, (unsigned long long) n);
  if (read (fd, buf, 16) >= 0 || errno != ENODEV)
    fail ("second read after unplug: not ENODEV");
  if (ioctl (fd, VIDIOC_QUERYCAP, &cap) == 0 || errno != ENODEV)
    fail ("QUERYCAP after unplug: not ENODEV (%s)", strerror (errno));
  if (poll (&pfd, 1, 1000) != 1 || !(pfd.revents & POLLERR))
    fail ("poll after unplug: revents 0x%x, expected POLLERR", pfd.revents);
  fd2 = open (DEV, O_RDWR);
  if (fd2 >= 0 || errno != ENODEV)
    fail ("open after unplug: %s, expected ENODEV",
        fd2 >= 0 ? "succeeded" : strerror (errno));
  printf ("unplug: ENODEV after exactly %llu bytes, then on read, ioctl, "
      "open; poll POLLERR\n", (unsigned long long) got);
  return 0;
}

static int
check_eio (uint64_t n)
{
  int fd = open_dev (0);
  uint64_t got = read_until_error (fd, n + CHUNK);
  ssize_t r;

  if (errno != EIO)
    fail ("error %s after %llu bytes, expected EIO", strerror (errno),
        (unsigned long long) got);
  if (got != n)
    fail ("EIO after %llu bytes, expected %llu", (unsigned long long) got,
        (unsigned long long) n);
  r = read (fd, buf, sizeof (buf));
  if (r <= 0)
    fail ("read after the one EIO: %zd (%s)", r, strerror (errno));
  printf ("eio: one EIO after exactly %llu bytes, then data again\n",
      (unsigned long long) got);
  return 0;
}

/* every Kth read() call gives `err`; the others deliver data */
static int
check_every (int k, int err, bool nonblock)
{
  int fd = open_dev (nonblock ? O_NONBLOCK : 0);
  int call, hits = 0;

  for (call = 1; call <= 4 * k; call++) {
    ssize_t r;

    /* run with --fault fast: a non-blocking reader sees no genuine
     * EAGAIN, only the fault's */
    r = read (fd, buf, 4096);
    if (call % k == 0) {
      if (r >= 0 || errno != err)
        fail ("read call %d: %zd (%s), expected %s", call, r,
            r < 0 ? strerror (errno) : "data", strerror (err));
      hits++;
    } else if (r <= 0)
      fail ("read call %d: %zd (%s), expected data", call, r,
          r < 0 ? strerror (errno) : "end");
  }
  if (!nonblock || err != EAGAIN) {
    printf ("every %dth read: %s (%d times), data otherwise\n", k,
        strerror (err), hits);
    return 0;
  }
  /* eagain-every never hits a blocking reader */
  close (fd);
  fd = open_dev (0);
  for (call = 1; call <= 3 * k; call++)
    if (read (fd, buf, 4096) <= 0)
      fail ("blocking read call %d: %s", call, strerror (errno));
  printf ("every %dth non-blocking read: EAGAIN (%d times); blocking reads "
      "never\n", k, hits);
  return 0;
}

static int
check_short (int max)
{
  int fd = open_dev (0), i, sizes = 0;
  ssize_t last = -1;

  for (i = 0; i < 50; i++) {
    ssize_t r = read (fd, buf, sizeof (buf));

    if (r <= 0 || r > max)
      fail ("read %d gave %zd, expected 1..%d", i, r, max);
    if (r != last)
      sizes++;
    last = r;
  }
  if (sizes < 10)
    fail ("short reads of only %d distinct sizes", sizes);
  printf ("short-reads: 50 reads of 1..%d bytes, %d size changes\n", max,
      sizes);
  return 0;
}

static int
check_stall (uint64_t n)
{
  int fd = open_dev (O_NONBLOCK);
  uint64_t total = 0;
  struct pollfd pfd = {.fd = fd,.events = POLLIN };
  double t0 = now_s ();
  int r;

  while (total < n) {
    ssize_t k = read (fd, buf, sizeof (buf));

    if (k > 0)
      total += (uint64_t) k;
    else if (k < 0 && errno == EAGAIN)
      poll (&pfd, 1, 1000);
    else
      fail ("read: %zd (%s)", k, strerror (errno));
    if (now_s () - t0 > 10)
      fail ("only %llu bytes in 10 s", (unsigned long long) total);
  }
  if (total != n)
    fail ("%llu bytes before the stall, expected %llu",
        (unsigned long long) total, (unsigned long long) n);
  r = poll (&pfd, 1, 700);
  if (r != 0)
    fail ("poll after the stall: %d revents 0x%x, expected a timeout", r,
        pfd.revents);
  if (read (fd, buf, sizeof (buf)) >= 0 || errno != EAGAIN)
    fail ("non-blocking read after the stall: not EAGAIN");
  printf ("stall: %llu bytes, then poll times out and read gives EAGAIN\n",
      (unsigned long long) total);
  return 0;
}

static int
check_no_signal (void)
{
  int fd = open_dev (0), clip;
  struct v4l2_input in = { 0 };
  struct v4l2_tuner tu = { 0 };
  v4l2_std_id std = 0;
  uint32_t cur;
  char path[1024];
  const char *dir = getenv ("IVTV_EMU_PAYLOAD_DIR");
  static unsigned char want[32768];
  size_t got = 0;
  ssize_t r;

  if (ioctl (fd, VIDIOC_G_INPUT, &cur) < 0)
    fail ("G_INPUT: %s", strerror (errno));
  in.index = cur;
  if (ioctl (fd, VIDIOC_ENUMINPUT, &in) < 0)
    fail ("ENUMINPUT: %s", strerror (errno));
  if ((in.status & (V4L2_IN_ST_NO_SIGNAL | V4L2_IN_ST_NO_H_LOCK)) !=
      (V4L2_IN_ST_NO_SIGNAL | V4L2_IN_ST_NO_H_LOCK))
    fail ("input %u status 0x%x: NO_SIGNAL|NO_H_LOCK missing", cur, in.status);
  if (ioctl (fd, VIDIOC_G_TUNER, &tu) < 0 || tu.signal != 0)
    fail ("G_TUNER signal %u, expected 0", tu.signal);
  if (ioctl (fd, VIDIOC_QUERYSTD, &std) < 0 || std != V4L2_STD_UNKNOWN)
    fail ("QUERYSTD found 0x%llx on a dead input", (unsigned long long) std);
  /* the stream is the black clip, from its first byte */
  snprintf (path, sizeof (path), "%s/black-ntsc.mpg", dir ? dir : ".");
  clip = open (path, O_RDONLY);
  if (clip < 0 || read (clip, want, sizeof (want)) != sizeof (want))
    fail ("cannot read %s", path);
  while (got < sizeof (want)) {
    r = read (fd, buf + got, sizeof (want) - got);
    if (r <= 0)
      fail ("read: %s", strerror (errno));
    got += (size_t) r;
  }
  if (memcmp (buf, want, sizeof (want)) != 0)
    fail ("payload is not the black clip");
  printf ("no-signal: status 0x%x, tuner signal 0, QUERYSTD unknown, "
      "black payload\n", in.status);
  return 0;
}

static int
check_std_change (uint64_t n)
{
  int fd = open_dev (0);
  struct v4l2_event_subscription sub = {.type = V4L2_EVENT_SOURCE_CHANGE };
  struct v4l2_event ev;
  struct v4l2_format fmt = {.type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
  struct pollfd pfd = {.fd = fd,.events = POLLPRI };
  v4l2_std_id std = 0, before;
  uint64_t total = 0;

  if (ioctl (fd, VIDIOC_G_INPUT, &sub.id) < 0 ||
      ioctl (fd, VIDIOC_SUBSCRIBE_EVENT, &sub) < 0)
    fail ("SUBSCRIBE_EVENT SOURCE_CHANGE: %s", strerror (errno));
  ioctl (fd, VIDIOC_G_STD, &before);
  while (total < n) {
    size_t want = n - total < CHUNK ? n - total : CHUNK;
    ssize_t r = read (fd, buf, want);

    if (r <= 0)
      fail ("read: %s", strerror (errno));
    total += (uint64_t) r;
    ioctl (fd, VIDIOC_G_STD, &std);
    if (total < n && std != before)
      fail ("standard changed after %llu bytes, before %llu",
          (unsigned long long) total, (unsigned long long) n);
  }
  if (poll (&pfd, 1, 1000) != 1 || !(pfd.revents & POLLPRI))
    fail ("no POLLPRI after the change");
  if (ioctl (fd, VIDIOC_DQEVENT, &ev) < 0 ||
      ev.type != V4L2_EVENT_SOURCE_CHANGE ||
      !(ev.u.src_change.changes & V4L2_EVENT_SRC_CH_RESOLUTION))
    fail ("no SOURCE_CHANGE(RESOLUTION) event");
  ioctl (fd, VIDIOC_G_STD, &std);
  ioctl (fd, VIDIOC_G_FMT, &fmt);
  if (!(before & V4L2_STD_525_60) || !(std & V4L2_STD_625_50) ||
      fmt.fmt.pix.height != 576)
    fail ("after the change: std 0x%llx height %u, expected PAL 576",
        (unsigned long long) std, fmt.fmt.pix.height);
  printf ("std-change: NTSC -> PAL after %llu bytes, SOURCE_CHANGE event, "
      "720x%u\n", (unsigned long long) total, fmt.fmt.pix.height);
  return 0;
}

static int
check_pacing (void)
{
  int fd = open_dev (0);
  uint64_t total = 0;
  double t0, dt, rate;
  ssize_t r;

  /* the first read starts the encoder: measure from there */
  if ((r = read (fd, buf, sizeof (buf))) <= 0)
    fail ("read: %s", strerror (errno));
  t0 = now_s ();
  do {
    r = read (fd, buf, sizeof (buf));
    if (r <= 0)
      fail ("read: %s", strerror (errno));
    /* as ivtv_read(): a blocking read waits until its buffer is full */
    if (r != sizeof (buf))
      fail ("blocking read returned %zd of %zu bytes", r, sizeof (buf));
    total += (uint64_t) r;
    dt = now_s () - t0;
  } while (dt < 3.0);
  rate = total / dt;
  printf ("pacing: %llu bytes in %.2f s = %.0f B/s (expected 750000 +-5%%), "
      "every blocking read full\n", (unsigned long long) total, dt, rate);
  if (rate < 712500 || rate > 787500)
    fail ("rate %.0f B/s out of 750000 +-5%%", rate);
  return 0;
}

/* waits for POLLPRI (at most 5 s) and dequeues one event */
static void
wait_event (int fd, struct v4l2_event *ev)
{
  struct pollfd pfd = {.fd = fd,.events = POLLPRI };
  int r = poll (&pfd, 1, 5000);

  if (r != 1 || !(pfd.revents & POLLPRI))
    fail ("no POLLPRI within 5 s (poll %d, revents 0x%x)", r, pfd.revents);
  if (ioctl (fd, VIDIOC_DQEVENT, ev) < 0)
    fail ("DQEVENT after POLLPRI: %s", strerror (errno));
}

static int
check_events (void)
{
  int fd = open_dev (0);
  struct v4l2_event_subscription sc = {.type = V4L2_EVENT_SOURCE_CHANGE,
    .id = 2
  };
  struct v4l2_event_subscription ct = {.type = V4L2_EVENT_CTRL,
    .id = V4L2_CID_BRIGHTNESS
  };
  struct v4l2_event ev;

  if (ioctl (fd, VIDIOC_SUBSCRIBE_EVENT, &sc) < 0 ||
      ioctl (fd, VIDIOC_SUBSCRIBE_EVENT, &ct) < 0)
    fail ("SUBSCRIBE_EVENT: %s", strerror (errno));
  printf ("ready\n");
  fflush (stdout);
  wait_event (fd, &ev);
  if (ev.type != V4L2_EVENT_SOURCE_CHANGE || ev.id != 2)
    fail ("first event type %u id %u, expected SOURCE_CHANGE of input 2",
        ev.type, ev.id);
  printf ("event: SOURCE_CHANGE input %u\n", ev.id);
  fflush (stdout);
  wait_event (fd, &ev);
  if (ev.type != V4L2_EVENT_CTRL || ev.id != V4L2_CID_BRIGHTNESS ||
      ev.u.ctrl.value != 200 || !(ev.u.ctrl.changes & V4L2_EVENT_CTRL_CH_VALUE))
    fail ("second event type %u id 0x%x value %d, expected brightness 200",
        ev.type, ev.id, ev.u.ctrl.value);
  printf ("event: CTRL brightness = %d\n", ev.u.ctrl.value);
  return 0;
}

/* a plain reader that may stall once; the caller checks the file */
static int
capture (int argc, char **argv)
{
  const char *out = argc > 2 ? argv[2] : NULL;
  double secs = argc > 3 ? atof (argv[3]) : 0;
  double stall_at = argc > 5 ? atof (argv[4]) : -1;
  double stall_for = argc > 5 ? atof (argv[5]) : 0;
  FILE *o = out ? fopen (out, "wb") : NULL;
  int fd = open_dev (0);
  double t0 = now_s ();
  uint64_t total = 0;
  bool stalled = false;

  if (!o || secs <= 0)
    fail ("capture OUT SECONDS [STALL_AT STALL_FOR]: cannot write '%s'",
        out ? out : "");
  while (now_s () - t0 < secs) {
    ssize_t n;

    if (!stalled && stall_at >= 0 && now_s () - t0 >= stall_at) {
      stalled = true;
      printf ("stalling %.1f s after %llu bytes\n", stall_for,
          (unsigned long long) total);
      fflush (stdout);
      usleep ((useconds_t) (stall_for * 1e6));
    }
    n = read (fd, buf, CHUNK);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      fail ("read after %llu bytes: %s", (unsigned long long) total,
          n < 0 ? strerror (errno) : "end of stream");
    if (fwrite (buf, 1, n, o) != (size_t) n)
      fail ("write %s: %s", out, strerror (errno));
    total += n;
  }
  if (fclose (o) != 0)
    fail ("close %s: %s", out, strerror (errno));
  close (fd);
  printf ("captured %llu bytes in %.1f s\n", (unsigned long long) total,
      now_s () - t0);
  return 0;
}

/* stop-backlog OUT STALL read|close: 1 s of reads, a stall of STALL s
 * (a backlog builds in the driver's queue), ENCODER_CMD STOP at GOP end,
 * then read to the end of the stream into OUT, or close at once; prints
 * the bytes read before and after the stop */
static int
stop_backlog (int argc, char **argv)
{
  FILE *o = argc > 2 ? fopen (argv[2], "wb") : NULL;
  double stall = argc > 3 ? atof (argv[3]) : 0;
  bool drain = argc > 4 && !strcmp (argv[4], "read");
  struct v4l2_encoder_cmd cmd;
  int fd = open_dev (0);
  double t0 = now_s ();
  uint64_t before = 0, after = 0;
  ssize_t n;

  if (!o || stall <= 0)
    fail ("stop-backlog OUT STALL read|close");
  while (now_s () - t0 < 1.0 && (n = read (fd, buf, CHUNK)) > 0) {
    fwrite (buf, 1, n, o);
    before += n;
  }
  usleep ((useconds_t) (stall * 1e6));
  memset (&cmd, 0, sizeof (cmd));
  cmd.cmd = V4L2_ENC_CMD_STOP;
  cmd.flags = V4L2_ENC_CMD_STOP_AT_GOP_END;
  if (ioctl (fd, VIDIOC_ENCODER_CMD, &cmd) < 0)
    fail ("ENCODER_CMD STOP: %s", strerror (errno));
  while (drain && (n = read (fd, buf, CHUNK)) != 0) {
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      fail ("read after the stop: %s", strerror (errno));
    fwrite (buf, 1, n, o);
    after += n;
  }
  fclose (o);
  close (fd);
  printf ("before the stop %llu bytes, after it %llu\n",
      (unsigned long long) before, (unsigned long long) after);
  return 0;
}

/* Reads what is there for @secs (non-blocking fd, 20 ms polls), appending
 * it to @all (at most @cap bytes); the bytes read in the last @quiet
 * seconds go to *late. */
static uint64_t
read_for (int fd, double secs, double quiet, unsigned char *all,
    uint64_t * len, uint64_t cap, uint64_t * late)
{
  double t0 = now_s ();
  uint64_t total = 0;

  *late = 0;
  while (now_s () - t0 < secs) {
    struct pollfd pfd = {.fd = fd,.events = POLLIN };
    ssize_t n;

    if (poll (&pfd, 1, 20) <= 0)
      continue;
    n = read (fd, buf, sizeof (buf));
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
      continue;
    if (n <= 0)
      fail ("read: %s", n < 0 ? strerror (errno) : "end of stream");
    if (*len + (uint64_t) n > cap)
      fail ("more than %llu bytes", (unsigned long long) cap);
    memcpy (all + *len, buf, (size_t) n);
    *len += (uint64_t) n;
    total += (uint64_t) n;
    if (now_s () - t0 >= secs - quiet)
      *late += (uint64_t) n;
  }
  return total;
}

static int
encoder_cmd (int fd, uint32_t c)
{
  struct v4l2_encoder_cmd cmd;

  memset (&cmd, 0, sizeof (cmd));
  cmd.cmd = c;
  return ioctl (fd, VIDIOC_ENCODER_CMD, &cmd) < 0 ? -errno : 0;
}

/* SCR jumps of more than 0.5 s between the packs at every 2048 bytes of
 * the program stream (-1: not such packs) */
static int
scr_jumps (const unsigned char *d, uint64_t n)
{
  uint64_t prev = 0, i;
  int jumps = 0;

  for (i = 0; i + 14 <= n; i += 2048) {
    const unsigned char *b = d + i + 4;
    uint64_t scr;

    if (d[i] || d[i + 1] || d[i + 2] != 1 || d[i + 3] != 0xba
        || b[0] >> 6 != 1)
      return -1;
    scr = (uint64_t) ((b[0] >> 3) & 7) << 30 | (uint64_t) (b[0] & 3) << 28
        | (uint64_t) b[1] << 20 | (uint64_t) (b[2] >> 3) << 15
        | (uint64_t) (b[2] & 3) << 13 | (uint64_t) b[3] << 5 | b[4] >> 3;
    if (i > 0 && (scr < prev || scr - prev > 45000))
      jumps++;
    prev = scr;
  }
  return jumps;
}

/* pause: ivtv-ioctl.c ivtv_encoder_cmd.  PAUSE before the encoder runs
 * is EPERM; 1 s read, 1 s not read (a backlog builds in the driver's
 * queue), PAUSE (twice: the second changes nothing), 2 s read: the backlog
 * comes, the last second nothing (the stream stands still); RESUME, 1 s
 * read: data again, and the whole is one stream (its SCR without a jump) */
static int
check_pause (void)
{
  uint64_t cap = 16u << 20, len = 0, late, before, paused, after;
  unsigned char *all = malloc (cap);
  int fd = open_dev (O_NONBLOCK), r;

  if (!all)
    fail ("malloc");
  if ((r = encoder_cmd (fd, V4L2_ENC_CMD_PAUSE)) != -EPERM)
    fail ("PAUSE before the encoder runs: %s, not EPERM", strerror (-r));
  before = read_for (fd, 1.0, 0, all, &len, cap, &late);
  usleep (1000000);
  if ((r = encoder_cmd (fd, V4L2_ENC_CMD_PAUSE)) != 0
      || (r = encoder_cmd (fd, V4L2_ENC_CMD_PAUSE)) != 0)
    fail ("PAUSE: %s", strerror (-r));
  paused = read_for (fd, 2.0, 1.0, all, &len, cap, &late);
  printf ("pause: %llu bytes before, %llu while paused (the backlog), "
      "%llu in its last second\n", (unsigned long long) before,
      (unsigned long long) paused, (unsigned long long) late);
  if (paused < 500000)
    fail ("the backlog of 1 s was not read while paused");
  if (late > 0)
    fail ("the stream went on while paused");
  if ((r = encoder_cmd (fd, V4L2_ENC_CMD_RESUME)) != 0)
    fail ("RESUME: %s", strerror (-r));
  after = read_for (fd, 1.0, 0, all, &len, cap, &late);
  printf ("after RESUME %llu bytes; %d SCR jumps in %llu\n",
      (unsigned long long) after, scr_jumps (all, len),
      (unsigned long long) len);
  if (after < 500000)
    fail ("no stream after RESUME");
  if (scr_jumps (all, len) != 0)
    fail ("the stream is not one across the pause");
  close (fd);
  free (all);
  return 0;
}

int
main (int argc, char **argv)
{
  const char *c = argc > 1 ? argv[1] : "";
  long long a = argc > 2 ? atoll (argv[2]) : 0;

  if (!strcmp (c, "unplug"))
    return check_unplug ((uint64_t) a);
  if (!strcmp (c, "eio"))
    return check_eio ((uint64_t) a);
  if (!strcmp (c, "eintr"))
    return check_every ((int) a, EINTR, false);
  if (!strcmp (c, "eagain"))
    return check_every ((int) a, EAGAIN, true);
  if (!strcmp (c, "short"))
    return check_short ((int) a);
  if (!strcmp (c, "stall"))
    return check_stall ((uint64_t) a);
  if (!strcmp (c, "no-signal"))
    return check_no_signal ();
  if (!strcmp (c, "std-change"))
    return check_std_change ((uint64_t) a);
  if (!strcmp (c, "pacing"))
    return check_pacing ();
  if (!strcmp (c, "events"))
    return check_events ();
  if (!strcmp (c, "capture"))
    return capture (argc, argv);
  if (!strcmp (c, "stop-backlog"))
    return stop_backlog (argc, argv);
  if (!strcmp (c, "pause"))
    return check_pause ();
  fprintf (stderr, "usage: mpeg-client unplug N | eio N | eintr K | "
      "eagain K | short MAX | stall N | no-signal | std-change N | pacing | "
      "events | capture OUT SECONDS [STALL_AT STALL_FOR] | pause\n");
  return 2;
}
