/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* emu.h - internal API of the V4L2 device emulator (libivtvemu.so).
 *
 * The emulator is an LD_PRELOAD library.  interpose.c catches the libc
 * entry points a V4L2 client uses and hands calls on emulated fds to the
 * device core (core.c), which answers the ioctls every device has from the
 * declarative profile (struct emu_profile) and passes the rest to the
 * profile's I/O engine (struct emu_engine: mpeg.c, sink.c, and the
 * streaming engine).  Device state that a real card keeps (input, standard,
 * frequency, control values, who is encoding) lives in a small file in the
 * run directory made by `ivtv-emu`, mapped MAP_SHARED by every process of the
 * run (state.c).  Faults come from the environment (faults.c).
 *
 * HOW TO ADD A PROFILE (e.g. `webcam`, `tv-streaming`)
 *  1. Write the profile as a `const struct emu_profile` in its own file,
 *     e.g. tests/emu/profile-webcam.c:
 *        const struct emu_profile emu_profile_webcam = {
 *          .name = "webcam", .summary = "...", .driver = "uvcvideo", ...
 *          .caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING,
 *          .inputs = { { .name = "Camera 1", .type = V4L2_INPUT_TYPE_CAMERA } },
 *          .formats = { { .pixelformat = V4L2_PIX_FMT_YUYV, ... .sizes = {...} } },
 *          .engine = &emu_engine_stream,
 *        };
 *     Arrays are terminated by their first zero entry (name == NULL, id == 0,
 *     pixelformat == 0, width == 0, numerator == 0).
 *  2. Declare it below in the "profile list" block (extern line) and add it
 *     to emu_profiles[] in profiles.c (keep --list order: MPEG cards first).
 *  3. Add the .c file to `emu_sources` in tests/emu/meson.build.
 *  The streaming engine (stream.c) implements struct emu_engine.
 *  The core already answers QUERYCAP, G/S_PRIORITY, ENUM/G/S_INPUT, ENUMAUDIO,
 *  G/S_AUDIO, ENUMSTD/G/S_STD/QUERYSTD, G/S_TUNER, G/S_FREQUENCY, all control
 *  ioctls, ENUM_FMT, ENUM_FRAMESIZES/FRAMEINTERVALS, G/TRY/S_FMT, G/S_PARM,
 *  LOG_STATUS, (UN)SUBSCRIBE_EVENT/DQEVENT; an engine may still answer any of
 *  them first (return EMU_NEXT to let the core answer).
 *
 * STREAMING BUFFERS are expected to be one memfd per buffer
 * (memfd_create + ftruncate to sizeimage), so VIDIOC_EXPBUF returns
 * fcntl(memfd, F_DUPFD_CLOEXEC) and the engine's mmap hook maps the memfd
 * with emu_real()->mmap; the buffer's m.offset is index * page-aligned size
 * (any unique page-aligned cookie works).  USERPTR buffers are plain user
 * memory the engine writes into at DQBUF time.  munmap of such a mapping is
 * passed to the real munmap; the engine's munmap hook is told first.
 *
 * CONVENTIONS: every hook returns >= 0 on success or -errno; interpose.c
 * turns -errno into errno + -1.  EMU_NEXT means "not mine, ask the next
 * layer" (engine -> core -> -ENOTTY).  Hooks are called WITHOUT the device
 * lock held; take emu_lock()/emu_unlock() around reads and writes of
 * dev->st.  Never block with the lock held: wait with emu_wait().
 */
#ifndef IVTV_EMU_H
#define IVTV_EMU_H

#include <errno.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define EMU_MAX_INPUTS 8
#define EMU_MAX_AUDIO 4
#define EMU_MAX_CTRLS 40
#define EMU_MAX_MENU 16
#define EMU_MAX_FORMATS 6
#define EMU_MAX_SIZES 8
#define EMU_MAX_INTERVALS 6
/* nodes of a run: 8 cards with their VBI nodes (ivtv-bench section 5) */
#define EMU_MAX_DEVICES 16
#define EMU_MAX_PRIO_HOLDERS 64 /* open handles of a card whose priority counts */
#define EMU_MAX_SUBS 64
#define EMU_MAX_EVENTS 32
#define EMU_MAX_XEVENTS 16     /* events other processes have not seen yet */
#define EMU_ENGINE_STATE 256    /* bytes of shared per-device engine state */

/* Return value meaning "not handled here, let the next layer answer". */
#define EMU_NEXT (-515)

/* The standards the emulator knows (ENUMSTD lists these entries) */
#define EMU_STD_525 (V4L2_STD_NTSC_M | V4L2_STD_NTSC_M_JP | V4L2_STD_PAL_M)
#define EMU_STD_625 (V4L2_STD_PAL_BG | V4L2_STD_PAL_DK | V4L2_STD_PAL_I | \
    V4L2_STD_PAL_N | V4L2_STD_PAL_Nc | V4L2_STD_SECAM_DK | V4L2_STD_SECAM_L)
#define EMU_STD_SDTV (EMU_STD_525 | EMU_STD_625)

/* ------------------------------------------------------------------ */
/* Declarative profile description                                     */

struct emu_input
{
  const char *name;             /* NULL ends the list */
  uint32_t type;                /* V4L2_INPUT_TYPE_TUNER / _CAMERA */
  v4l2_std_id std;              /* stds this input takes; 0: no std */
  uint32_t audioset;            /* bitmask of emu_profile.audios indexes */
  uint32_t tuner;               /* tuner index when type == TUNER */
  uint32_t capabilities;        /* V4L2_IN_CAP_STD, ... */
  int content;                  /* payload index: which clip/pattern */
};

struct emu_audio
{
  const char *name;             /* NULL ends the list */
  uint32_t capability;          /* V4L2_AUDCAP_STEREO, ... */
};

struct emu_tuner
{
  const char *name;             /* NULL: the device has no tuner */
  uint32_t type;                /* V4L2_TUNER_ANALOG_TV */
  uint32_t capability;          /* V4L2_TUNER_CAP_NORM | _STEREO ... */
  uint32_t rangelow, rangehigh; /* in 62.5 kHz units */
  uint32_t rxsubchans;
  uint32_t def_frequency;
};

struct emu_ctrl
{
  uint32_t id;                  /* 0 ends the list */
  uint32_t type;                /* V4L2_CTRL_TYPE_* (INTEGER, BOOLEAN, MENU,
                                 * BUTTON, CTRL_CLASS) */
  const char *name;
  int32_t min, max, step, def;
  uint32_t flags;               /* V4L2_CTRL_FLAG_* */
  const char *menu[EMU_MAX_MENU];       /* MENU: names by index, NULL =
                                         * index not supported */
  bool busy_while_streaming;    /* S_CTRL gives EBUSY while encoding */
};

struct emu_frmsize
{
  uint32_t width, height;       /* 0 ends the list */
  struct v4l2_fract intervals[EMU_MAX_INTERVALS];       /* frame periods,
                                                         * numerator 0 ends */
};

struct emu_format
{
  uint32_t pixelformat;         /* 0 ends the list */
  const char *description;
  uint32_t flags;               /* V4L2_FMT_FLAG_COMPRESSED ... */
  bool size_follows_std;        /* MPEG encoder: 720x480 / 720x576 by std */
  uint32_t sizeimage;           /* compressed formats: bytes per read
                                 * chunk; 0: computed from size */
  struct emu_frmsize sizes[EMU_MAX_SIZES];
};

struct emu_engine;
struct emu_vbi_desc;            /* vbi.c: the card's VBI node */

struct emu_profile
{
  const char *name;             /* for --profile */
  const char *summary;          /* one line for --list */
  const char *driver, *card, *bus_info;
  uint32_t caps;                /* device_caps (V4L2_CAP_*) */
  uint32_t buf_type;            /* V4L2_BUF_TYPE_VIDEO_CAPTURE or _OUTPUT */
  struct emu_input inputs[EMU_MAX_INPUTS];      /* outputs for an OUTPUT
                                                 * device */
  struct emu_audio audios[EMU_MAX_AUDIO];
  v4l2_std_id def_std;          /* 0: no standards */
  struct emu_tuner tuner;
  struct emu_ctrl ctrls[EMU_MAX_CTRLS];
  struct emu_format formats[EMU_MAX_FORMATS];
  bool std_inputs_follow_std;   /* vivid: an input that takes a standard
                                 * captures at the standard's size and rate
                                 * (no size enumeration), the others (the
                                 * webcam) at the formats' sizes */
  /* streaming engine: a frame dropped for want of a queued buffer takes no
   * sequence number (stk1160-video.c stk1160_buffer_done, usbtv-video.c
   * usbtv_image_chunk: `sequence++` only on a delivered frame), so a drop
   * leaves no gap; false: vivid's way, every frame counted */
  bool seq_counts_delivered;
  uint32_t events;              /* bit (1 << V4L2_EVENT_x) for each event
                                 * type SUBSCRIBE_EVENT accepts (CTRL is
                                 * always accepted when there are ctrls) */
  int clip;                     /* MPEG engine: the one clip kind of a
                                 * card whose stream type control does
                                 * not choose (payload.h EMU_CLIP_H264);
                                 * 0: the control chooses */
  bool no_encoder_cmd;          /* MPEG engine: no VIDIOC_(TRY_)ENCODER_CMD
                                 * (ENOTTY): pvrusb2 */
  uint32_t read_unit;           /* MPEG engine: bytes become readable in
                                 * units of this many (a USB driver's
                                 * buffer: its bulk URB completes whole);
                                 * 0: 8 KiB steps */
  bool read_partial;            /* MPEG engine: a blocking read() returns
                                 * what is ready once there is any, not a
                                 * full buffer (pvrusb2) */
  bool close_counts_unread;     /* MPEG engine: the reader's close frees
                                 * what the driver holds; counted in
                                 * <rundir>/unread-videoN (mpeg.c) */
  const struct emu_engine *engine;
  /* the card's VBI node, /dev/vbiN beside /dev/videoN, sharing this node's
   * state (vbi.c); NULL: none */
  const struct emu_vbi_desc *vbi;
};

/* ------------------------------------------------------------------ */
/* Shared per-device state (mapped from <rundir>/<node>.state)          */

/* an event sent by one process, for the subscribers of the others */
struct emu_xevent
{
  int32_t pid;                  /* sender (its own files got it directly) */
  uint32_t pad;
  struct v4l2_event ev;
};

struct emu_shared
{
  uint32_t magic, size;
  uint32_t input, audio_input;
  uint64_t std;                 /* current standard (v4l2_std_id) */
  uint64_t detected_std;        /* what QUERYSTD finds on the input */
  uint32_t frequency;
  uint32_t audmode;
  int32_t ctrl[EMU_MAX_CTRLS];  /* by index in profile->ctrls */
  /* the open handles' priorities, by handle (prio.c): a dead process's
   * handles are dropped as the kernel's release would (v4l2_prio_close) */
  struct emu_prio_holder
  {
    int32_t pid;                /* 0: a free entry */
    uint32_t prio;              /* V4L2_PRIORITY_* */
    uint64_t id;                /* emu_file.id */
  } prio_h[EMU_MAX_PRIO_HOLDERS];
  /* format (streaming engines; MPEG size follows std) */
  uint32_t pixelformat, width, height, field;
  struct v4l2_fract interval;
  /* who owns the encoder / streaming queue: 0 = nobody */
  int32_t owner_pid;
  uint64_t owner_id;            /* emu_file.id of the owner */
  int64_t created_ns;           /* CLOCK_MONOTONIC at state creation */
  uint32_t unplugged;           /* fault unplug-after fired: ENODEV */
  int64_t unplugged_ns;         /* when (for unplug-for) */
  uint32_t plugins;             /* times plugged in again (unplug-for) */
  uint32_t gen;                 /* bumped by every state change */
  uint32_t xev_seq;             /* events ever put in xev[] */
  struct emu_xevent xev[EMU_MAX_XEVENTS];       /* ring, by xev_seq */
  unsigned char engine[EMU_ENGINE_STATE];       /* engine's own shared data */
  /* hdpvr (profile-hdpvr.c): where the last read stopped inside the
   * driver's current 8 KiB USB buffer, and the bytes a new stream still
   * skips because that half-read buffer is read on (hdpvr_read buf->pos) */
  uint32_t usb_pos, usb_skip;
  /* the card's VBI stream (vbi.c): its reader and the card-wide format */
  struct
  {
    int32_t owner_pid;
    uint32_t raw;               /* 1: raw VBI capture, 0: sliced */
    uint64_t owner_id;
    uint16_t lines[2][24];      /* sliced service_lines */
  } vbi;
};

/* Per-process view of one emulated device node */
struct emu_faults;

struct emu_device
{
  const struct emu_profile *prof;
  char path[64];                /* "/dev/video0" */
  char state_of[64];            /* "": own state; "video0": that node's */
  int minor;                    /* N of /dev/videoN */
  struct emu_shared *st;        /* shared state (MAP_SHARED) */
  int state_fd;                 /* for flock() */
  struct emu_faults *faults;
  pthread_mutex_t mutex;        /* recursive; with flock = emu_lock() */
  /* the node whose state holds the card-wide settings (input, audio input,
   * standard, tuner, priority): itself, or for the YUV and PCM nodes of a
   * card in the run its MPEG node, as ivtv keeps them in the one `itv` of
   * the card (ivtv-ioctl.c ivtv_s_input/ivtv_s_std/..., cx18 alike);
   * emu_lock() takes its lock too */
  struct emu_device *card;
  struct emu_file *files;       /* open file objects in this process */
};

/* ------------------------------------------------------------------ */
/* The open file object: one per open(), shared by dup()ed fds          */

struct emu_sub
{
  uint32_t type, id, flags;
};

struct emu_file
{
  int fd;                       /* the real fd the app holds (eventfd) */
  int wake_fd;                  /* internal eventfd: emu_wake() signals */
  int refs;                     /* fds (dup) pointing at this object */
  struct emu_device *dev;
  uint64_t id;                  /* unique in the run: pid << 24 | counter */
  uint32_t prio;                /* V4L2_PRIORITY_* of this handle */
  /* events */
  struct emu_sub subs[EMU_MAX_SUBS];
  struct v4l2_event events[EMU_MAX_EVENTS];
  unsigned ev_head, ev_count;
  uint32_t ev_sequence;
  uint32_t xev_seen;            /* shared events looked at (xev_seq) */
  /* fault accounting (units: bytes for read(), frames for DQBUF) */
  uint64_t delivered;
  uint64_t io_calls;
  bool eio_done;
  bool gone_read;               /* unplug-eio: a read() since the unplug got EIO */
  bool closed;                  /* last fd closed: waiters must return */
  uint32_t plugged_in;          /* st->plugins at open */
  int inuse;                    /* calls in progress (interpose.c) */
  int accmode;                  /* O_RDONLY / O_WRONLY / O_RDWR */
  void *priv;                   /* engine's per-open data */
  struct emu_file *next;        /* dev->files list */
};

/* ------------------------------------------------------------------ */
/* I/O engine hooks                                                    */

struct emu_engine
{
  const char *name;
  /* new open file object; allocate f->priv.  -errno refuses the open. */
  int (*open) (struct emu_file * f);
  /* last fd of the open file object closed; free f->priv */
  void (*close) (struct emu_file * f);
  /* any ioctl; EMU_NEXT lets the core answer */
  long (*ioctl) (struct emu_file * f, unsigned long req, void *arg);
  /* read(2)/write(2); may block via emu_wait(); NULL: -EINVAL */
    ssize_t (*read) (struct emu_file * f, void *buf, size_t n);
    ssize_t (*write) (struct emu_file * f, const void *buf, size_t n);
  /* readiness for poll/select: returns the revents subset of `events`
   * (plus POLLERR/POLLHUP/POLLPRI as appropriate) that hold now.  Sets
   * *next_ns to the CLOCK_MONOTONIC time when readiness may change by
   * itself (pacing), or leaves it at -1 (only emu_wake() changes it).
   * `events` containing POLLIN may start the encoder (like ivtv). */
  short (*poll) (struct emu_file * f, short events, int64_t * next_ns);
  /* mmap on the device fd: return the address or -errno (cast) */
  void *(*mmap) (struct emu_file * f, void *addr, size_t len, int prot,
      int flags, off_t off);
  /* a mapping made by ->mmap is being unmapped (before the real munmap) */
  void (*munmap) (struct emu_file * f, void *addr, size_t len);
  /* true while this device is busy (encoding/streaming): S_STD, S_FMT and
   * busy controls give EBUSY.  Called with the lock held. */
    bool (*busy) (struct emu_device * dev);
  /* plugged in again (unplug-for): a new device, whose state owes nothing
   * to the files opened before (they stay gone).  Lock held; may be NULL. */
  void (*replug) (struct emu_device * dev);
};

/* The device this file was opened on is gone: unplugged now, or plugged in
 * again since (a new device; like the kernel's, an old descriptor stays
 * dead).  Every call on it says ENODEV. */
static inline bool
emu_file_gone (const struct emu_file *f)
{
  return f->dev->st->unplugged || f->plugged_in != f->dev->st->plugins;
}

/* ------------------------------------------------------------------ */
/* Profile list (profiles.c) and engines                               */

extern const struct emu_engine emu_engine_mpeg; /* mpeg.c: read() encoder */
extern const struct emu_engine emu_engine_sink; /* sink.c: write()-only output */
extern const struct emu_engine emu_engine_stream;       /* stream.c */
extern const struct emu_engine emu_engine_vbi;  /* vbi.c: VBI capture */

/* vbi.c: the VBI profiles ivtv and tv-streaming cards point at */
extern const struct emu_vbi_desc emu_vbi_ivtv_saa7115;
extern const struct emu_vbi_desc emu_vbi_ivtv_cx25840;
extern const struct emu_vbi_desc emu_vbi_raw_saa7134;
/* the VBI node /dev/vbiN of @video (a profile with .vbi) in @out: 0 or
 * -errno */
int emu_vbi_node_init (struct emu_device *video, struct emu_device *out,
    const char *faults);
/* true while the card's VBI stream is captured (S_STD is EBUSY) */
bool emu_vbi_capturing (struct emu_device *dev);
extern const struct emu_engine emu_engine_pcm;  /* pcm.c: PCM node, read() */
extern const struct emu_engine emu_engine_hdpvr;        /* profile-hdpvr.c */

extern const struct emu_profile emu_profile_pvr250;
extern const struct emu_profile emu_profile_pvr150;
extern const struct emu_profile emu_profile_notcapture;
extern const struct emu_profile emu_profile_webcam;
extern const struct emu_profile emu_profile_tv_streaming;
extern const struct emu_profile emu_profile_tv_webcam;

/* emu_n_profiles entries; an entry is NULL when that profile's file is not
 * built (weak reference): skip it */
extern const struct emu_profile *const emu_profiles[];
extern const int emu_n_profiles;
const struct emu_profile *emu_profile_find (const char *name);

/* ------------------------------------------------------------------ */
/* Faults (faults.c).  Parsed once from IVTV_EMU_FAULTS, a comma list of
 * SPEC[@/dev/videoN]; without @ a fault applies to /dev/video0.          */

enum emu_fault_id
{
  EMU_FAULT_FAST,               /* fast: no pacing */
  EMU_FAULT_UNPLUG_AFTER,       /* unplug-after=N units: then ENODEV */
  EMU_FAULT_EIO_AT,             /* eio-at=N: one EIO once N units are out */
  EMU_FAULT_EINTR_EVERY,        /* eintr-every=N: every Nth I/O call EINTR */
  EMU_FAULT_EAGAIN_EVERY,       /* eagain-every=N: every Nth I/O call EAGAIN */
  EMU_FAULT_SHORT_READS,        /* short-reads: read() returns few bytes */
  EMU_FAULT_STALL_AFTER,        /* stall-after=N: nothing after N units */
  EMU_FAULT_NO_SIGNAL,          /* no-signal[=S]: no signal after S s */
  EMU_FAULT_STD_CHANGE_AFTER,   /* std-change-after=N: signal changes std */
  EMU_FAULT_REQBUFS_FAILS,      /* reqbufs-fails: REQBUFS count>0 -> ENOMEM */
  EMU_FAULT_STREAMON_FAILS,     /* streamon-fails: STREAMON -> EIO */
  EMU_FAULT_EBUSY_OPEN,         /* ebusy-open: open() -> EBUSY */
  EMU_FAULT_EACCES_OPEN,        /* eacces-open: open() -> EACCES */
  EMU_FAULT_UNPLUG_FOR,         /* unplug-for=S: the node is back S s after an unplug */
  EMU_FAULT_DMA,                /* dma: streaming frames are not redrawn (a DMA engine's CPU cost) */
  EMU_FAULT_QUEUE_KB,           /* queue-kb=N: MPEG driver queue of N KiB (not a fault: a setting) */
  EMU_FAULT_MARKS,              /* marks=MS: flash frame / beep every MS ms (marks.c) */
  EMU_FAULT_CLOCK_PPM,          /* clock-ppm=N: the PCM node's crystal N ppm fast (may be < 0) */
  EMU_FAULT_SKIP_EVERY,         /* skip-every=N: the driver drops every Nth frame (a sequence gap) */
  EMU_FAULT_SKIP_KEEPS_SEQ,     /* skip-keeps-seq: a dropped frame does not advance the sequence (usbtv, stk1160) */
  EMU_FAULT_UNPLUG_EIO,         /* unplug-eio: an unplug as pvrusb2 shows it to a handle held open */
  EMU_FAULT_FRAME_RATE_PCT,     /* frame-rate-pct=P: raw video frames at the nominal rate x (1 + P/100) (stream-rate.c) */
  EMU_FAULT_SKIP_RUN,           /* skip-run=K: skip-every drops the last K frames of every N (a burst) */
  EMU_FAULT_COUNT
};

struct emu_faults
{
  bool on[EMU_FAULT_COUNT];
  int64_t arg[EMU_FAULT_COUNT];
};

/* Parses IVTV_EMU_FAULTS for device `path`; -EINVAL with a message on
 * stderr for an unknown spec. */
int emu_faults_parse (const char *env, const char *path, struct emu_faults *out);
const char *emu_fault_name (enum emu_fault_id id);
bool emu_fault_on (const struct emu_device *dev, enum emu_fault_id id);

/* An unplug as pvrusb2 shows it (the unplug-eio fault): its node stays
 * while a handle is open (pvrusb2-v4l2.c pvr2_v4l2_internal_check), and
 * pvrusb2-hdw.c pvr2_hdw_disconnect -> pvr2_hdw_render_useless clears
 * flag_ok.  Since Linux 4.19 its ioctls are video_ioctl2's and answer
 * from the driver's state as before (QUERYCAP too); read() and poll() are
 * below; a new open() gives EIO (pvr2_v4l2_open: !pvr2_hdw_dev_ok). */
static inline bool
emu_gone_like_pvrusb2 (const struct emu_device *dev)
{
  return emu_fault_on (dev, EMU_FAULT_UNPLUG_EIO);
}

/* read() of a gone file: -ENODEV, or with unplug-eio -EIO: the URBs that
 * died with the unplug are "ready" buffers with an error status, and
 * read() stops the stream on the first one (pvrusb2-ioread.c
 * pvr2_ioread_get_buffer -> pvr2_ioread_stop; pvr2_ioread_read: -EIO);
 * every read after that is -EIO too (pvr2_ioread_avail: not enabled). */
static inline int
emu_gone_read (struct emu_file *f)
{
  f->gone_read = true;
  return emu_gone_like_pvrusb2 (f->dev) ? -EIO : -ENODEV;
}

/* poll() of a gone file: POLLERR | POLLHUP, or with unplug-eio readable
 * until a read() got its EIO (the dead URBs are ready buffers), then never
 * ready again (pvr2_v4l2_poll: POLLIN only while pvr2_ioread_avail >= 0,
 * and never POLLERR). */
static inline short
emu_gone_revents (const struct emu_file *f, short events)
{
  if (!emu_gone_like_pvrusb2 (f->dev))
    return POLLERR | POLLHUP | (events & POLLPRI);
  return f->gone_read ? 0 : (events & (POLLIN | POLLRDNORM));
}
int64_t emu_fault_arg (const struct emu_device *dev, enum emu_fault_id id);

/* Called by an engine at the start of each read()/DQBUF: counts the call
 * and returns -ENODEV (unplugged), -EINTR, -EAGAIN or -EIO to inject, or 0. */
int emu_fault_io_begin (struct emu_file *f);
/* Clamps `want` units by stall/unplug/eio boundaries (and short-reads for
 * bytes when `bytes` is true); may return 0 (stalled: deliver nothing). */
uint64_t emu_fault_io_allow (struct emu_file *f, uint64_t want, bool bytes);
/* Accounts `n` units delivered; may fire unplug / std change. */
void emu_fault_io_done (struct emu_file *f, uint64_t n);
/* true once stall-after is reached for this open */
bool emu_fault_stalled (struct emu_file *f);
/* true when no-signal is in force now (input shows NO_SIGNAL, black) */
bool emu_fault_no_signal (struct emu_device *dev);

/* ------------------------------------------------------------------ */
/* Core (core.c), state (state.c), events, helpers                     */

long emu_core_ioctl (struct emu_file *f, unsigned long req, void *arg);
long emu_ctrls_ioctl (struct emu_file *f, unsigned long req, void *arg);
long emu_events_ioctl (struct emu_file *f, unsigned long req, void *arg);
/* current value of control `id` (0 if the profile has none) */
int32_t emu_ctrl_value (struct emu_device *dev, uint32_t id);
/* fills a V4L2_EVENT_CTRL event with the control's state; false if no such
 * control */
bool emu_ctrl_event (struct emu_file *f, uint32_t id, struct v4l2_event *ev);
/* prio.c: -EBUSY when another handle holds a higher priority (for S_*
 * ioctls); a new handle, a handle's new priority, a handle gone; the
 * highest priority held (V4L2_PRIORITY_UNSET: none); a card made anew */
long emu_prio_check (struct emu_file *f);
/* interpose.c: another node of dev's card is capturing */
bool emu_card_busy (struct emu_device *dev);
void emu_prio_open (struct emu_file *f);
void emu_prio_set (struct emu_file *f, uint32_t prio);
void emu_prio_close (struct emu_file *f);
uint32_t emu_prio_max (struct emu_device *dev);
void emu_prio_reset (struct emu_device *dev);
/* the profile's input (or output) that is current */
const struct emu_input *emu_cur_input (struct emu_device *dev);
/* Do size and frame rate follow the standard now (MPEG and SDTV cards;
 * vivid-like cards on an input that takes a standard)? */
bool emu_size_follows_std (struct emu_device *dev);
/* current format as the core sees it (MPEG size follows the std) */
void emu_core_get_format (struct emu_device *dev, struct v4l2_format *fmt);

/* state.c: attach (create on first use in the run) the shared state */
int emu_state_attach (struct emu_device *dev);
void emu_lock (struct emu_device *dev);
void emu_unlock (struct emu_device *dev);
/* owner of the encoder/stream; take returns -EBUSY if another owns it.
 * Call with the lock held. */
int emu_owner_take (struct emu_file *f);
void emu_owner_release (struct emu_file *f);
bool emu_owner_is (struct emu_file *f);
bool emu_owner_any (struct emu_device *dev);

/* events: queue to one file, or to every file of the device in this
 * process that subscribed (except `skip`, may be NULL) */
void emu_event_queue (struct emu_file *f, const struct v4l2_event *ev);
void emu_event_broadcast (struct emu_device *dev, const struct v4l2_event *ev,
    struct emu_file *skip);
bool emu_event_pending (struct emu_file *f);
/* true if the file has subscriptions: poll must look again now and then
 * for events of other processes (they cannot wake this one) */
bool emu_event_subscribed (struct emu_file *f);
#define EMU_XEVENT_RECHECK_NS 20000000LL

/* time and waiting */
int64_t emu_now_ns (void);
/* wake every waiter (poll/read) on this device in this process */
void emu_wake (struct emu_device *dev);
/* block until emu_wake(), `until_ns` (CLOCK_MONOTONIC; -1 = forever) or a
 * signal: 0, or -EINTR.  Call without the lock. */
int emu_wait (struct emu_file *f, int64_t until_ns);
bool emu_nonblock (struct emu_file *f);

/* the real libc functions (dlsym RTLD_NEXT), for engines */
struct emu_real
{
  int (*open) (const char *, int, ...);
  int (*close) (int);
  ssize_t (*read) (int, void *, size_t);
  ssize_t (*write) (int, const void *, size_t);
  int (*poll) (struct pollfd *, nfds_t, int);
  void *(*mmap) (void *, size_t, int, int, int, off_t);
  int (*munmap) (void *, size_t);
  int (*fcntl) (int, int, ...);
};
const struct emu_real *emu_real (void);

/* payload.c: clip files of the MPEG engine */
const char *emu_payload_dir (void);

/* log to stderr when IVTV_EMU_DEBUG is set */
void emu_debug (const char *fmt, ...) __attribute__((format (printf, 1, 2)));

#endif /* IVTV_EMU_H */
