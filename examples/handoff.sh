#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# examples/handoff.sh — send a capture card's stream to another machine with
# GStreamer's own network elements, and keep it there byte for byte.
#
# On the archive machine (start it first; it listens):
#     examples/handoff.sh receive PORT tape.mpg
# On the capture machine (any ivtvsrc properties after the port):
#     examples/handoff.sh send ARCHIVE-HOST PORT input=composite standard=pal
#
# Ctrl-C on the capture machine ends the recording cleanly (EOS: the
# encoder stops at the end of a GOP); the connection closes and the archive
# side finishes its file and exits.  TCP delivers every byte in order, so
# the received file is identical to what the card delivered.  Set COPY=FILE
# on the capture machine to keep a local copy as well (a tee).
#
# SRT (srtsink/srtsrc, gstreamer1.0-plugins-bad) is the choice for a live
# view over a lossy network, but in its live mode it drops packets that come
# later than its latency and, with gst-launch, loses what is still in flight
# when the sender stops: not for an archive copy.
set -eu
mode=${1:-}
case $mode in
  receive)
    [ $# -eq 3 ] || { echo "usage: $0 receive PORT FILE" >&2; exit 2; }
    exec gst-launch-1.0 -e tcpserversrc host="${HOST:-0.0.0.0}" port="$2" \
        ! filesink location="$3"
    ;;
  send)
    [ $# -ge 3 ] || { echo "usage: $0 send HOST PORT [ivtvsrc PROPERTY=VALUE ...]" >&2; exit 2; }
    host=$2 port=$3
    shift 3
    if [ -n "${COPY:-}" ]; then
      exec gst-launch-1.0 -e ivtvsrc "$@" ! tee name=t \
          ! queue max-size-buffers=0 max-size-time=0 max-size-bytes=67108864 \
          ! tcpclientsink host="$host" port="$port" \
          t. ! queue max-size-buffers=0 max-size-time=0 max-size-bytes=67108864 \
          ! filesink location="$COPY"
    fi
    exec gst-launch-1.0 -e ivtvsrc "$@" \
        ! queue max-size-buffers=0 max-size-time=0 max-size-bytes=67108864 \
        ! tcpclientsink host="$host" port="$port"
    ;;
  *)
    echo "usage: $0 receive PORT FILE | send HOST PORT [ivtvsrc PROPERTY=VALUE ...]" >&2
    exit 2
    ;;
esac
