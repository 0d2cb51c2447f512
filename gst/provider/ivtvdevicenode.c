/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — one V4L2 node as a GstDevice (GstIvtvSrcDevice): how it was
 * found (IvtvNode), what it is (opened as ivtvsrc opens it, through a
 * capture session), its class, caps and properties.  See ivtvdevicenode.h;
 * finding nodes and watching udev is the provider's (ivtvdeviceprovider.c). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvdevicenode.h"
#include "ivtvcapture.h"
#include "ivtvcard.h"
#include "ivtvvbi.h"
#include "ivtvdebug.h"
#include "ivtviomode.h"
#include "ivtvstream.h"

#include <string.h>

#define GST_CAT_DEFAULT ivtv_debug

/* ---- the device ---- */

struct _GstIvtvSrcDevice
{
  GstDevice parent;
  gchar *path;
  const gchar *element;         /* factory: "ivtvsrc", or "v4l2sink" */
};

enum
{
  PROP_DEVICE_0,
  PROP_DEVICE_PATH
};

G_DEFINE_TYPE (GstIvtvSrcDevice, gst_ivtv_src_device, GST_TYPE_DEVICE);

static GstElement *
gst_ivtv_src_device_create_element (GstDevice * device, const gchar * name)
{
  GstIvtvSrcDevice *self = GST_IVTV_SRC_DEVICE (device);
  GstElement *elem = gst_element_factory_make (self->element, name);

  if (elem != NULL)
    g_object_set (elem, "device", self->path, NULL);
  return elem;
}

static gboolean
gst_ivtv_src_device_reconfigure_element (GstDevice * device,
    GstElement * element)
{
  GstIvtvSrcDevice *self = GST_IVTV_SRC_DEVICE (device);
  GstElementFactory *f = gst_element_get_factory (element);

  if (f == NULL || g_strcmp0 (GST_OBJECT_NAME (f), self->element) != 0)
    return FALSE;
  g_object_set (element, "device", self->path, NULL);
  return TRUE;
}

static void
gst_ivtv_src_device_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  if (prop_id == PROP_DEVICE_PATH)
    g_value_set_string (value, GST_IVTV_SRC_DEVICE (object)->path);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
gst_ivtv_src_device_finalize (GObject * object)
{
  g_free (GST_IVTV_SRC_DEVICE (object)->path);
  G_OBJECT_CLASS (gst_ivtv_src_device_parent_class)->finalize (object);
}

static void
gst_ivtv_src_device_class_init (GstIvtvSrcDeviceClass * klass)
{
  GstDeviceClass *dev_class = GST_DEVICE_CLASS (klass);
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);

  gobject_class->finalize = gst_ivtv_src_device_finalize;
  gobject_class->get_property = gst_ivtv_src_device_get_property;
  /* as v4l2deviceprovider's devices: applications read it */
  g_object_class_install_property (gobject_class, PROP_DEVICE_PATH,
      g_param_spec_string ("device-path", "Device path",
          "The device node", NULL, G_PARAM_READABLE |
          G_PARAM_STATIC_STRINGS));
  dev_class->create_element =
      GST_DEBUG_FUNCPTR (gst_ivtv_src_device_create_element);
  dev_class->reconfigure_element =
      GST_DEBUG_FUNCPTR (gst_ivtv_src_device_reconfigure_element);
}

static void
gst_ivtv_src_device_init (GstIvtvSrcDevice * self)
{
  self->element = "ivtvsrc";
}

const gchar *
gst_ivtv_src_device_get_path (GstIvtvSrcDevice * device)
{
  g_return_val_if_fail (GST_IS_IVTV_SRC_DEVICE (device), NULL);
  return device->path;
}

/* ---- a node, as found ---- */


IvtvNode *
ivtv_node_new (const gchar * path)
{
  IvtvNode *n = g_new0 (IvtvNode, 1);

  n->path = g_strdup (path);
  return n;
}

void
ivtv_node_free (gpointer data)
{
  IvtvNode *n = data;

#if HAVE_GUDEV
  g_clear_object (&n->udev);
#endif
  g_free (n->path);
  g_free (n);
}

#if HAVE_GUDEV
/* A video4linux node of udev's that may be a capture node (/dev/videoN,
 * /dev/vbiN; the radio and v4l-subdev nodes are not), with its udev
 * device. */
IvtvNode *
ivtv_node_new_from_udev (GUdevDevice * udev)
{
  const gchar *file = g_udev_device_get_device_file (udev);
  const gchar *name = g_udev_device_get_name (udev);
  IvtvNode *n;

  if (file == NULL || name == NULL || !(g_str_has_prefix (name, "video")
          || g_str_has_prefix (name, "vbi")))
    return NULL;
  n = ivtv_node_new (file);
  n->udev = g_object_ref (udev);
  return n;
}
#endif

/* udev's value of @key for the node, or NULL (no udev, or no such key). */
static const gchar *
node_udev_get (const IvtvNode * n, const gchar * key)
{
#if HAVE_GUDEV
  const gchar *v;

  if (n->udev == NULL)
    return NULL;
  v = g_str_equal (key, "sysfs.path") ?
      g_udev_device_get_sysfs_path (n->udev) :
      g_udev_device_get_property (n->udev, key);
  return (v && *v) ? v : NULL;
#else
  (void) n;
  (void) key;
  return NULL;
#endif
}

/* ---- the device's properties ---- */

/* Every device: where it is and how it was found, with the keys (and
 * their meaning) of v4l2deviceprovider: device.path, udev-probed, and
 * from udev device.bus_path (ID_PATH, else the sysfs path), sysfs.path,
 * udev.id, device.subsystem, device.vendor.id/name, device.product.id/name,
 * device.serial, device.capabilities (ID_V4L_CAPABILITIES). */
static GstStructure *
props_new (const IvtvNode * n)
{
  static const struct
  {
    const gchar *key, *udev[3];
  } keys[] = {
    {"device.bus_path", {"ID_PATH", "sysfs.path"}},
    {"sysfs.path", {"sysfs.path"}},
    {"udev.id", {"ID_ID"}},
    {"device.subsystem", {"SUBSYSTEM"}},
    {"device.vendor.id", {"ID_VENDOR_ID"}},
    {"device.vendor.name", {"ID_VENDOR_FROM_DATABASE", "ID_VENDOR_ENC",
            "ID_VENDOR"}},
    {"device.product.id", {"ID_MODEL_ID"}},
    {"device.product.name", {"ID_V4L_PRODUCT", "ID_MODEL_FROM_DATABASE",
            "ID_MODEL"}},
    {"device.serial", {"ID_SERIAL"}},
    {"device.capabilities", {"ID_V4L_CAPABILITIES"}},
  };
  GstStructure *props = gst_structure_new ("ivtv-device-properties",
      "device.path", G_TYPE_STRING, n->path,
      "device.api", G_TYPE_STRING, "v4l2", NULL);
  gboolean udev = FALSE;
  guint i, j;

#if HAVE_GUDEV
  udev = n->udev != NULL;
#endif
  gst_structure_set (props, "udev-probed", G_TYPE_BOOLEAN, udev, NULL);
  for (i = 0; i < G_N_ELEMENTS (keys); i++)
    for (j = 0; j < G_N_ELEMENTS (keys[i].udev) && keys[i].udev[j]; j++) {
      const gchar *v = node_udev_get (n, keys[i].udev[j]);
      if (v != NULL) {
        gst_structure_set (props, keys[i].key, G_TYPE_STRING, v, NULL);
        break;
      }
    }
  return props;
}

/* QUERYCAP's answer, with v4l2deviceprovider's keys and types. */
static void
props_add_querycap (GstStructure * props, const struct v4l2_capability *c)
{
  gchar driver[IVTV_NAME_LEN], card[IVTV_NAME_LEN], bus[IVTV_NAME_LEN];

  ivtv_device_copy_name (driver, sizeof (driver), c->driver,
      sizeof (c->driver));
  ivtv_device_copy_name (card, sizeof (card), c->card, sizeof (c->card));
  ivtv_device_copy_name (bus, sizeof (bus), c->bus_info, sizeof (c->bus_info));
  gst_structure_set (props,
      "v4l2.device.driver", G_TYPE_STRING, driver,
      "v4l2.device.card", G_TYPE_STRING, card,
      "v4l2.device.bus_info", G_TYPE_STRING, bus,
      "v4l2.device.version", G_TYPE_UINT, c->version,
      "v4l2.device.capabilities", G_TYPE_UINT, c->capabilities,
      "v4l2.device.device_caps", G_TYPE_UINT,
      (c->capabilities & V4L2_CAP_DEVICE_CAPS) ? c->device_caps :
      c->capabilities, NULL);
}

static gchar *
join_inputs (const IvtvProbe * p)
{
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; i < p->n_inputs; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", p->inputs[i].name);
  return g_string_free (s, FALSE);
}

static gchar *
join_standards (const IvtvProbe * p)
{
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; i < p->n_stds; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", p->stds[i].name);
  return g_string_free (s, FALSE);
}

/* What ivtvsrc knows of a capture node (the probe's, lock held):
 * device.driver, device.bus (QUERYCAP's bus_info), v4l2.card,
 * v4l2.inputs, v4l2.current-input, v4l2.standards, v4l2.io-methods. */
static void
props_add_probe (GstStructure * props, IvtvDevice * dev, const IvtvProbe * p)
{
  const gchar *current_input = "";
  gchar *inputs = join_inputs (p), *stds = join_standards (p);
  gchar *io = ivtv_io_mode_describe (dev->device_caps,
      ivtv_stream_probe_modes (dev));

  if (p->current_input >= 0) {
    const IvtvInput *in = ivtv_probe_find_input (p, p->current_input);
    if (in != NULL)
      current_input = in->name;
  }
  gst_structure_set (props,
      "device.driver", G_TYPE_STRING, p->driver,
      "device.bus", G_TYPE_STRING, p->bus_info,
      "v4l2.card", G_TYPE_STRING, p->card,
      "v4l2.inputs", G_TYPE_STRING, inputs,
      "v4l2.current-input", G_TYPE_STRING, current_input,
      "v4l2.standards", G_TYPE_STRING, stds,
      "v4l2.io-methods", G_TYPE_STRING, io, NULL);
  g_free (inputs);
  g_free (stds);
  g_free (io);
}

/* The node's place on its card (ivtvcard.h): ivtv.role (its kind's name:
 * mpeg, raw-video, audio, vbi), ivtv.siblings (the card's other nodes), alsa.device (the
 * ALSA capture device of the same sysfs parent) when there is one. */
static void
props_add_card (GstStructure * props, const IvtvNode * n, IvtvDevice * dev,
    IvtvNodeKind kind)
{
  gchar *siblings = ivtv_card_siblings (dev);
  gchar *alsa = ivtv_card_alsa_device (n->path);

  gst_structure_set (props, "ivtv.role", G_TYPE_STRING,
      ivtv_card_kind_role (kind), "ivtv.siblings", G_TYPE_STRING, siblings, NULL);
  if (alsa)
    gst_structure_set (props, "alsa.device", G_TYPE_STRING, alsa, NULL);
  g_free (siblings);
  g_free (alsa);
}

/* ---- describing one node ---- */

static GstDevice *
device_new (const IvtvNode * n, const gchar * name, const gchar * klass,
    const gchar * element, GstCaps * caps, GstStructure * props)
{
  GstIvtvSrcDevice *d = g_object_new (GST_TYPE_IVTV_SRC_DEVICE,
      "display-name", name, "device-class", klass, "caps", caps,
      "properties", props, NULL);

  d->path = g_strdup (n->path);
  d->element = element;
  GST_INFO ("%s: %s, %s, %" GST_PTR_FORMAT, n->path, name, klass, caps);
  return GST_DEVICE (d);
}

/* The caps a factory's pad template accepts (what an element can do at
 * all), for a node we could not open. */
static GstCaps *
template_caps (const gchar * factory_name, GstPadDirection dir)
{
  GstElementFactory *f = gst_element_factory_find (factory_name);
  const GList *l;
  GstCaps *caps = NULL;

  for (l = f ? gst_element_factory_get_static_pad_templates (f) : NULL;
      l != NULL && caps == NULL; l = l->next) {
    GstStaticPadTemplate *t = l->data;
    if (t->direction == dir)
      caps = gst_static_caps_get (&t->static_caps);
  }
  if (f)
    gst_object_unref (f);
  return caps ? caps : gst_caps_new_any ();
}

/* udev knows the node's capabilities (ID_V4L_CAPABILITIES, from v4l_id)
 * and they are neither video capture nor video output (metadata, radio):
 * not listed even when it does not open. */
static gboolean
udev_says_no_video (const IvtvNode * n)
{
  const gchar *v4l_caps = node_udev_get (n, "ID_V4L_CAPABILITIES");

  return v4l_caps && !strstr (v4l_caps, ":capture:")
      && !strstr (v4l_caps, ":video_output:");
}

/* A node that failed to open (permission, busy, gone, ...): listed all
 * the same, named after udev's product name or the node, its class from
 * udev's ID_V4L_CAPABILITIES (a capture node when unknown), the caps of
 * the element's template, and why in ivtv.open-error (the message) and
 * ivtv.open-error-code (permission, busy, not-found, failed). */
static GstDevice *
describe_unopened (const IvtvNode * n, const GError * err)
{
  static const gchar *const codes[] = {
    [IVTV_DEVICE_ERROR_FAILED] = "failed",
    [IVTV_DEVICE_ERROR_NOT_FOUND] = "not-found",
    [IVTV_DEVICE_ERROR_PERMISSION] = "permission",
    [IVTV_DEVICE_ERROR_BUSY] = "busy",
  };
  const gchar *v4l_caps = node_udev_get (n, "ID_V4L_CAPABILITIES");
  const gchar *product = node_udev_get (n, "ID_V4L_PRODUCT");
  gboolean sink = v4l_caps && strstr (v4l_caps, ":video_output:")
      && !strstr (v4l_caps, ":capture:");
  GstStructure *props = props_new (n);
  GstCaps *caps = sink ? template_caps ("v4l2sink", GST_PAD_SINK) :
      template_caps ("ivtvsrc", GST_PAD_SRC);
  gchar *base = g_path_get_basename (n->path);
  gchar *name = g_strdup_printf ("%s (%s)", product ? product : base,
      err->code == IVTV_DEVICE_ERROR_PERMISSION ? "no permission" :
      err->code == IVTV_DEVICE_ERROR_BUSY ? "busy" : "cannot open");
  GstDevice *d;

  gst_structure_set (props, "ivtv.open-error", G_TYPE_STRING, err->message,
      "ivtv.open-error-code", G_TYPE_STRING, codes[err->code], NULL);
  d = device_new (n, name, sink ? "Video/Sink" : "Video/Source",
      sink ? "v4l2sink" : "ivtvsrc", caps, props);
  GST_INFO ("%s: listed without opening it: %s", n->path, err->message);
  gst_structure_free (props);
  gst_caps_unref (caps);
  g_free (name);
  g_free (base);
  return d;
}

/* A node ivtvsrc does not capture from but v4l2deviceprovider lists (as it
 * is hidden, we do): a video output node as a v4l2sink device, a
 * multi-planar capture node or a streaming webcam (node_for_ivtvsrc) as a
 * v4l2src device, with the caps that element gives for it.  NULL without the element or its caps. */
static GstDevice *
describe_delegated (const IvtvNode * n, const struct v4l2_capability *c,
    const gchar * factory, const gchar * klass)
{
  GstElement *elem = gst_element_factory_make (factory, NULL);
  GstCaps *caps = NULL;
  GstDevice *d = NULL;

  if (elem == NULL)
    return NULL;
  g_object_set (elem, "device", n->path, NULL);
  if (gst_element_set_state (elem, GST_STATE_READY) ==
      GST_STATE_CHANGE_SUCCESS) {
    GstPad *pad = GST_PAD (elem->pads ? elem->pads->data : NULL);
    if (pad != NULL)
      caps = gst_pad_query_caps (pad, NULL);
  }
  gst_element_set_state (elem, GST_STATE_NULL);
  gst_object_unref (elem);
  if (caps != NULL && !gst_caps_is_empty (caps) && !gst_caps_is_any (caps)) {
    GstStructure *props = props_new (n);
    gchar card[IVTV_NAME_LEN];

    props_add_querycap (props, c);
    ivtv_device_copy_name (card, sizeof (card), c->card, sizeof (c->card));
    d = device_new (n, card, klass, factory, caps, props);
    gst_structure_free (props);
  }
  gst_clear_caps (&caps);
  return d;
}

/* An open capture node of @kind with the @caps the session gives for it
 * as the card is set (ivtv_capture_get_caps_as_set; taken): its display
 * name "CARD (DRIVER)", its class, every property.  NULL without caps.
 * The session's lock held. */
static GstDevice *
describe_capture (const IvtvNode * n, IvtvDevice * dev, const IvtvProbe * p,
    IvtvNodeKind kind, GstCaps * caps)
{
  gboolean vbi = kind == IVTV_NODE_VBI;
  GstStructure *props;
  GstDevice *d = NULL;
  gchar *name;

  if (caps == NULL || gst_caps_is_empty (caps)) {
    GST_DEBUG ("%s ('%s'): no format ivtvsrc can produce", n->path, p->card);
    gst_clear_caps (&caps);
    return NULL;
  }
  props = props_new (n);
  props_add_querycap (props, &dev->cap);
  props_add_probe (props, dev, p);
  props_add_card (props, n, dev, kind);
  name = g_strdup_printf ("%s (%s)%s", p->card, p->driver, vbi ? " VBI" : "");
  d = device_new (n, name, kind == IVTV_NODE_PCM ? "Audio/Source" :
      vbi ? IVTV_VBI_DEVICE_CLASS : "Video/Source", "ivtvsrc", caps, props);
  gst_structure_free (props);
  gst_caps_unref (caps);
  g_free (name);
  return d;
}

/* Which capture nodes the provider gives to ivtvsrc (issue 27: a good
 * neighbour).  By default the nodes ivtvsrc exists for: every kind but
 * raw video (MPEG encoder cards, the PCM, VBI and HM12 nodes of a card),
 * read()-only raw nodes, and nodes offering HM12 (the cx2341x YUV node,
 * which libv4l2 may give emulated formats beside it); a streaming raw
 * node (a webcam, a USB dongle) is listed with v4l2src, as
 * v4l2deviceprovider (hidden) would list it.  The environment variable
 * IVTV_DEVICE_PROVIDER=all gives every capture node to ivtvsrc. */
static gboolean
node_for_ivtvsrc (const IvtvDevice * dev, const IvtvProbe * p,
    IvtvNodeKind kind)
{
  if (g_strcmp0 (g_getenv ("IVTV_DEVICE_PROVIDER"), "all") == 0)
    return TRUE;
  if (kind != IVTV_NODE_RAW)
    return TRUE;
  if (!(dev->device_caps & V4L2_CAP_STREAMING))
    return TRUE;                /* read() only */
  return ivtv_probe_find_format (p, V4L2_PIX_FMT_HM12) != NULL;
}

/* One node: opened as ivtvsrc opens it (a capture session: same recipe,
 * same libv4l2 choice) and described; an output node through v4l2sink;
 * a node that does not open, with the reason.  NULL for nodes neither
 * ivtvsrc nor v4l2deviceprovider lists (metadata, touch, m2m, no video). */
GstDevice *
ivtv_node_describe (const IvtvNode * n)
{
  IvtvCapture *cap = ivtv_capture_new (NULL);
  IvtvOpenRecipe recipe = { n->path, -1, IVTV_LIBV4L2_AUTO };
  IvtvDevice *dev = ivtv_capture_device (cap);
  GstDevice *device = NULL;
  GError *err = NULL;

  if (ivtv_capture_open (cap, &recipe, &err)) {
    struct v4l2_capability c = dev->cap;
    IvtvNodeKind kind = ivtv_capture_node_kind (cap);
    GstCaps *caps = ivtv_capture_get_caps_as_set (cap);
    gboolean mine;

    ivtv_capture_lock (cap);
    mine = node_for_ivtvsrc (dev, ivtv_capture_probe (cap), kind);
    if (mine)
      device = describe_capture (n, dev, ivtv_capture_probe (cap), kind,
          g_steal_pointer (&caps));
    ivtv_capture_unlock (cap);
    gst_clear_caps (&caps);
    ivtv_capture_close (cap);
    if (!mine)                  /* closed first: v4l2src opens it */
      device = describe_delegated (n, &c, "v4l2src", "Video/Source");
  } else if (g_error_matches (err, IVTV_DEVICE_ERROR,
          IVTV_DEVICE_ERROR_NO_CAPTURE)) {
    const struct v4l2_capability *c = &dev->cap;
    guint32 caps = (c->capabilities & V4L2_CAP_DEVICE_CAPS) ?
        c->device_caps : c->capabilities;

    if (caps & V4L2_CAP_TOUCH)
      GST_INFO ("%s: not listed: a touch sensor", n->path);
    else if (caps & V4L2_CAP_VIDEO_CAPTURE_MPLANE)
      device = describe_delegated (n, c, "v4l2src", "Video/Source");
    else if (caps & (V4L2_CAP_VIDEO_OUTPUT | V4L2_CAP_VIDEO_OUTPUT_MPLANE))
      device = describe_delegated (n, c, "v4l2sink", "Video/Sink");
    if (device == NULL)
      GST_INFO ("%s: not listed: %s", n->path, err->message);
  } else if (err->domain == IVTV_DEVICE_ERROR
      && err->code <= IVTV_DEVICE_ERROR_BUSY && !udev_says_no_video (n)) {
    device = describe_unopened (n, err);
  } else {
    GST_INFO ("%s: not listed: %s", n->path, err->message);
  }
  g_clear_error (&err);
  ivtv_capture_free (cap);
  return device;
}

GstDevice *
ivtv_device_provider_probe_path (const gchar * path)
{
  IvtvNode *n = ivtv_node_new (path);
  GstDevice *d = ivtv_node_describe (n);

  ivtv_node_free (n);
  return d;
}
