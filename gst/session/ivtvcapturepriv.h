/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the capture session's inside, shared by its files:
 * ivtvcapture.c (new/free, start/stop, I/O choice, live changes),
 * ivtvcaptureopen.c (the opener: recipe, card, settings),
 * ivtvcaptureformat.c (the format state), ivtvcaptureread.c (the run:
 * path, reader thread, reconnect, drain) and ivtvcapturepause.c (across
 * PAUSED).  Nothing else includes it. */
#ifndef __IVTV_CAPTURE_PRIV_H__
#define __IVTV_CAPTURE_PRIV_H__

#include "ivtvcapture.h"
#include "ivtvpath.h"
#include "ivtvreaderthread.h"
#include "ivtvsignal.h"

G_BEGIN_DECLS

#ifndef HAVE_LIBV4L2
#define HAVE_LIBV4L2 0
#endif

typedef enum
{
  IVTV_CAPTURE_STOPPED,         /* not between start and stop */
  IVTV_CAPTURE_STARTED,         /* started, no path yet (first buffer) */
  IVTV_CAPTURE_RUNNING,         /* the path delivers */
  IVTV_CAPTURE_LOST,            /* the device went away: reconnecting */
  IVTV_CAPTURE_DRAINING         /* EOS asked: the encoder is stopping */
} IvtvCaptureState;

struct _IvtvCapture
{
  GstElement *element;          /* messages; not a reference; may be NULL;
                                 * set at new, read by any thread */

  /* lock — the device and everything said to it.  Rule: held by whoever
   * touches the fd, the probe, the settings, the format state or `state`
   * (any thread: the element's, the streaming thread, the reader thread
   * while it reconnects, the signal watch); never held while a path waits
   * for data, nor while taking state_lock's holders' waits (stop_reader
   * is called without it).  Order: lock before state_lock; the element's
   * negotiate_lock, when taken, before lock.  Unlocked reads: the reader
   * thread in ivtv_capture_reconnect reads dev.path (a run's only reopen is
   * its own, so it is the writer); settings.timeout is atomic (see
   * settings). */
  GMutex lock;

  /* the opener's (ivtvcaptureopen.c), lock: from open to close */
  IvtvDevice dev;
  IvtvProbe probe;
  IvtvNodeKind kind;            /* decided at open, kept over a reopen */
  gchar *recipe_path;
  gint recipe_fd;
  gchar *node;                  /* the node behind recipe_fd, or NULL */
  struct v4l2_capability identity;      /* QUERYCAP of the first open */
  gboolean via_libv4l2;         /* chosen at the first open */
  IvtvCaptureSettings settings; /* copied at start; but settings.timeout
                                 * changes live (ivtv_capture_set_timeout,
                                 * under state_lock): read and written
                                 * with atomics, capture_timeout() */
  gboolean prio_held;           /* the record priority (ivtvpriority) */
  gboolean encoder_on_app_fd;   /* our reads started the encoder through
                                 * the application's fd, whose open file
                                 * outlives our dup(): a running encoder
                                 * there is ours (ivtvpriority.h) */
  guint refused;                /* IvtvSettingMask a live change refused */
  gint enc_current[IVTV_ENC_N_NAMED];
  /* while the reader thread restores a lost device: the errors of the
   * settings and the format go here instead of the bus (the reader thread
   * posts nothing; a failed restore is tried again) */
  IvtvError **restore_error;

  /* the format state's (ivtvcaptureformat.c), lock: from one negotiation
   * to the next (cleared at stop) */
  GstCaps *caps;                /* applied, for a reconnect */
  gint mpeg_stream_type;        /* -1 unknown */
  gboolean mpeg;                /* the format is MPEG */
  gboolean need_sniff;          /* MPEG without stream-type control */
  guint frame_size;             /* raw: sizeimage, 0 for byte streams */
  guint hm12_width, hm12_height;        /* HM12 frames, detiled to NV12
                                         * (ivtvhm12.h); 0: not HM12 */
  gint fps_n, fps_d;
  IvtvVbiFormat vbi;            /* a VBI node's set-up (ivtvvbi.c) */

  /* the run's (ivtvcaptureread.c), lock: from start to stop */
  IvtvCaptureState state;       /* read unlocked by is_capturing (a hint) */
  gboolean encoder_started;     /* our reads started the encoder: set by
                                 * the reader thread (read_next) under lock,
                                 * its only writer while it runs */
  gboolean encoder_paused;      /* ENCODER_CMD PAUSE is in force
                                 * (ivtvcapturepause.c) */
  guint read_block;             /* the path's bytes per read(): set by
                                 * start_path, read by the reader thread */
  IvtvSignal signal;            /* its own lock (ivtvsignal.h) */

  /* state_lock — what unlock()/unlock_stop(), property reads and the
   * reader thread's start/stop touch from other threads.  Rule: held only
   * for the read or write of these fields (never across a wait, an ioctl
   * or a join); may be taken with lock held, never the other way. */
  GMutex state_lock;
  GstPoll *poll;                /* start .. stop */
  IvtvIoMode mode;              /* chosen at start, then the path's */
  IvtvPath *path;               /* NULL until the first buffer; used
                                 * unlocked by the reader thread that owns
                                 * it while it runs */
  guint extra_buffers;          /* (unlocked: the streaming thread's) */
  gboolean flushing;            /* unlock() .. unlock_stop() */
  IvtvReaderLimits limits;      /* the queue's bounds, stats-interval */
  /* the thread that reads the path into the queue (ivtvreaderthread.h);
   * started with the path, stopped before it.  Set (start_reading, the
   * streaming thread) and cleared (stop_reader) under state_lock, read
   * under it by other threads; ivtv_capture_next reads it unlocked: the
   * streaming thread sets it, and it is cleared only with that thread
   * stopped or in it (renegotiation) */
  IvtvReaderThread *reader;
};

/* The parts of the session, each of one lifetime; they call downwards
 * only: ivtvcapture.c -> run -> format state, opener; ivtvcapture.c ->
 * the pause; the format state, the opener and the pause call no other
 * part nor anything above (the element calls the pause directly). */

/* ---- the opener (ivtvcaptureopen.c), lock held ----
 * reopen: close and open with the recipe (@reprobe: ask what the card is
 * now); FALSE closed.  take_card: the record priority before any setting,
 * FALSE after the one busy error.  ensure_open: after the device went
 * away, FALSE after posting.  apply_settings: the settings of @what from
 * cap->settings, the one error rule (see ivtvcapture.h; @live: a change
 * while capturing).  check_lock: warn of a signal the card cannot lock
 * on. */
gboolean ivtv_capture_reopen (IvtvCapture * cap, gboolean reprobe,
    GError ** error);
gboolean ivtv_capture_take_card (IvtvCapture * cap);
gboolean ivtv_capture_ensure_open (IvtvCapture * cap);
gboolean ivtv_capture_apply_settings (IvtvCapture * cap, guint what,
    gboolean live);
void ivtv_capture_check_lock (IvtvCapture * cap);

/* ---- the pause (ivtvcapturepause.c), lock held ----
 * resume_encoder: ENCODER_CMD RESUME of an encoder we paused, before it
 * is stopped (and at PLAYING). */
void ivtv_capture_resume_encoder (IvtvCapture * cap);

/* ---- the format state (ivtvcaptureformat.c), lock held ----
 * apply_format: S_FMT (and S_PARM) for @caps; FALSE after posting (or
 * into cap->restore_error).  reprobe_formats: formats, sizes and
 * intervals of the input and standard now set; TRUE when the negotiated
 * caps no longer fit. */
gboolean ivtv_capture_apply_format (IvtvCapture * cap, GstCaps * caps);
gboolean ivtv_capture_reprobe_formats (IvtvCapture * cap);

/* ---- the run (ivtvcaptureread.c) ----
 * lock held: start_path (FALSE with *@error), stop_path.
 * lock not held: stop_reader (end the reader thread, its queued buffers
 * dropped); reconnect (on the reader thread: GST_FLOW_ERROR with
 * *@error); set_io_mode (state_lock inside). */
gboolean ivtv_capture_start_path (IvtvCapture * cap, IvtvError ** error);
void ivtv_capture_stop_path (IvtvCapture * cap);
void ivtv_capture_stop_reader (IvtvCapture * cap);
GstFlowReturn ivtv_capture_reconnect (IvtvCapture * cap, IvtvError ** error);
void ivtv_capture_set_io_mode (IvtvCapture * cap, IvtvIoMode mode);

/* settings.timeout, which a property changes while the reader thread
 * reads it (ivtv_capture_set_timeout) */
static inline guint
capture_timeout (IvtvCapture * cap)
{
  return (guint) g_atomic_int_get ((gint *) & cap->settings.timeout);
}

G_END_DECLS

#endif /* __IVTV_CAPTURE_PRIV_H__ */
