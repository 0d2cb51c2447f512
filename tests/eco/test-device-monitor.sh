#!/usr/bin/env bash
# tests/eco: gst-device-monitor-1.0 lists the emulated PVR-250 and webcam
# through ivtvdeviceprovider, with the caps ivtvsrc produces from each, and
# a node that does not open (eacces-open) with the reason.
#   test-device-monitor.sh IVTV_EMU
set -u
emu=${1:?usage: $0 IVTV_EMU}
command -v gst-device-monitor-1.0 >/dev/null || { echo "SKIP: gst-device-monitor-1.0 not installed"; exit 77; }
out=$(timeout 25 "$emu" --profile pvr250 --profile webcam@/dev/video1 -- \
  gst-device-monitor-1.0 Video/Source 2>&1)
echo "$out"
fail=0
check() { # description, extended regexp that must match one device block
  if ! printf '%s\n' "$out" | re="$2" awk -v RS='Device found:' '$0 ~ ENVIRON["re"] { f = 1 } END { exit !f }'; then
    echo "FAIL: $1"; fail=1
  else
    echo "ok: $1"
  fi
}
check "PVR-250 listed with its name and driver" 'name *: WinTV PVR 250 \(ivtv\)'
check "PVR-250 caps are an MPEG-2 program stream" \
  'WinTV PVR 250.*caps *: video/mpeg, mpegversion=2, systemstream=true[ \t\n]*properties:'
check "PVR-250 properties" 'device.path = /dev/video0.*device.driver = ivtv.*v4l2.inputs = Tuner 1, S-Video 1, Composite 1.*v4l2.standards = NTSC-M.*PAL-BG.*v4l2.io-methods = rw[ \t\n]'
check "webcam listed" 'name *: Emulated Webcam \(uvcvideo\)'
check "webcam offers raw YUY2" 'Emulated Webcam.*video/x-raw, format=YUY2, width=640, height=480'
check "webcam offers JPEG" 'Emulated Webcam.*image/jpeg'
check "webcam io methods" 'device.path = /dev/video1.*v4l2.io-methods = mmap, userptr, dmabuf'
check "class is Video/Source" 'class *: Video/Source'
n=$(printf '%s\n' "$out" | grep -c 'Device found:')
[ "$n" -eq 2 ] || { echo "FAIL: expected 2 devices, got $n"; fail=1; }

# a node nobody may open is still listed, saying why
out=$(timeout 25 "$emu" --profile pvr250 --profile webcam@/dev/video1 \
  --fault eacces-open@/dev/video1 -- gst-device-monitor-1.0 Video/Source 2>&1)
echo "$out"
check "the node that does not open is listed with the reason" \
  'name *: video1 \(no permission\).*device.path = /dev/video1.*ivtv.open-error = Permission denied opening /dev/video1.*ivtv.open-error-code = permission'
n=$(printf '%s\n' "$out" | grep -c 'Device found:')
[ "$n" -eq 2 ] || { echo "FAIL: expected 2 devices (one not openable), got $n"; fail=1; }
exit $fail
