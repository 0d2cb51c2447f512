/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — frames the driver dropped, found from the frames' times: a
 * pure helper (no device, no element) that the raw video paths feed with
 * each frame's time and that says how many frames are missing before it.
 *
 * Why: some drivers drop a frame without a gap in the V4L2 sequence
 * number.  usbtv and stk1160 number only the frames they complete: with
 * no buffer queued (userspace too slow) the frame is skipped and the
 * counter does not move (usbtv-video.c usbtv_image_chunk: "No free
 * buffers. Userspace likely too slow.", the sequence counts at a frame's
 * last chunk; stk1160-video.c stk1160_process_isoc: no buffer from
 * stk1160_next_buffer, the sequence counts in stk1160_buffer_done only).  A read() node has no sequence at
 * all: ivtv's YUV node drops what its queue cannot hold
 * (ivtv-irq.c stream_enc_dma_append) and the reader is never told.
 *
 * Two ways to use it, by what the times are:
 *  - CAPTURE (streaming, the driver's CLOCK_MONOTONIC buffer timestamps):
 *    an interval over 1.5 periods is round(interval / period) - 1 frames
 *    lost, judged only when the interval before it was at least half a
 *    period (a stream that runs at its rate: a burst of frames made
 *    faster than real time, e.g. an emulator without pacing, is not
 *    judged);
 *  - ARRIVAL (read(): the running time when the frame was read; paused
 *    time is not in it): frames kept in a driver queue come late and in
 *    bursts, and a reader comes late by chance, so the count is the
 *    frames expected since an anchor (the earliest-coming frame seen)
 *    minus those that came, when two frames in a row that come at the
 *    stream's pace (not in a burst) agree.
 * Neither judges the first frames (a start, a reconnect: the caller makes
 * a new one or restarts it) nor frames around a pause the caller reports
 * (ivtv_frame_gap_paused). */
#ifndef __IVTV_FRAME_GAP_H__
#define __IVTV_FRAME_GAP_H__

#include <gst/gst.h>

G_BEGIN_DECLS

typedef enum
{
  IVTV_FRAME_GAP_CAPTURE,
  IVTV_FRAME_GAP_ARRIVAL
} IvtvFrameGapKind;

typedef struct
{
  IvtvFrameGapKind kind;
  GstClockTime period;          /* NONE: unknown, nothing is judged */
  GstClockTime prev, prev_iv;   /* the last frame's time, the interval before it */
  GstClockTime ignore_before;   /* CAPTURE: frames of a pause */
  /* ARRIVAL */
  GstClockTime anchor_t;
  guint64 anchor_i, count;
  gint64 last_d;                /* frames the last one said were missing (-1: not judged) */
  /* pause detection: the last (monotonic, running) times seen */
  GstClockTime last_mono, last_running;
} IvtvFrameGap;

void ivtv_frame_gap_init (IvtvFrameGap * g, IvtvFrameGapKind kind,
    GstClockTime period);

/* The next frame is the first of a new run: nothing before it is judged. */
void ivtv_frame_gap_restart (IvtvFrameGap * g);

/* Now is @mono (CLOCK_MONOTONIC) and the element's running time @running
 * (NONE: no clock).  When the monotonic clock moved on by more than half a
 * period (at least 20 ms) beyond the running time since the last call, the
 * pipeline was paused in between: frames captured before @mono are not
 * judged, nor is the first one after them.  TRUE when a pause was seen. */
gboolean ivtv_frame_gap_clock (IvtvFrameGap * g, GstClockTime mono,
    GstClockTime running);

/* The frame at @t (NONE: unknown, restarts): the frames missing just
 * before it (0 usually). */
guint64 ivtv_frame_gap_feed (IvtvFrameGap * g, GstClockTime t);

G_END_DECLS

#endif /* __IVTV_FRAME_GAP_H__ */
