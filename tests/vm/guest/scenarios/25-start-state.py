# Scenario 2b: caps of the input and standard asked for, whatever the card
# was left on (issue 14, part 1). The device is left on another input (and,
# on an SDTV input, another standard) than the one asked for, as a card is
# after another program used it, or as vivid is when freshly loaded (input
# 0, the webcam); then `ivtvsrc input=I standard=S num-buffers=2 !
# fakesink`, no caps filter. Wanted: the standard's size and rate
# (720x480@30000/1001 or 720x576@25), interlaced, buffers of the caps'
# size, the device on I and S afterwards. (The std-* checks start from the
# other standard on the input asked for; these change the input too.)
# v4l2src has no input property (n/a).
import gi

from vivcheck import (capture, expect, get_input, get_std, have_element,
                      main, reset_device, v4l2ctl)

gi.require_version("GstVideo", "1.0")
from gi.repository import GstVideo  # noqa: E402

DEV = "/dev/video0"
PAL, NTSC = 0x000000ff, 0x0000b000
WANT = {"pal": (PAL, 720, 576, (25, 1)), "ntsc": (NTSC, 720, 480, (30000, 1001))}
INPUT = {"webcam": 0, "tv": 1, "svideo": 2, "hdmi": 3}
CASES = [("from-webcam-tv-ntsc", "webcam", None, "tv", "ntsc"),
         ("from-webcam-svideo-pal", "webcam", None, "svideo", "pal"),
         ("from-svideo-pal-tv-ntsc", "svideo", "pal", "tv", "ntsc"),
         ("from-hdmi-svideo-pal", "hdmi", None, "svideo", "pal")]


def one(start_in, start_std, inp, std):
    have_element("ivtvsrc")
    reset_device(DEV, INPUT[start_in])
    if start_std:
        v4l2ctl(DEV, "-s", start_std)
    v4l2ctl(DEV, "--get-fmt-video")
    cap = capture("ivtvsrc name=src device=%s input=%s standard=%s "
                  "num-buffers=2 ! fakesink" % (DEV, inp, std), timeout=30)
    expect(not cap.errors, "capture failed: %s" % cap.errors)
    expect(cap.caps is not None and len(cap.buffers) == 2,
           "got %d buffers" % len(cap.buffers))
    mask, w, h, fps = WANT[std]
    st = cap.caps.get_structure(0)
    got_w, got_h = st.get_int("width")[1], st.get_int("height")[1]
    ok_f, fn, fd = st.get_fraction("framerate")
    mode = st.get_string("interlace-mode") or "progressive"
    got = "%dx%d@%d/%d %s" % (got_w, got_h, fn, fd, mode)
    expect((got_w, got_h) == (w, h), "caps %s (started on %s%s), wanted %dx%d"
           % (got, start_in, " " + start_std if start_std else "", w, h))
    expect(ok_f and fn * fps[1] == fd * fps[0], "caps %s, wanted %d/%d fps"
           % (got, fps[0], fps[1]))
    expect(mode != "progressive", "caps %s: not interlaced" % got)
    info = GstVideo.VideoInfo.new_from_caps(cap.caps)
    sizes = {b[1] for b in cap.buffers}
    expect(info is not None and sizes == {info.size},
           "buffers of %s bytes, the caps %s say %s"
           % (sorted(sizes), cap.caps.to_string(), info.size if info else "?"))
    got_in, label = get_input(DEV)
    expect(got_in == INPUT[inp], "device on input %d (%s), wanted %s"
           % (got_in, label, inp))
    dev_std = get_std(DEV)
    expect(dev_std & mask and not dev_std & ~mask,
           "device standard is 0x%x after standard=%s" % (dev_std, std))
    return "%s, on %s" % (got, label)


main([("%s.ivtvsrc" % name, one, a, b, c, d) for name, a, b, c, d in CASES])
