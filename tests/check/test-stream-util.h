/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Helpers of the streaming-path tests (test-stream*.c): a pipeline around
 * ivtvsrc (name "src") ending in fakesink (name "sink") whose handoffs are
 * counted, inspected and optionally held; bus waits with a timeout; the
 * element's current-io-mode as a nick; where a pointer lives in
 * /proc/self/maps (a MAP_SHARED mapping = the device's buffer memory). */
#ifndef __TEST_STREAM_UTIL_H__
#define __TEST_STREAM_UTIL_H__

#include <gst/check/gstcheck.h>

G_BEGIN_DECLS

#define TS_MAX_RECORDS 256

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
} TsRecord;

typedef struct
{
  GstElement *pipeline, *src, *sink;
  GMutex lock;
  GCond cond;
  guint n_buffers;
  TsRecord rec[TS_MAX_RECORDS];
  GPtrArray *held;              /* buffers kept while hold_max > len */
  guint hold_max;
  GstCaps *caps;                /* caps on the sink pad */
  gchar *io_mode;               /* current-io-mode at the first buffer */
} TsRun;

/* gst_parse_launch of @launch (must name ivtvsrc "src" and the fakesink
 * "sink"); fails the test when it does not parse. */
TsRun *ts_run_new (const gchar * launch);
void ts_run_free (TsRun * run);

/* Checked-fixture teardown: frees the runs a failing test left behind
 * (with CK_FORK=no the next test and the leak tracer need them gone). */
void ts_teardown (void);

/* Sets the pipeline to PLAYING (or fails). */
void ts_run_play (TsRun * run);

/* Waits for a message of @types; NULL after @timeout_ms. Caller unrefs. */
GstMessage *ts_run_wait (TsRun * run, GstMessageType types, gint timeout_ms);

/* Plays to EOS; fails the test on an error (its message printed) or when
 * nothing came within @timeout_ms. */
void ts_run_to_eos (TsRun * run, gint timeout_ms);

/* Waits until @n buffers have arrived; FALSE after @timeout_ms. */
gboolean ts_run_wait_buffers (TsRun * run, guint n, gint timeout_ms);

/* Releases the held buffers and stops holding more. */
void ts_run_release_held (TsRun * run);

/* Sets @element (NULL: the pipeline) to NULL, failing if it takes more
 * than @max_ms; returns the time it took. */
gint64 ts_run_stop (TsRun * run, gint max_ms);

/* The nick of the enum (or the string) property @name of @obj. */
gchar *ts_get_nick (GObject * obj, const gchar * name);

/* Is @p inside a mapping of /proc/self/maps?  @shared: its flags say
 * 's'.  @start, @inode: of that mapping.  FALSE if no mapping has it. */
gboolean ts_find_mapping (gconstpointer p, gboolean * shared,
    guintptr * start, guint64 * inode);

/* Is there still a mapping at @start with @inode? */
gboolean ts_mapping_exists (guintptr start, guint64 inode);

/* The error message text of @msg (an ERROR or WARNING), g_free it. */
gchar *ts_message_text (GstMessage * msg);

G_END_DECLS

#endif /* __TEST_STREAM_UTIL_H__ */
