#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""tests/capture: the house rule "functions <= 80 lines" (RULES.md) held
for ivtv-capture's sources (tools/ivtv-capture/*.c): a function is counted
from its return type's line to its closing brace, as the files write them
(GNU style: the name at the start of a line, "{" and "}" alone in column
0).  Prints every function longer than the limit and exits 1 if any.
    check-function-length.py [--max N] FILE.c|DIR...  (a DIR: its *.c)"""
import glob
import os
import re
import sys

args = sys.argv[1:]
limit = 80
if args[:1] == ["--max"]:
    limit, args = int(args[1]), args[2:]
args = [f for a in args for f in (sorted(glob.glob(os.path.join(a, "*.c")))
                                  if os.path.isdir(a) else [a])]


def functions(path):
    """(name, first line number, lines) of each function definition"""
    lines = open(path, encoding="utf-8").read().split("\n")
    for i, line in enumerate(lines):
        if line != "{" or i == 0 or not lines[i - 1].rstrip().endswith(")"):
            continue
        j = i - 1                       # the line with the name
        while j > 0 and not re.match(r"[A-Za-z_]\w* \(", lines[j]):
            j -= 1
        k = i
        while k < len(lines) and lines[k] != "}":
            k += 1
        start = j - 1 if j > 0 and lines[j - 1].strip() else j
        yield lines[j].split(" ")[0], start + 1, k - start + 1


too_long, count = [], 0
for path in args:
    for name, at, n in functions(path):
        count += 1
        if n > limit:
            too_long.append("%s:%d: %s is %d lines (> %d)"
                            % (path, at, name, n, limit))
print("%d functions in %d files checked, %d longer than %d lines"
      % (count, len(args), len(too_long), limit))
for line in too_long:
    print("FAIL: " + line)
sys.exit(1 if too_long else 0)
