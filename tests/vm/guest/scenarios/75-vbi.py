# Scenario 7b: the VBI node of vivid device 0 (node_types=0xd: video, raw
# and sliced VBI capture on /dev/vbi0). vivid-vbi-gen.c puts CEA-608 on
# line 21 of 60 Hz standards ("Closed captions test" in CC1) and WSS on
# line 23 of 50 Hz ones (4:3 unless the test pattern's aspect says
# otherwise); VBI exists on the TV and S-Video inputs only. ivtvsrc gives
# the captions as closedcaption/x-cea-608 (sliced, or raw decoded with
# libzvbi) and WSS as ivtvsrc-wss messages. v4l2src has no VBI (n/a).
import os
import shutil
import subprocess
import tempfile

from vivcheck import Skip, capture, expect, have_element, main, reset_device

DEV = "/dev/video0"
VBI = "/dev/vbi0"
TEXT = "Closed captions test"


def text_of(data, s334):
    """The printable characters of CC field 1, control codes skipped."""
    pairs = []
    if s334:
        pairs = [(data[i + 1], data[i + 2]) for i in range(0, len(data) - 2, 3)
                 if data[i] & 0x80]
    else:
        pairs = [(data[i], data[i + 1]) for i in range(0, len(data) - 1, 2)]
    out = []
    for b1, b2 in pairs:
        b1, b2 = b1 & 0x7f, b2 & 0x7f
        if 0x10 <= b1 <= 0x1f:
            continue
        out += [chr(b) for b in (b1, b2) if 0x20 <= b < 0x7f]
    return "".join(out)


def need_vbi():
    have_element("ivtvsrc")
    if not os.path.exists(VBI):
        raise Skip("no %s (vivid node_types without VBI bits)" % VBI)


def cc(mode, fmt):
    need_vbi()
    reset_device(DEV, 2)                # S-Video 0: VBI needs an SDTV input
    path = tempfile.mktemp(suffix=".608")
    cap = capture("ivtvsrc name=src device=%s standard=ntsc vbi-mode=%s "
                  "num-buffers=150 ! closedcaption/x-cea-608,format=%s ! "
                  "filesink location=%s" % (VBI, mode, fmt, path), timeout=30)
    expect(not cap.errors, "capture failed: %s" % cap.errors)
    expect(cap.eos and len(cap.buffers) == 150,
           "wanted 150 buffers then EOS: %s" % cap.summary())
    data = open(path, "rb").read()
    os.unlink(path)
    got = text_of(data, fmt == "s334-1a")
    expect(TEXT in got, "decoded %r, no %r" % (got[:120], TEXT))
    return "%s, %s: %r" % (mode, fmt, got[:60])


def wss(mode):
    need_vbi()
    reset_device(DEV, 2)
    cap = capture("ivtvsrc name=src device=%s standard=pal vbi-mode=%s "
                  "num-buffers=25 ! fakesink" % (VBI, mode), timeout=30)
    expect(not cap.errors, "capture failed: %s" % cap.errors)
    msgs = [m for _, m in cap.messages if m.startswith("ivtvsrc-wss")]
    expect(msgs, "no ivtvsrc-wss message: %s" % cap.summary())
    expect('aspect=(string)4:3' in msgs[0], "WSS says %s" % msgs[0])
    return msgs[0]


def cc_on_pal():
    need_vbi()
    reset_device(DEV, 2)
    cap = capture("ivtvsrc name=src device=%s standard=pal vbi-services=cc "
                  "num-buffers=5 ! fakesink" % VBI, timeout=20)
    expect(cap.errors and "60 Hz" in cap.errors[0],
           "wanted one error naming 60 Hz: %s" % cap.summary())
    return cap.errors[0].split(":", 1)[1][:100]


def combined():
    need_vbi()
    have_element("cccombiner")
    have_element("x264enc")
    if not shutil.which("ffprobe"):
        raise Skip("ffprobe missing (ffmpeg)")
    reset_device(DEV, 2)
    path = tempfile.mktemp(suffix=".mp4")
    cap = capture("cccombiner name=c ! x264enc speed-preset=ultrafast ! mp4mux ! "
                  "filesink location=%s "
                  "ivtvsrc name=src device=%s input=svideo standard=ntsc "
                  "num-buffers=45 ! videoconvert ! c.sink "
                  "ivtvsrc name=src2 device=%s standard=ntsc num-buffers=45 ! "
                  "ccconverter ! closedcaption/x-cea-708,format=cc_data ! "
                  "c.caption" % (path, DEV, VBI), timeout=50, eos_after=None)
    expect(not cap.errors, "pipeline failed: %s" % cap.errors)
    p = subprocess.run(["ffprobe", "-hide_banner", path], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=30)
    os.unlink(path)
    video = [ln.strip() for ln in p.stdout.splitlines() if "Video:" in ln]
    expect(video and "Closed Captions" in video[0],
           "ffprobe: %s" % (video or p.stdout[-300:]))
    return video[0][:120]


main([("vbi-sliced-cc.ivtvsrc", cc, "sliced", "s334-1a"),
      ("vbi-raw-cc.ivtvsrc", cc, "raw", "raw"),
      ("vbi-wss-pal.ivtvsrc", wss, "sliced"),
      ("vbi-wss-raw-pal.ivtvsrc", wss, "raw"),
      ("vbi-cc-on-pal.ivtvsrc", cc_on_pal),
      ("vbi-cccombiner.ivtvsrc", combined)])
