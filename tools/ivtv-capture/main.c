/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtv-capture — digitise a tape with one command: the options, the manual
 * (--help is all of it), the run from "find the card" to "file finished",
 * and the exit status with its one-line reason. */
#include "capture.h"

#include <glib-unix.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <glib/gstdio.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define SUMMARY N_( \
"Records a tape (or anything on a capture card's input) into FILE with\n" \
"GStreamer's ivtvsrc, showing what arrives while it records.\n" \
"\n" \
"Without options it takes the first capture card GStreamer's device monitor\n" \
"lists (MPEG encoder cards such as the Hauppauge PVR-150/250/350/500 first),\n" \
"takes the first input that has a signal (so start the tape first), detects\n" \
"the TV standard, records every byte the card delivers, and stops by itself\n" \
"at the end of the tape (10 s without a signal).  Ctrl-C ends the recording cleanly: the encoder is\n" \
"stopped at the end of a group of pictures and the file is complete (a\n" \
"second Ctrl-C stops at once).")

#define DESCRIPTION N_( \
"While recording:\n" \
"  On a terminal one status line is updated in place: elapsed time, MB\n" \
"  written to FILE, bit rate, the input's signal (present, no lock, none),\n" \
"  the element's queue fill and the bytes or frames lost ('-' when this\n" \
"  ivtvsrc does not report them).  When the output is not a terminal, a\n" \
"  plain line every 5 s instead.  Signal changes and warnings get lines of\n" \
"  their own.\n" \
"\n" \
"Files made:\n" \
"  FILE         the card's stream, byte for byte (MPEG-2 program stream on\n" \
"               ivtv cards).  On a raw card (USB dongles such as stk1160 or\n" \
"               usbtv, the YUV node of an ivtv/cx18 card): one Matroska file\n" \
"               with FFV1 video (version 3, slices, CRCs) and the card's\n" \
"               audio as PCM, held in sync with the video's frames for hours\n" \
"               (the audio clock's drift is measured and corrected); a frame\n" \
"               the card lost is repeated (or, --on-drop cut-audio, the same\n" \
"               length of audio removed), so sound never slips.  Status line:\n" \
"               frames, A/V drift (ppm) and offset, peak/RMS dB and clipped\n" \
"               samples.  Without an audio device it stops and names the\n" \
"               devices there are (--audio-device, or --no-audio).\n" \
"  FILE.framemd5  raw cards: an MD5 per frame, as ffmpeg -f framemd5 prints.\n" \
"  FILE.json    the archival record: card, driver, node, input, standard,\n" \
"               encoder settings, start and end time, duration, bytes,\n" \
"               signal gaps, anything lost, warnings.  Space for it is kept\n" \
"               from the start, so it is written even when the disk fills.\n" \
"  NAME.dvd/    with --dvd and dvdauthor installed: a DVD folder (VIDEO_TS)\n" \
"               made from FILE (NAME is FILE without its extension).\n" \
"\n" \
"The end of the recording:\n" \
"  - end of tape: no signal for S seconds (--stop-after-no-signal);\n" \
"  - --max-time T reached (counted from the first byte recorded);\n" \
"  - Ctrl-C, SIGTERM or SIGHUP (the terminal or SSH connection closed):\n" \
"    the same clean end; the record says which one it was.\n" \
"  No signal at the start: with --input auto (the default) it stops at once\n" \
"  naming every input and its status; with a named input it waits up to S\n" \
"  seconds for the signal (start the pipeline, then press play).\n" \
"\n" \
"Exit status (with a one-line reason on stderr when not 0):\n" \
"  0    complete capture (end of tape, --max-time or Ctrl-C)\n" \
"  1    the capture failed (device lost, read error, ...)\n" \
"  2    bad options, an input or standard the card does not have, or\n" \
"       FILE exists (use --force)\n" \
"  3    no capture card found, or it cannot be opened\n" \
"  4    no signal within S seconds, or on no input with --input auto:\n" \
"       nothing recorded\n" \
"  5    disk full or another write error: FILE is intact up to its last\n" \
"       complete write\n" \
"  6    the capture is complete but no DVD folder was made: dvdauthor\n" \
"       failed, or the TV standard changed during the recording\n" \
"  130  Ctrl-C before anything was recorded, or a second Ctrl-C\n" \
"\n" \
"Examples:\n" \
"  ivtv-capture tape.mpg\n" \
"  ivtv-capture --input composite --standard pal --preview tape.mpg\n" \
"  ivtv-capture --dvd --max-time 2h wedding-1998.mpg\n" \
"  ivtv-capture --device /dev/video1 --input svideo --stop-after-no-signal 30 t.mpg\n" \
"\n" \
"Recording over SSH: closing the connection ends the recording (cleanly,\n" \
"as above).  To record on when it drops, run the command in tmux\n" \
"(tmux new -s tape ivtv-capture tape.mpg; tmux attach -t tape later) or as\n" \
"a service: systemd-run --user --unit=tape --working-directory=$PWD\n" \
"ivtv-capture tape.mpg (journalctl --user -u tape shows its lines;\n" \
"systemctl --user stop tape ends it with SIGTERM, cleanly).\n" \
"\n" \
"For scripts and other pipelines use the element itself:\n" \
"  gst-launch-1.0 -e ivtvsrc input=composite ! queue ! filesink location=tape.mpg\n" \
"Sending the stream to another machine: docs/capturing-tapes.md, section 7,\n" \
"and examples/handoff.sh in ivtvsrc's source.")

/* "7200", "90s", "45m", "2h", "1:30:00", "90:00" -> seconds; < 0 if bad */
static gdouble
parse_duration (const gchar * s)
{
  gchar **parts = g_strsplit (s, ":", -1);
  guint n = g_strv_length (parts), i;
  gdouble total = 0;

  if (n > 3)
    total = -1;
  for (i = 0; i < n && total >= 0; i++) {
    gchar *end = NULL;
    gdouble v = g_ascii_strtod (parts[i], &end);
    gdouble unit = 1;

    if (end == parts[i] || v < 0)
      total = -1;
    else if (n == 1 && (*end == 'h' || *end == 'm' || *end == 's')) {
      unit = *end == 'h' ? 3600 : *end == 'm' ? 60 : 1;
      end++;
    }
    if (total >= 0 && *end != '\0')
      total = -1;
    if (total >= 0)
      total = total * (n > 1 ? 60 : 1) + v * unit;
  }
  g_strfreev (parts);
  return total;
}

/* what the command line gives beyond Capture's fields, until it is checked */
typedef struct
{
  gchar *max_time, **files;
  gboolean version;
} CapArgs;

/* the options and their --help texts, into @ctx's main group */
static void
add_options (GOptionContext * ctx, Capture * c, CapArgs * a)
{
  GOptionEntry entries[] = {
    {"device", 'd', 0, G_OPTION_ARG_STRING, &c->device,
          N_ ("The card's node (default: the first card the device monitor finds)"),
        "DEV"},
    {"input", 'i', 0, G_OPTION_ARG_STRING, &c->input,
        N_ ("Video input: composite, composite2, svideo, tuner, an exact name, "
          "an index, or auto (default: the first input with a signal; with a "
          "named input it waits up to S seconds for the signal)"), "NAME|auto"},
    {"standard", 's', 0, G_OPTION_ARG_STRING, &c->standard,
        N_ ("TV standard: ntsc, pal, secam, pal-m, ntsc-jp, ... or auto "
          "(default: auto, detected from the signal)"), "NAME|auto"},
    {"preview", 'p', 0, G_OPTION_ARG_NONE, &c->preview,
        N_ ("Show the picture in a window while recording (the preview drops "
          "pictures rather than ever slowing the recording)"), NULL},
    {"dvd", 0, 0, G_OPTION_ARG_NONE, &c->dvd,
        N_ ("Record a DVD-compatible stream (stream-type=dvd, 48 kHz audio, "
          "4:3) and, with dvdauthor installed, make a DVD folder"), NULL},
    {"max-time", 't', 0, G_OPTION_ARG_STRING, &a->max_time,
        N_ ("Stop after this long: seconds, or 90m, 2h, 1:30:00"), "T"},
    {"stop-after-no-signal", 'n', 0, G_OPTION_ARG_INT, &c->no_signal,
        N_ ("End of tape: stop after S seconds without a signal; also how long "
          "to wait for a signal at the start (default 10; 0 = never)"), "S"},
    {"force", 'f', 0, G_OPTION_ARG_NONE, &c->force,
        N_ ("Overwrite FILE if it exists"), NULL},
    {"version", 'V', 0, G_OPTION_ARG_NONE, &a->version,
        N_ ("Print the version (ivtvsrc's, which gst-inspect-1.0 ivtvsrc shows) "
          "and exit"), NULL},
    {"audio-device", 'a', 0, G_OPTION_ARG_STRING, &c->audio_device,
        N_ ("Raw cards: the audio to record with the video: an ALSA device "
          "(hw:CARD=STK1160, plughw:1,0), the card's PCM node (/dev/video24) "
          "or gst:DESCRIPTION (a GStreamer source) (default: the ALSA "
          "device of the same USB device or card, else its PCM node)"), "DEV"},
    {"no-audio", 0, 0, G_OPTION_ARG_NONE, &c->no_audio,
        N_ ("Raw cards: record the video without sound"), NULL},
    {"access-copy", 0, 0, G_OPTION_ARG_FILENAME, &c->access_copy,
        N_ ("Raw cards: also write an access copy (H.264 + AAC in MP4) to "
          "FILE2 from the same capture"), "FILE2"},
    {"on-drop", 0, 0, G_OPTION_ARG_STRING, &c->on_drop,
        N_ ("Raw cards: a frame the card or the queue lost is 'repeat'ed "
          "(the previous frame again, the default) or its length of audio "
          "is removed ('cut-audio'); either way the audio stays in sync and "
          "FILE.json lists each loss"), "repeat|cut-audio"},
    {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &a->files, NULL,
        NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL}
  };

  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
}

/* the parsed options, checked: -1 if good, else the exit status (with
 * its line printed) */
static gint
check_options (Capture * c, CapArgs * a)
{
  gint ret = -1;

  if (a->version) {
    gchar *gst = gst_version_string ();

    g_print ("ivtv-capture (ivtvsrc) %s\n%s\n", IVTV_CAPTURE_VERSION, gst);
    g_free (gst);
    ret = CAP_EXIT_OK;
  } else if (a->files == NULL || a->files[0] == NULL || a->files[1] != NULL) {
    g_printerr (_("ivtv-capture: give one output file, e.g. ivtv-capture "
            "tape.mpg (see --help)\n"));
    ret = CAP_EXIT_USAGE;
  } else if (a->max_time
      && (c->max_time = parse_duration (a->max_time)) <= 0) {
    g_printerr (_("ivtv-capture: --max-time '%s': give seconds, or 90m, "
            "2h, 1:30:00\n"), a->max_time);
    ret = CAP_EXIT_USAGE;
  } else if (c->on_drop && g_strcmp0 (c->on_drop, "repeat")
      && g_strcmp0 (c->on_drop, "cut-audio")) {
    g_printerr (_("ivtv-capture: --on-drop '%s': give repeat or "
            "cut-audio\n"),
        c->on_drop);
    ret = CAP_EXIT_USAGE;
  } else if (c->no_audio && c->audio_device) {
    g_printerr (_("ivtv-capture: --no-audio and --audio-device: give "
            "one\n"));
    ret = CAP_EXIT_USAGE;
  } else if (c->no_signal < 0) {
    g_printerr (_("ivtv-capture: --stop-after-no-signal must be >= 0\n"));
    ret = CAP_EXIT_USAGE;
  } else {
    c->output = g_strdup (a->files[0]);
  }
  return ret;
}

static gint
parse_options (Capture * c, int argc, char **argv)
{
  CapArgs a = { NULL, NULL, FALSE };
  GOptionContext *ctx = g_option_context_new (N_("FILE"));
  GError *err = NULL;
  gint ret;

  g_option_context_set_translation_domain (ctx, GETTEXT_PACKAGE);
  /* GLib translates both in GETTEXT_PACKAGE, as the options' texts */
  g_option_context_set_summary (ctx, SUMMARY);
  g_option_context_set_description (ctx, DESCRIPTION);
  add_options (ctx, c, &a);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &err)) {
    g_printerr (_("ivtv-capture: %s (see --help)\n"), err->message);
    ret = CAP_EXIT_USAGE;
  } else
    ret = check_options (c, &a);
  g_clear_error (&err);
  g_strfreev (a.files);
  g_free (a.max_time);
  g_option_context_free (ctx);
  return ret;
}

/* ---- checks before anything is touched ---- */

static gint
check_files (Capture * c)
{
  gchar *json = cap_sidecar_path (c->output);
  gchar *dvd = cap_dvd_dir (c->output);
  gint ret = -1;

  if (!c->force && g_file_test (c->output, G_FILE_TEST_EXISTS))
    g_printerr (_("ivtv-capture: %s exists: give another name, or --force "
            "to overwrite it\n"), c->output), ret = CAP_EXIT_USAGE;
  else if (!c->force && g_file_test (json, G_FILE_TEST_EXISTS))
    g_printerr (_("ivtv-capture: %s exists: give another name, or --force "
            "to overwrite it\n"), json), ret = CAP_EXIT_USAGE;
  else if (c->dvd && g_file_test (dvd, G_FILE_TEST_EXISTS))
    g_printerr (_("ivtv-capture: %s exists (dvdauthor would add to it): "
            "remove it or give another name\n"), dvd), ret = CAP_EXIT_USAGE;
  g_free (json);
  g_free (dvd);
  return ret;
}

/* the card: --device, or the first one the device monitor lists */
static gint
open_card (Capture * c)
{
  GError *err = NULL;
  GstDevice *dev = NULL;
  GstStructure *props;
  GstElementFactory *f = gst_element_factory_find ("ivtvsrc");

  if (f != NULL)
    gst_object_unref (f);
  else {
    cap_fail (c, CAP_EXIT_NO_CARD, N_("the ivtvsrc element is not "
            "installed (gst-inspect-1.0 ivtvsrc)"));
    return c->exit_code;
  }
  if (c->device == NULL && (dev = cap_find_card (&err)) == NULL) {
    cap_fail_literal (c, CAP_EXIT_NO_CARD, err->message);
    g_clear_error (&err);
    return c->exit_code;
  }
  c->src = gst_element_factory_make ("ivtvsrc", "src");
  if (dev) {
    props = gst_device_get_properties (dev);
    g_free (c->device);
    c->device = g_strdup (gst_structure_get_string (props, "device.path"));
    c->bus_info = g_strdup (gst_structure_get_string (props, "device.bus"));
    gst_structure_free (props);
    gst_object_unref (dev);
  }
  g_object_set (c->src, "device", c->device, NULL);
  c->node = g_strdup (c->device);
  return -1;
}

/* ", input 'Composite 1', NTSC-M" as the card reports them once PAUSED
 * applied them (the element's properties would say only "auto"): asked on
 * a second, read-only descriptor, as queries need no priority (v4l2-dev.c,
 * v4l2-ioctl.c: VIDIOC_G_INPUT, ENUMINPUT, G_STD, ENUMSTD).  A part the
 * card does not answer is left out. */
static gchar *
card_setting (Capture * c)
{
  GString *s = g_string_new ("");
  struct v4l2_input in = { 0 };
  struct v4l2_standard st = { 0 };
  v4l2_std_id id = 0;
  gint fd, index = 0;

  fd = open (c->device, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return g_string_free (s, FALSE);
  if (ioctl (fd, VIDIOC_G_INPUT, &index) == 0) {
    in.index = index;
    if (ioctl (fd, VIDIOC_ENUMINPUT, &in) == 0 && in.name[0])
      g_string_append_printf (s, _(", input '%.*s'"),
          (gint) sizeof (in.name), (const gchar *) in.name);
  }
  if (ioctl (fd, VIDIOC_G_STD, &id) == 0 && id != 0) {
    gchar name[sizeof (st.name) + 1] = "";

    /* the standard itself, else the first one that includes it */
    for (st.index = 0; ioctl (fd, VIDIOC_ENUMSTD, &st) == 0; st.index++)
      if (st.id == id || (name[0] == '\0' && (st.id & id) == id)) {
        g_strlcpy (name, (const gchar *) st.name, sizeof (name));
        if (st.id == id)
          break;
      }
    if (name[0])
      g_string_append_printf (s, ", %s", name);
  }
  close (fd);
  return g_string_free (s, FALSE);
}

/* READY opens and probes the card: its name, and errors as sentences */
static gint
start (Capture * c)
{
  GstBus *bus = gst_pipeline_get_bus (GST_PIPELINE (c->pipeline));
  GError *err = NULL;
  gchar *setting;

  gst_bus_add_watch (bus, cap_bus_message, c);
  gst_object_unref (bus);
  if (gst_element_set_state (c->pipeline, GST_STATE_READY)
      == GST_STATE_CHANGE_FAILURE) {
    while (g_main_context_iteration (NULL, FALSE));
    if (c->error_line == NULL)
      cap_fail (c, CAP_EXIT_NO_CARD, N_("cannot open %s"), c->device);
    return c->exit_code;
  }
  g_object_get (c->src, "device-name", &c->card, "driver", &c->driver, NULL);
  c->start_time = g_date_time_new_now_utc ();
  if (!cap_sidecar_reserve (c, &err)) {
    cap_fail (c, CAP_EXIT_DISK_FULL, "%s", err->message);
    g_clear_error (&err);
    return c->exit_code;
  }
  /* PAUSED applies the input, the standard and the record priority: a
   * busy card or a bad name fails here, before "recording" is said */
  if (gst_element_set_state (c->pipeline, GST_STATE_PAUSED)
      == GST_STATE_CHANGE_FAILURE) {
    while (g_main_context_iteration (NULL, FALSE));
    if (c->error_line == NULL)
      cap_fail (c, CAP_EXIT_FAILED, N_("the capture does not start"));
    return c->exit_code;
  }
  setting = card_setting (c);
  g_print (_("ivtv-capture: recording '%s' (%s, %s)%s, to %s\n"),
      c->card ? c->card : "?", c->driver ? c->driver : "?", c->device,
      setting, c->output);
  g_free (setting);
  if (c->dvd && !cap_dvd_available ())
    g_print (_("ivtv-capture: dvdauthor is not installed: the "
            "DVD-compatible stream is recorded, but no DVD folder will be "
            "made (apt install dvdauthor)\n"));
  if (gst_element_set_state (c->pipeline, GST_STATE_PLAYING)
      == GST_STATE_CHANGE_FAILURE) {
    while (g_main_context_iteration (NULL, FALSE));
    if (c->error_line == NULL)
      cap_fail (c, CAP_EXIT_FAILED, N_("the capture does not start"));
    return c->exit_code;
  }
  if (c->preview_pipe)
    gst_element_set_state (c->preview_pipe, GST_STATE_PLAYING);
  return -1;
}

/* SIGINT, SIGTERM and SIGHUP all end the recording cleanly; the record
 * says which one it was */
static void
interrupted_by (Capture * c, const gchar * what)
{
  gchar *why, *shown;

  c->interrupted = TRUE;
  if (c->stopping) {            /* the second one: now */
    c->stopping = 2;
    /* the sidecar's line names the signal in English; the user's in
     * theirs (see cap_fail) */
    cap_fail (c, CAP_EXIT_INTERRUPTED, N_("stopped at once by a second %s; "
            "%s may end in the middle of a group of pictures"), what,
        c->output);
    return;
  }
  if (atomic_load (&c->rec_start_us)) {
    why = g_strdup (what);
    shown = g_strdup (_(what));
  } else {
    why = g_strdup_printf ("%s while waiting for a signal", what);
    shown = g_strdup_printf (_("%s while waiting for a signal"), _(what));
  }
  cap_stop (c, why, shown);
  g_free (shown);
  g_free (why);
}

static gboolean
on_sigint (gpointer data)
{
  interrupted_by (data, "Ctrl-C");
  return G_SOURCE_CONTINUE;
}

static gboolean
on_sigterm (gpointer data)
{
  interrupted_by (data, "SIGTERM");
  return G_SOURCE_CONTINUE;
}

/* the terminal or the SSH connection went away */
static gboolean
on_sighup (gpointer data)
{
  interrupted_by (data, N_("SIGHUP (the terminal closed)"));
  return G_SOURCE_CONTINUE;
}

/* the status tick, and --max-time */
static gboolean
tick (gpointer data)
{
  Capture *c = data;
  gchar tb[CAP_TIME_LEN], *why, *shown;

  if (c->max_time > 0 && !c->stopping && cap_elapsed (c) >= c->max_time) {
    cap_format_time (c->max_time, tb);
    why = g_strdup_printf ("maximum time reached (%s)", tb);
    shown = g_strdup_printf (_("maximum time reached (%s)"), tb);
    cap_stop (c, why, shown);
    g_free (shown);
    g_free (why);
  }
  cap_picture_tell (c);
  return cap_status_tick (c);
}

/* after the main loop: what the end means */
static void
judge_end (Capture * c)
{
  gboolean recorded = atomic_load (&c->bytes) > 0;

  if (c->error_line != NULL)
    return;
  if (!recorded && c->interrupted)
    cap_fail (c, CAP_EXIT_INTERRUPTED, N_("interrupted while waiting for "
            "a signal: nothing recorded"));
  else if (!recorded && !c->ever_present)
    cap_fail (c, CAP_EXIT_NO_SIGNAL, N_("no signal on input '%s' within "
            "%d s: nothing recorded (is the tape playing? is it the right "
            "input? --input)"), c->signal_input ? c->signal_input : "?", c->no_signal);
  else if (!recorded)
    cap_fail (c, CAP_EXIT_FAILED, N_("the card delivered no data"));
}

static void
finish_files (Capture * c)
{
  GError *err = NULL;
  gchar *json = cap_sidecar_path (c->output), *why = NULL;

  cap_discover (c);
  if (c->dvd && c->exit_code == CAP_EXIT_OK && cap_picture_changed (c, &why))
    /* dvdauthor would make a DVD of one standard from both */
    cap_fail (c, CAP_EXIT_DVD, N_("%s: a DVD holds one TV standard, so no "
            "DVD folder was made (%s is complete; split it, or record again "
            "with --standard)"), why, c->output);
  else if (c->dvd && c->exit_code == CAP_EXIT_OK && cap_dvd_available ()) {
    cap_status_event (c, _("making the DVD folder with dvdauthor..."));
    cap_dvd_author (c);         /* a failure: exit 6, its reason told */
  }
  if (!cap_sidecar_write (c, &err)) {
    g_printerr ("ivtv-capture: %s\n", err->message);
    if (c->exit_code == CAP_EXIT_OK)
      cap_fail (c, CAP_EXIT_DISK_FULL, "%s", err->message);
    g_clear_error (&err);
  }
  g_free (why);
  g_free (json);
}

/* nothing recorded: leave nothing behind */
static void
remove_empty (Capture * c)
{
  gchar *json = cap_sidecar_path (c->output);
  GStatBuf st;

  /* filesink may have made an empty file before the source failed */
  if (g_stat (c->output, &st) == 0 && st.st_size == 0)
    g_unlink (c->output);
  if (c->start_time)
    g_unlink (json);
  g_free (json);
}

static void
report (Capture * c)
{
  gchar tb[CAP_TIME_LEN], *json = cap_sidecar_path (c->output);

  GStatBuf st;

  if (atomic_load (&c->bytes) > 0 && g_stat (c->output, &st) == 0)
    g_print (_("ivtv-capture: %s: %.1f MB in %s%s%s; record in %s%s%s\n"),
        c->output, st.st_size / 1e6,
        cap_format_time (cap_elapsed (c), tb), c->end_reason ? ", " : "",
        c->end_reason ? c->end_reason_shown : "", json,
        c->dvd_dir ? _("; DVD folder ") : "", c->dvd_dir ? c->dvd_dir : "");
  if (c->have_stats && (c->bytes_lost > 0 || c->frames_lost > 0))
    g_print (g_dngettext (GETTEXT_PACKAGE, "ivtv-capture: ivtvsrc reports %"
            PRIu64 " bytes and %" PRIu64 " frame lost in this capture (see "
            "%s)\n", "ivtv-capture: ivtvsrc reports %" PRIu64 " bytes and %"
            PRIu64 " frames lost in this capture (see %s)\n",
            (gulong) MIN (c->frames_lost, G_MAXULONG)), c->bytes_lost,
        c->frames_lost, json);
  if (c->error_line)
    g_printerr (_("ivtv-capture: error: %s\n"), c->error_shown);
  g_free (json);
}

static void
capture_free (Capture * c)
{
  if (c->pipeline)
    gst_object_unref (c->pipeline);
  else if (c->src)
    gst_object_unref (c->src);
  if (c->preview_pipe)
    gst_object_unref (c->preview_pipe);
  if (c->loop)
    g_main_loop_unref (c->loop);
  if (c->start_time)
    g_date_time_unref (c->start_time);
  if (c->end_time)
    g_date_time_unref (c->end_time);
  g_array_unref (c->gaps);
  g_array_unref (c->pictures);
  g_mutex_clear (&c->pic_lock);
  g_ptr_array_unref (c->warnings);
  g_free (c->device);
  g_free (c->input);
  g_free (c->standard);
  g_free (c->output);
  g_free (c->card);
  g_free (c->driver);
  g_free (c->bus_info);
  g_free (c->node);
  g_free (c->signal_input);
  g_free (c->end_reason);
  g_free (c->end_reason_shown);
  g_free (c->error_line);
  g_free (c->error_shown);
  g_free (c->caps_str);
  g_free (c->encoder_json);
  g_free (c->dvd_dir);
  cap_archive_free (c);
  g_free (c->audio_device);
  g_free (c->access_copy);
  g_free (c->on_drop);
}

static gint
run (Capture * c)
{
  GError *err = NULL;
  gint ret;

  if ((ret = check_files (c)) >= 0)
    return ret;
  if ((ret = open_card (c)) >= 0) {
    report (c);
    return ret;
  }
  if (c->preview && g_getenv ("DISPLAY") == NULL
      && g_getenv ("WAYLAND_DISPLAY") == NULL) {
    g_print (_("ivtv-capture: --preview: no display (DISPLAY is not set): "
            "recording without a preview\n"));
    c->preview = FALSE;
  }
  if (!cap_build (c, &err)) {
    /* a resource: the audio device of a raw card cannot be opened */
    cap_fail_literal (c, err->domain == GST_RESOURCE_ERROR ?
        CAP_EXIT_NO_CARD : CAP_EXIT_FAILED, err->message);
    g_clear_error (&err);
    report (c);
    return c->exit_code;
  }
  if (c->archive == NULL)       /* MPEG sequence headers: not in FFV1 */
    cap_picture_watch (c);
  g_unix_signal_add (SIGINT, on_sigint, c);
  g_unix_signal_add (SIGTERM, on_sigterm, c);
  g_unix_signal_add (SIGHUP, on_sighup, c);
  if ((ret = start (c)) < 0) {
    g_timeout_add (c->is_tty ? 500 : 1000, tick, c);
    g_main_loop_run (c->loop);
  } else if (c->start_time == NULL) {   /* not even opened */
    gst_element_set_state (c->pipeline, GST_STATE_NULL);
    remove_empty (c);
    report (c);
    return ret;
  }
  c->end_us = g_get_monotonic_time ();
  c->end_time = g_date_time_new_now_utc ();
  cap_read_settings (c);
  if (c->preview_pipe)
    gst_element_set_state (c->preview_pipe, GST_STATE_NULL);
  gst_element_set_state (c->pipeline, GST_STATE_NULL);
  cap_archive_report (c);       /* raw cards: frame totals, sync */
  judge_end (c);
  cap_picture_tell (c);
  if (atomic_load (&c->rec_start_us) != 0)
    cap_status_finish (c);
  if (atomic_load (&c->bytes) > 0)
    finish_files (c);
  else
    remove_empty (c);
  report (c);
  return c->exit_code;
}

int
main (int argc, char **argv)
{
  Capture c;
  gint ret;

  /* the user's language for the texts (catalogue po/LANG.po, domain
   * ivtvsrc; IVTV_LOCALEDIR: another catalogue directory, as meson devenv
   * sets for the build tree); numbers stay C for FILE.json */
  setlocale (LC_ALL, "");
  setlocale (LC_NUMERIC, "C");
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("IVTV_LOCALEDIR") ?
      g_getenv ("IVTV_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  memset (&c, 0, sizeof (c));
  /* every capture node through ivtvsrc's device provider: the roles and a
   * dongle's alsa.device the archival path looks up (by default it gives
   * streaming nodes to v4l2src, gst/provider/ivtvdevicenode.c) */
  g_setenv ("IVTV_DEVICE_PROVIDER", "all", TRUE);
  /* after a SIGHUP stdout may be a closed pipe: a write must not kill us
   * before the file and its record are finished */
  signal (SIGPIPE, SIG_IGN);
  c.no_signal = 10;
  c.gaps = g_array_new (FALSE, FALSE, sizeof (CapGap));
  c.warnings = g_ptr_array_new_with_free_func (g_free);
  c.media_duration = -1;
  c.pictures = g_array_new (FALSE, FALSE, sizeof (CapPicture));
  g_mutex_init (&c.pic_lock);
  ret = parse_options (&c, argc, argv);
  if (ret < 0) {
    if (c.standard == NULL)
      c.standard = g_strdup ("auto");
    if (c.input == NULL)
      c.input = g_strdup ("auto");
    c.loop = g_main_loop_new (NULL, FALSE);
    cap_status_init (&c);
    ret = run (&c);
  }
  capture_free (&c);
  return ret;
}
