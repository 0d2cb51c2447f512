#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# test-cousins.sh - ivtvsrc on the cousin cards' emulated nodes: what the
# element probes and negotiates, a capture checked against the emulator's
# reference (frame-check for raw frames), and each driver quirk.
#   test-cousins.sh IVTV_EMU FRAME_CHECK CASE
# GST_PLUGIN_PATH must name the built plugin (meson.build sets it).
set -u
emu=$1
check=$2
case_=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail () { echo "FAIL: $*"; [ -r "$tmp/log" ] && tail -30 "$tmp/log"; exit 1; }
command -v gst-launch-1.0 >/dev/null || { echo "SKIP: gst-launch-1.0 missing"; exit 77; }

# launch PROFILE ARGS...: gst-launch -v under the profile, log in $tmp/log
launch () {
  prof=$1; shift
  "$emu" --profile "$prof" -- timeout 60 gst-launch-1.0 -v "$@" \
    > "$tmp/log" 2>&1 || fail "gst-launch exited with $?"
}
# the caps ivtvsrc's source pad settled on
src_caps () {
  grep -m1 'GstIvtvSrc:.*src: caps = ' "$tmp/log" | sed 's/.*caps = //'
}
want_caps () {
  c=$(src_caps)
  for w in "$@"; do
    case "$c" in *"$w"*) ;; *) fail "caps '$c' lack '$w'" ;; esac
  done
  echo "ok: caps $c"
}

case "$case_" in
  stk1160-mmap-ntsc)
    # streaming, the default NTSC-M: 720x480 UYVY at 30000/1001, byte for byte
    launch stk1160 ivtvsrc num-buffers=8 io-mode=mmap ! \
      filesink location="$tmp/f.uyvy"
    want_caps "format=(string)UYVY" "width=(int)720" "height=(int)480" \
      "framerate=(fraction)30000/1001" "interlace-mode=(string)interleaved"
    "$check" UYVY 720x480 1 "$tmp/f.uyvy" 8 || fail "frames differ" ;;
  usbtv-mmap)
    # usbtv: streaming YUYV 720x480 at the 525-line rate, Composite
    # (content 1), byte for byte
    launch usbtv ivtvsrc num-buffers=8 io-mode=mmap ! \
      filesink location="$tmp/f.yuyv"
    want_caps "format=(string)YUY2" "width=(int)720" "height=(int)480" \
      "framerate=(fraction)30000/1001" "interlace-mode=(string)interleaved"
    "$check" YUYV 720x480 1 "$tmp/f.yuyv" 8 || fail "frames differ" ;;
  usbtv-read-pal)
    # read() (vb2's file I/O), PAL, S-Video (content 0)
    launch usbtv ivtvsrc num-buffers=5 io-mode=rw standard=pal \
      input=S-Video ! filesink location="$tmp/f.yuyv"
    want_caps "format=(string)YUY2" "width=(int)720" "height=(int)576" \
      "framerate=(fraction)25/1"
    "$check" YUYV 720x576 0 "$tmp/f.yuyv" 5 || fail "frames differ" ;;
  stk1160-drops-counted|usbtv-drops-counted)
    # the driver drops every 5th frame and numbers only the frames it
    # delivers (stk1160_buffer_done, usbtv_image_chunk): no sequence gap,
    # yet ivtvsrc counts the loss from the time stamps and warns (at least
    # 5 of the 8 dropped while 40 are delivered; a slow start may add some)
    prof=${case_%%-*}
    "$emu" --profile "$prof" --fault skip-every=5 -- timeout 60 \
      gst-launch-1.0 -m ivtvsrc num-buffers=40 io-mode=mmap ! fakesink \
      > "$tmp/log" 2>&1 || fail "gst-launch exited with $?"
    lost=$(grep -o 'frames-lost=(guint64)[0-9]*, final=(boolean)true' \
      "$tmp/log" | tail -1 | sed 's/.*)\([0-9]*\),.*/\1/')
    [ -n "$lost" ] && [ "$lost" -ge 5 ] ||
      fail "frames-lost=${lost:-none} for 40 frames with every 5th dropped"
    grep -q 'WARNING: .*Lost [0-9]* frame' "$tmp/log" || fail "no loss warning"
    echo "ok: $lost frames lost counted" ;;
  stk1160-read-pal)
    # read() (vb2's file I/O), PAL, the S-Video input (content 0)
    launch stk1160 ivtvsrc num-buffers=5 io-mode=rw standard=pal \
      input=S-Video ! filesink location="$tmp/f.uyvy"
    want_caps "format=(string)UYVY" "width=(int)720" "height=(int)576" \
      "framerate=(fraction)25/1"
    "$check" UYVY 720x576 0 "$tmp/f.uyvy" 5 || fail "frames differ" ;;
  stk1160-no-s-parm)
    # the driver has no S_PARM (ENOTTY) and no frame sizes to enumerate: a
    # rate asked for downstream is the standard's, and the capture runs at it
    launch stk1160 ivtvsrc num-buffers=4 standard=pal ! \
      video/x-raw,framerate=25/1 ! fakesink
    want_caps "framerate=(fraction)25/1" "height=(int)576"
    "$emu" --profile stk1160 -- sh -c 'v4l2-ctl -d /dev/video0 --set-parm=25 2>&1;
      v4l2-ctl -d /dev/video0 --list-framesizes=UYVY 2>&1' > "$tmp/ctl"
    cat "$tmp/ctl"
    grep -q 'Inappropriate ioctl' "$tmp/ctl" || fail "S_PARM did not say ENOTTY"
    # a rate the standard cannot give is refused at negotiation, not faked
    "$emu" --profile stk1160 -- timeout 30 gst-launch-1.0 ivtvsrc num-buffers=2 \
      standard=pal ! video/x-raw,framerate=30000/1001 ! fakesink \
      > "$tmp/log" 2>&1 && fail "NTSC's rate on a PAL capture was accepted"
    echo "ok: 30000/1001 on PAL refused" ;;
  pvrusb2-mpeg)
    # one node, MPEG-2 PS by read(); the composite input's clip
    launch pvrusb2 ivtvsrc num-buffers=40 input=composite ! \
      filesink location="$tmp/c.mpg"
    want_caps "video/mpeg" "mpegversion=(int)2" "systemstream=(boolean)true"
    [ "$(head -c 4 "$tmp/c.mpg" | od -An -tx1 | tr -d ' ')" = 000001ba ] ||
      fail "the capture does not start with a pack header"
    gst-discoverer-1.0 "$tmp/c.mpg" > "$tmp/disc" 2>&1
    grep -q 'video #[0-9]*: MPEG-2 Video' "$tmp/disc" || { cat "$tmp/disc"; fail "no MPEG-2 video"; }
    echo "ok: $(wc -c < "$tmp/c.mpg") bytes of MPEG-2 PS" ;;
  pvrusb2-inputs)
    # inputs television / s-video / composite / radio, named as the driver;
    # streaming is refused with a message naming read()
    "$emu" --profile pvrusb2 -- v4l2-ctl -d /dev/video0 --list-inputs > "$tmp/in"
    for n in television s-video composite radio; do
      grep -q "Name *: $n\$" "$tmp/in" || { cat "$tmp/in"; fail "no input $n"; }
    done
    "$emu" --profile pvrusb2 -- timeout 30 gst-launch-1.0 ivtvsrc io-mode=mmap \
      num-buffers=2 ! fakesink > "$tmp/log" 2>&1 && fail "mmap accepted"
    grep -q 'rw' "$tmp/log" || fail "the error does not name read() (rw)"
    echo "ok: inputs and read() only" ;;
  hdpvr-ts)
    # a transport stream (caps video/mpegts, systemstream=true), decoded by
    # gst-discoverer as H.264 + AAC
    launch hdpvr ivtvsrc num-buffers=60 input=S-Video ! \
      filesink location="$tmp/h.ts"
    want_caps "video/mpegts" "systemstream=(boolean)true" "packetsize=(int)188"
    gst-discoverer-1.0 "$tmp/h.ts" > "$tmp/disc" 2>&1
    cat "$tmp/disc"
    grep -q 'video #[0-9]*: H.264' "$tmp/disc" || fail "no H.264 video"
    grep -q 'audio #[0-9]*: MPEG-4 AAC' "$tmp/disc" || fail "no AAC audio" ;;
  hdpvr-no-signal)
    # no signal: G_FMT is EFAULT (and ENUMINPUT says nothing); ivtvsrc warns
    # "No signal" and records, no error
    "$emu" --profile hdpvr --fault no-signal -- v4l2-ctl --get-fmt-video \
      > "$tmp/ctl" 2>&1
    grep -q 'Bad address' "$tmp/ctl" || { cat "$tmp/ctl"; fail "G_FMT was not EFAULT"; }
    "$emu" --profile hdpvr --fault no-signal -- timeout 60 gst-launch-1.0 \
      ivtvsrc num-buffers=20 ! fakesink > "$tmp/log" 2>&1 || fail "exit $?"
    grep -q "WARNING: .*No signal on input 'Component'" "$tmp/log" ||
      fail "no no-signal warning"
    ! grep -q '^ERROR' "$tmp/log" || fail "an error"
    echo "ok: EFAULT is no signal" ;;
  hdpvr-half-buffer)
    # a reader that stops inside the driver's 8 KiB USB buffer leaves its
    # read position for the next stream (hdpvr_read buf->pos): the next
    # reader starts 1000000 % 8192 = 576 bytes into its stream, the one
    # after that (100000 bytes later) at 100576 % 8192 = 2272
    "$emu" --profile hdpvr --fault fast -- sh -c "head -c 1000000 /dev/video0 \
      > $tmp/a.ts; head -c 100000 /dev/video0 > $tmp/b.ts; head -c 200000 \
      /dev/video0 > $tmp/c.ts" || fail "head failed"
    cmp -s -i 0:576 -n 99000 "$tmp/b.ts" "$tmp/a.ts" ||
      fail "the second stream does not start 576 bytes in"
    cmp -s -i 0:2272 -n 190000 "$tmp/c.ts" "$tmp/a.ts" ||
      fail "the third stream does not start 2272 bytes in"
    echo "ok: the half-read USB buffer is read on by the next stream" ;;
  hdpvr-busy)
    # input, standard and audio input changes are EBUSY while it streams
    "$emu" --profile hdpvr -- sh -c '
      head -c 3000000 /dev/video0 > /dev/null & sleep 1
      v4l2-ctl -i 2; v4l2-ctl -s pal; v4l2-ctl --set-audio-input=1; wait
      v4l2-ctl -i 2' > "$tmp/log" 2>&1
    cat "$tmp/log"
    [ "$(grep -c 'Device or resource busy' "$tmp/log")" -eq 3 ] ||
      fail "not three EBUSY while streaming"
    grep -q 'Video input set to 2' "$tmp/log" || fail "S_INPUT refused when idle" ;;
  cx18-yuv-mmap)
    # the HVR-1600's YUV node streams: UYVY by mmap, byte for byte
    "$emu" --card cx18 -- timeout 60 gst-launch-1.0 -v ivtvsrc \
      device=/dev/video32 io-mode=mmap num-buffers=6 ! video/x-raw,format=UYVY ! \
      filesink location="$tmp/f.uyvy" > "$tmp/log" 2>&1 || fail "exit $?"
    want_caps "format=(string)UYVY" "width=(int)720" "height=(int)480"
    "$check" UYVY 720x480 0 "$tmp/f.uyvy" 6 || fail "frames differ" ;;
  ivtv-yuv-nv12)
    # ivtvsrc on the YUV node: HM12 read(), detiled: NV12 downstream, the
    # emulator's picture byte for byte, interlaced as the standard says
    "$emu" --card pvr250 -- timeout 60 gst-launch-1.0 -v ivtvsrc \
      device=/dev/video32 num-buffers=5 ! filesink location="$tmp/f.nv12" \
      > "$tmp/log" 2>&1 || fail "exit $?"
    want_caps "format=(string)NV12" "width=(int)720" "height=(int)480" \
      "framerate=(fraction)30000/1001" "interlace-mode=(string)interleaved"
    "$check" NV12 720x480 0 "$tmp/f.nv12" 5 || fail "frames differ" ;;
  ivtv-yuv-nv12-pal)
    "$emu" --card pvr150 -- timeout 60 gst-launch-1.0 -v ivtvsrc \
      device=/dev/video32 standard=pal input="S-Video 1" num-buffers=4 ! \
      video/x-raw,format=NV12 ! filesink location="$tmp/f.nv12" \
      > "$tmp/log" 2>&1 || fail "exit $?"
    want_caps "format=(string)NV12" "height=(int)576" "framerate=(fraction)25/1"
    "$check" NV12 720x576 1 "$tmp/f.nv12" 4 || fail "frames differ" ;;
  cx18-yuv-hm12-mmap)
    # the cx18 YUV node's HM12 by streaming, detiled too
    "$emu" --card cx18 -- timeout 60 gst-launch-1.0 -v ivtvsrc \
      device=/dev/video32 io-mode=mmap num-buffers=5 ! video/x-raw,format=NV12 ! \
      filesink location="$tmp/f.nv12" > "$tmp/log" 2>&1 || fail "exit $?"
    want_caps "format=(string)NV12" "height=(int)480"
    "$check" NV12 720x480 0 "$tmp/f.nv12" 5 || fail "frames differ" ;;
  ivtv-pcm-audio)
    # ivtvsrc on the PCM node: audio/x-raw S16LE stereo 48 kHz, the card's
    # samples byte for byte; each buffer lasts its samples, offsets count
    # sample frames without a gap
    "$emu" --card pvr250 -- timeout 60 gst-launch-1.0 -v ivtvsrc \
      device=/dev/video24 num-buffers=25 ! tee name=t ! queue ! \
      filesink location="$tmp/p.raw" t. ! queue ! fakesink silent=false \
      > "$tmp/log" 2>&1 || fail "exit $?"
    want_caps "audio/x-raw" "format=(string)S16LE" "layout=(string)interleaved" \
      "channels=(int)2" "rate=(int)48000"
    "$check" S16LE - 0 "$tmp/p.raw" 100000 || fail "samples differ"
    grep 'last-message = chain' "$tmp/log" | sed 's/.*(\([0-9]*\) bytes, .*duration: \([0-9:.]*\), offset: \([0-9]*\), offset_end: \([0-9]*\).*/\1 \2 \3 \4/' |
      awk 'BEGIN { next_off = 0 }
        { split($2, t, ":"); d = t[1] * 3600 + t[2] * 60 + t[3]
          if ($3 != next_off) { print "offset " $3 " after " next_off; bad = 1 }
          if ($4 - $3 != $1 / 4) { print "offset_end " $4 " for " $1 " bytes"; bad = 1 }
          if (d < $1 / 192000 - 0.000001 || d > $1 / 192000 + 0.000001) {
            print "duration " $2 " for " $1 " bytes"; bad = 1 }
          next_off = $4; n++ }
        END { print n " buffers checked"; exit bad || n < 25 }' ||
      fail "durations or offsets wrong" ;;
  cx18-pcm-audio)
    "$emu" --card cx18 -- timeout 60 gst-launch-1.0 -v ivtvsrc \
      device=/dev/video24 num-buffers=10 ! filesink location="$tmp/p.raw" \
      > "$tmp/log" 2>&1 || fail "exit $?"
    want_caps "audio/x-raw" "rate=(int)48000"
    "$check" S16LE - 0 "$tmp/p.raw" 40000 || fail "samples differ" ;;
  ivtv-radio-error)
    # the radio node carries no samples: one error naming the PCM node
    "$emu" --card pvr250 -- timeout 60 gst-launch-1.0 ivtvsrc \
      device=/dev/radio0 num-buffers=4 ! fakesink > "$tmp/log" 2>&1 &&
      fail "the radio node was captured"
    cat "$tmp/log"
    [ "$(grep -c '^ERROR: from element' "$tmp/log")" -eq 1 ] || fail "not one error"
    grep -q "is a radio node: .*carries no samples.*ivtvsrc device=/dev/video24" \
      "$tmp/log" || fail "the error does not point to the PCM node" ;;
  ivtv-yuv-raw)
    # the ivtv card's YUV node read as it is (head; not dd, whose buffer
    # libasan refuses under ASan): HM12 frames, 720x480 for NTSC, G_FMT as
    # ivtv_g_fmt_vid_cap() answers
    "$emu" --card pvr250 -- sh -c 'v4l2-ctl -d /dev/video32 --get-fmt-video;
      head -c $((518400 * 3)) /dev/video32 > '"$tmp/y.hm12" \
      > "$tmp/log" 2>&1 || fail "exit $?"
    cat "$tmp/log"
    for w in "Width/Height *: 720/480" "'HM12'" "Bytes per Line *: 720" \
        "Size Image *: 518400" "Field *: Interlaced"; do
      grep -q "$w" "$tmp/log" || fail "G_FMT lacks $w"
    done
    "$check" HM12 720x480 0 "$tmp/y.hm12" 3 || fail "frames differ" ;;
  ivtv-pcm-raw)
    # the PCM node: no format ioctls, 192000 bytes a second of S16LE stereo
    "$emu" --card pvr150 -- sh -c 'v4l2-ctl -d /dev/video24 --get-fmt-video;
      head -c 192000 /dev/video24 > '"$tmp/p.raw" \
      > "$tmp/log" 2>&1
    cat "$tmp/log"
    grep -q 'Inappropriate ioctl' "$tmp/log" || fail "G_FMT was not ENOTTY"
    "$check" S16LE - 0 "$tmp/p.raw" 192000 || fail "samples differ" ;;
  *) echo "unknown case $case_"; exit 2 ;;
esac
