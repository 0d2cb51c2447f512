#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# test-frame-rate.sh - the emulator's raw video device off its standard's
# rate (frame-rate-pct, stream-rate.c) dropping bursts (skip-every with
# skip-run) without a sequence gap, as seen by v4l2-ctl: every frame's
# CLOCK_MONOTONIC stamp a whole number of the device's periods after the
# one before, the periods skipped exactly the frames dropped (and the
# count in IVTV_EMU_STATS), the sequence without a gap, and G_PARM still
# the standard's 30000/1001.
#   test-frame-rate.sh IVTV_EMU PROFILE PCT
set -u
emu=$1 prof=$2 pct=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail () { echo "FAIL: $*"; exit 1; }
command -v v4l2-ctl >/dev/null || { echo "SKIP: v4l2-ctl missing"; exit 77; }

# 30 frames, the last 3 of every 10 periods dropped: periods 0..42, 12
# dropped (7-9, 17-19, 27-29, 37-39)
# shellcheck disable=SC2016
IVTV_EMU_STATS=$tmp/stats timeout 60 "$emu" --profile "$prof" \
  --fault frame-rate-pct="$pct" --fault skip-every=10 --fault skip-run=3 \
  --fault skip-keeps-seq -- sh -c 'v4l2-ctl -d /dev/video0 -s ntsc &&
    v4l2-ctl -d /dev/video0 --get-parm &&
    v4l2-ctl -d /dev/video0 --stream-mmap --stream-count=30 --verbose' \
  > "$tmp/log" 2>&1 || { tail -20 "$tmp/log"; fail "v4l2-ctl: exit $?"; }
grep -q 'Frames per second: 29.970 (30000/1001)' "$tmp/log" ||
  { grep -i 'frames per second' "$tmp/log"; fail "G_PARM is not NTSC's"; }
dropped=$(sed -n 's/^dropped-video0=//p' "$tmp/stats")
# seq and ts (s.us) of each frame: the periods between them, in the
# device's period 33366666 * 100 / (100 + PCT) ns, within 20 us
sed -n 's/^cap dqbuf: [0-9]* seq: *\([0-9]*\) .* ts: \([0-9.]*\) .*/\1 \2/p' \
  "$tmp/log" | awk -v pct="$pct" -v dropped="${dropped:-0}" '
  BEGIN { p = 33366666 * 100 / (100 + pct) / 1e9 }
  NR > 1 {
    if ($1 != seq + 1) { printf "FAIL: sequence %d after %d\n", $1, seq; bad = 1 }
    k = ($2 - ts) / p
    if (k < 0.5 || (k - int(k + 0.5)) ^ 2 > (20e-6 / p) ^ 2) {
      printf "FAIL: %.6f s after the frame before, not a whole number of %.6f s\n",
        $2 - ts, p; bad = 1 }
    skipped += int(k + 0.5) - 1 }
  { seq = $1; ts = $2; n++ }
  END {
    printf "%d frames, a period of %.6f s, %d periods skipped, %d dropped\n",
      n, p, skipped, dropped
    if (n != 30) { print "FAIL: " n " frames, 30 wanted"; bad = 1 }
    # (more if a frame found no buffer queued on a loaded machine)
    if (skipped != dropped || dropped < 12) {
      print "FAIL: 12 dropped, each a period skipped, wanted"; bad = 1 }
    exit bad }' || fail "see above"
