#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""tests/eco: README.md's property table names every property of ivtvsrc
that gst-inspect-1.0 shows (GstObject's name and parent aside), and no
property ivtvsrc lacks.
    test-readme-properties.py SOURCE_ROOT"""
import os
import re
import subprocess
import sys

root = sys.argv[1]
text = open(os.path.join(root, "README.md"), encoding="utf-8").read()
table = text[text.index("## Properties"):]
table = table[:table.index("\n\n", table.index("| ---"))]
listed = set()
for row in table.splitlines()[2:]:
    first = row.split("|")[1]
    listed.update(re.findall(r"`([a-z][a-z0-9-]*)`", first))
out = subprocess.run(["gst-inspect-1.0", "ivtvsrc"], stdout=subprocess.PIPE,
                     text=True, check=True).stdout
props = out[out.index("Element Properties:"):]
props = props[:props.index("\n\n")] if "\n\n" in props else props
have = set(re.findall(r"^  ([a-z][a-z0-9-]*)\s+:", props, re.M)) - {
    "name", "parent"}
missing, extra = sorted(have - listed), sorted(listed - have)
print(f"{len(have)} properties, {len(listed)} in the README's table")
for p in missing:
    print(f"FAIL: README's property table lacks `{p}`")
for p in extra:
    print(f"FAIL: README's property table lists `{p}`, which ivtvsrc lacks")
sys.exit(1 if missing or extra or not have else 0)
