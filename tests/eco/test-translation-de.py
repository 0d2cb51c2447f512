#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""tests/eco: the German catalogue (po/de.po, built by meson into
BUILD/po/de/LC_MESSAGES/ivtvsrc.mo) translates what a user reads:
 - the element: under LANGUAGE=de an error of ivtvsrc (a device that does
   not exist) is posted in German, and in English without it, the plugin
   finding the build's catalogues by IVTV_LOCALEDIR as build/ivtv-env and
   meson devenv set it (no bindtextdomain by the test);
 - the command: `ivtv-capture --help` under LANGUAGE=de (IVTV_LOCALEDIR =
   the build's catalogues, as meson devenv sets) explains its options in
   German.
The locale is C.UTF-8 (every Debian system has it; LANGUAGE picks the
catalogue), as tests/unit/test-i18n.c does.
    test-translation-de.py BUILD_ROOT IVTV_CAPTURE"""
import locale
import os
import subprocess
import sys

build, capture = sys.argv[1], sys.argv[2]
podir = os.path.join(build, "po")
failures = 0


def check(cond, what):
    global failures
    print(("ok: " if cond else "FAIL: ") + what)
    failures += 0 if cond else 1


check(os.path.exists(os.path.join(podir, "de", "LC_MESSAGES", "ivtvsrc.mo")),
      "meson built po/de/LC_MESSAGES/ivtvsrc.mo")
try:
    locale.setlocale(locale.LC_ALL, "C.UTF-8")
except locale.Error:
    print("skip: no C.UTF-8 locale")
    sys.exit(77)

import gi  # noqa: E402
gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

Gst.init(None)


def error_text():
    """the text of ivtvsrc's error for a missing device"""
    src = Gst.ElementFactory.make("ivtvsrc")
    if src is None:
        return "(no ivtvsrc)"
    pipe = Gst.Pipeline()
    sink = Gst.ElementFactory.make("fakesink")
    pipe.add(src)
    pipe.add(sink)
    src.link(sink)
    src.set_property("device", "/dev/ivtv-test-no-such-node")
    pipe.set_state(Gst.State.PAUSED)
    msg = pipe.get_bus().timed_pop_filtered(10 * Gst.SECOND,
                                            Gst.MessageType.ERROR)
    pipe.set_state(Gst.State.NULL)
    if msg is None:
        return "(no error)"
    return msg.parse_error()[0].message


if len(sys.argv) > 3:          # the child: one language
    print(error_text())
    sys.exit(0)


def error_in(language):
    """error_text() in a process of its own under LANGUAGE (gettext keeps
    what it translated once)"""
    env = dict(os.environ, LANGUAGE=language, LC_ALL="C.UTF-8",
               IVTV_LOCALEDIR=podir)
    return subprocess.run([sys.executable, __file__, build, capture, "child"],
                          env=env, stdout=subprocess.PIPE,
                          text=True).stdout.strip().split("\n")[-1]


de = error_in("de")
print("de: " + de)
check(de.startswith("Das Gerät /dev/ivtv-test-no-such-node existiert nicht."),
      "the element's error comes out in German under LANGUAGE=de")
en = error_in("")
print("C: " + en)
check(en.startswith("Device /dev/ivtv-test-no-such-node does not exist."),
      "and in English without LANGUAGE")

env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="de", IVTV_LOCALEDIR=podir)
out = subprocess.run([capture, "--help"], env=env, stdout=subprocess.PIPE,
                     text=True).stdout
check("Nach dieser Dauer aufhören: Sekunden, oder 90m, 2h, 1:30:00" in out,
      "ivtv-capture --help explains --max-time in German under LANGUAGE=de")
check("Anwendungsoptionen:" in out, "(GLib's own headings too)")
sys.exit(1 if failures else 0)
