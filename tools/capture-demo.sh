#!/usr/bin/env bash
# The README's main job: installs what is missing, builds, then captures about
# 10 seconds from the composite input of the emulated Hauppauge PVR-250 into
# capture.mpg (the card's DVD-compatible MPEG-2 program stream, which
# dvdauthor takes as it is: docs/capturing-tapes.md section 5) and shows
# what gst-discoverer-1.0 finds in it.
#   bash tools/capture-demo.sh [OUTPUT.mpg]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-capture.mpg}
bash tools/deps.sh
bash tools/build.sh

# The emulated card delivers 6 Mbit/s like a real PVR-250. After 10 s the
# capture gets SIGINT, as from Ctrl-C; -e makes gst-launch finish the file
# cleanly (timeout then exits 124, which is the expected end here).
rc=0
# build/ivtv-env (the README's way to run from the build tree) execs the
# command: a Ctrl-C here ends the capture cleanly, no Python traceback
build/ivtv-env ivtv-emu --profile pvr250 -- \
  timeout --foreground -s INT 10 gst-launch-1.0 -e ivtvsrc input=composite standard=ntsc stream-type=dvd \
  ! filesink location="$out" || rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 124 ] || exit "$rc"

echo
gst-discoverer-1.0 "$out"
