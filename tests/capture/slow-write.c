/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* slow-write.c - a disk that is slow, for the capture tests: an LD_PRELOAD
 * library whose write() and writev() sleep IVTV_SLOW_WRITE_US microseconds
 * (default 100000) before each call on a file descriptor open on the path
 * IVTV_SLOW_WRITE names, then write as usual.  Other descriptors are not
 * touched.  (filesink writes with writev() and write().) */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

static int
is_slow (int fd)
{
  const char *want = getenv ("IVTV_SLOW_WRITE");
  char link[64], path[PATH_MAX];
  ssize_t n;

  if (want == NULL || *want == '\0' || fd < 0)
    return 0;
  snprintf (link, sizeof (link), "/proc/self/fd/%d", fd);
  n = readlink (link, path, sizeof (path) - 1);
  if (n <= 0)
    return 0;
  path[n] = '\0';
  return strcmp (path, want) == 0;
}

static void
pause_if_slow (int fd)
{
  const char *us = getenv ("IVTV_SLOW_WRITE_US");

  if (is_slow (fd))
    usleep (us && *us ? (useconds_t) strtoul (us, NULL, 10) : 100000);
}

ssize_t
write (int fd, const void *buf, size_t count)
{
  static ssize_t (*real) (int, const void *, size_t);

  if (real == NULL)
    real = (ssize_t (*)(int, const void *, size_t)) dlsym (RTLD_NEXT, "write");
  pause_if_slow (fd);
  return real (fd, buf, count);
}

ssize_t
writev (int fd, const struct iovec *iov, int iovcnt)
{
  static ssize_t (*real) (int, const struct iovec *, int);

  if (real == NULL)
    real = (ssize_t (*)(int, const struct iovec *, int)) dlsym (RTLD_NEXT,
        "writev");
  pause_if_slow (fd);
  return real (fd, iov, iovcnt);
}
