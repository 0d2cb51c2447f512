#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/eco: the first-aid commands of docs/troubleshooting.md and
# docs/capturing-tapes.md section 1 work under the emulator as on a card:
# `v4l2-ctl --list-devices` lists the emulated PVR-250 and webcam with their
# nodes, `ls -l /dev/video0` shows a character device 81,0 without a false
# error, a /dev/video* glob (expanded inside the emulated session) finds the
# nodes, and a listing of /sys/class/video4linux names them.  And what the
# README and capturing-tapes.md say of settings: they hold within one
# ivtv-emu session, the next run is a new card.
#   test-emu-first-aid.sh IVTV_EMU
set -u
emu=${1:?usage: $0 IVTV_EMU}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
run() { "$emu" --profile pvr250 --profile webcam -- "$@"; }

if ! command -v v4l2-ctl >/dev/null; then
  echo "skip: no v4l2-ctl (v4l-utils)"; exit 77
fi
out=$(run v4l2-ctl --list-devices 2>&1); echo "$out"
grep -q '^WinTV PVR 250' <<<"$out" && grep -qx $'\t/dev/video0' <<<"$out" && grep -qx $'\t/dev/vbi0' <<<"$out" &&
  grep -qx $'\t/dev/video1' <<<"$out" && ok "v4l2-ctl --list-devices lists the PVR-250 (video0, vbi0) and the webcam (video1)" ||
  bad "v4l2-ctl --list-devices does not list the emulated cards"

run ls -l /dev/video0 > "$tmp/out" 2> "$tmp/err"; rc=$?
cat "$tmp/out" "$tmp/err"
[ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q '^crw-rw---- .* 81, *0 .*/dev/video0$' "$tmp/out" &&
  ok "ls -l /dev/video0: a character device 81, 0, no error" || bad "ls -l /dev/video0 (exit $rc)"

out=$(run bash -c 'ls /dev/video*' 2>&1); echo "$out"
[ "$(tr '\n' ' ' <<<"$out")" = "/dev/video0 /dev/video1 " ] && ok "ls /dev/video* finds video0 and video1" ||
  bad "ls /dev/video* gives '$out'"

out=$(run python3 -c 'import os; print(" ".join(sorted(os.listdir("/sys/class/video4linux"))))' 2>&1)
grep -qw video0 <<<"$out" && grep -qw vbi0 <<<"$out" && ok "/sys/class/video4linux lists $out" ||
  bad "/sys/class/video4linux lists '$out'"
# the documents' rule: a recipe's settings and capture run in one session
# (each ivtv-emu run is a new card)
one=$("$emu" --profile pvr250 -- sh -c 'v4l2-ctl -d /dev/video0 --set-ctrl=stream_type=3 && v4l2-ctl -d /dev/video0 --get-ctrl=stream_type' 2>&1)
next=$("$emu" --profile pvr250 -- v4l2-ctl -d /dev/video0 --get-ctrl=stream_type 2>&1)
[ "$one" = "stream_type: 3 (MPEG-2 DVD-compatible Stream)" ] && ok "a setting holds within one session: $one" ||
  bad "a setting does not hold within one session: '$one'"
[ "$next" = "stream_type: 0 (MPEG-2 Program Stream)" ] && ok "the next run is a new card, as the documents say: $next" ||
  bad "the next run is not a new card ('$next'): the documents say it is"
exit $fail
