#!/usr/bin/env bash
# tests/eco: ivtv:// URIs in uridecodebin and playbin under the emulator;
# the query parameters reach the card (checked with v4l2-ctl in the same
# emulator run); bad URIs fail with a message naming the problem.
#   test-uri.sh IVTV_EMU
set -u
emu=${1:?usage: $0 IVTV_EMU}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
timeout 50 "$emu" --profile pvr250 --fault fast -- sh -c '
  echo "== uridecodebin"
  gst-launch-1.0 uridecodebin "uri=ivtv:///dev/video0?input=composite&num-buffers=40" ! fakesink || echo "RC uridecodebin $?"
  v4l2-ctl -d /dev/video0 --get-input
  echo "== playbin"
  gst-launch-1.0 playbin "uri=ivtv:///dev/video0?input=svideo&standard=pal&num-buffers=40" \
    video-sink=fakesink audio-sink=fakesink || echo "RC playbin $?"
  v4l2-ctl -d /dev/video0 --get-input --get-standard
  echo "== gst-play"
  if command -v gst-play-1.0 >/dev/null; then
    timeout 20 gst-play-1.0 --no-interactive --videosink=fakesink --audiosink=fakesink \
      "ivtv:///dev/video0?input=composite2&num-buffers=40" || echo "RC gst-play $?"
    v4l2-ctl -d /dev/video0 --get-input
  else
    echo "gst-play-1.0 not installed"
  fi
  echo "== unknown parameter"
  gst-launch-1.0 uridecodebin "uri=ivtv:///dev/video0?inptu=composite" ! fakesink
  echo "== bad value"
  gst-launch-1.0 uridecodebin "uri=ivtv:///dev/video0?io-mode=fast" ! fakesink
  echo "== host"
  gst-launch-1.0 uridecodebin "uri=ivtv://dev/video0" ! fakesink
' > "$tmp/out" 2>&1
cat "$tmp/out"
fail=0
section() { awk -v s="== $1" '$0 == s { on = 1; next } /^== / { on = 0 } on' "$tmp/out"; }
expect() { # section, description, regexp
  if section "$1" | grep -Eq -- "$3"; then echo "ok: $2"; else echo "FAIL: $2"; fail=1; fi
}
reject() {
  if section "$1" | grep -Eq -- "$3"; then echo "FAIL: $2"; fail=1; else echo "ok: $2"; fi
}
expect uridecodebin "uridecodebin reaches EOS" 'Got EOS'
reject uridecodebin "uridecodebin exits 0" '^RC '
expect uridecodebin "input=composite applied" 'Video input : 2 \(Composite 1'
expect playbin "playbin reaches EOS" 'Got EOS'
reject playbin "playbin exits 0" '^RC '
expect playbin "input=svideo applied" 'Video input : 1 \(S-Video 1'
expect playbin "standard=pal applied" 'PAL-B/B1/G'
if section gst-play | grep -q 'gst-play-1.0 not installed'; then
  echo "note: gst-play-1.0 not installed, not checked"
else
  expect gst-play "gst-play-1.0 plays to the end" 'Reached end of play list'
  reject gst-play "gst-play-1.0 exits 0" '^RC '
  expect gst-play "input=composite2 applied" 'Video input : 4 \(Composite 2'
fi
expect "unknown parameter" "unknown parameter named, known ones listed" \
  "Unknown parameter 'inptu'.*Known parameters:.*input.*standard"
expect "bad value" "bad enum value explained" \
  "Bad value 'fast' for 'io-mode'.*one of auto, rw, mmap, userptr, dmabuf"
expect host "host part explained" "names a host \('dev'\).*three slashes"
exit $fail
