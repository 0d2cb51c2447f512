#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# mkpayload-h264.sh - the HD PVR's payload clip of one input content and
# standard family, made at build time: about one second of the input's
# picture (720x480/576, the S-Video and Composite inputs' SD signal),
# H.264 (x264enc, one GOP; with the TS about 7.5 Mbit/s, near the hdpvr's
# default bitrate of 6.5 Mbit/s at which the engine paces it) and AAC (avenc_aac, 48 kHz stereo) in an MPEG-2 transport stream
# (mpegtsmux): what the HD PVR sends ("MPEG2-TS with AVC/AAC streams",
# hdpvr-video.c vidioc_enum_fmt_vid_cap()).
#   mkpayload-h264.sh OUT_BASENAME PATTERN ntsc|pal AUDIO_FREQ|silence
# writes OUT_BASENAME.h264.ts
set -eu
out=$1 pattern=$2 family=$3 freq=$4
case $family in
  ntsc) h=480 fr=30000/1001 frames=30 ;;
  pal)  h=576 fr=25/1 frames=25 ;;
  *) echo "mkpayload-h264.sh: family must be ntsc or pal" >&2; exit 2 ;;
esac
if [ "$freq" = silence ]; then wave="wave=silence"; else wave="freq=$freq"; fi
raw="video/x-raw,width=720,height=$h,framerate=$fr,format=I420"
if [ "$pattern" = black ]; then
  pic="videotestsrc pattern=black num-buffers=$frames ! $raw"
else
  pic="videotestsrc pattern=$pattern num-buffers=$frames ! $raw ! veil.sink_0
    videotestsrc pattern=snow num-buffers=$frames ! $raw ! veil.sink_1
    compositor name=veil sink_1::alpha=0.25 ! $raw"
fi
log=$(mktemp)
trap 'rm -f "$log" "$out.h264.ts.tmp"' EXIT
# shellcheck disable=SC2086
timeout 300 gst-launch-1.0 -q $pic ! x264enc bitrate=4800 vbv-buf-capacity=1000 key-int-max=$frames \
  speed-preset=ultrafast tune=zerolatency ! h264parse ! \
  video/x-h264,stream-format=byte-stream,alignment=au ! mpegtsmux name=m ! \
  filesink location="$out.h264.ts.tmp" \
  audiotestsrc $wave num-buffers=47 samplesperbuffer=1024 ! \
  audio/x-raw,rate=48000,channels=2 ! avenc_aac bitrate=192000 ! aacparse ! m. \
  > "$log" 2>&1 || { cat "$log" >&2; echo "mkpayload-h264.sh: failed" >&2; exit 1; }
[ -s "$out.h264.ts.tmp" ] ||
  { echo "mkpayload-h264.sh: no clip (x264enc/avenc_aac/mpegtsmux missing?)" >&2; exit 1; }
mv "$out.h264.ts.tmp" "$out.h264.ts"
