#!/usr/bin/python3
"""tests/eco: the commands the docs give for the build tree work as
written (build/ivtv-env COMMAND, or meson devenv).  Every `meson devenv -C build ...` in README.md, docs/*.md and the
READMEs under tests/, tools/ and bench/ has `--workdir .` (meson devenv
runs its command in build/, so a relative path such as x.mpg would land
there); and every such emulator command in a code block (ivtv-emu ...,
continued lines joined) is run literally from a scratch directory whose
`build` is this build tree: it must exit 0 and the files it names by a
relative path (location=F, > F, a last argument F.mpg) must be in the
scratch directory, not in build/.  A command that sets the DVD stream type
with v4l2-ctl before its capture in one session (capturing-tapes section 5:
each ivtv-emu run is a new card) must have recorded a DVD stream: its file
has NAV packs (private stream 2, 00 00 01 BF), which a plain PS has not.
    test-doc-commands.py SOURCE_ROOT BUILD_ROOT"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

root, build = sys.argv[1], sys.argv[2]
if shutil.which("meson") is None:
    print("SKIP: meson not in PATH")
    sys.exit(77)
docs = [os.path.join(root, "README.md")] + sorted(
    glob.glob(os.path.join(root, "docs", "*.md"))
    + glob.glob(os.path.join(root, "tests", "*", "README.md"))
    + glob.glob(os.path.join(root, "tools", "*", "README.md"))
    + glob.glob(os.path.join(root, "bench", "*.md")))
failures = 0


def check(cond, what):
    global failures
    print(("ok: " if cond else "FAIL: ") + what)
    failures += 0 if cond else 1


def blocks(text):
    """Commands of the indented code blocks, continuation lines joined."""
    out, cur = [], ""
    for line in text.split("\n"):
        if not line.startswith("    "):
            cur = ""
            continue
        line = line.strip()
        cur = (cur + " " + line) if cur else line
        if cur.endswith("\\"):
            cur = cur[:-1].rstrip()
            continue
        out.append(re.sub(r"\s+#.*$", "", cur))
        cur = ""
    return out


to_run = []
for path in docs:
    rel = os.path.relpath(path, root)
    text = open(path).read()
    flat = re.sub(r"\s+", " ", text)
    for m in re.finditer(r"meson devenv -C build( --workdir \.)?", flat):
        said = flat[m.start():m.end() + 25]
        check(m.group(1) is not None, f"{rel}: '{said}...' has --workdir .")
    for cmd in blocks(text):
        if cmd.startswith("meson devenv -C build --workdir . ivtv-emu") or \
                cmd.startswith("build/ivtv-env ivtv-emu"):
            to_run.append((rel, cmd))

check(len(to_run) >= 4, f"{len(to_run)} documented emulator commands found")
# the README's first command, tools/capture-demo.sh, captures the same way:
# through build/ivtv-env, where a Ctrl-C ends the capture cleanly (under
# meson devenv: a Python traceback and the demo's report lost)
demo = open(os.path.join(root, "tools", "capture-demo.sh")).read()
demo_code = "\n".join(l for l in demo.split("\n")
                      if not l.lstrip().startswith("#"))
check("build/ivtv-env ivtv-emu" in demo_code and
      "meson devenv" not in demo_code,
      "tools/capture-demo.sh runs its capture through build/ivtv-env")
for rel, cmd in to_run:
    scratch = tempfile.mkdtemp(prefix="ivtv-doc-")
    os.symlink(build, os.path.join(scratch, "build"))
    outputs = re.findall(r"location=([\w.-]+)|> ?([\w.-]+)|\s([\w-]+\.mpg)$",
                         cmd)
    outputs = [o for grp in outputs for o in grp if o]
    try:
        p = subprocess.run(cmd, shell=True, cwd=scratch, timeout=120,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
        ok, tail = p.returncode == 0, p.stdout[-600:]
    except subprocess.TimeoutExpired:
        ok, tail = False, "timed out after 120 s"
    check(ok, f"{rel}: runs as written: {cmd}" + ("" if ok else "\n" + tail))
    for f in outputs:
        check(os.path.getsize(os.path.join(scratch, f)) > 0
              if os.path.exists(os.path.join(scratch, f)) else False,
              f"{rel}: {f} is written where the command was typed")
        leaked = os.path.join(build, f)
        check(not os.path.exists(leaked), f"{rel}: no {f} in build/")
        if "stream_type=3" in cmd and f.endswith(".mpg") and \
                os.path.exists(os.path.join(scratch, f)):
            with open(os.path.join(scratch, f), "rb") as fh:
                nav = fh.read().count(b"\x00\x00\x01\xbf")
            check(nav > 0, f"{rel}: {f} is a DVD stream, the setting held "
                  f"into the capture ({nav} NAV packs)")
    shutil.rmtree(scratch)
sys.exit(1 if failures else 0)
