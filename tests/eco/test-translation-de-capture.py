#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""tests/eco: ivtv-capture speaks German under LANGUAGE=de (po/de.po, the
build's catalogues by IVTV_LOCALEDIR), beyond its --help (which
test-translation-de.py checks):
 - a usage error (no output file) comes out in German, with exit status 2,
   and in English without LANGUAGE; so does the error line of a failure
   the command words itself (no capture card: the emulator's notcapture);
 - the command's own failures with parameters are whole German sentences,
   no English piece left: a raw card without an audio device (the
   emulated webcam: "no audio device goes with ..., ALSA capture devices
   here: ...", exit 3) and a FILE.json that cannot be made (a folder of
   that name, --force: exit 5), and dvdauthor failing (a stand-in that
   fails, --dvd: exit 6), whose record keeps the English sentence;
 - a short recording of the emulated PVR-250 (--max-time 2) says its start
   line ("recording ...", the input the card chose) and its end line
   ("... MB in ...; record in ...") in German, and in English without
   LANGUAGE;
 - a raw card's recording (the emulated stk1160, --no-audio) gives its
   frame totals, status figures and the warning of a standard change in
   German (the record's event stays English);
 - the archival record FILE.json stays machine-read English under
   LANGUAGE=de: the same keys as the English run's, its end_reason English;
 - so do the element's messages recorded in it: frames the driver drops
   (the emulated webcam, --fault skip-every=20) give ivtvsrc's loss
   warning, German on the screen, English in FILE.json's "warnings" (the
   element's name, error domain and code and its untranslated debug
   detail, as GStreamer posts the text translated), and the English run's
   record its English text, with the same keys.
The locale is C.UTF-8, as test-translation-de.py.
    test-translation-de-capture.py BUILD_ROOT IVTV_CAPTURE IVTV_EMU"""
import json
import os
import subprocess
import sys
import tempfile

build, capture, emu = sys.argv[1], sys.argv[2], sys.argv[3]
podir = os.path.join(build, "po")
failures = 0


def check(cond, what):
    global failures
    print(("ok: " if cond else "FAIL: ") + what)
    failures += 0 if cond else 1


def env_for(language):
    env = dict(os.environ, LC_ALL="C.UTF-8", IVTV_LOCALEDIR=podir)
    env.pop("LANGUAGE", None)
    if language:
        env["LANGUAGE"] = language
    return env


def run(args, language, cwd=None, timeout=20, path=None):
    env = env_for(language)
    if path:
        env["PATH"] = path + os.pathsep + env.get("PATH", "")
    p = subprocess.run(args, env=env, cwd=cwd, timeout=timeout,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    print("$ LANGUAGE=%s %s  (exit %d)\n%s%s" % (language, " ".join(args),
          p.returncode, p.stdout, p.stderr))
    return p


# (a) a usage error
de = run([capture], "de")
check(de.returncode == 2, "no output file: exit status 2 under LANGUAGE=de")
check("ivtv-capture: Geben Sie eine Ausgabedatei an, z. B. ivtv-capture "
      "band.mpg (siehe --help)" in de.stderr,
      "the usage error comes out in German under LANGUAGE=de")
en = run([capture], "")
check("ivtv-capture: give one output file, e.g. ivtv-capture tape.mpg "
      "(see --help)" in en.stderr, "and in English without LANGUAGE")

# (a2) a failure made by the command itself (a GError's text): no card
with tempfile.TemporaryDirectory() as d:
    de = run([emu, "--profile", "notcapture", "--", capture, "x.mpg"], "de",
             cwd=d, timeout=30)
check(de.returncode == 3 and "ivtv-capture: Fehler: keine Capture-Karte "
      "gefunden (ist ihr Treiber geladen?" in de.stderr,
      "no card: the error line is German under LANGUAGE=de (exit 3)")


# (a3) a failure the command puts together with parameters: the audio
# device of a raw card (the webcam has none), in one German sentence
with tempfile.TemporaryDirectory() as d:
    de = run([emu, "--profile", "webcam", "--", capture, "-d", "/dev/video0",
              "t.mkv"], "de", cwd=d, timeout=60)
check(de.returncode == 3 and "ivtv-capture: Fehler: zu /dev/video0 gehört "
      "kein Audiogerät (kein ALSA-Gerät auf seinem USB-Gerät oder seiner "
      "Karte, kein PCM-Knoten); ALSA-Aufnahmegeräte hier: " in de.stderr
      and "; wählen Sie eines mit --audio-device, oder nehmen Sie mit "
      "--no-audio ohne Ton auf" in de.stderr,
      "no audio device: one German sentence under LANGUAGE=de (exit 3)")
check("ALSA capture devices" not in de.stderr and "choose one" not in
      de.stderr and "no audio device" not in de.stderr,
      "no English piece in it")

# (a4) FILE.json cannot be made (a folder has its name): the record's
# error in German
with tempfile.TemporaryDirectory() as d:
    os.mkdir(os.path.join(d, "t.mpg.json"))
    de = run([emu, "--profile", "pvr250", "--", capture, "--force",
              "--max-time", "2", "t.mpg"], "de", cwd=d, timeout=60)
check(de.returncode == 5 and "ivtv-capture: Fehler: das Protokoll "
      "t.mpg.json kann nicht angelegt werden: " in de.stderr
      and "cannot create" not in de.stderr,
      "FILE.json cannot be made: the error is German (exit 5)")


# (a5) dvdauthor fails (a stand-in that says why and exits 1): the end
# reason is one German sentence, the record's is English
with tempfile.TemporaryDirectory() as d:
    fake = os.path.join(d, "bin")
    os.mkdir(fake)
    with open(os.path.join(fake, "dvdauthor"), "w") as f:
        f.write("#!/bin/sh\necho 'ERR:  the stand-in refuses' >&2\nexit 1\n")
    os.chmod(os.path.join(fake, "dvdauthor"), 0o755)
    de = run([emu, "--profile", "pvr250", "--", capture, "--dvd",
              "--max-time", "2", "t.mpg"], "de", cwd=d, timeout=60,
             path=fake)
    try:
        with open(os.path.join(d, "t.mpg.json")) as f:
            dvd_error = json.load(f).get("error")
    except (OSError, ValueError):
        dvd_error = None
check(de.returncode == 6 and "ivtv-capture: Fehler: dvdauthor -t ist "
      "fehlgeschlagen: ERR:  the stand-in refuses (t.mpg ist vollständig)"
      in de.stderr, "dvdauthor fails: one German sentence (exit 6)")
check(dvd_error == "dvdauthor -t failed: ERR:  the stand-in refuses (t.mpg "
      "is complete)", "and the record's error is the English sentence: %r"
      % dvd_error)


def keys(v):
    """the structure of a JSON value: its objects' keys, recursively (not
    its lists' lengths or values: a warning may come in one run only)"""
    if isinstance(v, dict):
        return {k: keys(x) for k, x in v.items()}
    return "list" if isinstance(v, list) else None


# (b) a short recording under the emulator, in German and in English
records = {}
for language in ("de", ""):
    with tempfile.TemporaryDirectory() as d:
        p = run([emu, "--profile", "pvr250", "--", capture, "--max-time", "2",
                 "t.mpg"], language, cwd=d, timeout=60)
        check(p.returncode == 0, "LANGUAGE=%s: the recording completes"
              % language)
        try:
            with open(os.path.join(d, "t.mpg.json")) as f:
                records[language] = json.load(f)
        except (OSError, ValueError) as e:
            records[language] = None
            check(False, "LANGUAGE=%s: t.mpg.json is read (%s)"
                  % (language, e))
        out = p.stdout
    if language == "de":
        check("ivtv-capture: Aufnahme von „WinTV PVR 250“ (ivtv, /dev/video0)"
              ", Eingang „" in out and " nach t.mpg\n" in out,
              "the start line is German (card, driver, node, input)")
        check("ivtv-capture: Höchstdauer erreicht (00:00:02): Datei wird "
              "abgeschlossen ..." in out, "the stop line is German")
        check(", Höchstdauer erreicht (00:00:02); Protokoll in t.mpg.json\n"
              in out and "ivtv-capture: t.mpg: " in out,
              "the end line is German")
        check("Signal: vorhanden" in out, "the status line is German")
        check("recording '" not in out and "record in" not in out,
              "no English start or end line under LANGUAGE=de")
    else:
        check("ivtv-capture: recording 'WinTV PVR 250' (ivtv, /dev/video0), "
              "input '" in out, "the start line is English without LANGUAGE")
        check(", maximum time reached (00:00:02); record in t.mpg.json\n"
              in out, "the end line is English without LANGUAGE")

# (c) the archival path (a raw card: FFV1 in Matroska) has lines of its own
# and the tape's standard changing under way (std-change-after, as
# archive-stk1160-standard-change) is warned of in German, while the
# record's event stays English
with tempfile.TemporaryDirectory() as d:
    p = run([emu, "--profile", "stk1160", "--fault", "std-change-after=60",
             "--", capture, "-d", "/dev/video0", "--no-audio", "--max-time",
             "6", "t.mkv"], "de", cwd=d, timeout=60)
    check(p.returncode == 0 and "ivtv-capture: Bilder: " in p.stdout
          and " geliefert + " in p.stdout and "  Bilder: " in p.stdout,
          "a raw card's frame totals and status figures are German")
    check("ivtv-capture: Warnung: die Norm des Eingangs hat sich von NTSC zu "
          "PAL geändert; die Aufnahme bleibt in NTSC" in p.stdout,
          "the standard change is warned of in German")
    try:
        with open(os.path.join(d, "t.mkv.json")) as f:
            record = f.read()
    except OSError:
        record = ""
    check('"the input\'s standard changed from NTSC to PAL; the recording '
          'stays in NTSC' in record, "the record's event of it stays English")

# (d) a loss warning of the element (frames the driver drops: the
# webcam's skip-every) on the screen in German, in FILE.json in English
GERMAN = ("verloren", "Aufnahme", "Bild", "Treiber", "Warnung")
loss_records = {}
for language in ("de", ""):
    with tempfile.TemporaryDirectory() as d:
        p = run([emu, "--profile", "webcam", "--fault", "skip-every=20", "--",
                 capture, "-d", "/dev/video0", "--no-audio", "--max-time",
                 "3", "t.mkv"], language, cwd=d, timeout=60)
        try:
            with open(os.path.join(d, "t.mkv.json")) as f:
                loss_records[language] = json.load(f)
        except (OSError, ValueError) as e:
            loss_records[language] = {}
            check(False, "LANGUAGE=%s: t.mkv.json is read (%s)"
                  % (language, e))
    warnings = loss_records[language].get("warnings", [])
    print("LANGUAGE=%s: the record's warnings: %s" % (language, warnings))
    if language == "de":
        check(p.returncode == 0 and "ivtv-capture: Warnung bei 00:00:" in
              p.stdout and " der Aufnahme bei " in p.stdout,
              "frames lost: the element's warning is German on the screen")
        check(warnings and all(w.isascii() and not any(
              g in w for g in GERMAN) for w in warnings),
              "the record's warnings have no German under LANGUAGE=de")
        check(any("src: resource error 'read': gap in the driver's frame "
                  "sequence numbers" in w for w in warnings),
              "the record names the loss in English (the element's "
              "domain, code and debug detail)")
    else:
        check(p.returncode == 0 and any(
              "Lost " in w and " of the recording at " in w
              for w in warnings),
              "without LANGUAGE the record has the element's English text")
if loss_records.get("de") and loss_records.get(""):
    check(keys(loss_records["de"]) == keys(loss_records[""]),
          "t.mkv.json has the same keys under LANGUAGE=de as in English")

de_rec, en_rec = records.get("de"), records.get("")
if de_rec is not None and en_rec is not None:
    check(keys(de_rec) == keys(en_rec),
          "t.mpg.json has the same keys under LANGUAGE=de as in English")
    check(de_rec.get("end_reason") == "maximum time reached (00:00:02)",
          "t.mpg.json's end_reason stays English under LANGUAGE=de")
sys.exit(1 if failures else 0)
