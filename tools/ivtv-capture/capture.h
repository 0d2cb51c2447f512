/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtv-capture — the state of one capture shared by its files: main.c
 * (options, the manual, the run and its exit status), pipeline.c (finding
 * the card, the recording and preview pipelines, the bus), status.c (the
 * live status line, plain log lines and the end's reason) and record.c
 * (the archival sidecar, the picture changes seen in the stream, and the
 * DVD folder).  A file calls only files after it in this order, so there
 * is no call cycle: main.c, pipeline.c, overlay.c, archive.c,
 * archive-audio.c, record.c, archive-record.c, archive-watch.c, status.c
 * (then sync.c, levels.c, framemd5.c); status.c reaches the archival
 * figures only through c->status_more, which archive.c sets. */
#ifndef IVTV_CAPTURE_H
#define IVTV_CAPTURE_H

#include <gst/gst.h>
#include <stdatomic.h>
#include <stdint.h>

/* exit statuses (the manual in main.c lists them) */
enum
{
  CAP_EXIT_OK = 0,
  CAP_EXIT_FAILED = 1,          /* device lost, read error, other errors */
  CAP_EXIT_USAGE = 2,
  CAP_EXIT_NO_CARD = 3,         /* no card found, or it cannot be opened */
  CAP_EXIT_NO_SIGNAL = 4,       /* no signal within the limit */
  CAP_EXIT_DISK_FULL = 5,       /* disk full or another write error */
  CAP_EXIT_DVD = 6,             /* the capture is complete; dvdauthor failed */
  CAP_EXIT_INTERRUPTED = 130    /* Ctrl-C before anything was recorded */
};

typedef enum
{
  CAP_SIGNAL_UNKNOWN,
  CAP_SIGNAL_PRESENT,
  CAP_SIGNAL_NO_LOCK,
  CAP_SIGNAL_NONE
} CapSignal;

/* a stretch of the recording without a (locked) signal, in seconds from
 * the start of the recording */
typedef struct
{
  gdouble start, end;
  CapSignal state;
} CapGap;

/* the picture size changed in the recorded stream (a standard change
 * mid-capture), at a time in seconds from the start of the recording */
typedef struct
{
  gdouble at;
  guint from_w, from_h, to_w, to_h;
} CapPicture;

#define CAP_RATE_SAMPLES 8

typedef struct _Capture
{
  /* options */
  gchar *device, *input, *standard, *output;
  gboolean preview, dvd, force;
  gdouble max_time;             /* seconds, 0 = none */
  gint no_signal;               /* seconds without signal = end of tape */
  /* raw cards (archive.c): the audio, the access copy, the drop policy */
  gchar *audio_device, *access_copy, *on_drop;
  gboolean no_audio;
  struct _CapArchive *archive;  /* NULL on the MPEG path */
  /* the archival path's part of the status line (archive-record.c's
   * cap_archive_status), set by archive.c with c->archive: status.c calls
   * down through it, never up */
  void (*status_more) (struct _Capture * c, GString * line);

  /* pipelines */
  GMainLoop *loop;
  GstElement *pipeline, *src, *sink;
  GstElement *preview_pipe, *preview_in;        /* separate pipeline, appsrc */
  gboolean preview_linked;
  GstElement *preview_overlay;  /* overlay.c: the textoverlay */
  gdouble audio_db[2];          /* the preview's audio peak, dB */
  guint audio_channels;         /* 0: no audio level yet */

  /* the card (from the device provider and the element) */
  gchar *card, *driver, *bus_info, *node;

  /* progress: written by the streaming thread, read by the main loop */
  _Atomic uint64_t bytes;       /* bytes that reached filesink */
  _Atomic int64_t rec_start_us; /* monotonic time of the first byte, 0 before */
  GDateTime *start_time, *end_time;
  gint64 end_us;
  gint64 rate_us[CAP_RATE_SAMPLES];
  guint64 rate_bytes[CAP_RATE_SAMPLES];
  guint rate_n;

  /* signal, from ivtvsrc-signal */
  CapSignal signal;
  gchar *signal_input;
  gboolean ever_present;
  GArray *gaps;                 /* CapGap */
  gboolean in_gap;

  /* ivtvsrc-stats (STATS-CONTRACT.md), when the element posts it */
  gboolean have_stats;
  gdouble queue_fill;
  guint64 bytes_lost, frames_lost, stats_bytes;

  /* output */
  gboolean is_tty;
  gboolean line_drawn;          /* a status line is on the terminal */
  gint64 last_plain_us;
  GPtrArray *warnings;          /* gchar*, for the sidecar */

  /* the end */
  gint stopping;                /* 0, 1 = EOS sent, 2 = second Ctrl-C */
  gboolean got_eos;
  gboolean interrupted;         /* Ctrl-C (or SIGTERM) asked for the end */
  gchar *end_reason;            /* English, for the sidecar */
  gchar *end_reason_shown;      /* the same in the user's language */
  gint exit_code;
  gboolean hold_quit;           /* cap_fail leaves the loop running: an
                                 * error of ivtvsrc waits for its EOS
                                 * (pipeline.c on_error) */
  gchar *error_line;            /* the one-line reason of a failure
                                 * (English, for the sidecar) */
  gchar *error_shown;           /* the same in the user's language */
  gchar *caps_str, *encoder_json;       /* read before the pipeline stops */
  gint video_width, video_height;
  gdouble media_duration;       /* from the discoverer, -1 unknown */
  gchar *dvd_dir;

  /* the picture size in the stream's sequence headers (record.c): read by
   * the streaming thread, its changes handed to the main loop */
  guint64 pic_win;
  guint pic_w, pic_h, pic_new_w, pic_new_h;
  GMutex pic_lock;
  GArray *pictures;             /* CapPicture, under pic_lock */
  guint pic_told;               /* changes already told (main loop) */
} Capture;

/* pipeline.c */
GstDevice *cap_find_card (GError ** error);
gboolean cap_build (Capture * c, GError ** error);
gboolean cap_bus_message (GstBus * bus, GstMessage * msg, gpointer data);
void cap_stop (Capture * c, const gchar * why, const gchar * shown);

/* status.c (calls no other file of the command: the --max-time check is
 * main.c's, the archival figures come through c->status_more) */
/* cap_fail: FMT is English, marked N_(): the sidecar keeps the English
 * line, the user reads its translation */
void cap_fail (Capture * c, gint code, const gchar * fmt, ...)
    G_GNUC_PRINTF (3, 4);
void cap_fail_literal (Capture * c, gint code, const gchar * message);
void cap_fail_both (Capture * c, gint code, const gchar * line,
    const gchar * shown);
gboolean cap_messages_english (void);
gdouble cap_elapsed (Capture * c);
void cap_status_init (Capture * c);
gboolean cap_status_tick (gpointer data);
void cap_status_event (Capture * c, const gchar * fmt, ...)
    G_GNUC_PRINTF (2, 3);
void cap_status_finish (Capture * c);
const gchar *cap_signal_word (CapSignal s);
#define CAP_TIME_LEN 32
const gchar *cap_format_time (gdouble seconds, gchar * buf);

/* overlay.c: what the preview window shows over the picture */
GstElement *cap_overlay_make (Capture * c, GstElement ** out, GError ** error);
gchar *cap_overlay_text (Capture * c);
gboolean cap_overlay_tick (gpointer data);
void cap_overlay_level (Capture * c, const GstStructure * s);

/* archive.c: raw cards (FFV1 + PCM in Matroska) */
gboolean cap_archive_wanted (Capture * c);
gboolean cap_archive_build (Capture * c, GError ** error);
gboolean cap_archive_message (Capture * c, GstMessage * msg);
void cap_archive_send_eos (Capture * c);
/* the video ended by itself (an error of ivtvsrc): EOS to the audio source,
 * so the file is finished; nothing without an archive */
void cap_archive_end_audio (Capture * c);
void cap_archive_status (Capture * c, GString * line);  /* c->status_more */
void cap_archive_json (Capture * c, GString * s);
void cap_archive_report (Capture * c);
void cap_archive_free (Capture * c);

/* record.c */
gchar *cap_sidecar_path (const gchar * output);
gboolean cap_sidecar_reserve (Capture * c, GError ** error);
gboolean cap_sidecar_write (Capture * c, GError ** error);
void cap_read_settings (Capture * c);
void cap_discover (Capture * c);
gboolean cap_dvd_available (void);
gchar *cap_dvd_dir (const gchar * output);
/* FALSE: the failure is told (cap_fail, exit 6) */
gboolean cap_dvd_author (Capture * c);
void cap_picture_watch (Capture * c);
void cap_picture_tell (Capture * c);
gboolean cap_picture_changed (Capture * c, gchar ** why);

#endif /* IVTV_CAPTURE_H */
