/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* stream-buffers.c - the streaming engine's buffer queue, modelled on the
 * kernel's videobuf2: REQBUFS / CREATE_BUFS / QUERYBUF / PREPARE_BUF / QBUF /
 * DQBUF / EXPBUF / STREAMON / STREAMOFF for MMAP (one memfd per buffer),
 * USERPTR and DMABUF import, frames completed at the frame interval
 * (lazily, when a caller looks: a frame due while no buffer was queued is
 * dropped only when a DQBUF or poll sees it so, or after 64 periods away),
 * sequence numbers counting dropped frames
 * (or only delivered ones, emu_profile.seq_counts_delivered: stk1160,
 * usbtv), CLOCK_MONOTONIC end-of-frame timestamps, and the DQBUF faults.
 * The frame period and the count of dropped frames: stream-rate.c. */
#include "stream.h"
#include "marks.h"
#include "stream-frames.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define STREAM_BUF_CAPS (V4L2_BUF_CAP_SUPPORTS_MMAP | \
    V4L2_BUF_CAP_SUPPORTS_USERPTR | V4L2_BUF_CAP_SUPPORTS_DMABUF | \
    V4L2_BUF_CAP_SUPPORTS_ORPHANED_BUFS)

static struct squeue queues[EMU_MAX_DEVICES];

struct squeue *
stream_queue (struct emu_device *dev, bool create)
{
  int i;

  for (i = 0; i < EMU_MAX_DEVICES; i++)
    if (queues[i].dev == dev)
      return &queues[i];
  if (!create)
    return NULL;
  for (i = 0; i < EMU_MAX_DEVICES; i++) {
    if (!queues[i].dev) {
      memset (&queues[i], 0, sizeof (queues[i]));
      queues[i].dev = dev;
      return &queues[i];
    }
  }
  return NULL;
}

static size_t
page_align (size_t n)
{
  size_t pg = (size_t) sysconf (_SC_PAGESIZE);

  return (n + pg - 1) / pg * pg;
}

/* ------------------------------------------------------------------ */
/* helpers shared with stream.c                                        */

void
stream_current_format (struct emu_device *dev, struct sformat *out)
{
  struct v4l2_format fmt;

  memset (&fmt, 0, sizeof (fmt));
  fmt.type = dev->prof->buf_type;
  emu_core_get_format (dev, &fmt);
  out->pixelformat = fmt.fmt.pix.pixelformat;
  out->width = fmt.fmt.pix.width;
  out->height = fmt.fmt.pix.height;
  out->field = fmt.fmt.pix.field == V4L2_FIELD_ANY ? V4L2_FIELD_NONE :
      fmt.fmt.pix.field;
  out->sizeimage = fmt.fmt.pix.sizeimage;
  if (out->sizeimage == 0)
    out->sizeimage = (uint32_t) emu_frame_size (out->pixelformat,
        out->width, out->height);
}

size_t
stream_draw (struct emu_device *dev, const struct sformat *fmt, uint64_t seq,
    int flash, void *dst, size_t cap)
{
  struct emu_picture pic;
  uint32_t input = dev->card->st->input;

  memset (&pic, 0, sizeof (pic));
  pic.width = fmt->width;
  pic.height = fmt->height;
  pic.frame = seq;
  pic.content = input < EMU_MAX_INPUTS ? dev->prof->inputs[input].content : 0;
  pic.black = emu_fault_no_signal (dev);
  pic.white = flash;
  return emu_frame_draw (fmt->pixelformat, &pic, dst, cap);
}

struct sbuf *
stream_find_offset (struct squeue *q, off_t off, uint32_t * idx)
{
  uint32_t i;

  for (i = 0; i < q->count; i++) {
    if (q->bufs[i].offset == (uint64_t) off) {
      *idx = i;
      return &q->bufs[i];
    }
  }
  return NULL;
}

/* ------------------------------------------------------------------ */
/* buffer memory                                                       */

static void
buf_release (struct sbuf *b)
{
  const struct emu_real *r = emu_real ();

  if (b->map)
    r->munmap (b->map, b->map_len);
  if (b->memfd >= 0)
    r->close (b->memfd);
  if (b->dmabuf_fd >= 0)
    r->close (b->dmabuf_fd);
  memset (b, 0, sizeof (*b));
  b->memfd = -1;
  b->dmabuf_fd = -1;
}

/* frees every buffer; mappings the application still holds stay valid
 * (orphaned buffers, V4L2_BUF_CAP_SUPPORTS_ORPHANED_BUFS) */
static void
queue_free_buffers (struct squeue *q)
{
  uint32_t i;

  for (i = 0; i < q->count; i++)
    buf_release (&q->bufs[i]);
  q->count = 0;
  q->next_offset = 0;
}

void
stream_queue_free (struct squeue *q)
{
  queue_free_buffers (q);
  free (q->rbuf);
  memset (q, 0, sizeof (*q));
}

static int
buf_alloc (struct squeue *q, struct sbuf *b, uint32_t memory, uint32_t len)
{
  const struct emu_real *r = emu_real ();

  memset (b, 0, sizeof (*b));
  b->memfd = -1;
  b->dmabuf_fd = -1;
  b->length = len;
  b->min_length = len;
  b->state = SBUF_DEQUEUED;
  if (memory != V4L2_MEMORY_MMAP)
    return 0;
  b->memfd = memfd_create ("ivtv-emu-buffer", MFD_CLOEXEC);
  if (b->memfd < 0)
    return -ENOMEM;
  b->map_len = page_align (len);
  if (ftruncate (b->memfd, (off_t) b->map_len) < 0)
    goto nomem;
  b->map = r->mmap (NULL, b->map_len, PROT_READ | PROT_WRITE, MAP_SHARED,
      b->memfd, 0);
  if (b->map == MAP_FAILED) {
    b->map = NULL;
    goto nomem;
  }
  b->offset = q->next_offset;
  q->next_offset += (uint32_t) b->map_len;
  return 0;

nomem:
  buf_release (b);
  return -ENOMEM;
}

/* allocates `n` buffers of `len` bytes after the existing ones */
static int
queue_add_buffers (struct squeue *q, uint32_t memory, uint32_t n, uint32_t len)
{
  uint32_t i;
  int ret;

  for (i = 0; i < n; i++) {
    ret = buf_alloc (q, &q->bufs[q->count], memory, len);
    if (ret < 0)
      return i ? (int) i : ret;
    q->count++;
  }
  return (int) n;
}

/* ------------------------------------------------------------------ */
/* completing frames                                                   */

static struct sbuf *
first_in_state (struct squeue *q, enum sbuf_state st)
{
  struct sbuf *best = NULL;
  uint32_t i;

  for (i = 0; i < q->count; i++)
    if (q->bufs[i].state == st && (!best || q->bufs[i].order < best->order))
      best = &q->bufs[i];
  return best;
}

bool
stream_has_done (struct squeue *q)
{
  return first_in_state (q, SBUF_DONE) != NULL;
}

/* USERPTR: the whole range must be mapped memory */
static bool
user_range_mapped (unsigned long ptr, size_t len)
{
  size_t pg = (size_t) sysconf (_SC_PAGESIZE);
  unsigned long start = ptr & ~(unsigned long) (pg - 1);
  size_t span = ptr + len - start;
  unsigned char *vec = malloc (span / pg + 2);
  int ret;

  if (!vec)
    return false;
  ret = mincore ((void *) start, span, vec);
  free (vec);
  return ret == 0;
}

static void
complete (struct squeue *q, struct sbuf *b, uint64_t seq, int64_t t_ns)
{
  void *dst = q->memory == V4L2_MEMORY_USERPTR ? (void *) b->userptr : b->map;
  size_t used = 0;
  int64_t iv;

  /* a USERPTR buffer the application unmapped meanwhile: an error frame
   * instead of a crash (the kernel would have pinned the pages) */
  if (q->memory == V4L2_MEMORY_USERPTR && !user_range_mapped (b->userptr,
          b->length))
    dst = NULL;
  if (dst && b->drawn_at == dst && emu_fault_on (q->dev, EMU_FAULT_DMA)) {
    /* the card's DMA engine fills frames at no CPU cost: the buffer keeps
     * the picture drawn into it last time (benchmarks of the reader) */
    used = b->drawn_len;
  } else if (dst) {
    iv = stream_interval_ns (q->dev);
    used = stream_draw (q->dev, &q->fmt, seq, emu_marks_flash
        (emu_marks_period_ns (q->dev), t_ns - iv, iv), dst, b->length);
    b->drawn_at = used ? dst : NULL;
    b->drawn_len = used;
  }
  b->flags = 0;
  b->bytesused = (uint32_t) used;
  if (used == 0) {
    /* cannot happen with validated buffers; say so instead of lying */
    b->flags = V4L2_BUF_FLAG_ERROR;
    b->bytesused = b->length;
  }
  if (t_ns <= q->last_ns)
    t_ns = q->last_ns + 1000;   /* fast mode: keep timestamps increasing */
  q->last_ns = t_ns;
  /* the picture is frame `seq` of the source; the sequence number is the
   * driver's count (emu_profile.seq_counts_delivered) */
  b->sequence = (uint32_t) (q->dev->prof->seq_counts_delivered ?
      q->delivered++ : seq);
  b->field = q->fmt.field;
  b->timestamp.tv_sec = t_ns / 1000000000LL;
  b->timestamp.tv_usec = (t_ns % 1000000000LL) / 1000;
  b->state = SBUF_DONE;
  b->order = ++q->order;
  b->drops_before = q->dropped;
}

void
stream_advance (struct squeue *q, int64_t now)
{
  struct sbuf *b;
  int64_t iv;
  uint64_t slot;

  if (!q->streaming)
    return;
  if (emu_fault_on (q->dev, EMU_FAULT_FAST)) {
    while ((b = first_in_state (q, SBUF_QUEUED)))
      complete (q, b, q->sequence++, now);
    q->next_ns = now;
    return;
  }
  iv = stream_interval_ns (q->dev);
  if (now - q->next_ns > 64 * iv) {
    /* the application was away for long: those frames were dropped */
    int64_t skip = (now - q->next_ns) / iv - 1;

    q->sequence += (uint64_t) skip;
    q->next_ns += skip * iv;
    stream_drops (q, (uint64_t) skip);
  }
  while (q->next_ns <= now) {
    b = first_in_state (q, SBUF_QUEUED);
    /* the frame's number: with skip-keeps-seq the sequence stops on
     * dropped frames, so the periods are counted */
    slot = emu_fault_on (q->dev, EMU_FAULT_SKIP_KEEPS_SEQ) ? q->slots :
        q->sequence;
    q->slots++;
    if (b && stream_skip_slot (q->dev, slot))
      b = NULL;     /* skip-every: dropped as vivid's "Percentage of Dropped
                     * Buffers" does (vivid-kthread-cap.c
                     * vivid_thread_vid_cap_tick: the sequence counts on) */
    if (b)
      complete (q, b, q->sequence, q->next_ns);
    else
      stream_drops (q, 1);
    /* no buffer queued: the frame is dropped; usbtv and stk1160 number
     * only the frames they complete (usbtv-video.c usbtv_image_chunk "No
     * free buffers"; stk1160-video.c stk1160_buffer_done), vivid counts on */
    if (b || !emu_fault_on (q->dev, EMU_FAULT_SKIP_KEEPS_SEQ))
      q->sequence++;
    q->next_ns += iv;
  }
}

/* ------------------------------------------------------------------ */
/* ioctls                                                              */

static bool
memory_valid (uint32_t memory)
{
  return memory == V4L2_MEMORY_MMAP || memory == V4L2_MEMORY_USERPTR ||
      memory == V4L2_MEMORY_DMABUF;
}

/* EBUSY when another open file owns the queue (vb2_queue_is_busy) */
static bool
other_owner (struct emu_file *f)
{
  return emu_owner_any (f->dev) && !emu_owner_is (f);
}

static void
fill_v4l2_buffer (struct squeue *q, uint32_t index, struct v4l2_buffer *vb)
{
  struct sbuf *b = &q->bufs[index];

  vb->index = index;
  vb->type = q->dev->prof->buf_type;
  vb->memory = q->memory;
  vb->bytesused = b->bytesused;
  vb->field = b->field;
  vb->timestamp = b->timestamp;
  memset (&vb->timecode, 0, sizeof (vb->timecode));
  vb->sequence = b->sequence;
  vb->length = b->length;
  vb->reserved2 = 0;
  vb->request_fd = 0;
  switch (q->memory) {
    case V4L2_MEMORY_MMAP:
      vb->m.offset = b->offset;
      break;
    case V4L2_MEMORY_USERPTR:
      vb->m.userptr = b->userptr;
      break;
    default:
      vb->m.fd = b->app_fd;
      break;
  }
  vb->flags = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC | V4L2_BUF_FLAG_TSTAMP_SRC_EOF
      | (b->flags & V4L2_BUF_FLAG_ERROR);
  switch (b->state) {
    case SBUF_PREPARED:
      vb->flags |= V4L2_BUF_FLAG_PREPARED;
      break;
    case SBUF_QUEUED:
      vb->flags |= V4L2_BUF_FLAG_QUEUED;
      break;
    case SBUF_DONE:
      vb->flags |= V4L2_BUF_FLAG_DONE;
      break;
    default:
      break;
  }
}

static long
do_reqbufs (struct emu_file *f, struct v4l2_requestbuffers *rb)
{
  struct emu_device *dev = f->dev;
  struct squeue *q = stream_queue (dev, false);
  struct sformat fmt;
  uint32_t count;
  int ret;

  if (rb->type != dev->prof->buf_type || !memory_valid (rb->memory))
    return -EINVAL;
  if (other_owner (f))
    return -EBUSY;
  if (q && (q->fileio || q->streaming || (q->waiting && rb->count)))
    return -EBUSY;
  rb->capabilities = STREAM_BUF_CAPS;
  rb->flags = 0;
  memset (rb->reserved, 0, sizeof (rb->reserved));
  if (q)
    stream_queue_free (q);
  if (rb->count == 0) {
    if (emu_owner_is (f))
      emu_owner_release (f);
    return 0;
  }
  if (emu_fault_on (dev, EMU_FAULT_REQBUFS_FAILS)) {
    emu_debug ("fault reqbufs-fails: REQBUFS -> ENOMEM\n");
    if (emu_owner_is (f))
      emu_owner_release (f);
    return -ENOMEM;
  }
  if (!emu_owner_is (f) && (ret = emu_owner_take (f)) < 0)
    return ret;
  q = stream_queue (dev, true);
  if (!q) {
    emu_owner_release (f);
    return -ENOMEM;
  }
  q->owner = f;
  q->memory = rb->memory;
  q->waiting_for_buffers = true;
  stream_current_format (dev, &fmt);
  count = rb->count > STREAM_MAX_BUFFERS ? STREAM_MAX_BUFFERS : rb->count;
  ret = queue_add_buffers (q, rb->memory, count, fmt.sizeimage);
  if (ret <= 0) {
    stream_queue_free (q);
    emu_owner_release (f);
    return -ENOMEM;
  }
  rb->count = (uint32_t) ret;
  return 0;
}

static long
do_create_bufs (struct emu_file *f, struct v4l2_create_buffers *cb)
{
  struct emu_device *dev = f->dev;
  struct squeue *q = stream_queue (dev, false);
  struct sformat cur;
  uint32_t n, have = q ? q->count : 0;
  int ret;

  if (cb->format.type != dev->prof->buf_type || !memory_valid (cb->memory))
    return -EINVAL;
  if (other_owner (f) || (q && q->fileio))
    return -EBUSY;
  cb->capabilities = STREAM_BUF_CAPS;
  cb->flags = 0;
  memset (cb->reserved, 0, sizeof (cb->reserved));
  if (have && q->memory != cb->memory)
    return -EINVAL;
  stream_current_format (dev, &cur);
  if (cb->format.fmt.pix.sizeimage < cur.sizeimage)
    return -EINVAL;             /* too small for the current format */
  cb->index = have;
  if (cb->count == 0)
    return 0;
  if (emu_fault_on (dev, EMU_FAULT_REQBUFS_FAILS))
    return -ENOMEM;
  if (have >= STREAM_MAX_BUFFERS)
    return -ENOBUFS;
  if (!emu_owner_is (f) && (ret = emu_owner_take (f)) < 0)
    return ret;
  if (!q) {
    q = stream_queue (dev, true);
    if (!q) {
      emu_owner_release (f);
      return -ENOMEM;
    }
    q->waiting_for_buffers = true;
  }
  q->owner = f;
  q->memory = cb->memory;
  n = cb->count;
  if (n > STREAM_MAX_BUFFERS - have)
    n = STREAM_MAX_BUFFERS - have;
  ret = queue_add_buffers (q, cb->memory, n, cb->format.fmt.pix.sizeimage);
  if (ret <= 0) {
    if (q->count == 0) {
      stream_queue_free (q);
      emu_owner_release (f);
    }
    return -ENOMEM;
  }
  cb->count = (uint32_t) ret;
  return 0;
}

/* the queue this file may use for QBUF & co, or an error */
static long
owned_queue (struct emu_file *f, uint32_t type, struct squeue **out)
{
  struct squeue *q = stream_queue (f->dev, false);

  if (type != f->dev->prof->buf_type)
    return -EINVAL;
  if (other_owner (f) || (q && q->fileio))
    return -EBUSY;
  if (!q || q->count == 0)
    return -EINVAL;
  *out = q;
  return 0;
}

static long
do_querybuf (struct emu_file *f, struct v4l2_buffer *vb)
{
  struct squeue *q = stream_queue (f->dev, false);

  if (vb->type != f->dev->prof->buf_type)
    return -EINVAL;
  if (!q || q->fileio || vb->index >= q->count)
    return -EINVAL;
  fill_v4l2_buffer (q, vb->index, vb);
  return 0;
}

/* checks and takes the memory an app hands over with QBUF/PREPARE_BUF */
static long
buf_prepare (struct squeue *q, struct sbuf *b, struct v4l2_buffer *vb)
{
  const struct emu_real *r = emu_real ();
  uint32_t need = q->memory == V4L2_MEMORY_MMAP ? b->length : b->min_length;

  if (q->memory == V4L2_MEMORY_USERPTR) {
    if (!vb->m.userptr || vb->length < need)
      return -EINVAL;
    if (!user_range_mapped (vb->m.userptr, vb->length))
      return -EFAULT;
    b->userptr = vb->m.userptr;
    b->length = vb->length;
  } else if (q->memory == V4L2_MEMORY_DMABUF) {
    struct stat sb;
    off_t size;
    void *map;
    int fd;

    if (vb->m.fd < 0 || fstat (vb->m.fd, &sb) < 0)
      return -EINVAL;
    size = lseek (vb->m.fd, 0, SEEK_END);
    if (size <= 0)
      size = sb.st_size;
    if ((uint64_t) size < need || (vb->length && vb->length < need))
      return -EINVAL;
    fd = r->fcntl (vb->m.fd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
      return -EINVAL;
    map = r->mmap (NULL, (size_t) size, PROT_READ | PROT_WRITE, MAP_SHARED,
        fd, 0);
    if (map == MAP_FAILED) {
      r->close (fd);
      return -EINVAL;
    }
    if (b->map)
      r->munmap (b->map, b->map_len);
    if (b->dmabuf_fd >= 0)
      r->close (b->dmabuf_fd);
    b->dmabuf_fd = fd;
    b->app_fd = vb->m.fd;
    b->map = map;
    b->map_len = (size_t) size;
    b->length = vb->length ? vb->length : (uint32_t) size;
  }
  return 0;
}

static long
do_qbuf (struct emu_file *f, struct v4l2_buffer *vb, bool prepare_only)
{
  struct squeue *q;
  struct sbuf *b;
  long ret = owned_queue (f, vb->type, &q);

  if (ret < 0)
    return ret;
  if (vb->index >= q->count || vb->memory != q->memory)
    return -EINVAL;
  if (vb->flags & V4L2_BUF_FLAG_REQUEST_FD)
    return -EBADR;              /* no Request API */
  b = &q->bufs[vb->index];
  if (b->state == SBUF_DEQUEUED) {
    ret = buf_prepare (q, b, vb);
    if (ret < 0)
      return ret;
  } else if (prepare_only || b->state != SBUF_PREPARED) {
    return -EINVAL;             /* already prepared / queued / done */
  }
  b->bytesused = 0;
  b->sequence = 0;
  b->flags = 0;
  memset (&b->timestamp, 0, sizeof (b->timestamp));
  if (prepare_only) {
    b->state = SBUF_PREPARED;
  } else {
    b->state = SBUF_QUEUED;
    b->order = ++q->order;
    q->waiting_for_buffers = false;
  }
  fill_v4l2_buffer (q, vb->index, vb);
  return 0;
}

static long
do_streamon (struct emu_file *f, const uint32_t * type)
{
  struct squeue *q;
  long ret = owned_queue (f, *type, &q);

  if (ret < 0)
    return ret;
  if (q->streaming)
    return 0;
  if (emu_fault_on (f->dev, EMU_FAULT_STREAMON_FAILS)) {
    emu_debug ("fault streamon-fails: STREAMON -> EIO\n");
    return -EIO;
  }
  stream_current_format (f->dev, &q->fmt);
  q->streaming = true;
  q->sequence = 0;
  q->delivered = 0;
  q->slots = 0;
  q->dropped = q->dropped_seen = 0;
  q->next_ns = emu_now_ns ();
  if (!emu_fault_on (f->dev, EMU_FAULT_FAST))
    q->next_ns += stream_interval_ns (f->dev);
  if (emu_marks_period_ns (f->dev) > 0)  /* frames on the marks' clock grid */
    q->next_ns = (q->next_ns / stream_interval_ns (f->dev) + 1) *
        stream_interval_ns (f->dev);
  return 0;
}

static long
do_streamoff (struct emu_file *f, const uint32_t * type)
{
  struct squeue *q = stream_queue (f->dev, false);
  uint32_t i;

  if (*type != f->dev->prof->buf_type)
    return -EINVAL;
  if (other_owner (f) || (q && q->fileio))
    return -EBUSY;
  if (!q)
    return 0;
  q->streaming = false;
  q->waiting_for_buffers = true;
  for (i = 0; i < q->count; i++)
    q->bufs[i].state = SBUF_DEQUEUED;
  return 0;
}

static long
do_expbuf (struct emu_file *f, struct v4l2_exportbuffer *eb)
{
  struct squeue *q;
  long ret = owned_queue (f, eb->type, &q);
  int fd;

  if (ret < 0)
    return ret;
  if (q->memory != V4L2_MEMORY_MMAP || eb->index >= q->count || eb->plane)
    return -EINVAL;
  if (eb->flags & ~(uint32_t) (O_CLOEXEC | O_ACCMODE))
    return -EINVAL;
  fd = emu_real ()->fcntl (q->bufs[eb->index].memfd,
      (eb->flags & O_CLOEXEC) ? F_DUPFD_CLOEXEC : F_DUPFD, 0);
  if (fd < 0)
    return -errno;
  eb->fd = fd;
  memset (eb->reserved, 0, sizeof (eb->reserved));
  return 0;
}

/* DQBUF: blocks (without the lock) until a buffer is done, unless
 * O_NONBLOCK; faults: eio-at, eintr-every, eagain-every (non-blocking
 * only), stall-after, unplug-after (counted in frames). */
static long
do_dqbuf (struct emu_file *f, struct v4l2_buffer *vb)
{
  struct emu_device *dev = f->dev;
  bool first = true;

  for (;;) {
    struct squeue *q;
    struct sbuf *b;
    int64_t until;
    long ret;
    int w;

    emu_lock (dev);
    ret = owned_queue (f, vb->type, &q);
    if (ret == 0 && vb->memory != q->memory)
      ret = -EINVAL;
    if (ret == 0 && !q->streaming)
      ret = -EINVAL;            /* also: STREAMOFF woke us */
    if (ret == 0 && (f->closed || emu_file_gone (f)))
      ret = f->closed ? -EBADF : -ENODEV;
    if (ret == 0 && first) {
      ret = emu_fault_io_begin (f);
      if (ret == -EAGAIN && !emu_nonblock (f))
        ret = 0;                /* a blocking DQBUF never says EAGAIN */
      first = false;
    }
    if (ret < 0) {
      emu_unlock (dev);
      return ret;
    }
    stream_advance (q, emu_now_ns ());
    b = first_in_state (q, SBUF_DONE);
    if (b && emu_fault_io_allow (f, 1, false) == 1) {
      b->state = SBUF_DEQUEUED;
      stream_drops_seen (q, b->drops_before);
      fill_v4l2_buffer (q, (uint32_t) (b - q->bufs), vb);
      emu_unlock (dev);
      emu_fault_io_done (f, 1);
      return 0;
    }
    if (emu_nonblock (f)) {
      emu_unlock (dev);
      return -EAGAIN;
    }
    /* stalled, or fast mode without queued buffers: only a wake helps */
    until = (b || emu_fault_on (dev, EMU_FAULT_FAST)) ? -1 : q->next_ns;
    q->waiting = true;
    emu_unlock (dev);
    w = emu_wait (f, until);
    emu_lock (dev);
    q = stream_queue (dev, false);
    if (q)
      q->waiting = false;
    emu_unlock (dev);
    if (w < 0)
      return w;
  }
}

long
stream_buffers_ioctl (struct emu_file *f, unsigned long req, void *arg)
{
  struct emu_device *dev = f->dev;
  long ret;

  if (req == VIDIOC_DQBUF)
    return do_dqbuf (f, arg);
  emu_lock (dev);
  switch (req) {
    case VIDIOC_REQBUFS:
      ret = do_reqbufs (f, arg);
      break;
    case VIDIOC_CREATE_BUFS:
      ret = do_create_bufs (f, arg);
      break;
    case VIDIOC_QUERYBUF:
      ret = do_querybuf (f, arg);
      break;
    case VIDIOC_QBUF:
      ret = do_qbuf (f, arg, false);
      break;
    case VIDIOC_PREPARE_BUF:
      ret = do_qbuf (f, arg, true);
      break;
    case VIDIOC_STREAMON:
      ret = do_streamon (f, arg);
      break;
    case VIDIOC_STREAMOFF:
      ret = do_streamoff (f, arg);
      break;
    case VIDIOC_EXPBUF:
      ret = do_expbuf (f, arg);
      break;
    default:
      ret = EMU_NEXT;
      break;
  }
  emu_unlock (dev);
  /* QBUF may feed a waiting DQBUF (fast mode), STREAMOFF/REQBUFS end it */
  if (ret == 0 && (req == VIDIOC_QBUF || req == VIDIOC_STREAMOFF ||
          req == VIDIOC_REQBUFS))
    emu_wake (dev);
  return ret;
}
