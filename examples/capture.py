#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""examples/capture.py — capture an MPEG encoder card (Hauppauge PVR-150/250/
350/500, driver ivtv; also cx18, pvrusb2) to a file with ivtvsrc, from
Python (PyGObject; Debian: python3-gi, gir1.2-gstreamer-1.0, python3-gst-1.0).

Finds the card through GStreamer's device monitor, captures for N seconds or
until the end of the tape (no signal for a while, where ivtvsrc has
signal-timeout), prints bytes / duration / signal once a second, and ends
the file cleanly on Ctrl-C.

    capture.py [-t SECONDS] [-i INPUT] [-s STANDARD] [-e SECONDS] OUT.mpg
"""
import argparse
import signal
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

MPEG_DRIVERS = ("ivtv", "cx18", "pvrusb2")


def find_card():
    """The first device ivtvsrc captures from, MPEG encoder cards first."""
    mon = Gst.DeviceMonitor.new()
    mon.add_filter("Video/Source", None)
    if not mon.start():
        return None
    best = any_ = None
    for dev in mon.get_devices():
        elem = dev.create_element(None)
        if elem is None or elem.get_factory().get_name() != "ivtvsrc":
            continue
        props = dev.get_properties()
        driver = props.get_string("device.driver") if props else None
        if driver in MPEG_DRIVERS and best is None:
            best = dev
        if any_ is None:
            any_ = dev
    mon.stop()
    return best or any_


class Capture:
    def __init__(self, args):
        self.args = args
        self.loop = GLib.MainLoop()
        self.bytes = 0
        self.signal = "?"
        self.stopping = False
        self.eos = False  # the file is complete
        self.status = 0

    def count(self, pad, info):
        self.bytes += info.get_buffer().get_size()
        return Gst.PadProbeReturn.OK

    def stop(self, why):
        if self.stopping:
            print("\nStopping now (the file may be incomplete).",
                  file=sys.stderr)
            self.loop.quit()
            return
        self.stopping = True
        print("\n%s: finishing the file..." % why, file=sys.stderr)
        self.pipeline.send_event(Gst.Event.new_eos())

    def tick(self):
        ok, pos = self.pipeline.query_position(Gst.Format.TIME)
        secs = pos / Gst.SECOND if ok else 0.0
        print("\r%8.2f MB  %02d:%02d:%04.1f  signal: %-24s" % (
            self.bytes / 1e6, secs // 3600, secs % 3600 // 60, secs % 60,
            self.signal), end="", flush=True)
        return True

    def on_message(self, bus, msg):
        t = msg.type
        if t == Gst.MessageType.EOS:
            self.eos = True
            self.loop.quit()
        elif t == Gst.MessageType.ERROR:
            err, dbg = msg.parse_error()
            print("\nError: %s\n(%s)" % (err.message, dbg or ""),
                  file=sys.stderr)
            self.status = 1
            self.loop.quit()
        elif t == Gst.MessageType.WARNING:
            err, _ = msg.parse_warning()
            print("\nWarning: %s" % err.message, file=sys.stderr)
        elif t == Gst.MessageType.ELEMENT:
            s = msg.get_structure()
            if s.has_name("ivtvsrc-signal"):
                ok, present = s.get_boolean("present")
                if ok:
                    self.signal = "%s (%s)" % ("yes" if present else "NO",
                                               s.get_string("input") or "?")
        return True

    def run(self):
        dev = find_card()
        if dev is None:
            print("No capture device found (is the card's driver loaded? "
                  "ls /dev/video*; is the ivtv plugin installed? "
                  "gst-inspect-1.0 ivtvsrc).", file=sys.stderr)
            return 1
        src = dev.create_element("src")
        print("Capturing from %s (%s) to %s" % (
            dev.get_display_name(), src.get_property("device"),
            self.args.output))
        for prop, value in (("input", self.args.input),
                            ("standard", self.args.standard)):
            if value is not None:
                Gst.util_set_object_arg(src, prop, value)
        if src.find_property("signal-timeout") is not None:
            Gst.util_set_object_arg(src, "signal-timeout",
                                    str(self.args.end_of_tape))

        self.pipeline = Gst.Pipeline.new("capture")
        queue = Gst.ElementFactory.make("queue", None)
        sink = Gst.ElementFactory.make("filesink", None)
        # a slow disk must not stall the card: a large queue, bytes only
        queue.set_property("max-size-buffers", 0)
        queue.set_property("max-size-time", 0)
        queue.set_property("max-size-bytes", 64 * 1024 * 1024)
        sink.set_property("location", self.args.output)
        for e in (src, queue, sink):
            self.pipeline.add(e)
        if not (src.link(queue) and queue.link(sink)):
            print("Could not link ivtvsrc ! queue ! filesink.",
                  file=sys.stderr)
            return 1
        # bytes captured (what left the source); on EOS all of it is on disk
        src.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER,
                                            self.count)

        bus = self.pipeline.get_bus()
        bus.add_signal_watch()
        bus.connect("message", self.on_message)
        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGINT,
                             lambda: self.stop("Interrupted") or True)
        GLib.timeout_add_seconds(1, self.tick)
        if self.args.time > 0:
            GLib.timeout_add_seconds(self.args.time,
                                     lambda: self.stop("Duration reached"))

        if self.pipeline.set_state(Gst.State.PLAYING) == \
                Gst.StateChangeReturn.FAILURE:
            self.status = 1
            ctx = GLib.MainContext.default()
            while ctx.iteration(False):
                pass
        else:
            self.loop.run()
        self.tick()
        print()
        self.pipeline.set_state(Gst.State.NULL)
        bus.remove_signal_watch()
        if self.status == 0:
            print("Wrote %d bytes to %s%s" % (
                self.bytes, self.args.output,
                " (complete: end of stream)" if self.eos else
                " (stopped before the end of stream: the file may be "
                "incomplete)"))
        return self.status


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-t", "--time", type=int, default=0,
                    help="capture this many seconds (default: until Ctrl-C "
                    "or the end of the tape)")
    ap.add_argument("-i", "--input", help="input: composite, svideo, tuner, "
                    "... (default: the card's)")
    ap.add_argument("-s", "--standard", help="TV standard: ntsc, pal, "
                    "secam, ... (default: the card's)")
    ap.add_argument("-e", "--end-of-tape", type=int, default=10,
                    help="stop after this many seconds without signal "
                    "(needs ivtvsrc's signal-timeout; default 10)")
    ap.add_argument("output", help="output file, e.g. tape.mpg")
    args = ap.parse_args()
    Gst.init(None)
    return Capture(args).run()


if __name__ == "__main__":
    sys.exit(main())
