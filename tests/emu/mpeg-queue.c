/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mpeg-queue.c - the finite encoder queue of an ivtv MPEG node, in offsets
 * of the engine's reference byte stream.
 *
 * ivtv keeps enc_mpg_buffers MB (IVTV_DEFAULT_ENC_MPG_BUFFERS = 4,
 * ivtv-driver.h) of 32 KiB buffers for the MPEG stream
 * (itv->stream_buf_size[IVTV_ENC_STREAM_TYPE_MPG] = 0x08000 in
 * ivtv_probe(), ivtv-driver.c).  The encoder fills them whether or not
 * anyone reads; read() drains them, oldest first (ivtv_dequeue() takes the
 * head of q_full, ivtv-queue.c).  When a DMA transfer finds no free buffer,
 * stream_enc_dma_append() (ivtv-irq.c) calls ivtv_queue_move(s, &s->q_free,
 * &s->q_full, &s->q_predma, bytes), which takes buffers back from the
 * *tail* of q_full (steal->list.prev: the newest full data, a whole
 * transfer) and logs once "All MPEG stream buffers are full. Dropping
 * data."  The buffer the reader is in the middle of (q_io) is never taken.
 *
 * Here one transfer is one 32 KiB buffer: buffer k holds the reference
 * bytes [k * 32 KiB, (k + 1) * 32 KiB).  The queue is the list of byte
 * ranges still held, each buffer-aligned except where the reader is (the
 * head) and where the encoder is (the tail); the gaps between ranges are
 * what was dropped.  emu_mpq_fill() replays, buffer by buffer, what the
 * card did since the last look, so the state is exact however rarely the
 * reader calls. */
#include "mpeg-queue.h"

#include <stdlib.h>
#include <string.h>

/* buffers (slots) the range [a, b) occupies */
static uint64_t
slots (uint64_t a, uint64_t b)
{
  if (b <= a)
    return 0;
  return (b + EMU_MPQ_BUF - 1) / EMU_MPQ_BUF - a / EMU_MPQ_BUF;
}

static uint64_t
used (const struct emu_mpq *q)
{
  uint64_t n = 0;
  size_t i;

  for (i = 0; i < q->n; i++)
    n += slots (q->seg[i].start, q->seg[i].end);
  return n;
}

void
emu_mpq_reset (struct emu_mpq *q, uint64_t at, uint64_t bytes)
{
  uint64_t nbufs = bytes / EMU_MPQ_BUF;

  q->nbufs = nbufs < 2 ? 2 : nbufs;
  q->produced = at;
  q->n = 0;
  q->stealing = false;
}

void
emu_mpq_free (struct emu_mpq *q)
{
  free (q->seg);
  memset (q, 0, sizeof (*q));
}

static bool
push (struct emu_mpq *q, uint64_t start, uint64_t end)
{
  if (q->n == q->cap) {
    size_t cap = q->cap ? q->cap * 2 : 16;
    void *s = realloc (q->seg, cap * sizeof (*q->seg));

    if (!s)
      return false;
    q->seg = s;
    q->cap = cap;
  }
  q->seg[q->n].start = start;
  q->seg[q->n].end = end;
  q->n++;
  return true;
}

/* no free buffer for the transfer about to start: take back the newest
 * full buffer (never the reader's partly read one) */
static uint64_t
steal (struct emu_mpq *q)
{
  struct emu_mpq_seg *last = &q->seg[q->n - 1];
  uint64_t from = last->end - EMU_MPQ_BUF;

  if (q->n == 1 && from < last->start)
    return 0;                   /* only the reader's buffer is left */
  if (from < last->start)
    from = last->start;         /* cannot happen: ranges are aligned */
  last->end = from;
  if (last->end == last->start)
    q->n--;
  return EMU_MPQ_BUF;
}

uint64_t
emu_mpq_fill (struct emu_mpq *q, uint64_t upto)
{
  uint64_t lost = 0;

  while (q->produced < upto) {
    uint64_t p = q->produced;
    uint64_t next = (p / EMU_MPQ_BUF + 1) * EMU_MPQ_BUF;
    uint64_t stolen = 0;

    if (next > upto)
      next = upto;
    if (p % EMU_MPQ_BUF == 0 && q->n > 0 && used (q) >= q->nbufs)
      stolen = steal (q);
    lost += stolen;
    if (p % EMU_MPQ_BUF == 0) {
      if (stolen && !q->stealing)
        q->episodes++;          /* ivtv warns once per episode */
      q->stealing = stolen > 0;
    }
    if (q->n > 0 && q->seg[q->n - 1].end == p)
      q->seg[q->n - 1].end = next;
    else if (!push (q, p, next))
      break;                    /* out of memory: the data is lost */
    q->produced = next;
  }
  return lost;
}

uint64_t
emu_mpq_head (const struct emu_mpq *q)
{
  return q->n ? q->seg[0].end - q->seg[0].start : 0;
}

uint64_t
emu_mpq_consume (struct emu_mpq *q, uint64_t n)
{
  uint64_t gap = 0;

  if (q->n == 0)
    return 0;
  q->seg[0].start += n;
  if (q->seg[0].start >= q->seg[0].end) {
    uint64_t end = q->seg[0].end;

    memmove (q->seg, q->seg + 1, (q->n - 1) * sizeof (*q->seg));
    q->n--;
    if (q->n > 0)
      gap = q->seg[0].start - end;
  }
  return gap;
}
