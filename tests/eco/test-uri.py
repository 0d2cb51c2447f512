#!/usr/bin/env python3
"""tests/eco: the ivtv:// URI handler without a device (PyGObject):
protocols, URI -> properties, properties -> URI, and every kind of bad URI
rejected with a GLib.Error whose message says what is wrong."""
import sys

try:
    import gi
    gi.require_version("Gst", "1.0")
    from gi.repository import Gst, GLib
except (ImportError, ValueError) as e:
    print(f"SKIP: PyGObject with Gst 1.0 not available ({e})")
    sys.exit(77)

Gst.init(None)
failures = 0


def check(cond, what):
    global failures
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures += 1


def bad(uri, needle):
    src = Gst.ElementFactory.make("ivtvsrc", None)
    try:
        src.set_uri(uri)
    except GLib.Error as e:
        check(needle in e.message, f"{uri!r} rejected: {e.message}")
        return
    check(False, f"{uri!r} should have been rejected")


fac = Gst.ElementFactory.find("ivtvsrc")
check(fac is not None, "ivtvsrc is registered")
if fac is None:
    sys.exit(1)
check("ivtv" in fac.get_uri_protocols(), "factory lists the ivtv protocol")
check(fac.get_uri_type() == Gst.URIType.SRC, "URI type is SRC")

src = Gst.Element.make_from_uri(
    Gst.URIType.SRC,
    "ivtv:///dev/video3?input=composite%202&standard=pal&io-mode=rw&blocksize=4096",
    None)
check(src is not None and src.get_factory().get_name() == "ivtvsrc",
      "make_from_uri gives an ivtvsrc")
check(src.get_property("device") == "/dev/video3", "path -> device")
check(src.get_property("input") == "composite 2", "input (unescaped)")
check(src.get_property("standard") == "pal", "standard")
check(src.get_property("blocksize") == 4096, "blocksize (uint)")
check(int(src.get_property("io-mode")) == 1, "io-mode=rw (enum)")
uri = src.get_uri()
again = Gst.Element.make_from_uri(Gst.URIType.SRC, uri, None)
check(uri.startswith("ivtv:///dev/video3?") and "standard=pal" in uri
      and again.get_property("input") == "composite 2"
      and again.get_property("device") == "/dev/video3",
      f"get_uri round-trips: {uri}")

src = Gst.ElementFactory.make("ivtvsrc", None)
src.set_uri("ivtv://")
check(src.get_property("device") == "/dev/video0", "ivtv:// -> /dev/video0")

bad("file:///dev/video0", "'file' not supported")
bad("ivtv://dev/video0", "names a host")
bad("ivtv:///dev/video0?inptu=composite", "Unknown parameter 'inptu'")
bad("ivtv:///dev/video0?device=/dev/video1", "the device is the URI's path")
bad("ivtv:///dev/video0?io-mode=fast", "one of auto, rw, mmap")
bad("ivtv:///dev/video0?blocksize=-5", "Bad value '-5' for 'blocksize'")
bad("ivtv:///dev/video0?num-buffers=many", "Bad value 'many'")
bad("ivtv:///dev/video0?input", "has no value")
bad("ivtv:///dev/video0?input=", "has no value")
bad("ivtv:///dev/video0?input=&standard=pal", "Parameter 'input'")
# a relative path would come back as a host (ivtv://dev/video0)
bad("ivtv:dev/video0", "relative path ('dev/video0')")
bad("ivtv:///dev/video0?input=%zz", "invalid %-escape at '%zz'")
bad("ivtv:///dev/video0?input=comp%", "invalid %-escape")
bad("ivtv:///dev/video%3", "invalid %-escape")
bad("ivtv:///dev/video0?input=%ff%fe", "not valid UTF-8")

# one slash is an absolute path: accepted, written back with three
src = Gst.ElementFactory.make("ivtvsrc", None)
src.set_uri("ivtv:/dev/video2")
check(src.get_property("device") == "/dev/video2"
      and src.get_uri() == "ivtv:///dev/video2",
      f"ivtv:/dev/video2 -> {src.get_uri()}")
# escaped UTF-8 is text
src.set_uri("ivtv:///dev/video0?input=cam%C3%A9ra")
check(src.get_property("input") == "cam\u00e9ra", "escaped UTF-8 input")

# a rejected URI changes nothing
src = Gst.ElementFactory.make("ivtvsrc", None)
src.set_property("device", "/dev/video5")
try:
    src.set_uri("ivtv:///dev/video1?standard=pal&bogus=1")
except GLib.Error:
    pass
check(src.get_property("device") == "/dev/video5"
      and src.get_property("standard") in (None, ""),
      "a rejected URI leaves the properties untouched")

sys.exit(1 if failures else 0)
