#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# test-vbi-element.sh - ivtvsrc on the emulated cards' VBI node (gst/paths/ivtvvbi.c).
#   test-vbi-element.sh IVTV_EMU CHECK_VBI_PY HAVE_ZVBI CASE
# CASE: sliced-with-mpeg  pvr250 NTSC: sliced CC as s334-1a decodes to the
#                         caption text while /dev/video0 records MPEG in the
#                         same pipeline; one buffer per frame (130 -> 780 B)
#       raw-zvbi          tv-streaming: raw VBI decoded by libzvbi, caps
#                         format=raw (field 1 only, 2 bytes a frame)
#       raw-ivtv          pvr250 vbi-mode=raw: the ivtv raw format via libzvbi
#       cccombiner        tv-streaming video + captions -> cccombiner ->
#                         x264enc -> mp4mux: ffprobe says "Closed Captions"
#       wss               pvr250 PAL: ivtvsrc-wss says 4:3 on Composite 1,
#                         16:9 on S-Video 2
#       provider          gst-device-monitor-1.0 lists /dev/vbi0 in its own
#                         class Captions/Source (caps closedcaption), and
#                         not among the Video/Source devices
#       err-cc-on-pal     vbi-services=cc on PAL: one error naming 60 Hz
#       err-wss-on-ntsc   vbi-services=wss on NTSC: one error naming 50 Hz
#       err-no-vbi        a node with neither video nor VBI capture (the
#                         PVR-350 decoder; the PCM node is captured as audio)
#       err-sliced-on-raw vbi-mode=sliced on a raw-only node
#       err-raw-no-zvbi   raw VBI in a build without libzvbi (skipped when
#                         the build has it: meson -Dzvbi=disabled runs it)
#       busy-set-before   another program records (record priority): the
#                         VBI capture cannot S_FMT, one error giving the
#                         v4l2-ctl command; with the format set by it before
#                         the recording started, the captions are captured
set -u
emu=$1 check=$2 have_zvbi=$3 case=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
text="Captions from the emulated card"

fail () { echo "FAIL: $*"; exit 1; }
skip () { echo "SKIP: $*"; exit 77; }

# run PROFILE LAUNCH...: gst-launch-1.0 -m under the emulator, log in $tmp/log
run () {
  prof=$1
  shift
  timeout 120 "$emu" --profile "$prof" -- gst-launch-1.0 -m "$@" > "$tmp/log" 2>&1
}

# expect_error PROFILE TEXT LAUNCH...: exactly that error, and only one
expect_error () {
  prof=$1 want=$2
  shift 2
  if run "$prof" "$@"; then cat "$tmp/log"; fail "no error"; fi
  first=$(grep -m1 '^ERROR: from element' "$tmp/log")
  case $first in *"$want"*) ;; *) cat "$tmp/log"; fail "first error is not '$want': $first" ;; esac
  echo "error: ${first#*: }"
}

has_text () {
  got=$(python3 "$check" cea608 "$1" "$2") || fail "check-vbi.py failed"
  echo "decoded: $got"
  case $got in *"$text"*) ;; *) fail "caption text not found" ;; esac
}

case $case in
  busy-set-before)
    # twice: a recording in the background (another process: it holds the
    # card's record priority), then ivtvsrc on /dev/vbi0; the second time
    # the sliced format was set with v4l2-ctl before the recording began
    timeout 120 "$emu" --profile pvr250 -- sh -c '
      for round in busy ok; do
        [ $round = ok ] && v4l2-ctl -d /dev/vbi0 -s ntsc --set-fmt-sliced-vbi=cc >/dev/null
        gst-launch-1.0 -e ivtvsrc input=composite standard=ntsc ! \
          filesink location="$1/$round.mpg" > "$1/rec-$round.log" 2>&1 &
        rec=$!
        sleep 1
        gst-launch-1.0 ivtvsrc device=/dev/vbi0 num-buffers=130 ! \
          closedcaption/x-cea-608,format=s334-1a ! \
          filesink location="$1/cc-$round" > "$1/vbi-$round.log" 2>&1
        echo "exit $?" >> "$1/vbi-$round.log"
        kill -INT $rec; wait $rec
      done' sh "$tmp" || fail "emulator run failed"
    cat "$tmp/vbi-busy.log"
    [ "$(grep -c '^ERROR: from element' "$tmp/vbi-busy.log")" = 1 ] || fail "not one error"
    grep -q "cannot set its VBI format: another program records.*--set-fmt-sliced-vbi=cc" \
      "$tmp/vbi-busy.log" || fail "the error does not give the v4l2-ctl command"
    grep -q '^exit 0$' "$tmp/vbi-ok.log" || { cat "$tmp/vbi-ok.log"; fail "format set before: the VBI capture failed"; }
    for r in busy ok; do     # the recordings went on undisturbed (>= 1 s)
      ! grep -q '^ERROR' "$tmp/rec-$r.log" || { cat "$tmp/rec-$r.log"; fail "the recording ($r) failed"; }
      [ "$(stat -c %s "$tmp/$r.mpg")" -gt 500000 ] || fail "the recording ($r) is short"
    done
    has_text s334-1a "$tmp/cc-ok" ;;
  sliced-with-mpeg)
    run pvr250 -e ivtvsrc device=/dev/video0 standard=ntsc num-buffers=40 ! \
      filesink location="$tmp/tape.mpg" \
      ivtvsrc device=/dev/vbi0 standard=ntsc num-buffers=130 ! \
      closedcaption/x-cea-608,format=s334-1a ! filesink location="$tmp/cc" ||
      { cat "$tmp/log"; fail "pipeline failed"; }
    [ "$(stat -c %s "$tmp/cc")" = 780 ] || fail "$(stat -c %s "$tmp/cc") bytes, not 130 frames of 3+3"
    [ "$(stat -c %s "$tmp/tape.mpg")" -gt 100000 ] || fail "MPEG capture short"
    has_text s334-1a "$tmp/cc" ;;
  raw-zvbi|raw-ivtv)
    [ "$have_zvbi" = 1 ] || skip "built without libzvbi (meson option zvbi)"
    if [ "$case" = raw-zvbi ]; then prof=tv-streaming mode=; else prof=pvr250 mode=vbi-mode=raw; fi
    # shellcheck disable=SC2086
    run $prof ivtvsrc device=/dev/vbi0 standard=ntsc $mode num-buffers=130 ! \
      closedcaption/x-cea-608,format=raw ! filesink location="$tmp/cc" ||
      { cat "$tmp/log"; fail "pipeline failed"; }
    [ "$(stat -c %s "$tmp/cc")" = 260 ] || fail "$(stat -c %s "$tmp/cc") bytes, not 130 frames of 2"
    has_text raw "$tmp/cc" ;;
  cccombiner)
    [ "$have_zvbi" = 1 ] || skip "built without libzvbi (the tv-streaming node is raw)"
    gst-inspect-1.0 x264enc >/dev/null 2>&1 || skip "x264enc missing (gstreamer1.0-plugins-ugly)"
    gst-inspect-1.0 cccombiner >/dev/null 2>&1 || skip "cccombiner missing (gstreamer1.0-plugins-bad)"
    command -v ffprobe >/dev/null || skip "ffprobe missing (ffmpeg)"
    run tv-streaming -e cccombiner name=c ! x264enc speed-preset=ultrafast ! \
      mp4mux ! filesink location="$tmp/cc.mp4" \
      ivtvsrc device=/dev/video0 standard=ntsc num-buffers=60 ! videoconvert ! c.sink \
      ivtvsrc device=/dev/vbi0 standard=ntsc num-buffers=60 ! ccconverter ! \
      closedcaption/x-cea-708,format=cc_data ! c.caption ||
      { cat "$tmp/log"; fail "pipeline failed"; }
    ffprobe -hide_banner "$tmp/cc.mp4" > "$tmp/probe" 2>&1
    grep 'Video:' "$tmp/probe"
    grep 'Video:.*Closed Captions' "$tmp/probe" >/dev/null || fail "no Closed Captions on the video stream" ;;
  wss)
    for i in 2 3; do
      run pvr250 ivtvsrc device=/dev/vbi0 standard=pal input=$i num-buffers=10 ! \
        fakesink || { cat "$tmp/log"; fail "pipeline failed"; }
      grep -o 'ivtvsrc-wss, aspect=(string)[0-9:]*' "$tmp/log" | head -1 > "$tmp/wss$i"
    done
    grep -q '4:3$' "$tmp/wss2" || fail "Composite 1: '$(cat "$tmp/wss2")', not 4:3"
    grep -q '16:9$' "$tmp/wss3" || fail "S-Video 2: '$(cat "$tmp/wss3")', not 16:9"
    echo "Composite 1: 4:3, S-Video 2: 16:9" ;;
  provider)
    timeout 60 "$emu" --profile pvr250 -- gst-device-monitor-1.0 > "$tmp/all" 2>&1
    timeout 60 "$emu" --profile pvr250 -- gst-device-monitor-1.0 Video/Source > "$tmp/video" 2>&1
    grep -A3 'WinTV PVR 250 (ivtv) VBI' "$tmp/all" > "$tmp/vbi" || { cat "$tmp/all"; fail "no VBI device listed"; }
    grep -q 'class : Captions/Source' "$tmp/vbi" || { cat "$tmp/vbi"; fail "not in class Captions/Source"; }
    grep -q 'closedcaption/x-cea-608' "$tmp/vbi" || { cat "$tmp/vbi"; fail "caps are not CEA-608"; }
    grep -q 'device.path = /dev/vbi0\|(ivtv) VBI' "$tmp/video" && { cat "$tmp/video"; fail "a video picker would offer the VBI node"; }
    grep -q 'WinTV PVR 250 (ivtv)' "$tmp/video" || { cat "$tmp/video"; fail "the MPEG node is not listed"; }
    echo "VBI node: Captions/Source, not among Video/Source" ;;
  err-cc-on-pal)
    expect_error pvr250 "closed captions (CEA-608 on line 21) exist only on 60 Hz" \
      ivtvsrc device=/dev/vbi0 standard=pal vbi-services=cc num-buffers=5 ! fakesink ;;
  err-wss-on-ntsc)
    expect_error pvr250 "exists only on 50 Hz standards" \
      ivtvsrc device=/dev/vbi0 standard=ntsc vbi-services=wss num-buffers=5 ! fakesink ;;
  err-no-vbi)
    expect_error notcapture "cannot capture video or VBI" \
      ivtvsrc device=/dev/video0 num-buffers=5 ! fakesink ;;
  err-sliced-on-raw)
    expect_error tv-streaming "offers only raw VBI, not sliced VBI" \
      ivtvsrc device=/dev/vbi0 standard=ntsc vbi-mode=sliced num-buffers=5 ! fakesink ;;
  err-raw-no-zvbi)
    [ "$have_zvbi" = 0 ] || skip "this build has libzvbi (meson -Dzvbi=disabled runs this case)"
    expect_error tv-streaming "built without libzvbi" \
      ivtvsrc device=/dev/vbi0 standard=ntsc num-buffers=5 ! fakesink ;;
  *) fail "unknown case $case" ;;
esac
echo "PASS: $case"
