/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the device provider (ivtvdeviceprovider): finding V4L2 video
 * nodes (gudev, and a /dev/video* scan), one GstDevice each (described in
 * ivtvdevicenode.c), hot-plug via udev, v4l2deviceprovider hidden. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvdeviceprovider.h"
#include "ivtvdevicenode.h"
#include "ivtvdebug.h"

#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#if HAVE_GUDEV
#include <gudev/gudev.h>
#endif

#define GST_CAT_DEFAULT ivtv_debug

/* The kernel names V4L2 video nodes video0 .. video255. */
#define IVTV_SCAN_MAX 256

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
  const IvtvNode *na = *(const IvtvNode * const *) a;
  const IvtvNode *nb = *(const IvtvNode * const *) b;
  guint ia = node_number (na->path), ib = node_number (nb->path);

  if (ia != ib)
    return ia < ib ? -1 : 1;
  return strcmp (na->path, nb->path);
}

static gboolean
has_node (GPtrArray * nodes, const gchar * path)
{
  guint i;

  for (i = 0; i < nodes->len; i++)
    if (strcmp (((IvtvNode *) g_ptr_array_index (nodes, i))->path, path) == 0)
      return TRUE;
  return FALSE;
}


/* Every candidate node: udev's video4linux nodes, and every /dev/videoN
 * and /dev/vbiN that is a character device (udev does not know the nodes
 * of containers without udev, nor the emulator's). */
static GPtrArray *
candidate_nodes (void)
{
  GPtrArray *nodes = g_ptr_array_new_with_free_func (ivtv_node_free);
  guint i;

#if HAVE_GUDEV
  {
    const gchar *const subsystems[] = { "video4linux", NULL };
    GUdevClient *client = g_udev_client_new (subsystems);
    GList *devs = g_udev_client_query_by_subsystem (client, "video4linux");
    GList *l;

    for (l = devs; l != NULL; l = l->next) {
      IvtvNode *n = ivtv_node_new_from_udev (l->data);
      if (n != NULL && !has_node (nodes, n->path))
        g_ptr_array_add (nodes, n);
      else if (n != NULL)
        ivtv_node_free (n);
    }
    g_list_free_full (devs, g_object_unref);
    g_object_unref (client);
  }
#endif
  for (i = 0; i < IVTV_SCAN_MAX; i++) {
    const gchar *const kinds[] = { "video", "vbi" };   /* VBI: ivtvvbi.h */
    gchar path[32];
    struct stat st;
    guint k;

    for (k = 0; k < G_N_ELEMENTS (kinds); k++) {
      g_snprintf (path, sizeof (path), "/dev/%s%u", kinds[k], i);
      if (stat (path, &st) == 0 && S_ISCHR (st.st_mode)
          && !has_node (nodes, path))
        g_ptr_array_add (nodes, ivtv_node_new (path));
    }
  }
  g_ptr_array_sort (nodes, compare_nodes);
  return nodes;
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
  GPtrArray *nodes = candidate_nodes ();
  GList *devices = NULL;
  guint i;

  (void) provider;
  for (i = 0; i < nodes->len; i++) {
    GstDevice *d = ivtv_node_describe (g_ptr_array_index (nodes, i));
    if (d != NULL)
      devices = g_list_append (devices, d);
  }
  g_ptr_array_unref (nodes);
  return devices;
}

#if HAVE_GUDEV
static GstDevice *
find_device (GstDeviceProvider * provider, const gchar * path)
{
  GList *devs = gst_device_provider_get_devices (provider), *l;
  GstDevice *found = NULL;

  for (l = devs; l != NULL; l = l->next)
    if (found == NULL && g_strcmp0 (gst_ivtv_src_device_get_path
            (GST_IVTV_SRC_DEVICE (l->data)), path) == 0)
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
    IvtvNode *n = ivtv_node_new_from_udev (udev);
    GstDevice *d = n ? ivtv_node_describe (n) : NULL;
    if (d != NULL)
      gst_device_provider_device_add (provider, d);
    if (n != NULL)
      ivtv_node_free (n);
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
      "V4L2 devices for ivtvsrc", "Source/Sink/Video",
      "Lists every V4L2 video node once: with ivtvsrc the nodes it exists "
      "for (read()-only and MPEG encoder nodes such as ivtv, cx18 and "
      "pvrusb2, a card's PCM, VBI and HM12 nodes; every capture node with "
      "IVTV_DEVICE_PROVIDER=all), streaming webcams with v4l2src, output "
      "nodes with v4l2sink, and nodes it cannot open, with the reason; "
      "hides v4l2deviceprovider",
      "ivtvsrc project");
  gst_device_provider_class_add_metadata (dp_class,
      GST_ELEMENT_METADATA_DOC_URI, IVTV_DOC_URI);
}

/* One entry per node: v4l2deviceprovider would list the same nodes again
 * (a device monitor with show-all-devices shows them anyway). */
static void
gst_ivtv_device_provider_init (GstIvtvDeviceProvider * self)
{
  gst_device_provider_hide_provider (GST_DEVICE_PROVIDER (self),
      "v4l2deviceprovider");
}
