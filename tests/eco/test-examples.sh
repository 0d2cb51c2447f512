#!/usr/bin/env bash
# tests/eco: the three examples capture from the emulated PVR-250 (found by
# the device monitor next to an emulated webcam) and each writes a file
# gst-discoverer-1.0 accepts as MPEG-2 program stream with video.
#   test-examples.sh IVTV_EMU PYTHON SOURCE_ROOT CAPTURE_BINARY
set -u
emu=${1:?usage: $0 IVTV_EMU PYTHON SOURCE_ROOT CAPTURE_BINARY}; py=$2; root=$3; capture=$4
command -v gst-discoverer-1.0 >/dev/null || { echo "SKIP: gst-discoverer-1.0 (gstreamer1.0-plugins-base-apps) not installed"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export PY="$py" ROOT="$root" CAPTURE="$capture" OUT="$tmp"
# webcam first, so "the first ivtv device" is not simply /dev/video0
timeout 50 "$emu" --profile webcam --profile pvr250@/dev/video1 -- bash -c '
  # Ctrl-C: the program must finish the file and exit 0
  interrupt() { "$@" & pid=$!; sleep 3; kill -INT $pid; wait $pid; }
  echo "== c-duration"; "$CAPTURE" -t 3 -i composite -s pal "$OUT/c-duration.mpg"; echo "rc=$?"
  echo "== c-ctrl-c"; interrupt "$CAPTURE" -i svideo "$OUT/c-ctrl-c.mpg"; echo "rc=$?"
  echo "== py-ctrl-c"; interrupt "$PY" "$ROOT/examples/capture.py" -i composite "$OUT/py-ctrl-c.mpg"; echo "rc=$?"
  echo "== py-duration"; "$PY" "$ROOT/examples/capture.py" -t 2 "$OUT/py-duration.mpg"; echo "rc=$?"
  echo "== sh-duration"; DURATION=3 bash "$ROOT/examples/capture-tape.sh" "$OUT/sh-duration.mpg" composite ntsc /dev/video1; echo "rc=$?"
' > "$tmp/log" 2>&1
cat "$tmp/log"
fail=0
for run in c-duration c-ctrl-c py-ctrl-c py-duration sh-duration; do
  sec=$(awk -v s="== $run" '$0 == s { on = 1; next } /^== / { on = 0 } on' "$tmp/log")
  f="$tmp/$run.mpg"
  if ! printf '%s\n' "$sec" | grep -q '^rc=0$'; then echo "FAIL: $run: exit status not 0"; fail=1; continue; fi
  case $run in c-*|py-*)
    printf '%s\n' "$sec" | grep -q 'Capturing from WinTV PVR 250 (ivtv) (/dev/video1)' ||
      { echo "FAIL: $run: did not pick the PVR-250 at /dev/video1 from the device monitor"; fail=1; }
    printf '%s\n' "$sec" | grep -q "Wrote $(stat -c %s "$f" 2>/dev/null) bytes to .* (complete: end of stream)" ||
      { echo "FAIL: $run: not ended by EOS, or bytes captured differ from the file's size"; fail=1; } ;;
  esac
  size=$(stat -c %s "$f" 2>/dev/null || echo 0)
  [ "$size" -gt 500000 ] || { echo "FAIL: $run: $f has only $size bytes"; fail=1; continue; }
  if ! gst-discoverer-1.0 "$f" > "$tmp/$run.disc" 2>&1; then
    cat "$tmp/$run.disc"; echo "FAIL: $run: gst-discoverer-1.0 rejects the file"; fail=1; continue
  fi
  if grep -q 'container.*MPEG-2 System Stream' "$tmp/$run.disc" && grep -q 'video #.*MPEG-2 Video' "$tmp/$run.disc"; then
    echo "ok: $run: $size bytes, MPEG-2 program stream with video"
  else
    cat "$tmp/$run.disc"; echo "FAIL: $run: not an MPEG-2 program stream with video"; fail=1
  fi
done
exit $fail
