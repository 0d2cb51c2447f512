# Scenario 7: four vivid devices (n_devs=4) captured at once from one
# pipeline for 10 s (EOS after 10 s), 320x180 YUY2 @30 each. Every branch
# must deliver frames with increasing driver sequence numbers: no buffer
# twice, no loss the driver did not report as a sequence gap (a number vivid
# itself repeats, on a new picture, is counted; see sequence_check).
from vivcheck import (capture, expect, have_element, main, reset_device,
                      sequence_check)

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
    per = cap.frames
    expect(len(per) == 4, "only %d of 4 devices delivered" % len(per))
    notes = []
    for name in sorted(per):
        frames = per[name]
        expect(len(frames) >= 30, "%s: only %d frames in 10 s" % (name, len(frames)))
        gaps, repeats = sequence_check(frames, name + " buffer")
        notes.append("%s %d frames/%d gaps%s" % (name, len(frames), gaps,
                     "/%d repeated by vivid" % repeats if repeats else ""))
    return ", ".join(notes)


main([("four-devices.%s" % e, four, e) for e in ("ivtvsrc", "v4l2src")])
