#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# test-record-priority.sh IVTV_EMU: the record-priority property on the
# emulated PVR-250 (which models V4L2 priorities as v4l2-ioctl.c does).
#  1. Default (record-priority=true): while ivtvsrc records, another
#     program's `v4l2-ctl -c brightness=200` is refused (EBUSY) and the
#     card keeps its brightness.
#  2. record-priority=false: the same v4l2-ctl call succeeds during the
#     recording (a person adjusting the picture, or a test harness that
#     injects faults through controls, as the vivid suite does), and the
#     recording goes on to its end without an error.
# Exit 0 pass, 1 fail, 77 skip.
set -u
EMU=$1
for tool in gst-launch-1.0 v4l2-ctl timeout; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool not found"; exit 77; }
done
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ivtv-prio.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
FAILED=0

# one run: ivtvsrc PROPS records; once 100 kB are written, v4l2-ctl sets
# the brightness; prints v4l2-ctl's exit status and the brightness after
run () {
  "$EMU" --profile pvr250 -- bash -c "
    v4l2-ctl -c brightness=128 >/dev/null
    gst-launch-1.0 -q ivtvsrc input=composite $1 num-buffers=60 blocksize=32768 \
      ! filesink location=$TMP/$2.mpg & pid=\$!
    for i in \$(seq 200); do
      [ \$(stat -c %s $TMP/$2.mpg 2>/dev/null || echo 0) -gt 100000 ] && break
      sleep 0.05
    done
    v4l2-ctl -c brightness=200 >$TMP/$2.ctl 2>&1; echo ctl-rc=\$?
    wait \$pid; echo gst-rc=\$?
    v4l2-ctl -C brightness" >"$TMP/$2.log" 2>&1
}

run "" default
grep -q "ctl-rc=0" "$TMP/default.log" && { echo "FAIL: default: another program changed the brightness during the recording"; FAILED=1; }
grep -q "brightness: 128" "$TMP/default.log" || { echo "FAIL: default: brightness not kept:"; cat "$TMP/default.log"; FAILED=1; }
grep -q "gst-rc=0" "$TMP/default.log" || { echo "FAIL: default: the recording failed:"; cat "$TMP/default.log"; FAILED=1; }

run "record-priority=false" shared
grep -q "ctl-rc=0" "$TMP/shared.log" || { echo "FAIL: record-priority=false: v4l2-ctl was refused:"; cat "$TMP/shared.log" "$TMP/shared.ctl"; FAILED=1; }
grep -q "brightness: 200" "$TMP/shared.log" || { echo "FAIL: record-priority=false: brightness not changed:"; cat "$TMP/shared.log"; FAILED=1; }
grep -q "gst-rc=0" "$TMP/shared.log" || { echo "FAIL: record-priority=false: the recording failed:"; cat "$TMP/shared.log"; FAILED=1; }
size=$(stat -c %s "$TMP/shared.mpg" 2>/dev/null || echo 0)
[ "$size" -gt 100000 ] || { echo "FAIL: record-priority=false: only $size bytes recorded"; FAILED=1; }
[ $FAILED = 0 ] && echo ok
exit $FAILED
