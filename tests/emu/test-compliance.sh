#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# test-compliance.sh - v4l2-compliance against one emulated profile at
# /dev/video0; fails unless its "Total for" line says Failed: 0.
#   test-compliance.sh IVTV_EMU [-d NODE] [-s] PROFILE [EXPBUF_PROFILE]
# -d NODE tests another node of the card (/dev/vbi0) instead of /dev/video0.
# -s adds the streaming tests (read() for READWRITE cards, MMAP/USERPTR/
# DMABUF for STREAMING ones).  With EXPBUF_PROFILE a second emulated device
# at /dev/video1 exports the buffers for the DMABUF import tests
# (-e /dev/video1).
set -u
emu=$1
shift
node=/dev/video0
if [ "${1:-}" = -d ]; then
  node=$2
  shift 2
fi
stream=
if [ "${1:-}" = -s ]; then
  stream=-s
  shift
fi
prof=$1
exp=${2:-}
command -v v4l2-compliance >/dev/null ||
  { echo "SKIP: v4l2-compliance missing"; exit 77; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if [ -n "$exp" ]; then
  "$emu" --profile "$prof@/dev/video0" --profile "$exp@/dev/video1" -- \
    timeout 120 v4l2-compliance -P $stream -d /dev/video0 -e /dev/video1 \
    > "$log" 2>&1
else
  "$emu" --profile "$prof" -- timeout 120 v4l2-compliance -P $stream \
    -d "$node" > "$log" 2>&1
fi
rc=$?
grep -E 'fail:|warn:|test (MMAP|USERPTR|DMABUF|read)|Total' "$log"
total=$(grep '^Total for' "$log" | tail -1)
[ -n "$total" ] || { cat "$log"; echo "FAIL: no totals (exit $rc)"; exit 1; }
echo "$prof $node${stream:+ ($stream)}: $total"
case "$total" in
  *"Failed: 0,"*) exit 0 ;;
  *) cat "$log"; exit 1 ;;
esac
