# Scenario 7: four vivid devices (n_devs=4) captured at once from one
# pipeline for 10 s (EOS after 10 s), 320x180 YUY2 @30 each. Every branch
# must deliver frames with strictly increasing driver sequence numbers (no
# duplicate, no loss the driver did not report as a sequence gap).
from vivcheck import capture, expect, have_element, main, reset_device

DEVS = ["/dev/video%d" % i for i in range(4)]
CAPS = "video/x-raw,format=YUY2,width=320,height=180,framerate=30/1"


def four(element):
    have_element(element)
    parts = []
    for i, d in enumerate(DEVS):
        reset_device(d, 0)
        extra = " input=webcam" if element == "ivtvsrc" else ""
        parts.append("%s name=src%d device=%s%s ! %s ! fakesink async=false"
                     % (element, i, d, extra, CAPS))
    cap = capture("  ".join(parts), timeout=40, eos_after=10)
    expect(not cap.errors, "errors: %s" % cap.errors)
    expect(cap.eos, "no EOS after 10 s (timed out=%s)" % cap.timed_out)
    per = getattr(cap, "per_src", {})
    expect(len(per) == 4, "only %d of 4 devices delivered" % len(per))
    notes = []
    for name in sorted(per):
        offs = per[name]
        expect(len(offs) >= 30, "%s: only %d frames in 10 s" % (name, len(offs)))
        expect(None not in offs, "%s: buffers carry no sequence number" % name)
        for a, b in zip(offs, offs[1:]):
            expect(b > a, "%s: sequence not strictly increasing: %s" % (name, offs))
        gaps = offs[-1] - offs[0] + 1 - len(offs)
        notes.append("%s %d frames/%d gaps" % (name, len(offs), gaps))
    return ", ".join(notes)


main([("four-devices.%s" % e, four, e) for e in ("ivtvsrc", "v4l2src")])
