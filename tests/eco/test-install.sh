#!/usr/bin/env bash
# tests/eco: meson install puts the plugin in GStreamer's plugin directory
# by default, and the installed file alone (GST_PLUGIN_PATH = exactly that
# install's plugin dir, no system plugins) gives gst-inspect-1.0 ivtvsrc.
#   test-install.sh MESON BUILD_DIR
set -u
meson=${1:?usage: $0 MESON BUILD_DIR}; build=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
unset GST_PLUGIN_PATH GST_PLUGIN_PATH_1_0 GST_REGISTRY GST_REGISTRY_1_0

gstdir=$(pkg-config --variable=pluginsdir gstreamer-1.0)
target=$("$meson" introspect --installed "$build" |
  python3 -c 'import json,sys; print("\n".join(v for v in json.load(sys.stdin).values() if v.endswith("/libgstivtv.so")))')
echo "install target: $target; GStreamer's plugin dir: $gstdir"
if [ "$target" = "$gstdir/libgstivtv.so" ]; then
  echo "ok: installs into GStreamer's plugin directory"
else
  echo "FAIL: would install to '$target', not GStreamer's $gstdir"; fail=1
fi

"$meson" install -C "$build" --no-rebuild --quiet --destdir "$tmp/root" > "$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; echo "FAIL: meson install --destdir failed"; exit 1; }
plugdir="$tmp/root$(dirname "$target")"
echo "installed files:"; (cd "$tmp/root" && find . -type f | sort)
[ -f "$plugdir/libgstivtv.so" ] || { echo "FAIL: $plugdir/libgstivtv.so not installed"; exit 1; }
# the element's doc-uri (file://, option doc-uri=auto) names an installed file
doc=$(GST_PLUGIN_SYSTEM_PATH_1_0="" GST_PLUGIN_PATH_1_0="$plugdir" GST_REGISTRY_1_0="$tmp/registry-doc.bin" \
  gst-inspect-1.0 ivtvsrc 2>/dev/null | sed -n 's|^ *Doc-uri *file://||p')
if [ -n "$doc" ] && [ -s "$tmp/root$doc" ]; then
  echo "ok: the doc-uri file://$doc is installed"
else
  echo "FAIL: doc-uri 'file://$doc' is not an installed file"; fail=1
fi

# the installed documents link only to installed files
if python3 "$(dirname "$0")/check-doc-links.py" "$tmp/root$(dirname "$doc")"; then
  echo "ok: every link of the installed documents resolves"
else
  echo "FAIL: dead links in the installed documents"; fail=1
fi

inspect() { # plugin dir, args...
  local dir=$1; shift
  GST_PLUGIN_SYSTEM_PATH_1_0="" GST_PLUGIN_PATH_1_0="$dir" GST_REGISTRY_1_0="$tmp/registry-$RANDOM.bin" \
    gst-inspect-1.0 "$@"
}
# isolation: with no plugin path ivtvsrc must not be found
mkdir -p "$tmp/empty"
if inspect "$tmp/empty" ivtvsrc > /dev/null 2>&1; then
  echo "FAIL: ivtvsrc found without any plugin path: the check below would prove nothing"; fail=1
fi
if inspect "$plugdir" ivtvsrc > "$tmp/inspect" 2>&1; then
  if grep -q "Filename *$plugdir/libgstivtv.so" "$tmp/inspect"; then
    echo "ok: gst-inspect-1.0 ivtvsrc works from the installed plugin alone"
  else
    cat "$tmp/inspect"; echo "FAIL: gst-inspect-1.0 loaded ivtvsrc from elsewhere"; fail=1
  fi
else
  cat "$tmp/inspect"; echo "FAIL: gst-inspect-1.0 ivtvsrc fails with the installed plugin"; fail=1
fi
if inspect "$plugdir" ivtv 2>&1 | grep -q 'ivtvdeviceprovider'; then
  echo "ok: the installed plugin registers ivtvdeviceprovider"
else
  echo "FAIL: the installed plugin has no ivtvdeviceprovider"; fail=1
fi
exit $fail
