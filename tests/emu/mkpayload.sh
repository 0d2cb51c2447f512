#!/bin/sh
# mkpayload.sh - makes one payload clip of the MPEG engine at build time:
# about one second (two GOPs) of MPEG-2 video (mpeg2enc) with MPEG-1 Layer II
# audio, muxed both as a program stream (OUT.mpg) and a transport stream
# (OUT.ts), with Debian's GStreamer plugins.
#   mkpayload.sh OUT_BASENAME PATTERN ntsc|pal AUDIO_FREQ|silence
set -eu
out=$1 pattern=$2 family=$3 freq=$4

case $family in
  ntsc) h=480 fr=30000/1001 frames=30 norm=n ;;
  pal)  h=576 fr=25/1 frames=25 norm=p ;;
  *) echo "mkpayload.sh: family must be ntsc or pal, not '$family'" >&2; exit 2 ;;
esac
if [ "$freq" = silence ]; then wave="wave=silence"; else wave="freq=$freq"; fi

# The picture: the input's test pattern under a veil of snow (tape noise),
# which keeps the encoder near its 6 Mbit/s (a clean pattern needs 0.5-4
# Mbit/s): then one second of pacing at the card's bitrate is about one
# second of the clip, and a capture's duration matches the time it took.
# No signal stays plain black.
raw="video/x-raw,width=720,height=$h,framerate=$fr,format=I420"
if [ "$pattern" = black ]; then
  picture="videotestsrc pattern=black num-buffers=$frames ! $raw"
else
  picture="videotestsrc pattern=$pattern num-buffers=$frames ! $raw ! veil.sink_0
    videotestsrc pattern=snow num-buffers=$frames ! $raw ! veil.sink_1
    compositor name=veil sink_1::alpha=0.25 ! $raw"
fi

rm -f "$out.mpg" "$out.ts"
# shellcheck disable=SC2086 # $picture is a pipeline description
gst-launch-1.0 -q \
  $picture \
  ! mpeg2enc format=3 bitrate=6000 norm=$norm ! mpegvideoparse ! tee name=vt \
  vt. ! queue ! mpegpsmux name=pm ! filesink location="$out.mpg" \
  vt. ! queue ! mpegtsmux name=tm ! filesink location="$out.ts" \
  audiotestsrc $wave num-buffers=47 samplesperbuffer=1024 \
  ! audio/x-raw,rate=48000,channels=2 ! avenc_mp2 bitrate=224000 \
  ! mpegaudioparse ! tee name=at \
  at. ! queue ! pm. \
  at. ! queue ! tm. >/dev/null

for f in "$out.mpg" "$out.ts"; do
  if [ ! -s "$f" ]; then
    echo "mkpayload.sh: $f was not made (is gstreamer1.0-plugins-bad/-libav installed?)" >&2
    exit 1
  fi
done
