/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the VBI properties: vbi-services and vbi-mode, installed from
 * the element's class_init at ids first_id + IVTV_VBI_PROP_*. */
#ifndef __IVTV_VBI_PROPS_H__
#define __IVTV_VBI_PROPS_H__

#include <gst/gst.h>
#include "ivtvvbi.h"

G_BEGIN_DECLS

enum
{
  IVTV_VBI_PROP_SERVICES,
  IVTV_VBI_PROP_MODE,
  IVTV_VBI_N_PROPS
};

void ivtv_vbi_install_properties (GObjectClass * klass, guint first_id);
/* @id relative to first_id; FALSE when it is not a VBI property */
gboolean ivtv_vbi_set_property (IvtvVbiSettings * s, guint id,
    const GValue * value);
gboolean ivtv_vbi_get_property (const IvtvVbiSettings * s, guint id,
    GValue * value);

G_END_DECLS

#endif /* __IVTV_VBI_PROPS_H__ */
