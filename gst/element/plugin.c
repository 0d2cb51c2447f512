/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — plugin_init of the ivtv plugin (nothing else): the gettext
 * domain of the messages, the element, the device provider, and the
 * reference their Doc-uri names. */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ivtvelements.h"
#include "gstivtvsrc.h"
#include "ivtvdeviceprovider.h"
#include "ivtvdebug.h"

/* The Doc-uri of a plugin run from the build tree: gst/meson.build links
 * the source tree's docs/ivtvsrc.md beside the built plugin (with the
 * doc-uri option at auto), and this names the link's target.  An installed
 * plugin has no such link: its classes keep IVTV_DOC_URI, the install's
 * DATADIR/doc/ivtvsrc/ivtvsrc.md.  NULL when there is no link. */
static gchar *
build_tree_doc_uri (GstPlugin * plugin)
{
  const gchar *file = gst_plugin_get_filename (plugin);
  gchar *dir, *link, *target, *uri = NULL;

  if (!IVTV_DOC_URI_AUTO || file == NULL)
    return NULL;
  dir = g_path_get_dirname (file);
  link = g_build_filename (dir, "ivtvsrc.md", NULL);
  target = g_file_read_link (link, NULL);
  if (target != NULL && g_path_is_absolute (target)
      && g_file_test (target, G_FILE_TEST_IS_REGULAR))
    uri = g_filename_to_uri (target, NULL, NULL);
  g_free (target);
  g_free (link);
  g_free (dir);
  return uri;
}

/* Before registering: gst_element_register and gst_device_provider_register
 * copy the class's metadata into the factory (and the registry cache). */
static void
set_doc_uri (const gchar * uri)
{
  GstElementClass *element_class = g_type_class_ref (GST_TYPE_IVTV_SRC);
  GstDeviceProviderClass *dp_class =
      g_type_class_ref (GST_TYPE_IVTV_DEVICE_PROVIDER);

  gst_element_class_add_metadata (element_class,
      GST_ELEMENT_METADATA_DOC_URI, uri);
  gst_device_provider_class_add_metadata (dp_class,
      GST_ELEMENT_METADATA_DOC_URI, uri);
  g_type_class_unref (dp_class);
  g_type_class_unref (element_class);
}

static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ok;
  gchar *doc_uri;

#if ENABLE_NLS
  /* the messages' catalogues (po/), as GStreamer's plugins do; from the
   * build tree IVTV_LOCALEDIR names the build's (meson devenv and
   * build/ivtv-env set it), the variable ivtv-capture reads too: the
   * element's messages are then translated, and a plugin loaded inside
   * ivtv-capture does not bind the shared domain back to LOCALEDIR */
  const gchar *localedir = g_getenv ("IVTV_LOCALEDIR");

  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && *localedir != '\0' ?
      localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
#endif
  ivtv_debug_init ();           /* the classes may log */
  doc_uri = build_tree_doc_uri (plugin);
  if (doc_uri != NULL)
    set_doc_uri (doc_uri);
  g_free (doc_uri);
  ok = GST_ELEMENT_REGISTER (ivtvsrc, plugin);

  ok |= GST_DEVICE_PROVIDER_REGISTER (ivtvdeviceprovider, plugin);
  return ok;
}

/* version: meson's project(); origin: the package-origin option */
GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, ivtv,
    "Captures from V4L2 devices, including read()-only MPEG encoder cards "
    "(ivtv, cx18, pvrusb2)", plugin_init, VERSION, "LGPL", PACKAGE,
    GST_PACKAGE_ORIGIN)
