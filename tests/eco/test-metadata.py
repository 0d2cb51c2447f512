#!/usr/bin/python3
"""tests/eco: the plugin's metadata as gst-inspect-1.0 shows it: a real
origin (not example.invalid), the version of meson's project(), a
documentation URI on the element and the device provider (from the build
tree with the doc-uri option at auto: the source tree's docs/ivtvsrc.md,
a file that is there, not the install's path), one description
of what it does (plugin = element), no format twice in the pad template,
and every enum's values in numeric order.
    test-metadata.py PROJECT_VERSION [SOURCE_ROOT DOC_URI_OPTION]"""
import os
import pathlib
import re
import subprocess
import sys

version = sys.argv[1]
root, doc_option = (sys.argv[2:4] + [None, None])[:2]
failures = 0


def check(cond, what):
    global failures
    print(("ok: " if cond else "FAIL: ") + what)
    failures += 0 if cond else 1


def inspect(*args):
    return subprocess.run(["gst-inspect-1.0"] + list(args), check=True,
                          stdout=subprocess.PIPE, text=True,
                          env=dict(os.environ, GST_DEBUG="*:0")).stdout


def field(text, name):
    m = re.search(r"^\s+%s\s+(.*)$" % re.escape(name), text, re.M)
    return m.group(1).strip() if m else None


plugin = inspect("ivtv")
elem = inspect("ivtvsrc")
origin = field(plugin, "Origin URL")
check(origin and "example.invalid" not in origin, f"origin: {origin}")
check(field(plugin, "Version") == version,
      f"version {field(plugin, 'Version')} is meson's {version}")
doc = field(elem, "Doc-uri")
check(doc is not None and re.match(r"(file|https?)://", doc),
      f"ivtvsrc Doc-uri: {doc}")
if doc_option is not None:
    want = doc_option
    if doc_option == "auto":
        want = pathlib.Path(root, "docs", "ivtvsrc.md").resolve().as_uri()
    check(doc == want, f"the build tree's Doc-uri is {want}")
    if doc and doc.startswith("file://"):
        check(os.path.isfile(doc[len("file://"):]),
              f"the Doc-uri names a file that is there: {doc}")
check(field(plugin, "Description") == field(elem, "Description"),
      f"plugin and element say the same: {field(plugin, 'Description')!r} / "
      f"{field(elem, 'Description')!r}")
check(field(elem, "Author") is not None, "author")

import gi  # noqa: E402
gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402
Gst.init(None)
dp = Gst.DeviceProviderFactory.find("ivtvdeviceprovider")
check(dp is not None and dp.get_metadata("doc-uri") == doc,
      f"ivtvdeviceprovider doc-uri: {dp.get_metadata('doc-uri') if dp else None}")
check(dp is not None and dp.get_metadata("author") == field(elem, "Author"),
      "provider and element have one author")

# the pad template: no format twice in a list
tmpl = Gst.ElementFactory.find("ivtvsrc").get_static_pad_templates()[0]
caps = tmpl.get_caps()
for i in range(caps.get_size()):
    s = caps.get_structure(i)
    fm = s.get_value("format") if s.has_field("format") else None
    if isinstance(fm, list) or (fm is not None and not isinstance(fm, str)):
        names = list(fm)
        dups = sorted({n for n in names if names.count(n) > 1})
        check(not dups, f"{s.get_name()}: no format twice ({dups})")

# enums in order, as gst-inspect-1.0 lists them
for block in re.findall(r'Enum "(\w+)".*?\n((?:\s+\(-?\d+\): .*\n)+)', elem):
    values = [int(v) for v in re.findall(r"\((-?\d+)\):", block[1])]
    check(values == sorted(values), f"enum {block[0]} in order: {values}")
sys.exit(1 if failures else 0)
