#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# test-stream-run.sh IVTV_EMU TEST [EMULATOR ARGS...]
# Runs the streaming test binary TEST under `IVTV_EMU EMULATOR ARGS -- TEST`.
# A profile or fault this emulator does not know is a failure, not a skip
# (issue 26: ten streaming runs could otherwise pass by skipping); else the
# test's own exit status.
emu=$1 test=$2
shift 2
if ! out=$("$emu" "$@" -- true 2>&1); then
  echo "FAIL: the emulator refuses '$*': $out"
  exit 1
fi
exec "$emu" "$@" -- "$test"
