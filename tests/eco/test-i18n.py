#!/usr/bin/python3
"""tests/eco: the plugin's messages are set up for translation as in
GStreamer's plugins: every error, warning and info text of gst/*/*.c
(GST_ELEMENT_ERROR/WARNING/INFO and the g_set_error texts they carry) is
wrapped in _() (<glib/gi18n-lib.h>, domain GETTEXT_PACKAGE) unless it is
built with a *_FORMAT macro (no msgid can match those); po/POTFILES lists
exactly the files that use _(); plugin_init binds the domain to
LOCALEDIR; xgettext finds every wrapped text.
    test-i18n.py SOURCE_ROOT BUILD_ROOT"""
import os
import re
import shutil
import subprocess
import sys

root, build = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(root, "tests", "eco"))
import importlib.util  # noqa: E402
spec = importlib.util.spec_from_file_location(
    "ct", os.path.join(root, "tests", "eco", "check-troubleshooting.py"))
ct = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ct)
failures = 0


def check(cond, what):
    global failures
    if not cond:
        print("FAIL: " + what)
    failures += 0 if cond else 1
    return cond


gst = os.path.join(root, "gst")
config = open(os.path.join(build, "gst", "config.h")).read()
check(re.search(r'#define GETTEXT_PACKAGE "ivtvsrc"', config),
      "config.h defines GETTEXT_PACKAGE")
check("#define LOCALEDIR" in config, "config.h defines LOCALEDIR")
plugin = open(os.path.join(gst, "element", "plugin.c")).read()
# LOCALEDIR, or the build's catalogues named by IVTV_LOCALEDIR
check(re.search(r"bindtextdomain \(GETTEXT_PACKAGE,[^;]*\bLOCALEDIR\)", plugin)
      and "bind_textdomain_codeset (GETTEXT_PACKAGE, \"UTF-8\")" in plugin,
      "plugin_init binds GETTEXT_PACKAGE to LOCALEDIR, UTF-8")

wrapped = unwrapped = 0
using = set()
for fn in sorted(os.path.relpath(os.path.join(d, f), gst)
                 for d, _, fs in os.walk(gst) for f in fs if f.endswith(".c")):
    text = open(os.path.join(gst, fn)).read()
    if re.search(r"\b_\(\s*\"", text):
        using.add("gst/" + fn)
        check("#include <glib/gi18n-lib.h>" in text,
              f"gst/{fn} uses _() and includes <glib/gi18n-lib.h>")
    for m in re.finditer(
            r"((?:GST_ELEMENT_(?:ERROR|WARNING|INFO)|IVTV_ERROR)\s*\([^,]+,\s*\w+,\s*\w+,"
            r"\s*\(|g_set_error\s*\(\s*\w+\s*,[^,;]+,[^,;]+,)", text):
        after = text[m.end():m.end() + 200]
        if re.match(r'\s*"%s"\s*,', after) or not re.match(r'\s*(_\()?\s*"',
                                                          after):
            continue
        line = text.count("\n", 0, m.start()) + 1
        lits = re.match(r'\s*((?:"(?:[^"\\]|\\.)*"\s*|[A-Z_0-9]+_FORMAT\s*)+)',
                        after)
        has_fmt = lits and re.search(r"_FORMAT\b", lits.group(1))
        if re.match(r"\s*_\(", after):
            wrapped += 1
        elif not has_fmt:
            unwrapped += 1
            check(False, f"gst/{fn}:{line}: message not wrapped in _(): "
                  f"{after.strip()[:70]}")
print(f"{wrapped} messages wrapped in _(), {unwrapped} not")
check(wrapped >= 50, f"the messages are wrapped ({wrapped})")

# ivtv-capture: its option texts are N_() (GOption translates them)
for fn in sorted(os.listdir(os.path.join(root, "tools", "ivtv-capture"))):
    if fn.endswith(".c") and re.search(
            r"\bN?_\s*\(\s*\"",
            open(os.path.join(root, "tools", "ivtv-capture", fn)).read()):
        using.add("tools/ivtv-capture/" + fn)
potfiles = os.path.join(root, "po", "POTFILES")
listed = {ln.strip() for ln in open(potfiles)
          if ln.strip() and not ln.startswith("#")}
check(listed == using, f"po/POTFILES lists the files that use _(): "
      f"missing {sorted(using - listed)}, extra {sorted(listed - using)}")

if shutil.which("xgettext"):
    pot = subprocess.run(
        ["xgettext", "--keyword=_", "--from-code=UTF-8", "-o", "-"]
        + sorted(listed), cwd=root, stdout=subprocess.PIPE, text=True,
        check=True).stdout
    n = len(re.findall(r"^msgid ", pot, re.M)) - 1
    check(n >= wrapped * 0.8, f"xgettext finds {n} msgids for {wrapped} "
          "wrapped texts (some texts are shared)")
    print(f"xgettext: {n} msgids")
else:
    print("skip: no xgettext (Debian gettext)")
print("ok" if not failures else f"{failures} failures")
sys.exit(1 if failures else 0)
