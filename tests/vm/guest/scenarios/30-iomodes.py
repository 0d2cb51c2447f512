# Scenario 3: io-mode auto, rw, mmap, dmabuf, userptr on the webcam input,
# 320x180 YUY2 @30. vivid's capture node supports every one of them
# (vivid-core.c, vivid_create_queue(): VB2_MMAP | VB2_DMABUF | VB2_READ,
# and VB2_USERPTR with the default vmalloc allocator), so
# each mode must capture N frames of the right size with the driver's
# sequence numbers never going back and no buffer twice (gaps are what
# vivid reports); a refusal, however clear, fails. The element's
# current-io-mode must name the mode asked for (mmap for auto).
from vivcheck import (capture, expect, have_element, main, readable,
                      reset_device, sequence_ok)

DEV = "/dev/video0"
N = 20
CAPS = "video/x-raw,format=YUY2,width=320,height=180,framerate=30/1"


def one(element, mode):
    have_element(element)
    reset_device(DEV, 0)
    extra = " input=webcam" if element == "ivtvsrc" else ""
    cap = capture("%s name=src device=%s%s io-mode=%s num-buffers=%d ! %s ! fakesink"
                  % (element, DEV, extra, mode, N, CAPS), timeout=40,
                  read_props=("current-io-mode",))
    expect(not cap.timed_out, "hung: no EOS or error within 40 s, %d buffers"
           % len(cap.buffers))
    expect(not cap.errors, "io-mode=%s refused or failed after %d buffers, "
           "although vivid supports it: %s" % (
               mode, len(cap.buffers), readable(cap.errors[0]) if cap.errors else ""))
    gaps = None
    if mode != "rw":
        gaps = sequence_ok(cap, N)
    expect(len(cap.buffers) == N and cap.eos, "got %d buffers (eos=%s), wanted %d"
           % (len(cap.buffers), cap.eos, N))
    sizes = {b[1] for b in cap.buffers}
    expect(sizes == {320 * 180 * 2}, "frame sizes %s, wanted %d"
           % (sizes, 320 * 180 * 2))
    note = "%d frames" % len(cap.buffers)
    if gaps is not None:
        note += ", %d sequence gaps" % gaps
    elif mode != "rw":
        note += ", no sequence numbers in buffer offsets"
    if element == "ivtvsrc":
        used = cap.props.get("current-io-mode")
        want = "mmap" if mode == "auto" else mode
        expect(used == want, "current-io-mode %s, wanted %s" % (used, want))
        note += ", current-io-mode %s" % used
    return note


main([("io-%s.%s" % (m, e), one, e, m)
      for m in ("auto", "rw", "mmap", "dmabuf", "userptr")
      for e in ("ivtvsrc", "v4l2src")])
