#!/usr/bin/env python3
# The real hdpvr driver (drivers/media/usb/hdpvr) bound to ivtv-usbdev's HD
# PVR model over USB/IP: one device for the whole boot, the checks of
# tests/vm/usbip/checks.txt in order (bind, compliance, caps, input and
# standard, every way a recording ends, a busy device, a stalled consumer,
# URB errors, end of signal, unplug, re-plug).  Every capture is compared
# byte for byte with the stream the device fed (each stream the driver
# starts begins at byte 0 of $STREAM).
import os
import re
import signal
import subprocess
import threading
import time

from usbcheck import (Device, Fail, Skip, Stream, check, exact_prefix, finish,
                      gst_errors, log, run, start, wait_gone, wait_node,
                      wait_size)

STREAM = Stream(os.environ["STREAM"], seamless_ts=True)
TMP = os.environ.get("TMPDIR", "/tmp")
CARD = "Hauppauge HD PVR"
GST = ["gst-launch-1.0"]
dev = Device("hdpvr", os.environ["STREAM"])
node = {"dev": None}


def out(name):
    p = os.path.join(TMP, name)
    if os.path.exists(p):
        os.unlink(p)
    return p


def settle():
    """Waits until the device's last stream stopped (the driver's release
    stops it: hdpvr-video.c hdpvr_release -> hdpvr_stop_streaming)."""
    end = time.monotonic() + 40
    while time.monotonic() < end:
        if len(dev.find(r"stream-start")) == len(dev.find(r"stream-stop")):
            return
        time.sleep(0.3)
    raise Fail("the device's stream was not stopped 40 s after the capture ended")


def one_stream(mark, path, what):
    """The file is the fed stream from its first byte, and the driver
    started the device once: nothing of a second stream follows."""
    n = exact_prefix(STREAM, path, what)
    starts = dev.sessions(mark)
    if len(starts) != 1:
        raise Fail("%s: %d bytes, an exact prefix of the stream, but the device "
                   "was started %d times (a new stream after the stop: "
                   "read() after the stop restarts hdpvr, hdpvr_read)"
                   % (what, n, len(starts)))
    return n


def src(extra=""):
    return ["ivtvsrc", "device=" + node["dev"]] + extra.split()


def c_bind():
    t0 = time.monotonic()
    node["dev"] = wait_node(CARD)
    info = run(["v4l2-ctl", "-d", node["dev"], "-D"], 60, check=True).stdout
    if "hdpvr" not in info:
        raise Fail("driver is not hdpvr: " + info[:200])
    return "%s bound by hdpvr %.0f s after the attach" % (node["dev"], time.monotonic() - t0)


def need_node():
    if not node["dev"]:
        raise Skip("the driver did not bind")
    return node["dev"]


def c_compliance():
    p = run(["v4l2-compliance", "-d", need_node()], 300)
    m = re.search(r"Total for \S+ device \S+: (\d+), Succeeded: (\d+), Failed: (\d+), "
                  r"Warnings: (\d+)", p.stdout)
    if not m:
        raise Fail("no v4l2-compliance total line")
    fails = [l.strip() for l in p.stdout.splitlines() if "FAIL" in l]
    settle()
    return "v4l2-compliance: %s tests, %s failed, %s warnings (%s)" % (
        m.group(1), m.group(3), m.group(4), "; ".join(fails)[:400])


def c_caps():
    need_node()
    p = run(GST + ["-v"] + src("num-buffers=20") + ["!", "fakesink"], 120)
    settle()
    m = re.search(r"ivtvsrc0\.GstPad:src: caps = (.*)", p.stdout)
    if p.returncode or not m:
        raise Fail("no caps on ivtvsrc's pad (rc %d)" % p.returncode)
    if not m.group(1).startswith("video/mpegts"):
        raise Fail("caps %s, want video/mpegts (hdpvr: H.264+AAC in MPEG-TS)" % m.group(1))
    return m.group(1)


def c_input_std():
    d = need_node()
    mark = dev.mark()
    p = run(GST + src("input=composite standard=pal num-buffers=10") + ["!", "fakesink"], 120)
    settle()
    if p.returncode:
        raise Fail("capture with input=composite standard=pal failed: %s" % gst_errors(p.stdout))
    inp = run(["v4l2-ctl", "-d", d, "--get-input"], 30).stdout
    std = run(["v4l2-ctl", "-d", d, "--get-standard"], 30).stdout
    if "Composite" not in inp:
        raise Fail("input after input=composite: %s" % inp.strip())
    if "PAL" not in std:
        raise Fail("standard after standard=pal: %s" % std.strip())
    # the driver told the card: hdpvr_config_call CTRL_VIDEO_INPUT_VALUE 3,
    # CTRL_VIDEO_STD_TYPE 1 (50 Hz); the device logs no config values, so
    # the node's view is the check
    run(["v4l2-ctl", "-d", d, "-i", "0", "-s", "ntsc"], 30)
    return "Composite, PAL (%d device events)" % (dev.mark() - mark)


def record_until(cmd, path, size, stop, timeout=60):
    """Starts cmd, waits for path to hold size bytes, then stop(proc)."""
    mark = dev.mark()
    p = start(cmd)
    wait_size(path, size, 120, p)
    stop(p)
    o = finish(p, timeout)
    settle()
    return mark, p, o


def c_end_num_buffers():
    need_node()
    path = out("nb.ts")
    mark = dev.mark()
    p = run(GST + src("num-buffers=300") + ["!", "filesink", "location=" + path], 180)
    settle()
    if p.returncode:
        raise Fail("gst-launch failed: %s" % gst_errors(p.stdout))
    n = one_stream(mark, path, "num-buffers=300")
    return "%d bytes, the stream's first bytes exactly, one stream" % n


def c_end_sigint():
    need_node()
    path = out("sigint.ts")
    mark, p, o = record_until(
        GST + ["-e"] + src() + ["!", "filesink", "location=" + path], path,
        2 << 20, lambda p: os.kill(p.pid, signal.SIGINT))
    if p.returncode:
        raise Fail("gst-launch -e ended with %d after SIGINT: %s" % (p.returncode, gst_errors(o)))
    n = one_stream(mark, path, "gst-launch -e, SIGINT")
    return "%d bytes, exact, one stream" % n


def c_end_max_time():
    d = need_node()
    path = out("maxtime.ts")
    mark = dev.mark()
    p = run(["ivtv-capture", "-d", d, "-t", "8", "-n", "0", "-f", path], 180)
    settle()
    if p.returncode:
        raise Fail("ivtv-capture --max-time 8 ended with %d" % p.returncode)
    n = one_stream(mark, path, "ivtv-capture --max-time 8")
    sidecar(path, n)
    return "%d bytes, exact, one stream, FILE.json agrees" % n


def sidecar(path, n):
    """ivtv-capture's FILE.json says the file's size."""
    import json
    try:
        rec = json.load(open(path + ".json"))
    except (OSError, ValueError) as e:
        raise Fail("%s.json: %s" % (path, e))
    if rec.get("bytes") != n:
        raise Fail("%s.json says %r bytes, the file has %d" % (path, rec.get("bytes"), n))
    return rec


def c_end_of_tape():
    """ivtv-capture's end of tape (no signal for 3 s): exit 0, the file is
    every byte the device sent, the sidecar says so."""
    d = need_node()
    path = out("eot.ts")
    mark = dev.mark()
    p = start(["ivtv-capture", "-d", d, "-n", "3", "-f", path])
    wait_size(path, 1 << 20, 120, p)
    dev.send("signal off")
    sent = int(dev.wait(r"signal off session=\d+ bytes=(\d+)", 10, mark).group(1))
    t0 = time.monotonic()
    try:
        o = finish(p, 60)
    finally:
        dev.send("signal on")
    took = time.monotonic() - t0
    settle()
    if p.returncode != 0:
        raise Fail("ivtv-capture ended with %d %.0f s after the signal went: %s"
                   % (p.returncode, took, o.strip()[-200:]))
    n = exact_prefix(STREAM, path, "end of tape")
    if n != sent:
        raise Fail("the file holds %d bytes, the device sent %d" % (n, sent))
    sidecar(path, n)
    return "exit 0 %.0f s after the signal went; %d bytes, all the device sent; " \
        "FILE.json agrees" % (took, n)


def c_busy():
    """A second ivtvsrc and v4l2-ctl while one records: each refused with a
    readable error, and the recording goes on untouched."""
    d = need_node()
    path = out("busy.ts")
    mark = dev.mark()
    p = start(GST + ["-e"] + src() + ["!", "filesink", "location=" + path])
    wait_size(path, 1 << 20, 120, p)
    second = run(GST + src("num-buffers=10") + ["!", "fakesink"], 120)
    ctl = run(["v4l2-ctl", "-d", d, "-i", "1"], 30)
    size = os.path.getsize(path)
    stop_at = wait_size(path, size + (1 << 20), 60, p)
    os.kill(p.pid, signal.SIGINT)
    finish(p, 60)
    settle()
    errs = gst_errors(second.stdout)
    if second.returncode == 0:
        raise Fail("a second ivtvsrc captured while the first recorded")
    if len(errs) != 1:
        raise Fail("second ivtvsrc: %d error messages, want one: %s" % (len(errs), errs))
    if ctl.returncode == 0:
        raise Fail("v4l2-ctl -i 1 changed the input during the recording")
    inp = run(["v4l2-ctl", "-d", d, "--get-input"], 30).stdout
    if "Component" not in inp:
        raise Fail("the input changed during the recording: %s" % inp.strip())
    # what follows the stop is end-sigint's matter: the bytes before it
    n = exact_prefix(STREAM, path, "the recording before its stop", stop_at)
    return "second instance: %s; v4l2-ctl -i 1: %s; recording %d bytes exact" % (
        errs[0].replace("\n", " ")[:160], ctl.stdout.strip()[-80:], n)


def c_stall():
    """The consumer takes nothing for 25 s: the element reads on, and the
    file is still the whole stream up to the stop (the device's FIFO never
    overflowed). What follows the stop is end-sigint's matter."""
    need_node()
    path = out("stall.ts")
    mark = dev.mark()
    p = subprocess.Popen(GST + ["-q", "-e"] + src() + ["!", "fdsink", "fd=1"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    got = {"n": 0}

    def consumer():
        time.sleep(25)      # takes nothing: the pipe fills, fdsink blocks
        with open(path, "wb") as f:
            for chunk in iter(lambda: p.stdout.read(65536), b""):
                f.write(chunk)
                got["n"] += len(chunk)

    t = threading.Thread(target=consumer, daemon=True)
    t.start()
    end = time.monotonic() + 150
    while got["n"] < (20 << 20) and time.monotonic() < end and p.poll() is None:
        time.sleep(0.3)
    stop_at = got["n"]
    p.send_signal(signal.SIGINT)
    try:
        p.wait(60)
    except subprocess.TimeoutExpired:
        p.kill()
        raise Fail("gst-launch did not end 60 s after SIGINT")
    t.join(30)
    settle()
    if stop_at < (20 << 20):
        raise Fail("only %d bytes came out after the stall (rc %s): %s" % (
            stop_at, p.returncode, p.stderr.read().decode(errors="replace")[-300:]))
    lost = dev.find(r"overflow session=\d+ dropped=(\d+)", mark)
    if lost:
        raise Fail("the device dropped %s bytes: nobody read for too long" % lost[-1].group(1))
    n = exact_prefix(STREAM, path, "after a 25 s stall", stop_at)
    return "%d bytes exact up to the stop after the consumer slept 25 s, nothing " \
        "dropped" % n


def c_urb_error():
    need_node()
    path = out("urberr.ts")
    mark = dev.mark()
    p = start(GST + ["-e"] + src() + ["!", "filesink", "location=" + path])
    wait_size(path, 1 << 20, 120, p)
    dev.send("error 1 71 3")
    dev.wait(r"fault ep=1 status=-71", 30, mark)
    size = os.path.getsize(path)
    stop_at = wait_size(path, size + (1 << 20), 60, p)
    os.kill(p.pid, signal.SIGINT)
    o = finish(p, 60)
    settle()
    # the bytes before the stop (after it: end-sigint's matter)
    n = exact_prefix(STREAM, path, "3 URBs with -EPROTO", stop_at)
    return "%d bytes exact across 3 -EPROTO URBs (rc %d, %d errors)" % (
        n, p.returncode, len(gst_errors(o)))


def c_end_signal():
    """The source goes black (get_video_info: no signal): the device sends
    nothing more; signal-timeout=3 ends the recording with EOS, and the
    file holds every byte the device sent."""
    need_node()
    path = out("nosig.ts")
    mark = dev.mark()
    p = start(GST + ["-e"] + src("signal-timeout=3") + ["!", "filesink", "location=" + path])
    wait_size(path, 1 << 20, 120, p)
    dev.send("signal off")
    sent = int(dev.wait(r"signal off session=\d+ bytes=(\d+)", 10, mark).group(1))
    t0 = time.monotonic()
    try:
        o = finish(p, 60)
    finally:
        dev.send("signal on")
    took = time.monotonic() - t0
    settle()
    errs = gst_errors(o)
    n = exact_prefix(STREAM, path, "end of signal")
    if n != sent:
        raise Fail("the file holds %d bytes, the device sent %d before the signal "
                   "ended" % (n, sent))
    if p.returncode or errs:
        raise Fail("ended with an error %.0f s after the signal went: %s" % (took, errs))
    return "EOS %.0f s after the signal went; %d bytes, all the device sent" % (took, n)


def c_unplug():
    d = need_node()
    path = out("unplug.ts")
    p = start(GST + src() + ["!", "filesink", "location=" + path])
    wait_size(path, 1 << 20, 120, p)
    t0 = time.monotonic()
    dev.send("unplug")
    o = finish(p, 60)
    took = time.monotonic() - t0
    errs = gst_errors(o)
    n = exact_prefix(STREAM, path, "unplugged recording")
    wait_gone(d)
    node["dev"] = None
    # exactly one, the element's: create() returns EOS after posting it, so
    # GstBaseSrc adds no generic "Internal data stream error"
    if p.returncode == 0 or len(errs) != 1:
        raise Fail("unplug: rc %d, %d error messages (want the element's "
                   "one): %s" % (p.returncode, len(errs), errs))
    if took > 20:
        raise Fail("the error came %.0f s after the unplug" % took)
    return "one error %.1f s after the unplug: %s; %d bytes kept, exact" % (
        took, errs[0].replace("\n", " ")[:160], n)


def c_replug():
    if node["dev"]:
        dev.send("unplug")
        wait_gone(node["dev"])
    dev.send("plug")
    node["dev"] = wait_node(CARD)
    path = out("replug.ts")
    mark = dev.mark()
    p = run(GST + src("num-buffers=200") + ["!", "filesink", "location=" + path], 180)
    settle()
    if p.returncode:
        raise Fail("capture after the re-plug failed: %s" % gst_errors(p.stdout))
    n = one_stream(mark, path, "after the re-plug")
    return "%s again; %d bytes from the stream's first byte" % (node["dev"], n)


CHECKS = [
    ("bind", c_bind), ("compliance", c_compliance), ("caps", c_caps),
    ("input-std", c_input_std), ("end-num-buffers", c_end_num_buffers),
    ("end-sigint", c_end_sigint), ("end-max-time", c_end_max_time),
    ("busy", c_busy), ("stall-25s", c_stall), ("urb-error", c_urb_error),
    ("end-signal", c_end_signal), ("end-of-tape", c_end_of_tape), ("unplug", c_unplug), ("replug", c_replug),
]

if __name__ == "__main__":
    try:
        dev.wait(r"attached port=", 30)
        for name, fn in CHECKS:
            check("hdpvr." + name, fn)
    finally:
        dev.quit()
        log("device events:\n" + "\n".join(dev.events[-60:]))
