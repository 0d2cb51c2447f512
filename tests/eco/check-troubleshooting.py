#!/usr/bin/python3
"""tests/eco: every error, warning and info text the plugin can post
(GST_ELEMENT_ERROR/WARNING/INFO and the g_set_error texts they carry, in
gst/*/*.c) has an entry in docs/troubleshooting.md.  An entry quotes the
message with its %-placeholders written as words; the check looks for the
longest literal piece of each message.

    check-troubleshooting.py SOURCE_ROOT [--list]
"""
import os
import re
import sys

LIT = r'"((?:[^"\\]|\\.)*)"'
SPEC = re.compile(r"%[-+ #0-9.*]*(?:l{0,2}|h{0,2}|z|j|t)[diouxXeEfgGcsp%]")


def literals(text, pos):
    """The C string literals starting at pos (adjacent ones, with format
    macros like G_GUINT64_FORMAT between them), as a list of pieces."""
    pieces = []
    m = re.compile(r"\s*_\(").match(text, pos)     # a translatable text
    if m:
        pos = m.end()
    while True:
        m = re.compile(r"\s*" + LIT).match(text, pos)
        if m:
            pieces.append(bytes(m.group(1), "utf-8").decode("unicode_escape"))
            pos = m.end()
            continue
        m = re.compile(r"\s*[A-Z_0-9]+_FORMAT\b").match(text, pos)
        if m and pieces:
            # "%" G_GUINT64_FORMAT: the "%" (and flags) is the format's
            pieces[-1] = re.sub(r"%[-+ #0-9.*]*$", "", pieces[-1])
            pieces.append("\0")  # a placeholder
            pos = m.end()
            continue
        return pieces


def key_of(pieces):
    text = "".join(pieces)
    chunks = [c.strip() for c in re.split(r"\0|" + SPEC.pattern, text)]
    chunks.sort(key=len, reverse=True)
    return chunks[0] if chunks and len(chunks[0]) >= 10 else None


def _sources(top, exts):
    """The files of gst/ (every layer's folder) ending in exts, as paths
    relative to gst/ ("session/ivtvcapture.c"), sorted."""
    out = []
    for d, _, files in os.walk(top):
        out += [os.path.relpath(os.path.join(d, f), top) for f in files
                if f.endswith(exts)]
    return sorted(out)


def messages(src):
    out = []
    for fn in _sources(src, ".c"):
        with open(os.path.join(src, fn), encoding="utf-8") as f:
            text = f.read()
        for m in re.finditer(
                r"(?:GST_ELEMENT_(?:ERROR|WARNING|INFO)|IVTV_ERROR)\s*\([^,]+,\s*\w+,\s*\w+,\s*\(",
                text):
            pieces = literals(text, m.end())
            if pieces and pieces != ["%s"]:
                out.append((fn, text.count("\n", 0, m.start()) + 1, pieces))
        for m in re.finditer(r"g_set_error\s*\(\s*\w+\s*,", text):
            # skip domain and code (the code may be a ?: expression)
            rest = re.compile(r"[^,;]+,[^,;]+,").match(text, m.end())
            if not rest:
                continue
            pieces = literals(text, rest.end())
            if pieces:
                out.append((fn, text.count("\n", 0, m.start()) + 1, pieces))
    return out


def main():
    root = sys.argv[1]
    doc_path = os.path.join(root, "docs", "troubleshooting.md")
    with open(doc_path, encoding="utf-8") as f:
        doc = " ".join(f.read().split())
    missing = 0
    total = 0
    for fn, line, pieces in messages(os.path.join(root, "gst")):
        key = key_of(pieces)
        if key is None:
            continue
        total += 1
        key = " ".join(key.split())
        if "--list" in sys.argv:
            print("gst/%s:%d: %s" % (fn, line, key))
        if key not in doc:
            missing += 1
            print("FAIL: docs/troubleshooting.md has no entry for gst/%s:%d "
                  "\"%s\" (quote the message, say what it means and what to "
                  "do)" % (fn, line, "".join(pieces).replace("\0", "%")))
    print("%d messages, %d without an entry" % (total, missing))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
