/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The one fake driver of the unit tests (see fakedev.h). */
#include "fakedev.h"

#include <errno.h>
#include <unistd.h>

static FakeIoctlFunc cur_ioctl;
static FakeReadFunc cur_read;

int
fake_fail (int e)
{
  errno = e;
  return -1;
}

static int
fake_ioctl (int fd, unsigned long request, void *arg)
{
  (void) fd;
  return cur_ioctl ? cur_ioctl (request, arg) : fake_fail (ENOTTY);
}

static ssize_t
fake_read (int fd, void *buf, size_t len)
{
  return cur_read ? cur_read (buf, len) : read (fd, buf, len);
}

static int
fake_close (int fd)
{
  (void) fd;
  return 0;
}

static const IvtvIoFuncs fake_io = {
  .name = "fake",.close = fake_close,.ioctl = fake_ioctl,.read = fake_read
};

void
fake_dev_init (IvtvDevice * dev, gint fd, FakeIoctlFunc ioctl,
    FakeReadFunc read)
{
  cur_ioctl = ioctl;
  cur_read = read;
  ivtv_device_init (dev, NULL);
  dev->io = &fake_io;
  dev->fd = fd;
  dev->path = g_strdup ("/dev/fake");
}

void
fake_dev_clear (IvtvDevice * dev)
{
  dev->fd = -1;
  dev->io = &ivtv_io_libc;
  g_clear_pointer (&dev->path, g_free);
}
