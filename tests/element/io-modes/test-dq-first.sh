#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# test-dq-first.sh IVTV_EMU: ivtvsrc's streaming path polls before each
# DQBUF while the card keeps up (paced webcam: no DQBUF is wasted on
# EAGAIN), and skips the poll while frames are waiting (--fault fast: far
# fewer polls than frames).  Counts the emulator's IVTV_EMU_DEBUG lines.
emu=$1
caps="video/x-raw,format=YUY2,width=640,height=480"
log=$(mktemp) || exit 1
trap 'rm -f "$log"' EXIT
fail=0

run () {  # run FRAMES EMU-ARGS...: the emulator's debug lines in $log
  n=$1; shift
  IVTV_EMU_DEBUG=1 "$emu" --profile webcam "$@" -- \
    gst-launch-1.0 -q ivtvsrc num-buffers="$n" ! "$caps" ! fakesink 2>"$log" >/dev/null \
    || { echo "FAIL: the capture failed: $(grep -v ivtv-emu "$log" | tail -3)"; exit 1; }
  dq_ok=$(grep -c 'ioctl V/17 -> 0$' "$log")
  dq_again=$(grep -c 'ioctl V/17 -> -11$' "$log")
  polls=$(grep -c 'poll on [0-9]* emulated fds' "$log")
  echo "$* $n frames: DQBUF ok $dq_ok, EAGAIN $dq_again; $polls polls"
}

run 45
[ "$dq_ok" -ge 45 ] || { echo "FAIL: only $dq_ok frames dequeued"; fail=1; }
[ "$dq_again" -le 2 ] || { echo "FAIL: paced card: $dq_again DQBUFs gave EAGAIN (one per frame means DQBUF before poll)"; fail=1; }
[ "$polls" -ge 36 ] || { echo "FAIL: paced card: $polls polls for 45 frames (about one per frame expected; a loaded machine may find a frame or two already waiting)"; fail=1; }

run 600 --fault fast
[ "$dq_ok" -ge 600 ] || { echo "FAIL: only $dq_ok frames dequeued"; fail=1; }
[ "$polls" -le 100 ] || { echo "FAIL: unpaced card: $polls polls for 600 frames (a poll per frame)"; fail=1; }
[ "$dq_again" -le 10 ] || { echo "FAIL: unpaced card: $dq_again DQBUFs gave EAGAIN"; fail=1; }
[ $fail = 0 ] && echo "ok"
exit $fail
