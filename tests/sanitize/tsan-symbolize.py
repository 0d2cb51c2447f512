#!/usr/bin/env python3
"""Symbolize a ThreadSanitizer report run with symbolize=0 (tests/sanitize/tsan-run.sh):
frames "(MODULE+0xOFFSET)" become "function file:line" with addr2line, for modules found
under the given folders (the build tree) and the system library folders.
Usage: tsan-symbolize.py BUILD_DIR < log"""
import os, re, subprocess, sys
roots = sys.argv[1:] + ["/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu"]
paths = {}
for r in roots:
    for dp, _, fs in os.walk(r):
        for f in fs:
            paths.setdefault(f, os.path.join(dp, f))
cache = {}
def sym(mod, off):
    if (mod, off) not in cache:
        p = paths.get(mod)
        out = "?"
        if p:
            r = subprocess.run(["addr2line", "-f", "-C", "-e", p, hex(int(off, 16) - 1)],
                               capture_output=True, text=True)
            out = " ".join(r.stdout.split()[:2]) or "?"
        cache[(mod, off)] = out
    return cache[(mod, off)]
for line in sys.stdin:
    m = re.search(r"\(([^()+]+)\+(0x[0-9a-f]+)\)", line)
    if m and "#" in line:
        line = line.rstrip("\n") + "  " + sym(m.group(1), m.group(2)) + "\n"
    sys.stdout.write(line)
