/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtv-capture — holding the card's audio to its video (sync.c): the
 * video's frame sequence is the clock of the file; the audio device's own
 * clock is measured against it (ppm) and the audio is mapped onto the
 * video's timeline by inserting or removing single samples; frames the
 * driver or the element's queue lost are repeated, or the same length of
 * audio is removed; every such event is kept for the record.  No GStreamer
 * element: buffers in, buffers out through a callback, so a unit test can
 * drive it with any clocks it likes. */
#ifndef IVTV_CAPTURE_SYNC_H
#define IVTV_CAPTURE_SYNC_H

#include <gst/gst.h>

typedef enum
{
  CAP_DROP_REPEAT,              /* repeat the previous frame */
  CAP_DROP_CUT_AUDIO            /* remove the same length of audio */
} CapDropPolicy;

typedef struct
{
  gdouble time;                 /* seconds into the file */
  guint64 sequence;             /* the driver's sequence where it happened */
  guint64 frames;               /* frames lost (or samples, for audio) */
  const gchar *action;          /* "repeated", "audio removed", ... */
} CapSyncEvent;

typedef struct
{
  gdouble time;                 /* seconds into the file */
  gdouble ppm;                  /* audio clock against video clock */
  gdouble offset_ms;            /* audio - video before correction */
  guint64 inserted, removed;    /* samples so far */
} CapSyncPoint;

/* @video: TRUE for a frame, FALSE for audio; the callee owns @buf */
typedef void (*CapSyncPush) (gpointer user, GstBuffer * buf, gboolean video);

typedef struct _CapSync CapSync;

CapSync *cap_sync_new (CapDropPolicy policy, gint fps_n, gint fps_d,
    CapSyncPush push, gpointer user);
/* the audio format; @stamped_at_end: the source stamps a buffer when its
 * last sample arrived (a read() node), not at its first sample */
void cap_sync_set_audio (CapSync * s, gint rate, gint bpf,
    gboolean stamped_at_end);
/* the audio source's buffer offsets count its samples (alsasrc): a gap in
 * them is samples it lost, put back as silence */
void cap_sync_set_sample_offsets (CapSync * s, gboolean on);
void cap_sync_free (CapSync * s);

/* a frame from the card: PTS = when it began (running time), OFFSET = the
 * driver's sequence number.  Pushes it (and any repeats) at once. */
void cap_sync_video (CapSync * s, GstBuffer * buf);
/* audio from the device: PTS = running time of its first sample (or of
 * its last, see cap_sync_set_audio).  Pushed once the video covers it. */
void cap_sync_audio (CapSync * s, GstBuffer * buf);
/* the end: the audio still held is mapped and pushed */
void cap_sync_audio_flush (CapSync * s);

typedef struct
{
  guint64 frames_delivered, frames_repeated, frames_out, frames_lost;
  guint64 samples_in, samples_out, inserted, removed;
  gdouble ppm, offset_ms, max_offset_ms;
  gboolean have_ppm;
} CapSyncTotals;

void cap_sync_totals (CapSync * s, CapSyncTotals * t);
/* copies; free with g_array_unref */
GArray *cap_sync_events (CapSync * s);  /* CapSyncEvent */
GArray *cap_sync_points (CapSync * s);  /* CapSyncPoint, every 10 s */

#endif /* IVTV_CAPTURE_SYNC_H */
