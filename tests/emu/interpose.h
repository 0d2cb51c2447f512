/* interpose.h - the fd table of the LD_PRELOAD shim, shared by interpose.c
 * (open/close/ioctl/read/...) and interpose-poll.c (poll/ppoll/select). */
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
void interpose_poll_init (void);

#endif
