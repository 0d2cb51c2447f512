#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/eco: the lossless recipe of docs/capturing-tapes.md section 9 is
# lossless and keeps the interlace, on the emulated PVR-250's YUV node:
#  - the video branch of the documented command (videoconvert ! x264enc ...),
#    fed by a tee next to a plain copy of the same pictures, decodes to those
#    pictures byte for byte, and is coded as fields;
#  - the documented command itself, run literally for a few seconds and
#    ended by Ctrl-C (-e), writes tape.mkv with H.264 High 4:4:4 and FLAC.
#   test-lossless.sh IVTV_EMU SOURCE_ROOT
set -u
emu=${1:?usage: $0 IVTV_EMU SOURCE_ROOT}; root=$2
for e in x264enc flacenc matroskamux avdec_h264; do
  gst-inspect-1.0 "$e" >/dev/null 2>&1 || { echo "skip: no $e"; exit 77; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

# the documented command: the code block of section 9 with /dev/video32
cmd=$(python3 - "$root/docs/capturing-tapes.md" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
sec = text[text.index("## 9."):]
for block in re.findall(r"((?:^    .*\n)+)", sec, re.M):
    if "device=/dev/video32" in block:
        print(" ".join(l.strip().rstrip("\\").strip() for l in block.splitlines()))
        break
PY
)
[ -n "$cmd" ] || { echo "FAIL: no command with /dev/video32 in section 9"; exit 1; }
echo "documented: $cmd"
video=$(sed -E 's/.*input="Composite 1" ! queue ! (.*) ! mux\. ivtvsrc device=\/dev\/video24.*/\1/' <<<"$cmd")
case $video in *x264enc*) echo "video branch: $video" ;; *) echo "FAIL: no video branch found"; exit 1 ;; esac

emu=$(cd "$(dirname "$emu")" && pwd)/$(basename "$emu")
here=$(cd "$(dirname "$0")" && pwd)
cd "$tmp" || exit 1
# shellcheck disable=SC2086 # the branch is a gst-launch description
"$emu" --card pvr250 -- gst-launch-1.0 -q ivtvsrc device=/dev/video32 input="Composite 1" num-buffers=10 ! \
  tee name=t t. ! queue ! videoconvert ! video/x-raw,format=I420 ! filesink location=src.yuv \
  t. ! queue ! $video ! matroskamux ! filesink location=enc.mkv > run.log 2>&1 || { cat run.log; bad "the tee pipeline failed"; }
gst-launch-1.0 -q filesrc location=enc.mkv ! matroskademux ! h264parse ! avdec_h264 ! videoconvert ! \
  video/x-raw,format=I420 ! filesink location=dec.yuv > dec.log 2>&1 || { cat dec.log; bad "decoding failed"; }
size=$(stat -c %s src.yuv 2>/dev/null || echo 0)
if [ "$size" -eq $((720 * 480 * 3 / 2 * 10)) ] && cmp -s src.yuv dec.yuv; then
  ok "10 pictures (720x480) decode byte for byte to what the card gave"
else
  bad "decoded pictures differ from the card's (source $size bytes; $(cmp src.yuv dec.yuv 2>&1 | head -1))"
fi
info=$(gst-discoverer-1.0 -v enc.mkv 2>&1)
grep -q 'coded-picture-structure=(string)field' <<<"$info" && ok "coded as fields (interlace kept)" ||
  bad "not coded as fields: $(grep -o 'coded-picture-structure=(string)[a-z]*' <<<"$info" | head -1)"

# the documented command, literally, ended by Ctrl-C
eval "set -- $cmd"     # the words as a shell would split them, no shell in between
/usr/bin/python3 "$here/ctrl-c-after.py" tape.mkv 3 "$emu" --card pvr250 -- "$@" > doc.log 2>&1
rc=$?
[ $rc -eq 0 ] && ok "the documented command ends cleanly on Ctrl-C" || { grep -v "^ *$" doc.log | grep -iv "^Setting\|^Pipeline\|^Redistribute\|^New clock" | tail -12; bad "the documented command exited $rc"; }
info=$(gst-discoverer-1.0 -v tape.mkv 2>&1)
grep -q 'profile=(string)high-4:4:4' <<<"$info" && ok "tape.mkv: H.264 High 4:4:4 (lossless)" || bad "tape.mkv has no H.264 High 4:4:4"
grep -q 'audio/x-flac' <<<"$info" && ok "tape.mkv: FLAC" || bad "tape.mkv has no FLAC"
exit $fail
