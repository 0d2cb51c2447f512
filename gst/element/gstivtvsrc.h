/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the element's type.  Its instance struct is private to
 * gst/element/ (gstivtvsrcpriv.h); gstivtvsrc.c has the documentation. */
#ifndef __GST_IVTV_SRC_H__
#define __GST_IVTV_SRC_H__

#include <gst/gst.h>
#include <gst/base/gstpushsrc.h>

G_BEGIN_DECLS

#define GST_TYPE_IVTV_SRC (gst_ivtv_src_get_type ())
G_DECLARE_FINAL_TYPE (GstIvtvSrc, gst_ivtv_src, GST, IVTV_SRC, GstPushSrc);

G_END_DECLS

#endif /* __GST_IVTV_SRC_H__ */
