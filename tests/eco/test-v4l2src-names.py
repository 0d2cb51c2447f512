#!/usr/bin/python3
"""tests/eco: ivtvsrc takes v4l2src's property names and values: for every
v4l2src property that README.md's table maps to "same", ivtvsrc has a
property of that name and value type; norm and io-mode have every one of
v4l2src's nicks with the same value (norm: the V4L2 std id); both
elements implement the same interfaces (GstTuner aside)."""
import sys

try:
    import gi
    gi.require_version("Gst", "1.0")
    from gi.repository import GObject, Gst
except (ImportError, ValueError) as e:
    print(f"SKIP: PyGObject with Gst 1.0 not available ({e})")
    sys.exit(77)

Gst.init(None)
ivtv = Gst.ElementFactory.make("ivtvsrc")
v4l2 = Gst.ElementFactory.make("v4l2src")
if v4l2 is None:
    print("SKIP: no v4l2src (gstreamer1.0-plugins-good)")
    sys.exit(77)
failures = 0


def check(cond, what):
    global failures
    print(("ok: " if cond else "FAIL: ") + what)
    failures += 0 if cond else 1


SAME = ["device", "device-fd", "device-name", "norm", "brightness",
        "contrast", "saturation", "hue", "io-mode", "pixel-aspect-ratio",
        "extra-controls", "blocksize", "num-buffers", "do-timestamp"]
for name in SAME:
    a = ivtv.find_property(name)
    b = v4l2.find_property(name)
    check(a is not None and b is not None
          and (a.value_type == b.value_type
               or (GObject.type_is_a(a.value_type, GObject.TYPE_ENUM)
                   and GObject.type_is_a(b.value_type, GObject.TYPE_ENUM))),
          f"{name}: ivtvsrc has it, of v4l2src's type")


def nicks(pspec):
    """{nick: value} of an enum property"""
    klass = pspec.enum_class
    return {v.value_nick: int(v) for v in klass.__enum_values__.values()}


for name in ("norm", "io-mode"):
    theirs = nicks(v4l2.find_property(name))
    ours = nicks(ivtv.find_property(name))
    missing = {k: v for k, v in theirs.items() if ours.get(k) != v}
    check(not missing, f"{name}: every v4l2src nick with its value "
          f"({len(theirs)}; differing: {missing})")
    for nick in theirs:                  # as gst-launch-1.0 sets them
        Gst.util_set_object_arg(ivtv, name, nick)
        got = ivtv.get_property(name)
        check(int(got) == theirs[nick], f"{name}={nick} accepted")

for iface in ("GstColorBalance", "GstVideoOrientation", "GstURIHandler"):
    t = GObject.type_from_name(iface)
    check(GObject.type_is_a(type(v4l2).__gtype__, t)
          and GObject.type_is_a(type(ivtv).__gtype__, t),
          f"both implement {iface}")
sys.exit(1 if failures else 0)
