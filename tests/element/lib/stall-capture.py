#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""tests/element/lib: run a capture pipeline whose consumer blocks once, and say
what the source reported.

    stall-capture.py --stall-at S --stall-for T --seconds N PIPELINE

The element named "sink" gets a pad probe: the first buffer that reaches it
S seconds or more after the first one is held T seconds in the streaming
thread (a disk that does not answer).  After N seconds of wall time from
the first buffer the pipeline gets EOS (as gst-launch -e on Ctrl-C) and the
script waits for it to arrive.  Printed, one per line, key=value:
  warning=TEXT         each GST_ELEMENT_WARNING of the source
  error=TEXT           each error
  stats-messages=K     ivtvsrc-stats messages seen
  final-bytes-lost=B   from the final ivtvsrc-stats message (-1 if none)
  final-frames-lost=F, final-bytes=B
  offsets=contiguous|gap AT   buffer offsets at the sink (frames or bytes)
  buffers=N            buffers that reached the sink
  max-gap-ms=M         the longest time between two buffers before the stall
  window-buffers=N     buffers between the first second and the stall
                       (after the first second)
Exit 0 when the pipeline reached EOS, 1 on an error, 2 on a timeout.
"""
import argparse
import sys
import threading
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stall-at", type=float, default=0)
    ap.add_argument("--stall-for", type=float, default=0)
    ap.add_argument("--seconds", type=float, required=True)
    ap.add_argument("pipeline")
    args = ap.parse_args()

    Gst.init(None)
    pipe = Gst.parse_launch(args.pipeline)
    sink = pipe.get_by_name("sink")
    state = {"first": None, "stalled": False, "next": None, "gap": None,
             "stats": 0, "final": None, "rc": 2, "eos_sent": False,
             "buffers": 0, "last": None, "max_gap": 0.0, "window": 0}

    def probe(pad, info):
        buf = info.get_buffer()
        now = time.monotonic()
        state["buffers"] += 1
        if state["first"] is None:
            state["first"] = now
        # the longest time between two buffers before the stall, after the
        # first second: how long data waits in the element at the real rate
        if (state["last"] is not None and not state["stalled"]
                and now - state["first"] > 1.0):
            state["max_gap"] = max(state["max_gap"], now - state["last"])
            state["window"] += 1
        state["last"] = now
        off, end = buf.offset, buf.offset_end
        if off != Gst.BUFFER_OFFSET_NONE and state["gap"] is None:
            if state["next"] is not None and off != state["next"]:
                state["gap"] = "%d (expected %d)" % (off, state["next"])
            state["next"] = end if end != Gst.BUFFER_OFFSET_NONE else off + 1
        if (args.stall_for > 0 and not state["stalled"]
                and now - state["first"] >= args.stall_at):
            state["stalled"] = True
            print("stall: holding the streaming thread %.1f s" %
                  args.stall_for, file=sys.stderr, flush=True)
            time.sleep(args.stall_for)
        return Gst.PadProbeReturn.OK

    sink.get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER, probe)
    loop = GLib.MainLoop()

    def on_message(bus, msg):
        t = msg.type
        if t == Gst.MessageType.WARNING:
            err, _ = msg.parse_warning()
            print("warning=%s" % err.message, flush=True)
        elif t == Gst.MessageType.ERROR:
            err, dbg = msg.parse_error()
            print("error=%s (%s)" % (err.message, dbg), flush=True)
            state["rc"] = 1
            loop.quit()
        elif t == Gst.MessageType.EOS:
            state["rc"] = 0
            loop.quit()
        elif t == Gst.MessageType.ELEMENT:
            s = msg.get_structure()
            if s and s.get_name() == "ivtvsrc-stats":
                state["stats"] += 1
                if s.get_value("final"):
                    state["final"] = s
        return True

    def tick():
        first = state["first"]
        if (first is not None and not state["eos_sent"]
                and time.monotonic() - first >= args.seconds):
            state["eos_sent"] = True
            # from another thread: the streaming thread may be the one
            # that is blocked in the probe
            threading.Thread(target=pipe.send_event,
                             args=(Gst.Event.new_eos(),)).start()
        return True

    bus = pipe.get_bus()
    bus.add_signal_watch()
    bus.connect("message", on_message)
    GLib.timeout_add(50, tick)
    GLib.timeout_add_seconds(int(args.seconds + args.stall_for + 30),
                             loop.quit)
    pipe.set_state(Gst.State.PLAYING)
    loop.run()
    pipe.set_state(Gst.State.NULL)

    print("buffers=%d" % state["buffers"])
    print("max-gap-ms=%d" % round(state["max_gap"] * 1000))
    print("window-buffers=%d" % state["window"])
    print("stats-messages=%d" % state["stats"])
    fin = state["final"]
    for f in ("bytes-lost", "frames-lost", "bytes"):
        print("final-%s=%s" % (f, fin.get_value(f) if fin else -1))
    print("offsets=%s" % ("contiguous" if state["gap"] is None
                          else "gap " + state["gap"]))
    return state["rc"]


if __name__ == "__main__":
    sys.exit(main())
