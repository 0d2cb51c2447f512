/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — frames the driver dropped, found from the frames' times: a
 * pure helper (no device, no element) that the raw video paths feed with
 * each frame's time and that says how many frames are missing.
 *
 * Why: some drivers drop a frame without a gap in the V4L2 sequence
 * number.  usbtv and stk1160 number only the frames they complete: with
 * no buffer queued (userspace too slow) the frame is skipped and the
 * counter does not move (usbtv-video.c usbtv_image_chunk: "No free
 * buffers. Userspace likely too slow.", the sequence counts at a frame's
 * last chunk; stk1160-video.c stk1160_process_isoc: no buffer from
 * stk1160_next_buffer, the sequence counts in stk1160_buffer_done only).
 * A read() node has no sequence at all: ivtv's YUV node drops what its
 * queue cannot hold (ivtv-irq.c stream_enc_dma_append) and the reader is
 * never told.
 *
 * The period: the device's own, estimated from the frames, not the
 * standard's.  A USB grabber on its own crystal, a device behind a slow
 * virtual machine sends a few % off the nominal rate (27.9 and 30.6
 * frames/s for NTSC were seen under qemu TCG); against the nominal period
 * a 2 s hole counts 4 frames too many or too few, and a card 3-7 % slow
 * reads as losing frames.  The estimate is the mean of the middle half of
 * the slopes (time over frames) of pairs of frames @h apart among the last
 * IVTV_FRAME_GAP_WINDOW frames that came at their pace, @h the lag that
 * spans the most periods in all (half the window in one run), each pair
 * inside one run of frames without a hole: a hole's count never feeds the
 * period it is measured with, and a late frame is outvoted.  It is held
 * within 15 % of the nominal period (the nominal one until 3 frames
 * came); its standard error comes from the intervals' spread (their
 * interquartile range).
 *
 * The judgement: where the next frame should come is the last 16 window
 * frames' times carried on by that period: their median for CAPTURE (a
 * stamp is late or early by chance), their first eighth for ARRIVAL (a
 * read is only ever late).  A frame late by half a period (ARRIVAL: 7/8)
 * or more, and by more than 3 sigmas of the jitter, is that many frames
 * late, rounded; for CAPTURE, after a frame at its pace its own interval
 * must say as many (rounded).  Frames are missing when two frames in a
 * row that come at least half a period after the one before agree, the
 * fewer of the two: a frame late by chance (a stamp delayed, a reader
 * late), then one on time, is no loss; frames in a burst (from a
 * driver's queue after a stall, an emulator without pacing) are not
 * judged, nor put in the window.
 *
 * A long hole, early: a count of n frames is off by n times the period's
 * error, so a 2 s stall 12 frames into a capture of a jittery device
 * cannot be counted exactly at once.  When the count's error (its sigma,
 * in frames, taken 3 times over as the spread of a dozen intervals says
 * too little) is 0.2 frame or more, what is surely missing is counted at
 * once (the estimate less twice its error, at least 1: never more than
 * are missing) and the frames after the hole are judged on their own
 * grid until the two runs' distance settles the rest: when its error is
 * below 0.2 frame or 32 frames came, the rest is returned (with the same
 * hole time), at most twice the error held back and one more.  A restart
 * settles it at once.  A capture that ends before then has the surely
 * missing part counted only.
 *
 * A slow host: the stamps of usbtv and stk1160 are taken when the
 * driver handles the frame's last USB packet, so a guest that cannot
 * keep up (qemu TCG, a USB/IP link that queues) stamps frames late, each
 * a period or more later than the last, and then in a burst.  A hole is
 * therefore confirmed only by a frame that came at its pace (within 1.5
 * periods) after the one after the hole, and a frame is late only by
 * more than 3 sigmas of the frames' jitter.  Where the stamps say
 * nothing of the device's rate (a guest so loaded that frames come at
 * half the rate, late but none lost) no count from them can be right:
 * tests/vm's frames-loss check holds the count to the picture counters
 * only when the frames came within 10 % of the nominal rate.
 *
 * Where the hole is: before the frame fed before the one that returns
 * the count (the first of the two that agree; the rest of a long one
 * comes later still).  The count comes one frame late because a single
 * frame cannot tell "frames missing" from "this frame's time is late"
 * (usbtv and stk1160 stamp a frame when its last USB packet is handled,
 * ktime_get_ns in usbtv_image_chunk and stk1160_buffer_done, which a busy
 * host delays by a period or more; a read() is late whenever the reader
 * is): only the next frame's time says which.  A live source that wanted
 * the DISCONT flag and the offset jump on the frame right after the hole
 * would have to hold every frame that looks late for a period before
 * pushing it (a period of latency each time); the callers do not, and
 * say where the hole is (ivtv_frame_gap_hole_time) in their log and QoS
 * message instead.
 *
 * The times are, by kind:
 *  - CAPTURE (streaming): the driver's CLOCK_MONOTONIC buffer timestamps;
 *    frames made while the pipeline was paused are not judged
 *    (ivtv_frame_gap_clock);
 *  - ARRIVAL (read()): the running time when the frame was read (paused
 *    time is not in it).
 * Neither judges the first frame (a start, a reconnect: the caller makes
 * a new one or restarts it) nor frames around a pause the caller reports
 * (ivtv_frame_gap_clock); the period estimated so far is kept across
 * those. */
#ifndef __IVTV_FRAME_GAP_H__
#define __IVTV_FRAME_GAP_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* frames kept to estimate the period and predict the next frame */
#define IVTV_FRAME_GAP_WINDOW 64

typedef enum
{
  IVTV_FRAME_GAP_CAPTURE,
  IVTV_FRAME_GAP_ARRIVAL
} IvtvFrameGapKind;

typedef struct
{
  IvtvFrameGapKind kind;
  GstClockTime period;          /* nominal; NONE: unknown, nothing is judged */
  GstClockTime est;             /* the device's own period, estimated */
  GstClockTime est_err;         /* its standard error */
  GstClockTime jitter;          /* of a frame's time (a sigma) */
  GstClockTime prev;            /* the last frame's time (NONE: none yet) */
  GstClockTime ignore_before;   /* CAPTURE: frames of a pause */
  guint64 index;                /* the last frame's number, missing ones counted */
  gint64 last_d;                /* frames the last one said were missing (-1: not judged) */
  GstClockTime last_t;          /* that frame's time */
  GstClockTime hole_t;          /* the frame after the last hole counted */
  /* the window: frames that came at their pace, oldest first (a ring) */
  GstClockTime win_t[IVTV_FRAME_GAP_WINDOW];
  guint64 win_i[IVTV_FRAME_GAP_WINDOW];
  guint win_run[IVTV_FRAME_GAP_WINDOW];
  guint win_first, win_len;
  guint run;                    /* a new one after each gap, restart */
  /* a hole's count being settled (the frames after it on their own grid) */
  gboolean refining;
  guint pend_old, pend_run, pend_after;
  guint64 pend_max;             /* the most it may add */
  guint64 owed;                 /* frames found missing, to return */
  /* pause detection: the last (monotonic, running) times seen */
  GstClockTime last_mono, last_running;
} IvtvFrameGap;

void ivtv_frame_gap_init (IvtvFrameGap * g, IvtvFrameGapKind kind,
    GstClockTime period);

/* The next frame is the first of a new run: nothing before it is judged
 * (the period estimated so far is kept). */
void ivtv_frame_gap_restart (IvtvFrameGap * g);

/* Now is @mono (CLOCK_MONOTONIC) and the element's running time @running
 * (NONE: no clock).  When the monotonic clock moved on by more than half a
 * period (at least 20 ms) beyond the running time since the last call, the
 * pipeline was paused in between: frames captured before @mono are not
 * judged, nor is the first one after them.  TRUE when a pause was seen. */
gboolean ivtv_frame_gap_clock (IvtvFrameGap * g, GstClockTime mono,
    GstClockTime running);

/* The frame at @t (NONE: unknown, restarts): the frames found missing
 * (0 usually).  Non-zero: they are missing before the frame fed before
 * this one (ivtv_frame_gap_hole_time). */
guint64 ivtv_frame_gap_feed (IvtvFrameGap * g, GstClockTime t);

/* The time of the frame right after the last hole counted (the one fed
 * before the feed that counted it). */
GstClockTime ivtv_frame_gap_hole_time (const IvtvFrameGap * g);

/* The device's period as estimated (the nominal one until frames say
 * otherwise); NONE when nothing is judged. */
GstClockTime ivtv_frame_gap_period (const IvtvFrameGap * g);

/* @frames missing that the caller counted itself (a gap in the sequence
 * numbers): not found again.  Before the feed of the frame after them
 * (ivtvstream.c check_sequence: the sequence's gap first, then the times
 * for what the sequence did not show).  The frame numbers move on by
 * @frames; the run goes on (the count is exact, and the period may be
 * measured across it), and a count being settled goes on being settled. */
void ivtv_frame_gap_account (IvtvFrameGap * g, guint64 frames);

G_END_DECLS

#endif /* __IVTV_FRAME_GAP_H__ */
