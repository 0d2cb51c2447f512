#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Who reads the card (issue 26; gst/session/ivtvreaderthread.c, "whose
# turn"): while downstream keeps up, create() reads for itself and the
# reader thread only naps; when downstream stalls, the reader thread takes
# the turn and reads on into the queue (so nothing is lost at a card's
# rate: the nothing-lost-* tests); once downstream keeps up again, create()
# reads for itself again.  Told from each thread's CPU time
# (/proc/self/task/*/schedstat, nanoseconds): the reader thread's share of
# the process's CPU while downstream keeps up (before the turn: half, the
# other half the hand-off to create(); with it, 2-3 %: naps only), and its
# CPU during a stall.
# Counts and shares, no wall time.
#
# Run under ivtv-emu --profile pvr250 --fault fast (pacing off: every read
# fills its 512 KiB block).
import os
import resource
import sys

import gi

gi.require_version('Gst', '1.0')
from gi.repository import GLib, Gst  # noqa: E402

Gst.init(None)

WARM = 300          # buffers before a phase is measured
PHASE = 2000        # buffers a phase
STALL_S = 0.3
MAX_SHARE = 0.25    # the reader thread's share while downstream keeps up


def thread_cpu():
    """CPU nanoseconds by thread name, and the whole process's (threads
    that ended included)."""
    ru = resource.getrusage(resource.RUSAGE_SELF)
    by_name, total = {}, int((ru.ru_utime + ru.ru_stime) * 1e9)
    for tid in os.listdir('/proc/self/task'):
        try:
            with open('/proc/self/task/%s/comm' % tid) as f:
                comm = f.read().strip()
            with open('/proc/self/task/%s/schedstat' % tid) as f:
                ns = int(f.read().split()[0])
        except OSError:
            continue            # a thread that just ended
        by_name[comm] = by_name.get(comm, 0) + ns
    return by_name, total


def reader_share(a, b):
    reader = b[0].get('ivtvsrc-reader', 0) - a[0].get('ivtvsrc-reader', 0)
    total = b[1] - a[1]
    return reader, total, reader / total if total else 1.0


marks = {}
n = 0
# phase A: keeping up; the stall; phase C: keeping up again
A0, A1 = WARM, WARM + PHASE
STALL = A1 + 1
C0 = STALL + 64 + WARM          # after the queued backlog (16 MiB: 32)
C1 = C0 + PHASE


def probe(pad, info):
    global n
    n += 1
    if n in (A0, A1, C0, C1):
        marks[n] = thread_cpu()
    if n == STALL:
        marks['stall0'] = thread_cpu()
        GLib.usleep(int(STALL_S * 1e6))
        marks['stall1'] = thread_cpu()
    return Gst.PadProbeReturn.OK


pipeline = Gst.parse_launch(
    'ivtvsrc name=src blocksize=524288 max-buffer-bytes=16777216 '
    'num-buffers=%d ! fakesink name=sink' % (C1 + 200))
pipeline.get_by_name('sink').get_static_pad('sink').add_probe(
    Gst.PadProbeType.BUFFER, probe)
pipeline.set_state(Gst.State.PLAYING)
msg = pipeline.get_bus().timed_pop_filtered(
    300 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
pipeline.set_state(Gst.State.NULL)
if msg is None or msg.type != Gst.MessageType.EOS:
    print('FAIL: the capture did not end with EOS (%s)' %
          (msg.parse_error()[0].message if msg else 'timeout'))
    sys.exit(1)
missing = [k for k in (A0, A1, 'stall0', 'stall1', C0, C1) if k not in marks]
if missing:
    print('FAIL: %d buffers only, marks %s missing' % (n, missing))
    sys.exit(1)

fail = False
for name, a, b in (('keeping up', A0, A1), ('keeping up again', C0, C1)):
    reader, total, share = reader_share(marks[a], marks[b])
    print('%s: reader thread %.1f ms of %.1f ms, share %.2f (limit %.2f)' %
          (name, reader / 1e6, total / 1e6, share, MAX_SHARE))
    if share >= MAX_SHARE:
        print('FAIL: %s, the reader thread did the reading: create() did '
              'not read for itself' % name)
        fail = True
reader, total, share = reader_share(marks['stall0'], marks['stall1'])
print('stall of %.1f s: reader thread %.1f ms of %.1f ms' %
      (STALL_S, reader / 1e6, total / 1e6))
if reader <= 0:
    print('FAIL: the reader thread did not read while downstream stalled')
    fail = True
print('FAIL' if fail else 'PASS')
sys.exit(1 if fail else 0)
