/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the capture path seam: what the capture session's run
 * (ivtvcaptureread.c) asks of a path that turns an open device into
 * buffers — read() (ivtvread.c), V4L2 streaming (ivtvstream.c,
 * ivtvstreamsetup.c) or a VBI node (ivtvvbi.c: ivtv_vbi_path_new); a PCM
 * node is read by the read() path and HM12 frames by the read() or
 * streaming path, each wrapped by a decorator (ivtvdecorate.c: PCM stamps
 * by ivtvpcm.c, detiling by ivtvhm12.c) that the session puts around it —
 * and what every path shares: the stall watchdog (one message set), the
 * error as data (IvtvError) and the flow return that says "the device
 * went away".
 *
 * A path is created started (its constructor sets up the I/O and fails
 * with a GError), hands out one buffer per create() and is freed when the
 * capture stops.  create() is called from one thread only; set_timeout()
 * and drain() may be called from any thread.  Every wait goes through the
 * GstPoll of IvtvPathConfig, so setting it flushing makes create() return
 * GST_FLOW_FLUSHING at once.  Nothing in a path knows the element: it gets
 * the device, the poll and a GstElement to post messages on.  So a reader
 * thread can own a path and feed a bounded queue that the element's
 * create() takes from (the session's ivtv_capture_next() is that seam).
 *
 * A path's create() never posts an error: it returns GST_FLOW_ERROR with an
 * IvtvError (what GST_ELEMENT_ERROR would have posted, as data).  The
 * reader thread queues it after the buffers read before it, and the
 * element posts it when its create() reaches it (ivtv_error_post), so a
 * pipeline that stops on the error has every buffer before it.  Warnings
 * and infos are posted at once.
 */
#ifndef __IVTV_PATH_H__
#define __IVTV_PATH_H__

#include <gst/gst.h>
#include "ivtvdevice.h"
#include "ivtviomode.h"

G_BEGIN_DECLS

/* create() with reconnect set: the device went away (ENODEV/ENXIO) and
 * nothing was posted; the session reopens the node and makes a new path. */
#define IVTV_FLOW_DEVICE_LOST GST_FLOW_CUSTOM_ERROR

/* Default stall timeout (property timeout), seconds. */
#define IVTV_PATH_DEFAULT_TIMEOUT 5

/* Where a path is in the stream: what it pushed so far, and the offset
 * (bytes for read(), frames for streaming) of the next buffer. */
typedef struct
{
  guint64 bytes;
  guint64 buffers;
  guint64 next_offset;
} IvtvPathPosition;

/* What a path is made with. */
typedef struct
{
  GstElement *element;          /* messages, clock; not a reference */
  IvtvDevice *dev;              /* open, format set; outlives the path */
  GstPoll *poll;                /* the session's; not owned */
  IvtvIoMode mode;              /* IVTV_IO_RW or a streaming mode */
  guint blocksize;              /* read(): bytes per buffer */
  guint extra_buffers;          /* streaming: downstream's min buffers */
  guint timeout;                /* stall timeout, seconds; 0 = off */
  gboolean reconnect;           /* lost device: IVTV_FLOW_DEVICE_LOST */
} IvtvPathConfig;

typedef struct _IvtvPath IvtvPath;

/* ---- an error as data ---- */
typedef struct
{
  GQuark domain;                /* GST_RESOURCE_ERROR, GST_CORE_ERROR, ... */
  gint code;
  gchar *text;                  /* for a person; NULL: the code's default */
  gchar *debug;                 /* for a developer, may be NULL */
  const gchar *file, *function; /* where it happened (static strings) */
  gint line;
} IvtvError;

/* Sets *@error unless one is set already (the first error of a run is the
 * one; a later one is only logged).  Takes @text and @debug. */
void ivtv_error_set (IvtvError ** error, GQuark domain, gint code,
    gchar * text, gchar * debug, const gchar * file, const gchar * function,
    gint line);
/* Posts @error on @element as GST_ELEMENT_ERROR would have posted it, and
 * frees it.  NULL: nothing. */
void ivtv_error_post (IvtvError * error, GstElement * element);
void ivtv_error_free (IvtvError * error);

/* GST_ELEMENT_ERROR's arguments, into *@errp (an IvtvError **). */
#define IVTV_ERROR(errp, domain, code, text, debug)                     \
G_STMT_START {                                                          \
  gchar *__txt = _gst_element_error_printf text;                        \
  gchar *__dbg = _gst_element_error_printf debug;                       \
  ivtv_error_set (errp, GST_ ## domain ## _ERROR,                       \
      GST_ ## domain ## _ERROR_ ## code, __txt, __dbg, __FILE__,        \
      GST_FUNCTION, __LINE__);                                          \
} G_STMT_END

/* An encoder stop (the session's ENCODER_CMD STOP) run by a path. */
typedef enum
{
  IVTV_STOP_REFUSED,            /* no encoder command: nothing stopped */
  IVTV_STOP_DRAINS,             /* ends the stream at the end of its GOP */
  IVTV_STOP_AT_ONCE             /* stopped now, nothing drains (hdpvr) */
} IvtvStopResult;

typedef IvtvStopResult (*IvtvPathStopFunc) (gpointer data);

typedef struct
{
  /* One buffer: GST_FLOW_OK, FLUSHING, EOS, ERROR (with *@error set,
   * nothing posted) or IVTV_FLOW_DEVICE_LOST. */
  GstFlowReturn (*create) (IvtvPath * path, GstBuffer ** buf,
      IvtvError ** error);
  /* Read on until the driver ends the stream, at most @max_us, then EOS
   * (after ENCODER_CMD STOP); after a stop_encoder that gave
   * IVTV_STOP_REFUSED (read(): pvrusb2), read what the driver holds now
   * instead, then EOS.  FALSE when the path cannot drain. */
  gboolean (*drain) (IvtvPath * path, gint64 max_us);
  void (*set_timeout) (IvtvPath * path, guint seconds);
  void (*get_position) (IvtvPath * path, IvtvPathPosition * pos);
  /* After a reconnect: offsets and counts go on from @before. */
  void (*resume_from) (IvtvPath * path, const IvtvPathPosition * before);
  /* Stop and free; buffers downstream still holds stay valid. */
  void (*free) (IvtvPath * path);
  /* Optional: downstream is behind (buffers wait in the element's queue):
   * copy data out of driver buffers instead of handing those out. */
  void (*set_behind) (IvtvPath * path, gboolean behind);
  /* Optional (read()): run @stop with no read() in flight; after
   * IVTV_STOP_AT_ONCE the path reads (and polls) nothing more and ends
   * with EOS: a read() on a stopped hdpvr starts a new stream
   * (hdpvr-video.c hdpvr_read), which must not be appended.  Any thread.
   * Without it the caller runs @stop itself. */
  IvtvStopResult (*stop_encoder) (IvtvPath * path, IvtvPathStopFunc stop,
      gpointer data);
} IvtvPathFuncs;

struct _IvtvPath
{
  const IvtvPathFuncs *funcs;
  IvtvIoMode mode;              /* what it does: rw, mmap, userptr, dmabuf */
};

/* The read() and streaming paths (ivtvread.c, ivtvstream.c; the VBI path's
 * constructor is in ivtvvbi.h).  NULL with @error; the streaming one's
 * error is IVTV_STREAM_ERROR (may the caller fall back?). */
IvtvPath *ivtv_read_path_new (const IvtvPathConfig * config, GError ** error);
IvtvPath *ivtv_stream_path_new (const IvtvPathConfig * config,
    GError ** error);

static inline GstFlowReturn
ivtv_path_create (IvtvPath * path, GstBuffer ** buf, IvtvError ** error)
{
  return path->funcs->create (path, buf, error);
}

static inline void
ivtv_path_free (IvtvPath * path)
{
  if (path)
    path->funcs->free (path);
}

/* ---- the stall watchdog, shared by every path ----
 * No data for `timeout` seconds of one create()'s wait (never counting
 * time spent outside create()) posts a warning once, for twice as long
 * returns an error (an IvtvError: data, posted by the element); data
 * again after a warning posts an info.
 * A timeout set while a wait goes on counts from when it was set (a
 * paused encoder's capture has none, ivtvcapturepause.c: no data is due
 * then; the wait that spanned the pause must not be taken for a stall). */
typedef struct
{
  /* set by any thread (ivtv_stall_set_timeout: a live `timeout`, the
   * pause), read by the waiting one: atomics, no lock */
  gint timeout;                 /* seconds, atomic; 0 = wait for ever */
  gint generation;              /* atomic: set_timeout calls */
  gboolean warned;              /* the waiting thread's */
  /* the waiting thread's: the generation seen, and since when */
  gint seen_generation;
  gint64 set_at;
} IvtvStall;

void ivtv_stall_init (IvtvStall * stall, guint timeout);
void ivtv_stall_set_timeout (IvtvStall * stall, guint seconds);

/* Waiting since @since (monotonic us): GST_FLOW_OK to wait on, or
 * GST_FLOW_ERROR with *@error set (the warning is posted on @element). */
GstFlowReturn ivtv_stall_check (IvtvStall * stall, GstElement * element,
    const IvtvDevice * dev, gint64 since, IvtvError ** error);

/* Data came. */
void ivtv_stall_data (IvtvStall * stall, GstElement * element,
    const IvtvDevice * dev);

G_END_DECLS

#endif /* __IVTV_PATH_H__ */
