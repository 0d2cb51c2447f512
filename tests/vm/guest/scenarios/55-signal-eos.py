# Scenario 5b: end of tape. Capturing S-Video PAL with signal-timeout=2,
# vivid's "Standard Signal Mode" goes to "No Signal" 1 s in: ivtvsrc must
# post an ivtvsrc-signal message with present=false, then end the capture
# by itself with EOS (no error) about 2 s later. v4l2src has no such
# property (n/a).
from vivcheck import capture, expect, have_element, main, reset_device, v4l2ctl

DEV = "/dev/video0"
CAPS = "video/x-raw,width=720,height=576"


def eos(element):
    have_element(element)
    reset_device(DEV, 2)
    v4l2ctl(DEV, "-s", "pal")
    # the signal control is set by v4l2-ctl mid-capture: the record
    # priority would refuse it (EBUSY), hence record-priority=false
    src = ("ivtvsrc name=src device=%s input=svideo standard=pal "
           "signal-timeout=2 record-priority=false" % DEV)
    try:
        cap = capture(src + " ! %s ! fakesink" % CAPS, timeout=30,
                      actions=[(1.0, lambda: v4l2ctl(
                          DEV, "-c", "standard_signal_mode=1"))])
    finally:
        v4l2ctl(DEV, "-c", "standard_signal_mode=0", check=False)
    expect(not cap.errors, "stopped with an error: %s" % cap.errors)
    expect(cap.eos, "no EOS by itself (timed out=%s, %d buffers)"
           % (cap.timed_out, len(cap.buffers)))
    lost = [(t, s) for t, s in cap.messages
            if s.startswith("ivtvsrc-signal") and "present=(boolean)false" in s]
    expect(lost, "no ivtvsrc-signal present=false message (messages: %s)"
           % cap.messages)
    expect(2.0 <= cap.wall <= 8.0, "EOS after %.1f s, expected about 3 s"
           % cap.wall)
    expect(len(cap.buffers) >= 10, "only %d frames before EOS" % len(cap.buffers))
    return "EOS after %.1f s, %d frames, signal lost at %.1f s" % (
        cap.wall, len(cap.buffers), lost[0][0])


main([("signal-eos.ivtvsrc", eos, "ivtvsrc")])
