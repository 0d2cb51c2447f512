/* ivtvsrc — the element's base-class virtual methods (start, stop, caps,
 * create, unlock, latency), kept apart from its properties and state
 * changes (gstivtvsrc.c). */
#ifndef __IVTV_SRC_IO_H__
#define __IVTV_SRC_IO_H__

#include "gstivtvsrc.h"

G_BEGIN_DECLS

/* Install the GstBaseSrc / GstPushSrc methods on @klass. */
void ivtv_src_io_class_init (GstIvtvSrcClass * klass);

/* Check the input, standard and audio input names against the probed
 * card before start (READY -> PAUSED), so a bad name fails with one clear
 * error and the base class never starts.  FALSE after posting it. */
gboolean ivtv_src_io_check_settings (GstIvtvSrc * src);

G_END_DECLS

#endif /* __IVTV_SRC_IO_H__ */
