/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — losses found from the stream's own clock (see
 * ivtvstreamclock.h for the method): an incremental reader of MPEG
 * program-stream pack and PES headers and of transport-stream packet
 * headers, which skips every payload by its length, and the bookkeeping
 * of SCR/PCR, the timestamps' lead and the continuity counters. */
#include "ivtvstreamclock.h"

#include <string.h>

#define HDR_MAX 48
#define TS_PACKET 188
#define TS_MAX_PIDS 32
/* 33-bit 90 kHz base times 300: the 27 MHz clock's range */
#define CLOCK_RANGE (G_GUINT64_CONSTANT (1) << 33) * 300
#define TICKS_PER_MS 27000
/* an SCR advance the bytes do not explain by more than this is looked at */
#define PS_SLACK_TICKS (TICKS_PER_MS / 2)
/* a pause with no video timestamp this long after it is judged alone */
#define PS_PENDING_MAX_TICKS (G_GINT64_CONSTANT (27000000))
/* a TS gap is closed when every PID came back and a PCR told the time
 * missing, or after this many packets (a PCR comes every 100 ms at most:
 * ISO/IEC 13818-1 2.7.2; 1024 packets are 250 ms at 6 Mbit/s) */
#define TS_GAP_PACKETS 1024
/* elementary streams whose timestamps are followed: 0xC0-0xEF (audio,
 * video) in slots 0-47, 0xBD (private 1: AC-3, LPCM) in 48 */
#define PES_SLOTS 49
#define PES_SLOT(sid) ((sid) == 0xbd ? 48 : (gint) (sid) - 0xc0)

typedef struct
{
  guint16 pid;
  gint8 cc;                     /* -1: no payload packet yet */
  guint64 last_pos;             /* where its last packet began */
} TsPid;

struct _IvtvStreamClock
{
  IvtvStreamClockFormat want, format;
  GArray *out;
  guint64 pos;                  /* bytes fed */
  guint64 skip;                 /* payload bytes still to skip */
  guint8 hdr[HDR_MAX];
  guint hdr_len, hdr_want;
  guint64 hdr_pos;              /* where the header being read began */
  gboolean synced;
  guint32 scan;                 /* the last bytes seen while scanning */
  guint64 resync_bytes;
  gboolean lost_sync;           /* bytes were skipped since the last header */

  /* the clock (27 MHz): SCR or PCR */
  gboolean have_clock;
  guint64 clock, clock_pos;     /* the last value and where it was */
  guint64 first_pos;
  guint64 elapsed;              /* ticks since the first value */
  guint64 lost_ticks;           /* of those, reported lost */
  guint64 lost_bytes;           /* bytes reported lost */

  /* PS */
  guint32 mux_rate;             /* units of 50 bytes/s */
  /* per elementary stream (PES_SLOT): its last DTS/PTS minus the SCR */
  gint64 lead[PES_SLOTS];
  guint64 lead_ok;              /* bit per slot */
  gboolean pending;
  gint64 pending_j, pending_lead[PES_SLOTS];
  guint64 pending_ok;
  guint64 pending_pos, pending_elapsed;

  /* TS */
  TsPid pids[TS_MAX_PIDS];
  guint n_pids;
  guint8 pid_slot[8192];        /* index in pids + 1; 0: not seen */
  gboolean gap;
  guint64 gap_pos, gap_elapsed, gap_bytes;
  guint gap_packets, gap_back;
  gboolean gap_pcr;             /* a PCR came after the gap */
};

/* ---- small helpers ---- */

/* a - b on the clock's circle, both in its range (no division: this runs
 * for every pack and timestamp) */
static gint64
clock_diff (guint64 a, guint64 b)
{
  guint64 range = CLOCK_RANGE;
  guint64 d = a >= b ? a - b : a + range - b;

  return d > range / 2 ? (gint64) d - (gint64) range : (gint64) d;
}

static guint64
ticks_to_ns (guint64 t)
{
  return t * 1000 / 27;
}

/* average bytes per tick of what arrived so far; 0 if unknown */
static gdouble
byte_rate (IvtvStreamClock * sc)
{
  guint64 t = sc->elapsed > sc->lost_ticks ? sc->elapsed - sc->lost_ticks : 0;

  if (t < TICKS_PER_MS * 10)
    return 0;
  return (gdouble) (sc->clock_pos - sc->first_pos) / t;
}

static void
emit (IvtvStreamClock * sc, guint64 pos, guint64 elapsed, guint64 bytes,
    guint64 ticks)
{
  IvtvStreamLoss l;

  l.offset = pos;
  l.stream_time = ticks_to_ns (elapsed);
  l.bytes = bytes;
  l.duration = ticks_to_ns (ticks);
  sc->lost_ticks += ticks;
  sc->lost_bytes += bytes;
  g_array_append_val (sc->out, l);
}

/* a new value of the stream's clock at @pos; the advance in ticks, or -1
 * when it is the first or ran backwards (a new start: counted from here) */
static gint64
clock_advance (IvtvStreamClock * sc, guint64 clock, guint64 pos)
{
  gint64 d = sc->have_clock ? clock_diff (clock, sc->clock) : -1;

  if (!sc->have_clock)
    sc->first_pos = pos;
  sc->have_clock = TRUE;
  sc->clock = clock;
  if (d < 0) {
    sc->pending = FALSE;
    sc->lead_ok = 0;
    return -1;
  }
  sc->elapsed += d;
  return d;
}

/* ---- program stream ---- */

/* The pause (or loss) is over: the time lost is the SCR's unexplained
 * advance plus the change of a stream's lead; the bytes, the SCR's
 * unexplained advance at the stream's average rate before the gap (at
 * most at the mux rate) */
static void
ps_resolve (IvtvStreamClock * sc, gint64 lead_change)
{
  gint64 lost = sc->pending_j + lead_change;
  guint64 t = sc->pending_elapsed - sc->lost_ticks, bytes;
  gdouble rate = t > 0 ? (gdouble) (sc->pending_pos - sc->first_pos) / t : 0;

  sc->pending = FALSE;
  if (lost <= 0 || ticks_to_ns (lost) < IVTV_STREAM_CLOCK_PS_MIN_LOSS_NS)
    return;
  bytes = (guint64) (sc->pending_j * rate + 0.5);
  if (sc->mux_rate > 0)
    bytes = MIN (bytes, (guint64) (sc->pending_j * (sc->mux_rate * 50.0)
            / 27000000.0 + 0.5));
  emit (sc, sc->pending_pos, sc->pending_elapsed, bytes, lost);
}

/* The SCR's advance @d (ticks) less what @bytes take at the mux rate
 * (bytes * 27e6 / (mux_rate * 50) = bytes * 540000 / mux_rate ticks), or
 * 0 when that is within PS_SLACK_TICKS.  Every pack asks: the common
 * answer (within the slack) is found by two products, without the
 * division; the values are held under 2^40 so that they cannot overflow
 * (a pack is a few KiB after the last; an advance beyond 2^40 ticks, 11
 * hours, or that many bytes, is computed the long way). */
static gint64
ps_unexplained (guint64 bytes, gint64 d, guint32 mux_rate)
{
  const guint64 lim = G_GUINT64_CONSTANT (1) << 40;

  if (d <= PS_SLACK_TICKS)
    return 0;
  if (bytes < lim && (guint64) d < lim
      && (guint64) (d - PS_SLACK_TICKS) * mux_rate <= bytes * 540000)
    return 0;                   /* bytes * 540000 / mux_rate >= d - slack */
  d -= (gint64) (bytes * 27000000.0 / (mux_rate * 50.0));
  return d > PS_SLACK_TICKS ? d : 0;
}

static void
ps_pack (IvtvStreamClock * sc, guint64 scr, guint32 mux_rate)
{
  guint64 bytes = sc->hdr_pos - sc->clock_pos;
  gint64 d = clock_advance (sc, scr, sc->hdr_pos), unexplained;

  if (d >= 0 && sc->mux_rate > 0) {
    unexplained = ps_unexplained (bytes, d, sc->mux_rate);
    if (unexplained > 0) {
      if (!sc->pending) {
        sc->pending = TRUE;
        sc->pending_j = 0;
        sc->pending_pos = sc->hdr_pos;
        sc->pending_elapsed = sc->elapsed - d;
        sc->pending_ok = sc->lead_ok;
        memcpy (sc->pending_lead, sc->lead, sizeof (sc->lead));
      }
      sc->pending_j += unexplained;
    }
    if (sc->pending && (sc->pending_ok == 0
            || (gint64) (sc->elapsed - sc->pending_elapsed) >
            PS_PENDING_MAX_TICKS))
      ps_resolve (sc, 0);
  }
  sc->clock_pos = sc->hdr_pos;
  if (mux_rate > 0)
    sc->mux_rate = mux_rate;
}

/* a timestamp of the stream in @slot: the first one after a pause (or
 * loss) tells, by how its lead over the SCR changed, which it was */
static void
ps_timestamp (IvtvStreamClock * sc, gint slot, guint64 ts90k)
{
  gint64 lead;

  if (!sc->have_clock || slot < 0 || slot >= PES_SLOTS)
    return;
  lead = clock_diff (ts90k * 300, sc->clock);
  if (sc->pending && (sc->pending_ok & (G_GUINT64_CONSTANT (1) << slot)))
    ps_resolve (sc, lead - sc->pending_lead[slot]);
  sc->lead[slot] = lead;
  sc->lead_ok |= G_GUINT64_CONSTANT (1) << slot;
}

static guint64
pes_ts (const guint8 * p)
{
  return ((guint64) (p[0] >> 1) & 7) << 30 | (guint64) p[1] << 22 |
      (guint64) (p[2] >> 1) << 15 | (guint64) p[3] << 7 | p[4] >> 1;
}

/* a PES header of a followed stream, @n of its bytes at @h (the bytes
 * after them may be anything): its DTS, else PTS, if complete */
static void
ps_pes (IvtvStreamClock * sc, const guint8 * h, guint n)
{
  gint slot = PES_SLOT (h[3]);
  guint i = 6;

  if ((h[6] >> 6) == 2) {       /* MPEG-2 */
    if ((h[7] & 0xc0) == 0xc0 && n >= 19)
      ps_timestamp (sc, slot, pes_ts (h + 14));
    else if ((h[7] & 0x80) && n >= 14)
      ps_timestamp (sc, slot, pes_ts (h + 9));
    return;
  }
  while (i < n && h[i] == 0xff) /* MPEG-1 stuffing */
    i++;
  if (i + 2 <= n && (h[i] >> 6) == 1)
    i += 2;                     /* STD buffer */
  if (i + 10 <= n && (h[i] >> 4) == 3)
    ps_timestamp (sc, slot, pes_ts (h + i + 5));
  else if (i + 5 <= n && (h[i] >> 4) == 2)
    ps_timestamp (sc, slot, pes_ts (h + i));
}

/* the pack header at @h, 14 bytes (MPEG-2) */
static inline void
ps_pack_mpeg2 (IvtvStreamClock * sc, const guint8 * h)
{
  guint64 scr = ((guint64) (h[4] >> 3) & 7) << 30 |
      (guint64) (h[4] & 3) << 28 | (guint64) h[5] << 20 |
      (guint64) (h[6] >> 3) << 15 | (guint64) (h[6] & 3) << 13 |
      (guint64) h[7] << 5 | h[8] >> 3;

  ps_pack (sc, scr * 300 + (((h[8] & 3) << 7) | (h[9] >> 1)),
      (h[10] << 14) | (h[11] << 6) | (h[12] >> 2));
}

/* the pack header at @h, 12 bytes (MPEG-1) */
static inline void
ps_pack_mpeg1 (IvtvStreamClock * sc, const guint8 * h)
{
  ps_pack (sc, pes_ts (h + 4) * 300,
      ((h[9] & 0x7f) << 15) | (h[10] << 7) | (h[11] >> 1));
}

/* the header in hdr is as long as hdr_want: read it, or want more.
 * FALSE when the bytes are no header (the sync is lost) */
static gboolean
ps_header (IvtvStreamClock * sc)
{
  const guint8 *h = sc->hdr;
  guint sid = h[3], len;
  gboolean followed;

  if (h[0] || h[1] || h[2] != 1 || sid < 0xb9)
    return FALSE;
  if (sid == 0xb9)
    return TRUE;
  if (sid == 0xba) {
    if (sc->hdr_len == 4) {
      sc->hdr_want = 12;
      return TRUE;
    }
    if ((h[4] >> 6) == 1 && sc->hdr_want == 12) {       /* MPEG-2: 14 */
      sc->hdr_want = 14;
      return TRUE;
    }
    if ((h[4] >> 6) == 1) {
      ps_pack_mpeg2 (sc, h);
      sc->skip = h[13] & 7;
    } else if ((h[4] >> 4) == 2) {      /* MPEG-1 */
      ps_pack_mpeg1 (sc, h);
    } else {
      return FALSE;
    }
    return TRUE;
  }
  if (sc->hdr_len == 4) {
    sc->hdr_want = 6;
    return TRUE;
  }
  len = (h[4] << 8) | h[5];
  if (len == 0)                 /* unbounded: not in a program stream */
    return FALSE;
  followed = sid >= 0xc0 || sid == 0xbd;
  if (followed && sc->hdr_want == 6) {
    sc->hdr_want = MIN (6 + len, (guint) HDR_MAX);
    return TRUE;
  }
  if (followed)
    ps_pes (sc, h, sc->hdr_len);
  sc->skip = 6 + len - sc->hdr_len;
  return TRUE;
}

/* ---- transport stream ---- */

static TsPid *
ts_pid (IvtvStreamClock * sc, guint pid)
{
  if (sc->pid_slot[pid])
    return &sc->pids[sc->pid_slot[pid] - 1];
  if (sc->n_pids == TS_MAX_PIDS)
    return NULL;
  sc->pid_slot[pid] = sc->n_pids + 1;
  sc->pids[sc->n_pids].pid = pid;
  sc->pids[sc->n_pids].cc = -1;
  sc->pids[sc->n_pids].last_pos = 0;
  return &sc->pids[sc->n_pids++];
}

static void
ts_gap_close (IvtvStreamClock * sc)
{
  gdouble rate = byte_rate (sc);

  sc->gap = FALSE;
  emit (sc, sc->gap_pos, sc->gap_elapsed, sc->gap_bytes,
      rate > 0 ? (guint64) (sc->gap_bytes / rate) : 0);
}

/* bytes missing before this packet (of @p): the gap open, or a new one */
static void
ts_missing (IvtvStreamClock * sc, TsPid * p, guint64 bytes)
{
  if (sc->gap && p->last_pos < sc->gap_pos) {
    sc->gap_bytes = MAX (sc->gap_bytes, bytes);
    return;
  }
  if (sc->gap)
    ts_gap_close (sc);
  sc->gap = TRUE;
  sc->gap_pos = sc->hdr_pos;
  sc->gap_elapsed = sc->elapsed;
  sc->gap_bytes = bytes;
  sc->gap_packets = 0;
  sc->gap_back = 0;
  sc->gap_pcr = !sc->have_clock;
}

static void
ts_pcr (IvtvStreamClock * sc, const guint8 * a)
{
  guint64 base = (guint64) a[0] << 25 | (guint64) a[1] << 17 |
      (guint64) a[2] << 9 | (guint64) a[3] << 1 | a[4] >> 7;
  guint64 pcr = base * 300 + (((a[4] & 1) << 8) | a[5]);
  guint64 bytes = sc->hdr_pos - sc->clock_pos;
  gdouble rate = byte_rate (sc);
  gint64 d = clock_advance (sc, pcr, sc->hdr_pos), excess;

  if (d > 0 && rate > 0 && sc->gap) {
    excess = d - (gint64) (bytes / rate);
    if (ticks_to_ns (MAX (excess, 0)) >= IVTV_STREAM_CLOCK_PS_MIN_LOSS_NS)
      sc->gap_bytes = MAX (sc->gap_bytes, (guint64) (excess * rate));
  }
  if (sc->gap)
    sc->gap_pcr = TRUE;
  sc->clock_pos = sc->hdr_pos;
}

/* the packet's first bytes; FALSE when it does not start with 0x47 */
static gboolean
ts_header (IvtvStreamClock * sc)
{
  const guint8 *h = sc->hdr;
  guint afc = (h[3] >> 4) & 3, pid = ((h[1] & 0x1f) << 8) | h[2];
  gboolean disc = FALSE;
  TsPid *p;

  if (h[0] != 0x47)
    return FALSE;
  if ((afc & 2) && sc->hdr_len == 4) {
    sc->hdr_want = 6;
    return TRUE;
  }
  if ((afc & 2) && h[4] > 0 && (h[5] & 0x10) && sc->hdr_want == 6) {
    sc->hdr_want = 12;
    return TRUE;
  }
  if ((afc & 2) && h[4] > 0)
    disc = (h[5] & 0x80) != 0;
  sc->skip = TS_PACKET - sc->hdr_len;
  if (pid == 0x1fff || (p = ts_pid (sc, pid)) == NULL)
    return TRUE;
  if (sc->lost_sync)            /* a cut inside a packet */
    ts_missing (sc, p, TS_PACKET);
  if ((afc & 1) && p->cc >= 0 && !disc && (h[3] & 15) != p->cc
      && (h[3] & 15) != ((p->cc + 1) & 15))
    ts_missing (sc, p, (guint64) (((h[3] & 15) - p->cc - 1) & 15) * TS_PACKET);
  if (sc->hdr_len == 12)        /* after the counters: it may time a gap */
    ts_pcr (sc, h + 6);
  if (sc->gap && p->last_pos < sc->gap_pos)
    sc->gap_back++;
  if (afc & 1)
    p->cc = h[3] & 15;
  p->last_pos = sc->hdr_pos;
  if (sc->gap && (++sc->gap_packets >= TS_GAP_PACKETS
          || (sc->gap_back >= sc->n_pids && sc->gap_pcr)))
    ts_gap_close (sc);
  return TRUE;
}

/* ---- the byte loop ---- */

/* Whole packets at the start of @data (the sync kept, no header begun):
 * each read in place, the payload not touched.  Returns the bytes
 * taken (0: not a whole packet that starts with the sync byte). */
static gsize
ts_packets (IvtvStreamClock * sc, const guint8 * data, gsize len)
{
  gsize i = 0;

  while (len - i >= TS_PACKET && data[i] == 0x47) {
    const guint8 *p = data + i;
    guint n = 4;

    if (p[3] & 0x20)            /* adaptation field: its flags, its PCR */
      n = p[4] > 0 && (p[5] & 0x10) ? 12 : 6;
    memcpy (sc->hdr, p, 12);    /* a constant size: two moves */
    sc->hdr_len = sc->hdr_want = n;
    sc->hdr_pos = sc->pos;
    ts_header (sc);
    sc->lost_sync = FALSE;
    sc->skip = 0;
    sc->hdr_len = 0;
    sc->hdr_want = 4;
    sc->pos += TS_PACKET;
    i += TS_PACKET;
  }
  return i;
}

static void
start_header (IvtvStreamClock * sc, guint want)
{
  sc->hdr_len = 0;
  sc->hdr_want = want;
  sc->hdr_pos = sc->pos;
}

/* Whole headers of a program stream at the start of @data (the sync
 * kept, no header begun, nothing to skip), each read in place as
 * ps_header reads it staged, the payloads skipped by their lengths: the
 * detector's common case, one pass over a pack's 20-odd header bytes.
 * Stops at the end of @data (the rest of a payload left in skip), where
 * fewer than HDR_MAX bytes are left for a header, or at bytes that are no
 * header (left to the general path, which loses the sync there).
 * Returns the bytes taken. */
static gsize
ps_packs (IvtvStreamClock * sc, const guint8 * data, gsize len)
{
  gsize i = 0, n, last_pack = 0, stride = 0;

  while (len - i >= HDR_MAX) {
    const guint8 *h = data + i;
    guint sid = h[3], plen;

    /* the packs ahead, if they are as long as the last one: loaded while
     * these are read (each header is the first touch of its line, and
     * where the next one is depends on this one) */
    if (stride > 0 && len - i > 4 * stride)
      __builtin_prefetch (h + 4 * stride);
    if (h[0] || h[1] || h[2] != 1 || sid < 0xb9)
      break;
    sc->hdr_pos = sc->pos;
    if (sid == 0xba) {
      stride = i - last_pack;
      last_pack = i;
    }
    if (sid == 0xba && (h[4] >> 6) == 1) {
      ps_pack_mpeg2 (sc, h);
      n = 14 + (h[13] & 7);
    } else if (sid == 0xba && (h[4] >> 4) == 2) {
      ps_pack_mpeg1 (sc, h);
      n = 12;
    } else if (sid == 0xba) {
      break;
    } else if (sid == 0xb9) {
      n = 4;
    } else {
      plen = (h[4] << 8) | h[5];
      if (plen == 0)            /* unbounded: not in a program stream */
        break;
      if (sid >= 0xc0 || sid == 0xbd)
        ps_pes (sc, h, MIN (6 + plen, (guint) HDR_MAX));
      n = 6 + plen;
    }
    sc->lost_sync = FALSE;
    if (n > len - i) {          /* the payload goes on in the next buffer */
      sc->skip = n - (len - i);
      sc->hdr_len = 0;
      sc->pos += len - i;
      return len;
    }
    sc->pos += n;
    i += n;
  }
  if (i > 0)
    start_header (sc, 4);
  return i;
}

/* one byte while looking for a header; TRUE when one begins here */
static gboolean
scan_byte (IvtvStreamClock * sc, guint8 b)
{
  sc->scan = sc->scan << 8 | b;
  if (sc->format == IVTV_STREAM_CLOCK_AUTO && b == 0x47 && sc->pos == 0)
    sc->format = IVTV_STREAM_CLOCK_TS;
  if (sc->format == IVTV_STREAM_CLOCK_AUTO && sc->scan == 0x000001ba)
    sc->format = IVTV_STREAM_CLOCK_PS;
  if (sc->format == IVTV_STREAM_CLOCK_TS && b == 0x47) {
    start_header (sc, 4);
    sc->hdr[sc->hdr_len++] = b;
    return TRUE;
  }
  if (sc->format == IVTV_STREAM_CLOCK_PS && sc->scan == 0x000001ba) {
    start_header (sc, 4);
    sc->hdr_pos = sc->pos - 3;
    memcpy (sc->hdr, "\x00\x00\x01\xba", 4);
    sc->hdr_len = 4;
    sc->resync_bytes -= MIN (sc->resync_bytes, 3);      /* they are the header's */
    return TRUE;
  }
  sc->resync_bytes++;
  return FALSE;
}

/* the bytes read as a header are none: look for the next one from the
 * second of them on */
static void
lose_sync (IvtvStreamClock * sc)
{
  guint8 again[HDR_MAX];
  guint n = sc->hdr_len - 1, k;
  guint64 end = sc->pos;

  memcpy (again, sc->hdr + 1, n);
  sc->synced = FALSE;
  sc->lost_sync = TRUE;
  sc->scan = 0;
  sc->resync_bytes++;
  sc->hdr_len = 0;
  for (k = 0; k < n; k++) {
    sc->pos = end - n + k;
    if (sc->synced)
      sc->hdr[sc->hdr_len++] = again[k];
    else
      sc->synced = scan_byte (sc, again[k]);
  }
  sc->pos = end;
}

/* A header that begins at @data, with at least HDR_MAX bytes there: read
 * as the bytewise path would, each part as the parser asks for it.
 * Returns the bytes it took; *@ok FALSE when they were no header. */
static gsize
header_in_place (IvtvStreamClock * sc, const guint8 * data, gboolean * ok)
{
  guint want;

  memcpy (sc->hdr, data, HDR_MAX);      /* a constant size: inlined */
  sc->hdr_pos = sc->pos;
  do {
    want = sc->hdr_want;
    sc->hdr_len = want;
    *ok = sc->format == IVTV_STREAM_CLOCK_TS ? ts_header (sc) :
        ps_header (sc);
  } while (*ok && sc->hdr_want > want);
  sc->pos += sc->hdr_len;
  if (*ok) {                    /* done with it */
    sc->lost_sync = FALSE;
    if (sc->skip == 0)
      start_header (sc, 4);
    else
      sc->hdr_len = 0;
  }
  return want;
}

guint
ivtv_stream_clock_feed (IvtvStreamClock * sc, const guint8 * data, gsize len,
    const IvtvStreamLoss ** losses)
{
  gsize i = 0;
  gboolean ok;

  g_array_set_size (sc->out, 0);
  while (i < len) {
    if (sc->skip > 0) {
      gsize n = MIN (sc->skip, len - i);

      sc->skip -= n;
      sc->pos += n;
      i += n;
      if (sc->skip == 0)
        start_header (sc, 4);
      continue;
    }
    if (!sc->synced) {
      sc->synced = scan_byte (sc, data[i++]);
      sc->pos++;
      continue;
    }
    if (sc->hdr_len == 0 && sc->format == IVTV_STREAM_CLOCK_PS) {
      gsize n = ps_packs (sc, data + i, len - i);

      i += n;
      if (n > 0)
        continue;
    }
    if (sc->hdr_len == 0 && sc->format == IVTV_STREAM_CLOCK_TS) {
      gsize n = ts_packets (sc, data + i, len - i);

      i += n;
      if (n > 0)
        continue;
    }
    if (sc->hdr_len == 0 && len - i >= HDR_MAX) {
      /* the whole header is here: read it without staging it bytewise */
      gsize n = header_in_place (sc, data + i, &ok);

      i += n;
      if (!ok)
        lose_sync (sc);
      continue;
    }
    if (sc->hdr_len == 0)
      sc->hdr_pos = sc->pos;
    if (sc->hdr_len < sc->hdr_want) {
      gsize n = MIN (sc->hdr_want - sc->hdr_len, len - i);

      memcpy (sc->hdr + sc->hdr_len, data + i, n);
      sc->hdr_len += n;
      sc->pos += n;
      i += n;
    }
    if (sc->hdr_len < sc->hdr_want)
      break;
    ok = sc->format == IVTV_STREAM_CLOCK_TS ? ts_header (sc) : ps_header (sc);
    if (!ok) {
      lose_sync (sc);
      continue;
    }
    if (sc->hdr_len >= sc->hdr_want) {  /* done with it */
      sc->lost_sync = FALSE;
      if (sc->skip == 0)
        start_header (sc, 4);
    }
  }
  if (losses)
    *losses = (const IvtvStreamLoss *) sc->out->data;
  return sc->out->len;
}

IvtvStreamClock *
ivtv_stream_clock_new (IvtvStreamClockFormat format)
{
  IvtvStreamClock *sc = g_new0 (IvtvStreamClock, 1);

  sc->want = format;
  sc->out = g_array_new (FALSE, FALSE, sizeof (IvtvStreamLoss));
  ivtv_stream_clock_reset (sc);
  return sc;
}

void
ivtv_stream_clock_free (IvtvStreamClock * sc)
{
  if (sc == NULL)
    return;
  g_array_unref (sc->out);
  g_free (sc);
}

void
ivtv_stream_clock_reset (IvtvStreamClock * sc)
{
  GArray *out = sc->out;
  IvtvStreamClockFormat want = sc->want;

  memset (sc, 0, sizeof (*sc));
  sc->out = out;
  g_array_set_size (sc->out, 0);
  sc->want = sc->format = want;
}

IvtvStreamClockFormat
ivtv_stream_clock_format (const IvtvStreamClock * sc)
{
  return sc->format;
}

guint64
ivtv_stream_clock_resyncs (const IvtvStreamClock * sc)
{
  return sc->resync_bytes;
}
