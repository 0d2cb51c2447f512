#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""tests/eco helper: run a command in a session of its own (SIGINT not
ignored, as at a terminal), wait until FILE exists and is not empty, let it
run SECONDS more, then Ctrl-C it (SIGINT to its process group) and exit
with its status (124 when it did not end within 30 s of the Ctrl-C).
    ctrl-c-after.py FILE SECONDS COMMAND [ARGS...]"""
import os
import signal
import subprocess
import sys
import time

path, seconds, argv = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
proc = subprocess.Popen(argv, start_new_session=True)
for _ in range(600):
    if proc.poll() is not None or (os.path.exists(path)
                                   and os.path.getsize(path) > 0):
        break
    time.sleep(0.05)
time.sleep(seconds)
if proc.poll() is None:
    os.killpg(proc.pid, signal.SIGINT)
try:
    sys.exit(proc.wait(timeout=30))
except subprocess.TimeoutExpired:
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    sys.exit(124)
