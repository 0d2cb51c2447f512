#!/bin/bash
# tests/vm/archive-aloop-guest.sh — the guest half of the archival sync test
# with a real ALSA driver (tests/archive/test-aloop-vm.sh boots it with
# `tests/vm/vmrun.py bench --script`): snd-aloop, its "PCM Rate Shift
# 100000" control set to AA_PPM ppm (sound/drivers/aloop.c
# loopback_rate_shift_put: the cable's timer runs that much fast), a beep
# every 2 s of real time played into the loopback (audiotestsrc ticks, its
# interval stretched by the same ppm so the beeps come every 2 s of the
# guest's clock), and ivtv-capture recording the emulated webcam (flash
# every 2 s of the same clock, tests/emu/marks.c) with the loopback's
# capture side as its audio device, through alsasrc.  Writes
# RESULTS/archive/{tape.mkv,tape.mkv.json,tape.mkv.framemd5,log.txt} and
# RESULTS/guest-done.  boot.conf keys: AA_PPM (default 250), AA_SECONDS
# (default 60).
set -u
CONF=$1
. "$CONF"
export GST_REGISTRY GST_REGISTRY_UPDATE=no GST_PLUGIN_PATH="$PLUGIN_DIR"
T=${TMPDIR:-/tmp}
export XDG_RUNTIME_DIR=$T HOME=$T TMPDIR=$T
cd "$T" || exit 1
OUT=$RESULTS/archive
mkdir -p "$OUT"
PPM=${AA_PPM:-250}
SECS=${AA_SECONDS:-60}
log () { echo "archive-aloop: $*" | tee -a "$OUT/log.txt"; }
done_ () { echo "$1" >"$RESULTS/guest-done"; exit 0; }

# snd-aloop and what it needs, from the kernel package this guest booted
MD=$BUILD_ROOT/tests/vm/cache/kernel/root/lib/modules/$(uname -r)
[ -f "$MD/modules.dep" ] || { log "no modules.dep in $MD"; done_ skip; }
load () {
  local path deps d
  path=$(grep -E "/$1\.ko(\.xz)?:" "$MD/modules.dep" | head -1)
  [ -n "$path" ] || { log "no module $1"; return 1; }
  deps=${path#*:}
  for d in $deps; do
    load "$(basename "$d" | sed 's/\.ko.*//')" || return 1
  done
  grep -q "^$(echo "$1" | tr - _) " /proc/modules && return 0
  insmod "$MD/${path%%:*}" 2>>"$OUT/log.txt" || grep -q "^$(echo "$1" | tr - _) " /proc/modules
}
load snd-aloop || { log "cannot load snd-aloop"; done_ skip; }
grep -q Loopback /proc/asound/cards || { log "no Loopback card"; done_ skip; }
cat /proc/asound/cards /proc/asound/pcm >>"$OUT/log.txt"
SHIFT=$((100000 + PPM / 10))            # 100000 = 1:1; one step = 10 ppm
# one control per device and substream (aloop.c loopback_mixer_new); the
# cable's two ends (device 0 playback, device 1 capture, substream 0) alike
for dev in 0 1; do
  amixer -c Loopback cset "iface=PCM,name=PCM Rate Shift 100000,device=$dev,subdevice=0" \
    "$SHIFT" >>"$OUT/log.txt" 2>&1 || { log "cannot set PCM Rate Shift"; done_ fail; }
done
log "PCM Rate Shift 100000 = $SHIFT ($PPM ppm)"

# the beeps: a tick every 2 s of the guest's clock (ticks are counted in
# samples, and the loopback takes samples PPM ppm fast)
TICK=$((2000000000 + 2000000000 / 1000000 * PPM))
gst-launch-1.0 -q audiotestsrc wave=ticks tick-interval=$TICK \
  sine-periods-per-tick=40 is-live=true volume=0.5 ! \
  audio/x-raw,rate=48000,channels=2,format=S16LE ! \
  alsasink device=hw:Loopback,0,0 >>"$OUT/log.txt" 2>&1 &
PLAY=$!
sleep 2
EMU=$BUILD_ROOT/tests/emu/ivtv-emu
CAP=$BUILD_ROOT/tools/ivtv-capture/ivtv-capture
start=$(cut -d' ' -f1 /proc/uptime)
# 320x240 at 15 fps: the guest runs under TCG, some ten times slower than
# the host; the sync does not depend on the size
timeout $((SECS + 240)) "$EMU" --profile webcam@/dev/video0 \
  --fault marks=2000@/dev/video0 -- sh -c "v4l2-ctl -d /dev/video0 \
  --set-fmt-video=width=320,height=240,pixelformat=YUYV --set-parm=15 && \
  exec $CAP -d /dev/video0 --audio-device hw:Loopback,1,0 \
  --max-time $SECS $OUT/tape.mkv" >>"$OUT/log.txt" 2>&1
rc=$?
kill "$PLAY" 2>/dev/null
log "ivtv-capture exit $rc after $(echo "$(cut -d' ' -f1 /proc/uptime) - $start" | bc 2>/dev/null)s"
echo "$rc" >"$OUT/rc"
done_ ok
