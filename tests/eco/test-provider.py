#!/usr/bin/python3
"""tests/eco: ivtvdeviceprovider through the GstDeviceMonitor API, under
ivtv-emu with pvr250 (/dev/video0), webcam (/dev/video1) and a notcapture
node (/dev/video2): rank, which nodes are listed, create_element and
reconfigure_element, and that the caps each device announces are the caps
the element then really produces."""
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


fac = Gst.DeviceProviderFactory.find("ivtvdeviceprovider")
check(fac is not None, "ivtvdeviceprovider is registered")
if fac is None:
    sys.exit(1)
check(fac.get_rank() == Gst.Rank.SECONDARY,
      f"rank secondary (below v4l2deviceprovider), got {fac.get_rank()}")

mon = Gst.DeviceMonitor.new()
mon.add_filter("Video/Source", None)
check(mon.start(), "device monitor starts")
ours = {}
for dev in mon.get_devices():
    props = dev.get_properties()
    if props is not None and props.get_name() == "ivtv-device-properties":
        ours[props.get_string("device.path")] = dev
mon.stop()
check(sorted(ours) == ["/dev/video0", "/dev/video1"],
      f"the two capture nodes listed, the output-only node not: {sorted(ours)}")

for path, dev in sorted(ours.items()):
    elem = dev.create_element(None)
    check(elem is not None and elem.get_factory().get_name() == "ivtvsrc"
          and elem.get_property("device") == path,
          f"{path}: create_element gives an ivtvsrc on {path}")
    other = Gst.ElementFactory.make("ivtvsrc", None)
    check(dev.reconfigure_element(other)
          and other.get_property("device") == path,
          f"{path}: reconfigure_element points an ivtvsrc at it")
    check(not dev.reconfigure_element(Gst.ElementFactory.make("fakesrc")),
          f"{path}: reconfigure_element refuses a fakesrc")

    # the announced caps are what the element produces
    announced = dev.get_caps()
    pipe = Gst.Pipeline.new()
    sink = Gst.ElementFactory.make("fakesink", None)
    elem.set_property("num-buffers", 10)
    pipe.add(elem)
    pipe.add(sink)
    elem.link(sink)
    pipe.set_state(Gst.State.PLAYING)
    msg = pipe.get_bus().timed_pop_filtered(
        10 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
    caps = elem.get_static_pad("src").get_current_caps()
    pipe.set_state(Gst.State.NULL)
    check(msg is not None and msg.type == Gst.MessageType.EOS,
          f"{path}: captures 10 buffers "
          f"({msg.parse_error()[0].message if msg and msg.type == Gst.MessageType.ERROR else 'ok'})")
    check(caps is not None and caps.is_subset(announced),
          f"{path}: produced caps {caps.to_string() if caps else None} "
          f"are within the announced ones")
    if path == "/dev/video0":
        check(announced.is_equal(Gst.Caps.from_string(
            "video/mpeg, mpegversion=2, systemstream=true")),
            f"{path}: announced caps are exactly the card's program stream")

# the announced MPEG caps follow the card's stream-type control
import subprocess  # noqa: E402
subprocess.run(["v4l2-ctl", "-d", "/dev/video0", "--set-ctrl=stream_type=1"],
               check=True)
dev = Gst.DeviceProviderFactory.get_by_name("ivtvdeviceprovider")
found = [d for d in dev.get_devices()
         if d.get_properties().get_string("device.path") == "/dev/video0"]
caps = found[0].get_caps() if found else None
check(caps is not None and caps.is_equal(Gst.Caps.from_string(
    "video/mpegts, systemstream=true, packetsize=188")),
    f"stream_type=1 (TS): announced caps {caps.to_string() if caps else None}")
subprocess.run(["v4l2-ctl", "-d", "/dev/video0", "--set-ctrl=stream_type=0"],
               check=True)

sys.exit(1 if failures else 0)
