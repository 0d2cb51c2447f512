/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* faults.c - fault injection: parses IVTV_EMU_FAULTS ("SPEC[@/dev/videoN],...")
 * once per device and answers the engines' questions (inject an error on
 * this read/DQBUF? how much may be delivered? no signal now?). */
#include "emu.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fault_desc
{
  const char *name;
  int arg;                      /* 0: none, 1: required, 2: optional */
  int64_t def;
};

static const struct fault_desc descs[EMU_FAULT_COUNT] = {
  [EMU_FAULT_FAST] = {"fast", 0, 0},
  [EMU_FAULT_UNPLUG_AFTER] = {"unplug-after", 1, 0},
  [EMU_FAULT_EIO_AT] = {"eio-at", 1, 0},
  [EMU_FAULT_EINTR_EVERY] = {"eintr-every", 1, 0},
  [EMU_FAULT_EAGAIN_EVERY] = {"eagain-every", 1, 0},
  [EMU_FAULT_SHORT_READS] = {"short-reads", 2, 4096},
  [EMU_FAULT_STALL_AFTER] = {"stall-after", 1, 0},
  [EMU_FAULT_NO_SIGNAL] = {"no-signal", 2, 0},
  [EMU_FAULT_STD_CHANGE_AFTER] = {"std-change-after", 1, 0},
  [EMU_FAULT_REQBUFS_FAILS] = {"reqbufs-fails", 0, 0},
  [EMU_FAULT_STREAMON_FAILS] = {"streamon-fails", 0, 0},
  [EMU_FAULT_EBUSY_OPEN] = {"ebusy-open", 0, 0},
  [EMU_FAULT_EACCES_OPEN] = {"eacces-open", 0, 0},
  [EMU_FAULT_UNPLUG_FOR] = {"unplug-for", 1, 0},
  [EMU_FAULT_DMA] = {"dma", 0, 0},
  [EMU_FAULT_QUEUE_KB] = {"queue-kb", 1, 0},
  [EMU_FAULT_MARKS] = {"marks", 1, 0},
  [EMU_FAULT_CLOCK_PPM] = {"clock-ppm", 1, 0},
  [EMU_FAULT_SKIP_EVERY] = {"skip-every", 1, 0},
  [EMU_FAULT_SKIP_KEEPS_SEQ] = {"skip-keeps-seq", 0, 0},
  [EMU_FAULT_UNPLUG_EIO] = {"unplug-eio", 0, 0},
  [EMU_FAULT_FRAME_RATE_PCT] = {"frame-rate-pct", 1, 0},
  [EMU_FAULT_SKIP_RUN] = {"skip-run", 1, 1},
};

const char *
emu_fault_name (enum emu_fault_id id)
{
  return id < EMU_FAULT_COUNT ? descs[id].name : "?";
}

static int
parse_one (const char *spec, const char *path, struct emu_faults *out)
{
  char buf[128], *at, *eq, *end;
  const char *target = "/dev/video0";
  int i;

  snprintf (buf, sizeof (buf), "%s", spec);
  at = strchr (buf, '@');
  if (at) {
    *at = '\0';
    target = at + 1;
  }
  eq = strchr (buf, '=');
  if (eq)
    *eq++ = '\0';
  for (i = 0; i < EMU_FAULT_COUNT; i++)
    if (strcmp (buf, descs[i].name) == 0)
      break;
  if (i == EMU_FAULT_COUNT) {
    fprintf (stderr, "ivtv-emu: unknown fault '%s'\n", spec);
    return -EINVAL;
  }
  if ((descs[i].arg == 1 && !eq) || (descs[i].arg == 0 && eq)) {
    fprintf (stderr, "ivtv-emu: fault '%s' %s a value\n", spec,
        descs[i].arg ? "needs" : "takes no");
    return -EINVAL;
  }
  if (strcmp (target, path) != 0)
    return 0;
  out->on[i] = true;
  out->arg[i] = descs[i].def;
  if (eq) {
    long long v = strtoll (eq, &end, 0);

    if (*eq == '\0' || *end != '\0' || (v < 0 && i != EMU_FAULT_CLOCK_PPM
            && i != EMU_FAULT_FRAME_RATE_PCT)) {
      fprintf (stderr, "ivtv-emu: fault '%s': bad number '%s'\n", spec, eq);
      return -EINVAL;
    }
    if ((i == EMU_FAULT_EINTR_EVERY || i == EMU_FAULT_EAGAIN_EVERY ||
            i == EMU_FAULT_SHORT_READS || i == EMU_FAULT_MARKS ||
            i == EMU_FAULT_SKIP_EVERY || i == EMU_FAULT_SKIP_RUN) && v == 0) {
      fprintf (stderr, "ivtv-emu: fault '%s': must be > 0\n", spec);
      return -EINVAL;
    }
    if (i == EMU_FAULT_FRAME_RATE_PCT && (v <= -100 || v > 1000)) {
      fprintf (stderr, "ivtv-emu: '%s': the percentage must be between "
          "-99 and 1000\n", spec);
      return -EINVAL;
    }
    if (i == EMU_FAULT_QUEUE_KB && v < 64) {
      fprintf (stderr, "ivtv-emu: '%s': the queue needs at least two "
          "32 KiB buffers (64)\n", spec);
      return -EINVAL;
    }
    out->arg[i] = v;
  }
  return 0;
}

int
emu_faults_parse (const char *env, const char *path, struct emu_faults *out)
{
  char *copy, *tok, *save = NULL;
  int ret = 0;

  memset (out, 0, sizeof (*out));
  if (!env || !*env)
    return 0;
  copy = strdup (env);
  if (!copy)
    return -ENOMEM;
  for (tok = strtok_r (copy, ",", &save); tok && !ret;
      tok = strtok_r (NULL, ",", &save))
    ret = parse_one (tok, path, out);
  free (copy);
  if (!ret && out->on[EMU_FAULT_SKIP_RUN] && (!out->on[EMU_FAULT_SKIP_EVERY]
          || out->arg[EMU_FAULT_SKIP_RUN] >= out->arg[EMU_FAULT_SKIP_EVERY])) {
    fprintf (stderr, "ivtv-emu: skip-run=K needs skip-every=N with K < N "
        "(on %s)\n", path);
    return -EINVAL;
  }
  return ret;
}

bool
emu_fault_on (const struct emu_device *dev, enum emu_fault_id id)
{
  return dev->faults && id < EMU_FAULT_COUNT && dev->faults->on[id];
}

int64_t
emu_fault_arg (const struct emu_device *dev, enum emu_fault_id id)
{
  return emu_fault_on (dev, id) ? dev->faults->arg[id] : 0;
}

int
emu_fault_io_begin (struct emu_file *f)
{
  struct emu_device *dev = f->dev;
  uint64_t n;

  if (emu_file_gone (f))
    return emu_gone_read (f);
  n = ++f->io_calls;
  if (emu_fault_on (dev, EMU_FAULT_EINTR_EVERY) &&
      n % (uint64_t) emu_fault_arg (dev, EMU_FAULT_EINTR_EVERY) == 0)
    return -EINTR;
  /* EAGAIN is only ever an answer to a non-blocking call */
  if (emu_fault_on (dev, EMU_FAULT_EAGAIN_EVERY) &&
      n % (uint64_t) emu_fault_arg (dev, EMU_FAULT_EAGAIN_EVERY) == 0 &&
      emu_nonblock (f))
    return -EAGAIN;
  if (emu_fault_on (dev, EMU_FAULT_EIO_AT) && !f->eio_done &&
      f->delivered >= (uint64_t) emu_fault_arg (dev, EMU_FAULT_EIO_AT)) {
    f->eio_done = true;
    return -EIO;
  }
  return 0;
}

static uint64_t
clamp_to (uint64_t want, uint64_t done, uint64_t limit)
{
  if (done >= limit)
    return 0;
  return want < limit - done ? want : limit - done;
}

uint64_t
emu_fault_io_allow (struct emu_file *f, uint64_t want, bool bytes)
{
  struct emu_device *dev = f->dev;

  if (emu_fault_on (dev, EMU_FAULT_STALL_AFTER))
    want = clamp_to (want, f->delivered,
        emu_fault_arg (dev, EMU_FAULT_STALL_AFTER));
  if (emu_fault_on (dev, EMU_FAULT_UNPLUG_AFTER))
    want = clamp_to (want, f->delivered,
        emu_fault_arg (dev, EMU_FAULT_UNPLUG_AFTER));
  if (emu_fault_on (dev, EMU_FAULT_EIO_AT) && !f->eio_done) {
    uint64_t at = emu_fault_arg (dev, EMU_FAULT_EIO_AT);

    if (f->delivered < at)
      want = clamp_to (want, f->delivered, at);
  }
  if (bytes && emu_fault_on (dev, EMU_FAULT_SHORT_READS) && want > 1) {
    /* deterministic odd sizes between 1 and the limit */
    uint64_t lim = emu_fault_arg (dev, EMU_FAULT_SHORT_READS);
    uint64_t n = 1 + (f->io_calls * 2654435761u) % lim;

    if (n < want)
      want = n;
  }
  return want;
}

void
emu_fault_io_done (struct emu_file *f, uint64_t n)
{
  struct emu_device *dev = f->dev;
  uint64_t before = f->delivered;

  f->delivered += n;
  if (emu_fault_on (dev, EMU_FAULT_UNPLUG_AFTER) &&
      f->delivered >= (uint64_t) emu_fault_arg (dev, EMU_FAULT_UNPLUG_AFTER)
      && !dev->st->unplugged) {
    emu_lock (dev);
    dev->st->unplugged = 1;
    dev->st->unplugged_ns = emu_now_ns ();
    dev->st->gen++;
    emu_unlock (dev);
    emu_wake (dev);
  }
  if (emu_fault_on (dev, EMU_FAULT_STD_CHANGE_AFTER)) {
    uint64_t at = emu_fault_arg (dev, EMU_FAULT_STD_CHANGE_AFTER);

    if (before < at && f->delivered >= at) {
      struct v4l2_event ev = {.type = V4L2_EVENT_SOURCE_CHANGE };
      v4l2_std_id nstd;

      emu_lock (dev);
      nstd = (dev->card->st->std & V4L2_STD_525_60) ? V4L2_STD_PAL_BG :
          V4L2_STD_NTSC_M;
      dev->card->st->std = nstd;
      dev->card->st->detected_std = nstd;
      dev->st->gen++;
      emu_unlock (dev);
      ev.u.src_change.changes = V4L2_EVENT_SRC_CH_RESOLUTION;
      ev.id = dev->card->st->input;
      emu_event_broadcast (dev, &ev, NULL);
      emu_wake (dev);
    }
  }
}

bool
emu_fault_stalled (struct emu_file *f)
{
  return emu_fault_on (f->dev, EMU_FAULT_STALL_AFTER) &&
      f->delivered >=
      (uint64_t) emu_fault_arg (f->dev, EMU_FAULT_STALL_AFTER);
}

bool
emu_fault_no_signal (struct emu_device *dev)
{
  if (!emu_fault_on (dev, EMU_FAULT_NO_SIGNAL))
    return false;
  return emu_now_ns () - dev->st->created_ns >=
      emu_fault_arg (dev, EMU_FAULT_NO_SIGNAL) * 1000000000LL;
}
