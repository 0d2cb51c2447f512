/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* stream.h - internal API of the streaming engine (stream.c: engine hooks
 * and read(); stream-buffers.c: the buffer queue, vb2-like).  One queue per
 * emulated device per process; the cross-process queue owner is the core's
 * owner slot (emu_owner_take), so a second process gets EBUSY too. */
#ifndef IVTV_EMU_STREAM_H
#define IVTV_EMU_STREAM_H

#include "emu.h"

#define STREAM_MAX_BUFFERS 32

enum sbuf_state
{
  SBUF_DEQUEUED,                /* owned by the application */
  SBUF_PREPARED,                /* PREPARE_BUF done, not queued */
  SBUF_QUEUED,                  /* waiting for a frame */
  SBUF_DONE                     /* filled, waiting for DQBUF */
};

struct sbuf
{
  enum sbuf_state state;
  uint32_t length;              /* plane length */
  uint32_t min_length;          /* USERPTR/DMABUF: what a frame needs */
  uint32_t offset;              /* MMAP cookie for mmap() */
  int memfd;                    /* MMAP: the buffer memory */
  void *map;                    /* our mapping of memfd / dmabuf */
  size_t map_len;
  unsigned long userptr;        /* USERPTR */
  int dmabuf_fd;                /* DMABUF: our dup of the app's fd */
  int app_fd;                   /* DMABUF: the fd number the app gave */
  uint64_t order;               /* queue / completion order */
  uint32_t bytesused, sequence, field, flags;
  struct timeval timestamp;
  void *drawn_at;               /* dma fault: where a picture was last drawn */
  size_t drawn_len;             /* ... and its size */
  uint64_t drops_before;        /* frames dropped before this one */
};

/* The format frozen at STREAMON / read start */
struct sformat
{
  uint32_t pixelformat, width, height, field, sizeimage;
};

struct squeue
{
  struct emu_device *dev;       /* NULL: slot free */
  struct emu_file *owner;       /* file that allocated the buffers / reads */
  uint32_t memory;              /* V4L2_MEMORY_* of the buffers */
  uint32_t count;
  uint32_t next_offset;         /* next MMAP offset cookie */
  struct sbuf bufs[STREAM_MAX_BUFFERS];
  bool streaming;
  bool fileio;                  /* read() owns the queue */
  bool waiting;                 /* a DQBUF is blocked */
  bool waiting_for_buffers;     /* no QBUF since REQBUFS/STREAMOFF */
  struct sformat fmt;
  uint64_t sequence;            /* number of the next frame */
  uint64_t delivered;           /* frames handed out (seq_counts_delivered) */
  uint64_t slots;               /* frame periods since STREAMON (skip-every) */
  uint64_t dropped;             /* frames the device dropped (stream-rate.c) */
  uint64_t dropped_seen;        /* ... before the last frame handed out */
  int64_t next_ns;              /* when the next frame completes */
  int64_t last_ns;              /* timestamp of the last frame */
  uint64_t order;
  /* read() */
  uint8_t *rbuf;                /* the frame being read */
  size_t rbuf_cap, rlen, roff;
};

/* stream-buffers.c; all called with emu_lock() held */
struct squeue *stream_queue (struct emu_device *dev, bool create);
void stream_queue_free (struct squeue *q);
long stream_buffers_ioctl (struct emu_file *f, unsigned long req, void *arg);
/* completes the frames that are due by `now` (pacing) */
void stream_advance (struct squeue *q, int64_t now);
bool stream_has_done (struct squeue *q);
void stream_current_format (struct emu_device *dev, struct sformat *out);
/* stream-rate.c: the device's frame period on CLOCK_MONOTONIC (the
 * nominal one off by frame-rate-pct); @n frames dropped; a frame handed
 * out with @drops_before drops before it (<rundir>/dropped-videoN) */
int64_t stream_interval_ns (struct emu_device *dev);
void stream_drops (struct squeue *q, uint64_t n);
/* skip-every (and skip-run) drops the frame of period @slot */
bool stream_skip_slot (struct emu_device *dev, uint64_t slot);
void stream_drops_seen (struct squeue *q, uint64_t drops_before);
/* draws frame `seq` of the current input into dst; returns bytes used */
size_t stream_draw (struct emu_device *dev, const struct sformat *fmt,
    uint64_t seq, int flash, void *dst, size_t cap);
struct sbuf *stream_find_offset (struct squeue *q, off_t off, uint32_t * idx);

#endif /* IVTV_EMU_STREAM_H */
