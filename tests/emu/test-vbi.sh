#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# test-vbi.sh - the emulated cards' VBI node /dev/vbi0 (vbi.c).
#   test-vbi.sh IVTV_EMU CHECK_VBI_PY CASE
# CASE: sliced-cc    pvr250 NTSC, --set-fmt-sliced-vbi=cc: one read() is one
#                    frame (CC on line 21 of both fields); 4 s of it decode
#                    to the caption text
#       sliced-wss   pvr250 PAL: WSS 4:3 on Composite 1, 16:9 on S-Video 2;
#                    CC asked on PAL gives no CC line (the set is emptied)
#       with-mpeg    the VBI node and the MPEG node read at the same time
#                    (as MythTV does on ivtv); S_STD is EBUSY meanwhile
#       default-empty without S_FMT no service is on: one empty record a frame
set -u
emu=$1 check=$2 case=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
text="Captions from the emulated card"

fail () { echo "FAIL: $*"; exit 1; }
# one read() of N bytes (not dd: under ASan, coreutils dd asks aligned_alloc
# for a size that is not a multiple of the alignment and libasan aborts it)
read_once='import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
sys.stdout.buffer.write(os.read(fd, int(sys.argv[2])))'
export read_once

case $case in
  sliced-cc)
    "$emu" --profile pvr250 -- sh -c '
      v4l2-ctl -d /dev/vbi0 -s ntsc --set-fmt-sliced-vbi=cc || exit 1
      python3 -c "$read_once" /dev/vbi0 2304 > "$1/one" || exit 1
      head -c $((128 * 120)) /dev/vbi0 > "$1/cc"' sh "$tmp" ||
      fail "capture failed"
    [ "$(stat -c %s "$tmp/one")" = 128 ] ||
      fail "one read() of 2304 bytes gave $(stat -c %s "$tmp/one"), not one frame (2 records)"
    got=$(python3 "$check" sliced "$tmp/cc") || fail "check-vbi.py failed"
    echo "decoded: $got"
    case $got in *"$text"*) ;; *) fail "caption text not found" ;; esac ;;
  sliced-wss)
    for i in 2 3; do
      "$emu" --profile pvr250 -- sh -c '
        v4l2-ctl -d /dev/vbi0 -s pal-bg -i "$2" --set-fmt-sliced-vbi=wss,cc || exit 1
        v4l2-ctl -d /dev/vbi0 --get-fmt-sliced-vbi > "$1/fmt"
        head -c $((64 * 10)) /dev/vbi0 > "$1/wss$2"' sh "$tmp" "$i" ||
        fail "capture failed"
      grep -q 'Service Set *: *wss$' "$tmp/fmt" || { cat "$tmp/fmt"; fail "PAL set is not wss alone"; }
      python3 "$check" sliced "$tmp/wss$i" > "$tmp/out$i"
    done
    grep -qx 'wss=0x0008' "$tmp/out2" || fail "Composite 1: $(cat "$tmp/out2"), not 4:3 (0x0008)"
    grep -qx 'wss=0x0007' "$tmp/out3" || fail "S-Video 2: $(cat "$tmp/out3"), not 16:9 (0x0007)"
    echo "WSS: Composite 1 4:3, S-Video 2 16:9" ;;
  with-mpeg)
    "$emu" --profile pvr250 -- sh -c '
      v4l2-ctl -d /dev/vbi0 --set-fmt-sliced-vbi=cc || exit 1
      head -c $((128 * 60)) /dev/vbi0 > "$1/cc" &
      head -c 1000000 /dev/video0 > "$1/mpg" &
      sleep 0.5
      if v4l2-ctl -d /dev/video0 -s pal-bg >"$1/err" 2>&1; then echo "S_STD ok while capturing"; exit 1; fi
      wait' sh "$tmp" || fail "capture failed (or S_STD accepted while capturing)"
    grep -q "Device or resource busy" "$tmp/err" || fail "S_STD: $(cat "$tmp/err")"
    [ "$(stat -c %s "$tmp/mpg")" = 1000000 ] || fail "MPEG capture short"
    got=$(python3 "$check" sliced "$tmp/cc")
    case $got in *"$text"*) ;; *) fail "caption text not found: $got" ;; esac
    echo "both nodes read at once; caption: $got" ;;
  default-empty)
    "$emu" --profile pvr250 -- sh -c 'head -c 640 /dev/vbi0 > "$1/e"' sh "$tmp" ||
      fail "capture failed"
    [ -z "$(od -A n -v -t x1 "$tmp/e" | tr -d ' 0\n')" ] || fail "records not empty"
    [ "$(stat -c %s "$tmp/e")" = 640 ] || fail "short" ;;
  *) fail "unknown case $case" ;;
esac
echo "PASS: $case"
