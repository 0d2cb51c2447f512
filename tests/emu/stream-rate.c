/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* stream-rate.c - the raw video device's frame clock and the frames it
 * drops, for the streaming and read() engines (stream-buffers.c,
 * stream.c):
 *  - the period frames are paced and stamped with: the nominal one (the
 *    standard's, or the webcam's S_PARM interval) off by the fault
 *    `frame-rate-pct=P`, a device whose frames come at the nominal rate
 *    times (1 + P / 100).  G_PARM still says the nominal rate, as the
 *    drivers do: they know no better.  Real devices do this: usbtv stamps
 *    a frame when its last chunk arrives (usbtv-video.c usbtv_image_chunk,
 *    ktime_get_ns after the odd field's last chunk), stk1160 when its last
 *    isochronous packet is handled (stk1160-video.c stk1160_buffer_done),
 *    so their stamps and the frames' coming follow the decoder's clock and
 *    the USB link, not the standard: under qemu TCG a usbtv passed through
 *    by USB/IP delivered 27.9 frames/s of NTSC (-7 %), an stk1160 30.6
 *    (+2 %); a VCR played without a time base corrector sends its tape's
 *    speed, a few % off;
 *  - which frames `skip-every=N` drops: the last of every N, or with
 *    `skip-run=K` the last K of every N (a burst: a USB link that stalls
 *    for a second, usbtv/stk1160 then complete no frame and number none);
 *  - the frames the device dropped (skip-every, no buffer queued, a reader
 *    too slow), counted up to the last frame handed out (a drop after it
 *    is in no capture), over the process's captures of the node, into
 *    <rundir>/dropped-videoN (the process that dropped last), which
 *    ivtv-emu copies to $IVTV_EMU_STATS as dropped-videoN=N: what a test
 *    compares a consumer's loss count with. */
#include "stream.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int64_t
nominal_ns (struct emu_device *dev)
{
  struct v4l2_fract iv = dev->st->interval;

  if (emu_size_follows_std (dev)) {
    /* SDTV card: the standard sets the frame rate */
    if (dev->card->st->std & V4L2_STD_525_60)
      return 1001LL * 1000000000LL / 30000;
    return 1000000000LL / 25;
  }
  if (iv.numerator == 0 || iv.denominator == 0)
    return 1000000000LL / 30;
  return (int64_t) iv.numerator * 1000000000LL / iv.denominator;
}

int64_t
stream_interval_ns (struct emu_device *dev)
{
  int64_t pct = emu_fault_arg (dev, EMU_FAULT_FRAME_RATE_PCT);

  /* faults.c keeps P above -100 */
  return nominal_ns (dev) * 100 / (100 + pct);
}

bool
stream_skip_slot (struct emu_device *dev, uint64_t slot)
{
  uint64_t n = (uint64_t) emu_fault_arg (dev, EMU_FAULT_SKIP_EVERY);
  uint64_t k = emu_fault_on (dev, EMU_FAULT_SKIP_RUN) ?
      (uint64_t) emu_fault_arg (dev, EMU_FAULT_SKIP_RUN) : 1;

  /* faults.c keeps 0 < K < N */
  return n > 0 && slot % n >= n - k;
}

void
stream_drops (struct squeue *q, uint64_t n)
{
  if (n > 0)
    emu_debug ("%s: %llu frame(s) dropped (%llu in all)", q->dev->path,
        (unsigned long long) n, (unsigned long long) (q->dropped + n));
  q->dropped += n;
}

/* the drops each device's consumers saw in this process, over all its
 * captures (a queue's own count starts again at STREAMON) */
static struct
{
  struct emu_device *dev;
  uint64_t total;
} seen[EMU_MAX_DEVICES];

static uint64_t *
seen_total (struct emu_device *dev)
{
  int i;

  for (i = 0; i < EMU_MAX_DEVICES; i++)
    if (seen[i].dev == dev || !seen[i].dev) {
      seen[i].dev = dev;
      return &seen[i].total;
    }
  return NULL;
}

/* a frame with @drops_before drops before it is handed out: the count of
 * drops a consumer can see goes to <rundir>/dropped-videoN (only when it
 * grows: drops are rare, a file per frame is not) */
void
stream_drops_seen (struct squeue *q, uint64_t drops_before)
{
  const char *rundir = getenv ("IVTV_EMU_RUNDIR");
  const char *node = strrchr (q->dev->path, '/');
  uint64_t *total = seen_total (q->dev);
  char path[1024], text[32];
  int fd, len;

  if (drops_before <= q->dropped_seen || !total)
    return;
  *total += drops_before - q->dropped_seen;
  q->dropped_seen = drops_before;
  if (!rundir || !*rundir)
    return;
  snprintf (path, sizeof (path), "%s/dropped-%s", rundir,
      node ? node + 1 : q->dev->path);
  len = snprintf (text, sizeof (text), "%llu\n", (unsigned long long) *total);
  fd = emu_real ()->open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
      0644);
  if (fd < 0)
    return;
  if (emu_real ()->write (fd, text, len) != len)
    emu_debug ("%s: cannot write %s", q->dev->path, path);
  emu_real ()->close (fd);
}
