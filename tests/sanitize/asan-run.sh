#!/bin/sh
# tests/sanitize/asan-run.sh: `meson test --wrapper` for the ASan+UBSan build
# (tools/run-tests.sh runs it on build-asan, suites element and emu):
#   meson test -C build-asan --wrapper "$PWD/tests/sanitize/asan-run.sh" --suite element --suite emu
# It runs one test command with the options of this variant:
# - every finding is fatal and fails the test: ASan halts on the first error,
#   UBSan has halt_on_error=1 (with a stack trace), both exit with status 1;
# - libasan is preloaded into every process of the test, because tests run
#   programs that are not ASan-built (sh, mktemp, gst-launch-1.0, v4l2-ctl,
#   gst-plugin-scanner) with our ASan-built plugin or the LD_PRELOADed
#   ASan-built emulator; verify_asan_link_order=0 because ivtv-emu puts the
#   emulator library in front of libasan in LD_PRELOAD;
# - LeakSanitizer runs in our own executables only (the list below): Debian's
#   tools (mktemp, gst-launch-1.0, ...) do not free before exit and are not
#   ours.  ASan reads include_if_exists=DIR/%b per process, %b being the
#   program's name, and DIR holds a file turning leak checking on for each
#   of our programs.  lsan.supp suppresses GLib/GStreamer one-time
#   allocations only, never our code.
# - every test shares one plugin registry, built once without leak checking
#   (scanning loads every system plugin, whose leaks are not ours).
here=$(cd "$(dirname "$0")" && pwd)

# Left out of this variant: test-stream-gst.sh's v4l2ctl-stream case runs
# coreutils' split, which asks aligned_alloc for a size that is not a
# multiple of the alignment; the preloaded libasan aborts it and the check
# after it would then pass without comparing frames.  It runs in the
# normal build.
case " $* " in
  *" v4l2ctl-stream "*)
    echo "SKIP: v4l2ctl-stream is not run under ASan (coreutils split aborts in libasan's aligned_alloc check)"
    exit 77 ;;
esac
libasan=$(${CC:-cc} -print-file-name=libasan.so)
case $libasan in
  /*) ;;
  *) echo "asan-run: SKIP: libasan.so (gcc's ASan runtime) not found" >&2; exit 77 ;;
esac

# our programs: the test executables and the emulator's helpers
our_programs="test-names test-caps test-io-mode test-probe test-device
  test-read test-negotiate test-layout test-element test-element-errors
  test-reconnect test-stream test-stream-tv test-read-pool test-stream-clock
  stream-client ivtv-emu-info"
leakdir=${TMPDIR:-/tmp}/ivtv-asan-leaks-$(id -u)
mkdir -p "$leakdir" || exit 1
for p in $our_programs; do
  [ -f "$leakdir/$p" ] ||
    echo "detect_leaks=1:fast_unwind_on_malloc=0" > "$leakdir/$p"
done

ASAN_OPTIONS="detect_leaks=0:include_if_exists=$leakdir/%b:verify_asan_link_order=0:halt_on_error=1:exitcode=1:strict_string_checks=1:detect_stack_use_after_return=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
LD_PRELOAD="$libasan${LD_PRELOAD:+:$LD_PRELOAD}"
export ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS LD_PRELOAD

if [ -n "${GST_PLUGIN_PATH_1_0:-}" ] && command -v gst-inspect-1.0 >/dev/null; then
  GST_REGISTRY=${GST_PLUGIN_PATH_1_0%%:*}/asan-registry.bin
  export GST_REGISTRY
  # flock: two tests starting together scan once
  flock "$GST_REGISTRY.lock" gst-inspect-1.0 coreelements >/dev/null 2>&1
fi
exec "$@"
