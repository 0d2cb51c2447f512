#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""tests/eco: every relative link of the installed documents names an
installed file (the README's docs/X.md links are rewritten at install, the
documents of docs/ and examples/ are installed beside it).
    check-doc-links.py DOC_DIR"""
import os
import re
import sys

doc = sys.argv[1]
bad = checked = 0
for base, _, names in os.walk(doc):
    for name in sorted(names):
        if not name.endswith(".md"):
            continue
        path = os.path.join(base, name)
        text = open(path, encoding="utf-8").read()
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target) or target.startswith("#") \
                    or not re.search(r"[./]", target):
                continue    # a URL, an anchor, or no file ("[0x1](und)")
            checked += 1
            dest = os.path.normpath(os.path.join(base, target.split("#")[0]))
            if not os.path.exists(dest):
                bad += 1
                print(f"FAIL: {os.path.relpath(path, doc)} links {target}, "
                      "which is not installed")
print(f"{checked} links checked in {doc}, {bad} dead")
if checked == 0:
    print("FAIL: no links found: the check proves nothing")
sys.exit(1 if bad or checked == 0 else 0)
