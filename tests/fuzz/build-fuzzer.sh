#!/bin/sh
# tests/fuzz/build-fuzzer.sh OUT SRCROOT: builds the libFuzzer harness
# fuzz-probe.c with clang (-fsanitize=fuzzer,address,undefined), linking the
# gst/ sources it drives directly (as the unit tests in tests/unit do).
# Without clang or its libFuzzer runtime, OUT is a stub that exits 77 (skip)
# with the reason, so the build never fails for a missing fuzzer.
out=$1 src=$2
sources="device/ivtvcaps.c session/ivtvsettings.c device/ivtvdebug.c
  device/ivtvdevice.c device/ivtviomode.c session/ivtvencoder.c device/ivtvnames.c
  paths/ivtvpath.c paths/ivtvpcm.c device/ivtvprobe.c paths/ivtvread.c
  device/ivtvcard.c"
stub () {
  printf '#!/bin/sh\necho "SKIP: %s"\nexit 77\n' "$1" > "$out"
  chmod +x "$out"
  exit 0
}
cc=
for c in ${CLANG:-} clang-14 clang; do
  command -v "$c" >/dev/null 2>&1 && { cc=$c; break; }
done
[ -n "$cc" ] || stub "clang is not installed (apt-get install clang-14 libclang-rt-14-dev)"
echo 'int LLVMFuzzerTestOneInput (const char *d, unsigned long n) { (void) d; (void) n; return 0; }' \
  > "$out.probe.c"
if ! "$cc" -fsanitize=fuzzer "$out.probe.c" -o "$out.probe" 2>/dev/null; then
  rm -f "$out.probe.c" "$out.probe"
  stub "$cc has no libFuzzer runtime (apt-get install libclang-rt-14-dev)"
fi
rm -f "$out.probe.c" "$out.probe"
pkgs="gstreamer-1.0 gstreamer-base-1.0 gstreamer-video-1.0 gstreamer-allocators-1.0 libv4l2"
files=
for f in $sources; do files="$files $src/gst/$f"; done
# shellcheck disable=SC2046
exec "$cc" -std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -Wall -Wextra -Werror -Wno-unused-parameter \
  -I"$src/gst/element" -I"$src/gst/session" -I"$src/gst/paths" \
  -I"$src/gst/device" -I"$src/gst/provider" -DGETTEXT_PACKAGE='"ivtvsrc"' $(pkg-config --cflags $pkgs) \
  "$src/tests/fuzz/fuzz-probe.c" $files \
  $(pkg-config --libs $pkgs) -o "$out"
