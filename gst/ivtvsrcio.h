/* ivtvsrc — the element's base-class virtual methods (start, stop, caps,
 * create, unlock, latency), kept apart from its properties and state
 * changes (gstivtvsrc.c). */
#ifndef __IVTV_SRC_IO_H__
#define __IVTV_SRC_IO_H__

#include "gstivtvsrc.h"

G_BEGIN_DECLS

/* Install the GstBaseSrc / GstPushSrc methods on @klass. */
void ivtv_src_io_class_init (GstIvtvSrcClass * klass);

G_END_DECLS

#endif /* __IVTV_SRC_IO_H__ */
