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
 - the box's four lines (REC, signal, audio, lost), found as bands of rows
   with white pixels: the audio line's level bars are filled (the emulated
   card's tone, about -2 dB: more than 1.5 times the white of the signal
   line, which hollow bars or "audio: -" do not reach), and no red on the
   signal line while the signal is present;
 - a second run whose signal goes after 2 s (--fault no-signal=2): the
   signal line turns red;
 - a third run that loses data: the card's queue is small (--fault
   queue-kb=512) and ivtv-capture is stopped (SIGSTOP) for 2.5 s once the
   file grows, so the driver drops whole buffers (tests/emu/README.md, as
   emu-mpeg-queue-stall) and ivtvsrc counts them (bytes-lost): the "lost"
   line turns red (it is not in the first run, which loses nothing);
and the recordings themselves end as asked (exit 0, the preview cost them
nothing).
    test-preview-overlay.py IVTV_EMU IVTV_CAPTURE"""
import os
import shutil
import signal
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


W_BOX, Y_BOX = 520, 160            # the overlay's shaded box is within


def child_named(pid, name):
    """the process NAME that PID started (ivtv-emu runs its command as a
    child), or None"""
    for d in os.listdir("/proc"):
        try:
            st = open("/proc/%s/stat" % d).read() if d.isdigit() else ""
        except OSError:
            continue
        if st and st[st.index("(") + 1:st.rindex(")")] == name \
                and int(st[st.rindex(")") + 2:].split()[1]) == pid:
            return int(d)
    return None


def grab(env, rgb):
    """the screen, RGB, or b"" """
    subprocess.run(["gst-launch-1.0", "-q", "ximagesrc", "num-buffers=1",
                    "!", "videoconvert", "!", "video/x-raw,format=RGB", "!",
                    "filesink", "location=" + rgb], env=env, check=False)
    return open(rgb, "rb").read() if os.path.exists(rgb) else b""


def screenshot(env, out, faults, stall=0, until=None):
    """record with --preview, screenshot once the file grows (and, STALL
    seconds, ivtv-capture stopped and continued first; then again every
    0.5 s, 12 times at most, until UNTIL(rgb) is true, and then Ctrl-C);
    (rgb, rc, log)"""
    cap = subprocess.Popen([emu, "--profile", "pvr250"] + faults +
                           ["--", capture, "--preview", "--input", "composite",
                            "--max-time", "20" if until else "8", out],
                           env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
    for _ in range(300):
        if os.path.exists(out) and os.path.getsize(out) > 1000000:
            break
        time.sleep(0.05)
    pid = child_named(cap.pid, "ivtv-capture") if stall or until else None
    if stall and check(pid is not None, "ivtv-capture's process is found"):
        os.kill(pid, signal.SIGSTOP)    # the card's queue overflows
        time.sleep(stall)
        os.kill(pid, signal.SIGCONT)
    time.sleep(1.5)                     # the overlay is redrawn every 0.5 s
    data = grab(env, out + ".rgb")
    for _ in range(12 if until else 0):
        if until(data):
            break
        time.sleep(0.5)
        data = grab(env, out + ".rgb")
    if until and pid is not None:
        try:
            os.kill(pid, signal.SIGINT)  # seen: Ctrl-C ends it cleanly
        except ProcessLookupError:
            pass                        # --max-time ended it
    log = cap.communicate(timeout=60)[0]
    print(log[-800:])
    return data, cap.returncode, log


def count(data, x0, y0, x1, y1, test):
    n = 0
    for y in range(y0, y1):
        row = data[(y * W + x0) * 3:(y * W + x1) * 3]
        for i in range(0, len(row), 3):
            n += test(row[i], row[i + 1], row[i + 2])
    return n


def white(r, g, b):
    return min(r, g, b) >= 250


def red(r, g, b):
    return r > 180 and g < 80 and b < 80


def lines(data):
    """the box's text lines: bands of rows with text (white or red), a gap
    of up to 3 rows inside a line (hollow level bars) kept in it, at least
    8 rows tall"""
    bands, cur = [], None
    for y in range(0, Y_BOX):
        n = count(data, 0, y, W_BOX, y + 1,
                  lambda r, g, b: white(r, g, b) or red(r, g, b))
        if n >= 5:
            if cur is not None and y - cur[1] <= 3:
                cur[1] = y + 1
            else:
                if cur is not None:
                    bands.append(cur)
                cur = [y, y + 1]
    if cur is not None:
        bands.append(cur)
    # a line of 16-point text is about 20 rows; the picture's white noise
    # above the box makes bands of a row or two
    return [b for b in bands if b[1] - b[0] >= 8]


tmp = tempfile.mkdtemp(prefix="ivtv-overlay-")
rfd, wfd = os.pipe()
xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(wfd), "-screen", "0",
                         f"{W}x{H}x24", "-nolisten", "tcp", "-noreset"],
                        pass_fds=[wfd], stderr=subprocess.DEVNULL)
os.close(wfd)
try:
    with os.fdopen(rfd) as f:
        env = dict(os.environ, DISPLAY=":" + f.readline().strip())
    data, rc, _ = screenshot(env, os.path.join(tmp, "ov.mpg"), [])
    check(rc == 0, f"ivtv-capture --preview exits {rc}")
    if check(len(data) == W * H * 3, f"a {W}x{H} screenshot"):
        reds = count(data, 0, 0, 140, 70, red)
        white_box = count(data, 0, 20, W_BOX, 150, white)
        white_below = count(data, 0, 300, W_BOX, 430, white)
        print(f"red pixels by REC: {reds}; white: {white_box} in the box, "
              f"{white_below} below")
        check(reds >= 100, "a red REC mark in the top-left corner")
        check(white_box >= 2000 and white_box > 5 * white_below,
              "white text on a shaded box over the picture")
        bands = lines(data)
        print(f"text lines (rows): {bands}")
        if check(len(bands) == 4, "four lines: REC, signal, audio, lost"):
            sig = count(data, 0, bands[1][0], W_BOX, bands[1][1], white)
            aud = count(data, 0, bands[2][0], W_BOX, bands[2][1], white)
            print(f"white pixels: signal line {sig}, audio line {aud}")
            check(aud > 1.5 * sig, "the audio line's level bars are filled "
                  "(the card's sound is measured)")
            check(count(data, 0, bands[1][0], W_BOX, bands[1][1], red) == 0,
                  "the signal line is not red while the signal is present")
            check(count(data, 0, bands[3][0], W_BOX, bands[3][1], red) == 0,
                  "the lost line is not red while nothing is lost")
    # the signal goes after 2 s: the signal line turns red
    data, rc, log = screenshot(env, os.path.join(tmp, "nosig.mpg"),
                               ["--fault", "no-signal=2"])
    check(rc == 0, f"ivtv-capture --preview without signal exits {rc}")
    if check(len(data) == W * H * 3, f"a {W}x{H} screenshot without signal"):
        bands = lines(data)
        print(f"text lines (rows) without signal: {bands}")
        if check(len(bands) == 4, "four lines without signal"):
            r = count(data, 0, bands[1][0], W_BOX, bands[1][1], red)
            print(f"red pixels on the signal line: {r}")
            check(r >= 100, "the signal line is red without a signal")
    # data lost (the driver's queue overflows while ivtv-capture is
    # stopped): the lost line turns red, the signal line stays white
    def lost_red(data):
        """the lost line (the fourth) has red pixels"""
        b = lines(data) if len(data) == W * H * 3 else []
        return len(b) == 4 and count(data, 0, b[3][0], W_BOX, b[3][1],
                                     red) >= 100

    data, rc, log = screenshot(env, os.path.join(tmp, "loss.mpg"),
                               ["--fault", "queue-kb=512"], stall=2.5,
                               until=lost_red)
    check(rc == 0, f"ivtv-capture --preview losing data exits {rc}")
    check("Lost about " in log, "ivtvsrc warned of the loss")
    if check(len(data) == W * H * 3, f"a {W}x{H} screenshot after a loss"):
        bands = lines(data)
        print(f"text lines (rows) after a loss: {bands}")
        if check(len(bands) == 4, "four lines after a loss"):
            r = count(data, 0, bands[3][0], W_BOX, bands[3][1], red)
            r_sig = count(data, 0, bands[1][0], W_BOX, bands[1][1], red)
            print(f"red pixels on the lost line: {r}, the signal line: "
                  f"{r_sig}")
            check(r >= 100, "the lost line is red after a loss")
            check(r_sig == 0, "the signal line is not red (the signal "
                  "stayed)")
finally:
    xvfb.terminate()
    xvfb.wait()
    shutil.rmtree(tmp, ignore_errors=True)
sys.exit(1 if failures else 0)
