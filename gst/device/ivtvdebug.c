/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the plugin's debug categories (see ivtvdebug.h). */
#include "ivtvdebug.h"

GST_DEBUG_CATEGORY (ivtv_debug);
GST_DEBUG_CATEGORY (ivtvsrc_debug);

void
ivtv_debug_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (ivtv_debug, "ivtv", 0,
        "ivtvsrc device layer, probing and controls");
    GST_DEBUG_CATEGORY_INIT (ivtvsrc_debug, "ivtvsrc", 0,
        "ivtvsrc element and its capture session");
    g_once_init_leave (&done, 1);
  }
}
