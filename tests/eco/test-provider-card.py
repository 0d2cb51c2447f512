#!/usr/bin/python3
"""tests/eco: ivtvdeviceprovider on whole cards, under ivtv-emu --card
pvr250 (MPEG /dev/video0, PCM /dev/video24, YUV /dev/video32, VBI
/dev/vbi0, radio /dev/radio0) with an stk1160 dongle (/dev/video1, its
sound an ALSA card of the same USB device in the emulator's sysfs): each
capture node listed once with its role (mpeg, audio, raw-video, vbi) and
class, the card's other nodes as ivtv.siblings, the radio node not listed
(nothing to capture), the dongle's ALSA capture device as alsa.device, and
ivtvsrc's read-only alsa-device property saying the same."""
import os
import sys

try:
    import gi
    gi.require_version("Gst", "1.0")
    from gi.repository import Gst
except (ImportError, ValueError) as e:
    print(f"SKIP: PyGObject with Gst 1.0 not available ({e})")
    sys.exit(77)

if "IVTV_EMU_DEVICES" not in os.environ:
    print("SKIP: not running under ivtv-emu")
    sys.exit(77)

Gst.init(None)
failures = 0


def check(cond, what):
    global failures
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures += 1


provider = Gst.DeviceProviderFactory.get_by_name("ivtvdeviceprovider")
devices = provider.get_devices()
by_path = {}
for d in devices:
    p = d.get_properties()
    path = p.get_string("device.path")
    check(path not in by_path, f"{path} listed once")
    by_path[path] = (d, p)

want = {
    "/dev/video0": ("mpeg", "Video/Source"),
    "/dev/video24": ("audio", "Audio/Source"),
    "/dev/video32": ("raw-video", "Video/Source"),
    "/dev/vbi0": ("vbi", "Captions/Source"),
    "/dev/video1": ("raw-video", "Video/Source"),
}
card = {"/dev/video0", "/dev/video24", "/dev/video32", "/dev/vbi0",
        "/dev/radio0"}
for path, (role, klass) in want.items():
    if path not in by_path:
        check(False, f"{path} is listed")
        continue
    d, p = by_path[path]
    check(p.get_string("ivtv.role") == role,
          f"{path}: role {p.get_string('ivtv.role')}, want {role}")
    check(d.get_device_class() == klass,
          f"{path}: class {d.get_device_class()}, want {klass}")
    sib = set(filter(None, (p.get_string("ivtv.siblings") or "").split(",")))
    if path in card:
        check(sib == card - {path}, f"{path}: siblings {sorted(sib)}")
        check(p.get_string("alsa.device") is None,
              f"{path}: no ALSA device (its sound is the PCM node)")
    else:
        check(sib == set(), f"{path}: no siblings, got {sorted(sib)}")
        check(p.get_string("alsa.device") == "hw:CARD=STK1160",
              f"{path}: alsa.device {p.get_string('alsa.device')}")
check("/dev/radio0" not in by_path, "the radio node is not listed")
check(len(by_path) == len(want), f"{len(by_path)} devices, want {len(want)}")

src = Gst.ElementFactory.make("ivtvsrc")
src.set_property("device", "/dev/video1")
check(src.get_property("alsa-device") == "hw:CARD=STK1160",
      f"ivtvsrc alsa-device on the dongle: {src.get_property('alsa-device')}")
src.set_property("device", "/dev/video0")
check(src.get_property("alsa-device") is None,
      "ivtvsrc alsa-device on the PVR-250: none")
sys.exit(1 if failures else 0)
