#!/bin/bash
# Runs inside the guest (chrooted into the host root, vivid loaded): executes
# every scenario script in scenarios/ in name order; of their checks only
# those boot.conf's CHECKS lists (vmrun.py picks them from checks.txt) and
# ONLY matches run. Each check writes
# RESULTS/checks/<id>.result ("pass|fail|skip <reason>") and <id>.log.
# Writes RESULTS/guest-done with the time taken when all scenarios ran.
set -u
CONF=$1
. "$CONF"
CHECKS=${CHECKS:-}
export RESULTS GUEST_DIR BUILD_ROOT PLUGIN_DIR ONLY CHECKS
export GST_REGISTRY GST_REGISTRY_UPDATE=no
export GST_PLUGIN_PATH="$PLUGIN_DIR"
T=${TMPDIR:-/tmp}
export XDG_RUNTIME_DIR=$T HOME=$T TMPDIR=$T
cd "$T" || exit 1
start=$(cut -d' ' -f1 /proc/uptime)
ls -l /dev/video* > "$RESULTS/devices.txt" 2>&1
for s in "$GUEST_DIR"/scenarios/*.py; do
  name=$(basename "$s" .py)
  t0=$(cut -d' ' -f1 /proc/uptime)
  PYTHONPATH="$GUEST_DIR" timeout -k 5 200 /usr/bin/python3 "$s" > "$RESULTS/scenario-$name.log" 2>&1
  rc=$?
  t1=$(cut -d' ' -f1 /proc/uptime)
  echo "scenario $name rc=$rc $(awk "BEGIN{print $t1 - $t0}")s"
done
end=$(cut -d' ' -f1 /proc/uptime)
echo "checks_s=$(awk "BEGIN{print $end - $start}") uptime_s=$end" > "$RESULTS/guest-done"
