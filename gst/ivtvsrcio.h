/* SPDX-License-Identifier: LGPL-2.1-or-later */
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

/* For ivtvreconnect.c, with dev_lock held where it says so.
 * apply_settings: input, standard, audio input, frequency (dev_lock).
 * apply_format: S_FMT (and S_PARM) for @caps, frame size and rate noted
 * (dev_lock).  start: the I/O mode chosen at start (streaming, or read()).
 * stop: the stream or the reader; the device stays open.  Each posts its
 * error. */
gboolean ivtv_src_io_apply_settings (GstIvtvSrc * src);
gboolean ivtv_src_io_apply_format (GstIvtvSrc * src, GstCaps * caps);
gboolean ivtv_src_io_start (GstIvtvSrc * src);
void ivtv_src_io_stop (GstIvtvSrc * src);

G_END_DECLS

#endif /* __IVTV_SRC_IO_H__ */
