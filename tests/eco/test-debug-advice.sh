#!/usr/bin/env bash
# tests/eco: the debug advice of docs/troubleshooting.md is true: the
# GST_DEBUG value it gives for "every ioctl by name, in order, with its
# result" shows each ioctl with "ok" or the error, and level 5, which the
# text says shows none, shows none.  Runs under ivtv-emu (pvr250).
#   test-debug-advice.sh IVTV_EMU SOURCE_ROOT
set -u
emu=${1:?usage: $0 IVTV_EMU SOURCE_ROOT}; root=$2
doc=$root/docs/troubleshooting.md
level=$(sed -n 's/^ *GST_DEBUG=\([^ ]*\) gst-launch-1.0 \.\.\. *# every ioctl.*/\1/p' "$doc")
[ -n "$level" ] || { echo "FAIL: no 'GST_DEBUG=... gst-launch-1.0 ...  # every ioctl' line in $doc"; exit 1; }
echo "advice: GST_DEBUG=$level"
run() { # GST_DEBUG value -> the log
  timeout 30 "$emu" --profile pvr250 --fault fast -- env GST_DEBUG="$1" \
    GST_DEBUG_NO_COLOR=1 gst-launch-1.0 -q ivtvsrc input=composite num-buffers=2 ! fakesink 2>&1
}
fail=0
log=$(run "$level")
for req in VIDIOC_QUERYCAP VIDIOC_ENUMINPUT VIDIOC_S_INPUT VIDIOC_G_FMT; do
  if printf '%s\n' "$log" | grep -Eq "$req: (ok|.+)$"; then
    echo "ok: $req with its result"
  else
    echo "FAIL: GST_DEBUG=$level shows no '$req: RESULT' line"; fail=1
  fi
done
# in order: the device is queried before the input is set
q=$(printf '%s\n' "$log" | grep -n 'VIDIOC_QUERYCAP:' | head -1 | cut -d: -f1)
s=$(printf '%s\n' "$log" | grep -n 'VIDIOC_S_INPUT:' | head -1 | cut -d: -f1)
[ -n "$q" ] && [ -n "$s" ] && [ "$q" -lt "$s" ] && echo "ok: in order" ||
  { echo "FAIL: QUERYCAP (line $q) not before S_INPUT (line $s)"; fail=1; }
n5=$(run 'ivtv*:5' | grep -c 'VIDIOC_')
[ "$n5" -eq 0 ] && echo "ok: ivtv*:5 shows no ioctl, as the text says" ||
  { echo "FAIL: ivtv*:5 shows $n5 ioctl lines; the text says none"; fail=1; }
exit $fail
