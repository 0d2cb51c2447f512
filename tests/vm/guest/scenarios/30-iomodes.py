# Scenario 3: io-mode auto, rw, mmap, dmabuf, userptr on the webcam input,
# 320x180 YUY2 @30. Each mode either captures N frames of the right size with
# increasing driver sequence numbers (no buffer twice; gaps are what
# vivid reports) or refuses with an error message; a hang, a crash, an error
# without message or wrong-sized frames fail. ivtvsrc must also report the
# mode it used in current-io-mode.
from vivcheck import (capture, expect, have_element, main, reset_device,
                      sequence_ok)

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
    if cap.errors:
        msg = cap.errors[0]
        expect(len(cap.buffers) == 0, "error after %d buffers: %s"
               % (len(cap.buffers), msg))
        text = msg.split(":", 1)[1].split("(", 1)[0].strip() if ":" in msg else ""
        expect(len(text) > 8, "refused without a readable message: %r" % msg)
        return "refused: %s" % text
    gaps = None
    if mode != "rw":
        gaps = sequence_ok(cap, N)
    else:
        expect(len(cap.buffers) == N, "got %d buffers" % len(cap.buffers))
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
        expect(used is not None, "no current-io-mode property")
        expect(mode == "auto" or used == mode, "current-io-mode %s, asked %s"
               % (used, mode))
        note += ", current-io-mode %s" % used
    return note


main([("io-%s.%s" % (m, e), one, e, m)
      for m in ("auto", "rw", "mmap", "dmabuf", "userptr")
      for e in ("ivtvsrc", "v4l2src")])
