# Scenario 4: tuner. ivtvsrc input=tv frequency=F sets the frequency (read
# back with v4l2-ctl --get-freq). vivid has signal only near its channel
# frequencies (43.25 MHz + n * 6 MHz); away from them G_TUNER reports 0 % and
# the element must warn about "no signal" on the bus. v4l2src has no
# frequency property: for the no-signal case the frequency is set with
# v4l2-ctl and v4l2src is watched for a warning.
import re

from vivcheck import (Fail, capture, expect, get_freq_hz, have_element, main,
                      reset_device, v4l2ctl)

DEV = "/dev/video0"
ON_CHANNEL = 181250000      # 43.25 MHz + 23 * 6 MHz
OFF_CHANNEL = 184250000     # 3 MHz beside it: noise
CAPS = "video/x-raw,width=720,height=576"


def signal_pct():
    m = re.search(r"Signal strength/AFC\s*:\s*(\d+)%", v4l2ctl(DEV, "--get-tuner"))
    if not m:
        raise Fail("cannot parse v4l2-ctl --get-tuner")
    return int(m.group(1))


def set_freq():
    have_element("ivtvsrc")
    reset_device(DEV, 0)
    v4l2ctl(DEV, "-f", "175.25")
    cap = capture("ivtvsrc name=src device=%s input=tv standard=pal frequency=%d "
                  "num-buffers=2 ! fakesink" % (DEV, ON_CHANNEL), timeout=30)
    expect(not cap.errors, "capture failed: %s" % cap.errors)
    expect(len(cap.buffers) == 2, "got %d buffers" % len(cap.buffers))
    hz = get_freq_hz(DEV)
    expect(hz == ON_CHANNEL, "device tuned to %d Hz, wanted %d" % (hz, ON_CHANNEL))
    sig = signal_pct()
    expect(sig > 50, "signal %d%% on a channel frequency" % sig)
    expect(not [w for w in cap.warnings if "signal" in w.lower()],
           "warned about signal on a good channel: %s" % cap.warnings)
    return "tuned to %.2f MHz, signal %d%%" % (hz / 1e6, sig)


def no_signal(element):
    have_element(element)
    reset_device(DEV, 1)
    v4l2ctl(DEV, "-s", "pal")
    if element == "ivtvsrc":
        src = ("ivtvsrc name=src device=%s input=tv standard=pal frequency=%d"
               % (DEV, OFF_CHANNEL))
    else:
        v4l2ctl(DEV, "-f", "%.2f" % (OFF_CHANNEL / 1e6))
        src = "v4l2src name=src device=%s" % DEV
    cap = capture(src + " num-buffers=5 ! %s ! fakesink" % CAPS, timeout=30)
    sig = signal_pct()
    expect(get_freq_hz(DEV) == OFF_CHANNEL, "not tuned to the test frequency")
    expect(sig == 0, "vivid reports %d%% signal off channel" % sig)
    expect(not cap.errors, "capture failed: %s" % cap.errors)
    warned = [w for w in cap.warnings if "signal" in w.lower()]
    expect(warned, "no warning about the missing signal on the bus "
           "(warnings: %s)" % cap.warnings)
    return "warned: %s" % warned[0][:120]


main([("tuner-set.ivtvsrc", set_freq),
      ("tuner-nosignal.ivtvsrc", no_signal, "ivtvsrc"),
      ("tuner-nosignal.v4l2src", no_signal, "v4l2src")])
