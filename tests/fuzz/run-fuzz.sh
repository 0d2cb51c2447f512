#!/bin/sh
# tests/fuzz/run-fuzz.sh FUZZER CORPUS SECONDS [ARTIFACT_DIR]: the meson
# test of suite "fuzz".  Fuzzes for SECONDS starting from the seed CORPUS
# (copied: the repository's corpus is not changed) and fails on any crash,
# sanitizer finding, leak or input that takes over 10 s.  A crashing input
# is kept in ARTIFACT_DIR (default: ./fuzz-artifacts) and its path printed;
# replay it with `FUZZER FILE`.  Exit 77 when FUZZER is the stub made
# without clang/libFuzzer.
fuzzer=$1 corpus=$2 secs=$3 art=${4:-$PWD/fuzz-artifacts}
[ -x "$fuzzer" ] || { echo "run-fuzz: $fuzzer is missing: build first"; exit 1; }
if ! head -c 4 "$fuzzer" | grep -q ELF; then
  exec "$fuzzer"                # the stub: prints SKIP and why, exits 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/ivtv-fuzz.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
mkdir -p "$art"
log=$work/fuzz.log
mkdir "$work/corpus" && { [ -d "$corpus" ] && cp "$corpus"/* "$work/corpus/" 2>/dev/null; }
"$fuzzer" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
  -max_len=4096 -print_final_stats=1 -artifact_prefix="$art/" \
  "$work/corpus" > "$log" 2>&1
rc=$?
grep -v '^#[0-9]*[[:space:]]*\(NEW\|REDUCE\|pulse\)' "$log"
if [ $rc -ne 0 ]; then
  echo "run-fuzz: FAILED (status $rc): the input is kept in $art (see above)"
  exit 1
fi
echo "run-fuzz: no findings in $secs s"
exit 0
