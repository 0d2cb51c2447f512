#!/bin/sh
# bench smoke test (suite "bench"): runs `ivtv-bench --quick` and checks that
# it ran and printed every section of its table with a row per peer.  It
# never looks at the figures (a benchmark is not a timed test).
bench=$1
out=$("$bench" --quick 2>&1)
rc=$?
printf '%s\n' "$out"
[ $rc = 0 ] || { echo "smoke: ivtv-bench exited $rc"; exit 1; }
for want in '## 1. read() path' '| ivtvsrc blocksize=' '| v4l2src io-mode=rw' '| dd bs=' \
    '## 2. streaming' '| ivtvsrc ! fakesink' '## 3. time from PLAYING' '| pvr250 (read()' \
    '## 4. memory' '| webcam 1080p (mmap)' '## 5. real rate' '| 2 | ' \
    '## 6. consumer stall' '| ivtvsrc (defaults) ! fakesink (sink blocks'; do
  case $out in
    *"$want"*) ;;
    *) echo "smoke: the table lacks '$want'"; exit 1 ;;
  esac
done
# the CPU figures of ivtvsrc's read and streaming rows were measured
if printf '%s\n' "$out" | grep -E '^\| ivtvsrc (blocksize=|! )' | cut -d'|' -f3,4 | grep -q 'n/a'; then
  echo "smoke: an ivtvsrc CPU figure is missing (n/a)"; exit 1
fi
echo "smoke: table complete"
