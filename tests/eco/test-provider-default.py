#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""tests/eco: the device provider is a good neighbour (issue 27).  Under
ivtv-emu with a whole PVR-250 (MPEG video0, PCM video24, YUV/HM12 video32,
VBI vbi0) and a streaming webcam (video1), a GstDeviceMonitor (what
gst-device-monitor-1.0, cheese and OBS use) lists each node once: the
card's nodes with ivtvsrc, the webcam with v4l2src (v4l2deviceprovider's
element) -- by default; with IVTV_DEVICE_PROVIDER=all every capture node
with ivtvsrc.  Run as: ivtv-emu --card pvr250 --profile webcam -- python3
test-provider-default.py"""
import os
import subprocess
import sys

import gi
gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

if len(sys.argv) > 1:                   # the child: one setting
    Gst.init(None)
    mon = Gst.DeviceMonitor()
    mon.start()
    for dev in mon.get_devices():
        props = dev.get_properties()
        path = props.get_string("device.path") if props else None
        elem = dev.create_element(None)
        if path and path.startswith("/dev/"):
            print(path, elem.get_factory().get_name() if elem else "-")
    mon.stop()
    sys.exit(0)

failures = 0


def check(cond, what):
    global failures
    print(("ok: " if cond else "FAIL: ") + what)
    failures += 0 if cond else 1


def listing(setting):
    env = dict(os.environ)
    env.pop("IVTV_DEVICE_PROVIDER", None)
    if setting:
        env["IVTV_DEVICE_PROVIDER"] = setting
    out = subprocess.run([sys.executable, __file__, "child"], env=env,
                         stdout=subprocess.PIPE, text=True, timeout=60).stdout
    pairs = [line.split() for line in out.splitlines() if line.strip()]
    print(f"IVTV_DEVICE_PROVIDER={setting or '(unset)'}: {pairs}")
    return pairs


want = {"/dev/video0": "ivtvsrc", "/dev/video24": "ivtvsrc",
        "/dev/video32": "ivtvsrc", "/dev/vbi0": "ivtvsrc",
        "/dev/video1": "v4l2src"}
for setting in ("", "all"):
    pairs = listing(setting)
    paths = [p for p, _ in pairs]
    for path, element in want.items():
        if setting == "all":
            element = "ivtvsrc"
        got = [e for p, e in pairs if p == path]
        check(got == [element], f"{setting or 'default'}: {path} listed once, "
              f"with {element} (got {got})")
    check(len(paths) == len(set(paths)), f"{setting or 'default'}: no node "
          "twice")
sys.exit(1 if failures else 0)
