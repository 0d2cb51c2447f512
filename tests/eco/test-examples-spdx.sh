#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/eco: every file of examples/ opens (within its first 3 lines) with an
# SPDX-License-Identifier like the rest of the tree, so a user who copies
# one knows its licence.
#   test-examples-spdx.sh SOURCE_ROOT
set -u
root=${1:?usage: $0 SOURCE_ROOT}
fail=0 n=0
for f in "$root"/examples/*; do
  [ -f "$f" ] || continue
  n=$((n + 1))
  if head -3 "$f" | grep -q 'SPDX-License-Identifier: [A-Za-z0-9.+-]'; then
    echo "ok: examples/${f##*/}"
  else
    echo "FAIL: examples/${f##*/} has no SPDX-License-Identifier in its first 3 lines"; fail=1
  fi
done
[ $n -gt 0 ] || { echo "FAIL: no files in $root/examples"; fail=1; }
exit $fail
