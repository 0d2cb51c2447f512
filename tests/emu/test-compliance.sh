#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# test-compliance.sh - v4l2-compliance against one emulated profile at
# /dev/video0; fails unless its "Total for" line says Failed: 0, or with
# -e the real driver's figure exactly.
#   test-compliance.sh IVTV_EMU [-d NODE] [-s] [-e TOTAL,FAILED,WARNINGS]
#                      PROFILE [EXPBUF_PROFILE]
# -d NODE tests another node of the card (/dev/vbi0) instead of /dev/video0.
# -s adds the streaming tests (read() for READWRITE cards, MMAP/USERPTR/
# DMABUF for STREAMING ones).  -e: a profile that models a real driver's
# non-compliance (README.md, "Differences from the real drivers") must give
# the figure v4l2-compliance gave on the real driver, no more and no less.
# With EXPBUF_PROFILE a second emulated device at /dev/video1 exports the
# buffers for the DMABUF import tests (-e /dev/video1).
set -u
emu=$1
shift
node=/dev/video0
stream=
expect=
while :; do
  case "${1:-}" in
    -d) node=$2; shift 2 ;;
    -s) stream=-s; shift ;;
    -e) expect=$2; shift 2 ;;
    *) break ;;
  esac
done
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
if [ -n "$expect" ]; then
  n_total=${expect%%,*}
  n_warn=${expect##*,}
  n_failed=${expect#*,}
  n_failed=${n_failed%,*}
  case "$total" in
    *": $n_total, Succeeded: "*", Failed: $n_failed, Warnings: $n_warn") exit 0 ;;
    *) cat "$log"
       echo "FAIL: want $n_total tests, $n_failed failed, $n_warn warnings (the real driver's)"
       exit 1 ;;
  esac
fi
case "$total" in
  *"Failed: 0,"*) exit 0 ;;
  *) cat "$log"; exit 1 ;;
esac
