#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Archival capture through a real ALSA driver (issue 25): ivtv-capture on the
# real usbtv node with usbtv-audio.c's card as its audio, the device
# (dev-usbtv.c) playing a sync test tape -- a white frame every 60 frames and
# a 1 kHz beep at the instant it begins, the samples at 48 kHz x (1 + PPM) of
# the device's own frame clock -- then tests/archive/check-sync-marks.py on
# the file (offset beep - flash at every mark), ffmpeg's framemd5 against
# FILE.framemd5, and FILE.json's frame totals against the frames decoded.
# guest/usbtv.py adds these checks to the raw dongles' matrix (rawdev.py).
import json
import os
import re
import shutil
import subprocess

import rawdev
from usbcheck import Fail, Skip, log, run

SRC = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    "..", "..", "..", ".."))
CHECKER = os.path.join(SRC, "tests", "archive", "check-sync-marks.py")
RESULTS = os.environ.get("RESULTS", "/tmp")
TMP = os.environ.get("TMPDIR", "/tmp")
SECONDS = int(os.environ.get("USBTV_ARCHIVE_SECONDS", "8"))
MARK_FRAMES = 60        # 2.002 s at 29.97 fps
MAX_MS = 20.0


def capture(ppm, path):
    """ivtv-capture -t SECONDS on the node with the device at PPM; returns
    (ivtv-capture's output, the device's av-status line)."""
    node = rawdev.need_node()
    dev = rawdev.dev
    dev.send("marks %d" % MARK_FRAMES)
    dev.send("ppm %d" % ppm)
    dev.send("realtime 1")
    try:
        p = run(["ivtv-capture", "-d", node, "-t", str(SECONDS), "-f", path], 420)
        mark = dev.mark()
        dev.send("av-status")
        status = dev.wait(r"av-status .*", 10, mark).group(0)
    finally:
        dev.send("marks 0")
        dev.send("ppm 0")
        dev.send("realtime 0")
    out = p.stdout
    with open(path + ".log", "w") as f:
        f.write(out)
    if p.returncode:
        raise Fail("ivtv-capture exit %d: %s" % (p.returncode, out.strip()[-300:]))
    return out, status


def measure(path):
    """check-sync-marks.py's verdict: (exit status, its output, offsets)."""
    p = subprocess.run(["/usr/bin/python3", CHECKER, path, "--json", path + ".json",
                        "--max-ms", str(MAX_MS), "--min-marks",
                        str(SECONDS // 2 - 3),
                        # dev-usbtv.c's grey ramp reaches 200 (its frame
                        # 107 of a run was taken for a flash), a flash is 235
                        "--flash-luma", "220"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=600)
    log("check-sync-marks.py:\n" + p.stdout)
    offs = [float(m) for m in re.findall(r"^mark at .*: offset\s+([-+][\d.]+) ms$",
                                         p.stdout, re.M)]
    return p.returncode, p.stdout, offs


def clock_errors(text, c):
    """The file's frame clock against the device's at each mark: the flash
    frame's index in the file minus the frames the device made since the
    file's first (its counter), in ms; what the sync takes as its clock is
    the file's frames, so the audio follows these errors."""
    errs = []
    for t in re.findall(r"^mark at\s+([\d.]+) s:", text, re.M):
        i = int(round(float(t) * 30000 / 1001))
        if i < len(c):
            errs.append((i - (c[i] - c[0])) * 1001 / 30.0)
    return errs


def framemd5_equal(path):
    if not shutil.which("ffmpeg"):
        raise Skip("ffmpeg absent: framemd5 and frames not compared")
    ff = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "framemd5", "-"],
                        stdout=subprocess.PIPE, text=True, timeout=600).stdout
    mine = open(path + ".framemd5").read()
    a = [l for l in ff.splitlines() if l.startswith("0,")]
    b = [l for l in mine.splitlines() if l.startswith("0,")]
    if a != b:
        raise Fail("FILE.framemd5 (%d video lines) differs from ffmpeg's (%d)"
                   % (len(b), len(a)))
    return len(a), "framemd5: %d lines equal to ffmpeg's" % len(a)


def keep(path):
    """The file and its sidecars go to RESULTS/archive for a look afterwards."""
    out = os.path.join(RESULTS, "archive")
    os.makedirs(out, exist_ok=True)
    for suffix in ("", ".json", ".framemd5", ".log"):
        if os.path.exists(path + suffix):
            shutil.copy(path + suffix, out)


def device_counts(status):
    """The av-status line's counters as a dict."""
    return {k: int(v) for k, v in re.findall(r"(\S+)=(\d+)", status)}


def take(ppm):
    """One capture per PPM, shared by its two checks: ivtv-capture's output
    and record, the device's counters."""
    if ppm in TAKEN:
        return TAKEN[ppm]
    path = os.path.join(TMP, "usbtv-archive-%+d.mkv" % ppm)
    TAKEN[ppm] = None
    try:
        out, status = capture(ppm, path)
    finally:
        keep(path)
    TAKEN[ppm] = {"path": path, "out": out, "dev": device_counts(status),
                  "status": status, "rec": json.load(open(path + ".json"))}
    return TAKEN[ppm]


def c_archive_record(ppm):
    """What holds however fast the guest is: the usbtv card recorded, the
    sidecar's checksums equal ffmpeg's, the totals add up to the frames
    ffmpeg decodes."""
    t = take(ppm)
    if t is None:
        raise Fail("the capture failed (see the check before)")
    arch = t["rec"].get("archive", {})
    fr = arch.get("frames", {})
    audio = arch.get("audio_device") or ""
    if "usbtv" not in audio.lower():
        raise Fail("the audio recorded is %r, not usbtv-audio.c's card" % audio)
    n, md5 = framemd5_equal(t["path"])
    totals = "%d delivered + %d repeated = %d in file; ffmpeg decodes %d" % (
        fr.get("delivered", -1), fr.get("repeated", -1), fr.get("in_file", -1), n)
    if fr.get("delivered", -1) + fr.get("repeated", -1) != fr.get("in_file") \
            or fr.get("in_file") != n:
        raise Fail("the record's totals: " + totals)
    return "audio %s; %s; %s; device: %s" % (audio, totals, md5, t["status"])


def counters(path):
    """The device's frame counter of every frame in the file (dev-usbtv.c
    luma(): the first 16 pixels of a line, MSB first; the top line)."""
    out = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-map", "0:v:0", "-vf",
                          "crop=16:1:0:0,format=gray", "-f", "rawvideo", "-"],
                         stdout=subprocess.PIPE, timeout=600).stdout
    return [sum(1 << (15 - x) for x in range(16) if out[i + x] > 130)
            for i in range(0, len(out) - 15, 16)]


def losses(t):
    """Frames the file lacks against -t SECONDS of 29.97 fps (the device's
    late skips and the usbtv driver's drops -- no buffer queued -- are not
    in its sequence numbers, so ivtv-capture repeats nothing for them), and
    audio the device or alsasrc lost."""
    rec = t["rec"]
    fr = rec.get("archive", {}).get("frames", {})
    overruns = sum("Can't record audio fast enough" in w
                   for w in rec.get("warnings", []))
    return {"frames-short": max(0, int(SECONDS * 30000 / 1001) - fr.get("in_file", 0)),
            "frames-repeated": fr.get("repeated", 0),
            "device-skipped": t["dev"].get("skipped", 0),
            "device-audio-lost": t["dev"].get("lost", 0), "alsa-overruns": overruns}


def c_archive_sync(ppm):
    """The offset beep - flash within MAX_MS at every mark, with whatever
    losses ivtv-capture saw (repeated frames, alsasrc's overruns).  Not
    judged, a skip with the figures, when losses went unseen: the file short
    of its -t worth of frames by more than 3 %, or a gap in the picture's
    counter that no repeat fills (a frame the usbtv driver drops leaves no
    gap in its sequence numbers, which ivtv-capture's sync takes as its
    clock), or samples the device lost before the driver (its FIFO); and
    when a mark is off by more than MAX_MS while the file's frame clock is
    off the device's by more than MAX_MS there too (the repeats in the wrong
    places: stamps from a TCG guest that fell behind)."""
    t = take(ppm)
    if t is None:
        raise Fail("the capture failed (see the check before)")
    loss = losses(t)
    figs = "%s; ivtv-capture's drift %s ppm" % (
        ", ".join("%s %d" % kv for kv in loss.items()),
        t["rec"].get("archive", {}).get("sync", {}).get("drift_ppm"))
    if loss["frames-short"] > SECONDS * 30000 / 1001 * 0.03 \
            or loss["device-audio-lost"]:
        raise Skip("the guest did not keep up (TCG): " + figs)
    c = counters(t["path"])
    missing = sum(max(0, b - a - 1) for a, b in zip(c, c[1:]))
    repeats = sum(1 for a, b in zip(c, c[1:]) if b == a)
    rc, text, offs = measure(t["path"])
    errs = clock_errors(text, c)
    figs = ("offsets %s ms; by the picture's counter %d frames missing, %d repeats, "
            "%d frames in the file for %d the device made, the file's clock at each "
            "mark %s ms off the device's; %s") % (
        " ".join("%+.1f" % o for o in offs) or "none", missing, repeats, len(c),
        c[-1] - c[0] + 1 if c else 0, " ".join("%+.0f" % e for e in errs) or "-",
        figs)
    if missing > repeats:
        raise Skip("frames lost unseen (the picture's counter skips): " + figs)
    if rc and errs and max(abs(e) for e in errs) > MAX_MS:
        # the repeats stood in the wrong places: in a TCG guest that did not
        # keep up, the frames' stamps (from which the element finds usbtv's
        # drops) are when the guest got round to the URBs, late then bunched;
        # the audio, whose clock the file's frames are, follows that error
        raise Skip("the file's frames are not the device's (TCG stamps): " + figs)
    if rc:
        fails = [l[6:] for l in text.splitlines() if l.startswith("FAIL: ")]
        raise Fail("%s; %s" % ("; ".join(fails)[:300], figs))
    return "%d marks within %.0f ms (%+.1f..%+.1f); %s" % (
        len(offs), MAX_MS, min(offs), max(offs), figs)


TAKEN = {}
PPM = int(os.environ.get("USBTV_ARCHIVE_PPM", "250"))
NAME = "%s%d" % ("plus" if PPM >= 0 else "minus", abs(PPM))
CHECKS = [("archive-record-" + NAME, lambda: c_archive_record(PPM)),
          ("archive-sync-" + NAME, lambda: c_archive_sync(PPM))]
