#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/eco: ivtv-capture's version, man page and bash completion agree with
# the command:
#  - `ivtv-capture --version` says meson's version, as gst-inspect-1.0 does;
#  - the man page (help2man, from --help) renders with `man -l` and names
#    every option of `ivtv-capture --help`;
#  - the completion offers exactly the long options of `--help-all`, the
#    input and standard names after --input/--standard, and files for FILE.
#   test-man-completion.sh IVTV_CAPTURE MAN_PAGE|none COMPLETION VERSION
set -u
cap=${1:?usage}; man_page=$2; completion=$3; version=$4
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

first=$("$cap" --version | head -1)
[ "$first" = "ivtv-capture (ivtvsrc) $version" ] && ok "ivtv-capture --version: $first" ||
  bad "ivtv-capture --version says '$first', not version $version"
inspect=$(gst-inspect-1.0 ivtvsrc 2>&1 | sed -n 's/^ *Version *//p')
[ "$inspect" = "$version" ] && ok "gst-inspect-1.0 ivtvsrc: Version $inspect" ||
  bad "gst-inspect-1.0 ivtvsrc shows version '$inspect'"

help_opts=$("$cap" --help | sed -nE 's/^  (-[A-Za-z], )?(--[a-z][a-z-]*).*/\2/p' | sort -u)
all_opts=$("$cap" --help-all | sed -nE 's/^  (-[A-Za-z], )?(--[a-z][a-z-]*).*/\2/p' | sort -u)
if [ "$man_page" = none ]; then
  echo "skip: no man page (help2man not found at setup)"
else
  text=$(MANWIDTH=200 man -l "$man_page" 2>/dev/null)
  [ -n "$text" ] || bad "man -l $man_page renders nothing"
  missing=
  for o in $help_opts; do grep -qF -- "$o" <<<"$text" || missing="$missing $o"; done
  [ -z "$missing" ] && ok "the man page names all $(wc -w <<<"$help_opts") options of --help" ||
    bad "the man page lacks$missing"
  grep -q "^\.TH IVTV-CAPTURE.*\"ivtvsrc $version\"" "$man_page" && ok "the man page is of version $version" ||
    bad "the man page is not of version $version"
fi

complete_line() { # words... (the last is the one completed)
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ivtv_capture; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$completion" ivtv-capture "$@"
}
offered=$(complete_line -- | sort -u)
if [ "$offered" = "$all_opts" ]; then
  ok "the completion offers the $(wc -l <<<"$all_opts") long options of --help-all"
else
  bad "the completion's options differ from --help-all: $(diff <(echo "$all_opts") <(echo "$offered") | grep '^[<>]' | tr '\n' ' ')"
fi
[ "$(complete_line --input comp | tr '\n' ' ')" = "composite composite2 composite3 " ] &&
  ok "--input comp completes the composite inputs" || bad "--input comp gives '$(complete_line --input comp)'"
[ "$(complete_line --standard=pal-b | tr '\n' ' ')" = "pal-bg " ] 2>/dev/null ||
[ "$(complete_line --standard = pal-b | tr '\n' ' ')" = "pal-bg " ] &&
  ok "--standard=pal-b completes pal-bg" || bad "--standard=pal-b does not complete pal-bg"
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
touch "$dir/tape-1998.mpg"
[ "$(complete_line "$dir/tape-")" = "$dir/tape-1998.mpg" ] && ok "FILE completes file names" ||
  bad "FILE does not complete file names: '$(complete_line "$dir/tape-")'"
exit $fail
