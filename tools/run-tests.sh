#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, runs every
# meson test suite and ends with one line "tests: N passed, N failed, N skipped"
# computed from meson's own results (the testlog*.json of every run).
# Runs: the normal build, then the ASan+UBSan build (build-asan), then the
# ThreadSanitizer build (build-tsan), then valgrind on the normal build.  Extra arguments go to the normal
# `meson test` (e.g. --suite element) and leave the variants out.
set -uo pipefail
cd "$(dirname "$0")/.."
bash tools/deps.sh || exit 1
bash tools/build.sh || { echo "tests: 0 passed, 1 failed"; exit 1; }

rm -f build/meson-logs/testlog.json
meson test -C build --print-errorlogs --num-processes 2 "$@"
rc=$?
logs=(build/meson-logs/testlog.json)

# Variants (skipped when extra arguments select a part of the suite):
# ASan+UBSan on the element and emu suites, valgrind memcheck on the part of
# the element suite that runs our code (tests/sanitize/*.sh say how).
if [ $# -eq 0 ]; then
  if [ ! -f build-asan/build.ninja ]; then
    meson setup build-asan --werror --buildtype=debug \
      -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
  fi
  if meson compile -C build-asan >/dev/null; then
    rm -f build-asan/meson-logs/testlog-asan*.json
    meson test -C build-asan --print-errorlogs --num-processes 2 \
      --logbase testlog-asan --suite element --suite emu \
      --wrapper "$PWD/tests/sanitize/asan-run.sh" || rc=1
    # (meson adds the wrapper's name to the log's name)
    logs+=(build-asan/meson-logs/testlog-asan*.json)
  else
    echo "run-tests: the ASan build failed" >&2; rc=1
  fi
  # ThreadSanitizer: the element runs where the threads meet (the reader
  # thread, create(), the signal watch, live property changes) -- a
  # reconnect while capturing on read() (reconnect-read) and streaming
  # (live-changes-ready-stream), live changes and a colour balance across a
  # reconnect, a stall, the PVR-250 basics, PAUSED on an MPEG card (the
  # encoder paused, the reader on), the priority unit test -- in
  # about a minute; tests/sanitize/tsan-run.sh says how.  The rest of the
  # element suite repeats these paths with timing checks TSan's slowdown
  # breaks (frame spacing) or through programs that are not TSan-built.
  if [ ! -f build-tsan/build.ninja ]; then
    meson setup build-tsan --werror --buildtype=debug \
      -Db_sanitize=thread -Db_lundef=false >/dev/null
  fi
  if meson compile -C build-tsan >/dev/null; then
    rm -f build-tsan/meson-logs/testlog-tsan*.json
    meson test -C build-tsan --print-errorlogs --num-processes 2 \
      --logbase testlog-tsan --timeout-multiplier 3 \
      --wrapper "$PWD/tests/sanitize/tsan-run.sh" \
      reconnect-read live-changes-reconnect live-changes-ready-stream \
      element-pvr250 robust-stall pause-pvr250 test-priority || rc=1
    logs+=(build-tsan/meson-logs/testlog-tsan*.json)
  else
    echo "run-tests: the TSan build failed" >&2; rc=1
  fi
  # valgrind: the unit tests, the read path with its faults, the error
  # cases, the streaming path, negotiation and reconnect -- every file of
  # gst/ -- in about a minute; the other element runs repeat these paths
  # with other emulator faults and timing-sensitive checks (dropped
  # frames) that valgrind's slowdown breaks.
  rm -f build/meson-logs/testlog-valgrind*.json
  meson test -C build --print-errorlogs --num-processes 2 \
    --logbase testlog-valgrind --timeout-multiplier 4 \
    --wrapper "$PWD/tests/sanitize/valgrind-run.sh" \
    test-caps test-io-mode test-probe test-device test-read element-errors \
    element-pvr250 reconnect-read-unplugged element-eio stream-tv \
    test-negotiate test-layout reconnect-stream || rc=1
  logs+=(build/meson-logs/testlog-valgrind*.json)
fi

python3 - "${logs[@]}" <<'PY'
import json, sys
passed = failed = skipped = 0
for path in sys.argv[1:]:
    try:
        lines = [l for l in open(path).read().splitlines() if l.strip()]
    except OSError:
        lines = []
    if not lines:
        print(f"run-tests: no results in {path}", file=sys.stderr)
        failed += 1
    for line in lines:
        r = json.loads(line)["result"]
        if r in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif r == "SKIP":
            skipped += 1
        else:
            failed += 1
print(f"tests: {passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
PY
summary=$?
[ $rc -eq 0 ] && [ $summary -eq 0 ]
