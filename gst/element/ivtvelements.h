/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the elements of the ivtv plugin. */
#ifndef __IVTV_ELEMENTS_H__
#define __IVTV_ELEMENTS_H__

#include <gst/gst.h>

G_BEGIN_DECLS

GST_ELEMENT_REGISTER_DECLARE (ivtvsrc);

G_END_DECLS

#endif /* __IVTV_ELEMENTS_H__ */
