#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# test-no-interference.sh IVTV_EMU CASE: a second ivtvsrc started while a
# first one records from the emulated PVR-250 (issue 13, "Another
# program").  The first records Composite 1 (paced); once its file has
# 200 kB, a second gst-launch asks the same card for another setting
# (CASE); once the first has recorded 1.5 MB more, it gets SIGINT (-e: EOS):
#   input      input=svideo
#   standard   standard=pal
#   frequency  input=tuner frequency=211250000
#   control    extra-controls=controls,brightness=200
#   io-mode    input=svideo io-mode=mmap (the card has read() only: the
#              second fails for another reason too)
# Checks: the second fails with exactly one clear "busy" error; the first
# exits 0 without a warning, went on after the second (not cut short: 1.5
# MB more, not ended by itself), and its file is
# byte-identical to the device's reference stream over its whole length
# (`head -c` of Composite 1, unpaced); the card's input, standard,
# frequency and brightness are what the first left (nothing was set).
# Exit 0 pass, 1 fail, 77 skip.
set -u

EMU=$1
CASE=$2
for tool in gst-launch-1.0 v4l2-ctl head cmp timeout; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool not found"; exit 77; }
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/ivtv-interfere.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$TMP"' EXIT
FAILED=0
fail () { echo "FAIL [$CASE]: $*"; FAILED=1; }

case "$CASE" in
  input) SECOND="input=svideo" ;;
  standard) SECOND="input=composite standard=pal" ;;
  frequency) SECOND="input=tuner frequency=211250000" ;;
  control) SECOND="input=composite extra-controls=controls,brightness=200" ;;
  io-mode) SECOND="input=svideo io-mode=mmap" ;;
  *) echo "unknown case $CASE"; exit 1 ;;
esac

# the card as the first leaves it, read back after both are done
STATE='v4l2-ctl --get-input --get-standard --get-freq -C brightness 2>&1'
settings () { grep -E "Video input|Video Standard|Frequency for|brightness" "$1"; }

timeout 90 "$EMU" --profile pvr250 -- sh -c "
  size () { stat -c %s $TMP/first.mpg 2>/dev/null || echo 0; }
  gst-launch-1.0 -e ivtvsrc input=composite \
    ! filesink location=$TMP/first.mpg >$TMP/first.log 2>&1 &
  first=\$!
  # the first is recording (its file grows) before the second starts
  for i in \$(seq 200); do [ \$(size) -gt 200000 ] && break; sleep 0.1; done
  gst-launch-1.0 ivtvsrc $SECOND num-buffers=10 ! fakesink \
    >$TMP/second.log 2>&1
  echo \$? >$TMP/second.rc
  # then 1.5 MB more (2 s), unless the first ends by itself
  s2=\$(size); echo \$s2 >$TMP/s2
  for i in \$(seq 300); do
    [ \$(size) -ge \$((s2 + 1500000)) ] && break
    kill -0 \$first 2>/dev/null || break
    sleep 0.1
  done
  kill -INT \$first 2>/dev/null
  wait \$first; echo \$? >$TMP/first.rc
  $STATE >$TMP/after.txt" >"$TMP/emu.log" 2>&1
timeout 30 "$EMU" --profile pvr250 -- sh -c "v4l2-ctl -i 2 >/dev/null; $STATE" \
  >"$TMP/expected.txt" 2>&1

echo "--- second: ivtvsrc $SECOND (exit $(cat "$TMP/second.rc"))"
grep -E '^(ERROR|WARNING)' "$TMP/second.log"
echo "--- first (exit $(cat "$TMP/first.rc"))"
grep -E '^(ERROR|WARNING)' "$TMP/first.log"

# the second: one clear busy error, nothing else from ivtvsrc
[ "$(cat "$TMP/second.rc")" != 0 ] || fail "the second instance exited 0"
n=$(grep -c "^ERROR: from element .*ivtvsrc0: /dev/video0 ('WinTV PVR 250') is busy: another program is recording from it" "$TMP/second.log")
[ "$n" = 1 ] || fail "$n busy errors from the second instance, want 1"
n=$(grep -c "^ERROR" "$TMP/second.log")
[ "$n" -le 2 ] || fail "the second instance posted $n errors"   # + gst-launch's preroll line
grep -q "^WARNING" "$TMP/second.log" && fail "the second instance warned"

# the first: untouched, full length, the device's bytes
[ "$(cat "$TMP/first.rc")" = 0 ] || fail "the first instance exited $(cat "$TMP/first.rc")"
grep -Eq '^(ERROR|WARNING)' "$TMP/first.log" && fail "the first instance has an error or warning"
size=$(stat -c %s "$TMP/first.mpg" 2>/dev/null || echo 0)
s2=$(cat "$TMP/s2")
[ "$size" -ge $((s2 + 1500000)) ] || fail "the first recording has $size bytes, $s2 when the second ended: it did not go on (cut short)"
timeout 30 "$EMU" --profile pvr250 --fault fast -- sh -c \
  'v4l2-ctl -i 2 >/dev/null && head -c "$0" /dev/video0' "$size" >"$TMP/ref.mpg"
if cmp -s "$TMP/first.mpg" "$TMP/ref.mpg"; then
  echo "first recording: $size bytes, identical to the device's reference stream"
else
  fail "the first recording differs from the reference: $(cmp "$TMP/first.mpg" "$TMP/ref.mpg" 2>&1 | head -1)"
fi

# nothing was set on the card
if ! diff <(settings "$TMP/expected.txt") <(settings "$TMP/after.txt") >"$TMP/diff"; then
  fail "the card's settings changed:"
  cat "$TMP/diff" "$TMP/after.txt"
fi
[ -s "$TMP/expected.txt" ] || fail "v4l2-ctl read back nothing"

[ $FAILED = 0 ] && echo "ok [$CASE]"
exit $FAILED
