#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/element/fault-matrix/fault-case.sh — one case of the fault matrix (issue 5):
# runs `gst-launch-1.0 -e ivtvsrc ... ! filesink` under ivtv-emu with one
# injected fault and checks the exit status, the error/warning text on
# stderr, that the output's bytes are the first bytes of a reference read
# with `head -c` under the same profile and input (the emulator is
# deterministic), that nothing delivered before the fault is lost, and the
# wall time.
#
#   fault-case.sh IVTV_EMU CASE
#
# Exit 0 pass, 1 fail, 77 skip (a tool is missing).
set -u

EMU=$1
CASE=$2
MAX_WALL=20             # seconds, unless a case says otherwise

for tool in gst-launch-1.0 v4l2-ctl head cmp dd od timeout; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIP: $tool not found"
    exit 77
  fi
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/ivtv-fault.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
OUT=$TMP/out.mpg
REF=$TMP/ref.mpg
ERR=$TMP/stderr.txt
FAILED=0

fail () {
  echo "FAIL [$CASE]: $*"
  FAILED=1
}

# capture EMU_ARGS... -- ELEMENT_PROPS : gst-launch under the emulator;
# sets RC and WALL (seconds); stderr+stdout in $ERR.
capture () {
  local emu_args=() t0 t1
  while [ "$1" != "--" ]; do emu_args+=("$1"); shift; done
  shift
  rm -f "$OUT"
  t0=$(date +%s%N)
  # shellcheck disable=SC2086
  timeout 30 "$EMU" "${emu_args[@]}" -- gst-launch-1.0 -e \
      ivtvsrc "$@" ! filesink location="$OUT" >"$ERR" 2>&1
  RC=$?
  t1=$(date +%s%N)
  WALL_MS=$(((t1 - t0) / 1000000))
  WALL=$((WALL_MS / 1000)).$(printf %03d $((WALL_MS % 1000)))
  echo "--- gst-launch (exit $RC, ${WALL}s): ivtvsrc $*"
  [ "$WALL_MS" -lt $((MAX_WALL * 1000)) ] || fail "gst-launch ran ${WALL}s (hang?)"
  grep -E '^(ERROR|WARNING)' "$ERR" | head -6
}

# capture_int SECONDS EMU_ARGS... -- PROPS : like capture, SIGINT after
# SECONDS (gst-launch -e then sends EOS, as a user's Ctrl-C)
capture_int () {
  local secs=$1 emu_args=() t0 t1
  shift
  while [ "$1" != "--" ]; do emu_args+=("$1"); shift; done
  shift
  rm -f "$OUT"
  t0=$(date +%s%N)
  timeout 30 "$EMU" "${emu_args[@]}" -- sh -c 'timeout --foreground -s INT "$0" "$@"; \
      r=$?; [ $r = 124 ] && r=0; exit $r' "$secs" gst-launch-1.0 -e \
      ivtvsrc "$@" ! filesink location="$OUT" >"$ERR" 2>&1
  RC=$?
  t1=$(date +%s%N)
  WALL_MS=$(((t1 - t0) / 1000000))
  WALL=$((WALL_MS / 1000)).$(printf %03d $((WALL_MS % 1000)))
  echo "--- gst-launch, SIGINT after ${secs}s (exit $RC, ${WALL}s): ivtvsrc $*"
  [ "$WALL_MS" -lt $((MAX_WALL * 1000)) ] || fail "gst-launch ran ${WALL}s (hang?)"
  grep -E '^(ERROR|WARNING)' "$ERR" | head -6
}

# reference N [EMU_ARGS...]: the first N bytes of Composite 1 of pvr250
# (unpaced), with the extra emulator arguments (e.g. the same std change)
reference () {
  local n=$1
  shift
  timeout 30 "$EMU" --profile pvr250 --fault fast "$@" -- sh -c \
      'v4l2-ctl -d /dev/video0 -i 2 >/dev/null && head -c "$0" /dev/video0' \
      "$n" >"$REF"
}

size () { stat -c %s "$1" 2>/dev/null || echo 0; }

expect_rc () {          # expect_rc zero|nonzero
  if [ "$1" = zero ] && [ "$RC" != 0 ]; then fail "exit status $RC, want 0"; fi
  if [ "$1" = nonzero ] && [ "$RC" = 0 ]; then fail "exit status 0, want an error"; fi
}

expect_text () {        # expect_text REGEX
  grep -Eq -- "$1" "$ERR" || fail "stderr lacks /$1/"
}

reject_text () {
  if grep -Eq -- "$1" "$ERR"; then fail "stderr has /$1/"; fi
}

# the output is exactly the first bytes of the reference
expect_prefix () {
  local n
  n=$(size "$OUT")
  reference "$n" "$@"
  if [ "$(size "$REF")" != "$n" ]; then
    fail "reference has $(size "$REF") bytes, want $n"
  elif ! cmp -s "$OUT" "$REF"; then
    fail "output differs from the reference: $(cmp "$OUT" "$REF" | head -1)"
  else
    echo "output: $n bytes, identical to head -c $n of the device"
  fi
}

expect_size_at_least () {
  local n
  n=$(size "$OUT")
  [ "$n" -ge "$1" ] || fail "output has $n bytes, want >= $1"
}

expect_size () {
  local n
  n=$(size "$OUT")
  [ "$n" = "$1" ] || fail "output has $n bytes, want $1"
}

expect_wall_below () {
  [ "$WALL_MS" -lt $(($1 * 1000)) ] || fail "took ${WALL}s, want < $1 s"
}

# the output ends with the MPEG program end code (a complete GOP: every
# clip of the emulator ends with one) and decodes
expect_complete_mpeg () {
  local tail4
  tail4=$(tail -c 4 "$OUT" | od -An -tx1 | tr -d ' \n')
  [ "$tail4" = "000001b9" ] || fail "output ends with $tail4, not a program end code (cut GOP)"
  if timeout 20 gst-launch-1.0 -q filesrc location="$OUT" ! mpegpsdemux ! \
      mpegvideoparse ! avdec_mpeg2video ! fakesink >/dev/null 2>"$TMP/dec.txt"; then
    echo "output decodes (mpegpsdemux ! avdec_mpeg2video)"
  else
    fail "output does not decode: $(head -3 "$TMP/dec.txt")"
  fi
}

PVR="--profile pvr250"
N=1000000

case "$CASE" in
  unplug-after)
    capture $PVR --fault fast --fault unplug-after=$N -- input=composite
    expect_rc nonzero
    expect_text "went away"
    expect_size $N
    expect_prefix
    ;;
  unplug-eio)
    # pvrusb2's unplug while the node is held open: read() EIO, ioctls
    # EFAULT, poll() never ready, the node stays (tests/emu unplug-eio):
    # named as an unplug at once, not as a hang after the stall timeout
    capture $PVR --fault fast --fault unplug-after=$N --fault unplug-eio -- \
        input=composite timeout=5
    expect_rc nonzero
    expect_text "went away"
    reject_text "hangs|I/O error"
    expect_size $N
    expect_prefix
    expect_wall_below 8
    ;;
  unplug-eio-reconnect)
    # the same with reconnect=true: the lost device is waited for, and
    # comes back (unplug-for) as a new one
    capture $PVR --fault fast --fault unplug-after=$N --fault unplug-eio \
        --fault unplug-for=1 -- input=composite reconnect=true blocksize=65536 \
        num-buffers=40 timeout=5
    expect_rc zero
    expect_text "went away after $N bytes"
    reject_text "hangs|I/O error"
    expect_size_at_least $((2 * N))
    ;;
  unplug-reconnect)
    capture $PVR --fault fast --fault unplug-after=$N --fault unplug-for=1 -- \
        input=composite reconnect=true blocksize=65536 num-buffers=40
    expect_rc zero
    expect_text "went away after $N bytes"
    expect_size_at_least $((2 * N))
    # the first open's bytes, then the stream of the new open from its start
    head -c $N "$OUT" >"$TMP/first"
    reference $N
    cmp -s "$TMP/first" "$REF" || fail "bytes before the unplug differ"
    tail -c +$((N + 1)) "$OUT" | head -c $N >"$TMP/second"
    cmp -s "$TMP/second" "$REF" || fail "bytes after the reconnect differ"
    ;;
  eio-at)
    capture $PVR --fault fast --fault eio-at=$N -- input=composite blocksize=65536 num-buffers=40
    expect_rc zero
    expect_text "I/O error; retrying"
    expect_size_at_least $((N + 1))
    expect_prefix
    ;;
  eintr-every)
    capture $PVR --fault fast --fault eintr-every=3 -- input=composite blocksize=65536 num-buffers=40
    expect_rc zero
    reject_text "^(ERROR|WARNING)"
    expect_size $((40 * 65536))
    expect_prefix
    ;;
  eagain-every)
    # ivtvsrc reads through an O_NONBLOCK descriptor: EAGAIN is seen
    capture $PVR --fault fast --fault eagain-every=2 -- input=composite blocksize=65536 num-buffers=40
    expect_rc zero
    reject_text "^(ERROR|WARNING)"
    expect_size $((40 * 65536))
    expect_prefix
    ;;
  short-reads)
    capture $PVR --fault fast --fault short-reads=3000 -- input=composite blocksize=65536 num-buffers=300
    expect_rc zero
    reject_text "^(ERROR|WARNING)"
    expect_size_at_least 300
    expect_prefix
    ;;
  stall-after)
    capture $PVR --fault fast --fault stall-after=$N -- input=composite timeout=2
    expect_rc nonzero
    expect_text "WARNING.*No data from /dev/video0 for 2 seconds"
    expect_text "ERROR.*No data from /dev/video0 for 4 seconds"
    expect_size $N
    expect_prefix
    expect_wall_below 8
    ;;
  no-signal)
    # the "Done when" line of issue 5: ends by itself with status 0 about
    # 5 s in, with a warning, and every byte delivered in the file
    capture $PVR --fault no-signal=3 -- input=composite signal-timeout=2
    expect_rc zero
    expect_text "WARNING.*No signal on input 'Composite 1'"
    expect_wall_below 9
    [ "$WALL_MS" -gt 4000 ] || fail "ended after ${WALL}s, before the signal was gone for 2 s"
    # while there was a signal: the composite picture, byte for byte; then
    # whole black clips (the emulator switches at a clip end)
    n=$(size "$OUT")
    reference "$n"
    timeout 30 "$EMU" $PVR --fault fast --fault no-signal=0 -- sh -c \
        'v4l2-ctl -d /dev/video0 -i 2 >/dev/null && head -c "$0" /dev/video0' \
        "$n" >"$TMP/black-ref"
    if ! command -v python3 >/dev/null; then
      echo "SKIP: python3 not found"
      exit 77
    fi
    # split point: OUT = REF[:p] + BLACK[:n-p] for some p (the switch).
    # The emulator's clock runs on across clips (the black clips after the
    # switch carry later SCR/PTS/DTS than the reference's, which starts
    # black), so the clock fields are masked in all three before comparing.
    p=$(python3 - "$OUT" "$REF" "$TMP/black-ref" <<'PY'
import sys

def mask(b):
    """zero the pack SCR and PES PTS/DTS fields of an MPEG-2 program stream"""
    b = bytearray(b)
    i, n = 0, len(b)
    while i + 4 <= n:
        if b[i] or b[i + 1] or b[i + 2] != 1:
            i += 1
            continue
        sid = b[i + 3]
        if sid == 0xba and i + 14 <= n:
            b[i + 4:i + 10] = bytes(6)
            i += 14 + (b[i + 13] & 7)
        elif sid == 0xb9:
            i += 4
        elif sid >= 0xbb and i + 6 <= n:
            ln = (b[i + 4] << 8) | b[i + 5]
            if (0xc0 <= sid <= 0xef or sid == 0xbd) and i + 9 <= n \
                    and (b[i + 6] & 0xc0) == 0x80:
                fl = b[i + 7] >> 6
                if fl & 2:
                    b[i + 9:i + 14] = bytes(5)
                if fl == 3:
                    b[i + 14:i + 19] = bytes(5)
            i += 6 + ln
        else:
            i += 1
    return bytes(b[:n])

out, ref, black = (mask(open(f, 'rb').read()) for f in sys.argv[1:4])
d = next((i for i in range(len(out)) if out[i] != ref[i]), len(out))
for p in range(d, max(d - 65536, 0) - 1, -1):
    if out[p:] == black[:len(out) - p]:
        print(p)
        break
else:
    print(-1)
PY
)
    if [ "$p" -lt 0 ]; then
      fail "output is not the composite picture followed by the black stream"
    else
      echo "composite picture for $p bytes, then $((n - p)) bytes without signal: all delivered bytes in order"
      [ "$p" -gt 1500000 ] || fail "picture part only $p bytes (< 2 s)"
    fi
    expect_complete_mpeg
    ;;
  std-change-after)
    capture $PVR --fault fast --fault std-change-after=$N -- input=composite blocksize=65536 num-buffers=40
    expect_rc zero
    reject_text "^ERROR"
    expect_size $((40 * 65536))
    # same fault and the same read() sizes as ivtvsrc (the switch comes
    # at the first clip end after N bytes)
    timeout 30 "$EMU" $PVR --fault fast --fault std-change-after=$N -- sh -c \
        'v4l2-ctl -d /dev/video0 -i 2 >/dev/null && dd bs=65536 count=40 if=/dev/video0 2>/dev/null' >"$REF"
    cmp -s "$OUT" "$REF" || fail "output differs from the reference: $(cmp "$OUT" "$REF" | head -1)"
    cmp -s -n $N "$OUT" "$REF" && echo "output identical to the device's bytes across the standard change"
    ;;
  eos-drain)
    # Ctrl-C with -e: ENCODER_CMD STOP at the GOP end, the rest is read
    capture_int 3 $PVR -- input=composite
    expect_rc zero
    expect_size_at_least 1000000
    expect_prefix
    expect_complete_mpeg
    ;;
  eos-no-encoder-cmd)
    # pvrusb2 has no VIDIOC_ENCODER_CMD (tests/emu's pvrusb2 profile, as
    # pvrusb2-v4l2.c pvr2_ioctl_ops): Ctrl-C with -e ends the reading at
    # once; the file is the stream from its first byte up to the stop
    if timeout 20 "$EMU" --profile pvrusb2 -- v4l2-ctl -d /dev/video0 \
        --encoder-cmd=cmd=stop >"$TMP/enc.txt" 2>&1 || \
        ! grep -q "Inappropriate ioctl" "$TMP/enc.txt"; then
      fail "the pvrusb2 profile answers ENCODER_CMD: $(head -2 "$TMP/enc.txt")"
    fi
    capture_int 3 --profile pvrusb2 -- input=composite
    expect_rc zero
    reject_text "^(ERROR|WARNING)"
    expect_size_at_least 100000
    expect_wall_below 10
    n=$(size "$OUT")
    timeout 30 "$EMU" --profile pvrusb2 --fault fast -- sh -c \
        'v4l2-ctl -d /dev/video0 -i 1 >/dev/null && head -c "$0" /dev/video0' \
        "$n" >"$REF"
    if cmp -s "$OUT" "$REF"; then
      echo "output: $n bytes, identical to head -c $n of the device"
    else
      fail "output differs from the device's stream: $(cmp "$OUT" "$REF" | head -1)"
    fi
    ;;
  ebusy-open)
    capture $PVR --fault ebusy-open -- input=composite
    expect_rc nonzero
    expect_text "ERROR.*is busy: another program is using it"
    expect_size 0
    expect_wall_below 5
    ;;
  eacces-open)
    capture $PVR --fault eacces-open -- input=composite
    expect_rc nonzero
    expect_text "ERROR.*Permission denied opening /dev/video0.*group 'video'"
    expect_size 0
    expect_wall_below 5
    ;;
  webcam-reqbufs-fails)
    capture --profile webcam --fault reqbufs-fails -- num-buffers=5
    expect_rc nonzero
    expect_text "ERROR.*refused mmap streaming.*it offers"
    expect_wall_below 5
    ;;
  webcam-streamon-fails)
    capture --profile webcam --fault streamon-fails -- num-buffers=5
    expect_rc nonzero
    expect_text "ERROR.*Could not start mmap streaming on /dev/video0"
    expect_wall_below 5
    ;;
  not-v4l2)
    mkdir "$TMP/dir"
    echo hello >"$TMP/file"
    for dev in /dev/null "$TMP/file" "$TMP/dir" "$TMP/missing"; do
      capture $PVR -- device="$dev"
      expect_rc nonzero
      case "$dev" in
        /dev/null) expect_text "ERROR.*/dev/null is not a V4L2" ;;
        */file) expect_text "ERROR.*regular file" ;;
        */dir) expect_text "ERROR.*directory" ;;
        */missing) expect_text "ERROR.*does not exist" ;;
      esac
      expect_wall_below 5
    done
    ;;
  *)
    echo "unknown case $CASE"
    exit 2
    ;;
esac

if [ $FAILED = 0 ]; then
  echo "PASS [$CASE]"
  exit 0
fi
echo "--- stderr of the last gst-launch:"
tail -20 "$ERR"
exit 1
