#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# test-compliance-node.sh - v4l2-compliance on one node of a whole emulated
# card (ivtv-emu --card), allowing exactly the failures the real driver's
# node has (documented in README.md, "The ivtv card's other nodes"):
#   test-compliance-node.sh IVTV_EMU CARD NODE [-s] [EXPECTED_FAIL_REGEX]
# Fails unless every "fail:" line matches EXPECTED_FAIL_REGEX (none when
# empty) and the totals line is there.
set -u
emu=$1 card=$2 node=$3
shift 3
stream=
if [ "${1:-}" = -s ]; then stream=-s; shift; fi
expect=${1:-}
command -v v4l2-compliance >/dev/null ||
  { echo "SKIP: v4l2-compliance missing"; exit 77; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$emu" --card "$card" -- timeout 120 v4l2-compliance -P $stream -d "$node" \
  > "$log" 2>&1
grep -E 'fail:|warn:|Total' "$log"
total=$(grep '^Total for' "$log" | tail -1)
[ -n "$total" ] || { cat "$log"; echo "FAIL: no totals"; exit 1; }
if [ -n "$expect" ]; then
  other=$(grep 'fail:' "$log" | grep -Ev "$expect")
else
  other=$(grep 'fail:' "$log")
fi
[ -z "$other" ] || { cat "$log"; echo "FAIL: unexpected failures:"; echo "$other"; exit 1; }
echo "$card $node: $total (failures all the real driver's)"
