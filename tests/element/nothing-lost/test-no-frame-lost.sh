#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/element/nothing-lost/test-no-frame-lost.sh — a streaming card (tv-streaming, PAL
# 720x576 raw video, 25 frames a second, a handful of V4L2 buffers) whose
# consumer blocks 3 s: ivtvsrc dequeues on, copying frames out of the
# V4L2 buffers while they wait, so the driver never runs out of buffers and
# no frame is lost: the frame offsets (the driver's sequence numbers) at
# the sink are contiguous, no warning, frames-lost 0, and as many frames as
# 6 s make.  (tests/element/lib/stall-capture.py holds the sink.)
#
#   test-no-frame-lost.sh IVTV_EMU
# Exit 0 pass, 1 fail, 77 skip.
set -u
EMU=$1
/usr/bin/python3 -c 'import gi; gi.require_version("Gst", "1.0")' 2>/dev/null ||
  { echo "SKIP: python3-gi not found"; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ivtv-frames.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

fail () { echo "FAIL: $*"; cat "$TMP/report"; exit 1; }
field () { sed -n "s/^$1=//p" "$TMP/report" | head -1; }

timeout 60 "$EMU" --profile tv-streaming -- \
  /usr/bin/python3 "$(dirname "$0")/../lib/stall-capture.py" --stall-at 1 \
    --stall-for 3 --seconds 6 "ivtvsrc standard=pal ! \
    video/x-raw,width=720,height=576 ! fakesink name=sink" \
    >"$TMP/report" 2>"$TMP/stderr" || { tail -20 "$TMP/stderr"; fail "the capture failed"; }
cat "$TMP/report"
! grep -q '^warning=' "$TMP/report" || fail "a warning"
[ "$(field offsets)" = contiguous ] || fail "frames lost: offsets $(field offsets)"
[ "$(field final-frames-lost)" = 0 ] || fail "final frames-lost $(field final-frames-lost)"
[ "$(field final-bytes-lost)" = 0 ] || fail "final bytes-lost $(field final-bytes-lost)"
# 6 s at 25 frames a second (and the frames of the EOS)
[ "$(field buffers)" -ge 140 ] || fail "only $(field buffers) frames in 6 s"
echo "3 s stall at 720x576: $(field buffers) frames, none lost"
