#!/usr/bin/env python3
# Host side of the real-driver suites (tests/vm/usbip): one qemu boot per
# driver with vmrun.py's machinery (kernel, initramfs with the 'usbip'
# module group, registry), the device program ivtv-usbdev and the content
# it feeds, made here at test time with GStreamer's encoders; every meson
# test of the suite then reads its check's result.
#
#   vmrun.py usbip-boot  DRIVER       --build-root B --source-dir S
#   vmrun.py usbip-check DRIVER.CHECK --build-root B --source-dir S
#
# Exit codes follow meson: 0 pass, 1 fail, 77 skip.
import os
import shutil
import subprocess

USBIP_TIMEOUT = 900         # one driver's whole guest run, seconds
GUEST_TIMEOUT = 780         # the driver's scenario script inside it


def load_cells(src):
    """[(check id, driver, state, reason)] of tests/vm/usbip/checks.txt."""
    cells = []
    for line in open(os.path.join(src, "tests", "vm", "usbip", "checks.txt")):
        if line.startswith("#") or not line.strip():
            continue
        drv, scen, cell, _ = [c.strip() for c in line.split("|", 3)]
        state, _, reason = cell.partition(" ")
        if state not in ("pass", "xfail", "na"):
            raise SystemExit("usbip/checks.txt: bad cell %r" % cell)
        cells.append(("%s.%s" % (drv, scen), drv, state, reason.strip()))
    return cells


def make_hdpvr_stream(vm, cache):
    """An H.264 + AAC MPEG transport stream at the HD PVR's default bit rate
    (hdpvr-core.c hdpvr_default_options: 6.5 Mbit/s average, CBR), 720x480
    at 29.97 fps with a time overlay, 10 s: what the card's encoder sends."""
    out = os.path.join(cache, "hdpvr-stream.ts")
    if os.path.exists(out) and os.path.getsize(out) > 1 << 20:
        return out
    for el in ("x264enc", "avenc_aac", "mpegtsmux", "timeoverlay"):
        if subprocess.run(["gst-inspect-1.0", el], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode:
            raise vm.Skip("GStreamer element %s missing: cannot make the HD PVR's "
                          "stream (bash tools/deps.sh)" % el)
    cmd = ("gst-launch-1.0 -q -e videotestsrc num-buffers=300 pattern=smpte ! "
           "video/x-raw,width=720,height=480,framerate=30000/1001 ! timeoverlay ! "
           "x264enc bitrate=6500 pass=cbr vbv-buf-capacity=1000 speed-preset=ultrafast "
           "key-int-max=30 ! h264parse ! queue ! mpegtsmux name=m alignment=7 ! "
           "filesink location=%s.tmp audiotestsrc num-buffers=470 blocksize=4096 ! "
           "audio/x-raw,rate=48000,channels=2 ! avenc_aac bitrate=192000 ! aacparse ! "
           "queue ! m." % out).split()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode or not os.path.exists(out + ".tmp"):
        raise vm.Skip("could not make the HD PVR's stream: %s" % p.stdout[-300:])
    os.replace(out + ".tmp", out)
    return out


def pvrusb2_payload(vm, cache):
    """The cx23416's streams: tests/emu's payload clips (mkpayload.sh, built
    with the project), one per stream type, NTSC and PAL; the PVR-USB2
    model sends the one the mailbox asked for.  STREAM is the NTSC base
    (the guest finds the PAL one beside it)."""
    base = os.path.normpath(os.path.join(cache, "..", "..", "emu", "c0-ntsc"))
    for fam in ("c0-ntsc", "c0-pal"):
        if not os.path.exists(os.path.join(os.path.dirname(base), fam + ".mpg")):
            raise vm.Skip("tests/emu's payload %s.mpg not built" % fam)
    return base


STREAMS = {"hdpvr": make_hdpvr_stream, "pvrusb2": pvrusb2_payload}


def boot_kw(vm, args, driver):
    """boot()'s arguments for DRIVER's run (called under vmrun's lock)."""
    cache = os.path.join(args.build_root, "tests", "vm", "cache")
    os.makedirs(cache, exist_ok=True)
    usbdev = os.path.join(args.build_root, "tests", "vm", "usbip", "ivtv-usbdev")
    if not os.path.exists(usbdev):
        raise vm.Skip("ivtv-usbdev not built (%s)" % usbdev)
    stream = STREAMS[driver](vm, cache) if driver in STREAMS else ""
    checks = [c[0] for c in load_cells(args.source_dir)
              if c[1] == driver and c[2] in ("pass", "xfail")]
    return {"guest_run": os.path.join(args.source_dir, "tests", "vm", "usbip",
                                      "guest", "run.sh"),
            "extra": {"MODULE_GROUP": "usbip", "DRIVER": driver,
                      "GUEST_DIR": os.path.join(args.source_dir, "tests", "vm",
                                                "usbip", "guest"),
                      "USBDEV": usbdev, "STREAM": stream,
                      "GUEST_TIMEOUT": str(GUEST_TIMEOUT)},
            "timeout": USBIP_TIMEOUT, "checks": checks}


def main(args, vm):
    if not args.id:
        print("usbip-boot DRIVER / usbip-check DRIVER.CHECK")
        return 2
    driver = args.id.split(".")[0]
    if driver not in {c[1] for c in load_cells(args.source_dir)}:
        print("no checks for driver %s in tests/vm/usbip/checks.txt" % driver)
        return 2
    if not shutil.which("gst-launch-1.0"):
        raise vm.Skip("gst-launch-1.0 missing")
    results, meta = vm.ensure_run(args, "usbip-" + driver,
                                  lambda: boot_kw(vm, args, driver))
    if args.cmd == "usbip-boot":
        print(meta)
        if "guest-done" not in meta:
            print("guest did not finish the %s checks; console:" % driver)
            vm.cat(os.path.join(results, "console.log"), 3000)
            vm.cat(os.path.join(results, "scenario-%s.log" % driver), 3000)
            return 1
        return 0
    return vm.cmd_check(args, results, meta)
