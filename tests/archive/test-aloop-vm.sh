#!/bin/bash
# tests/archive/test-aloop-vm.sh — archival sync through a real ALSA driver:
# boots the qemu guest once (tests/vm/vmrun.py bench) with
# tests/vm/archive-aloop-guest.sh (snd-aloop at PPM ppm, beeps through the
# loopback, the emulated webcam with flashes, ivtv-capture through
# alsasrc), then measures the file on the host with check-sync-marks.py.
# The loopback adds a latency of its own between the beep's generation and
# its capture, so the offsets are judged by their spread (max - min <= 20 ms:
# the drift held); the absolute figures are printed.
#
#   test-aloop-vm.sh SOURCE_DIR BUILD_ROOT PPM SECONDS
#
# Exit 0 pass, 1 fail, 77 skip (no qemu, no kernel package, no snd-aloop).
set -u
SRC=$1 B=$2 PPM=$3 SECS=$4
R=$B/tests/vm/bench-results
python3 "$SRC/tests/vm/vmrun.py" bench --build-root "$B" --source-dir "$SRC" \
  --script "$SRC/tests/vm/archive-aloop-guest.sh" --conf AA_PPM="$PPM" \
  --conf AA_SECONDS="$SECS" --timeout $((SECS * 6 + 600)) | tail -5
rc=${PIPESTATUS[0]}
[ "$rc" = 77 ] && exit 77
cat "$R/archive/log.txt" 2>/dev/null | grep -v "^ivtv-capture: 00:" | tail -25
case "$(cat "$R/guest-done" 2>/dev/null)" in
  ok) ;;
  skip) echo "SKIP: the guest could not set up snd-aloop (above)"; exit 77 ;;
  *) echo "FAIL: the guest did not finish (vmrun exit $rc)"; exit 1 ;;
esac
FAILED=0
[ "$(cat "$R/archive/rc")" = 0 ] || { echo "FAIL: ivtv-capture exit $(cat "$R/archive/rc")"; FAILED=1; }
python3 "$SRC/tests/archive/check-sync-marks.py" "$R/archive/tape.mkv" \
  --json "$R/archive/tape.mkv.json" --spread-ms 20 \
  --min-marks $((SECS / 2 - 3)) || FAILED=1
ffmpeg -v error -i "$R/archive/tape.mkv" -f framemd5 - | grep '^0,' >"$R/ff.md5"
if cmp -s "$R/ff.md5" <(grep '^0,' "$R/archive/tape.mkv.framemd5"); then
  echo "framemd5: $(wc -l <"$R/ff.md5") lines equal to ffmpeg's"
else
  echo "FAIL: FILE.framemd5 differs from ffmpeg's"; FAILED=1
fi
exit $FAILED
