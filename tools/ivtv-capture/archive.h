/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtv-capture — the archival path's state, shared by archive.c (the
 * pipeline), archive-audio.c (which audio device, opened how) and
 * archive-record.c (status line, record, report). */
#ifndef IVTV_CAPTURE_ARCHIVE_H
#define IVTV_CAPTURE_ARCHIVE_H

#include "capture.h"
#include "framemd5.h"
#include "levels.h"
#include "sync.h"

#include <gst/video/video.h>

typedef struct
{
  gdouble time;                 /* s into the recording */
  gchar *what;
} CapWatchEvent;

typedef struct _CapArchive
{
  CapDropPolicy policy;
  gchar *role, *siblings, *alsa_device;  /* from the device provider */
  gchar *audio_name;            /* what is recorded, NULL = no audio */
  gboolean audio_at_end;        /* the audio source stamps at a read's end */
  gboolean audio_sample_offsets;        /* its offsets count samples (alsasrc) */
  GstElement *asrc, *vsink, *asink, *vsrc, *aout, *enc, *mux;
  GMutex lock;
  CapSync *sync;                /* made at the first frame (its rate) */
  gint rate, bpf, width;        /* the audio, from its first buffer */
  gboolean audio_set;
  GstVideoInfo enc_info;        /* what the encoder takes, for framemd5 */
  gboolean have_enc_info;
  CapFrameMd5 *md5;
  guint64 md5_frames;            /* lines written, kept after the close */
  gchar *md5_path;
  CapLevels levels;
  /* the input's watch (archive-watch.c) */
  gint watch_fd;
  guint watch_id;
  guint64 std_seen;             /* v4l2_std_id first detected, 0 = none */
  guint64 std_last;             /* the last one detected */
  GArray *watch_events;         /* CapWatchEvent */
  guint64 bytes_at_stop;        /* for the end's watch */
} CapArchive;

/* archive-watch.c */
void cap_archive_watch_start (Capture * c);
void cap_archive_watch_stop (CapArchive * a);
void cap_archive_add_watch_event (Capture * c, const gchar * what);
void cap_archive_watch_json (CapArchive * a, GString * s);

/* archive-audio.c */
gboolean cap_archive_find_node (Capture * c, CapArchive * a);
GstElement *cap_archive_audio_source (Capture * c, CapArchive * a,
    GError ** error);

#endif /* IVTV_CAPTURE_ARCHIVE_H */
