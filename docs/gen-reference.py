#!/usr/bin/python3
"""docs/gen-reference.py — writes docs/ivtvsrc.md, the element reference,
from the built plugin itself (GObject introspection of ivtvsrc: metadata,
properties with type, range, default and blurb, pad templates, URI
protocols, the device provider) and from the sources in gst/ (the messages
the element posts).  Regenerate after changing properties:

    meson compile -C BUILD ivtvsrc-md
    docs/gen-reference.py BUILD/gst -o docs/ivtvsrc.md      (the same)

BUILD/gst is the directory holding the built libgstivtv.so.  Without -o the
reference goes to stdout.  tests/eco/test-docs.sh fails when the committed
file differs from what this prints.
"""
import argparse
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "gst")


def _sources(top, exts):
    """The files of gst/ (every layer's folder) ending in exts, as paths
    relative to gst/ ("session/ivtvcapture.c"), sorted."""
    out = []
    for d, _, files in os.walk(top):
        out += [os.path.relpath(os.path.join(d, f), top) for f in files
                if f.endswith(exts)]
    return sorted(out)


def load_gst(plugin_dir):
    # exactly this build's plugin, a private registry (never a stale one)
    os.environ["GST_PLUGIN_PATH_1_0"] = os.path.abspath(plugin_dir)
    os.environ["GST_PLUGIN_PATH"] = os.path.abspath(plugin_dir)
    reg = tempfile.NamedTemporaryFile(prefix="ivtv-docs-", suffix=".bin",
                                      delete=False)
    reg.close()
    os.environ["GST_REGISTRY_1_0"] = reg.name
    os.environ["GST_REGISTRY"] = reg.name
    import gi
    gi.require_version("Gst", "1.0")
    from gi.repository import Gst, GObject
    Gst.init(None)
    os.unlink(reg.name)
    return Gst, GObject


def md(text):
    """Table-cell safe text."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def type_and_range(Gst, GObject, pspec):
    t = pspec.value_type
    name = t.name
    if t.is_a(GObject.TYPE_ENUM):
        vals = pspec.enum_class.__enum_values__
        items = ", ".join("`%s` (%d)" % (v.value_nick, int(v))
                          for v in sorted(vals.values(), key=int))
        return "enum %s" % name, items
    if t.is_a(GObject.TYPE_FLAGS):
        return "flags %s" % name, ""
    simple = {
        "gchararray": "string", "gboolean": "boolean", "gint": "int",
        "guint": "uint", "gint64": "int64", "guint64": "uint64",
        "glong": "long", "gulong": "ulong", "gdouble": "double",
        "gfloat": "float", "GStrv": "string array",
    }
    kind = simple.get(name, name)
    mn = getattr(pspec, "minimum", None)
    mx = getattr(pspec, "maximum", None)
    rng = ""
    if mn is not None and mx is not None:
        rng = "%s .. %s" % (mn, mx)
    return kind, rng


def show_value(GObject, pspec, value):
    if value is None:
        return ""
    if pspec.value_type.is_a(GObject.TYPE_ENUM):
        return "`%s`" % value.value_nick
    if isinstance(value, bool):
        return "`%s`" % ("true" if value else "false")
    if isinstance(value, (list, tuple)):
        return "`%s`" % ", ".join(value) if value else ""
    return "`%s`" % value


def flags_text(Gst, GObject, pspec):
    f = int(pspec.flags)
    out = []
    r = bool(f & GObject.ParamFlags.READABLE)
    w = bool(f & GObject.ParamFlags.WRITABLE)
    out.append("read/write" if r and w else "read-only" if r else "write-only")
    if f & Gst.PARAM_MUTABLE_PLAYING:
        out.append("changeable while PLAYING")
    elif f & Gst.PARAM_MUTABLE_PAUSED:
        out.append("changeable up to PAUSED")
    elif f & Gst.PARAM_MUTABLE_READY:
        out.append("changeable in NULL and READY")
    if f & Gst.PARAM_CONTROLLABLE:
        out.append("controllable")
    return ", ".join(out)


def property_table(Gst, GObject, element, specs, lines):
    lines.append("| property | type | range / values | default | flags | description |")
    lines.append("| --- | --- | --- | --- | --- | --- |")
    for p in specs:
        kind, rng = type_and_range(Gst, GObject, p)
        default = ""
        if int(p.flags) & GObject.ParamFlags.READABLE:
            # what a new element has (as gst-inspect-1.0 shows it)
            default = show_value(GObject, p, element.get_property(p.name))
        if (not int(p.flags) & GObject.ParamFlags.WRITABLE) and not default:
            default = "(once the device is open)"
        lines.append("| `%s` | %s | %s | %s | %s | %s |" % (
            p.name, md(kind), md(rng), md(default),
            flags_text(Gst, GObject, p), md(p.blurb or "")))


def messages_from_sources():
    """Messages the sources post: [(kind, fields, [files])], in order."""
    found = {}

    def add(kind, fn, fields=""):
        entry = found.setdefault(kind, [fields, []])
        if fields and not entry[0]:
            entry[0] = fields
        if fn not in entry[1]:
            entry[1].append(fn)

    # message names given as macros (#define IVTV_STATS_NAME "ivtvsrc-stats")
    names = {}
    for fn in _sources(SRC, (".c", ".h")):
        with open(os.path.join(SRC, fn), encoding="utf-8") as f:
            for m in re.finditer(r'#define\s+(\w+)\s+"(ivtvsrc-[a-z0-9-]+)"',
                                 f.read()):
                names[m.group(1)] = m.group(2)
    for fn in _sources(SRC, ".c"):
        with open(os.path.join(SRC, fn), encoding="utf-8") as f:
            text = f.read()
        for macro, name in names.items():
            text = re.sub(r"(gst_structure_new(?:_empty)?\s*\(\s*)" + macro
                          + r"\b", r'\1"%s"' % name, text)
        for kind, macro in (("ERROR", "(?:GST_ELEMENT_ERROR|IVTV_ERROR)"),
                            ("WARNING", "GST_ELEMENT_WARNING")):
            if re.search(macro + r"\s*\(", text) or re.search(
                    r"gst_element_message_full\s*\([^,]+,\s*GST_MESSAGE_"
                    + kind, text):
                add(kind + " (texts: troubleshooting.md)", fn)
        for m in re.finditer(r"gst_message_new_(\w+)\s*\(", text):
            if m.group(1) not in ("custom", "element", "error", "warning"):
                add(m.group(1).upper(), fn)
        # element messages: a structure named ivtvsrc-* and its fields
        for m in re.finditer(
                r"gst_structure_new(?:_empty)?\s*\(\s*\"(ivtvsrc-[a-z0-9-]+)\""
                r"([^;]*)", text):
            fields = re.findall(r"\"([a-z0-9_.-]+)\"\s*,\s*(G_TYPE_\w+|"
                                r"GST_TYPE_\w+)", m.group(2))
            add("element `%s`" % m.group(1), fn, ", ".join(
                "`%s` (%s)" % (n, t.split("_TYPE_")[1].lower())
                for n, t in fields))
    return [(k, v[0], v[1]) for k, v in found.items()]


def examples_from_section():
    """(launch line, explanation) of each example in the
    SECTION:element-ivtvsrc comment (in whichever gst/*/*.c holds it): the
    explanation is all the text after `]|` up to the next `|[` or the end
    of the comment, over as many lines as it takes."""
    text = ""
    for name in _sources(SRC, ".c"):
        with open(os.path.join(SRC, name), encoding="utf-8") as f:
            text = f.read()
        if "SECTION:element-ivtvsrc" in text:
            break
    m = re.search(r"SECTION:element-ivtvsrc(.*?)\*/", text, re.S)
    if not m:
        return []
    # the comment's text without its leading " * "
    body = "\n".join(re.sub(r"^\s*\* ?", "", line)
                     for line in m.group(1).split("\n"))
    out = []
    for ex in re.finditer(r"\|\[\s*(.*?)\s*\]\|(.*?)(?=\|\[|\Z)", body, re.S):
        what = " ".join(ex.group(2).split())
        out.append((" ".join(ex.group(1).split()), what))
    return out


def generate(Gst, GObject):
    factory = Gst.ElementFactory.find("ivtvsrc")
    if factory is None:
        sys.exit("gen-reference: ivtvsrc not found in the plugin directory "
                 "given (build it first)")
    element = factory.create(None)
    plugin = factory.get_plugin()
    L = []
    L.append("# ivtvsrc — element reference")
    L.append("")
    L.append("<!-- Generated by docs/gen-reference.py from the built element; "
             "do not edit. Regenerate: docs/gen-reference.py BUILD/gst -o "
             "docs/ivtvsrc.md -->")
    L.append("")
    L.append("| | |")
    L.append("| --- | --- |")
    L.append("| long name | %s |" % md(factory.get_metadata("long-name")))
    L.append("| class | %s |" % md(factory.get_metadata("klass")))
    L.append("| description | %s |" % md(factory.get_metadata("description")))
    L.append("| plugin | `%s` %s (%s), file `%s` |" % (
        plugin.get_name(), plugin.get_version(), plugin.get_license(),
        os.path.basename(plugin.get_filename() or "")))
    L.append("| rank | %d |" % factory.get_rank())
    hier = []
    t = element.__gtype__
    while t and t.name != "GObject":
        hier.append(t.name)
        t = t.parent
    L.append("| hierarchy | %s |" % " → ".join(reversed(hier + ["GObject"])))
    ifaces = [i.name for i in GObject.type_interfaces(element.__gtype__)]
    L.append("| interfaces | %s |" % (", ".join(ifaces) or "none"))
    protos = factory.get_uri_protocols()
    if protos:
        L.append("| URI | %s (source): `ivtv:///dev/video0?input=composite&"
                 "standard=pal` — the path is the device, each query "
                 "parameter a property below |"
                 % ", ".join("`%s://`" % p for p in protos))
    L.append("")

    examples = examples_from_section()
    if examples:
        L.append("## Examples")
        L.append("")
        for cmd, what in examples:
            L.append("    " + cmd)
            L.append("")
            L.append(what)
            L.append("")

    L.append("## Pad templates")
    L.append("")
    for tmpl in factory.get_static_pad_templates():
        L.append("### `%s` (%s, %s)" % (
            tmpl.name_template, tmpl.direction.value_nick,
            tmpl.presence.value_nick))
        L.append("")
        caps = tmpl.get_caps()
        for i in range(caps.get_size()):
            L.append("    " + caps.get_structure(i).to_string())
        L.append("")

    own = [p for p in GObject.list_properties(element)
           if p.owner_type == element.__gtype__]
    inherited = [p for p in GObject.list_properties(element)
                 if p.owner_type != element.__gtype__
                 and p.name not in ("name", "parent")]
    L.append("## Properties")
    L.append("")
    L.append("Defaults are those of a new element (as `gst-inspect-1.0 "
             "ivtvsrc` shows them).")
    L.append("")
    property_table(Gst, GObject, element, own, L)
    L.append("")
    L.append("### Inherited from the base classes")
    L.append("")
    property_table(Gst, GObject, element, inherited, L)
    L.append("")

    L.append("## Messages")
    L.append("")
    L.append("What the element posts on the bus, found in the sources "
             "(gst/); every error and warning text is explained in "
             "[troubleshooting.md](troubleshooting.md).")
    L.append("")
    L.append("| message | fields | posted from |")
    L.append("| --- | --- | --- |")
    for kind, fields, files in messages_from_sources():
        L.append("| %s | %s | %s |" % (
            kind, fields, ", ".join("`gst/%s`" % f for f in files)))
    L.append("")

    dpf = Gst.DeviceProviderFactory.find("ivtvdeviceprovider")
    if dpf is not None:
        L.append("## Device provider")
        L.append("")
        L.append("`%s` (rank %d, %s): %s. A capture node ivtvsrc opens "
                 "has class `Video/Source`, the caps ivtvsrc produces from "
                 "it and a display name \"CARD (DRIVER)\"; an output node "
                 "`Video/Sink` with v4l2sink's caps; a node that does not "
                 "open keeps its place with `ivtv.open-error` (the reason) "
                 "and `ivtv.open-error-code` (`permission`, `busy`, "
                 "`not-found`, `failed`). Properties: v4l2deviceprovider's "
                 "keys (`device.path`, `device.api`, `udev-probed`, "
                 "`v4l2.device.driver`, `v4l2.device.card`, "
                 "`v4l2.device.bus_info`, `v4l2.device.version`, "
                 "`v4l2.device.capabilities`, `v4l2.device.device_caps`, "
                 "and from udev `device.bus_path`, `sysfs.path`, `udev.id`, "
                 "`device.subsystem`, `device.vendor.id`, "
                 "`device.vendor.name`, `device.product.id`, "
                 "`device.product.name`, `device.serial`, "
                 "`device.capabilities`) and ivtvsrc's (`device.driver`, "
                 "`device.bus`, `v4l2.card`, `v4l2.inputs`, "
                 "`v4l2.current-input`, `v4l2.standards`, "
                 "`v4l2.io-methods`); `gst_device_create_element()` gives an "
                 "ivtvsrc (v4l2sink) with `device` set. Try "
                 "`gst-device-monitor-1.0 Video/Source` (`-i` also shows "
                 "the hidden v4l2deviceprovider's entries)." % (
                     dpf.get_name(), dpf.get_rank(),
                     dpf.get_metadata("long-name"),
                     dpf.get_metadata("description")))
        L.append("")
    return "\n".join(L)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("plugin_dir", help="directory of the built plugin "
                    "(BUILD/gst)")
    ap.add_argument("-o", "--output", help="write here instead of stdout")
    args = ap.parse_args()
    if not os.path.isdir(args.plugin_dir):
        sys.exit("gen-reference: %s is not a directory" % args.plugin_dir)
    Gst, GObject = load_gst(args.plugin_dir)
    text = generate(Gst, GObject)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
