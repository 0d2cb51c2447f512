#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Measures A/V sync in an archival file made from a sync test tape (a white
flash frame and a 1 kHz beep at the same instant every few seconds, as the
emulator's `marks=MS` makes them, tests/emu/marks.c): decodes the file with
ffmpeg, finds each flash (frame mean luma) and each beep onset (first sample
above a threshold after silence), and prints the offset beep - flash at every
mark.  Also counts the frames ffmpeg decodes and compares with FILE.json.

  check-sync-marks.py FILE.mkv [--max-ms 20] [--min-marks N] [--json FILE.json]
                      [--spread-ms 20] [--flash-luma 200]

Exit 0 when every offset is within --max-ms and there are at least
--min-marks marks; 1 otherwise (with the reason).  With --spread-ms the
offsets are judged against each other (max - min), not against zero: for a
source whose beeps pass through a loopback with a latency of its own
(snd-aloop in tests/vm), the drift is what is measured.  --flash-luma: the
mean luma above which a frame is a flash (tests/vm's usbtv model shows a grey
ramp that reaches 200 between its flashes of 235)."""
import argparse
import json
import struct
import subprocess
import sys

RATE = 48000
THRESH_AUDIO = 1000  # the beep's amplitude is 16000, silence is 0
THRESH_LUMA = 200    # white is 235, the bars average ~100


def video_lumas(path):
    out = subprocess.run(
        ["ffmpeg", "-v", "error", "-i", path, "-map", "0:v:0",
         "-vf", "scale=16:16,format=gray", "-f", "rawvideo", "-"],
        check=True, stdout=subprocess.PIPE).stdout
    return [sum(out[i:i + 256]) / 256 for i in range(0, len(out), 256)]


def fps_of(path):
    out = subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
         "stream=r_frame_rate", "-of", "csv=p=0", path],
        check=True, stdout=subprocess.PIPE, text=True).stdout.strip()
    n, d = out.split("/")
    return int(n) / int(d)


def audio_samples(path):
    out = subprocess.run(
        ["ffmpeg", "-v", "error", "-i", path, "-map", "0:a:0", "-ac", "1",
         "-f", "s16le", "-acodec", "pcm_s16le", "-ar", str(RATE), "-"],
        check=True, stdout=subprocess.PIPE).stdout
    return struct.unpack("<%dh" % (len(out) // 2), out)


def flashes(lumas, fps, thresh=THRESH_LUMA):
    # a flash already lit on the file's first frame began before the
    # recording did: its start is not seen, so it is not a mark (prev=True)
    times, prev = [], True
    for i, y in enumerate(lumas):
        lit = y > thresh
        if lit and not prev:
            times.append(i / fps)
        prev = lit
    return times


def beeps(samples):
    # a beep starts after >= 0.1 s of silence heard in the file: one cut by
    # the start of the recording has no onset to measure (quiet starts at 0;
    # CI once saw a flash on frame 0 and the audio begin 20.8 ms into its beep)
    times, quiet = [], 0
    for i, v in enumerate(samples):
        if abs(v) > THRESH_AUDIO:
            if quiet >= RATE // 10:
                # the sine starts at phase 0: the sample before the first
                # loud one is where it began (within a sample or two)
                times.append(max(i - 1, 0) / RATE)
            quiet = 0
        else:
            quiet += 1
    return times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--max-ms", type=float, default=20.0)
    ap.add_argument("--min-marks", type=int, default=3)
    ap.add_argument("--json")
    ap.add_argument("--spread-ms", type=float)
    ap.add_argument("--flash-luma", type=float, default=THRESH_LUMA)
    a = ap.parse_args()
    fps = fps_of(a.file)
    lumas = video_lumas(a.file)
    f, b = flashes(lumas, fps, a.flash_luma), beeps(audio_samples(a.file))
    print("frames decoded: %d at %.3f fps; flashes: %d; beeps: %d"
          % (len(lumas), fps, len(f), len(b)))
    bad, offsets = [], []
    for t in f:
        near = min(b, key=lambda x: abs(x - t)) if b else None
        if (near is None or abs(near - t) > 0.5) and t < 0.2:
            continue  # its beep began before the audio did: not measurable
        if near is None or abs(near - t) > 0.5:
            bad.append("flash at %.3f s has no beep within 0.5 s" % t)
            continue
        off = (near - t) * 1000
        offsets.append(off)
        print("mark at %8.3f s: offset %+6.1f ms" % (t, off))
        if a.spread_ms is None and abs(off) > a.max_ms:
            bad.append("mark at %.3f s: offset %+.1f ms > %.0f ms"
                       % (t, off, a.max_ms))
    if len(offsets) < a.min_marks:
        bad.append("only %d marks measured (want >= %d)"
                   % (len(offsets), a.min_marks))
    if offsets:
        print("marks: %d, offset min %+.1f ms, max %+.1f ms"
              % (len(offsets), min(offsets), max(offsets)))
    if offsets and a.spread_ms is not None:
        spread = max(offsets) - min(offsets)
        print("spread of the offsets: %.1f ms" % spread)
        if spread > a.spread_ms:
            bad.append("offsets spread over %.1f ms > %.0f ms"
                       % (spread, a.spread_ms))
    if a.json:
        rec = json.load(open(a.json))["archive"]["frames"]
        print("record: %d delivered + %d repeated = %d in file; decoded %d"
              % (rec["delivered"], rec["repeated"], rec["in_file"],
                 len(lumas)))
        if rec["delivered"] + rec["repeated"] != rec["in_file"]:
            bad.append("record: delivered + repeated != in_file")
        if rec["in_file"] != len(lumas):
            bad.append("record says %d frames in the file, ffmpeg decodes %d"
                       % (rec["in_file"], len(lumas)))
    for line in bad:
        print("FAIL: " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
