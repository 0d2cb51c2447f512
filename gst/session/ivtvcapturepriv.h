/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the capture session's inside, shared by its files:
 * ivtvcapture.c (open/reopen, start/stop, path, reconnect),
 * ivtvcaptureread.c (the reader thread, next buffer, drain) and
 * ivtvcapturesetup.c (settings and format).  Nothing else includes it. */
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
  GstElement *element;          /* messages; not a reference; may be NULL */

  /* lock: the device, the probe, the format, the state; never held while
   * the path waits for data */
  GMutex lock;
  IvtvDevice dev;
  IvtvProbe probe;
  IvtvCaptureState state;

  /* the open recipe */
  gchar *recipe_path;
  gint recipe_fd;
  gchar *node;                  /* the node behind recipe_fd, or NULL */
  struct v4l2_capability identity;      /* QUERYCAP of the first open */
  gboolean via_libv4l2;         /* chosen at the first open */

  IvtvCaptureSettings settings; /* copied at start */
  gboolean prio_held;           /* the record priority (ivtvpriority) */
  gboolean encoder_started;     /* our reads started the encoder */
  guint refused;                /* IvtvSettingMask a live change refused */
  gint enc_current[IVTV_ENC_N_NAMED];
  IvtvSignal signal;

  /* state_lock: what unlock() and property reads touch from other
   * threads */
  GMutex state_lock;
  GstPoll *poll;
  IvtvIoMode mode;              /* chosen at start, then the path's */
  IvtvPath *path;               /* NULL until the first buffer */
  guint extra_buffers;
  gboolean flushing;            /* unlock() .. unlock_stop() */
  IvtvReaderLimits limits;      /* the queue's bounds, stats-interval */
  /* the thread that reads the path into the queue (ivtvreaderthread.h);
   * started with the path, stopped before it */
  IvtvReaderThread *reader;

  /* the format (lock) */
  GstCaps *caps;                /* applied, for a reconnect */
  gint mpeg_stream_type;        /* -1 unknown */
  gboolean mpeg;                /* the format is MPEG */
  gboolean need_sniff;          /* MPEG without stream-type control */
  guint frame_size;             /* raw: sizeimage, 0 for byte streams */
  guint hm12_width, hm12_height;        /* HM12 frames, detiled to NV12
                                         * (ivtvhm12.h); 0: not HM12 */
  gint fps_n, fps_d;
  IvtvVbiFormat vbi;            /* a VBI node's set-up (ivtvvbi.c) */

  /* (lock) while the reader thread restores a lost device: the errors of
   * the settings and the format go here instead of the bus (the reader
   * thread posts nothing; a failed restore is tried again) */
  IvtvError **restore_error;
};

/* ivtvcapture.c, lock held */
gboolean ivtv_capture_reopen (IvtvCapture * cap, gboolean reprobe,
    GError ** error);
gboolean ivtv_capture_start_path (IvtvCapture * cap, IvtvError ** error);
gboolean ivtv_capture_take_card (IvtvCapture * cap);
gboolean ivtv_capture_ensure_open (IvtvCapture * cap);
void ivtv_capture_stop_path (IvtvCapture * cap);
/* ivtvcaptureread.c, lock not held: end the reader thread (its queued
 * buffers are dropped) */
void ivtv_capture_stop_reader (IvtvCapture * cap);
/* ivtvcapture.c, lock not held; on the reader thread: GST_FLOW_ERROR with
 * *@error */
GstFlowReturn ivtv_capture_reconnect (IvtvCapture * cap, IvtvError ** error);

/* ivtvcapturesetup.c, lock held.  apply_settings: the settings of @what
 * from cap->settings, the one error rule (see ivtvcapture.h; @live: a
 * change while capturing).  apply_format: S_FMT (and S_PARM) for @caps;
 * FALSE after posting.  check_lock: warn of a signal the card cannot lock
 * on. */
gboolean ivtv_capture_apply_settings (IvtvCapture * cap, guint what,
    gboolean live);
gboolean ivtv_capture_apply_format (IvtvCapture * cap, GstCaps * caps);
void ivtv_capture_check_lock (IvtvCapture * cap);
/* reprobe_formats: formats, sizes and intervals of the input and standard
 * now set; TRUE when the negotiated caps no longer fit. */
gboolean ivtv_capture_reprobe_formats (IvtvCapture * cap);

G_END_DECLS

#endif /* __IVTV_CAPTURE_PRIV_H__ */
