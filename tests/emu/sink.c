/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sink.c - the I/O engine of an output-only node: write() takes the bytes
 * (and drops them), read() is refused, the node is always writable. */
#include "emu.h"

#include <errno.h>

static ssize_t
sink_write (struct emu_file *f, const void *buf, size_t n)
{
  int r = emu_fault_io_begin (f);

  (void) buf;
  if (r < 0)
    return r;
  emu_fault_io_done (f, n);
  return (ssize_t) n;
}

static short
sink_poll (struct emu_file *f, short events, int64_t *next_ns)
{
  (void) f;
  (void) next_ns;
  return events & (POLLOUT | POLLWRNORM);
}

const struct emu_engine emu_engine_sink = {
  .name = "sink",
  .write = sink_write,
  .poll = sink_poll,
};
