#!/usr/bin/env bash
# tests/eco: docs/ivtvsrc.md is what docs/gen-reference.py makes from the
# built element, and names every property gst-inspect-1.0 ivtvsrc shows.
#   test-docs.sh PYTHON SOURCE_ROOT PLUGIN_DIR
set -u
py=${1:?usage: $0 PYTHON SOURCE_ROOT PLUGIN_DIR}; root=$2; plugdir=$3
"$py" -c 'import gi; gi.require_version("Gst", "1.0")' 2>/dev/null ||
  { echo "SKIP: $py has no PyGObject with Gst 1.0 (python3-gi, gir1.2-gstreamer-1.0)"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
"$py" "$root/docs/gen-reference.py" "$plugdir" -o "$tmp/ivtvsrc.md" || { echo "FAIL: gen-reference.py failed"; exit 1; }
if ! diff -u "$root/docs/ivtvsrc.md" "$tmp/ivtvsrc.md"; then
  echo "FAIL: docs/ivtvsrc.md is out of date with the element. Regenerate it with:"
  echo "    meson compile -C BUILD ivtvsrc-md      (or: docs/gen-reference.py BUILD/gst -o docs/ivtvsrc.md)"
  echo "  (here: cd $root && $py docs/gen-reference.py $plugdir -o docs/ivtvsrc.md)"
  fail=1
else
  echo "ok: docs/ivtvsrc.md matches the element"
fi
# every example's explanation is whole: it ends a sentence, the last one too
awk '/^## Examples/ { on = 1; next } /^## / { on = 0 } on && NF && !/^    / { print }' \
  "$tmp/ivtvsrc.md" > "$tmp/explanations"
n=$(wc -l < "$tmp/explanations")
cut=$(grep -cvE '[.!?)]$' "$tmp/explanations")
if [ "$n" -ge 4 ] && [ "$cut" -eq 0 ]; then
  echo "ok: $n example explanations, each ends a sentence"
else
  echo "FAIL: $cut of $n example explanations end mid-sentence:"; grep -vE '[.!?)]$' "$tmp/explanations"; fail=1
fi
# the same properties as gst-inspect-1.0 (an independent reader of the element)
GST_PLUGIN_PATH_1_0=$plugdir gst-inspect-1.0 ivtvsrc > "$tmp/inspect" 2>&1 ||
  { cat "$tmp/inspect"; echo "FAIL: gst-inspect-1.0 ivtvsrc failed"; exit 1; }
props=$(sed -n '/^Element Properties:/,/^[A-Z]/p' "$tmp/inspect" |
  sed -n 's/^  \([a-z][a-z0-9-]*\) *: .*/\1/p' | grep -vx -e name -e parent)
[ -n "$props" ] || { echo "FAIL: no properties parsed from gst-inspect-1.0"; fail=1; }
for p in $props; do
  grep -q "^| \`$p\` |" "$root/docs/ivtvsrc.md" ||
    { echo "FAIL: gst-inspect-1.0 lists property '$p', docs/ivtvsrc.md does not"; fail=1; }
done
echo "checked $(echo $props | wc -w) properties against gst-inspect-1.0"
grep -q 'ivtv' "$tmp/inspect" && grep -q "URI handling capabilities" "$tmp/inspect" ||
  { echo "FAIL: gst-inspect-1.0 shows no URI handler"; fail=1; }
exit $fail
