#!/bin/sh
# test-stream-compliance.sh - v4l2-compliance -s (streaming tests included)
# against a streaming profile at /dev/video0.
#   test-stream-compliance.sh IVTV_EMU PROFILE [EXPBUF_PROFILE]
# With EXPBUF_PROFILE a second emulated device at /dev/video1 exports the
# buffers for the DMABUF import tests (-e /dev/video1).
# Fails unless the "Total for" line says Failed: 0.
set -u
emu=$1
prof=$2
exp=${3:-}
command -v v4l2-compliance >/dev/null ||
  { echo "SKIP: v4l2-compliance missing"; exit 77; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if [ -n "$exp" ]; then
  "$emu" --profile "$prof@/dev/video0" --profile "$exp@/dev/video1" -- \
    timeout 120 v4l2-compliance -P -s -d /dev/video0 -e /dev/video1 \
    > "$log" 2>&1
else
  "$emu" --profile "$prof" -- timeout 120 v4l2-compliance -P -s \
    -d /dev/video0 > "$log" 2>&1
fi
rc=$?
grep -E 'fail:|warn:|test (MMAP|USERPTR|DMABUF|read)|Total' "$log"
total=$(grep '^Total for' "$log" | tail -1)
[ -n "$total" ] || { cat "$log"; echo "FAIL: no totals (exit $rc)"; exit 1; }
echo "$prof: $total"
case "$total" in
  *"Failed: 0,"*) exit 0 ;;
  *) cat "$log"; exit 1 ;;
esac
