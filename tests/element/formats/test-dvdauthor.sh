#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# test-dvdauthor.sh - a capture by `ivtvsrc stream-type=dvd` of 10 s from
# the emulated PVR-250 is a DVD title: dvdauthor takes it (the commands of
# docs/capturing-tapes.md section 5) and the VOB it writes plays through
# gst-discoverer-1.0 at the standard's size and rate, 10 s +- 0.5 s long.
#   test-dvdauthor.sh IVTV_EMU PLUGIN_DIR NTSC|PAL
# The capture is unpaced (--fault fast): 10 s of the card's stream are ten
# loops of its 1 s clip, so the file's duration is known from its size.
set -u
emu=$1 plugins=$2 fmt=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail () { echo "FAIL: $*"; exit 1; }
skip () { echo "SKIP: $*"; exit 77; }
command -v dvdauthor >/dev/null || skip "dvdauthor missing (tools/deps.sh installs it)"

case $fmt in
  NTSC) std=ntsc h=480 rate=30000/1001 clip_s=1.001 clip=c0-ntsc.dvd.mpg ;;
  PAL) std=pal h=576 rate=25/1 clip_s=1.0 clip=c0-pal.dvd.mpg ;;
  *) fail "format must be NTSC or PAL" ;;
esac
payload=$(sed -n "s/^PAYLOAD_DIR='\(.*\)'$/\1/p" "$emu")
clip_len=$(stat -c %s "$payload/$clip") || fail "no clip $payload/$clip"
# ten clips' worth of whole 64 KiB buffers
bufs=$(( (10 * clip_len + 65535) / 65536 ))

cd "$tmp" || exit 1
GST_PLUGIN_PATH_1_0=$plugins "$emu" --profile pvr250 --fault fast -- \
  gst-launch-1.0 -q -e ivtvsrc stream-type=dvd standard=$std \
    num-buffers=$bufs blocksize=65536 ! filesink location=tape.mpg \
  > gst.log 2>&1 || { cat gst.log; fail "ivtvsrc capture failed"; }
size=$(stat -c %s tape.mpg)
expect=$(python3 -c "print('%.3f' % ($size / $clip_len * $clip_s))")
echo "captured $size bytes = $expect s of the card's stream"

# the commands of docs/capturing-tapes.md section 5
VIDEO_FORMAT=$fmt dvdauthor -o dvd -t tape.mpg > author.log 2>&1 ||
  { cat author.log; fail "dvdauthor -o dvd -t tape.mpg failed"; }
VIDEO_FORMAT=$fmt dvdauthor -o dvd -T > toc.log 2>&1 ||
  { cat toc.log; fail "dvdauthor -o dvd -T failed"; }
grep -q "Resolution: 720x$h" author.log || { cat author.log; fail "dvdauthor does not see 720x$h"; }
[ -s dvd/VIDEO_TS/VIDEO_TS.IFO ] && [ -s dvd/VIDEO_TS/VTS_01_1.VOB ] ||
  fail "no VIDEO_TS.IFO / VTS_01_1.VOB"

gst-discoverer-1.0 dvd/VIDEO_TS/VTS_01_1.VOB > disc.log 2>&1 ||
  { cat disc.log; fail "gst-discoverer cannot play the VOB"; }
grep -q "Width: 720" disc.log && grep -q "Height: $h" disc.log &&
  grep -q "Frame rate: $rate" disc.log && grep -q "Interlaced: true" disc.log ||
  { cat disc.log; fail "the VOB is not 720x$h interlaced at $rate"; }
dur=$(sed -n 's/^ *Duration: \([0-9]*\):\([0-9]*\):\([0-9.]*\)$/\1 \2 \3/p' disc.log | head -1)
python3 - "$dur" "$expect" <<'EOF' || { cat disc.log; exit 1; }
import sys
h, m, s = sys.argv[1].split()
got = int(h) * 3600 + int(m) * 60 + float(s)
want = float(sys.argv[2])
if abs(got - want) > 0.5 or abs(got - 10) > 0.5:
    sys.exit("FAIL: the VOB lasts %.3f s, the capture %.3f s (10 s +- 0.5)" % (got, want))
print("VOB: %.3f s (capture %.3f s)" % (got, want))
EOF
echo "dvdauthor: $fmt title authored; VOB 720x$h $rate interlaced"
