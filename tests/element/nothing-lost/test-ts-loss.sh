#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# test-ts-loss.sh - what the driver drops from a transport stream is seen
# in the stream itself (issue 28 item 3; gst/session/ivtvstreamclock.c:
# continuity counters and PCR), on the element's TS path too.
#   test-ts-loss.sh IVTV_EMU MPEG_CLIENT STREAM_CLOCK_SCAN PAYLOAD_DIR CASE
# CASE: spliced  the card's TS clips spliced by hand (40 packets cut out of
#                each, fed through the emulator with IVTV_EMU_PAYLOAD_DIR):
#                ivtvsrc stream-type=ts warns, flags DISCONT and counts
#                bytes-lost, as many losses as the file holds splices
#       clean    the same without the cut: nothing lost, no warning
#       stall    the emulator's driver queue (512 KiB) overflowing on a TS
#                while a reader stalls 2.5 s: one loss where the cut is, of
#                the size the emulator dropped (within a fifth)
set -u
emu=$1 client=$2 scan=$3 payload=$4 case=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail () { echo "FAIL: $*"; exit 1; }

# element PAYLOAD_DIR: ivtvsrc stream-type=ts, 24 buffers of 512 KiB
element () {
  IVTV_EMU_PAYLOAD_DIR=$1 timeout 120 "$emu" --profile pvr250 --fault fast -- \
    gst-launch-1.0 -m -v ivtvsrc input=composite stream-type=ts num-buffers=24 ! \
    identity silent=false ! filesink location="$tmp/t.ts" > "$tmp/log" 2>&1 ||
    { tail -20 "$tmp/log"; fail "capture failed"; }
  lost=$(grep 'final=(boolean)true' "$tmp/log" | sed -n 's/.*bytes-lost=(guint64)\([0-9]*\).*/\1/p')
  warned=$(grep -c "WARNING: .*the driver dropped them" "$tmp/log")
  disconts=$(grep 'last-message' "$tmp/log" | grep -c 'discont')
  "$scan" "$tmp/t.ts" > "$tmp/scan" || fail "stream-clock-scan failed"
  found=$(sed -n 's/^losses \([0-9]*\) .*/\1/p' "$tmp/scan")
}

case $case in
  spliced|clean)
    mkdir "$tmp/pl"
    cp "$payload"/*.ts "$payload"/*.mpg "$tmp/pl/"
    if [ "$case" = spliced ]; then
      for f in "$tmp"/pl/c*.ts; do
        len=$(stat -c %s "$f")
        at=$((len / 188 * 2 / 5 * 188))
        head -c "$at" "$f" > "$f.cut"
        tail -c +$((at + 40 * 188 + 1)) "$f" >> "$f.cut"
        mv "$f.cut" "$f"
      done
    fi
    element "$tmp/pl"
    echo "$case: bytes-lost=$lost, $warned warnings, $disconts DISCONT, the file shows $found losses"
    if [ "$case" = clean ]; then
      [ "$lost" = 0 ] && [ "$warned" = 0 ] && [ "$found" = 0 ] ||
        fail "a clean transport stream lost something"
    else
      [ "$found" -ge 2 ] || fail "the spliced clips show $found losses in the file"
      [ "$lost" -gt 0 ] || fail "bytes-lost=0 in ivtvsrc-stats"
      [ "$warned" -ge 1 ] || fail "no warning"
      # the first buffer's DISCONT shows twice in a clean run
      [ "$disconts" -ge 3 ] || fail "no DISCONT after a splice"
    fi ;;
  stall)
    IVTV_EMU_STATS=$tmp/stats timeout 120 "$emu" --profile pvr250 --fault queue-kb=512 -- sh -c \
      'v4l2-ctl -d /dev/video0 -i 2 -c stream_type=1 >/dev/null && "$0" capture "$1" 5 1 2.5' \
      "$client" "$tmp/q.ts" > "$tmp/out" 2>&1 || { cat "$tmp/out"; fail "capture failed"; }
    discarded=$(sed -n 's/^discarded-video0=//p' "$tmp/stats")
    [ "${discarded:-0}" -gt 0 ] || fail "the stall dropped nothing"
    "$scan" "$tmp/q.ts" > "$tmp/scan" || fail "stream-clock-scan failed"
    cat "$tmp/scan"
    grep -q '^losses 1 ' "$tmp/scan" || fail "want one loss, the queue overflowed once"
    n=$(sed -n 's/^loss at .*: \([0-9]*\) bytes.*/\1/p' "$tmp/scan")
    [ "$n" -ge $((discarded * 4 / 5)) ] && [ "$n" -le $((discarded * 6 / 5)) ] ||
      fail "loss of $n bytes seen, $discarded dropped"
    echo "TS queue overflow: $discarded bytes dropped, $n seen" ;;
  *) fail "unknown case $case" ;;
esac
