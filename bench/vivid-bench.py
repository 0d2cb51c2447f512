#!/usr/bin/env python3
# bench/vivid-bench.py — the host half of the vivid benchmark (issue 7):
# boots the qemu guest of tests/vm once (`vmrun.py bench`, its kernel
# cache, initramfs and 9p shares) to run bench/vivid-guest.sh, then prints
# the markdown section "2b. streaming on vivid" of ivtv-bench: ivtvsrc
# against v4l2src on vivid's webcam input, CPU (user and sys) per frame,
# memcpy bytes per frame in user space, time from PLAYING to the first
# buffer, with the ratios ivtvsrc/v4l2src.
#
#   vivid-bench.py --build-root B --source-dir S --bench-run P --memcount P
#                  [--size WxH] [--frames N] [--repeat N] [--fb-runs N]
#                  [--results DIR]   (print the table of an earlier boot)
#
# When the guest cannot boot (no qemu, no kernel package, ...) it prints the
# heading and the reason and exits 0; 1 when runs failed.
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

SKIP = 77
ELEMS = ("ivtvsrc", "v4l2src")


def log(msg):
    print("vivid-bench: " + msg, file=sys.stderr, flush=True)


def fields(line):
    return dict(kv.split("=", 1) for kv in line.split() if "=" in kv)


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def fmt(v, dec=3):
    return "n/a" if v is None else "%.*f" % (dec, v)


def ratio(a, b, dec=2):
    return "n/a" if a is None or not b else "%.*f" % (dec, a / b)


def median(vals):
    vals = [v for v in vals if v is not None]
    return statistics.median(vals) if vals else None


def memcount(path):
    """{object: (calls, bytes)} of one memcount file, the counter left out."""
    objs = {}
    if not os.path.exists(path):
        return None
    for line in open(path):
        f = line.split()
        if not f or f[0] != "memcount":
            continue
        kv = fields(line)
        name = kv.get("object", "?")
        if "libbenchmemcount" in name:
            continue
        c, b = objs.get(name, (0, 0))
        objs[name] = (c + int(kv.get("calls", 0)), b + int(kv.get("bytes", 0)))
    return objs


def copies(out, el, f1, f2):
    """(bytes/frame, calls/frame, objects copying > 1 KiB/frame) as the
    difference of the f2- and the f1-frame run."""
    a = memcount(os.path.join(out, "mc.%s.%d" % (el, f1)))
    b = memcount(os.path.join(out, "mc.%s.%d" % (el, f2)))
    if a is None or b is None:
        return None, None, "n/a"
    d = f2 - f1
    tot = lambda m, i: sum(v[i] for v in m.values())  # noqa: E731
    who = []
    for name in sorted(b):
        grow = (b[name][1] - a.get(name, (0, 0))[1]) / d
        if grow > 1024:
            who.append("%s %.0f B" % (os.path.basename(name), grow))
    return ((tot(b, 1) - tot(a, 1)) / d, (tot(b, 0) - tot(a, 0)) / d,
            ", ".join(who) or "none")


def table(results, args, meta):
    out = os.path.join(results, "bench")
    runs = os.path.join(out, "runs.txt")
    info = open(os.path.join(out, "info.txt")).read() \
        if os.path.exists(os.path.join(out, "info.txt")) else ""
    lines = open(runs).read().splitlines() if os.path.exists(runs) else []
    cpu = {e: [] for e in ELEMS}
    fb = {e: [] for e in ELEMS}
    errors = [ln for ln in lines if ln.startswith("error ")]
    for ln in lines:
        kind, el, _n, rest = (ln.split(" ", 3) + [""] * 4)[:4]
        if el not in ELEMS:
            continue
        kv = fields(rest)
        if kind == "cpu" and num(kv.get("buffers")):
            n = num(kv["buffers"])
            cpu[el].append((num(kv.get("user")) * 1000 / n,
                            num(kv.get("sys")) * 1000 / n,
                            n / num(kv.get("wall")) if num(kv.get("wall")) else None))
        elif kind == "fb":
            fb[el] += [num(v) for v in kv.get("first_buffer_ms_all", "").split(",") if v]
    m = re.search(r"caps: (\S+)", info)
    caps = m.group(1) if m else "video/x-raw,format=YUY2,width=%s,height=%s" % tuple(args.size.split("x"))
    m = re.search(r"framerate=(\d+)/(\d+)", caps)
    rate = "%g fps" % (int(m.group(1)) / int(m.group(2))) if m else "? fps"
    m = re.search(r"uname: (.*?);", info)
    kern = m.group(1) if m else "?"

    row = {}
    for e in ELEMS:
        u = median([c[0] for c in cpu[e]])
        s = median([c[1] for c in cpu[e]])
        t = median([c[0] + c[1] for c in cpu[e]])
        r = median([c[2] for c in cpu[e]])
        row[e] = (u, s, t, r) + copies(out, e, args.mc_f1, args.mc_f2) + (median(fb[e]),)
    v = row["v4l2src"]
    w, h = args.size.split("x")
    print("## 2b. streaming on vivid (webcam input, %sx%s YUYV at %s, mmap, "
          "qemu TCG guest), per frame" % (w, h, rate))
    print()
    print("| peer | user ms/frame (median of %d) | sys ms/frame | user+sys ms/frame "
          "| user vs v4l2src | sys vs v4l2src | user+sys vs v4l2src | frames/s "
          "| memcpy bytes/frame (user space) | memcpy calls/frame "
          "| objects copying > 1 KiB/frame |" % args.repeat)
    print("| --- " * 11 + "|")
    for e in ELEMS:
        u, s, t, r, cb, cc, who, f = row[e]
        print("| %s ! fakesink | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            e, fmt(u), fmt(s), fmt(t), ratio(u, v[0]), ratio(s, v[1]),
            ratio(t, v[2]), fmt(r, 2), fmt(cb, 0), fmt(cc, 1), who))
    print()
    print("| time from PLAYING to the first buffer (median of %d) | ivtvsrc ms "
          "| v4l2src ms | ratio |" % len(fb["ivtvsrc"]))
    print("| --- | --- | --- | --- |")
    print("| vivid webcam %sx%s YUYV %s (mmap) | %s | %s | %s |" % (
        w, h, rate, fmt(row["ivtvsrc"][7], 1), fmt(v[7], 1), ratio(row["ivtvsrc"][7], v[7])))
    print()
    print("%d frames per CPU run (start-up from PLAYING included), the elements "
          "interleaved, %d runs each; memcpy: the %d-frame run minus the %d-frame "
          "run, counted by libbenchmemcount.so (vivid fills the buffers in the "
          "kernel: nothing in user space needs to copy); first buffer: from "
          "set_state (PLAYING) on a pipeline in NULL (open, probe, REQBUFS, "
          "STREAMON included), 3 interleaved rounds per element."
          % (args.frames, args.repeat, args.mc_f2, args.mc_f1))
    if all(row[e][6] == "none" for e in ELEMS):
        print("memcpy bytes/frame within a few bytes of 0 (either sign) are start-up "
              "noise (glib, libudev); no object copies more than 1 KiB per frame: "
              "no frame is copied in user space.")
    print("Under TCG the guest's CPU time is emulated time: only the ratios of "
          "this one boot mean anything, not the milliseconds.")
    print("guest: %s, vivid, 2 vCPUs (qemu -accel tcg, 2 GiB); the guest ran "
          "%s s (boot and power-off included; %s s preparing on the host); runs (user+sys ms/frame): %s"
          % (kern, meta.get("guest_s", "?"), meta.get("prepare_s", "?"), "; ".join(
              "%s %s" % (e, " ".join(fmt(c[0] + c[1]) for c in cpu[e])) for e in ELEMS)))
    for ln in errors:
        print("failed run: " + ln[6:])
    print()
    return 1 if errors or any(not cpu[e] for e in ELEMS) else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-root", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--bench-run", required=True)
    ap.add_argument("--memcount", required=True)
    ap.add_argument("--size", default="1920x1080")
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--fb-runs", type=int, default=12)
    ap.add_argument("--results", help="print the table of this earlier run")
    args = ap.parse_args()
    if not re.fullmatch(r"\d+x\d+", args.size):
        ap.error("--size is WIDTHxHEIGHT")
    args.mc_f1, args.mc_f2 = 5, 5 + max(args.frames // 2, 1)
    meta = {}
    results = args.results
    if not results:
        vmrun = os.path.join(args.source_dir, "tests", "vm", "vmrun.py")
        guest = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vivid-guest.sh")
        w, h = args.size.split("x")
        conf = {"BENCH_RUN": args.bench_run, "MEMCOUNT": args.memcount,
                "VB_WIDTH": w, "VB_HEIGHT": h, "VB_FRAMES": args.frames,
                "VB_REPEAT": args.repeat, "VB_FB_RUNS": args.fb_runs,
                "VB_MC_F1": args.mc_f1, "VB_MC_F2": args.mc_f2}
        cmd = [sys.executable, vmrun, "bench", "--build-root", args.build_root,
               "--source-dir", args.source_dir, "--script", guest, "--timeout", "900"]
        for k, v in conf.items():
            cmd += ["--conf", "%s=%s" % (k, v)]
        log("booting the qemu guest (TCG, ~4 min of both cores): " + " ".join(cmd))
        t0 = time.time()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        log("guest ran %.0f s (rc %d)" % (time.time() - t0, p.returncode))
        if p.returncode == SKIP:
            reason = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else "?"
            print("## 2b. streaming on vivid\n\nnot measured: %s\n" % reason)
            return 0
        m = re.search(r"^results: (.*)$", p.stdout, re.M)
        if p.returncode != 0 or not m:
            sys.stderr.write(p.stdout[-3000:])
            print("## 2b. streaming on vivid\n\nnot measured: the guest failed "
                  "(vmrun.py bench rc %d, see stderr)\n" % p.returncode)
            return 1
        results = m.group(1)
    rj = os.path.join(results, "run.json")
    if os.path.exists(rj):
        meta = json.load(open(rj))
    return table(results, args, meta)


if __name__ == "__main__":
    sys.exit(main())
