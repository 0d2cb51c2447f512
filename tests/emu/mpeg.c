/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mpeg.c - the I/O engine of an ivtv-like MPEG encoder node: read() only.
 * The first read() or POLLIN poll() starts the encoder (one owner per
 * device: a second reader gets EBUSY), bytes come paced at the bitrate
 * control in 8 KiB steps (a profile's read_unit: pvrusb2's 16 KiB
 * buffers) into the driver's finite queue (mpeg-queue.c: 4 MB
 * of 32 KiB buffers as ivtv; when it is full the newest full buffers are
 * dropped and counted in <rundir>/discarded-videoN), which read() drains
 * (no pacing and no queue limit with --fault fast; a blocking read()
 * waits until its buffer is full, as ivtv's does), from the looped
 * payload clip of the current input and standard (black with no signal;
 * a transport stream when the stream type control says TS).  A new input,
 * standard or signal takes effect at the next clip boundary; after an
 * input switch that clip starts with ~150 ms of silent audio (ivtv mutes
 * the encoder's audio while it switches).
 * ENCODER_CMD start/stop/pause/resume; a stop (at once, or with
 * STOP_AT_GOP_END at the end of the clip the encoder is making = a GOP
 * boundary, after the queue's backlog) ends the stream: read() returns 0
 * once and V4L2_EVENT_EOS is queued; a backlog left unread at close after
 * a stop is counted with the queue's drops.  A card without ENCODER_CMD
 * whose close frees what its driver holds (pvrusb2, close_counts_unread)
 * writes those bytes to <rundir>/unread-videoN (account_unread). */
#include "emu.h"
#include "mpeg-queue.h"
#include "payload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK 8192
#define RECHECK_NS 200000000LL  /* see changes made by other processes */

enum
{
  STOP_NONE,
  STOP_NOW,
  STOP_GOP_END
};

struct mpeg_shared
{
  uint32_t paused;
  uint32_t stop_req;
  uint64_t discarded;           /* bytes the full queue dropped, all opens */
};

struct mpeg_priv
{
  bool started, ended, paused_seen;
  int64_t t0;                   /* pacing origin */
  uint64_t base;                /* pos at t0 */
  uint64_t rate;                /* bytes per second */
  uint64_t pos;                 /* bytes delivered by this open */
  uint64_t stop_at;
  const struct emu_clip *clip;
  size_t off;
  uint64_t clock;               /* 90 kHz ticks the loops so far added */
  struct emu_cc cc;             /* TS counters the loops so far added */
  uint32_t clip_input;          /* input the current clip came from */
  bool black;                   /* it is the no-signal clip (its own rate) */
  struct emu_mpq q;             /* the driver's buffers (paced runs) */
  uint64_t episodes;            /* q.episodes already reported */
};

_Static_assert (sizeof (struct mpeg_shared) <= EMU_ENGINE_STATE,
    "engine state too big");

static struct mpeg_shared *
mshared (struct emu_device *dev)
{
  return (struct mpeg_shared *) dev->st->engine;
}

/* the encoder's state, not the counters, is cleared on start and stop */
static void
reset_shared (struct emu_device *dev)
{
  mshared (dev)->paused = 0;
  mshared (dev)->stop_req = 0;
}

/* the driver queue in bytes: fault queue-kb=N, else IVTV_EMU_QUEUE_KB
 * (ivtv-emu --queue-mb), else ivtv's default enc_mpg_buffers = 4 MB */
static uint64_t
queue_bytes (struct emu_device *dev)
{
  const char *env = getenv ("IVTV_EMU_QUEUE_KB");
  uint64_t kb = EMU_MPQ_DEFAULT_KB;

  if (emu_fault_on (dev, EMU_FAULT_QUEUE_KB))
    kb = (uint64_t) emu_fault_arg (dev, EMU_FAULT_QUEUE_KB);
  else if (env && *env && strtoull (env, NULL, 10) > 0)
    kb = strtoull (env, NULL, 10);
  return kb * 1024;
}

/* lock held: the full queue dropped `lost` bytes; count them where tests
 * can read them (<rundir>/discarded-videoN) and say so as ivtv does */
static void
account_loss (struct emu_file *f, uint64_t lost)
{
  struct mpeg_priv *p = f->priv;
  const char *rundir = getenv ("IVTV_EMU_RUNDIR");
  const char *node = strrchr (f->dev->path, '/');
  char path[1024], text[32];
  int fd, len;

  mshared (f->dev)->discarded += lost;
  if (p->q.episodes != p->episodes) {
    p->episodes = p->q.episodes;
    emu_debug ("%s: All MPEG stream buffers are full. Dropping data. "
        "Cause: the application is not reading fast enough.", f->dev->path);
  }
  emu_debug ("%s: dropped %llu bytes (%llu in all)", f->dev->path,
      (unsigned long long) lost,
      (unsigned long long) mshared (f->dev)->discarded);
  if (!rundir || !*rundir)
    return;
  snprintf (path, sizeof (path), "%s/discarded-%s", rundir,
      node ? node + 1 : f->dev->path);
  len = snprintf (text, sizeof (text), "%llu\n",
      (unsigned long long) mshared (f->dev)->discarded);
  fd = emu_real ()->open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
      0644);
  if (fd < 0)
    return;
  if (emu_real ()->write (fd, text, len) != len)
    emu_debug ("%s: cannot write %s", f->dev->path, path);
  emu_real ()->close (fd);
}

/* the step in which bytes become readable: the profile's read_unit (a
 * USB driver's buffer), else CHUNK */
static uint64_t
read_unit (const struct emu_device *dev)
{
  return dev->prof->read_unit ? dev->prof->read_unit : CHUNK;
}

/* When stream offset @o became (or becomes) readable: the end of the
 * pacing step holding it; 0 when it predates the pacing origin (a rate
 * change: unknown, the earliest). */
static int64_t
ready_ns (const struct emu_file *f, uint64_t o)
{
  const struct mpeg_priv *p = f->priv;
  uint64_t unit = read_unit (f->dev), steps;

  if (o < p->base || p->rate == 0)
    return 0;
  steps = (o - p->base) / unit + 1;
  return p->t0 + (int64_t) ((double) steps * unit * 1e9 / p->rate);
}

/* lock held: the reader closes its stream (no_encoder_cmd cards: the stop)
 * with @held bytes from stream offset @first unread; the driver frees them
 * (pvrusb2-v4l2.c pvr2_v4l2_release -> pvrusb2-ioread.c
 * pvr2_ioread_destroy).  <rundir>/unread-videoN gets "HELD READY_NS READ":
 * the bytes, the CLOCK_MONOTONIC ns at which the first of them became
 * readable (0: none held) and the bytes the reader took. */
static void
account_unread (struct emu_file *f, uint64_t held_bytes, uint64_t first)
{
  struct mpeg_priv *p = f->priv;
  const char *rundir = getenv ("IVTV_EMU_RUNDIR");
  const char *node = strrchr (f->dev->path, '/');
  int64_t at = held_bytes ? ready_ns (f, first) : 0;
  char path[1024], text[96];
  int fd, len;

  emu_debug ("%s: closed with %llu bytes unread (readable since %lld ns), "
      "%llu read", f->dev->path, (unsigned long long) held_bytes,
      (long long) at, (unsigned long long) p->pos);
  if (!rundir || !*rundir)
    return;
  snprintf (path, sizeof (path), "%s/unread-%s", rundir,
      node ? node + 1 : f->dev->path);
  len = snprintf (text, sizeof (text), "%llu %lld %llu\n",
      (unsigned long long) held_bytes, (long long) at,
      (unsigned long long) p->pos);
  fd = emu_real ()->open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
      0644);
  if (fd < 0)
    return;
  if (emu_real ()->write (fd, text, len) != len)
    emu_debug ("%s: cannot write %s", f->dev->path, path);
  emu_real ()->close (fd);
}

static int
mpeg_open (struct emu_file *f)
{
  struct mpeg_priv *p = calloc (1, sizeof (*p));

  if (!p)
    return -ENOMEM;
  p->stop_at = UINT64_MAX;
  f->priv = p;
  return 0;
}

static uint64_t held (const struct mpeg_priv *p);
static uint64_t available (struct emu_file *f, int64_t now, int64_t *next_ns,
    bool *eos);

static void
mpeg_close (struct emu_file *f)
{
  struct mpeg_priv *p = f->priv;

  int64_t next;
  bool eos;

  emu_lock (f->dev);
  /* closed after a stop, before the end of the stream: the backlog (what
   * the encoder made until now) is freed unread (ivtv_v4l2_close ->
   * ivtv_stop_capture, ivtv-fileops.c) and counted with the queue's drops */
  if (emu_owner_is (f) && p->started && !p->ended
      && mshared (f->dev)->stop_req != STOP_NONE
      && !emu_fault_on (f->dev, EMU_FAULT_FAST)) {
    available (f, emu_now_ns (), &next, &eos);
    if (!p->ended && held (p) > 0)
      account_loss (f, held (p));
  }
  /* a card without a stop (pvrusb2): the close is the stop, and what the
   * driver holds then is freed unread */
  if (emu_owner_is (f) && p->started && !p->ended
      && f->dev->prof->close_counts_unread
      && !emu_fault_on (f->dev, EMU_FAULT_FAST)) {
    available (f, emu_now_ns (), &next, &eos);
    if (!p->ended)
      account_unread (f, held (p), p->q.n && p->q.seg[0].start > p->pos ?
          p->q.seg[0].start : p->pos);
  }
  if (emu_owner_is (f)) {
    emu_owner_release (f);
    reset_shared (f->dev);
  }
  emu_unlock (f->dev);
  emu_mpq_free (&((struct mpeg_priv *) f->priv)->q);
  free (f->priv);
  f->priv = NULL;
}

static bool
mpeg_busy (struct emu_device *dev)
{
  /* ivtv_s_std(): EBUSY while any stream of the card captures */
  return emu_owner_any (dev) || emu_vbi_capturing (dev);
}

/* with the lock held: the stream is over; tell the subscribers */
static void
finish (struct emu_file *f)
{
  struct mpeg_priv *p = f->priv;

  p->ended = true;
  p->started = false;
  emu_owner_release (f);
  reset_shared (f->dev);
}

static void
send_eos (struct emu_device *dev)
{
  struct v4l2_event ev = {.type = V4L2_EVENT_EOS };

  emu_event_broadcast (dev, &ev, NULL);
}

/* the stream type control picks the clip kind (cx2341x_s_ctrl() hands it
 * to the firmware as CX2341X_ENC_SET_STREAM_TYPE, cx2341x.c); it cannot
 * change while encoding (EBUSY), so it holds from encoder start */
static int
clip_type (struct emu_device *dev)
{
  int32_t t = emu_ctrl_value (dev, V4L2_CID_MPEG_STREAM_TYPE);

  if (dev->prof->clip)
    return dev->prof->clip;     /* the card's one kind (hdpvr: H.264 TS) */
  return t >= 0 && t < EMU_CLIP_TYPES ? t : EMU_CLIP_PS;
}

/* the clip after the current one: from the input now selected; right
 * after an input switch with its audio muted, as ivtv does */
static const struct emu_clip *
next_clip (struct emu_file *f)
{
  struct emu_device *dev = f->dev;
  struct mpeg_priv *p = f->priv;
  const struct emu_input *in = emu_cur_input (dev);
  bool switched = p->clip && p->clip_input != dev->card->st->input;
  bool pal = !(dev->card->st->std & V4L2_STD_525_60);
  int content = emu_fault_no_signal (dev) ? EMU_CONTENT_BLACK : in->content;

  p->clip_input = dev->card->st->input;
  p->black = content == EMU_CONTENT_BLACK;
  if (switched)
    return emu_clip_get_muted (content, pal, clip_type (dev));
  return emu_clip_get (content, pal, clip_type (dev));
}

/* bytes per second of the stream: the bitrate control, except for the
 * constant-rate disc formats (MPEG-1, VCD, SVCD: their rates are the
 * standard's), which go at their clip's own rate, and black */
static uint64_t
stream_rate (struct emu_device *dev, bool black)
{
  int type = clip_type (dev);
  int32_t bitrate = emu_ctrl_value (dev, V4L2_CID_MPEG_VIDEO_BITRATE);

  if (type == EMU_CLIP_MPEG1 || type == EMU_CLIP_VCD || type == EMU_CLIP_SVCD) {
    const struct emu_clip *c = emu_clip_get (emu_cur_input (dev)->content,
        !(dev->card->st->std & V4L2_STD_525_60), type);

    if (c && c->dur90k)
      return (uint64_t) c->len * 90000 / c->dur90k;
  }
  if (bitrate < 1000000)
    bitrate = 1000000;
  /* no signal: the encoder (VBR) makes the few bytes black needs, in real
   * time, not the bitrate's worth of black: the black clip at its own rate
   * (the picture clips are made near the bitrate, mkpayload.sh) */
  if (black) {
    const struct emu_clip *c = emu_clip_get (EMU_CONTENT_BLACK,
        !(dev->card->st->std & V4L2_STD_525_60), type);

    if (c && c->dur90k && (uint64_t) c->len * 90000 / c->dur90k
        < (uint64_t) bitrate / 8)
      return (uint64_t) c->len * 90000 / c->dur90k;
  }
  return (uint64_t) bitrate / 8;
}

/* the encoder's rate follows the picture (a signal lost or found, seen
 * at the clip boundary where the stream changes): from now on, at the
 * new rate, from where the old one got to */
static void
follow_rate (struct emu_file *f, int64_t now)
{
  struct mpeg_priv *p = f->priv;
  uint64_t rate = stream_rate (f->dev, p->black);
  int64_t dt = now > p->t0 ? now - p->t0 : 0;

  if (rate == p->rate)
    return;
  p->base += (uint64_t) (dt * (double) p->rate / 1e9);
  p->t0 = now;
  p->rate = rate;
  emu_debug ("%s: the encoder's rate is now %llu B/s", f->dev->path,
      (unsigned long long) rate);
}

/* with the lock held */
static int
start (struct emu_file *f)
{
  struct mpeg_priv *p = f->priv;
  int r;

  if (p->started)
    return 0;
  if ((r = emu_owner_take (f)) < 0)
    return r;
  reset_shared (f->dev);
  if (!p->clip)                 /* the first clip will be black */
    p->black = emu_fault_no_signal (f->dev);
  p->rate = stream_rate (f->dev, p->black);
  p->t0 = emu_now_ns ();
  p->base = p->pos;
  p->started = true;
  p->ended = false;
  p->paused_seen = false;
  p->stop_at = UINT64_MAX;
  emu_mpq_reset (&p->q, p->pos, queue_bytes (f->dev));
  emu_debug ("%s: encoder started at %llu B/s", f->dev->path,
      (unsigned long long) p->rate);
  return 0;
}

/* The first clip boundary (a GOP end) at or after stream offset @enc: the
 * end of the clip being read, or of a later one of the same length */
static uint64_t
gop_end (const struct mpeg_priv *p, uint64_t enc)
{
  uint64_t end = p->pos + (p->clip ? p->clip->len - p->off : 0);

  if (!p->clip || p->clip->len == 0 || enc <= end)
    return end;
  return end + (enc - end + p->clip->len - 1) / p->clip->len * p->clip->len;
}

/* bytes the driver's queue still holds past the reader (lock held) */
static uint64_t
held (const struct mpeg_priv *p)
{
  uint64_t n = 0;
  size_t i;

  for (i = 0; i < p->q.n; i++)
    if (p->q.seg[i].end > p->pos)
      n += p->q.seg[i].end - (p->q.seg[i].start > p->pos ?
          p->q.seg[i].start : p->pos);
  return n;
}

/* Bytes that may be read now (lock held); *next_ns: when more come.
 * Returns false if the stream just ended (EOS must be sent). */
static uint64_t
available (struct emu_file *f, int64_t now, int64_t *next_ns, bool *eos)
{
  struct mpeg_priv *p = f->priv;
  struct mpeg_shared *ms = mshared (f->dev);
  uint64_t allowed, steps, lost;
  bool fast = emu_fault_on (f->dev, EMU_FAULT_FAST);

  *next_ns = -1;
  *eos = false;
  if (!p->started)
    return 0;
  if (ms->stop_req == STOP_NOW || p->pos >= p->stop_at) {
    finish (f);
    *eos = true;
    return 0;
  }
  if (ms->stop_req == STOP_GOP_END && p->stop_at == UINT64_MAX
      && (fast || ms->paused)) {
    p->stop_at = gop_end (p, p->pos);
    if (p->pos >= p->stop_at) {
      finish (f);
      *eos = true;
      return 0;
    }
  }
  if (ms->paused) {
    /* ENCODER_CMD PAUSE (ivtv-ioctl.c ivtv_encoder_cmd: CX2341X_ENC_PAUSE_
     * ENCODER 1,0): the encoder makes nothing, the stream stands still;
     * what the driver's queue holds is still read (ivtv_read() takes
     * q_full whatever the flag, ivtv-fileops.c) */
    p->paused_seen = true;
    if (fast)
      return 0;
    allowed = emu_mpq_head (&p->q);
    if (p->stop_at != UINT64_MAX && allowed > p->stop_at - p->pos)
      allowed = p->stop_at > p->pos ? p->stop_at - p->pos : 0;
    return allowed;
  }
  if (p->paused_seen) {
    /* the encoder goes on from where it paused; the queue keeps its data */
    p->paused_seen = false;
    p->t0 = now;
    p->base = fast ? p->pos : p->q.produced;
  }
  if (now < p->t0)
    now = p->t0;                /* started after the caller read the time */
  if (fast)
    allowed = UINT64_MAX;
  else {
    /* `now` may predate t0 when start() ran after the caller's clock
     * read: no time has passed then */
    int64_t dt;

    follow_rate (f, now);
    dt = now > p->t0 ? now - p->t0 : 0;
    steps = (uint64_t) (dt * (double) p->rate / 1e9) / read_unit (f->dev);
    allowed = p->base + steps * read_unit (f->dev);
    *next_ns = ready_ns (f, allowed);
  }
  if (allowed > p->stop_at)
    allowed = p->stop_at;
  if (fast)
    return allowed > p->pos ? allowed - p->pos : 0;
  /* what the encoder made since the last look goes through the queue */
  if ((lost = emu_mpq_fill (&p->q, allowed)) > 0)
    account_loss (f, lost);
  /* a stop at GOP end ends what the encoder is making now: the queue's
   * backlog is still the reader's (ivtv_get_buffer() hands out q_full
   * before it reports the end of the stream, ivtv-fileops.c) */
  if (ms->stop_req == STOP_GOP_END && p->stop_at == UINT64_MAX)
    p->stop_at = gop_end (p, p->q.produced > p->pos ? p->q.produced : p->pos);
  allowed = emu_mpq_head (&p->q);
  if (p->stop_at != UINT64_MAX && allowed > p->stop_at - p->pos)
    allowed = p->stop_at > p->pos ? p->stop_at - p->pos : 0;
  return allowed;
}

/* copies n bytes of the looped payload (lock held); buf NULL: skips them
 * (bytes the full queue dropped) */
static int
copy_out (struct emu_file *f, unsigned char *buf, uint64_t n)
{
  struct mpeg_priv *p = f->priv;

  while (n > 0) {
    size_t k;

    if (!p->clip || p->off >= p->clip->len) {
      if (p->clip) {
        p->clock += p->clip->dur90k;    /* the encoder's clock runs on */
        emu_cc_played (&p->cc, p->clip);        /* and its TS counters */
      }
      p->clip = next_clip (f);
      p->off = 0;
      if (!p->clip)
        return -EIO;
    }
    k = p->clip->len - p->off;
    if (k > n)
      k = n;
    if (buf) {
      memcpy (buf, p->clip->data + p->off, k);
      emu_clip_stamp_range (p->clip, p->off, k, p->clock, &p->cc, buf);
      buf += k;
    }
    p->off += k;
    p->pos += k;
    n -= k;
  }
  return 0;
}

/* read() as ivtv_read(): a blocking read fills the whole buffer (it waits
 * for the encoder's next buffers), returning less only at the end of the
 * stream, on a signal, or where a fault cuts the stream (read_partial, as
 * pvrusb2-v4l2.c pvr2_v4l2_read: it waits only while nothing is ready); a
 * non-blocking read returns what is there, or EAGAIN. */
static ssize_t
mpeg_read (struct emu_file *f, void *buf, size_t n)
{
  struct mpeg_priv *p = f->priv;
  unsigned char *out = buf;
  size_t done = 0;
  int r;

  if (n == 0)
    return 0;
  if ((r = emu_fault_io_begin (f)) < 0)
    return r;
  for (;;) {
    int64_t now = emu_now_ns (), next;
    uint64_t avail, allowed;
    bool eos;

    emu_lock (f->dev);
    if (p->ended) {
      /* end of stream reported once; a later read starts again */
      if (!done)
        p->ended = false;
      emu_unlock (f->dev);
      return (ssize_t) done;
    }
    if ((r = start (f)) < 0) {
      emu_unlock (f->dev);
      return done ? (ssize_t) done : r;
    }
    avail = available (f, now, &next, &eos);
    if (eos) {
      /* with data in hand, the 0 comes with the next read */
      p->ended = done > 0;
      emu_unlock (f->dev);
      send_eos (f->dev);
      return (ssize_t) done;
    }
    if (avail > n - done)
      avail = n - done;
    allowed = emu_fault_io_allow (f, avail, true);
    if (allowed > 0) {
      r = copy_out (f, out + done, allowed);
      if (r == 0 && !emu_fault_on (f->dev, EMU_FAULT_FAST)) {
        uint64_t gap = emu_mpq_consume (&p->q, allowed);

        if (gap > 0)
          r = copy_out (f, NULL, gap);  /* over what the queue dropped */
      }
      emu_unlock (f->dev);
      if (r < 0)
        return done ? (ssize_t) done : r;
      emu_fault_io_done (f, allowed);
      done += allowed;
      /* full, non-blocking, cut short by a fault, or a driver whose
       * read() returns what it has (read_partial): return now */
      if (done == n || emu_nonblock (f) || allowed < avail
          || f->dev->prof->read_partial)
        return (ssize_t) done;
      continue;
    }
    emu_unlock (f->dev);
    if (done && avail > 0)
      return (ssize_t) done;    /* a fault boundary (stall, eio, unplug) */
    if (emu_nonblock (f))
      return done ? (ssize_t) done : -EAGAIN;
    if (next < 0 || next > now + RECHECK_NS)
      next = now + RECHECK_NS;
    if ((r = emu_wait (f, next)) < 0)
      return done ? (ssize_t) done : r;
    if (emu_file_gone (f))
      return done ? (ssize_t) done : emu_gone_read (f);
  }
}

static short
mpeg_poll (struct emu_file *f, short events, int64_t *next_ns)
{
  struct mpeg_priv *p = f->priv;
  int64_t now = emu_now_ns (), next = -1;
  short rev = 0;
  uint64_t avail = 0;
  bool eos = false;

  emu_lock (f->dev);
  if (!p->started && !p->ended && (events & (POLLIN | POLLRDNORM))) {
    if (start (f) < 0) {
      emu_unlock (f->dev);
      return POLLERR;
    }
  }
  if (p->ended)
    rev = POLLIN | POLLRDNORM;
  else {
    avail = available (f, now, &next, &eos);
    if (eos)
      rev = POLLIN | POLLRDNORM;
    else if (avail > 0 && emu_fault_io_allow (f, avail, false) > 0)
      rev = POLLIN | POLLRDNORM;
  }
  if (eos)
    p->ended = true;
  emu_unlock (f->dev);
  if (eos)
    send_eos (f->dev);
  if (p->started && next < 0)
    next = now + RECHECK_NS;
  if (next >= 0)
    *next_ns = next;
  return rev & events;
}

static long
encoder_cmd (struct emu_file *f, struct v4l2_encoder_cmd *cmd, bool try)
{
  struct emu_device *dev = f->dev;
  struct mpeg_shared *ms = mshared (dev);
  bool ended = false;
  long r = 0;

  switch (cmd->cmd) {
    case V4L2_ENC_CMD_START:
      cmd->flags = 0;
      break;
    case V4L2_ENC_CMD_STOP:
      cmd->flags &= V4L2_ENC_CMD_STOP_AT_GOP_END;
      break;
    case V4L2_ENC_CMD_PAUSE:
    case V4L2_ENC_CMD_RESUME:
      cmd->flags = 0;
      break;
    default:
      return -EINVAL;
  }
  memset (cmd->raw.data, 0, sizeof (cmd->raw.data));
  if (try)
    return 0;
  if ((r = emu_prio_check (f)) < 0)
    return r;
  emu_lock (dev);
  switch (cmd->cmd) {
    case V4L2_ENC_CMD_START:{
      struct mpeg_priv *p = f->priv;

      p->ended = false;
      r = start (f);
      break;
    }
    case V4L2_ENC_CMD_STOP:
      if (emu_owner_any (dev))
        ms->stop_req = (cmd->flags & V4L2_ENC_CMD_STOP_AT_GOP_END) ?
            STOP_GOP_END : STOP_NOW;
      break;
    case V4L2_ENC_CMD_PAUSE:
    case V4L2_ENC_CMD_RESUME:
      /* ivtv-ioctl.c ivtv_encoder_cmd: EPERM unless capturing; a second
       * PAUSE or RESUME changes nothing (IVTV_F_I_ENC_PAUSED); paused, the
       * stream stops advancing (available()) and goes on from there */
      if (!emu_owner_any (dev))
        r = -EPERM;
      else {
        /* what the encoder made until the pause is in the driver's queue
         * (the engine counts it at each look: look now; from the reading
         * file only, whose stream it is) */
        if (cmd->cmd == V4L2_ENC_CMD_PAUSE && !ms->paused && emu_owner_is (f)) {
          int64_t next;

          available (f, emu_now_ns (), &next, &ended);
        }
        ms->paused = cmd->cmd == V4L2_ENC_CMD_PAUSE;
        emu_debug ("%s: encoder %s", dev->path, ms->paused ? "paused" :
            "resumed");
      }
      break;
  }
  emu_unlock (dev);
  if (ended)
    send_eos (dev);
  emu_wake (dev);
  return r;
}

static long
mpeg_ioctl (struct emu_file *f, unsigned long req, void *arg)
{
  if (f->dev->prof->no_encoder_cmd)
    return EMU_NEXT;            /* ENOTTY from the core */
  switch (req) {
    case VIDIOC_ENCODER_CMD:
      return encoder_cmd (f, arg, false);
    case VIDIOC_TRY_ENCODER_CMD:
      return encoder_cmd (f, arg, true);
    default:
      return EMU_NEXT;
  }
}

const struct emu_engine emu_engine_mpeg = {
  .name = "mpeg",
  .open = mpeg_open,
  .close = mpeg_close,
  .ioctl = mpeg_ioctl,
  .read = mpeg_read,
  .poll = mpeg_poll,
  .busy = mpeg_busy,
};
