/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the device provider (ivtvdeviceprovider) and its GstDevice:
 * finding V4L2 capture nodes (gudev, else/also a /dev/video* scan),
 * describing each one through a capture session opened as ivtvsrc opens
 * it (ivtvcapture.h), hot-plug via udev. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvdeviceprovider.h"
#include "ivtvcapture.h"
#include "ivtvencoder.h"
#include "ivtvdebug.h"
#include "ivtviomode.h"
#include "ivtvnegotiate.h"
#include "ivtvstream.h"

#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#if HAVE_GUDEV
#include <gudev/gudev.h>
#endif

#define GST_CAT_DEFAULT ivtv_debug

/* The kernel names V4L2 video nodes video0 .. video255. */
#define IVTV_SCAN_MAX 256

/* ---- the device ---- */

struct _GstIvtvSrcDevice
{
  GstDevice parent;
  gchar *path;
};

G_DEFINE_TYPE (GstIvtvSrcDevice, gst_ivtv_src_device, GST_TYPE_DEVICE);

static GstElement *
gst_ivtv_src_device_create_element (GstDevice * device, const gchar * name)
{
  GstIvtvSrcDevice *self = GST_IVTV_SRC_DEVICE (device);
  GstElement *elem = gst_element_factory_make ("ivtvsrc", name);

  if (elem != NULL)
    g_object_set (elem, "device", self->path, NULL);
  return elem;
}

static gboolean
gst_ivtv_src_device_reconfigure_element (GstDevice * device,
    GstElement * element)
{
  GstIvtvSrcDevice *self = GST_IVTV_SRC_DEVICE (device);

  if (G_OBJECT_TYPE (element) != g_type_from_name ("GstIvtvSrc"))
    return FALSE;
  g_object_set (element, "device", self->path, NULL);
  return TRUE;
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

  G_OBJECT_CLASS (klass)->finalize = gst_ivtv_src_device_finalize;
  dev_class->create_element =
      GST_DEBUG_FUNCPTR (gst_ivtv_src_device_create_element);
  dev_class->reconfigure_element =
      GST_DEBUG_FUNCPTR (gst_ivtv_src_device_reconfigure_element);
}

static void
gst_ivtv_src_device_init (GstIvtvSrcDevice * self)
{
  (void) self;
}

const gchar *
gst_ivtv_src_device_get_path (GstIvtvSrcDevice * device)
{
  g_return_val_if_fail (GST_IS_IVTV_SRC_DEVICE (device), NULL);
  return device->path;
}

/* ---- probing one node ---- */

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

/* The device's properties for applications (the probe's, lock held). */
static GstStructure *
describe (const gchar * path, IvtvDevice * dev, const IvtvProbe * p)
{
  const gchar *current_input = "";
  gchar *inputs = join_inputs (p), *stds = join_standards (p);
  gchar *io = ivtv_io_mode_describe (dev->device_caps,
      ivtv_stream_probe_modes (dev));
  GstStructure *props;

  if (p->current_input >= 0) {
    const IvtvInput *in = ivtv_probe_find_input (p, p->current_input);
    if (in != NULL)
      current_input = in->name;
  }
  props = gst_structure_new ("ivtv-device-properties",
      "device.path", G_TYPE_STRING, path,
      "device.api", G_TYPE_STRING, "v4l2",
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
  return props;
}

/* The node opened as ivtvsrc opens it (a capture session: same recipe,
 * same libv4l2 choice), with the caps ivtvsrc will give: MPEG of the
 * stream type the card is set to, as ivtvsrc says when capturing. */
GstDevice *
ivtv_device_provider_probe_path (const gchar * path)
{
  IvtvCapture *cap = ivtv_capture_new (NULL);
  IvtvOpenRecipe recipe = { path, -1, IVTV_LIBV4L2_AUTO };
  IvtvDevice *dev = ivtv_capture_device (cap);
  IvtvProbe *p = ivtv_capture_probe (cap);
  GstDevice *device = NULL;
  GstStructure *props = NULL;
  GstCaps *caps = NULL;
  GError *err = NULL;
  gchar *name = NULL;

  if (!ivtv_capture_open (cap, &recipe, &err)) {
    /* say why in the log (permission, busy, not a capture node, ...) */
    GST_INFO ("%s: not listed: %s", path, err->message);
    g_clear_error (&err);
    ivtv_capture_free (cap);
    return NULL;
  }
  ivtv_capture_lock (cap);
  caps = ivtv_negotiate_device_caps (p, dev,
      ivtv_probe_find_format (p, V4L2_PIX_FMT_MPEG) ?
      ivtv_encoder_get_stream_type (dev) : -1);
  if (gst_caps_is_empty (caps)) {
    GST_DEBUG ("%s ('%s'): no format ivtvsrc can produce", path, p->card);
  } else {
    name = g_strdup_printf ("%s (%s)", p->card, p->driver);
    props = describe (path, dev, p);
  }
  ivtv_capture_unlock (cap);
  ivtv_capture_close (cap);
  ivtv_capture_free (cap);

  if (name) {
    device = g_object_new (GST_TYPE_IVTV_SRC_DEVICE, "display-name", name,
        "device-class", "Video/Source", "caps", caps, "properties", props,
        NULL);
    GST_IVTV_SRC_DEVICE (device)->path = g_strdup (path);
    GST_INFO ("%s: %s, %" GST_PTR_FORMAT, path, name, caps);
    gst_structure_free (props);
    g_free (name);
  }
  gst_caps_unref (caps);
  return device;
}

/* ---- finding nodes ---- */

static guint
node_number (const gchar * path)
{
  const gchar *p = path + strlen (path);

  while (p > path && g_ascii_isdigit (p[-1]))
    p--;
  return *p ? (guint) strtoul (p, NULL, 10) : G_MAXUINT;
}

static gint
compare_nodes (gconstpointer a, gconstpointer b)
{
  const gchar *pa = *(const gchar * const *) a;
  const gchar *pb = *(const gchar * const *) b;
  guint na = node_number (pa), nb = node_number (pb);

  if (na != nb)
    return na < nb ? -1 : 1;
  return strcmp (pa, pb);
}

static void
add_path (GPtrArray * paths, const gchar * path)
{
  guint i;

  for (i = 0; i < paths->len; i++)
    if (strcmp (g_ptr_array_index (paths, i), path) == 0)
      return;
  g_ptr_array_add (paths, g_strdup (path));
}

/* Every candidate node: udev's video4linux nodes, and every /dev/videoN
 * that is a character device (udev does not know the nodes of containers
 * without udev, nor the emulator's). */
static GPtrArray *
candidate_paths (void)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  guint n;

#if HAVE_GUDEV
  {
    const gchar *const subsystems[] = { "video4linux", NULL };
    GUdevClient *client = g_udev_client_new (subsystems);
    GList *devs = g_udev_client_query_by_subsystem (client, "video4linux");
    GList *l;

    for (l = devs; l != NULL; l = l->next) {
      const gchar *file = g_udev_device_get_device_file (l->data);
      if (file != NULL && g_str_has_prefix (g_udev_device_get_name (l->data),
              "video"))
        add_path (paths, file);
    }
    g_list_free_full (devs, g_object_unref);
    g_object_unref (client);
  }
#endif
  for (n = 0; n < IVTV_SCAN_MAX; n++) {
    gchar path[32];
    struct stat st;

    g_snprintf (path, sizeof (path), "/dev/video%u", n);
    if (stat (path, &st) == 0 && S_ISCHR (st.st_mode))
      add_path (paths, path);
  }
  g_ptr_array_sort (paths, compare_nodes);
  return paths;
}

/* ---- the provider ---- */

struct _GstIvtvDeviceProvider
{
  GstDeviceProvider parent;
#if HAVE_GUDEV
  GUdevClient *udev;
#endif
};

G_DEFINE_TYPE (GstIvtvDeviceProvider, gst_ivtv_device_provider,
    GST_TYPE_DEVICE_PROVIDER);

static gboolean
register_provider (GstPlugin * plugin)
{
  ivtv_debug_init ();
  return gst_device_provider_register (plugin, "ivtvdeviceprovider",
      GST_RANK_SECONDARY, GST_TYPE_IVTV_DEVICE_PROVIDER);
}

GST_DEVICE_PROVIDER_REGISTER_DEFINE_CUSTOM (ivtvdeviceprovider,
    register_provider);

static GList *
gst_ivtv_device_provider_probe (GstDeviceProvider * provider)
{
  GPtrArray *paths = candidate_paths ();
  GList *devices = NULL;
  guint i;

  (void) provider;
  for (i = 0; i < paths->len; i++) {
    GstDevice *d = ivtv_device_provider_probe_path (g_ptr_array_index (paths,
            i));
    if (d != NULL)
      devices = g_list_append (devices, d);
  }
  g_ptr_array_unref (paths);
  return devices;
}

#if HAVE_GUDEV
static GstDevice *
find_device (GstDeviceProvider * provider, const gchar * path)
{
  GList *devs = gst_device_provider_get_devices (provider), *l;
  GstDevice *found = NULL;

  for (l = devs; l != NULL; l = l->next)
    if (found == NULL && g_strcmp0 (GST_IVTV_SRC_DEVICE (l->data)->path,
            path) == 0)
      found = gst_object_ref (l->data);
  g_list_free_full (devs, gst_object_unref);
  return found;
}

static void
on_uevent (GUdevClient * client, const gchar * action, GUdevDevice * udev,
    gpointer user_data)
{
  GstDeviceProvider *provider = user_data;
  const gchar *path = g_udev_device_get_device_file (udev);
  GstDevice *known;

  (void) client;
  if (path == NULL)
    return;
  known = find_device (provider, path);
  GST_DEBUG_OBJECT (provider, "uevent %s %s", action, path);
  if (g_strcmp0 (action, "add") == 0 && known == NULL) {
    GstDevice *d = ivtv_device_provider_probe_path (path);
    if (d != NULL)
      gst_device_provider_device_add (provider, d);
  } else if (g_strcmp0 (action, "remove") == 0 && known != NULL) {
    gst_device_provider_device_remove (provider, known);
  }
  if (known)
    gst_object_unref (known);
}
#endif

static gboolean
gst_ivtv_device_provider_start (GstDeviceProvider * provider)
{
  GList *devices, *l;

#if HAVE_GUDEV
  {
    GstIvtvDeviceProvider *self = GST_IVTV_DEVICE_PROVIDER (provider);
    const gchar *const subsystems[] = { "video4linux", NULL };

    /* signals arrive in the thread-default main context of the caller */
    self->udev = g_udev_client_new (subsystems);
    g_signal_connect (self->udev, "uevent", G_CALLBACK (on_uevent), provider);
  }
#endif
  devices = gst_ivtv_device_provider_probe (provider);
  for (l = devices; l != NULL; l = l->next)
    gst_device_provider_device_add (provider, l->data);
  g_list_free (devices);
  return TRUE;
}

static void
gst_ivtv_device_provider_stop (GstDeviceProvider * provider)
{
#if HAVE_GUDEV
  GstIvtvDeviceProvider *self = GST_IVTV_DEVICE_PROVIDER (provider);

  if (self->udev) {
    g_signal_handlers_disconnect_by_data (self->udev, provider);
    g_clear_object (&self->udev);
  }
#else
  (void) provider;
#endif
}

static void
gst_ivtv_device_provider_class_init (GstIvtvDeviceProviderClass * klass)
{
  GstDeviceProviderClass *dp_class = GST_DEVICE_PROVIDER_CLASS (klass);

  dp_class->probe = GST_DEBUG_FUNCPTR (gst_ivtv_device_provider_probe);
  dp_class->start = GST_DEBUG_FUNCPTR (gst_ivtv_device_provider_start);
  dp_class->stop = GST_DEBUG_FUNCPTR (gst_ivtv_device_provider_stop);
  gst_device_provider_class_set_static_metadata (dp_class,
      "V4L2 capture devices for ivtvsrc", "Source/Video",
      "Lists the V4L2 video capture devices ivtvsrc can capture from, "
      "read()-only MPEG encoder cards (ivtv, cx18, pvrusb2) included",
      "ivtvsrc project");
}

static void
gst_ivtv_device_provider_init (GstIvtvDeviceProvider * self)
{
  (void) self;
}
