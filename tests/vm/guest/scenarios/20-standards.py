# Scenario 2: standards on S-Video and TV. The element is asked for pal,
# ntsc, secam or auto (auto: vivid's "Standard Signal Mode" = "Selected
# Standard" sends PAL-BGH while the device is left on NTSC, so only a
# QUERYSTD finds it); no caps filter: the element has to pick the standard's
# size itself. Wanted: 720x576@25 or 720x480@30000/1001, interlaced, pixel
# aspect as the driver reports it (CROPCAP pixelaspect is y/x: vivid says
# 54/59 for 625 lines, 11/10 for 525, so 59/54 and 10/11 in caps), and
# v4l2-ctl --get-standard showing the standard.
# v4l2src: input set with v4l2-ctl first (it has no input property), then
# norm=PAL|NTSC|SECAM; for auto it is given no norm.
import re

from vivcheck import (capture, expect, get_std, have_element, main,
                      reset_device, v4l2ctl)

DEV = "/dev/video0"
PAL, NTSC, SECAM = 0x000000ff, 0x0000b000, 0x00ff0000
WANT = {"pal": (PAL, 720, 576, (25, 1)),
        "ntsc": (NTSC, 720, 480, (30000, 1001)),
        "secam": (SECAM, 720, 576, (25, 1)),
        "auto": (PAL, 720, 576, (25, 1))}
INPUT = {"svideo": 2, "tv": 1}


def one(element, std, inp):
    have_element(element)
    reset_device(DEV, INPUT[inp])
    # start from the "other" standard so that the element must change it
    v4l2ctl(DEV, "-s", "pal" if std in ("ntsc",) else "ntsc")
    if std == "auto":
        v4l2ctl(DEV, "-c", "standard_signal_mode=4", "-c", "standard=4")
        v4l2ctl(DEV, "--get-detected-standard", check=False)
    if element == "ivtvsrc":
        src = "ivtvsrc name=src device=%s input=%s standard=%s" % (DEV, inp, std)
    else:
        norm = "" if std == "auto" else " norm=%s" % std.upper()
        src = "v4l2src name=src device=%s%s" % (DEV, norm)
    try:
        cap = capture(src + " num-buffers=2 ! fakesink", timeout=30)
        dev_std = get_std(DEV)
        m = re.search(r"Pixel Aspect:\s*(\d+)/(\d+)", v4l2ctl(DEV, "--get-cropcap"))
        expect(m, "cannot read the driver's pixel aspect (--get-cropcap)")
        par = (int(m.group(2)), int(m.group(1)))     # y/x -> x/y
    finally:
        v4l2ctl(DEV, "-c", "standard_signal_mode=0", check=False)
    expect(not cap.errors, "capture failed: %s" % cap.errors)
    expect(cap.caps is not None and len(cap.buffers) == 2,
           "got %d buffers" % len(cap.buffers))
    mask, w, h, fps = WANT[std]
    expect(dev_std & mask and not dev_std & ~mask,
           "device standard is 0x%x after standard=%s" % (dev_std, std))
    st = cap.caps.get_structure(0)
    got_w, got_h = st.get_int("width")[1], st.get_int("height")[1]
    ok_f, fn, fd = st.get_fraction("framerate")
    ok_p, pn, pd = st.get_fraction("pixel-aspect-ratio")
    mode = st.get_string("interlace-mode") or "progressive"
    got = "%dx%d@%d/%d par %s %s" % (got_w, got_h, fn, fd,
                                      "%d/%d" % (pn, pd) if ok_p else "none", mode)
    expect((got_w, got_h) == (w, h), "caps %s, wanted %dx%d" % (got, w, h))
    expect(ok_f and fn * fps[1] == fd * fps[0], "caps %s, wanted %d/%d fps"
           % (got, fps[0], fps[1]))
    expect(mode != "progressive", "caps %s: not interlaced" % got)
    expect(ok_p and pn * par[1] == pd * par[0], "caps %s, wanted par %d/%d"
           % (got, par[0], par[1]))
    return got


main([("std-%s-%s.%s" % (s, i, e), one, e, s, i)
      for i in ("svideo", "tv") for s in ("pal", "ntsc", "secam", "auto")
      for e in ("ivtvsrc", "v4l2src")])
