#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# check-stream.py - checks the byte structure of a capture of one stream
# type (test-streams.sh):
#   check-stream.py FILE ps|dvd|ts|mpeg1|vcd|svcd
# ps, dvd: a pack header (00 00 01 BA, MPEG-2 form) at every 2048-byte
#   boundary, a system header in the first pack; dvd also NAV packs (PCI/DSI,
#   private stream 2) for dvdauthor.  mpeg1: MPEG-1 pack headers.  vcd: MPEG-1
#   packs at every 2324-byte boundary; svcd: MPEG-2 packs every 2324 bytes.
#   ts: 0x47 every 188 bytes.  For ps, dvd and mpeg1 the pack clock (SCR)
#   never goes backwards: it runs on across the loops of the clip (the
#   constant-rate VCD and SVCD clips step back at each loop: a known limit).
import sys

SECTOR = {'ps': 2048, 'dvd': 2048, 'vcd': 2324, 'svcd': 2324}


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def scr(d, i):
    """the SCR (90 kHz part) and MPEG version of the pack header at i"""
    b = d[i + 4:i + 10]
    if b[0] >> 4 == 2:  # MPEG-1: '0010' and a PTS-like field
        return 1, (((b[0] >> 1) & 7) << 30 | b[1] << 22 | (b[2] >> 1) << 15
                   | b[3] << 7 | b[4] >> 1)
    if b[0] >> 6 == 1:  # MPEG-2
        return 2, (((b[0] >> 3) & 7) << 30 | (b[0] & 3) << 28 | b[1] << 20
                   | (b[2] >> 3) << 15 | (b[2] & 3) << 13 | b[3] << 5
                   | b[4] >> 3)
    fail('pack at %d is neither MPEG-1 nor MPEG-2' % i)


def packs(d):
    """offsets of every pack header, walking the MPEG-1/2 syntax"""
    out, i = [], 0
    while i + 12 <= len(d):
        if d[i:i + 3] != b'\x00\x00\x01':
            i += 1
            continue
        sid = d[i + 3]
        if sid == 0xba:
            out.append(i)
            i += 12 if d[i + 4] >> 4 == 2 else 14 + (d[i + 13] & 7)
        elif sid >= 0xbb:
            i += 6 + (d[i + 4] << 8 | d[i + 5])
        else:
            i += 4
    return out


def main():
    path, kind = sys.argv[1], sys.argv[2]
    d = open(path, 'rb').read()
    if len(d) < 200000:
        fail('%s: only %d bytes' % (path, len(d)))
    if kind == 'ts':
        bad = [i for i in range(0, len(d) - 187, 188) if d[i] != 0x47]
        if bad:
            fail('no 0x47 sync byte at %d (and %d more)' % (bad[0], len(bad) - 1))
        print('ts: 0x47 at each of %d packets' % (len(d) // 188))
        return
    want = 1 if kind in ('mpeg1', 'vcd') else 2
    sector = SECTOR.get(kind)
    if sector:
        bad = [i for i in range(0, len(d) - sector + 1, sector)
               if d[i:i + 4] != b'\x00\x00\x01\xba']
        if bad:
            fail('%s: no pack header at the %d-byte boundary %d (%d more)'
                 % (kind, sector, bad[0], len(bad) - 1))
    found = packs(d)
    if not found or found[0] != 0:
        fail('the stream does not start with a pack header')
    last = -1
    for i in found:
        ver, clock = scr(d, i)
        if ver != want:
            fail('pack at %d is MPEG-%d, %s wants MPEG-%d' % (i, ver, kind, want))
        if clock < last and kind not in ('vcd', 'svcd'):
            fail('SCR goes back at %d: %d after %d' % (i, clock, last))
        last = clock
    if b'\x00\x00\x01\xbb' not in d[:sector or 4096]:
        fail('no system header in the first pack')
    if kind == 'dvd' and d.count(b'\x00\x00\x01\xbf') < 2:
        fail('dvd: no NAV packs (private stream 2)')
    print('%s: %d MPEG-%d packs%s, SCR runs on to %.2f s'
          % (kind, len(found), want,
             ' every %d bytes' % sector if sector else '', last / 90000.0))


main()
