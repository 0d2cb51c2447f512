#!/usr/bin/env bash
# Configures (once) and builds the project in ./build with warnings as errors.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build/build.ninja ]; then
  meson setup build --werror "$@"
fi
meson compile -C build
