#!/usr/bin/env bash
# Digitise one tape from an MPEG encoder card (Hauppauge PVR-150/250/350/500 and the like).
#   examples/capture-tape.sh OUTPUT.mpg [INPUT] [STANDARD] [DEVICE]
# INPUT defaults to composite, STANDARD to ntsc, DEVICE to /dev/video0.
# Ctrl-C stops the capture; -e makes the pipeline finish the file cleanly.
set -euo pipefail
out=${1:?usage: $0 OUTPUT.mpg [INPUT] [STANDARD] [DEVICE]}
input=${2:-composite}
standard=${3:-ntsc}
device=${4:-/dev/video0}
exec gst-launch-1.0 -e ivtvsrc device="$device" input="$input" standard="$standard" \
  ! filesink location="$out"
