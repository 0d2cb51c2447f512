/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mpeg-queue.h - the finite encoder queue of the MPEG engine (mpeg-queue.c):
 * ranges of the reference byte stream the driver still holds. */
#ifndef IVTV_EMU_MPEG_QUEUE_H
#define IVTV_EMU_MPEG_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ivtv's MPEG buffer: stream_buf_size[IVTV_ENC_STREAM_TYPE_MPG] = 0x08000 */
#define EMU_MPQ_BUF 32768u
/* IVTV_DEFAULT_ENC_MPG_BUFFERS: 4 MB */
#define EMU_MPQ_DEFAULT_KB 4096u

struct emu_mpq_seg
{
  uint64_t start, end;          /* reference stream offsets held */
};

struct emu_mpq
{
  uint64_t nbufs;               /* capacity in buffers (>= 2) */
  uint64_t produced;            /* the encoder has made [0, produced) */
  struct emu_mpq_seg *seg;      /* held ranges, oldest first */
  size_t n, cap;
  bool stealing;                /* the last transfer had to steal */
  uint64_t episodes;            /* times stealing started */
};

/* empty queue of `bytes` (whole buffers, at least 2) whose encoder starts
 * at reference offset `at` */
void emu_mpq_reset (struct emu_mpq *q, uint64_t at, uint64_t bytes);
void emu_mpq_free (struct emu_mpq *q);
/* the encoder has produced up to offset `upto`: queue it, stealing the
 * newest full buffers when none is free; returns the bytes dropped */
uint64_t emu_mpq_fill (struct emu_mpq *q, uint64_t upto);
/* bytes the reader can take at its position (the head range) */
uint64_t emu_mpq_head (const struct emu_mpq *q);
/* the reader took n (<= head) bytes; returns the bytes to skip to the
 * next held range when the head range is used up (a gap), else 0 */
uint64_t emu_mpq_consume (struct emu_mpq *q, uint64_t n);

#endif
