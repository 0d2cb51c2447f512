/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — plugin_init of the ivtv plugin (nothing else): the gettext
 * domain of the messages, the element, the device provider. */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "ivtvelements.h"
#include "ivtvdeviceprovider.h"

static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ok;

#if ENABLE_NLS
  /* the messages' catalogues (po/), as GStreamer's plugins do */
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
#endif
  ok = GST_ELEMENT_REGISTER (ivtvsrc, plugin);

  ok |= GST_DEVICE_PROVIDER_REGISTER (ivtvdeviceprovider, plugin);
  return ok;
}

/* version: meson's project(); origin: the package-origin option */
GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, ivtv,
    "Captures from V4L2 devices, including read()-only MPEG encoder cards "
    "(ivtv, cx18, pvrusb2)", plugin_init, VERSION, "LGPL", PACKAGE,
    GST_PACKAGE_ORIGIN)
