#!/usr/bin/env bash
# The README's main job: installs what is missing, builds, then captures about
# 10 seconds from the composite input of the emulated Hauppauge PVR-250 into
# capture.mpg (a DVD-ready MPEG-2 program stream) and shows what
# gst-discoverer-1.0 finds in it.
#   bash tools/capture-demo.sh [OUTPUT.mpg]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-capture.mpg}
bash tools/deps.sh
bash tools/build.sh

# The emulated card delivers 6 Mbit/s like a real PVR-250: 115 buffers of
# 64 KiB are about 10 seconds of tape.
meson devenv -C build --workdir "$PWD" \
  ivtv-emu --profile pvr250 -- \
  gst-launch-1.0 ivtvsrc input=composite standard=ntsc num-buffers=115 \
  ! filesink location="$out"

echo
gst-discoverer-1.0 "$out"
