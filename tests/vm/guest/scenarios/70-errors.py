# Scenario 6: vivid's error injection controls, webcam 320x180 YUY2 @30.
#   reqbufs   next REQBUFS fails: capture must still deliver (retry or fall
#             back to read()).
#   streamon  next STREAMON fails; qbuf: next QBUF fails: either N frames or
#             an error with a readable message, never a hang.
#   buferror  one buffer comes back with V4L2_BUF_FLAG_ERROR mid-stream: it
#             must be dropped (a sequence gap), not passed on, not even
#             flagged CORRUPTED.
#   disconnect  the device disappears mid-stream (last: it cannot come
#             back): a readable error ends the pipeline and the file keeps
#             every byte captured before.
# Runs on /dev/video1..3 so that /dev/video0 stays usable.
import os

from vivcheck import (capture, expect, have_element, main, reset_device,
                      sequence_ok, v4l2ctl)

DEV = "/dev/video1"
CAPS = "video/x-raw,format=YUY2,width=320,height=180,framerate=30/1"
N = 15


def src(element, dev):
    extra = " input=webcam" if element == "ivtvsrc" else ""
    return "%s name=src device=%s%s" % (element, dev, extra)


def readable(cap):
    msg = cap.errors[0]
    text = msg.split(":", 1)[1].split("(", 1)[0].strip() if ":" in msg else ""
    expect(len(text) > 8, "error without a readable message: %r" % msg)
    return text


def inject(element, ctrl, must_capture):
    have_element(element)
    reset_device(DEV, 0)
    v4l2ctl(DEV, "-c", "%s=1" % ctrl)
    cap = capture("%s num-buffers=%d ! %s ! fakesink" % (src(element, DEV), N, CAPS),
                  timeout=30, read_props=("current-io-mode",))
    expect(not cap.timed_out, "hung after %d buffers" % len(cap.buffers))
    mode = cap.props.get("current-io-mode")
    tail = ", current-io-mode %s" % mode if mode else ""
    if cap.errors:
        text = readable(cap)
        expect(not must_capture, "did not recover: %s" % text)
        return "stopped with: %s" % text
    expect(len(cap.buffers) == N, "got %d buffers" % len(cap.buffers))
    return "recovered, %d frames%s" % (N, tail)


def buf_error(element):
    have_element(element)
    reset_device(DEV, 0)
    cap = capture("%s num-buffers=40 ! %s ! fakesink" % (src(element, DEV), CAPS),
                  timeout=30, actions=[(1.0, lambda: v4l2ctl(
                      DEV, "-c", "inject_v4l2_buf_flag_error=1"))])
    expect(not cap.errors, "stopped with an error: %s" % cap.errors)
    gaps = sequence_ok(cap, 40)
    bad = cap.corrupted()
    expect(not bad, "passed on %d buffer(s) from V4L2_BUF_FLAG_ERROR, flagged "
           "CORRUPTED (offsets %s)" % (len(bad), [b[0] for b in bad]))
    expect(gaps is not None and gaps > 0,
           "no sequence gap: the error buffer was not dropped (gaps %s)" % gaps)
    return "no corrupted buffer passed, %d sequence gaps" % gaps


def disconnect(element, dev):
    have_element(element)
    reset_device(dev, 0)
    out = os.path.join(os.environ.get("TMPDIR", "/tmp"), "disconnect-%s.raw" % element)
    cap = capture("%s num-buffers=2000 ! %s ! filesink location=%s"
                  % (src(element, dev), CAPS, out), timeout=30,
                  actions=[(1.5, lambda: v4l2ctl(dev, "-c", "disconnect=1"))])
    expect(not cap.timed_out, "still running 28 s after the disconnect "
           "(%d buffers)" % len(cap.buffers))
    expect(cap.errors, "pipeline ended without an error (eos=%s, %d buffers)"
           % (cap.eos, len(cap.buffers)))
    text = readable(cap)
    size = os.path.getsize(out) if os.path.exists(out) else -1
    want = sum(b[1] for b in cap.buffers)
    expect(cap.buffers, "no frame before the disconnect")
    expect(size == want, "file has %d bytes, %d buffers carried %d"
           % (size, len(cap.buffers), want))
    return "error: %s; file kept %d frames" % (text[:100], len(cap.buffers))


main([("err-%s.%s" % (n, e), inject, e, c, must)
      for n, c, must in (("reqbufs", "inject_vidioc_reqbufs_error", True),
                         ("streamon", "inject_vidioc_streamon_error", False),
                         ("qbuf", "inject_vidioc_qbuf_error", False))
      for e in ("ivtvsrc", "v4l2src")]
     + [("err-buferror.%s" % e, buf_error, e) for e in ("ivtvsrc", "v4l2src")]
     + [("err-disconnect.ivtvsrc", disconnect, "ivtvsrc", "/dev/video2"),
        ("err-disconnect.v4l2src", disconnect, "v4l2src", "/dev/video3")])
