/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the VBI properties: vbi-services and vbi-mode, their
 * GParamSpecs (the element's property table installs them) and get/set on
 * IvtvVbiSettings by their IVTV_VBI_PROP_* index. */
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

void ivtv_vbi_param_specs (GParamSpec * specs[IVTV_VBI_N_PROPS]);
/* @id an IVTV_VBI_PROP_*; FALSE when it is not a VBI property */
gboolean ivtv_vbi_set_property (IvtvVbiSettings * s, guint id,
    const GValue * value);
gboolean ivtv_vbi_get_property (const IvtvVbiSettings * s, guint id,
    GValue * value);

G_END_DECLS

#endif /* __IVTV_VBI_PROPS_H__ */
