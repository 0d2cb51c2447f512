/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The one fake driver of the unit tests: an IvtvIoFuncs table whose
 * ioctl() and read() are a test's functions (drivers the emulator does
 * not imitate: hostile answers, scripted reads, old control ioctls). */
#ifndef __IVTV_FAKEDEV_H__
#define __IVTV_FAKEDEV_H__

#include <gst/gst.h>
#include "ivtvdevice.h"

G_BEGIN_DECLS

/* 0, or -1 with errno set (as the ioctl/read system calls). */
typedef int (*FakeIoctlFunc) (unsigned long request, void *arg);
typedef gssize (*FakeReadFunc) (void *buf, gsize len);

/* @dev as an open device on @fd (a pipe end a GstPoll can watch, or any
 * number) whose ioctl() is @ioctl (NULL: ENOTTY for every request) and
 * read() is @read (NULL: read() on @fd); path "/dev/fake".  close() of the
 * table closes nothing. */
void fake_dev_init (IvtvDevice * dev, gint fd, FakeIoctlFunc ioctl,
    FakeReadFunc read);

/* Forget @dev (fd -1, path freed) without closing anything; safe on a
 * zeroed struct. */
void fake_dev_clear (IvtvDevice * dev);

/* errno = @e, return -1. */
int fake_fail (int e);

G_END_DECLS

#endif /* __IVTV_FAKEDEV_H__ */
