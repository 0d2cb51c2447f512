/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* events.c - V4L2 events per open file: VIDIOC_SUBSCRIBE_EVENT,
 * VIDIOC_UNSUBSCRIBE_EVENT, VIDIOC_DQEVENT, and queueing (control changes,
 * end of stream, source change).  Like the kernel, a newer event of the
 * same type and id replaces a pending one (control events merge).
 * A broadcast also goes into a small ring in the shared state, from which
 * the open files of the other processes of the run pick it up (on poll,
 * DQEVENT), so a control changed by `v4l2-ctl` reaches a waiting capture
 * program as on a real card. */
#include "emu.h"

#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static struct emu_sub *
find_sub (struct emu_file *f, uint32_t type, uint32_t id)
{
  int i;

  for (i = 0; i < EMU_MAX_SUBS; i++)
    if (f->subs[i].type == type && f->subs[i].id == id && type)
      return &f->subs[i];
  return NULL;
}

static void queue_locked (struct emu_file *f, const struct v4l2_event *ev);

bool
emu_event_subscribed (struct emu_file *f)
{
  int i;

  for (i = 0; i < EMU_MAX_SUBS; i++)
    if (f->subs[i].type)
      return true;
  return false;
}

/* with the lock held: queue what other processes sent since last time */
static void
pull_shared (struct emu_file *f)
{
  struct emu_shared *st = f->dev->st;
  int32_t self = (int32_t) getpid ();

  if (st->xev_seq - f->xev_seen > EMU_MAX_XEVENTS)
    f->xev_seen = st->xev_seq - EMU_MAX_XEVENTS;        /* lost: as on overflow */
  for (; f->xev_seen != st->xev_seq; f->xev_seen++) {
    const struct emu_xevent *x = &st->xev[f->xev_seen % EMU_MAX_XEVENTS];

    if (x->pid != self && find_sub (f, x->ev.type, x->ev.id))
      queue_locked (f, &x->ev);
  }
}

bool
emu_event_pending (struct emu_file *f)
{
  bool r;

  emu_lock (f->dev);
  pull_shared (f);
  r = f->ev_count > 0;
  emu_unlock (f->dev);
  return r;
}

/* called with the device lock held */
static void
queue_locked (struct emu_file *f, const struct v4l2_event *ev)
{
  struct v4l2_event *slot = NULL;
  struct timespec ts;
  unsigned i;

  for (i = 0; i < f->ev_count; i++) {
    struct v4l2_event *e = &f->events[(f->ev_head + i) % EMU_MAX_EVENTS];

    if (e->type == ev->type && e->id == ev->id) {
      uint32_t changes = 0;

      if (ev->type == V4L2_EVENT_CTRL)
        changes = e->u.ctrl.changes;
      *e = *ev;
      if (ev->type == V4L2_EVENT_CTRL)
        e->u.ctrl.changes |= changes;
      clock_gettime (CLOCK_MONOTONIC, &e->timestamp);
      return;
    }
  }
  if (f->ev_count == EMU_MAX_EVENTS) {
    /* full: drop the oldest, as the kernel does */
    f->ev_head = (f->ev_head + 1) % EMU_MAX_EVENTS;
    f->ev_count--;
  }
  slot = &f->events[(f->ev_head + f->ev_count) % EMU_MAX_EVENTS];
  *slot = *ev;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  slot->timestamp = ts;
  slot->sequence = f->ev_sequence++;
  f->ev_count++;
}

void
emu_event_queue (struct emu_file *f, const struct v4l2_event *ev)
{
  emu_lock (f->dev);
  if (find_sub (f, ev->type, ev->id))
    queue_locked (f, ev);
  emu_unlock (f->dev);
  emu_wake (f->dev);
}

void
emu_event_broadcast (struct emu_device *dev, const struct v4l2_event *ev,
    struct emu_file *skip)
{
  struct emu_xevent *x;
  struct emu_file *f;

  emu_lock (dev);
  for (f = dev->files; f; f = f->next) {
    struct emu_sub *s = find_sub (f, ev->type, ev->id);

    if (!s)
      continue;
    if (f == skip && !(s->flags & V4L2_EVENT_SUB_FL_ALLOW_FEEDBACK))
      continue;
    queue_locked (f, ev);
  }
  x = &dev->st->xev[dev->st->xev_seq % EMU_MAX_XEVENTS];
  x->pid = (int32_t) getpid ();
  x->ev = *ev;
  dev->st->xev_seq++;
  emu_unlock (dev);
  emu_wake (dev);
}

static void
drop_events (struct emu_file *f, uint32_t type, uint32_t id)
{
  struct v4l2_event keep[EMU_MAX_EVENTS];
  unsigned i, n = 0;

  for (i = 0; i < f->ev_count; i++) {
    struct v4l2_event *e = &f->events[(f->ev_head + i) % EMU_MAX_EVENTS];

    if (type == V4L2_EVENT_ALL || (e->type == type && e->id == id))
      continue;
    keep[n++] = *e;
  }
  memcpy (f->events, keep, n * sizeof (keep[0]));
  f->ev_head = 0;
  f->ev_count = n;
}

static long
subscribe (struct emu_file *f, struct v4l2_event_subscription *sub)
{
  const struct emu_profile *p = f->dev->prof;
  struct v4l2_event initial;
  int i;

  switch (sub->type) {
    case V4L2_EVENT_CTRL:
      if (!emu_ctrl_event (f, sub->id, &initial))
        return -EINVAL;
      break;
    case V4L2_EVENT_EOS:
    case V4L2_EVENT_SOURCE_CHANGE:
    case V4L2_EVENT_VSYNC:
    case V4L2_EVENT_FRAME_SYNC:
      if (!(p->events & (1u << sub->type)))
        return -EINVAL;
      if (sub->type == V4L2_EVENT_SOURCE_CHANGE && sub->id >= EMU_MAX_INPUTS)
        return -EINVAL;
      if (sub->type != V4L2_EVENT_SOURCE_CHANGE)
        sub->id = 0;
      break;
    default:
      return -EINVAL;
  }
  emu_lock (f->dev);
  if (!find_sub (f, sub->type, sub->id)) {
    for (i = 0; i < EMU_MAX_SUBS && f->subs[i].type; i++);
    if (i == EMU_MAX_SUBS) {
      emu_unlock (f->dev);
      return -ENOMEM;
    }
    f->subs[i].type = sub->type;
    f->subs[i].id = sub->id;
    f->subs[i].flags = sub->flags;
    /* as v4l2_ctrl_add_event(): no initial event for write-only
     * controls (class controls, buttons) */
    if (sub->type == V4L2_EVENT_CTRL &&
        (sub->flags & V4L2_EVENT_SUB_FL_SEND_INITIAL) &&
        !(initial.u.ctrl.flags & V4L2_CTRL_FLAG_WRITE_ONLY))
      queue_locked (f, &initial);
  }
  emu_unlock (f->dev);
  return 0;
}

static long
unsubscribe (struct emu_file *f, struct v4l2_event_subscription *sub)
{
  struct emu_sub *s;
  int i;

  emu_lock (f->dev);
  if (sub->type == V4L2_EVENT_ALL) {
    for (i = 0; i < EMU_MAX_SUBS; i++)
      f->subs[i].type = 0;
    drop_events (f, V4L2_EVENT_ALL, 0);
  } else if ((s = find_sub (f, sub->type, sub->id))) {
    s->type = 0;
    drop_events (f, sub->type, sub->id);
  }
  emu_unlock (f->dev);
  return 0;
}

static long
dqevent (struct emu_file *f, struct v4l2_event *ev)
{
  for (;;) {
    int r;

    emu_lock (f->dev);
    pull_shared (f);
    if (f->ev_count) {
      *ev = f->events[f->ev_head];
      f->ev_head = (f->ev_head + 1) % EMU_MAX_EVENTS;
      f->ev_count--;
      ev->pending = f->ev_count;
      emu_unlock (f->dev);
      return 0;
    }
    emu_unlock (f->dev);
    if (emu_nonblock (f))
      return -ENOENT;
    /* other processes cannot wake us: look again now and then */
    r = emu_wait (f, emu_now_ns () + EMU_XEVENT_RECHECK_NS);
    if (r < 0)
      return r == -EBADF ? -ENOENT : r;
    if (emu_file_gone (f))
      return -ENODEV;
  }
}

long
emu_events_ioctl (struct emu_file *f, unsigned long req, void *arg)
{
  switch (req) {
    case VIDIOC_SUBSCRIBE_EVENT:
      return subscribe (f, arg);
    case VIDIOC_UNSUBSCRIBE_EVENT:
      return unsubscribe (f, arg);
    case VIDIOC_DQEVENT:
      return dqevent (f, arg);
    default:
      return EMU_NEXT;
  }
}
