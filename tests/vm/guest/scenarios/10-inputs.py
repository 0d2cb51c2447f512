# Scenario 1: each vivid input chosen by fuzzy name (ivtvsrc input=...),
# verified with v4l2-ctl --get-input and with the picture: vivid draws
# "WxH, input N" in text line 2, so that band must differ per input and be
# stable for one input. v4l2src has no input property (n/a).
import json
import os

from vivcheck import Fail, capture, expect, get_input, have_element, main, reset_device

DEV = "/dev/video0"
INPUTS = [("webcam", 0, "Webcam 0"), ("tv", 1, "TV 0"),
          ("svideo", 2, "S-Video 0"), ("hdmi", 3, "HDMI 0")]
BANDS = os.path.join(os.environ.get("TMPDIR", "/tmp"), "vivid-input-bands.json")    # checks run in child processes


def bands():
    return json.load(open(BANDS)) if os.path.exists(BANDS) else {}


def grab(name):
    cap = capture("ivtvsrc name=src device=%s input=%s num-buffers=3 ! "
                  "video/x-raw,format=YUY2 ! fakesink" % (DEV, name),
                  want_bands=True)
    expect(not cap.errors, "capture failed: %s" % cap.errors)
    expect(len(cap.buffers) == 3 and cap.eos,
           "wanted 3 buffers then EOS, got %d (eos=%s)" % (len(cap.buffers), cap.eos))
    expect(cap.bands[-1] is not None, "no YUY2 picture to inspect")
    return cap.bands[-1]


def by_name(name, index, label):
    have_element("ivtvsrc")
    # start from a different input so the element has to switch
    reset_device(DEV, (index + 1) % 4)
    band = grab(name)
    json.dump(dict(bands(), **{name: band}), open(BANDS, "w"))
    got, got_label = get_input(DEV)
    expect(got == index, "device is on input %d (%s) after input=%s, wanted %d (%s)"
           % (got, got_label, name, index, label))
    return "input %d (%s), picture band %s" % (got, got_label, band)


def pixels():
    have_element("ivtvsrc")
    got = bands()
    if len(got) != len(INPUTS):
        raise Fail("input checks did not all capture: %s" % sorted(got))
    reset_device(DEV, 3)
    again = grab("webcam")
    expect(again == got["webcam"],
           "same input gave a different text band (%s vs %s): test is not "
           "measuring the input" % (again, got["webcam"]))
    vals = list(got.values())
    expect(len(set(vals)) == len(vals), "pictures of different inputs are "
           "identical in the input-name band: %s" % got)
    return "4 distinct bands, webcam stable"


main([("input-%s.ivtvsrc" % n, by_name, n, i, l) for n, i, l in INPUTS]
     + [("input-pixels.ivtvsrc", pixels)])
