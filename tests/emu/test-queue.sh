#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# test-queue.sh - the MPEG node's finite driver queue (mpeg-queue.c): a
# reader that stalls loses whole 32 KiB buffers and the emulator counts
# exactly what it dropped; a reader that keeps up loses nothing.
# With STREAM_CLOCK_SCAN (tests/emu/stream-clock-scan), the loss is also
# seen from the stream itself (gst/session/ivtvstreamclock.c): the stalled
# capture shows one loss where the cut is, of about the dropped size, and
# the unpaced reference (the emulator's clean stream) none.
#   test-queue.sh IVTV_EMU MPEG_CLIENT CASE [STREAM_CLOCK_SCAN]
# CASE: stall       512 KiB queue (--fault queue-kb=512), 2.5 s stall
#       stall-4mb   ivtv's default 4 MB queue, 8 s stall
#       keep-up     default queue, 60 s paced reader that keeps up
#       stop-drain  ENCODER_CMD STOP at GOP end behind a backlog: read to EOS
#       stop-close  the same, closed right after the stop
#       black-pacing  no signal: black comes in real time
#       clock-clean   the stream clock sees no loss in clean streams
# The captured file is compared with the reference stream (the same
# bytes unpaced, --fault fast): it must be the reference with one run of
# whole buffers cut out, of exactly the discarded counter's length.
set -u
emu=$1 client=$2 case=$3 scan=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail () { echo "FAIL: $*"; exit 1; }

# capture FAULTS OPTIONS SECONDS [STALL_AT STALL_FOR]: cap.mpg, stats
capture () {
  faults=$1 opts=$2
  shift 2
  # shellcheck disable=SC2086
  IVTV_EMU_DEBUG=1 IVTV_EMU_STATS=$tmp/stats "$emu" --profile pvr250 $faults $opts -- sh -c \
    '"$0" capture "$1/cap.mpg" "$2" "$3" "$4" || exit 1
     cat "$IVTV_EMU_RUNDIR/discarded-video0" > "$1/rundir-counter" 2>/dev/null
     exit 0' "$client" "$tmp" "$@" 2>"$tmp/debug" || { cat "$tmp/debug"; fail "capture failed"; }
  warned=$(grep -c 'All MPEG stream buffers are full. Dropping data.' "$tmp/debug")
  grep -q '^discarded-video0=[0-9][0-9]*$' "$tmp/stats" ||
    fail "IVTV_EMU_STATS file: '$(cat "$tmp/stats")'"
  discarded=$(sed -n 's/^discarded-video0=//p' "$tmp/stats")
  size=$(stat -c %s "$tmp/cap.mpg")
  "$emu" --profile pvr250 --fault fast -- \
    head -c $((size + discarded)) /dev/video0 > "$tmp/ref.mpg" ||
    fail "reference capture failed"
}

# check_cut: cap.mpg = ref[:a] + ref[a + discarded:], a whole-buffer cut
check_cut () {
  python3 - "$tmp/cap.mpg" "$tmp/ref.mpg" "$discarded" <<'EOF' || exit 1
import sys
cap = open(sys.argv[1], 'rb').read()
ref = open(sys.argv[2], 'rb').read()
lost = int(sys.argv[3])
BUF = 32768
if ref.startswith(cap):
    sys.exit("FAIL: the stalled capture is a prefix of the reference: nothing lost")
first = next(i for i in range(len(cap)) if cap[i] != ref[i])
# whole buffers were cut: at the buffer boundary at or before the first
# differing byte (the bytes after a cut may match by chance for a while:
# both sides start with a pack header)
a = first - first % BUF
if lost % BUF:
    sys.exit("FAIL: %d bytes dropped: not whole 32 KiB buffers" % lost)
# the bytes after the cut are the reference's from a + lost on
if cap[a:] != ref[a + lost:a + lost + len(cap) - a]:
    sys.exit("FAIL: after offset %d the capture is not the reference %d "
             "bytes (the discarded counter) later" % (a, lost))
print("cut at %d: %d bytes (%d buffers) missing, as counted"
      % (a, lost, lost // BUF))
open(sys.argv[1] + ".cut", "w").write("%d\n" % a)
EOF
  [ -n "$scan" ] || return 0
  "$scan" "$tmp/ref.mpg" > "$tmp/ref.scan" || fail "stream-clock-scan failed"
  "$scan" "$tmp/cap.mpg" > "$tmp/cap.scan" || fail "stream-clock-scan failed"
  cat "$tmp/cap.scan"
  grep -q '^losses 0 ' "$tmp/ref.scan" ||
    fail "the stream clock sees losses in the clean reference: $(cat "$tmp/ref.scan")"
  python3 - "$tmp/cap.scan" "$(cat "$tmp/cap.mpg.cut")" "$discarded" <<'EOF' || exit 1
import re, sys
text = open(sys.argv[1]).read()
cut, lost = int(sys.argv[2]), int(sys.argv[3])
found = [tuple(map(int, m)) for m in re.findall(r"loss at byte (\d+) .*?: (\d+) bytes", text)]
if len(found) != 1:
    sys.exit("FAIL: the stream clock sees %d losses, want the one cut" % len(found))
at, n = found[0]
if not cut <= at <= cut + 2048:
    sys.exit("FAIL: loss seen at byte %d, the cut is at %d" % (at, cut))
if not lost / 2 <= n <= lost * 3 / 2:
    sys.exit("FAIL: loss of %d bytes seen, %d dropped" % (n, lost))
print("the stream clock saw it: %d bytes at byte %d (%d dropped, at %d)" % (n, at, lost, cut))
EOF
}

case $case in
  stall)
    capture "--fault queue-kb=512" "" 5 1 2.5
    [ "$discarded" -gt 0 ] || fail "a 2.5 s stall with a 512 KiB queue dropped nothing"
    [ "$(cat "$tmp/rundir-counter")" = "$discarded" ] ||
      fail "run directory says $(cat "$tmp/rundir-counter"), stats $discarded"
    # 2.5 s at 750 kB/s = 1.9 MB made during the stall, 0.5 MB kept
    [ "$discarded" -ge 1000000 ] && [ "$discarded" -le 2200000 ] ||
      fail "dropped $discarded bytes, expected about 1.3 MB"
    [ "$warned" = 1 ] || fail "IVTV_EMU_DEBUG: $warned 'buffers are full' warnings, expected one"
    check_cut
    echo "stalled 2.5 s: captured $size bytes, $discarded dropped" ;;
  stall-4mb)
    capture "" "" 10 1 8
    [ "$discarded" -gt 0 ] || fail "an 8 s stall with the default 4 MB queue dropped nothing"
    # 8 s at 750 kB/s = 6 MB made during the stall, 4 MB (128 buffers) kept
    [ "$discarded" -ge 1300000 ] && [ "$discarded" -le 2800000 ] ||
      fail "dropped $discarded bytes, expected about 1.8 MB (4 MB kept)"
    check_cut
    echo "stalled 8 s: captured $size bytes, $discarded dropped" ;;
  keep-up)
    capture "" "" 60
    [ "$discarded" = 0 ] || fail "a reader that keeps up lost $discarded bytes"
    [ "$warned" = 0 ] || fail "a reader that keeps up was warned of full buffers"
    [ "$size" -ge 40000000 ] || fail "60 s gave only $size bytes"
    cmp -s "$tmp/cap.mpg" "$tmp/ref.mpg" || fail "60 s capture differs from the reference"
    if [ -n "$scan" ]; then
      "$scan" "$tmp/cap.mpg" > "$tmp/cap.scan" || fail "stream-clock-scan failed"
      grep -q '^losses 0 ' "$tmp/cap.scan" ||
        fail "the stream clock sees losses in 60 s kept up: $(cat "$tmp/cap.scan")"
      echo "the stream clock sees no loss in it"
    fi
    echo "60 s paced: $size bytes, identical to the reference, 0 dropped" ;;
  stop-drain|stop-close)
    # ENCODER_CMD STOP at GOP end with a backlog of ~1.1 MB (a 1.5 s
    # stall at 750 kB/s): ivtv still hands out what its queue holds
    # (ivtv_get_buffer() takes q_full before it reports the end,
    # ivtv-fileops.c); what a reader then leaves unread when it closes is
    # lost, and counted (the same counter as the queue's drops)
    mode=read; [ "$case" = stop-close ] && mode=close
    IVTV_EMU_STATS=$tmp/stats "$emu" --profile pvr250 -- sh -c \
      'v4l2-ctl -d /dev/video0 -i 2 >/dev/null && "$0" stop-backlog "$1" 1.5 "$2"' \
      "$client" "$tmp/cap.mpg" "$mode" > "$tmp/out" 2>&1 || { cat "$tmp/out"; fail "client failed"; }
    cat "$tmp/out"
    discarded=$(sed -n 's/^discarded-video0=//p' "$tmp/stats")
    after=$(sed -n 's/.*after it \([0-9]*\)$/\1/p' "$tmp/out")
    echo "discarded $discarded"
    if [ "$mode" = read ]; then
      [ "${after:-0}" -ge 1000000 ] ||
        fail "after the stop only ${after:-0} bytes: the ~1.1 MB backlog was dropped"
      [ "$discarded" = 0 ] || fail "$discarded bytes discarded with a 4 MB queue"
      size=$(stat -c %s "$tmp/cap.mpg")
      "$emu" --profile pvr250 --fault fast -- sh -c \
        'v4l2-ctl -d /dev/video0 -i 2 >/dev/null && head -c "$0" /dev/video0' "$size" > "$tmp/ref.mpg"
      cmp -s "$tmp/cap.mpg" "$tmp/ref.mpg" || fail "the capture is not the stream's first $size bytes"
      echo "the backlog is read after the stop: $after bytes, all in order"
    else
      [ "${discarded:-0}" -ge 1000000 ] ||
        fail "closed with a ~1.1 MB backlog after the stop: ${discarded:-0} counted"
      echo "the backlog left at close is counted: $discarded bytes"
    fi ;;
  clock-clean)
    # the stream clock sees no loss in any clean looped stream of the card
    # (PS, TS with its continuity counters running on over the loops,
    # MPEG-1, DVD with its sparse video PTS, VCD, SVCD), NTSC and PAL,
    # across an input switch and into black
    [ -n "$scan" ] || fail "clock-clean needs STREAM_CLOCK_SCAN"
    for std in ntsc pal; do
      for type in 0 1 2 3 4 5; do
        "$emu" --profile pvr250 --fault fast -- sh -c \
          'v4l2-ctl -d /dev/video0 -i 2 -s "$0" -c stream_type="$1" >/dev/null &&
           head -c 4000000 /dev/video0' "$std" "$type" > "$tmp/t.mpg" || fail "capture failed"
        "$scan" "$tmp/t.mpg" > "$tmp/t.scan"
        grep -q '^losses 0 ' "$tmp/t.scan" ||
          fail "stream type $type ($std): $(cat "$tmp/t.scan")"
      done
    done
    for type in 0 1; do
      "$emu" --profile pvr250 --fault no-signal=2 -- sh -c \
        'v4l2-ctl -d /dev/video0 -i 2 -c stream_type="$1" >/dev/null
         head -c 1600000 /dev/video0 > "$0" & p=$!
         while [ $(stat -c %s "$0") -lt 400000 ]; do sleep 0.05; done
         v4l2-ctl -d /dev/video0 -i 4 >/dev/null; wait $p' "$tmp/sw.mpg" "$type" ||
        fail "capture failed"
      "$scan" "$tmp/sw.mpg" > "$tmp/t.scan"
      grep -q '^losses 0 ' "$tmp/t.scan" || fail "type $type, switch and black: $(cat "$tmp/t.scan")"
    done
    echo "no loss seen in 12 clean streams of 4 MB, nor across a switch into black (PS, TS)" ;;
  black-pacing)
    # no signal: 3 s of reading give about 3 s of black (its SCR), not the
    # bitrate's worth (750 kB/s of 55 kB clips was 13 s of media a second)
    "$emu" --profile pvr250 --fault no-signal=0 -- \
      "$client" capture "$tmp/cap.mpg" 3 > "$tmp/out" 2>&1 || { cat "$tmp/out"; fail "capture failed"; }
    cat "$tmp/out"
    python3 - "$tmp/cap.mpg" "$(sed -n 's/.* in \([0-9.]*\) s$/\1/p' "$tmp/out")" <<'EOF' || exit 1
import sys
b = open(sys.argv[1], 'rb').read()
wall = float(sys.argv[2])
scr, i = [], 0
while True:
    i = b.find(b'\x00\x00\x01\xba', i)
    if i < 0 or i + 14 > len(b):
        break
    p = b[i + 4:i + 14]
    scr.append(((p[0] >> 3) & 7) << 30 | (p[0] & 3) << 28 | p[1] << 20 | (p[2] >> 3) << 15
               | (p[2] & 3) << 13 | p[3] << 5 | p[4] >> 3)
    i += 4
media = (scr[-1] - scr[0]) / 90000.0 if len(scr) > 1 else 0
print("%d bytes of black: %.2f s of media in %.2f s of reading" % (len(b), media, wall))
if media > wall * 1.5 + 1:
    sys.exit("FAIL: black runs %.1f times faster than real time" % (media / wall))
EOF
    ;;
  *) fail "unknown case $case" ;;
esac
