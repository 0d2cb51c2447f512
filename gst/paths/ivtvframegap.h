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
 * The method: the frames expected since an anchor (the earliest-coming
 * frame seen: a frame earlier than the anchor says becomes it, and a card
 * a little slower than its nominal rate moves it on slowly) minus those
 * that came, in whole periods from 7/8 of one, when two frames in a row
 * that come at least half a period after the one before agree (a frame
 * late by chance, then one on time, is no loss; frames in a burst, from a
 * driver's queue after a stall or an emulator without pacing, are not
 * judged).  The times are, by kind:
 *  - CAPTURE (streaming): the driver's CLOCK_MONOTONIC buffer timestamps;
 *    frames made while the pipeline was paused are not judged
 *    (ivtv_frame_gap_clock);
 *  - ARRIVAL (read()): the running time when the frame was read (paused
 *    time is not in it).
 * Neither judges the first frames (a start, a reconnect: the caller makes
 * a new one or restarts it) nor frames around a pause the caller reports
 * (ivtv_frame_gap_clock). */
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
  GstClockTime prev;            /* the last frame's time */
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

/* The frame at @t (NONE: unknown, restarts): the frames found missing
 * (0 usually; a gap is found one or two frames after it). */
guint64 ivtv_frame_gap_feed (IvtvFrameGap * g, GstClockTime t);

/* @frames missing that the caller counted itself (a gap in the sequence
 * numbers): not found again.  Before the feed of the frame after them. */
void ivtv_frame_gap_account (IvtvFrameGap * g, guint64 frames);

G_END_DECLS

#endif /* __IVTV_FRAME_GAP_H__ */
