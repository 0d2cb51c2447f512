/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the plugin's debug categories.
 *
 * ivtv_debug ("ivtv") is used by the device, probe, path and helper
 * files; the element and its capture session log to ivtvsrc_debug
 * ("ivtvsrc").  ivtv_debug_init() registers both and
 * may be called any number of times (plugin_init and the unit tests do).
 */
#ifndef __IVTV_DEBUG_H__
#define __IVTV_DEBUG_H__

#include <gst/gst.h>

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (ivtv_debug);
GST_DEBUG_CATEGORY_EXTERN (ivtvsrc_debug);

void ivtv_debug_init (void);

G_END_DECLS

#endif /* __IVTV_DEBUG_H__ */
