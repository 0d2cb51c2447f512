#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/eco: the Debian packages built from the tree.  Runs the documented
# command `dpkg-buildpackage -us -uc -b` in a copy of the source tree (the
# files git knows, committed or not), then checks:
#  - both packages are made: gstreamer1.0-ivtvsrc (the plugin in GStreamer's
#    plugin directory for prefix /usr, the documents the Doc-uri names) and
#    ivtv-capture (the command, its man page, its bash completion);
#  - lintian reports no error;
#  - installed into a throwaway root (dpkg -x of both), the plugin alone gives
#    gst-inspect-1.0 ivtvsrc with the version of debian/changelog and meson,
#    ivtv-capture --help and --version work, the man page renders, the
#    completion loads, every link of the installed documents resolves;
#  - apt-get --simulate installs both (their dependencies exist);
#  - as root where a private mount namespace with overlays is allowed:
#    `dpkg -i` of both on this system, its /usr, /var and /etc overlays of a
#    namespace that ends with the test (nothing outside changes), then as a
#    user with no GStreamer variables: gst-inspect-1.0 ivtvsrc finds the
#    plugin in GStreamer's own path and its Doc-uri names an installed file,
#    ivtv-capture --help runs from PATH, `man ivtv-capture` shows the page,
#    bash-completion's loader completes its options; ivtvsrc is not found
#    before the install (the check proves something).
#   test-deb.sh SOURCE_ROOT MESON_VERSION
set -u
src=${1:?usage: $0 SOURCE_ROOT MESON_VERSION}; version=$2
for t in dpkg-buildpackage dh git; do
  command -v "$t" >/dev/null || { echo "skip: no $t (bash tools/deps.sh installs debhelper)"; exit 77; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

mkdir "$tmp/src"
(cd "$src" && git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
  tar --null -T - -cf -) | tar -C "$tmp/src" -xf - || { echo "FAIL: copying the tree"; exit 1; }
changelog_version=$(cd "$tmp/src" && dpkg-parsechangelog -S Version)
[ "$changelog_version" = "$version" ] && ok "debian/changelog is at meson's version $version" ||
  bad "debian/changelog says $changelog_version, meson's project() $version"

echo "running: dpkg-buildpackage -us -uc -b"
if ! (cd "$tmp/src" && DEB_BUILD_OPTIONS="parallel=2" dpkg-buildpackage -us -uc -b) > "$tmp/build.log" 2>&1; then
  tail -40 "$tmp/build.log"; echo "FAIL: dpkg-buildpackage -us -uc -b failed"; exit 1
fi
plugin_deb=$(ls "$tmp"/gstreamer1.0-ivtvsrc_*.deb 2>/dev/null)
capture_deb=$(ls "$tmp"/ivtv-capture_*.deb 2>/dev/null)
[ -f "$plugin_deb" ] && [ -f "$capture_deb" ] || { ls "$tmp"; echo "FAIL: the two packages were not made"; exit 1; }
ok "dpkg-buildpackage made $(basename "$plugin_deb") and $(basename "$capture_deb")"

pluginsdir=$(pkg-config --variable=pluginsdir gstreamer-1.0)
contains() { # deb, path
  dpkg-deb -c "$1" | awk '{print substr($6, 2)}' | grep -qx "$2" &&
    ok "$(basename "$1") has $2" || bad "$(basename "$1") lacks $2"
}
contains "$plugin_deb" "$pluginsdir/libgstivtv.so"
contains "$plugin_deb" /usr/share/doc/ivtvsrc/ivtvsrc.md
contains "$plugin_deb" /usr/share/doc/ivtvsrc/README.md
contains "$plugin_deb" /usr/share/locale/de/LC_MESSAGES/ivtvsrc.mo
contains "$capture_deb" /usr/bin/ivtv-capture
contains "$capture_deb" /usr/share/man/man1/ivtv-capture.1.gz
contains "$capture_deb" /usr/share/bash-completion/completions/ivtv-capture

if command -v lintian >/dev/null; then
  lintian --allow-root "$tmp"/ivtvsrc_*_*.changes > "$tmp/lintian" 2>&1
  cat "$tmp/lintian"
  if grep -q '^E:' "$tmp/lintian"; then bad "lintian reports errors"; else ok "lintian: no errors"; fi
else
  bad "no lintian (bash tools/deps.sh installs it)"
fi

root="$tmp/root"
dpkg -x "$plugin_deb" "$root" && dpkg -x "$capture_deb" "$root" || bad "dpkg -x failed"
export GST_PLUGIN_SYSTEM_PATH_1_0="" GST_PLUGIN_PATH_1_0="$root$pluginsdir" GST_REGISTRY_1_0="$tmp/registry.bin"
unset GST_PLUGIN_PATH GST_REGISTRY
if gst-inspect-1.0 ivtvsrc > "$tmp/inspect" 2>&1 &&
   grep -q "Filename *$root$pluginsdir/libgstivtv.so" "$tmp/inspect"; then
  ok "gst-inspect-1.0 ivtvsrc works from the package's plugin alone"
else
  cat "$tmp/inspect"; bad "gst-inspect-1.0 ivtvsrc does not load the package's plugin"
fi
grep -Eq "^ *Version *$version\$" "$tmp/inspect" && ok "gst-inspect-1.0 shows version $version" ||
  bad "gst-inspect-1.0 does not show version $version"
doc=$(sed -n 's|^ *Doc-uri *file://||p' "$tmp/inspect")
[ -n "$doc" ] && [ -s "$root$doc" ] && ok "the Doc-uri file://$doc is in the package" ||
  bad "the Doc-uri 'file://$doc' is not in the package"
python3 "$(dirname "$0")/check-doc-links.py" "$root/usr/share/doc/ivtvsrc" || bad "dead links in the package's documents"

"$root/usr/bin/ivtv-capture" --help > "$tmp/help" 2>&1 && grep -q -- '--stop-after-no-signal' "$tmp/help" &&
  ok "ivtv-capture --help works" || { cat "$tmp/help"; bad "ivtv-capture --help fails"; }
first=$("$root/usr/bin/ivtv-capture" --version | head -1)
[ "$first" = "ivtv-capture (ivtvsrc) $version" ] && ok "ivtv-capture --version: $first" ||
  bad "ivtv-capture --version says '$first'"
LC_ALL=C.UTF-8 LANGUAGE=de IVTV_LOCALEDIR="$root/usr/share/locale" "$root/usr/bin/ivtv-capture" --help |
  grep -q 'Nach dieser Dauer aufhören' && ok "the package's German catalogue translates ivtv-capture --help" ||
  bad "ivtv-capture --help is not German with the package's catalogue"
if man -l "$root/usr/share/man/man1/ivtv-capture.1.gz" 2>/dev/null | grep -q 'stop-after-no-signal'; then
  ok "man -l renders the man page"
else
  bad "the man page does not render or lacks the options"
fi
out=$(bash -c 'source "$1"; COMP_WORDS=(ivtv-capture --st); COMP_CWORD=1; _ivtv_capture; echo "${COMPREPLY[*]}"' \
  _ "$root/usr/share/bash-completion/completions/ivtv-capture" 2>&1)
[ "$out" = "--standard --stop-after-no-signal" ] && ok "the completion completes --st: $out" ||
  bad "the completion of --st gives '$out'"

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
  if apt-get install --simulate "$plugin_deb" "$capture_deb" > "$tmp/apt" 2>&1 &&
     grep -q '^Inst ivtv-capture' "$tmp/apt"; then
    ok "apt-get --simulate installs both packages"
  else
    cat "$tmp/apt"; bad "apt-get --simulate cannot install the packages"
  fi
fi

# dpkg -i for real, in a namespace whose /usr, /var and /etc are overlays
cat > "$tmp/inside.sh" <<'SH'
set -u
tmp=$1 plugin_deb=$2 capture_deb=$3
for d in usr var etc; do
  mkdir -p "$tmp/ov/$d/up" "$tmp/ov/$d/work"
  mount -t overlay overlay -o "lowerdir=/$d,upperdir=$tmp/ov/$d/up,workdir=$tmp/ov/$d/work" "/$d" 2>/dev/null ||
    { echo "skip: no overlay mount on /$d here"; exit 77; }
done
mkdir -p "$tmp/home"
user() { env -i PATH=/usr/bin:/bin HOME="$tmp/home" LANG=C.UTF-8 TERM=dumb "$@"; }
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
if user gst-inspect-1.0 ivtvsrc > /dev/null 2>&1; then
  bad "ivtvsrc is found before the install: the checks below would prove nothing"
fi
if dpkg -i "$plugin_deb" "$capture_deb" > "$tmp/dpkg.log" 2>&1; then
  ok "dpkg -i installs both packages"
else
  cat "$tmp/dpkg.log"; echo "FAIL: dpkg -i of both packages failed"; exit 1
fi
user gst-inspect-1.0 ivtvsrc > "$tmp/inspect-installed" 2>&1
pluginsdir=$(pkg-config --variable=pluginsdir gstreamer-1.0)
# (/lib is /usr/lib on a merged /usr: GStreamer may name either)
loaded=$(sed -n 's|^ *Filename *||p' "$tmp/inspect-installed")
[ -n "$loaded" ] && [ "$(readlink -f "$loaded")" = "$(readlink -f "$pluginsdir/libgstivtv.so")" ] &&
  ok "installed: gst-inspect-1.0 ivtvsrc loads $loaded, the package's $pluginsdir/libgstivtv.so" ||
  { cat "$tmp/inspect-installed"; bad "installed: gst-inspect-1.0 ivtvsrc does not find the plugin"; }
doc=$(sed -n 's|^ *Doc-uri *file://||p' "$tmp/inspect-installed")
[ -n "$doc" ] && [ -s "$doc" ] && ok "installed: the Doc-uri file://$doc is there" ||
  bad "installed: the Doc-uri 'file://$doc' is not an installed file"
[ "$(user sh -c 'command -v ivtv-capture')" = /usr/bin/ivtv-capture ] &&
  user ivtv-capture --help > "$tmp/help-installed" 2>&1 &&
  grep -q -- '--stop-after-no-signal' "$tmp/help-installed" &&
  ok "installed: ivtv-capture --help runs from PATH" ||
  { cat "$tmp/help-installed"; bad "installed: ivtv-capture --help fails"; }
user man -P cat ivtv-capture 2>/dev/null | grep -q 'stop-after-no-signal' &&
  ok "installed: man ivtv-capture shows the page" || bad "installed: man ivtv-capture shows no page"
out=$(user bash -c '. /usr/share/bash-completion/bash_completion
  __load_completion ivtv-capture && COMP_WORDS=(ivtv-capture --st) COMP_CWORD=1 &&
  _ivtv_capture && echo "${COMPREPLY[*]}"' 2>&1)
[ "$out" = "--standard --stop-after-no-signal" ] &&
  ok "installed: bash-completion loads the completion, --st gives $out" ||
  bad "installed: bash-completion's loader gives '$out' for --st"
exit $fail
SH
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null &&
   unshare -m --propagation private true 2>/dev/null; then
  unshare -m --propagation private bash "$tmp/inside.sh" "$tmp" "$plugin_deb" "$capture_deb"
  case $? in 0) ;; 77) ;; *) fail=1 ;; esac
else
  echo "skip: dpkg -i needs root and a private mount namespace (unshare -m)"
fi
exit $fail
