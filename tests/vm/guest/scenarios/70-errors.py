# Scenario 6: vivid's error injection controls, webcam 320x180 YUY2 @30.
#   reqbufs, streamon, qbuf   the next REQBUFS / STREAMON / QBUF fails
#             once (vivid-ctrls.c arms it; vivid-vid-cap.c's queue_setup,
#             start_streaming, buf_prepare return -EINVAL and disarm it).
#             With io-mode=auto the capture must go
#             on through read(), which vivid also offers: N frames of the
#             right size, no error, current-io-mode rw, and a message on the
#             bus (INFO or WARNING) saying streaming failed and read() took
#             over. That is what ivtvsrc does today (ivtvsrcio.c falls back
#             when the user did not ask for a mode); a refusal fails.
#   streamon-mmap  the same STREAMON error with io-mode=mmap asked for: no
#             fallback the user did not ask for, a readable error, no frame,
#             no hang.
#   buferror  one buffer comes back with V4L2_BUF_FLAG_ERROR mid-stream: it
#             must be dropped (a sequence gap), not passed on, not even
#             flagged CORRUPTED.
#   disconnect  the device disappears mid-stream (last: it cannot come
#             back): a readable error ends the pipeline and the file keeps
#             every byte captured before.
# Runs on /dev/video1..3 so that /dev/video0 stays usable.
import os

from vivcheck import (capture, expect, have_element, main, readable,
                      reset_device, sequence_ok, v4l2ctl)

DEV = "/dev/video1"
CAPS = "video/x-raw,format=YUY2,width=320,height=180,framerate=30/1"
N = 15


def src(element, dev, others_may_set=False):
    """others_may_set: v4l2-ctl sets a control mid-capture (vivid's fault
    injection), which ivtvsrc's record priority would refuse (EBUSY)."""
    extra = " input=webcam" if element == "ivtvsrc" else ""
    if others_may_set and element == "ivtvsrc":
        extra += " record-priority=false"
    return "%s name=src device=%s%s" % (element, dev, extra)


def inject(element, ctrl):
    """io-mode=auto, the next ioctl fails: frames through read()."""
    have_element(element)
    reset_device(DEV, 0)
    v4l2ctl(DEV, "-c", "%s=1" % ctrl)
    cap = capture("%s num-buffers=%d ! %s ! fakesink" % (src(element, DEV), N, CAPS),
                  timeout=30, read_props=("current-io-mode",))
    expect(not cap.timed_out, "hung after %d buffers" % len(cap.buffers))
    expect(not cap.errors, "did not fall back to read(): %s"
           % (readable(cap.errors[0]) if cap.errors else ""))
    expect(len(cap.buffers) == N and cap.eos, "got %d buffers (eos=%s), wanted %d"
           % (len(cap.buffers), cap.eos, N))
    sizes = {b[1] for b in cap.buffers}
    expect(sizes == {320 * 180 * 2}, "frame sizes %s, wanted %d"
           % (sizes, 320 * 180 * 2))
    mode = cap.props.get("current-io-mode")
    if element == "ivtvsrc":
        expect(mode == "rw", "current-io-mode %s, wanted rw (the read() "
               "fallback)" % mode)
    told = [m for m in cap.infos + cap.warnings if "read()" in m]
    expect(told, "the fallback to read() is not on the bus (infos %s, "
           "warnings %s)" % (cap.infos, cap.warnings))
    return "%d frames through read()%s; told: %s" % (
        N, ", current-io-mode %s" % mode if mode else "", readable(told[0])[:100])


def refuse(element, ctrl, mode):
    """io-mode asked for, the next ioctl fails: a readable error, no frame."""
    have_element(element)
    reset_device(DEV, 0)
    v4l2ctl(DEV, "-c", "%s=1" % ctrl)
    cap = capture("%s io-mode=%s num-buffers=%d ! %s ! fakesink"
                  % (src(element, DEV), mode, N, CAPS), timeout=30)
    expect(not cap.timed_out, "hung after %d buffers" % len(cap.buffers))
    expect(cap.errors, "no error: %d buffers (eos=%s) although io-mode=%s "
           "could not start" % (len(cap.buffers), cap.eos, mode))
    expect(not cap.buffers, "%d buffers before the error" % len(cap.buffers))
    return "error: %s" % readable(cap.errors[0])[:120]


def buf_error(element):
    have_element(element)
    reset_device(DEV, 0)
    # 90 frames (3 s): the injection at 1 s comes well before the end even
    # when v4l2-ctl starts slowly on a loaded machine (40 frames were over
    # before it at times: "gaps 0", offsets 0..39 unbroken)
    cap = capture("%s num-buffers=90 ! %s ! fakesink" % (src(element, DEV, True), CAPS),
                  timeout=30, actions=[(1.0, lambda: v4l2ctl(
                      DEV, "-c", "inject_v4l2_buf_flag_error=1"))])
    expect(not cap.action_failures, "the buffer error was not injected: %s"
           % cap.action_failures)
    expect(not cap.errors, "stopped with an error: %s" % cap.errors)
    gaps = sequence_ok(cap, 90)
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
    # vivid's disconnect control is set by v4l2-ctl mid-capture
    cap = capture("%s num-buffers=2000 ! %s ! filesink location=%s"
                  % (src(element, dev, True), CAPS, out), timeout=30,
                  actions=[(1.5, lambda: v4l2ctl(dev, "-c", "disconnect=1"))])
    expect(not cap.action_failures, "the disconnect was not injected: %s"
           % cap.action_failures)
    expect(not cap.timed_out, "still running 28 s after the disconnect "
           "(%d buffers)" % len(cap.buffers))
    expect(cap.errors, "pipeline ended without an error (eos=%s, %d buffers)"
           % (cap.eos, len(cap.buffers)))
    text = readable(cap.errors[0])
    size = os.path.getsize(out) if os.path.exists(out) else -1
    want = sum(b[1] for b in cap.buffers)
    expect(cap.buffers, "no frame before the disconnect")
    expect(size == want, "file has %d bytes, %d buffers carried %d"
           % (size, len(cap.buffers), want))
    return "error: %s; file kept %d frames" % (text[:100], len(cap.buffers))


main([("err-%s.%s" % (n, e), inject, e, c)
      for n, c in (("reqbufs", "inject_vidioc_reqbufs_error"),
                   ("streamon", "inject_vidioc_streamon_error"),
                   ("qbuf", "inject_vidioc_qbuf_error"))
      for e in ("ivtvsrc", "v4l2src")]
     + [("err-streamon-mmap.%s" % e, refuse, e, "inject_vidioc_streamon_error",
         "mmap") for e in ("ivtvsrc", "v4l2src")]
     + [("err-buferror.%s" % e, buf_error, e) for e in ("ivtvsrc", "v4l2src")]
     + [("err-disconnect.ivtvsrc", disconnect, "ivtvsrc", "/dev/video2"),
        ("err-disconnect.v4l2src", disconnect, "v4l2src", "/dev/video3")])
