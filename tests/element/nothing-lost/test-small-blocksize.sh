#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/element/nothing-lost/test-small-blocksize.sh — the smallest blocksize keeps up
# (issue 28 item 2): `ivtvsrc input=composite blocksize=4096 ! filesink`
# on a pvr250 at the real rate (about 750 kB/s, 183 reads of 4 KiB a
# second) for SECONDS, ended with SIGINT as Ctrl-C ends gst-launch -e.
# The driver's queue (4 MB, as ivtv's enc_mpg_buffers; tests/emu/README.md
# "The MPEG driver queue") overflows within 6 s of a reader that falls
# behind, and ivtv drops what does not fit (ivtv-irq.c ivtv_irq_enc_dma_data:
# "All MPEG stream buffers are full. Dropping data"), silently for the
# element.  So:
#   - the emulator discarded 0 bytes (IVTV_EMU_STATS);
#   - the file is the card's stream byte for byte: the unpaced reference's
#     first (file size + discarded) bytes, i.e. everything the card made;
#   - the final ivtvsrc-stats says bytes-lost=0, and no warning came;
#   - the stop after SIGINT (the encoder's drain, at most 2 s) takes less
#     than 10 s (it took 25.7 s with blocksize=1 when the item was filed).
#   test-small-blocksize.sh IVTV_EMU [SECONDS]
# Exit 0 pass, 1 fail, 77 skip.
set -u
EMU=$1 SECONDS_RUN=${2:-20} BS=4096

for tool in gst-launch-1.0 v4l2-ctl head cmp timeout; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool not found"; exit 77; }
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/ivtv-bs.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
OUT=$TMP/out.mpg REF=$TMP/ref.mpg LOG=$TMP/log

fail () { echo "FAIL: $*"; tail -20 "$LOG" 2>/dev/null; exit 1; }

IVTV_EMU_STATS=$TMP/emu-stats timeout 120 "$EMU" --profile pvr250 -- sh -c '
  t0=$(date +%s%N)
  timeout --foreground -s INT "$0" gst-launch-1.0 -e -m \
    ivtvsrc input=composite blocksize="$1" ! filesink location="$2"
  rc=$?
  echo "exit=$rc wall_ms=$((($(date +%s%N) - t0) / 1000000))"' \
  "$SECONDS_RUN" "$BS" "$OUT" >"$LOG" 2>&1 || fail "the capture failed"

result=$(grep '^exit=' "$LOG")
# 124: timeout sent the signal (gst-launch itself ended cleanly on it)
case ${result%% *} in exit=0|exit=124) ;; *) fail "gst-launch-1.0: $result" ;; esac
grep -q '^Got EOS from element "pipeline0"' "$LOG" ||
  fail "no EOS after SIGINT (gst-launch -e)"
wall_ms=${result##*wall_ms=}
stop_ms=$((wall_ms - SECONDS_RUN * 1000))
DISCARDED=$(sed -n 's/^discarded-video0=//p' "$TMP/emu-stats")
[ -n "$DISCARDED" ] || fail "no discarded counter from the emulator"
SIZE=$(stat -c %s "$OUT")
final=$(grep 'ivtvsrc-stats' "$LOG" | grep 'final=(boolean)true' | tail -1)
lost=$(sed -n 's/.*bytes-lost=(guint64)\([0-9]*\).*/\1/p' <<<"$final")
warnings=$(grep -c '(warning)\|WARNING' "$LOG")
echo "blocksize=$BS, ${SECONDS_RUN} s: $SIZE bytes in the file, the driver" \
  "discarded $DISCARDED, ivtvsrc counted ${lost:-?} lost, $warnings warnings," \
  "the stop took $stop_ms ms after SIGINT"

[ "$DISCARDED" = 0 ] ||
  fail "the driver discarded $DISCARDED bytes: the reader did not keep up"
[ "$lost" = 0 ] || fail "the final ivtvsrc-stats says bytes-lost=${lost:-none}"
[ "$warnings" = 0 ] || fail "$warnings warnings: $(grep -i warning "$LOG" | head -3)"
# 750 kB/s: at least 60% of it (the first second is the encoder's start)
[ "$SIZE" -ge $((SECONDS_RUN * 450000)) ] ||
  fail "only $SIZE bytes in $SECONDS_RUN s"
[ "$stop_ms" -lt 10000 ] || fail "the stop took $stop_ms ms after SIGINT"

timeout 60 "$EMU" --profile pvr250 --fault fast -- sh -c \
  'v4l2-ctl -d /dev/video0 -i 2 >/dev/null && head -c "$0" /dev/video0' \
  $((SIZE + DISCARDED)) >"$REF" || fail "reference capture failed"
cmp -s "$OUT" "$REF" ||
  fail "the file is not the card's stream: $(cmp "$OUT" "$REF" | head -1)"
echo "the file is the card's stream, byte for byte"
