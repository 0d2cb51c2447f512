# Scenario 2c: interlaced SDTV caps an encoder can trust (issue 14, part 2).
# The device starts on the input and standard asked for (so that only the
# caps are checked here, not the switch: see 25-start-state.py); vivid
# captures V4L2_FIELD_INTERLACED there, whose temporal order the V4L2 spec
# ties to the standard: top field first for 625-line/50 Hz (PAL, SECAM),
# bottom field first for 525-line/60 Hz (NTSC).
#   field-*        caps interlace-mode=interleaved with field-order
#                  top-field-first (PAL) or bottom-field-first (NTSC), and
#                  buffer flags that agree: no TFF flag on an NTSC buffer,
#                  TFF on every PAL buffer flagged interlaced
#   colorimetry-*  caps colorimetry BT.601 matrix, limited range ("bt601"),
#                  as vivid reports SMPTE 170M for SDTV
# v4l2src: input set with v4l2-ctl first (no input property), norm=PAL|NTSC.
import gi

from vivcheck import (capture, expect, have_element, main, reset_device,
                      v4l2ctl)

gi.require_version("GstVideo", "1.0")
from gi.repository import GstVideo  # noqa: E402

DEV = "/dev/video0"
INPUT = {"svideo": 2, "tv": 1}
ORDER = {"pal": "top-field-first", "ntsc": "bottom-field-first"}
TFF = int(GstVideo.VideoBufferFlags.TFF)
INTERLACED = int(GstVideo.VideoBufferFlags.INTERLACED)


def grab(element, std, inp):
    have_element(element)
    reset_device(DEV, INPUT[inp])
    v4l2ctl(DEV, "-s", std)
    if element == "ivtvsrc":
        src = "ivtvsrc name=src device=%s input=%s standard=%s" % (DEV, inp, std)
    else:
        src = "v4l2src name=src device=%s norm=%s" % (DEV, std.upper())
    cap = capture(src + " num-buffers=4 ! fakesink", timeout=30)
    expect(not cap.errors, "capture failed: %s" % cap.errors)
    expect(cap.caps is not None and len(cap.buffers) == 4,
           "got %d buffers" % len(cap.buffers))
    return cap, cap.caps.get_structure(0)


def field_order(element, std, inp):
    cap, st = grab(element, std, inp)
    mode = st.get_string("interlace-mode") or "progressive"
    order = st.get_string("field-order")
    expect(mode == "interleaved", "caps interlace-mode %s, wanted interleaved"
           % mode)
    expect(order == ORDER[std], "caps field-order %s, wanted %s (%s)"
           % (order, ORDER[std], std.upper()))
    flags = [b[2] for b in cap.buffers]
    if std == "ntsc":
        bad = [i for i, f in enumerate(flags) if f & TFF]
    else:
        bad = [i for i, f in enumerate(flags) if f & INTERLACED and not f & TFF]
    expect(not bad, "buffers %s flagged %s, against field-order %s"
           % (bad, "TFF" if std == "ntsc" else "interlaced without TFF", order))
    return "%s %s, buffer flags agree" % (mode, order)


def colorimetry(element, std, inp):
    cap, st = grab(element, std, inp)
    c = st.get_string("colorimetry")
    expect(c is not None, "caps carry no colorimetry: %s" % cap.caps.to_string())
    expect(c == "bt601" or c.startswith("2:4:"),
           "caps colorimetry %s, wanted bt601 (BT.601 matrix, limited range)" % c)
    return "colorimetry %s" % c


main([("field-%s-%s.%s" % (s, i, e), field_order, e, s, i)
      for i in ("svideo", "tv") for s in ("pal", "ntsc")
      for e in ("ivtvsrc", "v4l2src")]
     + [("colorimetry-%s-%s.%s" % (s, i, e), colorimetry, e, s, i)
        for s, i in (("pal", "svideo"), ("ntsc", "tv"))
        for e in ("ivtvsrc", "v4l2src")])
