#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""check-vbi.py - what a VBI capture carries, for the tests.

  check-vbi.py sliced FILE          v4l2_sliced_vbi_data records (64 bytes):
                                    prints the CC1 text, then 'wss=0xNNNN'
                                    for each WSS record that changes
  check-vbi.py cea608 FORMAT FILE   closedcaption/x-cea-608 bytes as ivtvsrc
                                    pushes them (FORMAT raw: field 1 pairs;
                                    s334-1a: triplets), prints the CC1 text
The text is what a caption decoder shows: printable characters of field 1
(parity stripped), control codes (0x10-0x1f first byte) skipped.
"""
import struct
import sys


def text_of(pairs):
    out = []
    for b1, b2 in pairs:
        b1 &= 0x7f
        b2 &= 0x7f
        if 0x10 <= b1 <= 0x1f:
            continue            # control code or PAC
        for b in (b1, b2):
            if 0x20 <= b < 0x7f:
                out.append(chr(b))
    return ''.join(out)


def sliced(path):
    data = open(path, 'rb').read()
    pairs, wss, last = [], [], None
    for off in range(0, len(data) - 63, 64):
        rid, field, line = struct.unpack_from('<III', data, off)
        payload = data[off + 16:off + 18]
        if rid == 0x1000 and field == 0:        # V4L2_SLICED_CAPTION_525
            pairs.append((payload[0], payload[1]))
        elif rid == 0x4000:                     # V4L2_SLICED_WSS_625
            w = payload[0] | payload[1] << 8
            if w != last:
                wss.append(w)
                last = w
    print(text_of(pairs))
    for w in wss:
        print('wss=0x%04x' % w)


def cea608(fmt, path):
    data = open(path, 'rb').read()
    pairs = []
    if fmt == 'raw':
        pairs = [(data[i], data[i + 1]) for i in range(0, len(data) - 1, 2)]
    else:
        for i in range(0, len(data) - 2, 3):
            if data[i] & 0x80:                  # field 1
                pairs.append((data[i + 1], data[i + 2]))
    print(text_of(pairs))


if __name__ == '__main__':
    if sys.argv[1] == 'sliced':
        sliced(sys.argv[2])
    else:
        cea608(sys.argv[2], sys.argv[3])
