/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* prio.c - the V4L2 priority of a card's open handles, as the kernel's
 * v4l2-dev.c keeps it (struct v4l2_prio_state, shared by every node of the
 * card: ivtv and cx18 point all their nodes at the one v4l2_device's
 * state, v4l2_device_register -> v4l2_prio_init):
 *  - a handle opens at DEFAULT (v4l2_fh_add -> v4l2_prio_open, v4l2-fh.c);
 *  - VIDIOC_S_PRIORITY moves it (v4l2_prio_change, v4l2-dev.c);
 *  - the ioctls flagged INFO_FL_PRIO fail with EBUSY below the highest
 *    priority held (v4l2_prio_check, v4l2-ioctl.c __video_do_ioctl);
 *  - the handle's priority goes when it is released (v4l2_fh_del ->
 *    v4l2_prio_close, v4l2-fh.c), and a process that dies releases every
 *    file it had (do_exit -> exit_files -> fput -> the driver's release,
 *    ivtv_v4l2_close in ivtv-fileops.c).
 * The emulator's handles live in their process, so a killed process
 * cannot close them: each holder is kept with its process id in the
 * card's shared state and dropped once that process is gone. */
#include "emu.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static struct emu_shared *
card_state (struct emu_device *dev)
{
  return (dev->card ? dev->card : dev)->st;
}

static bool
alive (int32_t pid)
{
  return kill (pid, 0) == 0 || errno == EPERM;
}

/* lock held */
static struct emu_prio_holder *
holder (struct emu_shared *st, uint64_t id)
{
  int i;

  for (i = 0; i < EMU_MAX_PRIO_HOLDERS; i++)
    if (st->prio_h[i].pid != 0 && st->prio_h[i].id == id)
      return &st->prio_h[i];
  return NULL;
}

uint32_t
emu_prio_max (struct emu_device *dev)
{
  struct emu_shared *st;
  uint32_t max = V4L2_PRIORITY_UNSET;
  int i;

  emu_lock (dev);
  st = card_state (dev);
  for (i = 0; i < EMU_MAX_PRIO_HOLDERS; i++) {
    struct emu_prio_holder *h = &st->prio_h[i];

    if (h->pid != 0 && h->pid != getpid () && !alive (h->pid)) {
      emu_debug ("%s: process %d is gone: its priority %u is released",
          dev->path, (int) h->pid, h->prio);
      memset (h, 0, sizeof (*h));
    }
    if (h->pid != 0 && h->prio > max)
      max = h->prio;
  }
  emu_unlock (dev);
  return max;
}

long
emu_prio_check (struct emu_file *f)
{
  return emu_prio_max (f->dev) > f->prio ? -EBUSY : 0;
}

void
emu_prio_open (struct emu_file *f)
{
  struct emu_shared *st;
  int i;

  emu_prio_max (f->dev);        /* drops the dead first */
  emu_lock (f->dev);
  st = card_state (f->dev);
  for (i = 0; i < EMU_MAX_PRIO_HOLDERS; i++)
    if (st->prio_h[i].pid == 0) {
      st->prio_h[i].pid = getpid ();
      st->prio_h[i].prio = f->prio;
      st->prio_h[i].id = f->id;
      break;
    }
  emu_unlock (f->dev);
}

void
emu_prio_set (struct emu_file *f, uint32_t prio)
{
  struct emu_prio_holder *h;

  emu_lock (f->dev);
  f->prio = prio;
  if ((h = holder (card_state (f->dev), f->id)) != NULL)
    h->prio = prio;
  emu_unlock (f->dev);
}

void
emu_prio_close (struct emu_file *f)
{
  struct emu_prio_holder *h;

  emu_lock (f->dev);
  if ((h = holder (card_state (f->dev), f->id)) != NULL)
    memset (h, 0, sizeof (*h));
  emu_unlock (f->dev);
}

/* a device registered anew (a replug) has a priority state of its own */
void
emu_prio_reset (struct emu_device *dev)
{
  emu_lock (dev);
  memset (card_state (dev)->prio_h, 0, sizeof (card_state (dev)->prio_h));
  emu_unlock (dev);
}
