# Scenario 9: a v4l2src script run with ivtvsrc in its place (issue 14, point
# 3). On S-Video (set with v4l2-ctl: v4l2src has no input property), the
# script's "norm=PAL brightness=300" must leave the card on PAL with
# brightness 300 (vivid's brightness range moves with the input: 256..511
# on input 2, vivid_vid_cap_s_input() in vivid-vid-cap.c); GstVideoOrientation flips with vivid's HFLIP/VFLIP
# controls (read back with v4l2-ctl).
import re

import gi

from vivcheck import (Gst, capture, expect, get_std, have_element, main,
                      reset_device, v4l2ctl)

gi.require_version("GstVideo", "1.0")
from gi.repository import GstVideo  # noqa: E402

DEV = "/dev/video0"


def get_ctrl(name):
    m = re.search(r"%s: (-?\d+)" % name, v4l2ctl(DEV, "--get-ctrl", name))
    expect(m, "cannot read control %s" % name)
    return int(m.group(1))


def script(element):
    have_element(element)
    reset_device(DEV, 2)                    # S-Video 0
    v4l2ctl(DEV, "-s", "ntsc")
    v4l2ctl(DEV, "-c", "brightness=384")
    cap = capture("%s name=src device=%s norm=PAL brightness=300 num-buffers=3"
                  " ! fakesink" % (element, DEV))
    expect(not cap.errors, "errors: %s" % cap.errors)
    expect(len(cap.buffers) == 3, "got %d buffers" % len(cap.buffers))
    std, bright = get_std(DEV), get_ctrl("brightness")
    expect(std & 0xff and not std & 0xb000, "standard 0x%x is not PAL" % std)
    expect(bright == 300, "brightness %d, the script said 300" % bright)
    return "PAL (0x%x), brightness %d" % (std, bright)


def orientation(element):
    have_element(element)
    reset_device(DEV, 2)
    v4l2ctl(DEV, "-c", "horizontal_flip=0,vertical_flip=0")
    pipe = Gst.parse_launch("%s name=src device=%s ! fakesink" % (element, DEV))
    pipe.set_state(Gst.State.READY)
    pipe.get_state(10 * Gst.SECOND)
    src = pipe.get_by_name("src")
    try:
        vo = GstVideo.VideoOrientation
        expect(isinstance(src, vo), "%s has no GstVideoOrientation" % element)
        expect(vo.set_hflip(src, True), "set_hflip(TRUE) refused")
        expect(vo.set_vflip(src, True), "set_vflip(TRUE) refused")
        h, v = get_ctrl("horizontal_flip"), get_ctrl("vertical_flip")
        ok, flip = vo.get_hflip(src)
        expect(h == 1 and v == 1, "controls after the flips: h=%d v=%d" % (h, v))
        expect(ok and flip, "get_hflip: %s %s" % (ok, flip))
    finally:
        pipe.set_state(Gst.State.NULL)
        v4l2ctl(DEV, "-c", "horizontal_flip=0,vertical_flip=0", check=False)
    return "horizontal_flip=1, vertical_flip=1"


main([("dropin-script.%s" % e, script, e) for e in ("ivtvsrc", "v4l2src")]
     + [("dropin-orientation.%s" % e, orientation, e)
        for e in ("ivtvsrc", "v4l2src")])
