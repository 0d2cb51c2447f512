#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# test-input-auto.sh IVTV_EMU: ivtvsrc input=auto on the emulated PVR-250.
#  1. The card left on Composite 1 (index 2), which has a signal: input=auto
#     keeps it (no switch) and captures.
#  1b. The card as the driver leaves it, on its tuner (input 0): input=auto
#     does not keep the tuner (an aerial has a "signal" on any channel) but
#     moves to the first other input with a signal, S-Video 1 (index 1).
#  2. No input has a signal (--fault no-signal=0): exactly one error from
#     ivtvsrc naming every input with its status, no buffer, and the card is
#     back on the input it was left on.
emu=$1
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
fail=0

"$emu" --profile pvr250 -- sh -c "v4l2-ctl -i 2 >/dev/null &&
  gst-launch-1.0 -q ivtvsrc input=auto num-buffers=4 blocksize=65536 \
    ! filesink location=$out/a.mpg && v4l2-ctl --get-input" >"$out/log1" 2>&1 \
  || { echo "FAIL: input=auto with a signal did not capture:"; cat "$out/log1"; fail=1; }
size=$(stat -c %s "$out/a.mpg" 2>/dev/null || echo 0)
[ "$size" -gt 0 ] || { echo "FAIL: input=auto with a signal captured nothing"; fail=1; }
grep -q "Video input : 2 (Composite 1" "$out/log1" \
  || { echo "FAIL: input=auto left Composite 1:"; cat "$out/log1"; fail=1; }

"$emu" --profile pvr250 -- sh -c "v4l2-ctl -i 0 >/dev/null &&
  gst-launch-1.0 -q ivtvsrc input=auto num-buffers=2 ! fakesink &&
  v4l2-ctl --get-input" >"$out/log0" 2>&1 \
  || { echo "FAIL: input=auto from the tuner did not capture:"; cat "$out/log0"; fail=1; }
grep -q "Video input : 1 (S-Video 1" "$out/log0" \
  || { echo "FAIL: input=auto kept the tuner or chose another input:"; cat "$out/log0"; fail=1; }

"$emu" --profile pvr250 --fault no-signal=0 -- sh -c "v4l2-ctl -i 1 >/dev/null;
  gst-launch-1.0 ivtvsrc input=auto num-buffers=4 ! filesink location=$out/b.mpg;
  echo rc=\$?; v4l2-ctl --get-input" >"$out/log2" 2>&1
grep -q "rc=0" "$out/log2" && { echo "FAIL: no signal anywhere, yet exit 0"; fail=1; }
n=$(grep -c "ERROR: from element .*ivtvsrc0: No input of 'WinTV PVR 250' has a signal" "$out/log2")
[ "$n" -eq 1 ] || { echo "FAIL: $n input=auto errors, wanted 1:"; cat "$out/log2"; fail=1; }
for i in "Tuner 1" "S-Video 1" "Composite 1" "S-Video 2" "Composite 2"; do
  grep -q "'$i' (no signal)" "$out/log2" || { echo "FAIL: the error does not name '$i'"; fail=1; }
done
[ ! -s "$out/b.mpg" ] || { echo "FAIL: bytes were written with no signal"; fail=1; }
grep -q "Video input : 1 (S-Video 1" "$out/log2" \
  || { echo "FAIL: the card is not back on S-Video 1:"; tail -3 "$out/log2"; fail=1; }
[ $fail = 0 ] && echo ok
exit $fail
