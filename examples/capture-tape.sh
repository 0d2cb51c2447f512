#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Digitise one tape from an MPEG encoder card (Hauppauge PVR-150/250/350/500 and the like).
#   examples/capture-tape.sh OUTPUT.mpg [INPUT] [STANDARD] [DEVICE]
# INPUT defaults to composite, STANDARD to ntsc, DEVICE to /dev/video0.
# Environment:
#   DURATION=SECONDS     stop after this long (default: run until Ctrl-C or the end of the tape)
#   END_OF_TAPE=SECONDS  stop after this long without signal (default 10; needs an ivtvsrc
#                        with the signal-timeout property, ignored otherwise)
# Ctrl-C stops the capture; -e makes the pipeline finish the file cleanly (EOS), so the
# file is complete (the card's MPEG-2 program stream, byte for byte; for a DVD see
# docs/capturing-tapes.md section 5: stream-type=dvd).
set -euo pipefail
usage="usage: $0 OUTPUT.mpg [INPUT] [STANDARD] [DEVICE]"
out=${1:?$usage}
input=${2:-composite}
standard=${3:-ntsc}
device=${4:-/dev/video0}

if ! gst-inspect-1.0 ivtvsrc > /dev/null 2>&1; then
  echo "$0: GStreamer has no ivtvsrc element: install the plugin (meson install -C build)" >&2
  echo "  or run this under 'meson devenv -C build'." >&2
  exit 1
fi
[ -e "$device" ] || echo "$0: warning: $device does not exist (ls /dev/video*)" >&2

opts=()
if gst-inspect-1.0 ivtvsrc 2>/dev/null | grep -q 'signal-timeout'; then
  opts+=("signal-timeout=${END_OF_TAPE:-10}")
fi

# queue: a slow disk must not stall the card (64 MB, no buffer or time limit)
pipeline=(ivtvsrc device="$device" input="$input" standard="$standard" "${opts[@]}"
  ! queue max-size-buffers=0 max-size-time=0 max-size-bytes=67108864
  ! filesink location="$out")

echo "Capturing $device ($input, $standard) to $out; Ctrl-C to stop." >&2
if [ -n "${DURATION:-}" ]; then
  # SIGINT after DURATION: gst-launch -e turns it into EOS and a complete file
  # --foreground: signal only gst-launch, once (a second SIGINT would kill it mid-EOS)
  timeout --foreground --preserve-status -s INT "$DURATION" gst-launch-1.0 -e "${pipeline[@]}"
else
  gst-launch-1.0 -e "${pipeline[@]}"
fi
echo "Done. Check the file with: gst-discoverer-1.0 $out" >&2
