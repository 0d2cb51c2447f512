#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# test-stream-gst.sh - GStreamer's v4l2src (the peer) and v4l2-ctl against
# the emulator's streaming profiles.  Usage: test-stream-gst.sh IVTV_EMU CASE
# Each case runs one pipeline/command under ivtv-emu and checks that it ran
# and delivered what it claims (buffer counts, sizes, formats).
set -u
emu=$1
case_=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail () { echo "FAIL: $*"; exit 1; }

command -v gst-launch-1.0 >/dev/null || { echo "SKIP: gst-launch-1.0 missing"; exit 77; }
command -v v4l2-ctl >/dev/null || { echo "SKIP: v4l2-ctl missing"; exit 77; }

# run PROFILE PIPELINE...: gst-launch with a per-buffer trace; checks that
# exactly $want buffers reached the sink
want=30
run () {
  prof=$1; shift
  "$emu" --profile "$prof" -- timeout 60 gst-launch-1.0 -v "$@" \
    > "$tmp/log" 2>&1
  rc=$?
  grep -v -e 'last-message = chain' -e ' DEBUG ' -e ' LOG ' "$tmp/log" |
    tail -25
  [ $rc -eq 0 ] || fail "gst-launch exited with $rc"
  n=$(grep -c 'last-message = chain' "$tmp/log")
  [ "$n" -eq "$want" ] || fail "sink got $n buffers, expected $want"
  echo "ok: $n buffers"
}

sink="fakesink silent=false"
case "$case_" in
  webcam-mmap)
    run webcam v4l2src num-buffers=30 ! video/x-raw,width=640,height=480 ! $sink ;;
  webcam-default)
    run webcam v4l2src num-buffers=30 ! $sink ;;
  webcam-dmabuf)
    export GST_DEBUG=v4l2allocator:6 GST_DEBUG_NO_COLOR=1
    run webcam v4l2src io-mode=dmabuf num-buffers=30 ! \
      video/x-raw,width=640,height=480 ! $sink
    grep -q 'exported DMABUF as fd' "$tmp/log" ||
      fail "v4l2src did not export DMABUF buffers" ;;
  webcam-userptr)
    # v4l2src imports user pointers from a downstream pool: videoconvert's
    export GST_DEBUG=v4l2bufferpool:5 GST_DEBUG_NO_COLOR=1
    run webcam v4l2src io-mode=userptr num-buffers=30 ! \
      video/x-raw,width=640,height=480 ! videoconvert ! \
      video/x-raw,format=I420 ! $sink
    grep -q 'requesting [0-9]* USERPTR buffers' "$tmp/log" ||
      fail "v4l2src did not use USERPTR buffers" ;;
  webcam-mjpeg)
    run webcam v4l2src num-buffers=30 ! image/jpeg,width=1280,height=720 ! \
      jpegdec ! video/x-raw,width=1280,height=720 ! $sink ;;
  webcam-libv4l2)
    export GST_V4L2_USE_LIBV4L2=1
    run webcam v4l2src num-buffers=30 ! \
      video/x-raw,width=320,height=240 ! $sink ;;
  tv-mmap)
    run tv-streaming v4l2src num-buffers=30 ! \
      video/x-raw,format=UYVY,width=720,height=576 ! $sink ;;
  tv-read)
    run tv-streaming v4l2src io-mode=rw num-buffers=30 ! \
      video/x-raw,format=YUY2 ! $sink
    grep -q 'width=(int)720, height=(int)576' "$tmp/log" ||
      fail "PAL card did not negotiate 720x576" ;;
  list-formats)
    "$emu" --profile webcam -- v4l2-ctl -d /dev/video0 --list-formats-ext \
      > "$tmp/log" 2>&1 || { cat "$tmp/log"; fail "v4l2-ctl failed"; }
    cat "$tmp/log"
    for s in "'YUYV'" "'MJPG'" "Size: Discrete 640x480" \
        "Size: Discrete 1920x1080" "0.033s (30.000 fps)" "0.067s (15.000 fps)"; do
      grep -qF "$s" "$tmp/log" || fail "list lacks $s"
    done ;;
  v4l2ctl-stream)
    "$emu" --profile webcam -- v4l2-ctl -d /dev/video0 \
      --set-fmt-video=width=320,height=240,pixelformat=YUYV --stream-mmap \
      --stream-count=30 --stream-to="$tmp/out.yuv" > "$tmp/log" 2>&1 ||
      { cat "$tmp/log"; fail "v4l2-ctl --stream-mmap failed"; }
    size=$(stat -c %s "$tmp/out.yuv")
    [ "$size" -eq $((30 * 320 * 240 * 2)) ] || fail "captured $size bytes"
    # every frame differs from the one before (moving bars, counter)
    split -b $((320 * 240 * 2)) -d -a 2 "$tmp/out.yuv" "$tmp/f"
    same=0
    for i in $(seq 1 29); do
      a=$(printf '%02d' $((i - 1))); b=$(printf '%02d' $i)
      cmp -s "$tmp/f$a" "$tmp/f$b" && same=$((same + 1))
    done
    [ $same -eq 0 ] || fail "$same frames equal the previous one"
    echo "ok: 30 distinct frames, $size bytes" ;;
  *)
    fail "unknown case $case_" ;;
esac
exit 0
