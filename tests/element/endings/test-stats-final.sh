#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# test-stats-final.sh - the final ivtvsrc-stats message comes before EOS
# when num-buffers ends the capture (the base class sends that EOS without
# asking the element; gst/element/gstivtvsrc.c create, ivtv_capture_last_buffer):
# exactly one final=true, after the periodic ones, before "Got EOS", with
# the buffers of the capture counted.
#   test-stats-final.sh IVTV_EMU PROFILE
# GST_PLUGIN_PATH must name the built plugin (meson.build sets it).
set -u
emu=$1 prof=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail () { echo "FAIL: $*"; tail -20 "$tmp/log"; exit 1; }
command -v gst-launch-1.0 >/dev/null || { echo "SKIP: gst-launch-1.0 missing"; exit 77; }

timeout 60 "$emu" --profile "$prof" -- gst-launch-1.0 -m ivtvsrc \
  num-buffers=40 stats-interval=200 ! fakesink > "$tmp/log" 2>&1 ||
  fail "gst-launch exited with $?"
final=$(grep -n 'ivtvsrc-stats.*final=(boolean)true' "$tmp/log")
[ "$(printf '%s\n' "$final" | grep -c .)" = 1 ] || fail "not one final stats message: $final"
eos=$(grep -n -m1 'Got EOS' "$tmp/log" | cut -d: -f1)
[ -n "$eos" ] || fail "no EOS"
[ "${final%%:*}" -lt "$eos" ] || fail "the final stats (line ${final%%:*}) come after EOS (line $eos)"
grep -q 'ivtvsrc-stats.*final=(boolean)false' "$tmp/log" || fail "no periodic stats before it"
case $final in
  *"buffers=(guint64)"*) n=$(printf '%s' "$final" | sed 's/.*buffers=(guint64)\([0-9]*\).*/\1/') ;;
  *) fail "no buffers field: $final" ;;
esac
[ "$n" -ge 40 ] || fail "the final stats count $n buffers, the capture had 40"
echo "PASS: $prof: final ivtvsrc-stats (buffers=$n) at line ${final%%:*}, EOS at line $eos"
