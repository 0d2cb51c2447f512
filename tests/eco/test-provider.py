#!/usr/bin/python3
"""tests/eco: ivtvdeviceprovider through the GstDeviceMonitor API, under
ivtv-emu with pvr250 (/dev/video0), webcam (/dev/video1), a notcapture
node (/dev/video2, video output), a webcam nobody may open (/dev/video3,
eacces-open) and a busy one (/dev/video4, ebusy-open): rank, which nodes
are listed and how (one entry per node, v4l2deviceprovider hidden, its
property keys), create_element and reconfigure_element, and that the caps
each device announces are the caps the element then really produces."""
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

provider = Gst.DeviceProviderFactory.get_by_name("ivtvdeviceprovider")
check("v4l2deviceprovider" in provider.get_hidden_providers(),
      "v4l2deviceprovider is hidden (one entry per node): "
      f"{provider.get_hidden_providers()}")


def listed(klass):
    mon = Gst.DeviceMonitor.new()
    mon.add_filter(klass, None)
    check(mon.start(), f"device monitor ({klass}) starts")
    found = {}
    for dev in mon.get_devices():
        props = dev.get_properties()
        if props is not None and props.get_name() == "ivtv-device-properties":
            path = props.get_string("device.path")
            check(path not in found, f"{klass}: {path} listed once")
            found[path] = dev
    mon.stop()
    return found


ours = listed("Video/Source")
check(sorted(ours) == ["/dev/video0", "/dev/video1", "/dev/video3",
                       "/dev/video4"],
      f"capture nodes listed (also those that do not open), the output node "
      f"not: {sorted(ours)}")

# v4l2deviceprovider's keys, with its types
p0 = ours["/dev/video0"].get_properties()
ok, caps_bits = p0.get_uint("v4l2.device.capabilities")
check(p0.get_string("v4l2.device.driver") == "ivtv"
      and p0.get_string("v4l2.device.card") == "WinTV PVR 250"
      and p0.get_string("v4l2.device.bus_info") == "PCI:0000:03:01.0"
      and ok and caps_bits & 0x1 and caps_bits & 0x01000000
      and p0.get_value("udev-probed") is False
      and p0.get_string("device.api") == "v4l2",
      f"/dev/video0: v4l2deviceprovider's keys: {p0.to_string()}")
check(ours["/dev/video0"].get_property("device-path") == "/dev/video0",
      "device-path property, as v4l2deviceprovider's devices")

# nodes that do not open are listed with the reason
for path, code, words in (("/dev/video3", "permission", "Permission denied"),
                          ("/dev/video4", "busy", "busy")):
    dev = ours.get(path)
    props = dev.get_properties() if dev else None
    err = props.get_string("ivtv.open-error") if props else None
    check(props is not None and err is not None and words in err
          and props.get_string("ivtv.open-error-code") == code
          and dev.get_device_class() == "Video/Source",
          f"{path}: listed with the reason it does not open: {err}")
    elem = dev.create_element(None) if dev else None
    check(elem is not None and elem.get_property("device") == path,
          f"{path}: create_element gives an ivtvsrc on it")
    if elem is not None:
        pipe = Gst.Pipeline.new()
        pipe.add(elem)
        pipe.set_state(Gst.State.READY)
        msg = pipe.get_bus().timed_pop_filtered(0, Gst.MessageType.ERROR)
        pipe.set_state(Gst.State.NULL)
        check(msg is not None and words in msg.parse_error()[0].message,
              f"{path}: the element says the same when opening")

# the output node: Video/Sink for v4l2sink, as v4l2deviceprovider would
if Gst.ElementFactory.find("v4l2sink") is not None:
    sinks = listed("Video/Sink")
    dev = sinks.get("/dev/video2")
    check(dev is not None and dev.get_device_class() == "Video/Sink",
          f"/dev/video2 (output) listed as Video/Sink: {sorted(sinks)}")
    elem = dev.create_element(None) if dev else None
    check(elem is not None and elem.get_factory().get_name() == "v4l2sink"
          and elem.get_property("device") == "/dev/video2",
          "/dev/video2: create_element gives a v4l2sink on it")
    check(sorted(sinks) == ["/dev/video2"], "only the output node is a sink")
else:
    print("skip: no v4l2sink (gstreamer1.0-plugins-good): output nodes")

for path, dev in sorted(ours.items()):
    if dev.get_properties().has_field("ivtv.open-error"):
        continue
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
found = [d for d in provider.get_devices()
         if d.get_properties().get_string("device.path") == "/dev/video0"]
caps = found[0].get_caps() if found else None
check(caps is not None and caps.is_equal(Gst.Caps.from_string(
    "video/mpegts, systemstream=true, packetsize=188")),
    f"stream_type=1 (TS): announced caps {caps.to_string() if caps else None}")
subprocess.run(["v4l2-ctl", "-d", "/dev/video0", "--set-ctrl=stream_type=0"],
               check=True)

sys.exit(1 if failures else 0)
