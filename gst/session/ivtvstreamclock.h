/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — what the driver dropped, found from the stream itself: a pure
 * parser (no GStreamer, no device) that reads only the headers of an MPEG
 * stream as it arrives, in buffers of any size cut anywhere, and reports
 * each place where the stream's own clock says bytes are missing.
 *
 * Why: ivtv (and cx18, pvrusb2) drop whole DMA transfers when their queue
 * is full ("All MPEG stream buffers are full. Dropping data.",
 * stream_enc_dma_append() in drivers/media/pci/ivtv/ivtv-irq.c) and never
 * tell the reader.  The stream carries its own clock, so the reader can.
 *
 * Program stream (MPEG-2 and MPEG-1 packs): for each pack, the SCR and
 * program_mux_rate; the bytes between two packs at the mux rate explain
 * part of the SCR's advance.  A variable-rate mux also pauses on purpose
 * (its SCR jumps while the decoder's buffer is full), so an unexplained
 * advance J is checked against the timestamps (DTS, else PTS) of the PES
 * headers of the audio and video streams (0xC0-0xEF, 0xBD): in a pause
 * the next timestamp of a stream does not move with the SCR (its lead
 * over the SCR shrinks by J); after a loss it moves with it.  The time
 * lost is J plus the change of the lead of the first stream heard from
 * after the jump (audio, with a PTS every few packs, serves a DVD stream
 * whose video has one per GOP); losses shorter than
 * IVTV_STREAM_CLOCK_PS_MIN_LOSS_NS are within the mux's own jitter and
 * are not reported (measured on the emulator's mplex streams with video
 * leads alone: at most 16 ms on pictures, 77 ms on black, whose pictures
 * share PES packets; one 32 KiB transfer of a 6 Mbit/s stream is about
 * 45 ms).  The bytes lost: J at the stream's average rate before the gap
 * (at most at the mux rate).  Only pack and PES headers are read:
 * payloads are skipped by their lengths.
 *
 * Transport stream (188-byte packets): the 4-bit continuity counter of
 * every PID with payload (a repeated counter is a duplicate; the
 * discontinuity_indicator excuses a jump) and the PCR.  One event per
 * gap: the first packet of each PID after it reports the same gap.  The
 * bytes lost are the packets the counters miss (at least; a counter wraps
 * every 16), or the PCR's advance beyond the bytes at the rate of the
 * previous PCR interval when that is more; a lost sync byte (a cut that
 * is not a whole number of packets) is a gap too.
 *
 * Use: one IvtvStreamClock per stream; feed it every byte in order;
 * reset it when the stream starts again (a new capture: the clock starts
 * over).  A clock that runs backwards is taken as such a new start.
 */
#ifndef IVTV_STREAM_CLOCK_H
#define IVTV_STREAM_CLOCK_H

#include <glib.h>

G_BEGIN_DECLS

/* shorter losses in a program stream are within a VBR mux's jitter */
#define IVTV_STREAM_CLOCK_PS_MIN_LOSS_NS (100 * G_GUINT64_CONSTANT (1000000))

typedef enum
{
  IVTV_STREAM_CLOCK_AUTO,       /* from the first bytes: 0x47 TS, 00 00 01 BA PS */
  IVTV_STREAM_CLOCK_PS,
  IVTV_STREAM_CLOCK_TS
} IvtvStreamClockFormat;

/* one place where bytes are missing */
typedef struct
{
  guint64 offset;               /* bytes fed before the first byte after the gap */
  guint64 stream_time;          /* ns: the stream's clock there, from its first value */
  guint64 bytes;                /* estimated bytes missing */
  guint64 duration;             /* ns of stream time missing (0 if unknown) */
} IvtvStreamLoss;

typedef struct _IvtvStreamClock IvtvStreamClock;

IvtvStreamClock *ivtv_stream_clock_new (IvtvStreamClockFormat format);
void ivtv_stream_clock_free (IvtvStreamClock * sc);

/* Reads @len bytes that follow those fed before.  Returns the number of
 * losses found in them (usually 0) and points *@losses at them; they stay
 * valid until the next call on @sc.  @losses may be NULL. */
guint ivtv_stream_clock_feed (IvtvStreamClock * sc, const guint8 * data,
    gsize len, const IvtvStreamLoss ** losses);

/* Forget everything: the next byte fed is the first of a new stream. */
void ivtv_stream_clock_reset (IvtvStreamClock * sc);

/* The format found (AUTO until it is known). */
IvtvStreamClockFormat ivtv_stream_clock_format (const IvtvStreamClock * sc);

/* Bytes skipped looking for a header (after a cut, or before the first). */
guint64 ivtv_stream_clock_resyncs (const IvtvStreamClock * sc);

G_END_DECLS

#endif /* IVTV_STREAM_CLOCK_H */
