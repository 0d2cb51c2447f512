/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The one pipeline harness of the element tests: run a launch line to EOS
 * or to its first error collecting what it posted (IcResult), or watch a
 * pipeline buffer by buffer (IcPipe); talk to the (emulated) device
 * directly, count open fds, count live objects with the leaks tracer. */
#ifndef __IVTV_HARNESS_H__
#define __IVTV_HARNESS_H__

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <linux/videodev2.h>

G_BEGIN_DECLS

#define IC_DEVICE "/dev/video0"

/* What a pipeline run posted. */
typedef struct
{
  gboolean eos;
  gchar *error;                 /* message of the first error, or NULL */
  gchar *error_debug;
  GstResourceError error_code;  /* when the error is a resource error */
  guint n_errors;               /* errors posted (a duplicate is a bug) */
  GList *warnings;              /* messages of warnings (gchar *) */
  GList *signals;               /* GstStructure * of ivtvsrc-signal */
  GList *reconnects;            /* GstStructure * of ivtvsrc-reconnect */
  gint64 first_warning_us, error_us, eos_us;    /* since PLAYING */
} IcResult;

/* Set @pipe PLAYING and collect its messages until EOS, an error or
 * @timeout_ms; with @eos_after_ms >= 0 the application sends EOS then (as
 * gst-launch -e on Ctrl-C).  The pipeline is set to NULL at the end. */
void ic_run_pipe (GstElement * pipe, gint timeout_ms, gint eos_after_ms,
    IcResult * res);
/* The same for a launch line; ic_run without an EOS from the application. */
void ic_run_launch (const gchar * launch, gint timeout_ms, gint eos_after_ms,
    IcResult * res);
void ic_run (const gchar * launch, gint timeout_ms, IcResult * res);
void ic_result_clear (IcResult * res);
/* Did a warning contain @text? */
gboolean ic_has_warning (const IcResult * res, const gchar * text);
/* The text of an ERROR or WARNING message, "message (debug)"; g_free. */
gchar *ic_message_text (GstMessage * msg);

/* Run @launch and fail unless it errors out; returns the message (free). */
gchar *ic_expect_error (const gchar * launch);

/* Open the device (O_RDWR | O_NONBLOCK); fails the test if impossible. */
gint ic_open (void);

/* ioctls on a fresh descriptor of the device (closed again). */
gint ic_get_input (void);
v4l2_std_id ic_get_std (void);
/* Set V4L2_CID_MPEG_STREAM_TYPE; FALSE when refused. */
gboolean ic_set_stream_type (gint type);

/* Number of open file descriptors of this process. */
guint ic_count_fds (void);

/* Read a file fully (fails the test on error). */
GBytes *ic_read_file (const gchar * path);

/* A fresh path in a temporary directory (g_free; the directory is removed
 * by ic_cleanup). */
gchar *ic_tmp_path (const gchar * name);
void ic_cleanup (void);

/* Live-object growth by the leaks tracer (GST_TRACERS=leaks): start
 * counts from now; growth gives the objects created since and still
 * alive minus the older ones gone since, and stops counting.  Both take
 * only the tracer's type names and addresses, never a reference, so
 * objects other threads are finalizing at that moment are safe.  FALSE /
 * G_MININT when the tracer is not active. */
gboolean ic_live_start (void);
gint ic_live_growth (void);

/* ---- a pipeline watched buffer by buffer (streaming tests) ---- */

#define IC_MAX_RECORDS 256

typedef struct
{
  gsize size;
  gboolean shared;              /* data in a MAP_SHARED mapping */
  gboolean dmabuf;              /* first memory is dmabuf */
  gconstpointer data;
  GstClockTime pts, duration;
  guint64 offset;
  guint flags;                  /* GST_BUFFER_FLAGS */
  guint8 head[4], tail[2];      /* first / last bytes */
  guint32 sum;                  /* a checksum of some bytes */
} IcRecord;

typedef struct
{
  GstElement *pipeline, *src, *sink;
  GMutex lock;
  GCond cond;
  guint n_buffers;
  IcRecord rec[IC_MAX_RECORDS];
  GPtrArray *held;              /* buffers kept while hold_max > len */
  guint hold_max;
  GstCaps *caps;                /* caps on the sink pad */
  gchar *io_mode;               /* current-io-mode at the first buffer */
} IcPipe;

/* gst_parse_launch of @launch (must name ivtvsrc "src" and the fakesink
 * "sink"); fails the test when it does not parse. */
IcPipe *ic_pipe_new (const gchar * launch);
void ic_pipe_free (IcPipe * run);

/* Checked-fixture teardown: frees the runs a failing test left behind
 * (with CK_FORK=no the next test and the leak tracer need them gone). */
void ic_pipe_teardown (void);

/* Sets the pipeline to PLAYING (or fails). */
void ic_pipe_play (IcPipe * run);

/* Waits for a message of @types; NULL after @timeout_ms. Caller unrefs. */
GstMessage *ic_pipe_wait (IcPipe * run, GstMessageType types, gint timeout_ms);

/* Plays to EOS; fails the test on an error (its message printed) or when
 * nothing came within @timeout_ms. */
void ic_pipe_to_eos (IcPipe * run, gint timeout_ms);

/* Waits until @n buffers have arrived; FALSE after @timeout_ms. */
gboolean ic_pipe_wait_buffers (IcPipe * run, guint n, gint timeout_ms);

/* Releases the held buffers and stops holding more. */
void ic_pipe_release_held (IcPipe * run);

/* Sets @element (NULL: the pipeline) to NULL, failing if it takes more
 * than @max_ms; returns the time it took. */
gint64 ic_pipe_stop (IcPipe * run, gint max_ms);

/* The nick of the enum (or the string) property @name of @obj. */
gchar *ic_get_nick (GObject * obj, const gchar * name);

/* Is @p inside a mapping of /proc/self/maps?  @shared: its flags say
 * 's'.  @start, @inode: of that mapping.  FALSE if no mapping has it. */
gboolean ic_find_mapping (gconstpointer p, gboolean * shared,
    guintptr * start, guint64 * inode);

/* Is there still a mapping at @start with @inode? */
gboolean ic_mapping_exists (guintptr start, guint64 inode);


/* The size of a raw frame of fixed video @caps. */
gsize ic_frame_size (GstCaps * caps);

/* Run "ivtvsrc ! video/x-raw ! fakesink" until the error a fault causes
 * (it must come from ivtvsrc, after at least @min_frames frames); its
 * text (g_free). */
gchar *ic_pipe_error_after (guint min_frames);

G_END_DECLS

#endif /* __IVTV_HARNESS_H__ */
