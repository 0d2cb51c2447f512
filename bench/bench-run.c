/* bench-run — runs one GStreamer pipeline for the benchmark (bench/run.sh)
 * and prints what it cost as one line of key=value pairs.
 *
 *   bench-run [--bytes N] [--buffers N] [--seconds S] [--rss-at S]
 *             [--stall-at S --stall-for T] [--first-buffer RUNS] PIPELINE
 *
 * Every fakesink of PIPELINE gets a probe counting buffers and bytes.  The
 * run stops when the sinks together saw --bytes bytes or --buffers buffers,
 * or after --seconds seconds (buffers after the limit are dropped and not
 * counted).  CPU is getrusage(RUSAGE_SELF) from the moment PLAYING is asked
 * for to the moment the limit is reached: plugin loading and teardown are
 * left out, every thread of the process (the emulator's work included) is
 * in.  Printed: bytes, buffers, user and system CPU seconds, wall seconds,
 * max RSS (VmHWM, KiB), RSS at --rss-at seconds and at the end (KiB), QoS
 * frames dropped (the sources' QoS messages), warnings posted, and the
 * largest bytes-lost of ivtvsrc's `ivtvsrc-stats` messages (element_lost,
 * -1 when none came).
 *
 * --stall-at S --stall-for T: a consumer stall; the first buffer to reach a
 * fakesink S seconds or more after the first one is held T seconds in the
 * sink's streaming thread (a sink that blocks, once).
 *
 * --exec COMMAND ARGS... instead runs COMMAND (e.g. dd) and prints the
 * user and system CPU seconds it used (wait4), at microsecond resolution.
 *
 * --first-buffer RUNS instead builds the pipeline RUNS times and measures,
 * each time, the wall time from gst_element_set_state (PLAYING) (from NULL:
 * the device is opened inside) to the first buffer reaching a sink; prints
 * the median and every run in milliseconds.
 */
#include <gst/gst.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct
{
  guint64 limit_bytes, limit_buffers;
  gint64 first_us;              /* first buffer (monotonic), 0 before */
  guint64 bytes, buffers;
  gboolean done;
  struct rusage ru_end;
  gint64 end_us;
  GMainLoop *loop;
  GHashTable *qos;              /* source -> frames it dropped */
  gdouble stall_at, stall_for;  /* seconds; stall_for 0 = no stall */
  gboolean stalled;
  guint warnings;
  gint64 element_lost;          /* largest ivtvsrc-stats bytes-lost, or -1 */
} Run;

static G_LOCK_DEFINE (run_lock);

static long
rss_kib (const char *key)
{
  FILE *f = fopen ("/proc/self/status", "r");
  char line[256];
  long v = -1;
  size_t kl = strlen (key);

  if (f == NULL)
    return -1;
  while (fgets (line, sizeof (line), f))
    if (strncmp (line, key, kl) == 0 && line[kl] == ':') {
      v = strtol (line + kl + 1, NULL, 10);
      break;
    }
  fclose (f);
  return v;
}

static GstPadProbeReturn
on_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Run *r = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  gboolean reached = FALSE, stall;

  (void) pad;
  G_LOCK (run_lock);
  if (r->done) {
    G_UNLOCK (run_lock);
    return GST_PAD_PROBE_DROP;
  }
  if (r->first_us == 0)
    r->first_us = g_get_monotonic_time ();
  r->bytes += gst_buffer_get_size (buf);
  r->buffers++;
  if ((r->limit_bytes && r->bytes >= r->limit_bytes)
      || (r->limit_buffers && r->buffers >= r->limit_buffers)) {
    r->done = reached = TRUE;
    getrusage (RUSAGE_SELF, &r->ru_end);
    r->end_us = g_get_monotonic_time ();
  }
  stall = r->stall_for > 0 && !r->stalled
      && g_get_monotonic_time () - r->first_us >= r->stall_at * 1e6;
  r->stalled |= stall;
  G_UNLOCK (run_lock);
  if (reached)
    g_main_loop_quit (r->loop);
  if (stall)
    g_usleep ((gulong) (r->stall_for * 1e6));
  return GST_PAD_PROBE_OK;
}

static gboolean
on_timeout (gpointer data)
{
  Run *r = data;

  G_LOCK (run_lock);
  if (!r->done) {
    r->done = TRUE;
    getrusage (RUSAGE_SELF, &r->ru_end);
    r->end_us = g_get_monotonic_time ();
  }
  G_UNLOCK (run_lock);
  g_main_loop_quit (r->loop);
  return G_SOURCE_REMOVE;
}

static gboolean
on_bus (GstBus * bus, GstMessage * msg, gpointer data)
{
  Run *r = data;
  GError *err = NULL;
  gchar *dbg = NULL;

  (void) bus;
  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ERROR:
      gst_message_parse_error (msg, &err, &dbg);
      fprintf (stderr, "bench-run: error from %s: %s (%s)\n",
          GST_OBJECT_NAME (msg->src), err->message, dbg ? dbg : "");
      g_clear_error (&err);
      g_free (dbg);
      exit (1);
    case GST_MESSAGE_EOS:
      on_timeout (r);
      break;
    case GST_MESSAGE_WARNING:
      r->warnings++;
      break;
    case GST_MESSAGE_ELEMENT:{
      const GstStructure *st = gst_message_get_structure (msg);
      guint64 lost;
      if (gst_structure_has_name (st, "ivtvsrc-stats")
          && gst_structure_get_uint64 (st, "bytes-lost", &lost))
        r->element_lost = MAX (r->element_lost, (gint64) lost);
      break;
    }
    case GST_MESSAGE_QOS:{
      GstFormat fmt;
      guint64 processed, dropped;
      gst_message_parse_qos_stats (msg, &fmt, &processed, &dropped);
      /* per source the latest total; summed at the end */
      if (fmt == GST_FORMAT_BUFFERS && dropped != (guint64) - 1)
        g_hash_table_insert (r->qos, msg->src, GSIZE_TO_POINTER (dropped));
      break;
    }
    default:
      break;
  }
  return TRUE;
}

/* Adds the probe to every fakesink; returns how many. */
static guint
probe_sinks (GstElement * pipeline, Run * r)
{
  GstIterator *it = gst_bin_iterate_recurse (GST_BIN (pipeline));
  GValue v = G_VALUE_INIT;
  guint n = 0;

  while (gst_iterator_next (it, &v) == GST_ITERATOR_OK) {
    GstElement *e = g_value_get_object (&v);
    GstElementFactory *f = gst_element_get_factory (e);

    if (f && g_str_equal (GST_OBJECT_NAME (f), "fakesink")) {
      GstPad *pad = gst_element_get_static_pad (e, "sink");
      gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_buffer, r, NULL);
      gst_object_unref (pad);
      n++;
    }
    g_value_reset (&v);
  }
  g_value_unset (&v);
  gst_iterator_free (it);
  return n;
}

static GstElement *
build (const char *desc, Run * r)
{
  GError *err = NULL;
  GstElement *p = gst_parse_launch (desc, &err);
  GstBus *bus;

  r->qos = g_hash_table_new (NULL, NULL);
  if (p == NULL || err != NULL) {
    fprintf (stderr, "bench-run: bad pipeline '%s': %s\n", desc,
        err ? err->message : "?");
    exit (2);
  }
  if (!GST_IS_BIN (p) || probe_sinks (p, r) == 0) {
    fprintf (stderr, "bench-run: the pipeline needs a fakesink\n");
    exit (2);
  }
  bus = gst_element_get_bus (p);
  gst_bus_add_watch (bus, on_bus, r);
  gst_object_unref (bus);
  return p;
}

static gint
cmp_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static int
first_buffer (const char *desc, int runs)
{
  double *ms = g_new0 (double, runs);
  int i;

  for (i = 0; i < runs; i++) {
    Run r = { 0 };
    GstElement *p;
    gint64 t0;

    r.limit_buffers = 1;
    r.loop = g_main_loop_new (NULL, FALSE);
    p = build (desc, &r);
    g_timeout_add_seconds (10, on_timeout, &r);
    t0 = g_get_monotonic_time ();
    gst_element_set_state (p, GST_STATE_PLAYING);
    g_main_loop_run (r.loop);
    if (r.first_us == 0) {
      fprintf (stderr, "bench-run: no buffer within 10 s\n");
      return 1;
    }
    ms[i] = (r.first_us - t0) / 1000.0;
    gst_element_set_state (p, GST_STATE_NULL);
    gst_object_unref (p);
    g_main_loop_unref (r.loop);
  }
  printf ("first_buffer_runs=%d", runs);
  {
    double *sorted = g_memdup2 (ms, sizeof (double) * runs);
    qsort (sorted, runs, sizeof (double), cmp_double);
    printf (" first_buffer_ms_median=%.2f first_buffer_ms_min=%.2f "
        "first_buffer_ms_max=%.2f", runs % 2 ? sorted[runs / 2] :
        (sorted[runs / 2 - 1] + sorted[runs / 2]) / 2, sorted[0],
        sorted[runs - 1]);
    g_free (sorted);
  }
  printf (" first_buffer_ms_all=");
  for (i = 0; i < runs; i++)
    printf ("%s%.2f", i ? "," : "", ms[i]);
  printf ("\n");
  g_free (ms);
  return 0;
}

static double tv_s (const struct timeval *tv);

static int
exec_cpu (char **argv)
{
  struct rusage ru;
  int status;
  pid_t pid = fork ();

  if (pid < 0)
    return 1;
  if (pid == 0) {
    execvp (argv[0], argv);
    perror (argv[0]);
    _exit (127);
  }
  if (wait4 (pid, &status, 0, &ru) < 0)
    return 1;
  printf ("user=%.6f sys=%.6f maxrss_kib=%ld status=%d\n",
      tv_s (&ru.ru_utime), tv_s (&ru.ru_stime), ru.ru_maxrss,
      WIFEXITED (status) ? WEXITSTATUS (status) : 128);
  return WIFEXITED (status) ? WEXITSTATUS (status) : 1;
}

static long rss_at_value = -1;

static gboolean
sample_rss (gpointer data)
{
  (void) data;
  rss_at_value = rss_kib ("VmRSS");
  return G_SOURCE_REMOVE;
}

static double
tv_s (const struct timeval *tv)
{
  return tv->tv_sec + tv->tv_usec / 1e6;
}

int
main (int argc, char **argv)
{
  Run r = { 0 };
  double seconds = 0, rss_at = 0;
  int fb_runs = 0, i;
  gchar *desc = NULL;
  GstElement *p;
  struct rusage ru0;
  gint64 t0;
  guint64 dropped = 0;

  if (argc > 2 && strcmp (argv[1], "--exec") == 0)
    return exec_cpu (argv + 2);
  gst_init (&argc, &argv);
  r.element_lost = -1;
  for (i = 1; i < argc; i++) {
    if (i + 1 < argc && strcmp (argv[i], "--bytes") == 0)
      r.limit_bytes = g_ascii_strtoull (argv[++i], NULL, 10);
    else if (i + 1 < argc && strcmp (argv[i], "--buffers") == 0)
      r.limit_buffers = g_ascii_strtoull (argv[++i], NULL, 10);
    else if (i + 1 < argc && strcmp (argv[i], "--seconds") == 0)
      seconds = g_ascii_strtod (argv[++i], NULL);
    else if (i + 1 < argc && strcmp (argv[i], "--rss-at") == 0)
      rss_at = g_ascii_strtod (argv[++i], NULL);
    else if (i + 1 < argc && strcmp (argv[i], "--stall-at") == 0)
      r.stall_at = g_ascii_strtod (argv[++i], NULL);
    else if (i + 1 < argc && strcmp (argv[i], "--stall-for") == 0)
      r.stall_for = g_ascii_strtod (argv[++i], NULL);
    else if (i + 1 < argc && strcmp (argv[i], "--first-buffer") == 0)
      fb_runs = atoi (argv[++i]);
    else if (argv[i][0] != '-') {
      /* the rest is the pipeline, as gst-launch takes it */
      desc = g_strjoinv (" ", argv + i);
      break;
    }
    else {
      fprintf (stderr, "usage: bench-run [--bytes N] [--buffers N] "
          "[--seconds S] [--rss-at S] [--stall-at S --stall-for T]\n"
          "                 [--first-buffer RUNS] PIPELINE\n"
          "       bench-run --exec COMMAND ARGS...\n");
      return 2;
    }
  }
  if (desc == NULL)
    return 2;
  if (fb_runs > 0)
    return first_buffer (desc, fb_runs);
  if (!r.limit_bytes && !r.limit_buffers && seconds <= 0)
    seconds = 10;

  r.loop = g_main_loop_new (NULL, FALSE);
  p = build (desc, &r);
  if (seconds > 0)
    g_timeout_add ((guint) (seconds * 1000), on_timeout, &r);
  if (rss_at > 0)
    g_timeout_add ((guint) (rss_at * 1000), sample_rss, NULL);

  getrusage (RUSAGE_SELF, &ru0);
  t0 = g_get_monotonic_time ();
  gst_element_set_state (p, GST_STATE_PLAYING);
  g_main_loop_run (r.loop);

  {
    GHashTableIter hi;
    gpointer v;
    g_hash_table_iter_init (&hi, r.qos);
    while (g_hash_table_iter_next (&hi, NULL, &v))
      dropped += GPOINTER_TO_SIZE (v);
  }
  G_LOCK (run_lock);
  printf ("bytes=%" G_GUINT64_FORMAT " buffers=%" G_GUINT64_FORMAT
      " user=%.6f sys=%.6f wall=%.3f maxrss_kib=%ld rss_at_kib=%ld"
      " rss_end_kib=%ld qos_dropped=%" G_GUINT64_FORMAT " warnings=%u"
      " element_lost=%" G_GINT64_FORMAT "\n",
      r.bytes, r.buffers,
      tv_s (&r.ru_end.ru_utime) - tv_s (&ru0.ru_utime),
      tv_s (&r.ru_end.ru_stime) - tv_s (&ru0.ru_stime),
      (r.end_us - t0) / 1e6, rss_kib ("VmHWM"), rss_at_value,
      rss_kib ("VmRSS"), dropped, r.warnings, r.element_lost);
  G_UNLOCK (run_lock);
  fflush (stdout);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  g_main_loop_unref (r.loop);
  return 0;
}
