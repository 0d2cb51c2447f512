#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# test-streams.sh - each value of the stream type control gives the bytes
# of its stream (check-stream.py), over several loops of the clip, and a
# change of the control applies at the next encoder start.
#   test-streams.sh IVTV_EMU CASE
# CASE: ps | ts | mpeg1 | dvd | vcd | svcd (V4L2_CID_MPEG_STREAM_TYPE 0..5,
#       v4l2-ctl stream_type=N, then head -c), or change (PS, then TS, then
#       DVD in the same run: each capture is the new type's)
set -u
emu=$1 case=$2
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail () { echo "FAIL: $*"; exit 1; }
type_of () {
  case $1 in ps) echo 0 ;; ts) echo 1 ;; mpeg1) echo 2 ;; dvd) echo 3 ;;
    vcd) echo 4 ;; svcd) echo 5 ;; *) fail "unknown stream type $1" ;; esac
}
# about 3 s of each: the clip is looped three times
size () { case $1 in mpeg1|vcd|svcd) echo 700000 ;; *) echo 2400000 ;; esac; }

case $case in
  change)
    "$emu" --profile pvr250 --fault fast -- sh -c "
      head -c 2400000 /dev/video0 > $tmp/a &&
      v4l2-ctl -d /dev/video0 -c stream_type=1 && head -c 2400000 /dev/video0 > $tmp/b &&
      v4l2-ctl -d /dev/video0 -c stream_type=3 && head -c 2400000 /dev/video0 > $tmp/c" ||
      fail "captures failed"
    python3 "$here/check-stream.py" "$tmp/a" ps || fail "first capture is not PS"
    python3 "$here/check-stream.py" "$tmp/b" ts || fail "after stream_type=1 not TS"
    python3 "$here/check-stream.py" "$tmp/c" dvd || fail "after stream_type=3 not DVD"
    echo "PS, then TS, then DVD: each capture follows the control" ;;
  *)
    t=$(type_of "$case")
    "$emu" --profile pvr250 --fault fast -- sh -c "
      v4l2-ctl -d /dev/video0 -c stream_type=$t &&
      head -c $(size "$case") /dev/video0 > $tmp/cap" || fail "capture failed"
    python3 "$here/check-stream.py" "$tmp/cap" "$case" || exit 1
    # GStreamer's view: the right container and codec
    gst-discoverer-1.0 "$tmp/cap" > "$tmp/disc" 2>&1
    case $case in
      ts) want='MPEG-2 Transport Stream' codec='MPEG-2 Video' ;;
      mpeg1|vcd) want='MPEG-1 System Stream' codec='MPEG-1 Video' ;;
      *) want='MPEG-2 System Stream' codec='MPEG-2 Video' ;;
    esac
    grep -q "$want" "$tmp/disc" && grep -q "$codec" "$tmp/disc" ||
      { cat "$tmp/disc"; fail "gst-discoverer does not see $codec in an $want"; }
    echo "gst-discoverer: $codec in an $want" ;;
esac
