#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# test-hdpvr-loops.sh - the emulated HD PVR's transport stream is seamless
# across its loops (dev-hdpvr.c: continuity counters, PCR, PTS/DTS run on),
# as the card's encoder's stream is: the stream clock (ivtvstreamclock.c,
# by stream-clock-scan) sees no loss in three loops, sees the one loss of
# a stream spliced by hand in the third loop (10 packets cut out), and the
# guest's reference (guest/usbcheck.py Stream) is the same bytes.
#   test-hdpvr-loops.sh IVTV_USBDEV STREAM_CLOCK_SCAN CLIP.ts GUEST_DIR
set -u
usbdev=$1 scan=$2 clip=$3 guest=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail () { echo "FAIL: $*"; exit 1; }

len=$(stat -c %s "$clip")
"$usbdev" hdpvr "$clip" --dump $((len * 3)) > "$tmp/loops.ts" || fail "--dump failed"
[ "$(stat -c %s "$tmp/loops.ts")" = $((len * 3)) ] || fail "short dump"
"$scan" "$tmp/loops.ts" > "$tmp/scan" || fail "stream-clock-scan failed"
grep -q '^losses 0 ' "$tmp/scan" || fail "losses in three seamless loops: $(cat "$tmp/scan")"
cmp -s "$tmp/loops.ts" "$clip" 2>/dev/null && fail "the dump is the clip"
# the same clip looped as it is: its counters jump where it starts again
cat "$clip" "$clip" "$clip" > "$tmp/raw.ts"
"$scan" "$tmp/raw.ts" | grep -q '^losses 0 ' && fail "the raw loop shows no jump: the test cannot tell"
# spliced by hand: 10 packets cut out of the third loop
at=$(( (len * 2 / 188 + 300) * 188 ))
head -c "$at" "$tmp/loops.ts" > "$tmp/cut.ts"
tail -c +$((at + 10 * 188 + 1)) "$tmp/loops.ts" >> "$tmp/cut.ts"
"$scan" "$tmp/cut.ts" > "$tmp/cut.scan"
cat "$tmp/cut.scan"
grep -q '^losses 1 ' "$tmp/cut.scan" || fail "want one loss in the spliced stream"
/usr/bin/python3 - "$guest" "$clip" "$tmp/loops.ts" <<'PY' || exit 1
import sys
sys.path.insert(0, sys.argv[1])
from usbcheck import Stream
want = open(sys.argv[3], "rb").read()
got = Stream(sys.argv[2], seamless_ts=True).expect(len(want))
if got != want:
    sys.exit("FAIL: guest/usbcheck.py's reference differs from the device's loops")
print("three loops seamless, one loss where spliced, the guest's reference the same")
PY
