#!/usr/bin/env python3
# Guest-side library of the real-driver suites (runs chrooted in the qemu
# guest): starts the USB/IP device program (ivtv-usbdev) and follows its
# events, waits for the real driver's node, runs commands with a timeout,
# compares a capture with the stream the device fed, and writes
# RESULTS/checks/<id>.result ("pass|fail|skip <reason>") and <id>.log.
# Under TCG opening a node takes seconds: every wait is on a condition.
import os
import re
import signal
import subprocess
import sys
import threading
import time
import traceback

RESULTS = os.environ.get("RESULTS", "/tmp/usbip-results")
WANTED = set(os.environ.get("CHECKS", "").split())
ONLY = os.environ.get("ONLY", "")
USBDEV = os.environ.get("USBDEV", "")
CHECKS = os.path.join(RESULTS, "checks")
os.makedirs(CHECKS, exist_ok=True)
_log = []
DEVICES = []        # every Device: check() logs the events of its run


class Fail(Exception):
    pass


class Skip(Exception):
    pass


def log(msg):
    line = "%8.2f %s" % (time.monotonic(), msg)
    _log.append(line)
    print(line, flush=True)


def wanted(cid):
    if WANTED and cid not in WANTED:
        return False
    return not ONLY or re.search(ONLY, cid)


def check(cid, fn, *args):
    """Runs one check; its verdict and log go to RESULTS/checks."""
    if not wanted(cid):
        return None
    del _log[:]
    log("check %s" % cid)
    marks = [d.mark() for d in DEVICES]
    try:
        note = fn(*args) or ""
        verdict = "pass"
    except Skip as e:
        verdict, note = "skip", str(e)
    except Fail as e:
        verdict, note = "fail", str(e)
    except Exception as e:  # a bug in the check is a failure, with its trace
        verdict, note = "fail", "%s: %s" % (type(e).__name__, e)
        log(traceback.format_exc())
    for d, m in zip(DEVICES, marks):
        log("device events:\n  " + "\n  ".join(d.events[m:][-80:]))
    log("result %s %s" % (verdict, note))
    with open(os.path.join(CHECKS, cid + ".log"), "w") as f:
        f.write("\n".join(_log) + "\n")
    with open(os.path.join(CHECKS, cid + ".result"), "w") as f:
        f.write("%s %s\n" % (verdict, note.replace("\n", " ")))
    return verdict


# ---------------------------------------------------------------- device ---
class Device:
    """One ivtv-usbdev process: commands on its stdin, events (one line
    each, led by the monotonic time) from its stdout."""

    def __init__(self, model, *args):
        self.events = []
        self.cond = threading.Condition()
        self.p = subprocess.Popen([USBDEV, model] + list(args),
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, bufsize=1)
        threading.Thread(target=self._read, daemon=True).start()
        DEVICES.append(self)

    def _read(self):
        for line in self.p.stdout:
            with self.cond:
                self.events.append(line.rstrip("\n"))
                self.cond.notify_all()
        with self.cond:
            self.events.append("EOF")
            self.cond.notify_all()

    def mark(self):
        with self.cond:
            return len(self.events)

    def send(self, cmd):
        log("device <- %s" % cmd)
        self.p.stdin.write(cmd + "\n")
        self.p.stdin.flush()
        return self.wait(r"(ok|error unknown command) " + re.escape(cmd), 10)

    def wait(self, regex, timeout, since=0):
        """The first event from index since that matches regex, or Fail."""
        end = time.monotonic() + timeout
        rx = re.compile(regex)
        with self.cond:
            while True:
                for ev in self.events[since:]:
                    m = rx.search(ev)
                    if m:
                        return m
                left = end - time.monotonic()
                if left <= 0:
                    raise Fail("device: no event /%s/ in %ss (last: %s)" % (
                        regex, timeout, self.events[-3:]))
                self.cond.wait(left)

    def find(self, regex, since=0):
        rx = re.compile(regex)
        with self.cond:
            return [m for m in (rx.search(e) for e in self.events[since:]) if m]

    def sessions(self, since=0):
        return [int(m.group(1)) for m in self.find(r"stream-start session=(\d+)", since)]

    def quit(self):
        try:
            self.p.stdin.write("quit\n")
            self.p.stdin.flush()
            self.p.wait(10)
        except (OSError, subprocess.TimeoutExpired):
            self.p.kill()


def wait_node(card, timeout=120):
    """The /dev/videoN whose sysfs name is card, once it opens."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        base = "/sys/class/video4linux"
        for n in sorted(os.listdir(base)) if os.path.isdir(base) else []:
            try:
                name = open(os.path.join(base, n, "name")).read().strip()
            except OSError:
                continue
            if name == card and os.path.exists("/dev/" + n):
                try:
                    os.close(os.open("/dev/" + n, os.O_RDONLY | os.O_NONBLOCK))
                    return "/dev/" + n
                except OSError:
                    pass
        time.sleep(0.5)
    raise Fail("no video node named %r after %ss" % (card, timeout))


def wait_gone(dev, timeout=60):
    end = time.monotonic() + timeout
    while os.path.exists(dev) and time.monotonic() < end:
        time.sleep(0.5)
    if os.path.exists(dev):
        raise Fail("%s still there %ss after the unplug" % (dev, timeout))


# -------------------------------------------------------------- commands ---
def run(cmd, timeout=120, check=False):
    log("$ " + " ".join(cmd))
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        log(out[-3000:])
        raise Fail("%s did not end in %ss" % (cmd[0], timeout))
    log("-> %d\n%s" % (p.returncode, p.stdout[-3000:]))
    if check and p.returncode != 0:
        raise Fail("%s failed (%d): %s" % (cmd[0], p.returncode, p.stdout.strip()[-300:]))
    return p


def start(cmd):
    log("$ %s &" % " ".join(cmd))
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)


def finish(p, timeout):
    """Waits for a started command; its output, or Fail when it hangs."""
    try:
        out, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        log(out[-3000:])
        raise Fail("%s did not end %ss after being told to" % (p.args[0], timeout))
    log("-> %d\n%s" % (p.returncode, out[-3000:]))
    return out


def wait_size(path, size, timeout, proc=None):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if os.path.exists(path) and os.path.getsize(path) >= size:
            return os.path.getsize(path)
        if proc is not None and proc.poll() is not None:
            finish(proc, 1)
            raise Fail("%s ended before writing %d bytes" % (proc.args[0], size))
        time.sleep(0.3)
    have = os.path.getsize(path) if os.path.exists(path) else 0
    raise Fail("%s: %d bytes after %ss, waited for %d" % (path, have, timeout, size))


def gst_errors(out):
    return re.findall(r"^ERROR: from element [^\n]*\n(?:Additional debug info:\n)?[^\n]*",
                      out, re.M)


# ---------------------------------------------------------------- stream ---
WRAP = 1 << 33      # the 90 kHz clock's range


def _get_ts(b, i):
    return ((b[i] >> 1) & 7) << 30 | b[i + 1] << 22 | (b[i + 2] >> 1) << 15 \
        | b[i + 3] << 7 | b[i + 4] >> 1


def _put_ts(b, i, t):
    b[i] = (b[i] & 0xf0) | ((t >> 29) & 0x0e) | 1
    b[i + 1] = (t >> 22) & 0xff
    b[i + 2] = ((t >> 14) & 0xfe) | 1
    b[i + 3] = (t >> 7) & 0xff
    b[i + 4] = ((t << 1) & 0xfe) | 1


class TsLoops:
    """A transport stream looped seamlessly, as dev-hdpvr.c sends it: loop
    k has every PID's continuity counter on by k times its payload packets
    in the file, and PCR, PTS and DTS on by k times the file's duration
    (its PCR rate between its first and last PCR)."""

    def __init__(self, data):
        self.ok = len(data) % 188 == 0 and len(data) > 0
        self.step, pcr = {}, []
        for at in range(0, len(data) if self.ok else 0, 188):
            p = data[at:at + 12]
            if p[0] != 0x47:
                self.ok = False
                break
            pid, afc = (p[1] & 0x1f) << 8 | p[2], (p[3] >> 4) & 3
            if afc & 1:
                self.step[pid] = (self.step.get(pid, 0) + 1) & 15
            if afc & 2 and p[4] >= 7 and p[5] & 0x10:
                pcr.append((p[6] << 25 | p[7] << 17 | p[8] << 9 | p[9] << 1 | p[10] >> 7, at))
        self.clip = 0
        if self.ok and len(pcr) > 1 and pcr[-1][1] > pcr[0][1] and pcr[-1][0] > pcr[0][0]:
            self.clip = int((pcr[-1][0] - pcr[0][0]) * len(data)
                            / (pcr[-1][1] - pcr[0][1]) + 0.5)
        self.ok = self.ok and self.clip > 0

    def loop(self, data, k):
        b = bytearray(data)
        dt = (k * self.clip) % WRAP
        for at in range(0, len(b), 188):
            pid, afc, off = (b[at + 1] & 0x1f) << 8 | b[at + 2], (b[at + 3] >> 4) & 3, 4
            if afc & 1:
                b[at + 3] = (b[at + 3] & 0xf0) | ((b[at + 3] + k * self.step[pid]) & 15)
            if afc & 2:
                if b[at + 4] >= 7 and b[at + 5] & 0x10:
                    c = at + 6
                    v = (b[c] << 25 | b[c + 1] << 17 | b[c + 2] << 9 | b[c + 3] << 1
                         | b[c + 4] >> 7) + dt
                    v %= WRAP
                    b[c:c + 4] = bytes(((v >> 25) & 0xff, (v >> 17) & 0xff,
                                        (v >> 9) & 0xff, (v >> 1) & 0xff))
                    b[c + 4] = (b[c + 4] & 0x7f) | (v & 1) << 7
                off = 5 + b[at + 4]
            e = at + off
            if not (b[at + 1] & 0x40) or not (afc & 1) or off + 19 > 188:
                continue
            if b[e] or b[e + 1] or b[e + 2] != 1 or b[e + 3] < 0xbd or (b[e + 6] >> 6) != 2:
                continue
            if b[e + 7] & 0x80:
                _put_ts(b, e + 9, (_get_ts(b, e + 9) + dt) % WRAP)
            if b[e + 7] & 0xc0 == 0xc0:
                _put_ts(b, e + 14, (_get_ts(b, e + 14) + dt) % WRAP)
        return bytes(b)


class Stream:
    """What the device feeds: every stream starts at byte 0 of the file
    and loops at its end (seamless_ts: a transport stream's loops go on
    as dev-hdpvr.c makes them, TsLoops)."""

    def __init__(self, path, seamless_ts=False):
        self.data = open(path, "rb").read()
        self.ts = TsLoops(self.data) if seamless_ts else None
        self.loops = [self.data]

    def expect(self, n):
        d = self.data
        reps = n // len(d) + 1
        if self.ts is None or not self.ts.ok:
            return (d * reps)[:n]
        while len(self.loops) < reps:
            self.loops.append(self.ts.loop(d, len(self.loops)))
        return b"".join(self.loops[:reps])[:n]

    def compare(self, path):
        """(length, first differing offset or None)"""
        got = open(path, "rb").read()
        want = self.expect(len(got))
        if got == want:
            return len(got), None
        lo = next(i for i in range(0, len(got), 4096) if got[i:i + 4096] != want[i:i + 4096])
        while got[lo] == want[lo]:
            lo += 1
        return len(got), lo


def exact_prefix(stream, path, what, upto=None):
    """The file (its first upto bytes) is the fed stream from its first
    byte; returns its length."""
    if upto is not None:
        with open(path, "rb") as f:
            head = f.read(upto)
        with open(path + ".head", "wb") as f:
            f.write(head)
        path = path + ".head"
    n, bad = stream.compare(path)
    if bad is not None:
        got = open(path, "rb").read()
        again = ""
        for at in range(bad, max(bad - 8192, -1), -1):
            if got[at:at + 4096] == stream.data[:len(got[at:at + 4096])]:
                again = ("; from byte %d on the file holds a new stream from its "
                         "first byte (%d bytes of it)" % (at, n - at))
                break
        raise Fail("%s: %d bytes, differs from the fed stream at byte %d%s"
                   % (what, n, bad, again))
    if n == 0:
        raise Fail("%s is empty" % what)
    return n
