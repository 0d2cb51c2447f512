#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""check-audio-mute.py CAPTURE.mpg|CAPTURE.ts - checks that a pvr250 capture with one
input switch has its audio muted briefly at the switch, as ivtv does.

Independent of the emulator's code: collects the MPEG audio PES payloads
(stream 0xC0) of the program or transport stream, walks the Layer II frames, and writes
the elementary stream out; avdec_mp2float (gst-launch-1.0) decodes it to
raw samples (the PS demuxer is not used: it drops audio at the clip loops'
timestamp jumps).  Pass: the decoded audio has exactly one silent stretch,
100-300 ms long, neither at the start nor at the end."""
import os
import subprocess
import struct
import sys
import tempfile

BITRATES = [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384]
RATES = [44100, 48000, 32000]


def audio_es(ps):
    out = bytearray()
    i = 0
    while True:
        j = ps.find(b'\x00\x00\x01\xc0', i)
        if j < 0 or j + 9 > len(ps):
            return bytes(out)
        plen = ps[j + 4] << 8 | ps[j + 5]
        hlen = 9 + ps[j + 8]
        out += ps[j + hlen:j + 6 + plen]
        i = j + 6 + plen


def ts_pes(ts):
    """the PES bytes of the TS packets that carry MPEG audio"""
    out, pid = bytearray(), None
    for i in range(0, len(ts) - 187, 188):
        p = ts[i:i + 188]
        if p[0] != 0x47 or not p[3] & 0x10:
            continue
        start = 4 + (1 + p[4] if p[3] & 0x20 else 0)
        this = (p[1] & 0x1f) << 8 | p[2]
        if pid is None and p[1] & 0x40 and p[start:start + 4] == b'\x00\x00\x01\xc0':
            pid = this
        if this == pid:
            out += p[start:]
    return bytes(out)


def frames(es):
    i = 0
    while i + 4 <= len(es):
        if es[i] != 0xff or (es[i + 1] & 0xe6) != 0xe4:
            i += 1
            continue
        br = BITRATES[es[i + 2] >> 4]
        sr = RATES[(es[i + 2] >> 2) & 3]
        flen = 144000 * br // sr + ((es[i + 2] >> 1) & 1)
        yield i, flen
        i += flen


def main():
    data = open(sys.argv[1], 'rb').read()
    is_ts = data[:1] == b'\x47' and data[188:189] == b'\x47'
    es = audio_es(ts_pes(data) if is_ts else data)
    n = sum(1 for _ in frames(es))
    if n < 40:
        print('FAIL: only %d audio frames in the capture' % n)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        mp2 = os.path.join(tmp, 'a.mp2')
        raw = os.path.join(tmp, 'a.raw')
        open(mp2, 'wb').write(es)
        subprocess.run(['gst-launch-1.0', '-q', 'filesrc', 'location=' + mp2,
                        '!', 'mpegaudioparse', '!', 'avdec_mp2float', '!',
                        'audioconvert', '!',
                        'audio/x-raw,format=S16LE,channels=1', '!',
                        'filesink', 'location=' + raw], check=True)
        data = open(raw, 'rb').read()
    samples = struct.unpack('<%dh' % (len(data) // 2), data[:len(data) // 2 * 2])
    win = 480                               # 10 ms at 48 kHz
    silent = [max(abs(x) for x in samples[k:k + win]) <= 64
              for k in range(0, len(samples) - win, win)]
    runs, start = [], None
    for k, s in enumerate(silent + [False]):
        if s and start is None:
            start = k
        if not s and start is not None:
            runs.append((start, k - start))
            start = None
    total = len(silent) * 10
    print('%d audio frames, %d ms decoded, silent stretches (start ms, ms): %s'
          % (n, total, [(a * 10, b * 10) for a, b in runs]))
    if len(runs) != 1:
        print('FAIL: expected one silent stretch at the input switch')
        return 1
    at, length = runs[0][0] * 10, runs[0][1] * 10
    if not 100 <= length <= 300 or at < 200 or at + length > total - 200:
        print('FAIL: silent stretch of %d ms at %d ms: expected 100-300 ms '
              'in the middle' % (length, at))
        return 1
    print('%s: audio muted for %d ms at the input switch (%d ms in)'
          % ('TS' if is_ts else 'PS', length, at))
    return 0


sys.exit(main())
