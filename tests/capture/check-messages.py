#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""tests/capture: every text ivtv-capture shows a person goes through the
catalogue (po/, domain ivtvsrc): in tools/ivtv-capture/*.c the message of
g_set_error / g_set_error_literal (a GError the user reads), cap_fail and
cap_status_event (the end's reason, an event line) and g_print /
g_printerr is _(), N_(), C_() or g_dngettext (one whole sentence, plural
forms by count), unless it is a literal without a word of its own
("%s", "ivtv-capture: %s\\n", escape codes, the --version line's
"ivtv-capture (ivtvsrc) %s").  The English lines made for
the record (g_strdup_printf for FILE.json, cap_fail_both's LINE) are not
shown and not checked.  Prints each message that is not and exits 1.
    check-messages.py DIR|FILE.c..."""
import glob
import os
import re
import sys

files = [f for a in sys.argv[1:] for f in (
    sorted(glob.glob(os.path.join(a, "*.c"))) if os.path.isdir(a) else [a])]
# the call and how many arguments come before its text
CALLS = {"g_set_error": 3, "g_set_error_literal": 3, "cap_fail": 2,
         "cap_status_event": 1, "g_print": 0, "g_printerr": 0}
WRAPPED = re.compile(r"\s*(_|N_|C_|NC_|g_dngettext|g_dpgettext2)\s*\(")
LITERAL = re.compile(r'\s*((?:"(?:[^"\\]|\\.)*"\s*)+)')


def arguments(text, start):
    """the top-level arguments of the call whose "(" is at START: (text,
    offset) each"""
    depth, args, cur, i, in_str = 0, [], start + 1, start, False
    while i < len(text):
        ch = text[i]
        if in_str:
            if ch == "\\":
                i += 1
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                args.append((text[cur:i], cur))
                return args
        elif ch == "," and depth == 1:
            args.append((text[cur:i], cur))
            cur = i + 1
        i += 1
    return args


checked, bad = 0, []
for path in files:
    text = open(path, encoding="utf-8").read()
    for m in re.finditer(r"\b(%s) \(" % "|".join(CALLS), text):
        args = arguments(text, m.end() - 1)
        skip = CALLS[m.group(1)]
        if len(args) <= skip:
            continue
        arg, at = args[skip]
        lit = LITERAL.match(arg)
        if WRAPPED.match(arg) or not lit:
            checked += 1 if WRAPPED.match(arg) else 0
            continue            # wrapped, or a variable made elsewhere
        words = re.sub(r"%[-+ #0-9.*]*[a-zA-Z]|\\[nrt]|\\0[0-7]+|\[K|"
                       r"ivtv-capture|\(ivtvsrc\)", "", "".join(
                           re.findall(r'"((?:[^"\\]|\\.)*)"', lit.group(1))))
        checked += 1
        if re.search(r"[A-Za-z]{2,}", words):
            line = text.count("\n", 0, at) + 1
            bad.append("%s:%d: %s's text not in _(): %s" % (
                path, line, m.group(1), lit.group(1).strip()[:70]))
print("%d shown messages checked in %d files, %d not translatable"
      % (checked, len(files), len(bad)))
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
