#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, runs every
# meson test suite and ends with one line "tests: N passed, N failed, N skipped"
# computed from meson's own results (build/meson-logs/testlog.json).
# Extra arguments go to `meson test` (e.g. --suite element).
set -uo pipefail
cd "$(dirname "$0")/.."
bash tools/deps.sh || exit 1
bash tools/build.sh || { echo "tests: 0 passed, 1 failed"; exit 1; }

rm -f build/meson-logs/testlog.json
meson test -C build --print-errorlogs --num-processes 2 "$@"
rc=$?

python3 - build/meson-logs/testlog.json <<'PY'
import json, sys
passed = failed = skipped = 0
try:
    lines = open(sys.argv[1]).read().splitlines()
except OSError:
    lines = []
for line in lines:
    if not line.strip():
        continue
    r = json.loads(line)["result"]
    if r in ("OK", "EXPECTEDFAIL"):
        passed += 1
    elif r == "SKIP":
        skipped += 1
    else:
        failed += 1
if not lines:
    failed = 1
print(f"tests: {passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
PY
summary=$?
[ $rc -eq 0 ] && [ $summary -eq 0 ]
