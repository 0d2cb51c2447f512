#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# test-card-state.sh - what a card's nodes share and what a dead process
# leaves behind (issue 28 items 13, 14):
#   prio-killed   a recorder killed with SIGKILL holds no priority any more
#                 (the kernel releases a handle's priority at its release,
#                 v4l2_fh_del -> v4l2_prio_close, v4l2-fh.c; a dying
#                 process releases all its files): G_PRIORITY is back to 2
#                 and the next capture is not "busy"
#   card-shares   the YUV node (/dev/video32) shares the MPEG node's input,
#                 standard and priority (ivtv-ioctl.c: one itv per card),
#                 and while it captures the MPEG node may not change the
#                 standard (ivtv_s_std: itv->capturing)
#   test-card-state.sh IVTV_EMU CASE
set -u
emu=$1 case=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail () { echo "FAIL: $*"; exit 1; }
command -v v4l2-ctl >/dev/null || { echo "SKIP: v4l2-ctl not found"; exit 77; }

case $case in
  prio-killed)
    timeout 60 "$emu" --card pvr250 -- sh -c '
      gst-launch-1.0 -q ivtvsrc input=composite ! fakesink & p=$!
      # until it holds the record priority (a condition, not a sleep)
      for i in $(seq 300); do
        v4l2-ctl -d /dev/video0 --get-priority 2>/dev/null | grep -q "Priority: 3" && break
        sleep 0.1
      done
      v4l2-ctl -d /dev/video0 --get-priority > "$0/held"
      kill -9 $p; wait $p 2>/dev/null
      v4l2-ctl -d /dev/video0 --get-priority > "$0/after"
      gst-launch-1.0 -q ivtvsrc input=composite num-buffers=5 ! fakesink > "$0/next" 2>&1
      echo "rc=$?" >> "$0/next"' "$tmp" || fail "ivtv-emu failed"
    cat "$tmp/held" "$tmp/after" "$tmp/next"
    grep -q 'Priority: 3' "$tmp/held" || fail "the recorder never held the record priority"
    grep -q 'Priority: 2' "$tmp/after" ||
      fail "after SIGKILL of the recorder: $(cat "$tmp/after"), want 2 (released)"
    grep -q 'rc=0' "$tmp/next" || fail "the next capture failed: $(cat "$tmp/next")"
    echo "a killed recorder's priority is released; the next capture runs" ;;
  card-shares)
    timeout 60 "$emu" --card pvr250 -- sh -c '
      v4l2-ctl -d /dev/video0 -i 2 >/dev/null
      v4l2-ctl -d /dev/video32 --get-input > "$0/input"
      v4l2-ctl -d /dev/video32 -s pal >/dev/null
      v4l2-ctl -d /dev/video0 --get-standard > "$0/std"
      gst-launch-1.0 -q ivtvsrc input=composite ! fakesink & p=$!
      for i in $(seq 300); do
        v4l2-ctl -d /dev/video0 --get-priority 2>/dev/null | grep -q "Priority: 3" && break
        sleep 0.1
      done
      v4l2-ctl -d /dev/video32 --get-priority > "$0/prio"
      v4l2-ctl -d /dev/video32 -i 1 > "$0/busy" 2>&1; echo "rc=$?" >> "$0/busy"
      kill -INT $p; wait $p
      # the YUV node captures: the MPEG node may not change the standard
      v4l2-ctl -d /dev/video0 -s ntsc >/dev/null
      cat /dev/video32 > "$0/yuv" & c=$!
      for i in $(seq 300); do [ -s "$0/yuv" ] && break; sleep 0.05; done
      v4l2-ctl -d /dev/video0 -s pal > "$0/std-busy" 2>&1
      kill $c; wait $c; true' "$tmp" || fail "ivtv-emu failed"
    cat "$tmp/input" "$tmp/std" "$tmp/prio" "$tmp/busy" "$tmp/std-busy"
    grep -q 'Video input : 2 ' "$tmp/input" ||
      fail "input 2 set on /dev/video0, /dev/video32 says: $(cat "$tmp/input")"
    # PAL = 0xff (PAL-B/B1/G/H/I/D/D1/K) within the card's 0x...f7 etc.
    grep -q 'Video Standard = 0x000000f7' "$tmp/std" ||
      fail "PAL set on /dev/video32, /dev/video0 says: $(head -1 "$tmp/std")"
    grep -q 'Priority: 3' "$tmp/prio" ||
      fail "a recorder on /dev/video0: /dev/video32 says $(cat "$tmp/prio")"
    grep -q 'Device or resource busy' "$tmp/busy" ||
      fail "S_INPUT on /dev/video32 while /dev/video0 records: $(cat "$tmp/busy")"
    grep -q 'Device or resource busy' "$tmp/std-busy" ||
      fail "S_STD on /dev/video0 while /dev/video32 captures: $(cat "$tmp/std-busy")"
    echo "the YUV node shares the card's input, standard and priority; a capture on either keeps the standard" ;;
  *) fail "unknown case $case" ;;
esac
