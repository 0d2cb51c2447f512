#!/bin/bash
# tests/capture/test-capture.sh — one case of the ivtv-capture tests (suite
# "capture"): the command runs under ivtv-emu's PVR-250 as a person would
# run it (in a real terminal through tmux, or with its output in a file),
# and its exit status, its messages, the file (byte for byte against the
# emulator's stream: every open streams the same bytes from the start, see
# tests/emu/README.md) and the sidecar record are checked.
#
#   test-capture.sh IVTV_EMU IVTV_CAPTURE PYTHON CASE
#
# Exit 0 pass, 1 fail, 77 skip (a tool is missing).
set -u

EMU=$1
CAP=$2
PY=$3
CASE=$4
HERE=$(cd "$(dirname "$0")" && pwd)
CHECK="$HERE/check-stream.py"
RATE=750000             # the emulated PVR-250's pace, bytes/s (tests/emu/README.md)

for tool in gst-launch-1.0 v4l2-ctl head cmp timeout "$PY"; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool not found"; exit 77; }
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/ivtv-capture.XXXXXX")
cleanup () {
  [ -n "${TMUX_SOCK:-}" ] && tmux -S "$TMUX_SOCK" kill-server 2>/dev/null
  # wait for the X server to be gone: one that is still shutting down
  # removes the socket of the next test's server on the same display
  [ -n "${XVFB_PID:-}" ] && kill "$XVFB_PID" 2>/dev/null && wait "$XVFB_PID" 2>/dev/null
  [ -n "${MOUNTED:-}" ] && umount "$TMP/full" 2>/dev/null
  rm -rf "$TMP"
}
trap cleanup EXIT
OUT=$TMP/tape.mpg
LOG=$TMP/log.txt
FAILED=0

fail () { echo "FAIL [$CASE]: $*"; FAILED=1; }
ok () { echo "ok: $*"; }

# run EMU_ARGS... -- CAPTURE_ARGS... : ivtv-capture under the emulator,
# stdout+stderr in $LOG (not a terminal), exit status in RC
run () {
  local emu_args=()
  while [ "$1" != "--" ]; do emu_args+=("$1"); shift; done
  shift
  timeout 60 "$EMU" "${emu_args[@]}" -- "$CAP" "$@" >"$LOG" 2>&1
  RC=$?
  echo "--- ivtv-capture $* (exit $RC):"
  cat "$LOG"
}

# reference N [EMU_ARGS...]: the first N bytes of Composite 1, unpaced, in
# the stream type $REF_STREAM_TYPE (V4L2_CID_MPEG_STREAM_TYPE; default 0, PS)
reference () {
  local n=$1
  shift
  timeout 60 "$EMU" --profile pvr250 --fault fast "$@" -- sh -c \
      'v4l2-ctl -d /dev/video0 -i 2 -c stream_type="$1" >/dev/null &&
       head -c "$0" /dev/video0' "$n" "${REF_STREAM_TYPE:-0}" >"$TMP/ref.mpg"
}

size () { stat -c %s "$1" 2>/dev/null || echo 0; }

expect_rc () { [ "$RC" = "$1" ] && ok "exit status $RC" || fail "exit status $RC, want $1"; }

# the one-line reason on stderr
expect_reason () {
  local n
  n=$(grep -c '^ivtv-capture: error: ' "$LOG")
  [ "$n" = 1 ] || fail "$n 'ivtv-capture: error:' lines, want one"
  grep -Eq -- "^ivtv-capture: error: .*$1" "$LOG" && ok "reason: $(grep '^ivtv-capture: error: ' "$LOG")" ||
    fail "the reason does not match /$1/"
}

expect_identical () {
  local n
  n=$(size "$OUT")
  reference "$n"
  "$PY" "$CHECK" prefix "$OUT" "$TMP/ref.mpg" || FAILED=1
}

expect_record () {
  "$PY" "$CHECK" record "$OUT.json" "$OUT" "$RATE" || FAILED=1
}

expect_no_escapes () {
  if grep -q $'\033' "$LOG" || grep -q $'\r' "$LOG"; then
    fail "escape codes or carriage returns in output that is not a terminal"
  else
    ok "no escape codes, no carriage returns"
  fi
}

# ---- a real terminal: tmux ----

# tty_start EMU_ARGS... -- CAPTURE_ARGS...: ivtv-capture under the emulator
# in a ${TTY_COLS:-100}x12 tmux pane; its own exit status goes to $TMP/rc (a bash in
# between: Ctrl-C reaches the whole foreground group, and the emulator's
# wrapper then exits 130 whatever ivtv-capture did)
tty_start () {
  local emu_args=()
  command -v tmux >/dev/null || { echo "SKIP: tmux not found"; exit 77; }
  while [ "$1" != "--" ]; do emu_args+=("$1"); shift; done
  shift
  TMUX_SOCK=$TMP/tmux.sock
  : >"$TMP/status"
  {
    echo '#!/bin/bash'
    printf 'cd %q\n' "$TMP"
    printf '%q ' "$EMU" "${emu_args[@]}" -- bash -c '"$@"; echo "rc=$?" >rc' bash "$CAP" "$@"
    printf '\nsleep 600\n'
  } >"$TMP/pane.sh"
  chmod +x "$TMP/pane.sh"
  tmux -S "$TMUX_SOCK" -f /dev/null new-session -d -x "${TTY_COLS:-100}" -y 12 -s cap "$TMP/pane.sh"
}

pane () { tmux -S "$TMUX_SOCK" capture-pane -p -t cap; }
# the pane with wrapped lines joined: a line longer than the pane wrapped
pane_joined () { tmux -S "$TMUX_SOCK" capture-pane -p -J -t cap; }

# the start line names the card, the input and the standard the card uses
expect_start_line () {
  grep -Eq "recording '[^']+' \([^,]+, /dev/video0\), input 'Composite 1', NTSC[-A-Z]*, to $1" "$2" &&
    ok "start line: $(grep -o 'recording .*' "$2" | head -1)" ||
    fail "the start line does not name input 'Composite 1' and the NTSC standard: $(grep 'recording' "$2" | head -1)"
}

# tty_watch SECONDS: snapshots of the pane every 0.5 s until the command
# ended (or SECONDS); the status lines seen go to $TMP/status
tty_watch () {
  local i
  for ((i = 0; i < $1 * 2; i++)); do
    pane >"$TMP/pane.txt"
    grep -E '^[0-9]{2}:[0-9]{2}:[0-9]{2} +[0-9.]+ MB' "$TMP/pane.txt" >>"$TMP/status"
    [ -f "$TMP/rc" ] && break
    sleep 0.5
  done
  RC=$(sed -n 's/^rc=//p' "$TMP/rc" 2>/dev/null)
}

tty_show () {
  echo "--- the pane at the end:"
  pane | grep -v '^$'
}

# the status line: a growing size and the signal
expect_growing_status () {
  local sizes first last
  sizes=$(sed -E 's/^[0-9:]+ +([0-9.]+) MB.*/\1/' "$TMP/status" | uniq)
  first=$(echo "$sizes" | head -1)
  last=$(echo "$sizes" | tail -1)
  echo "status line sizes seen (MB): $(echo $sizes)"
  [ "$(echo "$sizes" | wc -l)" -ge 3 ] || fail "fewer than 3 different sizes on the status line"
  "$PY" -c "import sys; sys.exit(0 if float('$last') > float('$first') + 1 else 1)" &&
    ok "size grew from $first to $last MB" || fail "size did not grow ($first -> $last MB)"
  grep -q 'signal: present (Composite 1)' "$TMP/status" && ok "signal present shown" ||
    fail "no 'signal: present (Composite 1)' on the status line"
  grep -Eq '[0-9.]+ Mbit/s' "$TMP/status" && ok "bit rate shown" || fail "no bit rate"
  grep -q 'queue: -  lost: -' "$TMP/status" && ok "queue and loss '-' (no ivtvsrc-stats yet)" ||
    grep -Eq 'queue: [0-9]+%  lost: ' "$TMP/status" || fail "no queue/lost fields"
  echo "--- a status line, as tmux capture-pane shows it:"
  grep 'signal: present' "$TMP/status" | sed -n '5p'
  grep -q $'\033' "$TMP/pane.txt" && fail "escape codes left on the screen"
}

case "$CASE" in
  tty-end-of-tape)
    # the picture for ~6 s (from the emulator's start), then no signal;
    # 2 s of it end the tape
    tty_start --profile pvr250 --fault no-signal=6 -- \
        --input composite --stop-after-no-signal 2 "$OUT"
    tty_watch 40
    tty_show
    expect_rc 0
    expect_growing_status
    pane | grep -q 'signal: none (Composite 1)' || grep -q 'signal: none' "$TMP/status" &&
      ok "signal none shown at the end of the tape" || fail "no 'signal: none' shown"
    pane | grep -q 'end of tape (no signal for 2 s)' && ok "says it stopped at the end of the tape" ||
      fail "no 'end of tape' in the pane"
    n=$(size "$OUT")
    reference "$n"
    cp "$TMP/ref.mpg" "$TMP/picture.mpg"
    reference "$n" --fault no-signal=0
    "$PY" "$CHECK" tape "$OUT" "$TMP/picture.mpg" "$TMP/ref.mpg" 750000 || FAILED=1
    expect_record
    "$PY" -c "import json,sys; r=json.load(open('$OUT.json')); g=r['signal_gaps']; \
sys.exit(0 if len(g)==1 and g[0]['signal']=='none' and r['status']=='complete' else 1)" &&
      ok "the record has the end-of-tape gap and status complete" || fail "record: gaps/status wrong: $(cat "$OUT.json")"
    ;;
  tty-ctrl-c)
    tty_start --profile pvr250 -- --input composite "$OUT"
    for _ in $(seq 20); do      # Ctrl-C once 2 MB are recorded
      tty_watch 1
      mb=$(sed -E -n 's/^[0-9:]+ +([0-9.]+) MB.*/\1/p' "$TMP/status" | tail -1)
      "$PY" -c "import sys; sys.exit(0 if float('${mb:-0}') >= 2 else 1)" && break
    done
    tmux -S "$TMUX_SOCK" send-keys -t cap C-c
    tty_watch 30
    tty_show
    expect_rc 0
    expect_growing_status
    pane | grep -q 'Ctrl-C: finishing the file' && ok "Ctrl-C acknowledged" || fail "no 'Ctrl-C: finishing the file'"
    expect_identical
    expect_record
    ;;
  tty-80-columns)
    # an 80-column terminal: the status line is shortened, not cut, while
    # it updates, and the last one does not wrap; the start line names the
    # input and the standard
    TTY_COLS=80 tty_start --profile pvr250 -- --input composite --max-time 6 tape.mpg
    : >"$TMP/joined"
    for ((i = 0; i < 80; i++)); do
      pane_joined >>"$TMP/joined"
      [ -f "$TMP/rc" ] && break
      sleep 0.5
    done
    RC=$(sed -n 's/^rc=//p' "$TMP/rc" 2>/dev/null)
    pane_joined >>"$TMP/joined"
    tty_show
    expect_rc 0
    expect_start_line tape.mpg "$TMP/joined"
    grep -E '^[0-9]{2}:[0-9]{2}:[0-9]{2} +[0-9.]+ MB' "$TMP/joined" | sort -u >"$TMP/status"
    n=$(wc -l <"$TMP/status")
    [ "$n" -ge 3 ] && ok "$n different status lines seen" || fail "only $n status lines seen"
    long=$(awk 'length($0) > 80' "$TMP/status")
    [ -z "$long" ] && ok "no status line longer than 80 columns (longest $(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$TMP/status"))" ||
      fail "status lines wrapped at 80 columns: $long"
    cut=$(grep -Ev 'lost:? [0-9-]' "$TMP/status")
    [ -z "$cut" ] && ok "every status line whole, up to its 'lost' field" ||
      fail "status lines cut: $cut"
    grep 'signal: present (Composite 1)' "$TMP/status" | tail -1
    ;;
  plain)
    run --profile pvr250 -- --input composite --max-time 7 "$OUT"
    expect_rc 0
    expect_start_line "$OUT" "$LOG"
    expect_no_escapes
    n=$(grep -Ec '^ivtv-capture: [0-9]{2}:[0-9]{2}:[0-9]{2} +[0-9.]+ MB +[0-9.-]+ Mbit/s  signal: present' "$LOG")
    [ "$n" -ge 3 ] && [ "$n" -le 5 ] && ok "$n plain status lines in 7 s" ||
      fail "$n plain status lines in 7 s, want 3-5 (one every 5 s, the first and the last)"
    expect_identical
    expect_record
    ;;
  preview|preview-close)
    command -v Xvfb >/dev/null || { echo "SKIP: Xvfb not found (xvfb)"; exit 77; }
    command -v xwininfo >/dev/null || { echo "SKIP: xwininfo not found (x11-utils)"; exit 77; }
    gst-inspect-1.0 ximagesink >/dev/null 2>&1 || { echo "SKIP: ximagesink missing (gstreamer1.0-x)"; exit 77; }
    gst-inspect-1.0 avdec_mpeg2video >/dev/null 2>&1 || gst-inspect-1.0 mpeg2dec >/dev/null 2>&1 ||
      { echo "SKIP: no MPEG-2 decoder (gstreamer1.0-libav)"; exit 77; }
    exec 3>"$TMP/display"
    # -noreset: no server reset when the last client goes (xvimagesink's probe
    # is the last one for a moment; a desktop always has other clients)
    Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp -noreset >"$TMP/xvfb.log" 2>&1 &
    XVFB_PID=$!
    exec 3>&-
    for _ in $(seq 100); do [ -s "$TMP/display" ] && break; sleep 0.1; done
    export DISPLAY=:$(head -1 "$TMP/display")
    for _ in $(seq 100); do xwininfo -root >/dev/null 2>&1 && break; sleep 0.1; done
    echo "Xvfb on DISPLAY=$DISPLAY: $(xwininfo -root 2>&1 | grep -o 'Width: [0-9]*')"
    timeout 60 "$EMU" --profile pvr250 -- "$CAP" --input composite --max-time 8 --preview "$OUT" >"$LOG" 2>&1 &
    pid=$!
    for _ in $(seq 30); do      # the window, then a second of pictures
      sleep 0.2
      xwininfo -root -tree >"$TMP/windows" 2>&1
      grep -q '"ivtv-capture"' "$TMP/windows" && break
    done
    sleep 1
    if [ "$CASE" = preview ]; then
      gst-launch-1.0 -q ximagesrc display-name="$DISPLAY" num-buffers=1 ! videoconvert ! \
          video/x-raw,format=GRAY8 ! filesink location="$TMP/shot.raw" >/dev/null 2>&1
    else
      # the person closes the preview window: the recording goes on
      win=$(sed -n 's/^ *\(0x[0-9a-f]*\) "ivtv-capture".*/\1/p' "$TMP/windows" | head -1)
      [ -n "$win" ] && "$PY" "$HERE/close-window.py" "$win"
    fi
    wait $pid
    RC=$?
    cat "$LOG"
    expect_rc 0
    # the card's 720x480 picture at its 4:3 display aspect (the MPEG
    # stream says 4:3, so the window is 640x480; square pixels 720x480)
    grep -E '"ivtv-capture".* (720|640)x480\+' "$TMP/windows" && ok "a 4:3 preview window appeared" ||
      { cat "$TMP/windows"; fail "no 640x480 or 720x480 ivtv-capture window"; }
    if [ "$CASE" = preview ]; then
      lit=$("$PY" -c "d=open('$TMP/shot.raw','rb').read(); print(round(sum(1 for b in d if b>24)/max(len(d),1),3))")
      "$PY" -c "import sys; sys.exit(0 if $lit > 0.2 else 1)" && ok "screenshot: $lit of the screen lit" ||
        fail "screenshot black ($lit of the screen lit)"
      grep -q 'Preview stopped' "$LOG" && fail "the preview stopped"
    else
      grep -q 'Preview stopped (Output window was closed); the recording goes on' "$LOG" &&
        ok "the preview stopped, the recording went on" || fail "no 'Preview stopped ... recording goes on'"
      grep -q 'maximum time reached' "$LOG" && ok "recorded until --max-time" || fail "did not record to the end"
      [ "$(size "$OUT")" -gt 5500000 ] && ok "$(size "$OUT") bytes (8 s)" || fail "only $(size "$OUT") bytes"
    fi
    expect_identical
    ;;
  dvd)
    command -v dvdauthor >/dev/null || { echo "SKIP: dvdauthor not installed"; exit 77; }
    run --profile pvr250 -- --input composite --max-time 4 --dvd "$OUT"
    grep -q '"stream-type": "dvd"' "$OUT.json" && ok "recorded with stream-type dvd" || fail "stream-type is not dvd"
    grep -q '"audio-rate": 48000' "$OUT.json" && ok "48 kHz audio" || fail "audio-rate is not 48000"
    if [ "$RC" = 6 ] && grep -q 'dvdauthor .* failed' "$LOG"; then
      echo "SKIP: dvdauthor rejects today's emulated stream ($(grep -o 'dvdauthor .* failed: [^(]*' "$LOG")): the emulator's DVD-compliant stream is issue 11's work"
      exit 77
    fi
    expect_rc 0
    [ -f "$TMP/tape.dvd/VIDEO_TS/VIDEO_TS.IFO" ] && ok "tape.dvd/VIDEO_TS made" || fail "no tape.dvd/VIDEO_TS/VIDEO_TS.IFO"
    ;;
  no-dvdauthor)
    # a PATH with what ivtv-emu needs and no dvdauthor
    mkdir "$TMP/bin"
    for t in sh bash mktemp rm; do ln -s "$(command -v $t)" "$TMP/bin/$t"; done
    timeout 60 env PATH="$TMP/bin" "$EMU" --profile pvr250 -- \
        "$CAP" --input composite --max-time 3 --dvd "$OUT" >"$LOG" 2>&1
    RC=$?
    cat "$LOG"
    expect_rc 0
    grep -q 'dvdauthor is not installed' "$LOG" && ok "says dvdauthor is not installed" || fail "no clear message"
    [ ! -e "$TMP/tape.dvd" ] && ok "no DVD folder" || fail "a DVD folder was made"
    REF_STREAM_TYPE=3 expect_identical    # --dvd records stream-type=dvd
    ;;
  no-card)
    run --profile notcapture -- "$OUT"
    expect_rc 3
    expect_reason 'no capture card found'
    [ ! -e "$OUT" ] && [ ! -e "$OUT.json" ] && ok "no file left" || fail "files left behind"
    run --profile pvr250 -- --device /dev/video7 "$OUT"
    expect_rc 3
    expect_reason '/dev/video7 does not exist'
    [ ! -e "$OUT" ] && ok "no file left" || fail "an empty file left behind"
    ;;
  no-signal)
    run --profile pvr250 --fault no-signal=0 -- --input tuner --stop-after-no-signal 2 "$OUT"
    expect_rc 4
    expect_reason "no signal on input 'Tuner 1' within 2 s: nothing recorded"
    [ ! -e "$OUT" ] && [ ! -e "$OUT.json" ] && ok "no file left" || fail "files left behind"
    # input=auto (the default): ivtvsrc's error names every input and its status
    run --profile pvr250 --fault no-signal=0 -- "$OUT"
    expect_rc 4
    expect_reason "No input .* has a signal .*'Composite 1' \\(no signal\\)"
    [ ! -e "$OUT" ] && [ ! -e "$OUT.json" ] && ok "no file left" || fail "files left behind"
    ;;
  device-lost)
    run --profile pvr250 --fault unplug-after=1000000 -- --input composite "$OUT"
    expect_rc 1
    expect_reason 'went away'
    [ "$(size "$OUT")" = 1000000 ] && ok "the 1000000 bytes delivered before the unplug are in the file" ||
      fail "$(size "$OUT") bytes in the file, want 1000000"
    expect_identical
    grep -q '"status": "incomplete"' "$OUT.json" && ok "record: incomplete" || fail "record not marked incomplete"
    ;;
  device-lost-slow-disk)
    # the same unplug while the disk is slow (each write 400 ms late): the
    # recording queue still holds what was read before the unplug when
    # ivtvsrc's error comes, and it belongs in the file (ivtvsrc ends its
    # stream after the error; ivtv-capture ends on that EOS)
    IVTV_SLOW_WRITE=$OUT IVTV_SLOW_WRITE_US=400000 LD_PRELOAD=$IVTV_SLOW_WRITE_LIB \
      run --profile pvr250 --fault unplug-after=1000000 -- --input composite "$OUT"
    expect_rc 1
    expect_reason 'went away'
    [ "$(size "$OUT")" = 1000000 ] && ok "the 1000000 bytes delivered before the unplug are in the file" ||
      fail "$(size "$OUT") bytes in the file, want 1000000"
    expect_identical
    ;;
  ctrl-c-wait)
    timeout 60 "$EMU" --profile pvr250 --fault no-signal=0 -- bash -c \
        '"$0" --input tuner "$1" & p=$!; sleep 2; kill -INT $p; wait $p' "$CAP" "$OUT" >"$LOG" 2>&1
    RC=$?
    cat "$LOG"
    expect_rc 130
    grep -q 'waiting for a signal' "$LOG" && ok "it was waiting for the signal" || fail "not waiting?"
    expect_reason 'interrupted while waiting for a signal: nothing recorded'
    [ ! -e "$OUT" ] && [ ! -e "$OUT.json" ] && ok "no file left" || fail "files left behind"
    ;;
  disk-full)
    mkdir "$TMP/full"
    mount -t tmpfs -o size=2m tmpfs "$TMP/full" 2>/dev/null || { echo "SKIP: cannot mount a tmpfs (not root?)"; exit 77; }
    MOUNTED=1
    OUT=$TMP/full/tape.mpg
    run --profile pvr250 -- --input composite "$OUT"
    expect_rc 5
    expect_reason 'disk full: .*tape.mpg is intact up to its last complete write'
    [ "$(size "$OUT")" -gt 1000000 ] && ok "$(size "$OUT") bytes on the 2 MB disk" || fail "only $(size "$OUT") bytes"
    expect_identical
    "$PY" -c "import json,os,sys; r=json.load(open('$OUT.json')); \
sys.exit(0 if r['status']=='incomplete' and r['bytes']==os.path.getsize('$OUT') and 'disk full' in r['error'] else 1)" &&
      ok "the record survived the full disk: status incomplete, bytes, the reason" || fail "record: $(cat "$OUT.json")"
    ;;
  handoff-tcp)
    port=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    HOST=127.0.0.1 timeout 60 sh "$HERE/../../examples/handoff.sh" receive "$port" "$TMP/received.mpg" >"$TMP/recv.log" 2>&1 &
    rpid=$!
    sleep 1
    timeout 60 "$EMU" --profile pvr250 -- bash -c \
        'COPY="$1" timeout --foreground -s INT 4 sh "$0" send 127.0.0.1 "$2" input=composite' \
        "$HERE/../../examples/handoff.sh" "$OUT" "$port" >"$LOG" 2>&1
    wait $rpid
    RC=$?
    expect_rc 0
    [ "$(size "$TMP/received.mpg")" -gt 1000000 ] || fail "received only $(size "$TMP/received.mpg") bytes"
    cmp -s "$OUT" "$TMP/received.mpg" && ok "received file identical to the capture box's copy ($(size "$OUT") bytes)" ||
      fail "received file differs from the local copy: $(cmp "$OUT" "$TMP/received.mpg" 2>&1 | head -1)"
    expect_identical
    ;;
  *)
    echo "unknown case $CASE"
    exit 2
    ;;
esac

if [ $FAILED = 0 ]; then
  echo "PASS [$CASE]"
  exit 0
fi
exit 1
