/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtv-capture — what the person watching sees: on a terminal one status
 * line rewritten in place twice a second (elapsed time, MB written, bit
 * rate, signal, the element's queue fill, bytes/frames lost), fitted to
 * the terminal's width by shortening its fields; otherwise one
 * plain line every few seconds, without escape codes.  Events (signal
 * changes, warnings) get lines of their own in both cases.  Every figure is
 * measured: bytes from the probe on filesink's pad, queue and loss from
 * ivtvsrc-stats ("-" while the element posts none).  The archival path's
 * figures come through c->status_more, which archive.c sets: this file
 * calls nothing above it.  Also the shared helpers of the files above
 * (the elapsed time, time and signal words) and the end's reason
 * (cap_fail: the first failure, its exit status, the main loop's end). */
#include "capture.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define PLAIN_PERIOD_US (5 * G_USEC_PER_SEC)

const gchar *
cap_signal_word (CapSignal s)
{
  switch (s) {
    case CAP_SIGNAL_PRESENT:
      return N_("present");
    case CAP_SIGNAL_NO_LOCK:
      return N_("no lock");
    case CAP_SIGNAL_NONE:
      return N_("none");
    default:
      return "?";
  }
}

const gchar *
cap_format_time (gdouble seconds, gchar * buf)
{
  guint64 s = seconds > 0 ? (guint64) seconds : 0;

  g_snprintf (buf, CAP_TIME_LEN, "%02u:%02u:%02u", (guint) (s / 3600),
      (guint) (s / 60 % 60), (guint) (s % 60));
  return buf;
}

gdouble
cap_elapsed (Capture * c)
{
  gint64 start = atomic_load (&c->rec_start_us);
  gint64 now = c->end_us ? c->end_us : g_get_monotonic_time ();

  return start ? (now - start) / 1e6 : 0.0;
}

void
cap_status_init (Capture * c)
{
  c->is_tty = isatty (STDOUT_FILENO);
}

/* bits per second over the last few samples (about 2 s) */
static gdouble
bit_rate (Capture * c, gint64 now, guint64 bytes)
{
  guint i = c->rate_n % CAP_RATE_SAMPLES, oldest;
  gdouble rate = -1;

  c->rate_us[i] = now;
  c->rate_bytes[i] = bytes;
  c->rate_n++;
  if (c->rate_n < 2)
    return -1;
  oldest = c->rate_n < CAP_RATE_SAMPLES ? 0 : c->rate_n % CAP_RATE_SAMPLES;
  if (now > c->rate_us[oldest])
    rate = (bytes - c->rate_bytes[oldest]) * 8.0 * G_USEC_PER_SEC /
        (now - c->rate_us[oldest]);
  return rate;
}

static gchar *
describe_loss (Capture * c)
{
  if (!c->have_stats)
    return g_strdup ("-");
  if (c->frames_lost > 0)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
            "%.1f MB, %" PRIu64 " frame", "%.1f MB, %" PRIu64 " frames",
            (gulong) MIN (c->frames_lost, G_MAXULONG)), c->bytes_lost / 1e6,
        c->frames_lost);
  if (c->bytes_lost > 0)
    return g_strdup_printf ("%.2f MB", c->bytes_lost / 1e6);
  return g_strdup ("0");
}

/* the columns of the terminal: stdout's, else stderr's, else $COLUMNS,
 * else 80 */
static guint
term_width (void)
{
  struct winsize ws;
  const gchar *env = g_getenv ("COLUMNS");
  gint64 n;

  if (ioctl (STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
    return ws.ws_col;
  if (ioctl (STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
    return ws.ws_col;
  n = env ? g_ascii_strtoll (env, NULL, 10) : 0;
  return n > 0 && n < 10000 ? (guint) n : 80;
}

/* the figures at a level of detail: 0 all, 1 without the queue, 2 without
 * the labels, for a narrow terminal */
static gchar *
status_fields (Capture * c, gdouble rate, guint level)
{
  gchar tb[CAP_TIME_LEN], rb[16], *loss, *queue, *text;
  const gchar *input = c->signal_input ? c->signal_input : "?";
  const gchar *sig = _(cap_signal_word (c->signal));
  gdouble mb = atomic_load (&c->bytes) / 1e6;

  loss = describe_loss (c);
  queue = c->have_stats ? g_strdup_printf ("%.0f%%", c->queue_fill * 100)
      : g_strdup ("-");
  if (rate >= 0)
    g_snprintf (rb, sizeof (rb), "%4.1f", rate / 1e6);
  else
    g_strlcpy (rb, " -.-", sizeof (rb));
  cap_format_time (cap_elapsed (c), tb);
  if (level == 0)
    text = g_strdup_printf (_("%s %7.1f MB %s Mbit/s  signal: %s (%s)  "
            "queue: %s  lost: %s"), tb, mb, rb, sig, input, queue, loss);
  else if (level == 1)
    text = g_strdup_printf (_("%s %7.1f MB %s Mbit/s  signal: %s (%s)  "
            "lost: %s"), tb, mb, rb, sig, input, loss);
  else
    text = g_strdup_printf (_("%s %.1f MB %s Mb/s %s (%s) lost %s"), tb, mb,
        g_strchug (rb), sig, input, loss);
  if (c->archive && c->status_more) {  /* frames, A/V drift, levels */
    GString *line = g_string_new (text);

    c->status_more (c, line);
    g_free (text);
    text = g_string_free (line, FALSE);
  }
  g_free (queue);
  g_free (loss);
  return text;
}

/* the status line in at most MAX characters (0: no limit): fields are
 * shortened first; only a line still too long is cut */
static gchar *
status_text (Capture * c, gdouble rate, guint max)
{
  const gchar *input = c->signal_input ? c->signal_input : "?";
  gchar *text;
  guint level;

  if (atomic_load (&c->rec_start_us) == 0)
    text = g_strdup_printf (_("waiting for a signal on '%s' (no signal for "
            "%d s gives up; Ctrl-C to stop)"), input, c->no_signal);
  else
    for (level = 0;; level++) {
      text = status_fields (c, rate, level);
      if (max == 0 || level == 2 || g_utf8_strlen (text, -1) <= max)
        break;
      g_free (text);
    }
  if (max && g_utf8_strlen (text, -1) > max)
    *g_utf8_offset_to_pointer (text, max) = '\0';
  return text;
}

gboolean
cap_status_tick (gpointer data)
{
  Capture *c = data;
  gint64 now = g_get_monotonic_time ();
  gdouble rate = bit_rate (c, now, atomic_load (&c->bytes));
  gchar *text;

  if (!c->is_tty && c->last_plain_us != 0
      && now - c->last_plain_us < PLAIN_PERIOD_US)
    return G_SOURCE_CONTINUE;
  /* on a terminal, a line that wrapped could not be rewritten in place:
   * it keeps off the last column */
  text = status_text (c, rate, c->is_tty ? MAX (term_width (), 2) - 1 : 0);
  if (c->is_tty) {
    /* back to the start of the line, clear it, write it again */
    g_print ("\r\033[K%s", text);
    c->line_drawn = TRUE;
  } else {
    g_print ("ivtv-capture: %s\n", text);
    c->last_plain_us = now;
  }
  fflush (stdout);
  g_free (text);
  return G_SOURCE_CONTINUE;
}

/* a line of its own; on a terminal the status line is drawn again below
 * it at the next tick */
void
cap_status_event (Capture * c, const gchar * fmt, ...)
{
  va_list ap;
  gchar *line;

  va_start (ap, fmt);
  line = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  if (c->is_tty && c->line_drawn)
    g_print ("\r\033[K");
  c->line_drawn = FALSE;
  g_print ("ivtv-capture: %s\n", line);
  fflush (stdout);
  g_free (line);
}

/* the end's reason: the first failure told wins, its status is the exit
 * status, and the main loop ends (main.c prints the line) */
void
cap_fail (Capture * c, gint code, const gchar * fmt, ...)
{
  va_list ap, ap2;
  gchar *line, *shown, *p;

  if (c->error_line != NULL)    /* the first reason is the one */
    return;
  va_start (ap, fmt);
  va_copy (ap2, ap);
  line = g_strdup_vprintf (fmt, ap);
  shown = g_strdup_vprintf (_(fmt), ap2);
  va_end (ap2);
  va_end (ap);
  for (p = line; *p; p++)       /* one line */
    if (*p == '\n' || *p == '\r')
      *p = ' ';
  for (p = shown; *p; p++)
    if (*p == '\n' || *p == '\r')
      *p = ' ';
  c->error_line = line;
  c->error_shown = shown;
  c->exit_code = code;
  if (c->loop && !c->hold_quit)
    g_main_loop_quit (c->loop);
}

/* whether the texts GStreamer and ivtvsrc put in their messages are
 * English: messages in the C locale (gettext then ignores LANGUAGE), or
 * the user's first language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG) is C or
 * English */
gboolean
cap_messages_english (void)
{
  const gchar *loc = setlocale (LC_MESSAGES, NULL);
  const gchar *first = g_get_language_names ()[0];

  if (loc == NULL || strcmp (loc, "C") == 0 || strcmp (loc, "POSIX") == 0)
    return TRUE;
  return strcmp (first, "C") == 0 || strcmp (first, "POSIX") == 0
      || g_str_has_prefix (first, "C.") || g_str_has_prefix (first, "en");
}

/* cap_fail with both lines made by the caller: LINE in English (the
 * sidecar's), SHOWN in the user's language; for a sentence whose
 * parameters differ between the two (a word of it translated too) */
void
cap_fail_both (Capture * c, gint code, const gchar * line,
    const gchar * shown)
{
  if (c->error_line != NULL)    /* the first reason is the one */
    return;
  c->error_line = g_strdelimit (g_strdup (line), "\r\n", ' ');
  c->error_shown = g_strdelimit (g_strdup (shown), "\r\n", ' ');
  c->exit_code = code;
  if (c->loop && !c->hold_quit)
    g_main_loop_quit (c->loop);
}

/* cap_fail with a message made elsewhere (a GError's): the record keeps it
 * as it is, the user reads its translation when the catalogue has it (the
 * command's own N_() texts; an element's is already translated) */
void
cap_fail_literal (Capture * c, gint code, const gchar * message)
{
  cap_fail (c, code, "%s", message);
  if (c->error_shown != NULL && g_strcmp0 (c->error_line, message) == 0) {
    g_free (c->error_shown);
    c->error_shown = g_strdelimit (g_strdup (_(message)), "\r\n", ' ');
  }
}

void
cap_status_finish (Capture * c)
{
  gint64 now = g_get_monotonic_time ();

  gchar *text = status_text (c, bit_rate (c, now, atomic_load (&c->bytes)),
      c->is_tty ? MAX (term_width (), 2) - 1 : 0);

  /* the last figures, on a line that stays and does not wrap */
  if (c->is_tty)
    g_print ("\r\033[K%s\n", text);
  else
    g_print ("ivtv-capture: %s\n", text);
  c->line_drawn = FALSE;
  g_free (text);
  fflush (stdout);
}
