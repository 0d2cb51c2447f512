#!/usr/bin/env python3
# Host side of the vivid suite: fetches and caches the Debian kernel package,
# builds the busybox initramfs, boots qemu (TCG) once per `meson test` run with
# the host root shared read-only and a result folder shared writable over 9p,
# and hands each meson test the result file its check wrote inside the guest.
# checks.txt says which checks a run asks the guest for: a meson run only
# ivtvsrc's "pass"/"xfail" cells, the comparison run every cell not "na".
#
#   vmrun.py boot  --build-root B --source-dir S   boot (if not done for this run)
#   vmrun.py check --build-root B --source-dir S ID
#   vmrun.py compat --build-root B --source-dir S [--out FILE] [--only REGEX]
#       the comparison run (the `ivtv-compat` command): a boot of its own
#       that runs ivtvsrc's and v4l2src's cells, results in
#       B/tests/vm/compat-results, then gen-compat.py writes FILE (default
#       S/docs/compatibility.md). Exit 1 only when the guest did not finish
#       or an ivtvsrc "pass" cell failed; v4l2src never changes it.
#   vmrun.py bench --build-root B --source-dir S --script GUEST-SCRIPT
#                  [--conf KEY=VALUE]... [--timeout S]
#       one boot that runs GUEST-SCRIPT (bash, given boot.conf) instead of
#       the checks, results in B/tests/vm/bench-results (the benchmark,
#       bench/vivid-bench.py); prints the run's JSON, the results folder last
#
# Exit codes follow meson: 0 pass, 1 fail, 77 skip.
import argparse
import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import time

SKIP = 77
BOOT_TIMEOUT = 400          # whole guest run, seconds (a loaded 2-core
                            # machine took 270 s for scenarios 10-50)
COMPAT_TIMEOUT = 600        # the comparison run: both elements, every cell
# device 0 also has raw and sliced VBI capture, /dev/vbi0 (node_types bits
# 2-3 = 3: scenario 75-vbi)
VIVID_OPTS = ("n_devs=4 node_types=0xd,0x1,0x1,0x1 "
              "input_types=0xe4,0xe4,0xe4,0xe4 num_inputs=4,4,4,4")
BOOT_MODULES = ["virtio_pci", "9pnet_virtio", "9p"]
VIVID_MODULES = ["vivid"]
# the real-driver suites (tests/vm/usbip): the USB/IP host controller and
# the drivers; saa7115 is requested at run time by stk1160, not a symbol
# dependency, so it is loaded here
USBIP_MODULES = ["vhci_hcd", "hdpvr", "usbtv", "stk1160", "saa7115",
                 "snd_usb_audio"]
# pvrusb2 requests its sub-device modules at run time (pvrusb2-hdw.c
# pvr2_hdw_load_modules): msp3400, the tuner core and the tuner/demod
# drivers it attaches by symbol (tuner-simple, tda9887)
USBIP_MODULES += ["pvrusb2", "msp3400", "tuner", "tuner_simple", "tda9887"]


class Skip(Exception):
    pass


def load_cells(src):
    """[(check id, element, state word, reason)] of tests/vm/checks.txt:
    state is pass, xfail, pending or na."""
    cells = []
    for line in open(os.path.join(src, "tests", "vm", "checks.txt")):
        if line.startswith("#") or not line.strip():
            continue
        parts = [c.strip() for c in line.split("|", 3)]
        for el, cell in (("ivtvsrc", parts[1]), ("v4l2src", parts[2])):
            state, _, reason = cell.partition(" ")
            if state not in ("pass", "xfail", "pending", "na"):
                raise SystemExit("checks.txt: bad cell %r for %s" % (cell, parts[0]))
            cells.append(("%s.%s" % (parts[0], el), el, state, reason.strip()))
    return cells


def meson_checks(src):
    """The check ids a meson run asks the guest for."""
    return [c[0] for c in load_cells(src)
            if c[1] == "ivtvsrc" and c[2] in ("pass", "xfail")]


def log(msg):
    print("vmrun: " + msg, flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, **kw)


# ---------------------------------------------------------------- kernel ---
def fetch_kernel(cache):
    """Returns (vmlinuz, module_dir) from the cached linux-image package."""
    kroot = os.path.join(cache, "kernel")
    stamp = os.path.join(kroot, "ready")
    if os.path.exists(stamp):
        ver = open(stamp).read().strip()
        return (os.path.join(kroot, "root", "boot", "vmlinuz-" + ver),
                os.path.join(kroot, "root", "lib", "modules", ver))
    if not shutil.which("apt-get") or not shutil.which("dpkg-deb"):
        raise Skip("apt-get/dpkg-deb not found: cannot fetch linux-image-amd64")
    if not shutil.which("busybox"):
        raise Skip("busybox not found (Debian package busybox-static)")
    shutil.rmtree(kroot, ignore_errors=True)
    dl = os.path.join(kroot, "dl")
    os.makedirs(dl)
    deb = os.environ.get("IVTV_VM_KERNEL_DEB")
    if not deb:
        log("downloading linux-image-amd64 (cached in %s)" % kroot)
        try:
            run(["apt-get", "download", "linux-image-amd64"], cwd=dl)
            meta = [f for f in os.listdir(dl) if f.endswith(".deb")][0]
            dep = run(["dpkg-deb", "-f", os.path.join(dl, meta), "Depends"]).stdout
            pkg = [d.strip().split()[0] for d in dep.split(",")
                   if d.strip().startswith("linux-image-")][0]
            run(["apt-get", "download", pkg], cwd=dl)
            deb = [os.path.join(dl, f) for f in os.listdir(dl)
                   if f.startswith(pkg + "_")][0]
        except (subprocess.CalledProcessError, IndexError) as e:
            out = getattr(e, "stdout", "") or ""
            raise Skip("cannot download linux-image-amd64 with apt-get: %s %s"
                       % (e, out.strip()[-300:]))
    log("unpacking " + os.path.basename(deb))
    root = os.path.join(kroot, "root")
    run(["dpkg-deb", "-x", deb, root])
    vers = os.listdir(os.path.join(root, "lib", "modules"))
    if len(vers) != 1:
        raise Skip("unexpected module trees in kernel package: %s" % vers)
    ver = vers[0]
    vmlinuz = os.path.join(root, "boot", "vmlinuz-" + ver)
    mdir = os.path.join(root, "lib", "modules", ver)
    run(["busybox", "depmod", "-b", root, ver])
    shutil.rmtree(dl, ignore_errors=True)
    with open(stamp, "w") as f:
        f.write(ver + "\n")
    return vmlinuz, mdir


def module_closure(mdir, names):
    """Module files (relative to mdir) for names and their dependencies,
    in an order insmod can load them (dependencies first)."""
    deps = {}
    with open(os.path.join(mdir, "modules.dep")) as f:
        for line in f:
            mod, _, rest = line.partition(":")
            deps[mod.strip()] = rest.split()
    byname = {os.path.basename(m).split(".ko")[0].replace("-", "_"): m
              for m in deps}
    order = []

    def visit(m, stack=()):
        if m in order or m in stack:
            return
        for d in deps.get(m, []):
            visit(d, stack + (m,))
        order.append(m)

    for n in names:
        if n not in byname:
            raise Skip("kernel package has no module %s" % n)
        visit(byname[n])
    return order


# ------------------------------------------------------------- initramfs ---
def build_initramfs(cache, mdir, src):
    init = os.path.join(src, "tests", "vm", "guest", "init")
    out = os.path.join(cache, "initramfs.cpio")
    if (os.path.exists(out)
            and os.path.getmtime(out) > os.path.getmtime(init)
            and os.path.getmtime(out) > os.path.getmtime(__file__)
            and os.path.getmtime(out) > os.path.getmtime(mdir)):
        return out
    bb = shutil.which("busybox")
    if not bb:
        raise Skip("busybox not found (Debian package busybox-static)")
    tree = os.path.join(cache, "initramfs")
    shutil.rmtree(tree, ignore_errors=True)
    for d in ("bin", "mod", "host", "proc", "sys", "dev", "tmp"):
        os.makedirs(os.path.join(tree, d))
    shutil.copy(bb, os.path.join(tree, "bin", "busybox"))
    shutil.copy(init, os.path.join(tree, "init"))
    os.chmod(os.path.join(tree, "init"), 0o755)
    for group, names in (("boot", BOOT_MODULES), ("vivid", VIVID_MODULES),
                         ("usbip", USBIP_MODULES)):
        files = module_closure(mdir, names)
        with open(os.path.join(tree, "mod", group + ".order"), "w") as f:
            for m in files:
                base = os.path.basename(m)
                shutil.copy(os.path.join(mdir, m), os.path.join(tree, "mod", base))
                f.write(base + "\n")
    if not shutil.which("cpio"):
        raise Skip("cpio not found")
    names = run(["find", "."], cwd=tree).stdout
    with open(out + ".tmp", "wb") as f:
        subprocess.run(["cpio", "-o", "-H", "newc", "--quiet"], cwd=tree,
                       input=names.encode(), stdout=f, check=True)
    os.replace(out + ".tmp", out)
    return out


# -------------------------------------------------------------- registry ---
def build_registry(cache, plugin_dir):
    """A GStreamer registry made on the host, read (not rebuilt) in the
    guest: scanning every plugin under TCG would take minutes."""
    reg = os.path.join(cache, "registry.bin")
    env = dict(os.environ, GST_REGISTRY=reg, GST_PLUGIN_PATH=plugin_dir)
    env.pop("GST_REGISTRY_UPDATE", None)
    subprocess.run(["gst-inspect-1.0", "coreelements"], env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if not os.path.exists(reg):
        raise Skip("gst-inspect-1.0 could not write a registry")
    return reg


# ------------------------------------------------------------------ boot ---
def run_id():
    """Identifies the `meson test` run: its pid and start time (all tests
    are its children), so one boot serves the whole run and no later one."""
    if os.environ.get("IVTV_VM_RUN_ID"):
        return os.environ["IVTV_VM_RUN_ID"]
    ppid = os.getppid()
    try:
        start = open("/proc/%d/stat" % ppid).read().rsplit(")", 1)[1].split()[19]
    except OSError:
        start = "0"
    return "%d-%s" % (ppid, start)


def boot(args, results, rid, guest_run="", extra=None,
         timeout=BOOT_TIMEOUT, checks=(), only=None):
    """One guest run; guest_run is the script the guest's init runs
    (default: the checks' run-checks.sh), extra more boot.conf keys,
    checks the check ids the guest runs (run-checks.sh), only a regex
    narrowing them further (default: $IVTV_VM_ONLY)."""
    t0 = time.time()
    src = args.source_dir
    cache = os.path.join(args.build_root, "tests", "vm", "cache")
    os.makedirs(cache, exist_ok=True)
    qemu = shutil.which(os.environ.get("IVTV_VM_QEMU", "qemu-system-x86_64"))
    if not qemu:
        raise Skip("qemu-system-x86_64 not found (Debian package qemu-system-x86)")
    if not shutil.which("gst-launch-1.0") or not os.path.exists("/usr/bin/python3"):
        raise Skip("gst-launch-1.0 or /usr/bin/python3 missing on the host")
    vmlinuz, mdir = fetch_kernel(cache)
    initrd = build_initramfs(cache, mdir, src)
    plugin_dir = os.path.join(args.build_root, "gst")
    registry = build_registry(cache, plugin_dir)
    t_prep = time.time() - t0

    shutil.rmtree(results, ignore_errors=True)
    os.makedirs(os.path.join(results, "checks"))
    conf = {
        "VIVID_OPTS": VIVID_OPTS,
        "GUEST_DIR": os.path.join(src, "tests", "vm", "guest"),
        "RESULTS": results,
        "BUILD_ROOT": args.build_root,
        "PLUGIN_DIR": plugin_dir,
        "GST_REGISTRY": registry,
        "ONLY": os.environ.get("IVTV_VM_ONLY", "") if only is None else only,
        "CHECKS": " ".join(checks),
        "GUEST_RUN": guest_run,
    }
    conf.update(extra or {})
    with open(os.path.join(results, "boot.conf"), "w") as f:
        for k, v in conf.items():
            f.write("%s='%s'\n" % (k, v))
    console = os.path.join(results, "console.log")
    cmd = [qemu, "-accel", "tcg", "-m", "2048", "-smp", "2",
           "-kernel", vmlinuz, "-initrd", initrd,
           "-append", "console=ttyS0 quiet panic=-1 ivtvvm.results=" + results
           # firmware placeholders a guest check writes (pvrusb2 uploads
           # two); the kernel reads them from init's root: /host + results
           + " firmware_class.path=/host%s/firmware" % results,
           "-display", "none", "-vga", "none", "-no-reboot",
           "-serial", "file:" + console, "-monitor", "none",
           "-virtfs", "local,path=/,mount_tag=host,security_model=none,"
                      "readonly=on,multidevs=remap",
           "-virtfs", "local,path=%s,mount_tag=results,security_model=none,"
                      "multidevs=remap" % results]
    log("booting: " + " ".join(cmd))
    t1 = time.time()
    try:
        p = subprocess.run(cmd, timeout=timeout, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        qemu_out, qemu_rc = p.stdout, p.returncode
    except subprocess.TimeoutExpired as e:
        qemu_out, qemu_rc = (e.stdout or b"").decode(errors="replace"), "timeout"
    t_guest = time.time() - t1
    meta = {"run_id": rid, "prepare_s": round(t_prep, 1),
            "guest_s": round(t_guest, 1), "qemu_rc": qemu_rc,
            "qemu_output": qemu_out[-2000:], "when": time.strftime(
                "%Y-%m-%d %H:%M:%S UTC", time.gmtime())}
    for name in ("boot.json", "guest-done"):
        p = os.path.join(results, name)
        if os.path.exists(p):
            meta[name] = open(p).read().strip()
    with open(os.path.join(results, "run.json"), "w") as f:
        json.dump(meta, f, indent=1)
    return meta


def ensure_run(args, name="results", boot_kw=None):
    """Boots once per meson run under a lock; returns (results dir, meta).
    name: the results folder (one per suite: vivid's "results", a real
    driver's "usbip-DRIVER"), boot_kw: boot()'s arguments (default: the
    vivid checks), a function called under the lock."""
    base = os.path.join(args.build_root, "tests", "vm")
    os.makedirs(base, exist_ok=True)
    results = os.path.join(base, name)
    rid = run_id()
    with open(os.path.join(base, "lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        meta_path = os.path.join(results, "run.json")
        skip_path = os.path.join(base, name + "-skip.json")
        if os.path.exists(skip_path):
            s = json.load(open(skip_path))
            if s.get("run_id") == rid:
                raise Skip(s["reason"])
        if os.path.exists(meta_path):
            meta = json.load(open(meta_path))
            if meta.get("run_id") == rid:
                return results, meta
        try:
            kw = boot_kw() if boot_kw else {
                "checks": meson_checks(args.source_dir)}
            meta = boot(args, results, rid, **kw)
        except Skip as e:
            json.dump({"run_id": rid, "reason": str(e)}, open(skip_path, "w"))
            raise
        return results, meta


def cmd_bench(args):
    """A boot of its own (never shared with a meson run), under the same
    lock as the checks' boots so two guests never run at once."""
    extra = {}
    for kv in args.conf:
        k, sep, v = kv.partition("=")
        if not sep or not k.isidentifier() or "'" in v:
            print("vmrun: bad --conf %r (KEY=VALUE, no quote)" % kv)
            return 2
        extra[k] = v
    base = os.path.join(args.build_root, "tests", "vm")
    os.makedirs(base, exist_ok=True)
    results = os.path.join(base, "bench-results")
    with open(os.path.join(base, "lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        meta = boot(args, results, "bench-%d" % os.getpid(),
                    os.path.abspath(args.script), extra, args.timeout)
    print(json.dumps(meta, indent=1))
    if "guest-done" not in meta:
        print("guest did not finish %s; console:" % args.script)
        cat(os.path.join(results, "console.log"), 3000)
        return 1
    print("results: " + results)
    return 0


def cat(path, limit=6000):
    if os.path.exists(path):
        data = open(path, errors="replace").read()
        sys.stdout.write(data[-limit:])


def cmd_compat(args):
    """The comparison run: every cell of checks.txt that is not "na", for
    both elements, in a boot of its own (under the checks' lock), then
    docs/compatibility.md. Never a meson test."""
    cells = [c for c in load_cells(args.source_dir) if c[2] != "na"]
    base = os.path.join(args.build_root, "tests", "vm")
    os.makedirs(base, exist_ok=True)
    results = os.path.join(base, "compat-results")
    with open(os.path.join(base, "lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        meta = boot(args, results, "compat-%d" % os.getpid(),
                    checks=[c[0] for c in cells], only=args.only or "",
                    timeout=COMPAT_TIMEOUT)
    print(json.dumps(meta, indent=1))
    out = args.out or os.path.join(args.source_dir, "docs", "compatibility.md")
    gen = [sys.executable, os.path.join(os.path.dirname(
        os.path.abspath(__file__)), "gen-compat.py"), "--results", results]
    if args.only and not args.out:
        out = os.path.join(base, "compatibility-only.md")
        log("--only: the table of the checks run goes to %s, not docs/" % out)
    rc = subprocess.run(gen + ["--out", out]).returncode
    print("compatibility table: %s" % out)
    if "guest-done" not in meta:
        print("guest did not finish its checks; console:")
        cat(os.path.join(results, "console.log"), 3000)
        return 1
    bad, fixed = [], []
    for cid, el, state, _ in cells:
        path = os.path.join(results, "checks", cid + ".result")
        if el != "ivtvsrc" or (args.only and not re.search(args.only, cid)):
            continue
        verdict = open(path).read().split(" ", 1)[0] if os.path.exists(path) else "none"
        if state == "pass" and verdict not in ("pass", "skip"):
            bad.append("%s (%s)" % (cid, verdict))
        elif state in ("pending", "xfail") and verdict == "pass":
            fixed.append(cid)
    if fixed:
        print("ivtvsrc passes %s now: flip them to pass in tests/vm/checks.txt"
              % ", ".join(fixed))
    if bad:
        print("ivtvsrc cells that must pass did not: " + ", ".join(bad))
        return 1
    return rc


def cmd_boot(args):
    results, meta = ensure_run(args)
    print(json.dumps(meta, indent=1))
    print("ivtvsrc's checks only; the comparison with v4l2src and the "
          "pending scenarios: `meson devenv -C build --workdir . ivtv-compat`")
    if "guest-done" not in meta:
        print("guest did not finish its checks; console:")
        cat(os.path.join(results, "console.log"))
        return 1
    return 0


def cmd_check(args, results=None, meta=None):
    if results is None:
        results, meta = ensure_run(args)
    base = os.path.join(results, "checks", args.id)
    cat(base + ".log")
    if not os.path.exists(base + ".result"):
        if "guest-done" not in meta:
            print("guest stopped before check %s ran (qemu %s after %ss); console:"
                  % (args.id, meta.get("qemu_rc"), meta.get("guest_s")))
            cat(os.path.join(results, "console.log"), 3000)
        else:
            print("check %s wrote no result" % args.id)
        return 1
    verdict, _, reason = open(base + ".result").read().strip().partition(" ")
    print("\nresult: %s %s" % (verdict, reason))
    if verdict == "pass":
        return 0
    if verdict == "skip":
        return SKIP
    return 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["boot", "check", "bench", "compat",
                                    "usbip-boot", "usbip-check"])
    ap.add_argument("id", nargs="?")
    ap.add_argument("--build-root", required=True)
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--script", help="bench: the guest script")
    ap.add_argument("--conf", action="append", default=[],
                    help="bench: KEY=VALUE for boot.conf")
    ap.add_argument("--timeout", type=int, default=BOOT_TIMEOUT,
                    help="bench: seconds the guest may run")
    ap.add_argument("--out", help="compat: the table to write "
                    "(default SOURCE/docs/compatibility.md)")
    ap.add_argument("--only", help="compat: only the check ids matching "
                    "this regex (the table then goes to the build tree)")
    args = ap.parse_args()
    if args.cmd == "bench" and not args.script:
        ap.error("bench needs --script")
    try:
        if args.cmd == "bench":
            return cmd_bench(args)
        if args.cmd == "compat":
            return cmd_compat(args)
        if args.cmd.startswith("usbip-"):
            import usbipvm
            return usbipvm.main(args, sys.modules[__name__])
        return cmd_boot(args) if args.cmd == "boot" else cmd_check(args)
    except Skip as e:
        print("SKIP: " + str(e))
        return SKIP


if __name__ == "__main__":
    sys.exit(main())
