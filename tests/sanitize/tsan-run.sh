#!/bin/sh
# tests/sanitize/tsan-run.sh: `meson test --wrapper` for the ThreadSanitizer
# build (tools/run-tests.sh runs it on build-tsan, -Db_sanitize=thread, for
# the element tests listed there):
#   meson test -C build-tsan --wrapper "$PWD/tests/sanitize/tsan-run.sh" reconnect-read ...
# It runs one test command with the options of this variant:
# - a data race, a lock-order inversion or a bad mutex use fails the test
#   (exitcode 66); tsan.supp suppresses GLib/GStreamer internals only;
# - GLib's GMutex is a futex TSan cannot see: tsan-glib.c (LD_PRELOADed)
#   tells TSan about each lock and unlock;
# - only our test programs (TSan-built) run the plugin: the emulator
#   (LD_PRELOADed, TSan-built too) serves them; no non-TSan program may load
#   the TSan plugin, so the tests listed in run-tests.sh are C programs;
# - check runs its tests in the one process (CK_FORK=no: TSan cannot start
#   threads in a child forked from a threaded process);
# - the registry is scanned in the test's own process (GST_REGISTRY_FORK=no:
#   gst-plugin-scanner is not TSan-built) over a system plugin folder of the
#   few plugins the tests use (every system plugin would bring its own
#   reports: OpenNI2, DirectFB, ...);
# - symbolize=0: TSan's symbolizer maps memory while TSan starts, and the
#   emulator's mmap() interposer cannot run that early; reports give
#   module+offset, which `addr2line -e MODULE OFFSET` turns into a line.
here=$(cd "$(dirname "$0")" && pwd)

# GLib's GMutex made visible to TSan (tsan-glib.c), built once per user
shim=${TMPDIR:-/tmp}/ivtv-tsan-glib-$(id -u).so
if [ ! -f "$shim" ] || [ "$here/tsan-glib.c" -nt "$shim" ]; then
  # shellcheck disable=SC2046
  flock "$shim.lock" ${CC:-cc} -shared -fPIC -O1 -o "$shim.tmp" \
    "$here/tsan-glib.c" $(pkg-config --cflags --libs glib-2.0) -ldl &&
    mv "$shim.tmp" "$shim" || { echo "tsan-run: cannot build $shim" >&2; exit 1; }
fi
LD_PRELOAD="$shim${LD_PRELOAD:+:$LD_PRELOAD}"
export LD_PRELOAD
sysdir=$(pkg-config --variable=pluginsdir gstreamer-1.0 2>/dev/null)
[ -d "$sysdir" ] || sysdir=/usr/lib/x86_64-linux-gnu/gstreamer-1.0
plugins=${TMPDIR:-/tmp}/ivtv-tsan-plugins-$(id -u)
mkdir -p "$plugins" || exit 1
for p in coreelements app coretracers typefindfunctions videoconvertscale \
    videotestsrc audioconvert mpegpsdemux videoparsersbad; do
  [ -e "$sysdir/libgst$p.so" ] && ln -sf "$sysdir/libgst$p.so" "$plugins/"
done
GST_PLUGIN_SYSTEM_PATH_1_0=$plugins
GST_REGISTRY_FORK=no
CK_FORK=no
TSAN_OPTIONS="halt_on_error=0:exitcode=66:second_deadlock_stack=1:suppressions=$here/tsan.supp${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
export GST_PLUGIN_SYSTEM_PATH_1_0 GST_REGISTRY_FORK CK_FORK TSAN_OPTIONS
if [ -n "${GST_REGISTRY:-}" ]; then
  GST_REGISTRY=${GST_REGISTRY%.bin}-tsan.bin
  export GST_REGISTRY
fi
exec "$@"
