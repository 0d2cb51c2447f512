#!/bin/sh
# test-stream-run.sh IVTV_EMU TEST [EMULATOR ARGS...]
# Runs the streaming test binary TEST under `IVTV_EMU EMULATOR ARGS -- TEST`.
# Exits 77 (skip, with the reason) when this emulator does not know the
# profile or fault asked for (e.g. a build without the streaming profiles);
# otherwise the test's own exit status.
emu=$1 test=$2
shift 2
if ! out=$("$emu" "$@" -- true 2>&1); then
  echo "SKIP: the emulator refuses '$*': $out"
  exit 77
fi
exec "$emu" "$@" -- "$test"
