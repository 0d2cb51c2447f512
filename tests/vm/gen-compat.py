#!/usr/bin/env python3
# Writes docs/compatibility.md (scenario x ivtvsrc / v4l2src) from the last
# comparison run (`ivtv-compat`, vmrun.py compat): tests/vm/checks.txt gives
# the rows and what each cell is expected to do (pass, xfail, pending, na),
# RESULTS/checks/<id>.result what the guest saw, and RESULTS/run.json the
# boot timing.
#
#   gen-compat.py --results BUILD/tests/vm/compat-results [--out docs/compatibility.md]
#   gen-compat.py --results ... --check docs/compatibility.md   (exit 1 if stale)
#   gen-compat.py --usbip BUILD/tests/vm [--out docs/compatibility.md]
#       the real-driver table (tests/vm/usbip/checks.txt x the results of
#       the last usbip-DRIVER boots), written between its markers in --out;
#       a vivid run keeps that section as it is
import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ELEMENTS = ("ivtvsrc", "v4l2src")
NOT_RUN = "not run (--only)"


def load_checks():
    rows = []
    for line in open(os.path.join(HERE, "checks.txt")):
        if line.startswith("#") or not line.strip():
            continue
        scen, a, b, what = [c.strip() for c in line.split("|", 3)]
        rows.append((scen, {"ivtvsrc": a, "v4l2src": b}, what))
    return rows


def run_only(results):
    """The ONLY regex the run was narrowed to (ivtv-compat --only), or ""."""
    conf = os.path.join(results, "boot.conf")
    if os.path.exists(conf):
        for line in open(conf):
            if line.startswith("ONLY="):
                return line.split("=", 1)[1].strip().strip("'")
    return ""


def cell(results, scen, element, expect, only=""):
    state, _, reason = expect.partition(" ")
    if state == "na":
        return "n/a (%s)" % reason.strip()
    path = os.path.join(results, "checks", "%s.%s.result" % (scen, element))
    if not os.path.exists(path):
        if only and not re.search(only, "%s.%s" % (scen, element)):
            return NOT_RUN
        return "**no result**"
    verdict, _, note = open(path).read().strip().partition(" ")
    note = note.replace("|", "/")
    if len(note) > 160:
        note = note[:157] + "..."
    known = state in ("xfail", "pending")
    if verdict == "pass":
        text = "pass" + (" (**unexpected**, was %s: flip it to pass)" % state
                         if known else "")
    elif verdict == "skip":
        text = "skip"
    elif known:
        text = "fail, %s: %s" % ("expected" if state == "xfail" else "pending",
                                 reason.strip())
    else:
        text = "**FAIL**"
    return "%s: %s" % (text, note) if note else text


def render(results):
    meta = {}
    mp = os.path.join(results, "run.json")
    if os.path.exists(mp):
        meta = json.load(open(mp))
    out = ["# Compatibility with the kernel's vivid driver",
           "",
           "Written by `tests/vm/gen-compat.py` from the last comparison run "
           "(tests/vm: Debian's linux-image-amd64 under "
           "`qemu-system-x86_64 -accel tcg`, vivid with n_devs=4, this "
           "machine's GStreamer and the project's build). Do not edit by "
           "hand: run `meson devenv -C build --workdir . ivtv-compat` (one "
           "boot, a few minutes), which writes this file.",
           "",
           "v4l2src is gst-plugins-good's element, run on the same devices with "
           "the nearest equivalent settings (input and tuner set with v4l2-ctl "
           "where it has no property). *fail, expected* marks a known "
           "failure, with the reason. *fail, pending* marks behaviour an open "
           "issue asks of ivtvsrc that it does not have yet. The ivtvsrc "
           "column's other cells are the meson suite `vivid` (tests/vm/checks.txt); "
           "the v4l2src column and the pending cells are no part of CI.",
           ""]
    if meta:
        boot = {}
        try:
            boot = json.loads(meta.get("boot.json", "{}"))
        except ValueError:
            pass
        out += ["Run: %s; guest up (vivid loaded) after %ss of guest time, "
                "whole qemu run %ss wall clock (%s)." % (
                    meta.get("when", "?"), boot.get("vivid_loaded_s", "?"),
                    meta.get("guest_s", "?"), meta.get("guest-done", "guest did not finish")),
                ""]
    only = run_only(results)
    if only:
        out += ["Only the checks matching `%s` ran (ivtv-compat --only); "
                "rows with none of them are left out." % only.replace("|", "\\|"), ""]
    out += ["| scenario | what is checked | ivtvsrc | v4l2src |",
            "| --- | --- | --- | --- |"]
    for scen, exp, what in load_checks():
        a, b = (cell(results, scen, el, exp[el], only) for el in ELEMENTS)
        if all(c == NOT_RUN or c.startswith("n/a") for c in (a, b)):
            continue
        out.append("| %s | %s | %s | %s |" % (scen, what, a, b))
    return "\n".join(out) + "\n"


USBIP_BEGIN = "<!-- real drivers: written by tests/vm/gen-compat.py --usbip -->"
USBIP_END = "<!-- end of real drivers -->"


def usbip_rows():
    rows, drivers = [], []
    for line in open(os.path.join(HERE, "usbip", "checks.txt")):
        if line.startswith("#") or not line.strip():
            continue
        drv, scen, cell, what = [c.strip() for c in line.split("|", 3)]
        rows.append((drv, scen, cell, what))
        if drv not in drivers:
            drivers.append(drv)
    return rows, drivers


def render_usbip(base):
    """The real driver x scenario table from BASE/usbip-DRIVER/."""
    rows, drivers = usbip_rows()
    out = [USBIP_BEGIN, "", "## Real kernel drivers over USB/IP", "",
           "The real drivers of Debian's kernel bound to the device models of "
           "`tests/vm/usbip` (`ivtv-usbdev`, attached to `vhci-hcd` over a "
           "socketpair) in the qemu guest; one boot per driver, the meson suite "
           "`usbip`. Every capture is compared byte for byte with what the "
           "device fed. *fail, expected* is an xfail cell of "
           "tests/vm/usbip/checks.txt (a known defect, with its reason). "
           "Regenerate with `python3 tests/vm/gen-compat.py --usbip build/tests/vm "
           "--out docs/compatibility.md` after `meson test -C build --suite usbip`.", ""]
    for drv in drivers:
        res = os.path.join(base, "usbip-" + drv)
        kernel = "?"
        if os.path.exists(os.path.join(res, "kernel.txt")):
            kernel = open(os.path.join(res, "kernel.txt")).read().strip()
        meta = {}
        if os.path.exists(os.path.join(res, "run.json")):
            meta = json.load(open(os.path.join(res, "run.json")))
        out += ["### %s" % drv, "",
                "Kernel %s; run %s, qemu %ss wall clock (%s)." % (
                    kernel, meta.get("when", "?"), meta.get("guest_s", "?"),
                    meta.get("guest-done", "guest did not finish")), "",
                "| scenario | what is checked | ivtvsrc |", "| --- | --- | --- |"]
        for d, scen, cell, what in rows:
            if d != drv:
                continue
            text = usbip_cell(res, "%s.%s" % (drv, scen), cell)
            out.append("| %s | %s | %s |" % (scen, what, text))
        out.append("")
    out.append(USBIP_END)
    return "\n".join(out) + "\n"


def usbip_cell(res, cid, expect):
    state, _, reason = expect.partition(" ")
    if state == "na":
        return "n/a (%s)" % reason.strip()
    path = os.path.join(res, "checks", cid + ".result")
    if not os.path.exists(path):
        return "**no result**"
    verdict, _, note = open(path).read().strip().partition(" ")
    note = note.replace("|", "/")
    if len(note) > 240:
        note = note[:237] + "..."
    if verdict == "pass":
        text = "pass" + (" (**unexpected**, was xfail: flip it)" if state == "xfail" else "")
    elif verdict == "skip":
        text = "skip"
    elif state == "xfail":
        text = "fail, expected: %s" % reason.strip()
    else:
        text = "**FAIL**"
    return "%s: %s" % (text, note) if note else text


def splice(old, section):
    """old with its real-driver section replaced by section (appended when
    it has none)."""
    if USBIP_BEGIN in old and USBIP_END in old:
        head, rest = old.split(USBIP_BEGIN, 1)
        tail = rest.split(USBIP_END, 1)[1].lstrip("\n")
        return head + section + (("\n" + tail) if tail else "")
    return old.rstrip("\n") + "\n\n" + section


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--results")
    ap.add_argument("--usbip", help="BUILD/tests/vm: the real-driver table")
    ap.add_argument("--out")
    ap.add_argument("--check")
    a = ap.parse_args()
    if a.usbip:
        old = open(a.out).read() if a.out and os.path.exists(a.out) else ""
        text = splice(old, render_usbip(a.usbip))
        if a.out:
            with open(a.out, "w") as f:
                f.write(text)
        else:
            sys.stdout.write(text)
        return 0
    if not a.results:
        ap.error("--results or --usbip")
    text = render(a.results)
    target = a.out or a.check
    if target and os.path.exists(target):
        old = open(target).read()
        if USBIP_BEGIN in old and USBIP_END in old:
            text = splice(text, USBIP_BEGIN + old.split(USBIP_BEGIN, 1)[1].split(
                USBIP_END, 1)[0] + USBIP_END + "\n")
    if a.check:
        old = open(a.check).read() if os.path.exists(a.check) else ""
        strip = lambda t: [l for l in t.splitlines() if not l.startswith("Run: ")]
        if strip(old) != strip(text):
            print("%s does not match the last run; regenerate it with --out" % a.check)
            return 1
        return 0
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
