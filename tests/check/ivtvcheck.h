/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers of the element tests (test-element*.c): run a launch line to
 * EOS or to its first error, talk to the (emulated) device directly, count
 * open fds. */
#ifndef __IVTV_CHECK_H__
#define __IVTV_CHECK_H__

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <linux/videodev2.h>

G_BEGIN_DECLS

#define IC_DEVICE "/dev/video0"

typedef struct
{
  gboolean eos;
  gchar *error;                 /* message of the first error, or NULL */
  gchar *error_debug;
  GstResourceError error_code;  /* when the error is a resource error */
  GList *warnings;              /* messages of warnings (gchar *) */
} IcResult;

/* gst_parse_launch @launch, PLAYING, wait for EOS or error (at most
 * @timeout_ms), back to NULL.  Fails the test if @launch does not parse. */
void ic_run (const gchar * launch, gint timeout_ms, IcResult * res);
void ic_result_clear (IcResult * res);

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

G_END_DECLS

#endif /* __IVTV_CHECK_H__ */
