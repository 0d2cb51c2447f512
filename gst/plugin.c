/* ivtvsrc — plugin_init of the ivtv plugin (nothing else). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvelements.h"
#include "ivtvdeviceprovider.h"

#ifndef PACKAGE
#define PACKAGE "ivtvsrc"
#endif

static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ok = GST_ELEMENT_REGISTER (ivtvsrc, plugin);

  ok |= GST_DEVICE_PROVIDER_REGISTER (ivtvdeviceprovider, plugin);
  return ok;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, ivtv,
    "Capture from V4L2 devices, including read()-only MPEG encoder cards "
    "(ivtv)", plugin_init, "0.1.0", "LGPL", "ivtvsrc",
    "https://example.invalid/ivtvsrc")
