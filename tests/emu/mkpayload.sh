#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# mkpayload.sh - makes the payload clips of one input content and standard
# family at build time: about one second (two closed GOPs) of the input's
# picture, 4:3, interlaced in the standard's field order, with MPEG-1 Layer
# II audio, in each stream type of V4L2_CID_MPEG_STREAM_TYPE: encoded with
# GStreamer's mpeg2enc and avenc_mp2, multiplexed with mjpegtools' mplex
# (Debian mjpegtools; GStreamer's mplex element hangs now and then at EOS)
# and GStreamer's mpegtsmux:
#   OUT.mpg        0 MPEG-2 PS: 720x480/576, 2048-byte packs, system header
#                    (mplex -f 3, generic MPEG-2)
#   OUT.ts         1 MPEG-2 TS: the same video and audio (mpegtsmux)
#   OUT.mpeg1.mpg  2 MPEG-1 system stream: VCD-size MPEG-1 video (mplex -f 0)
#   OUT.dvd.mpg    3 DVD: the PS video in DVD packs with the NAV packs
#                    dvdauthor fills in (mplex -f 8, "dvd-nav")
#   OUT.vcd.mpg    4 VCD: 352x240/288 MPEG-1 at 1150 kbit/s, 44.1 kHz audio
#                    (mplex -f 1)
#   OUT.svcd.mpg   5 SVCD: 480x480/576 MPEG-2, 44.1 kHz audio (mplex -f 4)
#   mkpayload.sh OUT_BASENAME PATTERN ntsc|pal AUDIO_FREQ|silence
set -eu
out=$1 pattern=$2 family=$3 freq=$4

case $family in
  # NTSC: bottom field first, PAL: top field first (V4L2_FIELD_INTERLACED)
  ntsc) h=480 vh=240 fr=30000/1001 frames=30 norm=n gop=15 field=2 ;;
  pal)  h=576 vh=288 fr=25/1 frames=25 norm=p gop=13 field=1 ;;
  *) echo "mkpayload.sh: family must be ntsc or pal, not '$family'" >&2; exit 2 ;;
esac
if [ "$freq" = silence ]; then wave="wave=silence"; else wave="freq=$freq"; fi
tmp=$out.tmp
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

# The picture: the input's test pattern under a veil of snow (tape noise),
# which keeps the encoder near its ceiling (a clean pattern needs 0.5-4
# Mbit/s): then one second of pacing at the card's bitrate is about one
# second of the clip, and a capture's duration matches the time it took.
# No signal stays plain black.  W is the width of the encoding.
picture () {
  raw="video/x-raw,width=$1,height=$2,framerate=$fr,format=I420"
  if [ "$pattern" = black ]; then
    echo "videotestsrc pattern=black num-buffers=$frames ! $raw"
  else
    echo "videotestsrc pattern=$pattern num-buffers=$frames ! $raw ! veil.sink_0
      videotestsrc pattern=snow num-buffers=$frames ! $raw ! veil.sink_1
      compositor name=veil sink_1::alpha=0.25 ! $raw"
  fi
}
# gst NAME PIPELINE: one bounded run (a stuck muxer must not hang the build)
gst () {
  name=$1
  shift
  # shellcheck disable=SC2068
  timeout 300 gst-launch-1.0 -q $@ >"$tmp/$name.log" 2>&1 ||
    { cat "$tmp/$name.log" >&2; echo "mkpayload.sh: $name failed" >&2; exit 1; }
}
# the video elementary streams: DVD-style MPEG-2 (for PS, DVD and TS),
# VCD MPEG-1, SVCD MPEG-2; closed GOPs so that a clip loops cleanly
enc="norm=$norm aspect=2 closed-gop=true min-gop-size=$gop max-gop-size=$gop"
gst dvd-video "$(picture 720 $h) ! mpeg2enc format=8 bitrate=5600 $enc
  interlace-mode=1 playback-field-order=$field ! filesink location=$tmp/dvd.m2v"
gst vcd-video "$(picture 352 $vh) ! mpeg2enc format=1 $enc
  ! filesink location=$tmp/vcd.m1v"
gst svcd-video "$(picture 480 $h) ! mpeg2enc format=4 $enc
  interlace-mode=1 playback-field-order=$field ! filesink location=$tmp/svcd.m2v"
# audio: 48 kHz for PS/DVD/TS (ivtv's default), 44.1 kHz for (S)VCD
mp2 () {
  gst "audio-$1" "audiotestsrc $wave num-buffers=$2 samplesperbuffer=1152
    ! audio/x-raw,rate=$1,channels=2 ! avenc_mp2 bitrate=224000
    ! filesink location=$tmp/a$1.mp2"
}
mp2 48000 41
mp2 44100 38
# mplex FORMAT VIDEO AUDIO OUT
mplex () {
  # shellcheck disable=SC2086 # $1 is the format and its options
  command mplex -v 0 -f $1 -o "$4" "$tmp/$2" "$tmp/$3" >"$tmp/mplex.log" 2>&1 ||
    { cat "$tmp/mplex.log" >&2; echo "mkpayload.sh: mplex -f $1 for $4 failed" >&2; exit 1; }
}
# The generic formats multiplex at a variable rate under a high ceiling
# (-V -r), so that the pack clock (SCR) of a clip spans less than the
# clip's second and runs on without a step back when the clip loops.  VCD
# is constant-rate by definition and SVCD's start-up delay is long: their
# SCR steps back by up to 0.3 s at each loop (tests/emu/README.md).
mplex "3 -V -r 10080" dvd.m2v a48000.mp2 "$out.mpg"
mplex "0 -V -r 3000" vcd.m1v a44100.mp2 "$out.mpeg1.mpg"
mplex 8 dvd.m2v a48000.mp2 "$out.dvd.mpg"
mplex 1 vcd.m1v a44100.mp2 "$out.vcd.mpg"
mplex "4 -V" svcd.m2v a44100.mp2 "$out.svcd.mpg"
gst mux-ts "filesrc location=$tmp/dvd.m2v ! mpegvideoparse ! mpegtsmux name=m
  ! filesink location=$out.ts filesrc location=$tmp/a48000.mp2 ! mpegaudioparse ! m."

for f in "$out.mpg" "$out.ts" "$out.mpeg1.mpg" "$out.dvd.mpg" "$out.vcd.mpg" \
    "$out.svcd.mpg"; do
  if [ ! -s "$f" ]; then
    echo "mkpayload.sh: $f was not made (is gstreamer1.0-plugins-bad/-libav installed?)" >&2
    exit 1
  fi
done
