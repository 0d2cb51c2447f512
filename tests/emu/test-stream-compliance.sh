#!/bin/sh
# test-stream-compliance.sh - v4l2-compliance -s (streaming tests included)
# against a streaming profile.  Usage: test-stream-compliance.sh IVTV_EMU
# PROFILE.  Fails unless the "Total for" line says Failed: 0.
set -u
emu=$1
prof=$2
command -v v4l2-compliance >/dev/null ||
  { echo "SKIP: v4l2-compliance missing"; exit 77; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$emu" --profile "$prof" -- timeout 120 v4l2-compliance -s -d /dev/video0 \
  > "$log" 2>&1
rc=$?
grep -E 'fail|warn|Total' "$log"
total=$(grep '^Total for' "$log" | tail -1)
[ -n "$total" ] || { cat "$log"; echo "FAIL: no totals (exit $rc)"; exit 1; }
echo "$prof: $total"
case "$total" in
  *"Failed: 0,"*) exit 0 ;;
  *) cat "$log"; exit 1 ;;
esac
