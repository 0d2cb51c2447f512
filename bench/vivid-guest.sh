#!/bin/bash
# bench/vivid-guest.sh — the guest half of the vivid benchmark (issue 7,
# bench/vivid-bench.py).  Booted by `tests/vm/vmrun.py bench`, it runs
# inside the qemu guest, chrooted into the host root with vivid loaded, and
# measures ivtvsrc and v4l2src side by side, interleaved, on vivid's webcam
# input (/dev/video0, input 0) with the host's bench/bench-run:
#   cpu  VB_REPEAT runs of VB_FRAMES frames per element (user= sys=)
#   mc   memcpy bytes counted by libbenchmemcount.so (LD_PRELOAD) in a
#        VB_MC_F1- and a VB_MC_F2-frame run per element
#   fb   time from PLAYING to the first buffer, VB_FB_RUNS per element
# It writes RESULTS/bench/runs.txt (one "KIND ELEMENT N bench-run-line" per
# run), the memcount files and info.txt (the device as v4l2-ctl sees it);
# RESULTS/guest-done when it ends.  The host half turns them into a table.
set -u
CONF=$1
. "$CONF"
export GST_REGISTRY GST_REGISTRY_UPDATE=no GST_PLUGIN_PATH="$PLUGIN_DIR"
T=${TMPDIR:-/tmp}
export XDG_RUNTIME_DIR=$T HOME=$T TMPDIR=$T
cd "$T" || exit 1
OUT=$RESULTS/bench
mkdir -p "$OUT"
RUNS=$OUT/runs.txt
: >"$RUNS"
start=$(cut -d' ' -f1 /proc/uptime)
DEV=${VB_DEVICE:-/dev/video0}
W=${VB_WIDTH:-1920} H=${VB_HEIGHT:-1080}
FRAMES=${VB_FRAMES:-30} REPEAT=${VB_REPEAT:-5} FB_RUNS=${VB_FB_RUNS:-11}
F1=${VB_MC_F1:-5} F2=${VB_MC_F2:-20}

log () { echo "vivid-bench: $*"; }

{
  echo "uname: $(uname -sr); cpus: $(nproc)"
  v4l2-ctl -d "$DEV" --info --get-input 2>&1
  v4l2-ctl -d "$DEV" --list-frameintervals "width=$W,height=$H,pixelformat=YUYV" 2>&1
} >"$OUT/info.txt"

# the fastest frame rate vivid offers at this size ("(5.000 fps)" lines),
# as a fraction GStreamer reduces (12500/1000 = 25/2)
fps=$(sed -n 's/.*(\([0-9.]*\) fps).*/\1/p' "$OUT/info.txt" | sort -g | tail -1)
if [ -z "$fps" ]; then
  log "$DEV offers no ${W}x${H} YUYV"
  echo "error none 0 $DEV offers no ${W}x${H} YUYV" >>"$RUNS"
else
  RATE=$(awk -v f="$fps" 'BEGIN { printf "%d/1000", f * 1000 + 0.5 }')
  CAPS="video/x-raw,format=YUY2,width=$W,height=$H,framerate=$RATE"
  echo "caps: $CAPS" >>"$OUT/info.txt"
  ELEMS=(ivtvsrc v4l2src)

  # run KIND ELEMENT N [ENV...] -- BENCH-RUN-ARGS...: one bench-run, its line
  # appended to runs.txt (or an "error" line with its last words)
  run () {
    local kind=$1 el=$2 n=$3 envs=() line; shift 3
    while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
    if line=$(env "${envs[@]}" timeout -k 5 120 "$BENCH_RUN" "$@" 2>"$T/err"); then
      echo "$kind $el $n $line" >>"$RUNS"
    else
      echo "error $el $n $kind: $(tail -2 "$T/err" | tr '\n' ' ')" >>"$RUNS"
      log "$kind $el failed: $(tail -2 "$T/err")"
    fi
  }
  # order ROUND: the elements, the first one alternating from round to round
  order () { if [ $(($1 % 2)) = 1 ]; then echo "${ELEMS[@]}"; else echo "${ELEMS[1]} ${ELEMS[0]}"; fi; }
  desc () { echo "$1 device=$DEV ! $CAPS ! fakesink"; }

  log "cpu: $REPEAT rounds of $FRAMES frames, $CAPS"
  for i in $(seq "$REPEAT"); do
    for el in $(order "$i"); do
      run cpu "$el" "$FRAMES" -- --buffers "$FRAMES" "$(desc "$el")"
    done
  done

  log "memcpy: $F1 and $F2 frames"
  for el in "${ELEMS[@]}"; do
    for n in $F1 $F2; do
      rm -f "$OUT/mc.$el.$n"
      run mc "$el" "$n" BENCH_MEMCOUNT_OUT="$OUT/mc.$el.$n" LD_PRELOAD="$MEMCOUNT${LD_PRELOAD:+:$LD_PRELOAD}" -- \
        --buffers "$n" "$(desc "$el")"
    done
  done

  # first buffer: three rounds per element, interleaved, FB_RUNS in all
  per=$(((FB_RUNS + 2) / 3))
  log "first buffer: 3 rounds of $per per element"
  for i in 1 2 3; do
    for el in $(order "$i"); do
      run fb "$el" "$per" -- --first-buffer "$per" "$(desc "$el")"
    done
  done
fi

end=$(cut -d' ' -f1 /proc/uptime)
echo "bench_s=$(awk "BEGIN{print $end - $start}") uptime_s=$end" >"$RESULTS/guest-done"
