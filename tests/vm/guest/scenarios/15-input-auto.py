# Scenario 1b: input=auto (gst/session/ivtvinputauto.c) on the kernel's own ENUMINPUT
# status. vivid reports V4L2_IN_ST_NO_SIGNAL for an input whose "Standard
# Signal Mode" control is "No Signal" (vivid-vid-cap.c vidioc_enum_input,
# per input since the signal mode is kept per input). Left on an S-Video
# input that has a signal, input=auto must stay there (no switch); left on
# an S-Video input without one, it must move on to the first input that has
# one, the webcam (input 0), and capture from it. v4l2src has no input
# property (n/a).
from vivcheck import capture, expect, get_input, have_element, main, reset_device, v4l2ctl

DEV = "/dev/video0"


def run(no_signal):
    have_element("ivtvsrc")
    reset_device(DEV, 2)
    if no_signal:
        v4l2ctl(DEV, "-c", "standard_signal_mode=1")
    try:
        cap = capture("ivtvsrc name=src device=%s input=auto num-buffers=3 ! "
                      "fakesink" % DEV, timeout=30)
        got, label = get_input(DEV)
    finally:
        reset_device(DEV, 2)
    expect(not cap.errors, "capture failed: %s" % cap.errors)
    expect(len(cap.buffers) == 3 and cap.eos,
           "wanted 3 buffers then EOS, got %d (eos=%s)" % (len(cap.buffers), cap.eos))
    want = 0 if no_signal else 2
    expect(got == want, "input=auto left the device on input %d (%s), wanted %d"
           % (got, label, want))
    return "input=auto -> input %d (%s), 3 buffers" % (got, label)


main([("input-auto-stay.ivtvsrc", run, False),
      ("input-auto-nosignal.ivtvsrc", run, True)])
