/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* interpose.h - what the parts of the LD_PRELOAD shim share: set-up, the
 * device list and the fd table (interpose.c), for interpose-io.c
 * (ioctl/read/write/mmap), interpose-stat.c (stat family, access) and
 * interpose-poll.c (poll/ppoll/select/epoll). */
#ifndef IVTV_EMU_INTERPOSE_H
#define IVTV_EMU_INTERPOSE_H

#include "emu.h"

#define EMU_MAX_FD 4096

/* any emulated fd open in this process? (fast path for poll/select) */
bool interpose_any_emulated (void);
/* the file object behind fd, held until interpose_put(); NULL if not ours */
struct emu_file *interpose_get (int fd);
void interpose_put (struct emu_file *f);
/* readiness of an emulated file (engine poll + events + unplug) */
short interpose_revents (struct emu_file *f, short events, int64_t * next_ns);

/* resolves the real functions and reads the environment, once; every
 * entry point calls it first */
void interpose_init (void);
/* the emulated device at absolute `path`, or NULL */
struct emu_device *interpose_find_device (const char *path);
/* one more reference held (a mapping of the file) */
void interpose_hold (struct emu_file *f);
/* addr is a mapping of an emulated device (interpose-io.c) */
bool interpose_is_mapping (void *addr);
/* -errno -> errno and -1; other values returned as they are */
long interpose_ret (long r);
/* each part's real-function lookup, called by interpose_init() */
void interpose_poll_init (void);
void interpose_io_init (void);
void interpose_stat_init (void);

#endif
