#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/eco: the README's way to run from the build tree, build/ivtv-env
# COMMAND, is Ctrl-C safe: the README's emulator capture, typed in a scratch
# directory (its `build` = this build) and stopped by a terminal Ctrl-C
# (SIGINT to the session), ends with gst-launch-1.0's EOS, exit status 0,
# no Python traceback, the file where it was typed.  (meson devenv printed
# a traceback and exited 130 here.)
#   test-ivtv-env.sh BUILD_ROOT
set -u
build=${1:?usage: $0 BUILD_ROOT}
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$build/ivtv-env" ] || { echo "FAIL: $build/ivtv-env is missing or not executable"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ln -s "$build" "$tmp/build"
cd "$tmp" || exit 1
fail=0
out=$(build/ivtv-env ivtv-capture --version 2>&1)
[ "${out%%$'\n'*}" = "ivtv-capture (ivtvsrc) $(sed -n "s/^ *version : '\(.*\)',/\1/p" "$here/../../meson.build")" ] &&
  echo "ok: build/ivtv-env ivtv-capture --version: ${out%%$'\n'*}" || { echo "FAIL: build/ivtv-env ivtv-capture --version: $out"; fail=1; }
/usr/bin/python3 "$here/ctrl-c-after.py" x.mpg 1 build/ivtv-env ivtv-emu --profile pvr250 -- \
  gst-launch-1.0 -e ivtvsrc input=composite ! filesink location=x.mpg > log 2>&1
rc=$?
cat log
[ $rc -eq 0 ] && echo "ok: exit status 0 after Ctrl-C" || { echo "FAIL: exit status $rc after Ctrl-C"; fail=1; }
grep -q Traceback log && { echo "FAIL: a Python traceback"; fail=1; } || echo "ok: no traceback"
grep -q 'Execution ended' log && echo "ok: gst-launch-1.0 finished the stream" ||
  { echo "FAIL: gst-launch-1.0 did not finish"; fail=1; }
[ -s x.mpg ] && [ ! -e "$build/x.mpg" ] && echo "ok: x.mpg written where the command was typed" ||
  { echo "FAIL: x.mpg not in the directory the command was typed in"; fail=1; }
exit $fail
