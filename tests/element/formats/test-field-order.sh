#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# test-field-order.sh - an interlaced SDTV capture encoded the way people
# digitise tapes keeps its field order: `ivtvsrc standard=S` on the emulated
# bttv-like card (V4L2_FIELD_INTERLACED, whose order is the standard's)
# through `videoconvert ! x264enc ! mp4mux` gives an MP4 whose video stream
# ffprobe reports top field first for PAL (field_order=tt) and bottom field
# first for NTSC (bb): x264enc takes the order from the caps.
#   test-field-order.sh IVTV_EMU PLUGIN_DIR PAL|NTSC
set -u
emu=$1 plugins=$2 fmt=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail () { echo "FAIL: $*"; exit 1; }
skip () { echo "SKIP: $*"; exit 77; }
command -v ffprobe >/dev/null || skip "ffprobe missing (tools/deps.sh installs ffmpeg)"
gst-inspect-1.0 x264enc >/dev/null 2>&1 ||
  skip "x264enc missing (tools/deps.sh installs gstreamer1.0-plugins-ugly)"

case $fmt in
  PAL) std=pal want=tt ;;
  NTSC) std=ntsc want=bb ;;
  *) fail "format must be PAL or NTSC" ;;
esac

cd "$tmp" || exit 1
GST_PLUGIN_PATH_1_0=$plugins "$emu" --profile tv-streaming --fault fast -- \
  gst-launch-1.0 -q -e ivtvsrc standard=$std num-buffers=10 ! videoconvert ! \
    x264enc speed-preset=ultrafast ! mp4mux ! filesink location=tape.mp4 \
  > gst.log 2>&1 || { cat gst.log; fail "capture and encode failed"; }
got=$(ffprobe -v error -select_streams v:0 -show_entries stream=field_order \
  -of default=noprint_wrappers=1:nokey=1 tape.mp4) || fail "ffprobe failed"
echo "$fmt: ffprobe field_order=$got (wanted $want)"
[ "$got" = "$want" ] || fail "$fmt capture encoded as field_order=$got, not $want"
echo "PASS"
