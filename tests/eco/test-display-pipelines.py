#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""tests/eco: documented pipelines that end in a display sink work where
autovideosink falls back to ximagesink (Xvfb, VNC, VMs).
 - every gst-launch line of README.md and docs/*.md ending in
   autovideosink, xvimagesink, ximagesink or glimagesink has
   `videoconvert ! videoscale !` before the sink;
 - each of them that starts with ivtvsrc (capturing-tapes section 2's live
   view, docs/ivtvsrc.md's tuner example) is run literally under the
   emulated PVR-250 on an Xvfb display (no GL, no Xv): it plays for 5 s and
   stops on Ctrl-C without an error (before the fix: not-negotiated after
   2 s).
(docs/ivtvsrc.md's lines come from gst/element/gstivtvsrc.c's doc block.)
    test-display-pipelines.py SOURCE_ROOT IVTV_EMU"""
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import time

root, emu = sys.argv[1], sys.argv[2]
SINKS = r"(autovideosink|xvimagesink|ximagesink|glimagesink)"
failures = 0


def check(cond, what):
    global failures
    print(("ok: " if cond else "FAIL: ") + what)
    failures += 0 if cond else 1
    return cond


live = None
lives = []
for path in [os.path.join(root, "README.md")] + sorted(
        glob.glob(os.path.join(root, "docs", "*.md"))):
    rel = os.path.relpath(path, root)
    text = open(path, encoding="utf-8").read().replace("\\\n", " ")
    for line in text.split("\n"):
        cmd = line.strip().strip("`")
        if not cmd.startswith("gst-launch-1.0") or not re.search(
                r"!\s*" + SINKS + r"\b", cmd):
            continue
        good = re.search(r"videoconvert\s*!\s*videoscale\s*!\s*" + SINKS, cmd)
        check(good, f"{rel}: videoconvert ! videoscale before the sink: {cmd}")
        if rel == "docs/capturing-tapes.md" and "decodebin" in cmd:
            live = cmd
        if re.match(r"gst-launch-1.0 (-e )?ivtvsrc ", cmd):
            lives.append((rel, cmd))

def play(rel, cmd, env):
    """run one documented live view for 5 s, then Ctrl-C"""
    print(f"running on display {env['DISPLAY']}: {cmd}")
    proc = subprocess.Popen([emu, "--profile", "pvr250", "--", "sh", "-c",
                             cmd], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        out = proc.communicate(timeout=5)[0]
        ended = True                 # it ended by itself: an error
    except subprocess.TimeoutExpired:
        ended = False
        os.killpg(proc.pid, signal.SIGINT)
        try:
            out = proc.communicate(timeout=20)[0]
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out = proc.communicate()[0]
    print(out[-1500:])
    check(not ended, f"{rel}: the live view was still playing after 5 s")
    check("not-negotiated" not in out and "ERROR" not in out,
          f"{rel}: no error (not-negotiated) from the live view")


check(len(lives) >= 2, f"{len(lives)} documented live views of ivtvsrc to run")
if not check(live is not None, "capturing-tapes.md has its live-view line"):
    sys.exit(1)
if not shutil.which("Xvfb"):
    print("skip: no Xvfb (Debian xvfb) to run it on")
    sys.exit(1 if failures else 77)

# Xvfb writes its display number when ready; -noreset: autovideosink tries
# xvimagesink first and disconnects, and a server that resets then refuses
# the next client for a moment ("Could not open display")
rfd, wfd = os.pipe()
xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(wfd), "-screen", "0",
                         "800x600x24", "-nolisten", "tcp", "-noreset"],
                        pass_fds=[wfd],
                        stderr=subprocess.DEVNULL)
os.close(wfd)
try:
    with os.fdopen(rfd) as f:
        disp = ":" + f.readline().strip()
    env = dict(os.environ, DISPLAY=disp)
    for rel, cmd in lives:
        play(rel, cmd, env)
finally:
    xvfb.terminate()
    xvfb.wait()
sys.exit(1 if failures else 0)
