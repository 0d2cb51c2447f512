# Scenario 5: signal simulation. Capturing S-Video PAL, vivid's "Standard
# Signal Mode" is switched to "No Signal" or "No Lock" 0.8 s in; the element
# must report it on the bus (a warning naming the signal or lock) and keep
# going to num-buffers (4 s: the element checks the signal once a second)
# without an error.
from vivcheck import capture, expect, have_element, main, reset_device, v4l2ctl

DEV = "/dev/video0"
N = 100
CAPS = "video/x-raw,width=720,height=576"


def one(element, mode, name):
    have_element(element)
    reset_device(DEV, 2)
    v4l2ctl(DEV, "-s", "pal")
    if element == "ivtvsrc":
        # the signal control is set by v4l2-ctl mid-capture: the record
        # priority would refuse it (EBUSY), hence record-priority=false
        src = ("ivtvsrc name=src device=%s input=svideo standard=pal "
               "record-priority=false" % DEV)
    else:
        src = "v4l2src name=src device=%s" % DEV
    try:
        cap = capture(src + " num-buffers=%d ! %s ! fakesink" % (N, CAPS),
                      timeout=40, actions=[(0.8, lambda: v4l2ctl(
                          DEV, "-c", "standard_signal_mode=%d" % mode))])
    finally:
        v4l2ctl(DEV, "-c", "standard_signal_mode=0", check=False)
    expect(not cap.timed_out, "hung with %d buffers" % len(cap.buffers))
    expect(not cap.errors, "stopped with an error: %s" % cap.errors)
    expect(len(cap.buffers) == N, "kept going for %d of %d buffers"
           % (len(cap.buffers), N))
    words = ("signal", "lock")
    warned = [w for w in cap.warnings if any(k in w.lower() for k in words)]
    expect(warned, "no warning about %s on the bus (warnings: %s)"
           % (name, cap.warnings))
    return "kept going, warned: %s" % warned[0][:120]


main([("signal-%s.%s" % (n, e), one, e, m, n)
      for n, m in (("nosignal", 1), ("nolock", 2))
      for e in ("ivtvsrc", "v4l2src")])
