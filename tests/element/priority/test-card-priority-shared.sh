#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# test-card-priority-shared.sh IVTV_EMU: the record priority is the card's
# (the emulated PVR-250 keeps one for its MPEG, YUV and PCM nodes, as
# ivtv's v4l2_device does: v4l2_device_register -> v4l2_prio_init,
# v4l2-device.c; __video_register_device, v4l2-dev.c).
#  1. One application, two ivtvsrc on the card's YUV (/dev/video32) and
#     PCM (/dev/video24) nodes in one pipeline (capturing-tapes.md section
#     9): both capture to the end; the second shares the first's priority
#     (the debug log says so), no busy error.
#  2. Another program: while one gst-launch records /dev/video32, a second
#     gst-launch on /dev/video24 stops with the busy error, as before.
# Exit 0 pass, 1 fail, 77 skip.
set -u
EMU=$1
for tool in gst-launch-1.0 timeout; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool not found"; exit 77; }
done
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ivtv-cardprio.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
FAILED=0

# 1. one pipeline, both nodes: either may start first
GST_DEBUG=ivtv:5 timeout 60 "$EMU" --card pvr250 -- gst-launch-1.0 \
  ivtvsrc device=/dev/video32 input="Composite 1" num-buffers=10 ! fakesink \
  ivtvsrc device=/dev/video24 num-buffers=10 ! fakesink >"$TMP/one.log" 2>&1
rc=$?
if [ $rc -ne 0 ] || grep -q "is busy" "$TMP/one.log"; then
  echo "FAIL: one pipeline on /dev/video32 + /dev/video24 exited $rc:"
  grep -E "ERROR|busy" "$TMP/one.log" | head -5; FAILED=1
else
  echo "ok: one pipeline records the YUV and PCM nodes together"
fi
n=$(grep -c "sharing it (handed over)" "$TMP/one.log")
[ "$n" -eq 1 ] && echo "ok: the second capture shares the first's priority (logged once)" ||
  { echo "FAIL: 'sharing' logged $n times, not once"; FAILED=1; }

# 2. another program on the other node: refused, as before
"$EMU" --card pvr250 -- bash -c "
  gst-launch-1.0 -q ivtvsrc device=/dev/video32 input='Composite 1' num-buffers=2000 \
    ! filesink location=$TMP/a.yuv & pid=\$!
  for i in \$(seq 400); do
    [ \$(stat -c %s $TMP/a.yuv 2>/dev/null || echo 0) -gt 1000000 ] && break
    sleep 0.05
  done
  gst-launch-1.0 ivtvsrc device=/dev/video24 num-buffers=5 ! fakesink; echo b-rc=\$?
  kill -INT \$pid; wait \$pid" >"$TMP/two.log" 2>&1
if grep -q "b-rc=0" "$TMP/two.log" ||
   ! grep -q "/dev/video24 ('WinTV PVR 250') is busy: another program is recording from it" "$TMP/two.log"; then
  echo "FAIL: another program on /dev/video24 was not refused:"; cat "$TMP/two.log"; FAILED=1
else
  echo "ok: another program on the card's PCM node gets the busy error"
fi
[ $FAILED = 0 ] && echo ok
exit $FAILED
