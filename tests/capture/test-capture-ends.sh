#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/capture/test-capture-ends.sh — how ivtv-capture ends when the end
# comes from outside, the start is refused or the stream changes under it
# (suite "capture", issue 28 items 7, 10-12), under ivtv-emu:
#   sighup, sigterm   the signal ends the recording cleanly (exit 0), the
#                     file is the card's bytes, the record says complete and
#                     names the signal (SIGTERM was recorded as "Ctrl-C")
#   bad-standard      -s bogus: exit 2 (was 4: the text contains "auto")
#   bad-input         -i nosuch: exit 2 as the manual says (was 1)
#   busy              another program records: exit 3, and no "recording
#                     ... to FILE" line before the error
#   webcam-default    no input or standard on a card whose input has none (--no-audio)
#                     (tv-webcam): records (was "Cannot set standard 'auto'")
#   device-lost-once  a runtime error: one reason, and no second generic
#                     "Internal data stream error" anywhere in the output
#   std-change        the standard changes mid-capture (item 7, the
#                     command's part): a warning, an event in the record,
#                     and --dvd refuses the mixed stream (exit 6)
#
#   test-capture-ends.sh IVTV_EMU IVTV_CAPTURE PYTHON CASE
# Exit 0 pass, 1 fail, 77 skip.
set -u

EMU=$1
CAP=$2
PY=$3
CASE=$4
HERE=$(cd "$(dirname "$0")" && pwd)
CHECK="$HERE/check-stream.py"

for tool in gst-launch-1.0 v4l2-ctl head timeout "$PY"; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool not found"; exit 77; }
done
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ivtv-capture-ends.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
OUT=$TMP/tape.mpg
LOG=$TMP/log.txt
FAILED=0
fail () { echo "FAIL [$CASE]: $*"; FAILED=1; }
ok () { echo "ok: $*"; }
size () { stat -c %s "$1" 2>/dev/null || echo 0; }
expect_rc () { [ "$RC" = "$1" ] && ok "exit status $RC" || fail "exit status $RC, want $1"; }
one_reason () {
  local n
  n=$(grep -c '^ivtv-capture: error: ' "$LOG")
  [ "$n" = 1 ] && ok "one reason: $(grep '^ivtv-capture: error: ' "$LOG")" ||
    fail "$n 'ivtv-capture: error:' lines, want one"
  grep -Eq -- "^ivtv-capture: error: .*$1" "$LOG" || fail "the reason does not match /$1/"
}
run () {
  local emu_args=()
  while [ "$1" != "--" ]; do emu_args+=("$1"); shift; done
  shift
  timeout 60 "$EMU" "${emu_args[@]}" -- "$CAP" "$@" >"$LOG" 2>&1
  RC=$?
  echo "--- ivtv-capture $* (exit $RC):"
  cat "$LOG"
}

# signal_end SIGNAL: ivtv-capture records Composite 1; once 1.5 MB are in
# the file (a condition, not a sleep) it gets SIGNAL
signal_end () {
  timeout 60 "$EMU" --profile pvr250 -- bash -c '
    "$0" --input composite "$1" & p=$!
    for _ in $(seq 300); do
      [ "$(stat -c %s "$1" 2>/dev/null || echo 0)" -ge 1500000 ] && break
      sleep 0.1
    done
    kill -"$2" $p; wait $p' "$CAP" "$OUT" "$1" >"$LOG" 2>&1
  RC=$?
  cat "$LOG"
}

expect_clean_end () {
  local sig=$1
  expect_rc 0
  [ "$(size "$OUT")" -ge 1500000 ] && ok "$(size "$OUT") bytes recorded" || fail "only $(size "$OUT") bytes"
  timeout 60 "$EMU" --profile pvr250 --fault fast -- sh -c \
      'v4l2-ctl -d /dev/video0 -i 2 >/dev/null && head -c "$0" /dev/video0' "$(size "$OUT")" >"$TMP/ref.mpg"
  "$PY" "$CHECK" prefix "$OUT" "$TMP/ref.mpg" || FAILED=1
  "$PY" -c "import json,sys; r=json.load(open('$OUT.json')); \
sys.exit(0 if r['status']=='complete' and r['end_reason'].startswith('$sig') \
and r['bytes']>0 and r['picture_changes']==[] else 1)" && \
    ok "record: complete, end_reason '$sig...', bytes, no picture change" ||
    fail "record: $(head -c 400 "$OUT.json")"
  grep -q "^ivtv-capture: $sig.*: finishing the file" "$LOG" && ok "says '$sig: finishing the file'" ||
    fail "no '$sig...: finishing the file' line"
}

case "$CASE" in
  sighup)
    signal_end HUP
    expect_clean_end SIGHUP
    ;;
  sigterm)
    signal_end TERM
    expect_clean_end SIGTERM
    ;;
  bad-standard)
    run --profile pvr250 -- -s bogus -t 2 "$OUT"
    expect_rc 2
    one_reason "Unknown standard 'bogus'"
    [ ! -e "$OUT" ] && [ ! -e "$OUT.json" ] && ok "no file left" || fail "files left behind"
    ;;
  bad-input)
    run --profile pvr250 -- -i nosuch -t 2 "$OUT"
    expect_rc 2
    one_reason "Unknown input 'nosuch'"
    grep -q 'recording .* to ' "$LOG" && fail "said 'recording ... to FILE' before failing"
    [ ! -e "$OUT" ] && [ ! -e "$OUT.json" ] && ok "no file left" || fail "files left behind"
    ;;
  busy)
    # gst-launch holds the card (its record priority) until it is told to end
    timeout 60 "$EMU" --profile pvr250 -- bash -c '
      gst-launch-1.0 -e ivtvsrc input=composite ! filesink location="$2.other" >"$2.gst" 2>&1 & g=$!
      for _ in $(seq 300); do
        [ "$(stat -c %s "$2.other" 2>/dev/null || echo 0)" -gt 0 ] && break
        sleep 0.1
      done
      "$0" --input composite -t 2 "$1"; rc=$?
      kill -INT $g; wait $g; exit $rc' "$CAP" "$OUT" "$TMP/x" >"$LOG" 2>&1
    RC=$?
    cat "$LOG"
    expect_rc 3
    one_reason 'is busy'
    grep -q 'recording .* to ' "$LOG" && fail "said 'recording ... to FILE' before failing" ||
      ok "no 'recording ... to FILE' line"
    [ ! -e "$OUT" ] && [ ! -e "$OUT.json" ] && ok "no file left" || fail "files left behind"
    ;;
  webcam-default)
    # no input or standard given (the card has no TV standard); --no-audio
    # because a raw card records its sound unless told not to (issue 25),
    # and the emulated tv-webcam has no ALSA device
    run --profile tv-webcam -- --no-audio -t 2 "$OUT"
    expect_rc 0
    [ "$(size "$OUT")" -gt 0 ] && ok "$(size "$OUT") bytes recorded" || fail "nothing recorded"
    ;;
  device-lost-once)
    run --profile pvr250 --fault unplug-after=1000000 -- --input composite "$OUT"
    expect_rc 1
    one_reason 'went away'
    grep -q 'Internal data stream error' "$LOG" "$OUT.json" &&
      fail "a second, generic 'Internal data stream error'" || ok "no generic second error"
    ;;
  std-change)
    # the card switches NTSC -> PAL after 2 MB: a warning, an event in the
    # record, and --dvd makes no DVD of the mixed stream (exit 6)
    run --profile pvr250 --fault std-change-after=2000000 -- -i composite -t 5 "$OUT"
    expect_rc 0
    grep -q 'Warning at .*the picture changed from 720x480 .* to 720x576 .*TV standard changed' "$LOG" &&
      ok "warned of the standard change" || fail "no warning of the standard change"
    "$PY" -c "import json,sys; r=json.load(open('$OUT.json')); p=r['picture_changes']; \
sys.exit(0 if len(p)==1 and p[0]['from']=='720x480' and p[0]['to']=='720x576' \
and any('standard changed' in w for w in r['warnings']) else 1)" &&
      ok "the record has the change and the warning" || fail "record: $(head -c 600 "$OUT.json")"
    rm -f "$OUT" "$OUT.json"
    run --profile pvr250 --fault std-change-after=2000000 -- -i composite -t 5 --dvd "$OUT"
    expect_rc 6
    one_reason 'the picture changes at .* a DVD holds one TV standard, so no DVD folder was made'
    [ ! -e "$TMP/tape.dvd" ] && ok "no DVD folder" || fail "a DVD folder of a mixed stream"
    ;;
  *)
    echo "unknown case $CASE"
    exit 2
    ;;
esac

if [ $FAILED = 0 ]; then
  echo "PASS [$CASE]"
  exit 0
fi
exit 1
