# Guest-side check library of the vivid suite (runs chrooted in the qemu
# guest, Debian python3 + gi): runs one GStreamer capture pipeline at a time
# against a real vivid device and records what happened (buffers with their
# offsets, sizes, flags and a hash of a picture band; bus warnings and errors;
# caps; properties after the run), plus v4l2-ctl helpers and the result files
# RESULTS/checks/<id>.result ("pass|fail|skip <reason>") and <id>.log.
import gc
import hashlib
import os
import re
import subprocess
import sys
import threading
import time
import traceback

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

Gst.init(None)


def _warm_gi():
    """PyGObject fills in the methods of an introspected class lazily, and
    that is not thread-safe: with several streaming threads calling into the
    probe at once, one of them has seen a half-built Gst.Caps (AttributeError
    'Caps' object has no attribute 'get_structure'). Touch every method the
    probes use once, here in the main thread, before any pipeline runs."""
    caps = Gst.Caps.from_string("video/x-raw,format=YUY2,width=2,height=2")
    st = caps.get_structure(0)
    st.get_int("width"), st.get_string("format"), st.to_string(), caps.to_string()
    buf = Gst.Buffer.new_allocate(None, 8, None)
    buf.get_size(), buf.get_flags(), buf.offset, buf.pts, buf.extract_dup(0, 4)
    ok, info = buf.map(Gst.MapFlags.READ)
    if ok:
        bytes(info.data[:1])
        buf.unmap(info)
    pad = Gst.Pad.new("warm", Gst.PadDirection.SRC)
    pad.get_current_caps()
    Gst.PadProbeInfo.get_buffer


_warm_gi()

RESULTS = os.environ.get("RESULTS", "/tmp/vivid-results")
ONLY = os.environ.get("ONLY", "")
# the check ids this run asks for (vmrun.py, from checks.txt); empty: all
WANTED = set(os.environ.get("CHECKS", "").split())
PLUGIN = os.path.join(os.environ.get("PLUGIN_DIR", ""), "libgstivtv.so")
CHECKS = os.path.join(RESULTS, "checks")
os.makedirs(CHECKS, exist_ok=True)


class Skip(Exception):
    pass


class Fail(Exception):
    pass


def have_element(name):
    if name == "ivtvsrc":
        if not os.path.exists(PLUGIN):
            raise Skip("ivtvsrc not built (%s missing)" % PLUGIN)
        if not Gst.ElementFactory.find("ivtvsrc"):
            raise Skip("ivtvsrc not built (plugin present but no ivtvsrc factory)")
    elif not Gst.ElementFactory.find(name):
        raise Skip("element %s not installed" % name)


# ------------------------------------------------------------- v4l2-ctl ---
def v4l2ctl(dev, *args, check=True):
    p = subprocess.run(["v4l2-ctl", "-d", dev] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=20)
    out = p.stdout.replace("FAIL: could not find device", "(note) no device")
    log("$ v4l2-ctl -d %s %s -> %d\n%s" % (dev, " ".join(args), p.returncode,
                                          out.strip()[:1500]))
    if check and p.returncode != 0:
        raise Fail("v4l2-ctl %s failed: %s" % (" ".join(args), out.strip()[-300:]))
    return out


def get_input(dev):
    m = re.search(r"Video input\s*:\s*(\d+)\s*\(([^:)]*)", v4l2ctl(dev, "--get-input"))
    if not m:
        raise Fail("cannot parse v4l2-ctl --get-input")
    return int(m.group(1)), m.group(2).strip()


def get_std(dev):
    m = re.search(r"Video Standard = (0x[0-9a-fA-F]+)", v4l2ctl(dev, "--get-standard"))
    if not m:
        raise Fail("cannot parse v4l2-ctl --get-standard")
    return int(m.group(1), 16)


def get_freq_hz(dev):
    m = re.search(r"\(([\d.]+) MHz\)", v4l2ctl(dev, "--get-freq"))
    if not m:
        raise Fail("cannot parse v4l2-ctl --get-freq")
    return round(float(m.group(1)) * 1e6)


def reset_device(dev, inp=0):
    """Brings a vivid instance back to a known state between checks."""
    v4l2ctl(dev, "-i", str(inp))
    v4l2ctl(dev, "-c", "standard_signal_mode=0", check=False)
    v4l2ctl(dev, "-c", "osd_text_mode=0", check=False)


# -------------------------------------------------------------- capture ---
class Capture:
    """What one pipeline run produced."""

    def __init__(self):
        self.buffers = []       # (offset or None, size, flags, pts)
        self.frames = {}        # source name -> [(offset or None, clock line hash)]
        self.bands = []         # hash of picture text band per buffer
        self.caps = None
        self.warnings = []
        self.infos = []
        self.messages = []      # (seconds since PLAYING, structure string) of element messages
        self.errors = []
        self.action_failures = []  # actions (e.g. a fault injected) that raised
        self.eos = False
        self.timed_out = False
        self.props = {}
        self.state_error = None
        self.wall = 0.0

    def offsets(self):
        return [b[0] for b in self.buffers if b[0] is not None]

    def corrupted(self):
        return [b for b in self.buffers if b[2] & Gst.BufferFlags.CORRUPTED]

    def summary(self):
        s = self.caps.to_string() if self.caps else None
        return ("buffers=%d eos=%s timed_out=%s wall=%.1fs caps=%s\n  offsets=%s\n"
                "  warnings=%s\n  infos=%s\n  errors=%s\n  props=%s"
                % (len(self.buffers), self.eos, self.timed_out, self.wall, s,
                   self.offsets()[:60], self.warnings, self.infos, self.errors,
                   self.props))


def _packed_stride(caps):
    """Bytes per row of a packed 4:2:2 frame (YUY2, UYVY), else None."""
    st = caps.get_structure(0)
    ok_w, w = st.get_int("width")
    if not ok_w or st.get_string("format") not in ("YUY2", "UYVY"):
        return None
    return w * 2


def _band_hash(buf, caps):
    """Hash of picture rows 32..47 (vivid's second text line, which names the
    input) of a packed 4:2:2 frame, first 320 pixels."""
    stride = _packed_stride(caps)
    if stride is None:
        return None
    ok, info = buf.map(Gst.MapFlags.READ)
    if not ok:
        return None
    try:
        data = info.data
        w = stride // 2
        rows = [bytes(data[y * stride: y * stride + min(w, 320) * 2])
                for y in range(32, 48) if (y + 1) * stride <= len(data)]
        return hashlib.md5(b"".join(rows)).hexdigest()[:12]
    finally:
        buf.unmap(info)


def _clock_hash(buf, caps):
    """Hash of picture rows 16..31 of a packed 4:2:2 frame: vivid's first
    text line, the stream time in ms and the sequence number it drew into
    the frame. Two captures of vivid differ there; one buffer delivered
    twice does not."""
    stride = _packed_stride(caps) if caps is not None else None
    if stride is None or buf.get_size() < 32 * stride:
        return None
    return hashlib.md5(buf.extract_dup(16 * stride, 16 * stride)).hexdigest()[:12]


def capture(desc, timeout=20.0, actions=(), read_props=(), eos_after=None,
            want_bands=False):
    """Runs gst-launch style pipeline `desc`; the source is named src and a
    probe on its src pad records every buffer. actions: (seconds, callable)
    run from the main loop after PLAYING. eos_after: send EOS after n s."""
    log("pipeline: " + desc)
    cap = Capture()
    try:
        pipe = Gst.parse_launch(desc)
    except GLib.Error as e:
        cap.errors.append("parse: " + e.message)
        log(cap.summary())
        return cap
    srcs = []
    it = pipe.iterate_elements()
    while True:
        r, el = it.next()
        if r != Gst.IteratorResult.OK:
            break
        if el.get_name().startswith("src"):
            srcs.append(el)
    caps_seen = {}
    probe_lock = threading.Lock()   # one streaming thread in Python at a time

    def probe(pad, info, name):
        with probe_lock:
            return _probe(pad, info, name)

    def _probe(pad, info, name):
        buf = info.get_buffer()
        off = buf.offset if buf.offset != Gst.BUFFER_OFFSET_NONE else None
        cap.buffers.append((off, buf.get_size(), int(buf.get_flags()), buf.pts))
        cap.__dict__.setdefault("per_src", {}).setdefault(name, []).append(off)
        c = pad.get_current_caps()
        cap.frames.setdefault(name, []).append((off, _clock_hash(buf, c)))
        if c is not None:
            caps_seen[name] = c
            if want_bands:
                cap.bands.append(_band_hash(buf, c))
        return Gst.PadProbeReturn.OK

    for s in srcs:
        s.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, probe, s.get_name())
    loop = GLib.MainLoop()
    bus = pipe.get_bus()
    bus.add_signal_watch()

    def on_msg(_bus, msg):
        t = msg.type
        if t == Gst.MessageType.EOS:
            cap.eos = True
            loop.quit()
        elif t == Gst.MessageType.ERROR:
            err, dbg = msg.parse_error()
            cap.errors.append("%s: %s (%s)" % (msg.src.get_name(), err.message, dbg))
            loop.quit()
        elif t == Gst.MessageType.WARNING:
            err, dbg = msg.parse_warning()
            cap.warnings.append("%s: %s (%s)" % (msg.src.get_name(), err.message, dbg))
        elif t == Gst.MessageType.INFO:
            err, dbg = msg.parse_info()
            cap.infos.append("%s: %s (%s)" % (msg.src.get_name(), err.message, dbg))
        elif t == Gst.MessageType.ELEMENT and msg.get_structure() is not None:
            cap.messages.append((time.time() - t0, msg.get_structure().to_string()))
        return True

    bus.connect("message", on_msg)

    def on_timeout():
        cap.timed_out = True
        loop.quit()
        return False

    t0 = time.time()
    ret = pipe.set_state(Gst.State.PLAYING)
    if ret == Gst.StateChangeReturn.FAILURE:
        cap.state_error = "set_state(PLAYING) failed"
        # the error message, if any, is on the bus
        msg = bus.timed_pop_filtered(2 * Gst.SECOND, Gst.MessageType.ERROR)
        if msg:
            err, dbg = msg.parse_error()
            cap.errors.append("%s: %s (%s)" % (msg.src.get_name(), err.message, dbg))
    else:
        GLib.timeout_add(int(timeout * 1000), on_timeout)
        for sec, fn in actions:
            def run_action(fn=fn):
                try:
                    fn()
                except Exception as e:  # recorded, the check decides
                    log("action failed: %s" % e)
                    cap.action_failures.append(str(e))
                return False
            GLib.timeout_add(int(sec * 1000), run_action)
        if eos_after is not None:
            GLib.timeout_add(int(eos_after * 1000),
                             lambda: (pipe.send_event(Gst.Event.new_eos()), False)[1])
        loop.run()
    cap.wall = time.time() - t0
    for s in srcs:
        for p in read_props:
            if s.find_property(p):
                v = s.get_property(p)
                cap.props[p] = v.value_nick if hasattr(v, "value_nick") else v
    if caps_seen:
        cap.caps = caps_seen.get("src") or list(caps_seen.values())[0]
        cap.caps_by_src = caps_seen
    bus.remove_signal_watch()
    pipe.set_state(Gst.State.NULL)
    pipe.get_state(5 * Gst.SECOND)
    # drop every reference so the device is closed before the next check
    del srcs[:], el, it, bus, pipe
    gc.collect()
    still = open_devices()
    if still:
        log("warning: still open after the pipeline was freed: %s" % still)
    log(cap.summary())
    return cap


def open_devices():
    out = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            t = os.readlink("/proc/self/fd/" + fd)
        except OSError:
            continue
        if t.startswith("/dev/video"):
            out.append(t)
    return out


# --------------------------------------------------------------- checks ---
_log = []


def log(msg):
    _log.append(msg)
    print(msg, flush=True)


def _run_check(cid, fn, args):
    t0 = time.time()
    try:
        note = fn(*args) or ""
        verdict = "pass"
    except Skip as e:
        verdict, note = "skip", str(e)
    except Fail as e:
        verdict, note = "fail", str(e)
    except Exception as e:
        verdict, note = "fail", "check crashed: %r" % e
        log(traceback.format_exc())
    log("=== %s: %s %s (%.1fs)" % (cid, verdict, note, time.time() - t0))
    write_result(cid, verdict, note)


def write_result(cid, verdict, note):
    base = os.path.join(CHECKS, cid)
    with open(base + ".log", "a") as f:
        f.write("\n".join(_log) + "\n")
    del _log[:]
    with open(base + ".result", "w") as f:
        f.write("%s %s\n" % (verdict, " ".join(str(note).split())))


def check(cid, fn, *args, limit=60):
    """Runs fn(*args) as check `cid` in a child process (a crash or a hang
    of the element ends only this check, and every pipeline's device is
    closed when the child exits); fn returns a note or raises Fail/Skip.
    The child writes the result file; the parent writes one if it cannot."""
    if (ONLY and not re.search(ONLY, cid)) or (WANTED and cid not in WANTED):
        return
    base = os.path.join(CHECKS, cid)
    for ext in (".log", ".result"):
        if os.path.exists(base + ext):
            os.unlink(base + ext)
    sys.stdout.flush()
    pid = os.fork()
    if pid == 0:
        del _log[:]
        log("=== check %s" % cid)
        try:
            _run_check(cid, fn, args)
        finally:
            sys.stdout.flush()
            os._exit(0)
    t0 = time.time()
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.time() - t0 > limit:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            write_result(cid, "fail", "hung: killed after %d s" % limit)
            return
        time.sleep(0.05)
    if not os.path.exists(base + ".result"):
        if os.WIFSIGNALED(status):
            why = "crashed with signal %d" % os.WTERMSIG(status)
        else:
            why = "check process exited %d without a result" % os.WEXITSTATUS(status)
        write_result(cid, "fail", why)


def expect(cond, why):
    if not cond:
        raise Fail(why)


def readable(msg):
    """The human text of a recorded bus message ("src: TEXT (debug)"); fails
    when there is none worth the name."""
    text = msg.split(":", 1)[1].split("(", 1)[0].strip() if ":" in msg else ""
    expect(len(text) > 8, "a message without readable text: %r" % msg)
    return text


def sequence_check(frames, what="buffer"):
    """frames: [(offset, clock hash)] of one source, in order. Driver
    sequence numbers must never go back, and a number may only repeat on a
    different picture: vivid's capture thread, when a tick of it took more
    than half a frame period (a loaded TCG host), wakes early and fills the
    next buffer under the same sequence number, with a later clock in its
    text. The same picture under the same number is one buffer delivered
    twice, and fails. Returns (gaps the driver reported, repeats it made)."""
    offs = [f[0] for f in frames]
    expect(None not in offs, "%ss carry no sequence number" % what)
    repeats = 0
    for (a, pa), (b, pb) in zip(frames, frames[1:]):
        expect(b >= a, "%s sequence went back from %d to %d: %s"
               % (what, a, b, offs))
        if b == a:
            expect(pa is not None and pb is not None,
                   "%s %d repeated, on pictures that cannot be compared: %s"
                   % (what, a, offs))
            expect(pa != pb, "%s %d delivered twice (the same picture): %s"
                   % (what, a, offs))
            repeats += 1
    distinct = len(set(offs))
    return (offs[-1] - offs[0] + 1) - distinct if offs else 0, repeats


def sequence_ok(cap, n):
    """N buffers with sequence numbers as sequence_check wants (no
    duplicates, never back) from the one source; returns the number of
    sequence gaps vivid reported, None when buffers carry no number."""
    expect(len(cap.buffers) >= n, "got %d buffers, wanted %d (errors: %s)"
           % (len(cap.buffers), n, cap.errors))
    offs = cap.offsets()
    if len(offs) < len(cap.buffers):
        return None
    expect(len(cap.frames) == 1, "buffers from %d sources" % len(cap.frames))
    gaps, repeats = sequence_check(list(cap.frames.values())[0])
    if repeats:
        log("vivid repeated a sequence number %d time(s), on new pictures" % repeats)
    return gaps


def main(checks):
    """checks: list of (id, fn, args...)"""
    for c in checks:
        check(*c)
    sys.stdout.flush()
