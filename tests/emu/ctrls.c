/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ctrls.c - controls from the profile's table: VIDIOC_QUERYCTRL,
 * VIDIOC_QUERY_EXT_CTRL, VIDIOC_QUERYMENU, VIDIOC_G/S_CTRL and
 * VIDIOC_G/S/TRY_EXT_CTRLS, values kept in the shared device state, change
 * events to subscribers.  Only 32-bit kinds (integer, boolean, menu,
 * button, class) exist, as on an ivtv card. */
#include "emu.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int
ctrl_index (const struct emu_profile *p, uint32_t id)
{
  int i;

  for (i = 0; i < EMU_MAX_CTRLS && p->ctrls[i].id; i++)
    if (p->ctrls[i].id == id)
      return i;
  return -1;
}

int32_t
emu_ctrl_value (struct emu_device *dev, uint32_t id)
{
  int i = ctrl_index (dev->prof, id);

  return i < 0 ? 0 : dev->st->ctrl[i];
}

/* the control after `id` in id order (NEXT_CTRL) */
static int
ctrl_next (const struct emu_profile *p, uint32_t id)
{
  int i, best = -1;

  for (i = 0; i < EMU_MAX_CTRLS && p->ctrls[i].id; i++)
    if (p->ctrls[i].id > id &&
        (best < 0 || p->ctrls[i].id < p->ctrls[best].id))
      best = i;
  return best;
}

static uint32_t
ctrl_flags (struct emu_device *dev, const struct emu_ctrl *c)
{
  uint32_t fl = c->flags;

  if (c->type == V4L2_CTRL_TYPE_CTRL_CLASS)
    fl |= V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_WRITE_ONLY;
  if (c->type == V4L2_CTRL_TYPE_BUTTON)
    fl |= V4L2_CTRL_FLAG_WRITE_ONLY | V4L2_CTRL_FLAG_EXECUTE_ON_WRITE;
  if (c->busy_while_streaming && dev->prof->engine &&
      dev->prof->engine->busy && dev->prof->engine->busy (dev))
    fl |= V4L2_CTRL_FLAG_GRABBED;
  return fl;
}

static int
find_for_query (const struct emu_profile *p, uint32_t id)
{
  if (id & (V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND)) {
    /* we have no compound controls */
    if (!(id & V4L2_CTRL_FLAG_NEXT_CTRL))
      return -1;
    return ctrl_next (p, id & ~(V4L2_CTRL_FLAG_NEXT_CTRL |
            V4L2_CTRL_FLAG_NEXT_COMPOUND));
  }
  return ctrl_index (p, id);
}

static long
query_ext (struct emu_device *dev, struct v4l2_query_ext_ctrl *q)
{
  const struct emu_profile *p = dev->prof;
  const struct emu_ctrl *c;
  int i = find_for_query (p, q->id);

  if (i < 0)
    return -EINVAL;
  c = &p->ctrls[i];
  memset (q, 0, sizeof (*q));
  q->id = c->id;
  q->type = c->type;
  snprintf (q->name, sizeof (q->name), "%s", c->name);
  q->flags = ctrl_flags (dev, c);
  if (c->type != V4L2_CTRL_TYPE_CTRL_CLASS) {
    q->minimum = c->min;
    q->maximum = c->max;
    q->step = c->type == V4L2_CTRL_TYPE_MENU ? 1 : c->step;
    q->default_value = c->def;
  }
  q->elem_size = c->type == V4L2_CTRL_TYPE_CTRL_CLASS ? 0 : 4;
  if (c->type == V4L2_CTRL_TYPE_BUTTON || c->type == V4L2_CTRL_TYPE_CTRL_CLASS)
    q->elem_size = 0;
  q->elems = 1;
  return 0;
}

static long
queryctrl (struct emu_device *dev, struct v4l2_queryctrl *qc)
{
  struct v4l2_query_ext_ctrl q = {.id = qc->id };
  long r = query_ext (dev, &q);

  if (r < 0)
    return r;
  memset (qc, 0, sizeof (*qc));
  qc->id = q.id;
  qc->type = q.type;
  memcpy (qc->name, q.name, sizeof (qc->name));
  qc->name[sizeof (qc->name) - 1] = '\0';
  qc->minimum = q.minimum;
  qc->maximum = q.maximum;
  qc->step = q.step;
  qc->default_value = q.default_value;
  qc->flags = q.flags;
  return 0;
}

static long
querymenu (struct emu_device *dev, struct v4l2_querymenu *qm)
{
  const struct emu_profile *p = dev->prof;
  int i = ctrl_index (p, qm->id);
  const struct emu_ctrl *c;
  uint32_t idx = qm->index;

  if (i < 0 || p->ctrls[i].type != V4L2_CTRL_TYPE_MENU)
    return -EINVAL;
  c = &p->ctrls[i];
  if ((int32_t) idx < c->min || (int32_t) idx > c->max ||
      idx >= EMU_MAX_MENU || !c->menu[idx])
    return -EINVAL;
  memset (qm, 0, sizeof (*qm));
  qm->id = c->id;
  qm->index = idx;
  snprintf ((char *) qm->name, sizeof (qm->name), "%s", c->menu[idx]);
  return 0;
}

bool
emu_ctrl_event (struct emu_file *f, uint32_t id, struct v4l2_event *ev)
{
  struct emu_device *dev = f->dev;
  const struct emu_profile *p = dev->prof;
  int i = ctrl_index (p, id);
  const struct emu_ctrl *c;

  if (i < 0)
    return false;
  c = &p->ctrls[i];
  memset (ev, 0, sizeof (*ev));
  ev->type = V4L2_EVENT_CTRL;
  ev->id = id;
  ev->u.ctrl.changes = V4L2_EVENT_CTRL_CH_VALUE | V4L2_EVENT_CTRL_CH_FLAGS;
  ev->u.ctrl.type = c->type;
  ev->u.ctrl.flags = ctrl_flags (dev, c);
  if (c->type != V4L2_CTRL_TYPE_CTRL_CLASS &&
      c->type != V4L2_CTRL_TYPE_BUTTON)
    ev->u.ctrl.value = dev->st->ctrl[i];
  if (c->type != V4L2_CTRL_TYPE_CTRL_CLASS) {
    ev->u.ctrl.minimum = c->min;
    ev->u.ctrl.maximum = c->max;
    ev->u.ctrl.step = c->type == V4L2_CTRL_TYPE_MENU ? 1 : c->step;
    ev->u.ctrl.default_value = c->def;
  }
  return true;
}

/* Checks and adjusts a new value like the kernel's control framework. */
static long
validate (const struct emu_ctrl *c, int32_t * val)
{
  int64_t v = *val;

  switch (c->type) {
    case V4L2_CTRL_TYPE_MENU:
      /* as std_validate(): out of range is ERANGE, a hole EINVAL */
      if (v < c->min || v > c->max)
        return -ERANGE;
      if (v >= EMU_MAX_MENU || !c->menu[v])
        return -EINVAL;
      return 0;
    case V4L2_CTRL_TYPE_BOOLEAN:
      *val = !!v;
      return 0;
    case V4L2_CTRL_TYPE_BUTTON:
      *val = 0;
      return 0;
    case V4L2_CTRL_TYPE_CTRL_CLASS:
      return -EACCES;
    default:
      if (c->step > 1)
        v = c->min + (v - c->min + c->step / 2) / c->step * c->step;
      if (v < c->min)
        v = c->min;
      if (v > c->max)
        v = c->max;
      *val = (int32_t) v;
      return 0;
  }
}

/* Stores a value; the device lock must NOT be held (events are sent). */
static void
store (struct emu_file *f, int i, int32_t val)
{
  struct emu_device *dev = f->dev;
  const struct emu_ctrl *c = &dev->prof->ctrls[i];
  struct v4l2_event ev;
  bool changed;

  emu_lock (dev);
  changed = dev->st->ctrl[i] != val || c->type == V4L2_CTRL_TYPE_BUTTON;
  dev->st->ctrl[i] = val;
  if (changed)
    dev->st->gen++;
  emu_unlock (dev);
  if (!changed)
    return;
  emu_ctrl_event (f, c->id, &ev);
  ev.u.ctrl.changes = V4L2_EVENT_CTRL_CH_VALUE;
  emu_event_broadcast (dev, &ev, f);
}

static long
check_writable (struct emu_device *dev, const struct emu_ctrl *c)
{
  uint32_t fl = ctrl_flags (dev, c);

  if (fl & V4L2_CTRL_FLAG_READ_ONLY)
    return -EACCES;
  if (fl & V4L2_CTRL_FLAG_GRABBED)
    return -EBUSY;
  return 0;
}

static long
g_ctrl (struct emu_device *dev, struct v4l2_control *ctl)
{
  int i = ctrl_index (dev->prof, ctl->id);

  if (i < 0)
    return -EINVAL;
  if (ctrl_flags (dev, &dev->prof->ctrls[i]) & V4L2_CTRL_FLAG_WRITE_ONLY)
    return -EACCES;
  ctl->value = dev->st->ctrl[i];
  return 0;
}

static long
s_ctrl (struct emu_file *f, struct v4l2_control *ctl)
{
  struct emu_device *dev = f->dev;
  int i = ctrl_index (dev->prof, ctl->id);
  int32_t v = ctl->value;
  long r;

  if (i < 0)
    return -EINVAL;
  if ((r = emu_prio_check (f)) < 0)
    return r;
  if ((r = check_writable (dev, &dev->prof->ctrls[i])) < 0)
    return r;
  if ((r = validate (&dev->prof->ctrls[i], &v)) < 0)
    return r;
  store (f, i, v);
  ctl->value = v;
  return 0;
}

static long
ext_ctrls (struct emu_file *f, unsigned long req, struct v4l2_ext_controls *cs)
{
  struct emu_device *dev = f->dev;
  const struct emu_profile *p = dev->prof;
  int32_t vals[EMU_MAX_CTRLS];
  int idx[EMU_MAX_CTRLS];
  uint32_t n;
  long r;

  if (cs->which != V4L2_CTRL_WHICH_CUR_VAL &&
      cs->which != V4L2_CTRL_WHICH_DEF_VAL &&
      (cs->which == V4L2_CTRL_WHICH_REQUEST_VAL ||
          V4L2_CTRL_ID2WHICH (cs->which) != cs->which))
    return -EINVAL;
  /* default values can be read, never tried or set */
  if (req != VIDIOC_G_EXT_CTRLS && cs->which == V4L2_CTRL_WHICH_DEF_VAL)
    return -EINVAL;
  if (cs->count == 0) {
    /* is the class known? */
    if (cs->which && cs->which != V4L2_CTRL_WHICH_DEF_VAL &&
        ctrl_index (p, cs->which | 1) < 0)
      return -EINVAL;
    return 0;
  }
  if (cs->count > EMU_MAX_CTRLS) {
    cs->error_idx = cs->count;
    return -EINVAL;
  }
  if (!cs->controls)
    return -EFAULT;
  if (req == VIDIOC_S_EXT_CTRLS && (r = emu_prio_check (f)) < 0)
    return r;
  /* first pass: validate everything, change nothing */
  for (n = 0; n < cs->count; n++) {
    struct v4l2_ext_control *x = &cs->controls[n];
    int i = ctrl_index (p, x->id);
    const struct emu_ctrl *c;
    uint32_t fl;

    cs->error_idx = req == VIDIOC_TRY_EXT_CTRLS ? n : cs->count;
    if (i < 0 || (cs->which && cs->which != V4L2_CTRL_WHICH_DEF_VAL &&
            V4L2_CTRL_ID2WHICH (x->id) != cs->which)) {
      cs->error_idx = n;
      if (req == VIDIOC_S_EXT_CTRLS)
        cs->error_idx = cs->count;
      if (req != VIDIOC_TRY_EXT_CTRLS && req != VIDIOC_S_EXT_CTRLS)
        cs->error_idx = cs->count;
      return -EINVAL;
    }
    c = &p->ctrls[i];
    fl = ctrl_flags (dev, c);
    idx[n] = i;
    if (c->type == V4L2_CTRL_TYPE_CTRL_CLASS)
      return -EACCES;
    if (req == VIDIOC_G_EXT_CTRLS) {
      if (fl & V4L2_CTRL_FLAG_WRITE_ONLY)
        return -EACCES;
      continue;
    }
    if (fl & V4L2_CTRL_FLAG_READ_ONLY)
      return -EACCES;
    if (req == VIDIOC_S_EXT_CTRLS && (fl & V4L2_CTRL_FLAG_GRABBED))
      return -EBUSY;
    vals[n] = x->value;
    if ((r = validate (c, &vals[n])) < 0) {
      cs->error_idx = req == VIDIOC_TRY_EXT_CTRLS ? n : cs->count;
      return r;
    }
  }
  /* second pass: act */
  for (n = 0; n < cs->count; n++) {
    struct v4l2_ext_control *x = &cs->controls[n];

    if (req == VIDIOC_G_EXT_CTRLS)
      x->value = cs->which == V4L2_CTRL_WHICH_DEF_VAL ?
          p->ctrls[idx[n]].def : dev->st->ctrl[idx[n]];
    else {
      if (req == VIDIOC_S_EXT_CTRLS)
        store (f, idx[n], vals[n]);
      x->value = vals[n];
    }
  }
  cs->error_idx = 0;
  return 0;
}

long
emu_ctrls_ioctl (struct emu_file *f, unsigned long req, void *arg)
{
  struct emu_device *dev = f->dev;

  if (!dev->prof->ctrls[0].id && req != VIDIOC_QUERYCTRL &&
      req != VIDIOC_QUERY_EXT_CTRL)
    return EMU_NEXT;
  switch (req) {
    case VIDIOC_QUERYCTRL:
      return dev->prof->ctrls[0].id ? queryctrl (dev, arg) : EMU_NEXT;
    case VIDIOC_QUERY_EXT_CTRL:
      return dev->prof->ctrls[0].id ? query_ext (dev, arg) : EMU_NEXT;
    case VIDIOC_QUERYMENU:
      return querymenu (dev, arg);
    case VIDIOC_G_CTRL:
      return g_ctrl (dev, arg);
    case VIDIOC_S_CTRL:
      return s_ctrl (f, arg);
    case VIDIOC_G_EXT_CTRLS:
    case VIDIOC_S_EXT_CTRLS:
    case VIDIOC_TRY_EXT_CTRLS:
      return ext_ctrls (f, req, arg);
    default:
      return EMU_NEXT;
  }
}
