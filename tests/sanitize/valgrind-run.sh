#!/bin/sh
# tests/sanitize/valgrind-run.sh: `meson test --wrapper` running the GstCheck
# suite (element) under valgrind memcheck (tools/run-tests.sh):
#   meson test -C build --wrapper "$PWD/tests/sanitize/valgrind-run.sh" --suite element
# Valgrind follows the test into the programs it starts (ivtv-emu is a shell
# script that execs the test binary; GstCheck forks one child per case), but
# not into Debian's programs (sh, mktemp, rm, gst-plugin-scanner), which are
# not ours.  Any memory error or definite leak fails the test (exit 1).
# Suppressions: GLib's own file (its one-time allocations) and
# tests/valgrind.supp (GLib/GStreamer one-time allocations, never our code).
# G_SLICE=always-malloc and G_DEBUG=gc-friendly make GLib's allocations
# visible to memcheck.
here=$(cd "$(dirname "$0")" && pwd)
command -v valgrind >/dev/null ||
  { echo "SKIP: valgrind is not installed"; exit 77; }
supp=
[ -f /usr/share/glib-2.0/valgrind/glib.supp ] &&
  supp=--suppressions=/usr/share/glib-2.0/valgrind/glib.supp

G_SLICE=always-malloc G_DEBUG=gc-friendly
# valgrind is ~20x slower: GstCheck's per-case timeout grows with it
CK_TIMEOUT_MULTIPLIER=${CK_TIMEOUT_MULTIPLIER:-4}
export G_SLICE G_DEBUG CK_TIMEOUT_MULTIPLIER
# one plugin registry for every test, made before (scanning loads every
# system plugin, which is not ours to check)
if [ -n "${GST_PLUGIN_PATH_1_0:-}" ] && command -v gst-inspect-1.0 >/dev/null; then
  GST_REGISTRY=${GST_PLUGIN_PATH_1_0%%:*}/valgrind-registry.bin
  export GST_REGISTRY
  flock "$GST_REGISTRY.lock" gst-inspect-1.0 coreelements >/dev/null 2>&1
fi

vg_args="--tool=memcheck --error-exitcode=1 --leak-check=full \
  --show-leak-kinds=definite --errors-for-leak-kinds=definite \
  --num-callers=40 --child-silent-after-fork=no --trace-children=yes \
  --trace-children-skip=/bin/*,/usr/bin/*,/usr/lib/*,/lib/*,*/gst-plugin-scanner \
  $supp --suppressions=$here/../valgrind.supp --quiet"

# The test command is our executable, or a script of ours that runs one
# (ivtv-emu ... -- TEST, test-stream-run.sh EMU TEST ...).  Valgrind runs
# the executable only: a shell under valgrind would report the shell's own
# leaks.  For a script, the executable's argument is replaced by a small
# script that execs valgrind on it.
is_elf () { [ "$(head -c 4 "$1" 2>/dev/null | od -An -c | tr -d ' ')" = '177ELF' ]; }
if is_elf "$1"; then
  exec valgrind $vg_args "$@"
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ivtv-vg.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
vg_wrap () {
  printf '#!/bin/sh\nexec valgrind %s "%s" "$@"\n' "$vg_args" "$1" > "$tmp/vg"
  chmod +x "$tmp/vg"
  echo "$tmp/vg"
}
cmd=$1; shift
case $cmd in
  */ivtv-emu)
    n=0 done=
    for a in "$@"; do
      n=$((n + 1))
      if [ -z "$done" ] && [ "$a" = -- ]; then done=$n; fi
    done
    [ -n "$done" ] || { echo "valgrind-run: no -- in ivtv-emu command" >&2; exit 1; }
    i=0
    for a in "$@"; do
      shift; i=$((i + 1))
      if [ $i -eq $((done + 1)) ]; then set -- "$@" "$(vg_wrap "$a")"; else set -- "$@" "$a"; fi
    done
    "$cmd" "$@" ;;
  */test-stream-run.sh)
    emu=$1 test=$2; shift 2
    "$cmd" "$emu" "$(vg_wrap "$test")" "$@" ;;
  *)
    echo "valgrind-run: SKIP: do not know where the executable is in: $cmd $*"
    exit 77 ;;
esac
