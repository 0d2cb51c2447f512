#!/bin/bash
# Runs inside the guest of a real-driver suite (chrooted into the host root,
# vhci-hcd and the USB drivers loaded): runs guest/$DRIVER.py, whose checks
# write RESULTS/checks/<id>.result; boot.conf's CHECKS and ONLY narrow them.
# Writes RESULTS/dmesg.txt and RESULTS/guest-done.
set -u
CONF=$1
. "$CONF"
CHECKS=${CHECKS:-}
export RESULTS GUEST_DIR BUILD_ROOT PLUGIN_DIR ONLY CHECKS STREAM USBDEV
export GST_REGISTRY GST_REGISTRY_UPDATE=no
export GST_PLUGIN_PATH="$PLUGIN_DIR"
export PATH="$BUILD_ROOT/tools/ivtv-capture:$PATH"
T=${TMPDIR:-/tmp}
export XDG_RUNTIME_DIR=$T HOME=$T TMPDIR=$T
cd "$T" || exit 1
start=$(cut -d' ' -f1 /proc/uptime)
uname -r > "$RESULTS/kernel.txt"
PYTHONPATH="$GUEST_DIR" timeout -k 5 "${GUEST_TIMEOUT:-800}" /usr/bin/python3 \
  "$GUEST_DIR/$DRIVER.py" > "$RESULTS/scenario-$DRIVER.log" 2>&1
echo "scenario $DRIVER rc=$?"
dmesg > "$RESULTS/dmesg.txt" 2>&1
end=$(cut -d' ' -f1 /proc/uptime)
echo "checks_s=$(awk "BEGIN{print $end - $start}") uptime_s=$end" > "$RESULTS/guest-done"
