#!/usr/bin/python3
"""tests/capture: the byte checks of a capture against the emulator's stream.

  check-stream.py prefix OUT REF        OUT is exactly the first len(OUT) bytes of REF
  check-stream.py tape OUT REF BLACK    OUT is REF (the input's picture) up to
                                        some byte p, then BLACK (the no-signal
                                        stream) from its start: every byte
                                        the card delivered, in order, across
                                        the end of the tape
  check-stream.py record JSON OUT RATE  the sidecar's bytes equal OUT's size
                                        and its duration is the time OUT
                                        holds (its SCR span; else its bytes
                                        at RATE bytes/s) within 2 s

The emulator's MPEG clock runs on across clips, so the black clips after the
switch carry later SCR/PTS/DTS than BLACK (which starts black): those fields
are masked before comparing across the switch (tests/element/fault-matrix/fault-case.sh
does the same for ivtvsrc alone).
"""
import json
import os
import sys


def mask(b):
    """zero the pack SCR and PES PTS/DTS fields of an MPEG-2 program stream"""
    b = bytearray(b)
    i, n = 0, len(b)
    while i + 4 <= n:
        if b[i] or b[i + 1] or b[i + 2] != 1:
            i += 1
            continue
        sid = b[i + 3]
        if sid == 0xba and i + 14 <= n:
            b[i + 4:i + 10] = bytes(6)
            i += 14 + (b[i + 13] & 7)
        elif sid == 0xb9:
            i += 4
        elif sid >= 0xbb and i + 6 <= n:
            ln = (b[i + 4] << 8) | b[i + 5]
            if (0xc0 <= sid <= 0xef or sid == 0xbd) and i + 9 <= n \
                    and (b[i + 6] & 0xc0) == 0x80:
                fl = b[i + 7] >> 6
                if fl & 2:
                    b[i + 9:i + 14] = bytes(5)
                if fl == 3:
                    b[i + 14:i + 19] = bytes(5)
            i += 6 + ln
        else:
            i += 1
    return bytes(b[:n])


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        print(f"FAIL: {e}")
        sys.exit(1)


def prefix(out, ref):
    o, r = read(out), read(ref)
    if len(o) == 0:
        return "FAIL: the capture is empty"
    if r[:len(o)] != o:
        d = next(i for i in range(len(o)) if i >= len(r) or o[i] != r[i])
        return f"FAIL: the capture differs from the card's stream at byte {d} of {len(o)}"
    return f"ok: {len(o)} bytes, identical to the first {len(o)} bytes of the card's stream"


def tape(out, ref, black):
    o, r, k = (mask(read(p)) for p in (out, ref, black))
    d = next((i for i in range(len(o)) if i >= len(r) or o[i] != r[i]), len(o))
    for p in range(d, max(d - 65536, 0) - 1, -1):
        if o[p:] == k[:len(o) - p]:
            return (f"ok: the input's picture for {p} bytes, then {len(o) - p} "
                    "bytes of the no-signal stream: every byte, in order", p)
    return "FAIL: the capture is not the input's stream followed by the no-signal stream", -1


def scr_span(b):
    """seconds between the first and the last pack SCR of a program
    stream, or None"""
    first = last = None
    i = 0
    while True:
        i = b.find(b"\x00\x00\x01\xba", i)
        if i < 0 or i + 14 > len(b):
            break
        p = b[i + 4:i + 10]
        if p[0] >> 6 == 1:
            t = ((p[0] >> 3) & 7) << 30 | (p[0] & 3) << 28 | p[1] << 20 | \
                (p[2] >> 3) << 15 | (p[2] & 3) << 13 | p[3] << 5 | p[4] >> 3
            first = t if first is None else first
            last = t
        i += 4
    return None if first is None else (last - first) / 90000.0


def record(js, out, rate):
    rec = json.load(open(js))
    size = os.path.getsize(out)
    errs = []
    if rec.get("bytes") != size:
        errs.append(f"record says {rec.get('bytes')} bytes, the file has {size}")
    # the time the file holds: its clock (black comes at its own, lower
    # rate: the card's bytes at RATE only for the picture), else bytes
    span = scr_span(read(out))
    want = span if span is not None else size / rate
    # within 2 s: the card's stream comes in clips (GOPs) of 1 s (a black
    # one is 1 s of clock in 55 kB sent at its start), and
    # the end drains to the end of one
    if abs(rec.get("duration", -99) - want) > 2.0:
        errs.append(f"record says {rec.get('duration')} s, the file holds {want:.2f} s")
    for key in ("card", "driver", "device", "input", "encoder", "start", "end"):
        if not rec.get(key):
            errs.append(f"record has no {key}")
    if errs:
        return "FAIL: " + "; ".join(errs)
    return (f"ok: record: {rec['bytes']} bytes, {rec['duration']} s "
            f"(the file: {size} bytes = {want:.2f} s), {rec['card']}, {rec['input']}")


def main():
    what = sys.argv[1]
    if what == "prefix":
        msg = prefix(*sys.argv[2:4])
    elif what == "tape":
        msg, p = tape(*sys.argv[2:5])
        if p >= 0 and p < int(sys.argv[5] if len(sys.argv) > 5 else 0):
            msg = f"FAIL: the picture part is only {p} bytes"
    elif what == "record":
        msg = record(sys.argv[2], sys.argv[3], float(sys.argv[4]))
    else:
        print(f"unknown check {what}")
        return 2
    print(msg)
    return 1 if msg.startswith("FAIL") else 0


if __name__ == "__main__":
    sys.exit(main())
