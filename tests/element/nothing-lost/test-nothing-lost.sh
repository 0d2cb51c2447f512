#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/element/nothing-lost/test-nothing-lost.sh — the README's headline pipeline,
# `ivtvsrc input=composite ! filesink`, with no queue, on a paced pvr250
# whose driver queue is finite (4 MB, as ivtv's: tests/emu/README.md "The
# MPEG driver queue"), while the consumer blocks 20 s in the middle (a pad
# probe on filesink that sleeps: tests/element/lib/stall-capture.py).
#
#   test-nothing-lost.sh IVTV_EMU CASE
# CASE: stall-20s       defaults: the file is byte for byte the card's
#                       continuous stream (the unpaced reference), the
#                       emulator discarded 0 bytes, no warning, the final
#                       ivtvsrc-stats says 0 lost; before the stall buffers
#                       come about every 100 ms (the latency): at least 15
#                       in the 2 s before it, never 1 s apart.
#       max-buffer-time max-buffer-time=5 s, below the stall: exactly one
#                       warning naming the bytes lost; the emulator still
#                       discarded 0 (the card was drained); the file is the
#                       reference with one hole of exactly the bytes the
#                       final ivtvsrc-stats (and the warning) count.
# Exit 0 pass, 1 fail, 77 skip.
set -u
EMU=$1 CASE=$2
STALL_AT=3 STALL_FOR=20 SECONDS_TOTAL=28

for tool in gst-launch-1.0 v4l2-ctl head cmp timeout; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool not found"; exit 77; }
done
/usr/bin/python3 -c 'import gi; gi.require_version("Gst", "1.0")' 2>/dev/null ||
  { echo "SKIP: python3-gi not found"; exit 77; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/ivtv-lost.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
OUT=$TMP/out.mpg REF=$TMP/ref.mpg
HERE=$(dirname "$0")

fail () { echo "FAIL [$CASE]: $*"; cat "$TMP/report" 2>/dev/null; exit 1; }
field () { sed -n "s/^$1=//p" "$TMP/report" | head -1; }

# capture PROPS: the stalled capture; $TMP/report, $DISCARDED
capture () {
  IVTV_EMU_STATS=$TMP/emu-stats timeout 120 "$EMU" --profile pvr250 -- \
    /usr/bin/python3 "$HERE/../lib/stall-capture.py" --stall-at $STALL_AT \
      --stall-for $STALL_FOR --seconds $SECONDS_TOTAL \
      "ivtvsrc input=composite $* ! filesink name=sink location=$OUT" \
      >"$TMP/report" 2>"$TMP/stderr" || {
        tail -20 "$TMP/stderr"; fail "the capture failed (exit $?)"; }
  DISCARDED=$(sed -n 's/^discarded-video0=//p' "$TMP/emu-stats")
  [ -n "$DISCARDED" ] || fail "no discarded counter from the emulator"
  SIZE=$(stat -c %s "$OUT")
  echo "captured $SIZE bytes; the emulator discarded $DISCARDED"
  grep -E '^(warning|error)=' "$TMP/report"
}

# reference N: the first N bytes of Composite 1, unpaced
reference () {
  timeout 60 "$EMU" --profile pvr250 --fault fast -- sh -c \
    'v4l2-ctl -d /dev/video0 -i 2 >/dev/null && head -c "$0" /dev/video0' \
    "$1" >"$REF" || fail "reference capture failed"
}

case $CASE in
  stall-20s)
    capture
    [ "$DISCARDED" = 0 ] || fail "the driver discarded $DISCARDED bytes"
    ! grep -q '^error=' "$TMP/report" || fail "an error"
    ! grep -q '^warning=' "$TMP/report" || fail "a warning"
    [ "$(field final-bytes-lost)" = 0 ] || fail "final bytes-lost $(field final-bytes-lost)"
    [ "$(field final-bytes)" = "$SIZE" ] ||
      fail "final ivtvsrc-stats bytes $(field final-bytes), file $SIZE"
    [ "$(field stats-messages)" -ge 20 ] ||
      fail "$(field stats-messages) ivtvsrc-stats messages in ${SECONDS_TOTAL}s"
    # the card is read every 80 ms at most at the real rate (the 100 ms
    # latency): counted, not timed (a loaded machine stretched one gap to
    # 103 ms): between the first second and the stall (2 s) at least 15
    # buffers, one per 133 ms; a reader that batched a second would give 2;
    # and never a second without a buffer
    [ "$(field window-buffers)" -ge 15 ] ||
      fail "$(field window-buffers) buffers in the 2 s before the stall, want >= 15 (one per 100 ms)"
    [ "$(field max-gap-ms)" -lt 1000 ] ||
      fail "buffers $(field max-gap-ms) ms apart at the real rate"
    # 28 s at 6 Mbit/s; the 20 s stall alone is 15 MB, 4 MB the driver's
    [ "$SIZE" -ge 18000000 ] || fail "only $SIZE bytes"
    reference "$SIZE"
    cmp -s "$OUT" "$REF" || fail "the file differs from the card's stream: $(cmp "$OUT" "$REF" | head -1)"
    echo "20 s stall: $SIZE bytes, identical to the reference, 0 discarded;" \
      "$(field window-buffers) buffers in the 2 s before it, at most $(field max-gap-ms) ms apart" ;;
  max-buffer-time)
    capture max-buffer-time=5000000000
    [ "$DISCARDED" = 0 ] || fail "the driver discarded $DISCARDED bytes"
    ! grep -q '^error=' "$TMP/report" || fail "an error"
    [ "$(grep -c '^warning=' "$TMP/report")" = 1 ] ||
      fail "$(grep -c '^warning=' "$TMP/report") warnings, want one"
    grep -q '^warning=Lost [0-9.]*[^a-zA-Z0-9]*[kM]B (1[0-9].[0-9] s) of the recording at 0:00:0[7-9].*max-buffer-time=5000000000' "$TMP/report" ||
      fail "the warning does not name the bytes and time lost"
    LOST=$(field final-bytes-lost)
    [ "$LOST" -gt 5000000 ] || fail "final bytes-lost $LOST, want about 11 MB"
    [ "$(field final-bytes)" = "$SIZE" ] ||
      fail "final ivtvsrc-stats bytes $(field final-bytes), file $SIZE"
    # the warning's size is the same count, rounded (g_format_size, MB)
    /usr/bin/python3 - "$(grep '^warning=' "$TMP/report")" "$LOST" <<'EOF' || exit 1
import re, sys
m = re.search(r"Lost ([0-9.]+)\s(kB|MB)", sys.argv[1])
v = float(m.group(1)) * (1000 if m.group(2) == "kB" else 1000000)
if abs(v - int(sys.argv[2])) > 0.06 * int(sys.argv[2]):
    sys.exit("FAIL: the warning says %s, the stats %s bytes" % (m.group(0), sys.argv[2]))
EOF
    reference $((SIZE + LOST))
    # out = ref[:a] + ref[a + LOST:]: one hole of exactly LOST bytes
    /usr/bin/python3 - "$OUT" "$REF" "$LOST" <<'EOF' || fail "the hole is not the bytes counted"
import sys
cap = open(sys.argv[1], "rb").read()
ref = open(sys.argv[2], "rb").read()
lost = int(sys.argv[3])
if len(ref) != len(cap) + lost:
    sys.exit("reference %d bytes, capture %d + lost %d" % (len(ref), len(cap), lost))
# p: the common prefix; s: where the common suffix (ref shifted by lost)
# starts; one hole of lost bytes exists at any a with s <= a <= p
p = 0
while p < len(cap) and cap[p:p + 4096] == ref[p:p + 4096]:
    p += 4096
while p < len(cap) and cap[p] == ref[p]:
    p += 1
if p == len(cap):
    sys.exit("no hole: the capture is a prefix of the reference")
s = len(cap)
while s >= 4096 and cap[s - 4096:s] == ref[s - 4096 + lost:s + lost]:
    s -= 4096
while s > 0 and cap[s - 1] == ref[s - 1 + lost]:
    s -= 1
if s > p:
    sys.exit("the capture is not the reference with %d bytes cut out "
             "(same up to %d, same shifted from %d on)" % (lost, p, s))
print("hole at byte %d: %d bytes, as counted" % (p, lost))
EOF
    echo "max-buffer-time=5s, 20 s stall: $SIZE bytes kept, $LOST lost (one warning), 0 discarded" ;;
  *) fail "unknown case" ;;
esac
exit 0
