#!/usr/bin/env bash
# Installs, on Debian 12, every package the build, the demo and the tests need.
# Skips apt-get when everything is already there. Needs root (or sudo).
set -euo pipefail

PKGS=(
  build-essential pkg-config meson ninja-build python3
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libv4l-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-base-apps
  gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-libav
  v4l-utils valgrind clang-14 libclang-rt-14-dev
  qemu-system-x86 busybox-static cpio python3-gi gir1.2-gstreamer-1.0
  libgudev-1.0-dev python3-gst-1.0 udev gettext
  tmux xvfb x11-utils gstreamer1.0-x dvdauthor mjpegtools
  ffmpeg gstreamer1.0-plugins-ugly libzvbi-dev gstreamer1.0-alsa alsa-utils
  debhelper lintian help2man bash-completion git
)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "deps: installing ${missing[*]}" >&2
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
