#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# test-frame-gap-offrate.sh - a device off its standard's rate (usbtv at
# 27.9 frames/s of NTSC, stk1160 at 30.6, both seen under qemu TCG) that
# drops frames without a sequence gap: ivtvsrc's frames-lost is exactly the
# frames the device dropped, and 0 when it drops none.  ivtvsrc counts them
# from the frames' times against the device's own period, estimated from
# the frames (gst/paths/ivtvframegap.c); against the nominal period a
# device 7 % slow would look as if it lost a frame every 14.
#   test-frame-gap-offrate.sh IVTV_EMU PROFILE PCT
# PROFILE: usbtv or stk1160 (both number only the frames they deliver),
# or pvr250-yuv (ivtv's YUV node, read(): no sequence at all, frames told
# only by when they are read, so a count within a tenth and one, as in
# test-frame-gap.sh yuv-read, and their times within 1 %);
# PCT: the device's rate off the nominal one, percent (the emulator's
# frame-rate-pct fault: frames paced and stamped that much off).
# Three captures of NTSC frames: the driver dropping every 10th frame
# without a sequence gap (skip-every=10, skip-keeps-seq: 10 dropped in 95
# frames, the last 5 frames before the end, as a hole is counted at the
# frame after the one that follows it), bursts of 30 (skip-run=30 of
# every 50: 60 dropped in 60 frames; a hole that long is where a rate
# 2 % off the nominal one counts a frame wrong), and none.  The truth is
# the emulator's count of the frames it dropped before the last one it
# handed out (dropped-video0 in IVTV_EMU_STATS), which also counts a frame
# dropped for want of a queued buffer on a loaded machine; the captured
# frames' times must span (frames - 1 + dropped) periods of the off-rate
# device, so the fault did set the rate the element had to find.
set -u
emu=$1 prof=$2 pct=$3
node=/dev/video0 emu_args="--profile $prof" src=ivtvsrc tol=500
if [ "$prof" = pvr250-yuv ]; then
  node=/dev/video32 emu_args="--card pvr250" src="ivtvsrc device=$node" tol=100
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail () { echo "FAIL: $*"; exit 1; }

# run NAME FRAMES [FAULT...]: frames-lost, warnings, DISCONTs, dropped, span
run () {
  name=$1 frames=$2; shift 2
  faults=
  for f in "frame-rate-pct=$pct" "$@"; do faults="$faults --fault $f@$node"; done
  # shellcheck disable=SC2086
  IVTV_EMU_STATS=$tmp/stats-$name timeout 120 "$emu" $emu_args \
    $faults -- gst-launch-1.0 -m -v $src num-buffers=$frames \
    standard=ntsc ! identity silent=false ! fakesink > "$tmp/$name.log" 2>&1 ||
    { tail -20 "$tmp/$name.log"; fail "$name: exit $?"; }
  log=$tmp/$name.log
  lost=$(grep 'final=(boolean)true' "$log" |
    sed -n 's/.*frames-lost=(guint64)\([0-9]*\).*/\1/p')
  [ -n "$lost" ] || { tail -20 "$log"; fail "$name: no final ivtvsrc-stats"; }
  warned=$(grep -c 'WARNING: .*Lost [0-9]* frame' "$log")
  # identity's buffers (gst-launch -v's lines; -m shows each again,
  # escaped, in a property-notify message)
  grep '^/GstPipeline.*last-message = ' "$log" > "$tmp/$name.bufs"
  # DISCONT after the first buffer
  disconts=$(grep -v 'offset: 0,' "$tmp/$name.bufs" | grep -c 'discont')
  dropped=$(sed -n "s/^dropped-${node#/dev/}=//p" "$tmp/stats-$name")
  dropped=${dropped:-0}
  # the first and the last frame's PTS (the capture times in running
  # time), in ns
  span=$(sed -n 's/.*pts: \([0-9]*\):\([0-9]*\):\([0-9]*\)\.\([0-9]*\),.*/\1 \2 \3 \4/p' \
    "$tmp/$name.bufs" |
    awk 'NR == 1 { first = (($1 * 60 + $2) * 60 + $3) * 1e9 + $4 }
         { last = (($1 * 60 + $2) * 60 + $3) * 1e9 + $4; n++ }
         END { printf "%d %.0f\n", n, last - first }')
}

# check NAME: the count is the truth, the frames' times the device's rate
check () {
  n=${span% *} ns=${span#* }
  # NTSC: 1001/30 ms nominal (the emulator's 33366666 ns), the device's
  # period that times 100 / (100 + PCT); the measured one within 0.2 %
  # (read(): 1 %)
  # shellcheck disable=SC2046
  set -- "$1" $(awk -v ns="$ns" -v k=$((n - 1 + dropped)) -v pct="$pct" \
    'BEGIN { printf "%.0f %.0f", ns / k, 33366666 * 100 / (100 + pct) }')
  echo "$prof at $pct %, $1: $n frames, $dropped dropped by the device," \
    "frames-lost=$lost, $warned warnings, $disconts DISCONT;" \
    "a period of $2 ns (the device's $3 ns)"
  [ "$n" = "$frames" ] || fail "$1: $n frames seen by identity, $frames wanted"
  [ "$2" -gt $(($3 - $3 / tol)) ] && [ "$2" -lt $(($3 + $3 / tol)) ] ||
    fail "$1: the frames came at a period of $2 ns, not the device's $3 ns"
  if [ "$node" = /dev/video0 ]; then
    [ "$lost" = "$dropped" ] ||
      fail "$1: frames-lost=$lost, the device dropped $dropped"
  else
    # from when frames are read, a count is an estimate: a reader late by
    # most of a period two frames running looks like one more missing
    slack=$((1 + dropped / 10))
    [ "$lost" -ge $((dropped - slack)) ] && [ "$lost" -le $((dropped + slack)) ] ||
      fail "$1: frames-lost=$lost, the device dropped $dropped (+-$slack)"
  fi
}

for c in "every 10th:95:skip-every=10" "30 of every 50:60:skip-every=50 skip-run=30"; do
  # shellcheck disable=SC2046
  run drops "$(echo "$c" | cut -d: -f2)" $(echo "$c" | cut -d: -f3) skip-keeps-seq
  check "${c%%:*} dropped"
  [ "$dropped" -ge 10 ] || fail "only $dropped dropped: the fault did not drop"
  [ "$warned" -ge 1 ] || fail "no warning of the loss"
  [ "$disconts" -ge 1 ] || fail "no DISCONT after a loss"
done

run clean 95
check "no fault"
# (read(): a count within the slack, above)
[ "$dropped" != 0 ] || [ "$node" != /dev/video0 ] ||
  { [ "$warned" = 0 ] && [ "$disconts" = 0 ]; } ||
  fail "a warning or a DISCONT with nothing lost"
