# Scenario 8: one entry per device node. With udevd running in the guest (a
# normal desktop), v4l2deviceprovider sees every vivid node through udev and
# ivtvdeviceprovider does too: the monitor must list each node once, from
# ivtvdeviceprovider (which hides v4l2deviceprovider), with
# v4l2deviceprovider's property keys filled from udev. Runs last: it starts
# udevd (and stops it at the end).
import os
import re
import subprocess
import time

from vivcheck import Gst, Skip, expect, have_element, log, main

UDEVD = "/lib/systemd/systemd-udevd"
# the guest runs the checks chrooted into the host's root: udevadm would
# ignore trigger and settle there ("Running in chroot, ignoring request")
ENV = dict(os.environ, SYSTEMD_IGNORE_CHROOT="1")
NODES = ["/dev/video%d" % i for i in range(4)]   # node_types=0x1: capture only


def start_udevd():
    if not os.path.exists(UDEVD):
        raise Skip("udevd not installed (Debian package udev)")
    p = subprocess.run([UDEVD, "--daemon"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=20, env=ENV)
    log("$ systemd-udevd --daemon -> %d %s" % (p.returncode, p.stdout.strip()))
    expect(p.returncode == 0, "udevd did not start: %s" % p.stdout.strip())
    for cmd in (["udevadm", "trigger", "--action=add"],
                ["udevadm", "settle", "-t", "20"]):
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=30, env=ENV)
        log("$ %s -> %d %s" % (" ".join(cmd), p.returncode, p.stdout.strip()))
    p = subprocess.run(["udevadm", "info", "-q", "property", NODES[0]],
                       stdout=subprocess.PIPE, text=True, timeout=10, env=ENV)
    log("udev properties of %s:\n%s" % (NODES[0], p.stdout.strip()))
    expect("ID_V4L_CAPABILITIES" in p.stdout,
           "udev has no V4L data for %s (rules not applied)" % NODES[0])


def stop_udevd():
    subprocess.run(["udevadm", "control", "--exit"], timeout=20, env=ENV)


def listed(show_all):
    mon = Gst.DeviceMonitor.new()
    mon.add_filter("Video/Source", None)
    mon.set_show_all_devices(show_all)
    expect(mon.start(), "the device monitor does not start")
    out = []
    for dev in mon.get_devices():
        props = dev.get_properties()
        out.append((props.get_name() if props else None,
                    props.get_string("device.path") if props else None, dev))
    mon.stop()
    return out


def once(_element):
    have_element("ivtvsrc")
    have_element("v4l2src")      # v4l2deviceprovider: the duplicate to hide
    start_udevd()
    try:
        every = listed(True)
        log("show-all: %s" % [(n, p) for n, p, _ in every])
        for node in NODES:
            expect(sum(1 for n, p, _ in every if p == node
                       and n != "ivtv-device-properties") == 1,
                   "%s: v4l2deviceprovider does not list it through udev "
                   "(nothing to hide): %s" % (node, every))
        shown = listed(False)
        paths = sorted(p for _, p, _ in shown)
        expect(paths == NODES, "each node once, wanted %s, got %s"
               % (NODES, paths))
        for name, path, dev in shown:
            props = dev.get_properties()
            expect(name == "ivtv-device-properties",
                   "%s listed by another provider (%s)" % (path, name))
            ok, caps = props.get_uint("v4l2.device.capabilities")
            expect(props.get_value("udev-probed") is True
                   and props.get_string("sysfs.path")
                   and props.get_string("device.bus_path")
                   and props.get_string("v4l2.device.driver") == "vivid"
                   and props.get_string("v4l2.device.card")
                   and props.get_string("v4l2.device.bus_info")
                   and ok and caps & 0x1,
                   "%s: v4l2deviceprovider's keys missing: %s"
                   % (path, props.to_string()))
        # the command a person types
        out = subprocess.run(["gst-device-monitor-1.0", "Video/Source"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True, timeout=60).stdout
        log(out)
        n = out.count("Device found:")
        expect(n == len(NODES), "gst-device-monitor-1.0 Video/Source: %d "
               "devices, wanted %d" % (n, len(NODES)))
        expect(len(re.findall(r"udev-probed = true", out)) == len(NODES),
               "gst-device-monitor-1.0: not every device udev-probed")
        # by the right element: vivid's nodes stream, so they are v4l2src's
        # (ivtvdeviceprovider's default since issue 27; ivtvsrc would take
        # them with IVTV_DEVICE_PROVIDER=all)
        n_v4l2src = len(re.findall(r"gst-launch-1.0 v4l2src\b", out))
        expect(n_v4l2src == len(NODES), "gst-device-monitor-1.0: %d of %d "
               "streaming nodes offered with v4l2src" % (n_v4l2src, len(NODES)))
        return "%d nodes, each once (%d with show-all)" % (n, len(every))
    finally:
        stop_udevd()


main([("monitor-udev.ivtvsrc", once, "ivtvsrc")])
