/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the GstURIHandler of ivtvsrc: scheme "ivtv".
 *
 *   ivtv:///dev/video0?input=composite&standard=pal
 *
 * The path is the device node (empty: /dev/video0); every query parameter
 * names a writable property of ivtvsrc and is set from its text form
 * (as gst-launch would).  Unknown parameters and values the property does
 * not accept are rejected with a GstURIError saying what is allowed.
 * The element hooks this in with
 *   G_IMPLEMENT_INTERFACE (GST_TYPE_URI_HANDLER, ivtv_uri_handler_init)
 */
#ifndef __IVTV_URI_HANDLER_H__
#define __IVTV_URI_HANDLER_H__

#include <gst/gst.h>

G_BEGIN_DECLS

#define IVTV_URI_SCHEME "ivtv"

void ivtv_uri_handler_init (gpointer g_iface, gpointer iface_data);

/* Apply @uri to @element (an ivtvsrc, or anything with a "device"
 * property): the work behind set_uri, exposed for the unit tests. */
gboolean ivtv_uri_apply (GObject * element, const gchar * uri,
    GError ** error);

/* "ivtv:///dev/video0" (+ "?input=...&standard=..." when set). g_free. */
gchar *ivtv_uri_from_element (GObject * element);

G_END_DECLS

#endif /* __IVTV_URI_HANDLER_H__ */
