#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""tests/eco: a terminal Ctrl-C (SIGINT to the whole foreground process
group) on `ivtv-emu ... -- gst-launch-1.0 -e ...` ends the capture cleanly
and ivtv-emu exits with the command's status (0), as tests/emu/README.md
says, not its own 130.  Started from Python in a session of its own, so
SIGINT is not ignored as it is for a shell's background job.
    test-emu-ctrl-c.py IVTV_EMU"""
import os
import signal
import subprocess
import sys
import tempfile
import time

emu = sys.argv[1]
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "x.mpg")
    proc = subprocess.Popen(
        [emu, "--profile", "pvr250", "--", "gst-launch-1.0", "-e", "ivtvsrc",
         "input=composite", "!", "filesink", "location=" + out],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True)
    for _ in range(400):
        if os.path.exists(out) and os.path.getsize(out) > 0:
            break
        time.sleep(0.05)
    started = os.path.exists(out) and os.path.getsize(out) > 0
    os.killpg(proc.pid, signal.SIGINT)          # what the terminal does
    try:
        log = proc.communicate(timeout=30)[0]
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        log = proc.communicate()[0]
    print(log)
    checks = [
        (started, "the capture started"),
        ("handling interrupt" in log, "gst-launch-1.0 got the Ctrl-C"),
        ("Execution ended" in log, "gst-launch-1.0 finished (EOS) and exited"),
        (proc.returncode == 0,
         f"ivtv-emu exits {proc.returncode}: the command's status 0"),
    ]
    for cond, what in checks:
        print(("ok: " if cond else "FAIL: ") + what)
    sys.exit(0 if all(c for c, _ in checks) else 1)
