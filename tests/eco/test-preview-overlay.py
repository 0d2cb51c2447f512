#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""tests/eco: `ivtv-capture --preview` draws the status over the picture
(tools/ivtv-capture/overlay.c).  On an Xvfb display (no window manager: the
window is at 0,0) the emulated PVR-250 is recorded with --preview; once the
file grows, a screenshot (ximagesrc) is probed, by colour, not by eye:
 - a red REC mark (r > 180, g and b < 80) in the top-left corner, where the
   card's black-and-white test picture has no red;
 - white text (all channels >= 250) on a shaded box: many more such pixels
   in the box than in an area of the same size below it (the picture's
   noisy white stripes);
and the recording itself ends as asked (exit 0, the preview cost it
nothing).
    test-preview-overlay.py IVTV_EMU IVTV_CAPTURE"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

emu, capture = sys.argv[1], sys.argv[2]
W, H = 800, 600
for tool in ("Xvfb", "gst-launch-1.0"):
    if not shutil.which(tool):
        print(f"skip: no {tool}")
        sys.exit(77)
failures = 0


def check(cond, what):
    global failures
    print(("ok: " if cond else "FAIL: ") + what)
    failures += 0 if cond else 1
    return cond


tmp = tempfile.mkdtemp(prefix="ivtv-overlay-")
rfd, wfd = os.pipe()
xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(wfd), "-screen", "0",
                         f"{W}x{H}x24", "-nolisten", "tcp", "-noreset"],
                        pass_fds=[wfd], stderr=subprocess.DEVNULL)
os.close(wfd)
try:
    with os.fdopen(rfd) as f:
        env = dict(os.environ, DISPLAY=":" + f.readline().strip())
    out = os.path.join(tmp, "ov.mpg")
    cap = subprocess.Popen([emu, "--profile", "pvr250", "--", capture,
                            "--preview", "--input", "composite",
                            "--max-time", "8", out], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
    for _ in range(300):
        if os.path.exists(out) and os.path.getsize(out) > 1000000:
            break
        time.sleep(0.05)
    time.sleep(1.5)                     # the overlay is redrawn every 0.5 s
    rgb = os.path.join(tmp, "shot.rgb")
    subprocess.run(["gst-launch-1.0", "-q", "ximagesrc", "num-buffers=1",
                    "!", "videoconvert", "!", "video/x-raw,format=RGB", "!",
                    "filesink", "location=" + rgb], env=env, check=False)
    log = cap.communicate(timeout=60)[0]
    print(log[-800:])
    check(cap.returncode == 0, f"ivtv-capture --preview exits {cap.returncode}")
    data = open(rgb, "rb").read() if os.path.exists(rgb) else b""
    if check(len(data) == W * H * 3, f"a {W}x{H} screenshot"):
        def count(x0, y0, x1, y1, test):
            n = 0
            for y in range(y0, y1):
                row = data[(y * W + x0) * 3:(y * W + x1) * 3]
                for i in range(0, len(row), 3):
                    n += test(row[i], row[i + 1], row[i + 2])
            return n
        red = count(0, 0, 140, 70, lambda r, g, b: r > 180 and g < 80
                    and b < 80)
        white_box = count(0, 20, 520, 150, lambda r, g, b:
                          min(r, g, b) >= 250)
        white_below = count(0, 300, 520, 430, lambda r, g, b:
                            min(r, g, b) >= 250)
        print(f"red pixels by REC: {red}; white: {white_box} in the box, "
              f"{white_below} below")
        check(red >= 100, "a red REC mark in the top-left corner")
        check(white_box >= 2000 and white_box > 5 * white_below,
              "white text on a shaded box over the picture")
finally:
    xvfb.terminate()
    xvfb.wait()
    shutil.rmtree(tmp, ignore_errors=True)
sys.exit(1 if failures else 0)
