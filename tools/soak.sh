#!/usr/bin/env bash
# tools/soak.sh [MINUTES] [BUILD_DIR]: the soak test (not a meson test).
# Captures MINUTES (default 60) of EMULATED time with ivtvsrc from the
# emulated PVR-250 with pacing off (--fault fast): emulated time is bytes /
# 750 kB/s (the card's 6 Mbit/s), so an hour is 2.7 GB.  The bytes go
# through fdsink into `wc -c`; every SAMPLE seconds (default 0.005: an emulated hour takes a few
# seconds) it reads
# gst-launch's /proc/PID/status (VmRSS, VmHWM) and /proc/PID/io (wchar = the
# bytes captured so far).  At the end it prints the peak RSS, the RSS at
# emulated minute 1, at the end and its largest value after minute 1, and
# the growth from minute 1 to the end; it fails (exit 1) when the growth
# exceeds LIMIT_KIB (default 1024), when the capture fails or when fewer
# bytes arrive than asked.  Samples go to $SOAK_CSV if set.
# It measures a leak, not a queue filling: unpaced, the card is read faster
# than `wc` takes the bytes, and ivtvsrc's read-ahead queue (max-buffer-bytes,
# 64 MiB by default) would fill and show as +64 MB of RSS that is no leak.
# So the queue is bounded to 2 MiB here: it is full within the first
# emulated seconds, and what the card delivers beyond it is dropped (the
# element's "Lost ..." warnings, counted below; num-buffers still makes the
# pipeline push every byte asked for).  Growth after minute 1 is then memory
# the element keeps per buffer or per second.
#   tools/soak.sh            # one hour
#   tools/soak.sh 2          # a 2-minute smoke run
set -uo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-60}
build=${2:-build}
case $build in /*) ;; *) build=$PWD/$build ;; esac
sample=${SAMPLE:-0.005}
limit_kib=${LIMIT_KIB:-1024}
rate=750000                               # bytes per emulated second
blocksize=65536
queue_bytes=$((2 * 1024 * 1024))     # the element's read-ahead queue, bounded (see below)

emu=$build/tests/emu/ivtv-emu
[ -x "$emu" ] || { echo "soak: $emu is missing: build first (tools/build.sh)" >&2; exit 2; }
command -v gst-launch-1.0 >/dev/null || { echo "soak: gst-launch-1.0 is missing" >&2; exit 2; }

bytes=$((minutes * 60 * rate))
nbuf=$(((bytes + blocksize - 1) / blocksize))
want=$((nbuf * blocksize))
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ivtv-soak.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
csv=${SOAK_CSV:-$tmp/samples.csv}

echo "soak: $minutes emulated minutes = $want bytes ($nbuf buffers of $blocksize) from pvr250 --fault fast"
export GST_PLUGIN_PATH_1_0=$build/gst GST_REGISTRY=$build/soak-registry.bin
# the element's warnings (gst-launch -q hides them) into gst.log, to count the losses
export GST_DEBUG=${GST_DEBUG:-ivtv*:2}
# sampler: waits for the pid file, then reads /proc every $sample seconds
# until gst-launch-1.0 exits
python3 - "$tmp/pid" "$csv" "$sample" "$rate" <<'PY' &
import sys, time
pidfile, path, period, rate = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
t0 = time.monotonic()
pid = ""
while not pid and time.monotonic() - t0 < 10:
    try:
        pid = open(pidfile).read().strip()
    except OSError:
        time.sleep(0.001)
if not pid:
    sys.exit("soak: gst-launch-1.0 did not start")
open(pidfile + ".go", "w").close()      # let it start
t0 = time.monotonic()
with open(path, "w") as out:
    out.write("wall_s,emulated_s,vmrss_kib,vmhwm_kib\n")
    while True:
        try:
            status = open(f"/proc/{pid}/status").read().split("\n")
            io = open(f"/proc/{pid}/io").read().split("\n")
        except OSError:
            break
        f = {l.split(":")[0]: l.split(":")[1].split()[0] for l in status + io if ":" in l and l.split(":")[1].split()}
        if "VmRSS" not in f:          # a zombie: exited
            break
        out.write(f"{time.monotonic() - t0:.3f},{int(f['wchar']) / rate:.1f},{f['VmRSS']},{f['VmHWM']}\n")
        time.sleep(period)
PY
# sh -c writes its pid, waits for the sampler to have it and execs
# gst-launch-1.0: that pid is the one to watch from the first byte
"$emu" --profile pvr250 --fault fast -- sh -c 'echo $$ > "$0"; i=0
  while [ ! -e "$0.go" ] && [ $i -lt 1000 ]; do sleep 0.01; i=$((i + 1)); done
  exec "$@"' "$tmp/pid" \
  gst-launch-1.0 -q ivtvsrc blocksize=$blocksize num-buffers=$nbuf max-buffer-bytes=$queue_bytes ! \
  fdsink fd=1 sync=false 2> "$tmp/gst.log" | wc -c > "$tmp/count" &
start=$(date +%s.%N)
now () { awk -v s="$start" -v n="$(date +%s.%N)" 'BEGIN { printf "%.2f", n - s }'; }


wait
got=$(cat "$tmp/count" 2>/dev/null || echo 0)
wall=$(now)

python3 - "$csv" "$got" "$want" "$wall" "$limit_kib" "$rate" <<'PY'
import csv, sys
path, got, want, wall, limit, rate = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
rows = [r for r in csv.DictReader(open(path))]
ok = True
print(f"soak: captured {got} bytes = {got / rate / 60:.1f} emulated minutes in {wall:.1f} s wall ({got / wall / 1e6:.0f} MB/s), {len(rows)} samples")
if got < want:
    print(f"soak: FAILED: {got} bytes of {want}")
    ok = False
after = [r for r in rows if float(r["emulated_s"]) >= 60]
if not rows or not after:
    print("soak: FAILED: no sample after emulated minute 1 (run longer than 1 minute)")
    sys.exit(1)
peak = max(int(r["vmhwm_kib"]) for r in rows)
m1 = int(after[0]["vmrss_kib"])
end = int(rows[-1]["vmrss_kib"])
mx = max(int(r["vmrss_kib"]) for r in after)
print(f"soak: minute 1 sample at {float(after[0]['emulated_s']) / 60:.2f} emulated min")
print(f"soak: peak RSS (VmHWM) {peak} KiB; RSS at minute 1 {m1} KiB, at the end "
      f"({float(rows[-1]['emulated_s']) / 60:.1f} min) {end} KiB, largest after minute 1 {mx} KiB")
print(f"soak: growth from minute 1 to the end {end - m1:+d} KiB, largest rise after minute 1 {mx - m1:+d} KiB (limit {limit} KiB)")
if mx - m1 > limit:
    print("soak: FAILED: memory grows")
    ok = False
print("soak: OK" if ok else "soak: FAILED")
sys.exit(0 if ok else 1)
PY
rc=$?
echo "soak: $(grep -c 'Lost ' "$tmp/gst.log") loss warning(s) from the 2 MiB queue bound (expected unpaced; not counted as growth)"
if [ $rc -ne 0 ]; then
  echo "soak: gst-launch-1.0's messages:"; tail -20 "$tmp/gst.log"
fi
exit $rc
