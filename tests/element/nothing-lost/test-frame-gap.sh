#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# test-frame-gap.sh - frames a driver drops without telling (issue 28
# item 3) are counted, warned about and followed by DISCONT: ivtvsrc finds
# them from the frames' times (gst/paths/ivtvframegap.c).
#   test-frame-gap.sh IVTV_EMU FRAME_CHECK CASE [IVTV_CAPTURE]
# CASE: yuv-read     ivtv's YUV node by read(), the driver dropping every
#                    10th frame (--fault skip-every=10): frames-lost is
#                    the frames missing from the file (frame-check numbers
#                    them), within one and a tenth (an estimate from when
#                    frames are read, on a loaded machine)
#       stk1160-seq  stk1160 streaming, every 10th frame dropped without a
#                    sequence gap (skip-keeps-seq, as stk1160_buffer_done
#                    numbers only completed frames): counted too (6 in
#                    60 frames, at least 5)
#       clean        stk1160 and the YUV node without a fault: no loss
#       sidecar      ivtv-capture on the stk1160 dropping without a sequence
#                    gap: the sidecar's "lost" is the element's frames-lost
set -u
emu=$1 check=$2 case=$3 capture=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail () { echo "FAIL: $*"; exit 1; }

# run PROFILE_ARGS -- PIPELINE: log, frames-lost of the final stats
run () {
  # shellcheck disable=SC2086
  timeout 120 "$emu" "$@" > "$tmp/log" 2>&1 || { tail -20 "$tmp/log"; fail "exit $?"; }
  lost=$(grep 'final=(boolean)true' "$tmp/log" | sed -n 's/.*frames-lost=(guint64)\([0-9]*\).*/\1/p')
  [ -n "$lost" ] || { tail -20 "$tmp/log"; fail "no final ivtvsrc-stats"; }
  warned=$(grep -c 'WARNING: .*Lost [0-9]* frame' "$tmp/log")
  # DISCONT after the first buffer (identity's last-message, gst-launch -v;
  # -m shows each again, escaped, in a property-notify message)
  disconts=$(grep '^/GstPipeline.*last-message = ' "$tmp/log" |
    grep -v 'offset: 0,' | grep -c 'discont')
}

# missing FILE FORMAT SIZE CONTENT: frames missing between the first and last
missing_in () {
  "$check" "$2" "$3" "$4" "$1" 10 > "$tmp/check" 2>&1 || { cat "$tmp/check"; fail "frame-check"; }
  tail -2 "$tmp/check" | head -1 | awk '{ print $NF - $1 + 1 - NF }'
}

case $case in
  yuv-read)
    run --card pvr250 --fault skip-every=10@/dev/video32 -- gst-launch-1.0 -m -v \
      ivtvsrc device=/dev/video32 num-buffers=60 ! identity silent=false ! \
      filesink location="$tmp/f.nv12"
    miss=$(missing_in "$tmp/f.nv12" NV12 720x480 0)
    echo "YUV read(): $miss frames missing in the file, frames-lost=$lost, $warned warnings, $disconts DISCONT"
    [ "$miss" -ge 5 ] || fail "only $miss frames missing: the fault did not drop"
    # from when frames are read, a count is an estimate: a reader late
    # by most of a period two frames running looks like one more missing
    # on a loaded machine (the emulator drops what is a period late)
    slack=$((1 + miss / 10))
    [ "$lost" -ge $((miss - slack)) ] && [ "$lost" -le $((miss + slack)) ] ||
      fail "frames-lost=$lost, $miss missing"
    [ "$warned" -ge 1 ] || fail "no warning"
    [ "$disconts" -ge 1 ] || fail "no DISCONT after a loss" ;;
  stk1160-seq)
    run --profile stk1160 --fault skip-every=10 --fault skip-keeps-seq -- \
      gst-launch-1.0 -m -v ivtvsrc num-buffers=60 ! identity silent=false ! \
      filesink location="$tmp/f.uyvy"
    # the picture is numbered by the sequence, which skips nothing: the
    # 60 frames span 66 periods, 6 dropped (more if the emulator also ran
    # out of queued buffers under load: dropped and counted the same way)
    miss=$(missing_in "$tmp/f.uyvy" UYVY 720x480 1)
    echo "stk1160: frames-lost=$lost, $warned warnings, $disconts DISCONT"
    [ "$miss" = 0 ] || fail "$miss sequence numbers missing: the fault was not skip-keeps-seq"
    [ "$lost" -ge 5 ] || fail "frames-lost=$lost, 6 dropped without a sequence gap"
    [ "$warned" -ge 1 ] || fail "no warning"
    [ "$disconts" -ge 1 ] || fail "no DISCONT after a loss" ;;
  clean)
    run --profile stk1160 -- gst-launch-1.0 -m ivtvsrc num-buffers=60 ! \
      filesink location="$tmp/f.uyvy"
    miss=$(missing_in "$tmp/f.uyvy" UYVY 720x480 1)
    [ "$lost" = "$miss" ] || fail "stk1160: frames-lost=$lost, $miss missing"
    run --card pvr250 -- gst-launch-1.0 -m ivtvsrc device=/dev/video32 \
      num-buffers=60 ! filesink location="$tmp/f.nv12"
    miss2=$(missing_in "$tmp/f.nv12" NV12 720x480 0)
    [ "$lost" -le $((miss2 + 1 + miss2 / 10)) ] ||
      fail "YUV read(): frames-lost=$lost, $miss2 missing"
    echo "clean: stk1160 $miss missing, counted; YUV $miss2 missing, $lost counted" ;;
  sidecar)
    ( cd "$tmp" && timeout 120 "$emu" --profile stk1160 --fault skip-every=10 \
      --fault skip-keeps-seq -- "$capture" -d /dev/video0 --no-audio -t 4 -f \
      cap.mkv ) > "$tmp/log" 2>&1 || { tail -20 "$tmp/log"; fail "ivtv-capture failed"; }
    said=$(sed -n 's/.*ivtvsrc reports [0-9]* bytes and \([0-9]*\) frames\{0,1\} lost.*/\1/p' "$tmp/log")
    /usr/bin/python3 - "$tmp/cap.mkv.json" "${said:-0}" <<'PY' || exit 1
import json, sys
doc = json.load(open(sys.argv[1]))
said = int(sys.argv[2])
def find(o):
    if isinstance(o, dict):
        if "lost" in o and isinstance(o["lost"], dict) and "frames" in o["lost"]:
            return o["lost"]["frames"]
        for v in o.values():
            r = find(v)
            if r is not None:
                return r
    return None
lost = find(doc)
# 4 s of 30000/1001 frames, every 10th dropped: about 12
if lost is None or lost < 8 or lost != said:
    sys.exit("FAIL: the sidecar says frames lost %r, ivtv-capture said %d" % (lost, said))
print("sidecar: %d frames lost, as the element counted" % lost)
PY
    ;;
  *) fail "unknown case $case" ;;
esac
