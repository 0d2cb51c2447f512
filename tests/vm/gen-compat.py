#!/usr/bin/env python3
# Writes docs/compatibility.md (scenario x ivtvsrc / v4l2src) from the last
# vivid-suite run: tests/vm/checks.txt gives the rows and what each cell is
# expected to do, RESULTS/checks/<id>.result what the guest saw, and
# RESULTS/run.json the boot timing.
#
#   gen-compat.py --results BUILD/tests/vm/results [--out docs/compatibility.md]
#   gen-compat.py --results ... --check docs/compatibility.md   (exit 1 if stale)
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ELEMENTS = ("ivtvsrc", "v4l2src")


def load_checks():
    rows = []
    for line in open(os.path.join(HERE, "checks.txt")):
        if line.startswith("#") or not line.strip():
            continue
        scen, a, b, what = [c.strip() for c in line.split("|", 3)]
        rows.append((scen, {"ivtvsrc": a, "v4l2src": b}, what))
    return rows


def cell(results, scen, element, expect):
    if expect.startswith("na"):
        return "n/a (%s)" % expect[2:].strip()
    path = os.path.join(results, "checks", "%s.%s.result" % (scen, element))
    if not os.path.exists(path):
        return "**no result**"
    verdict, _, note = open(path).read().strip().partition(" ")
    note = note.replace("|", "/")
    if len(note) > 160:
        note = note[:157] + "..."
    xfail = expect.startswith("xfail")
    if verdict == "pass" and note.startswith(("refused:", "stopped with:")):
        text, note = "clear error", note.split(":", 1)[1].strip()
        text += " (**unexpected**, was xfail)" if xfail else ""
    elif verdict == "pass":
        text = "pass" + (" (**unexpected**, was xfail)" if xfail else "")
    elif verdict == "skip":
        text = "skip"
    elif xfail:
        text = "fail, expected: " + expect[5:].strip()
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
           "Written by `tests/vm/gen-compat.py` from the last run of the meson "
           "suite `vivid` (tests/vm: Debian's linux-image-amd64 under "
           "`qemu-system-x86_64 -accel tcg`, vivid with n_devs=4, this "
           "machine's GStreamer 1.22 and the project's build). Do not edit by "
           "hand: run `meson test -C build --suite vivid`, then "
           "`python3 tests/vm/gen-compat.py --results build/tests/vm/results "
           "--out docs/compatibility.md`.",
           "",
           "v4l2src is gst-plugins-good's element, run on the same devices with "
           "the nearest equivalent settings (input and tuner set with v4l2-ctl "
           "where it has no property). *fail, expected* marks a known "
           "failure, with the reason; for ivtvsrc these wait for a later "
           "issue.",
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
    out += ["| scenario | what is checked | ivtvsrc | v4l2src |",
            "| --- | --- | --- | --- |"]
    for scen, exp, what in load_checks():
        out.append("| %s | %s | %s | %s |" % (
            scen, what, cell(results, scen, "ivtvsrc", exp["ivtvsrc"]),
            cell(results, scen, "v4l2src", exp["v4l2src"])))
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--results", required=True)
    ap.add_argument("--out")
    ap.add_argument("--check")
    a = ap.parse_args()
    text = render(a.results)
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
