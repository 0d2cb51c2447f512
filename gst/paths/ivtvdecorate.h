/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — path decorators: what a node's kind needs done to each buffer
 * (the HM12 node's detiling, the PCM node's sample offsets and duration),
 * as a path (ivtvpath.h) that wraps the path reading the node.  The
 * decorator owns the inner path (frees it with itself) and runs on the
 * thread that calls create() (the session's reader thread), with the
 * values it was made with: it never looks at the device, so a reconnect
 * that closes and reopens the device cannot race with it. */
#ifndef __IVTV_DECORATE_H__
#define __IVTV_DECORATE_H__

#include "ivtvpath.h"

G_BEGIN_DECLS

/* Each HM12 frame of @width x @height detiled into NV12 (a buffer of
 * another size goes through as it is) and numbered in its offsets, frames
 * the driver dropped left out of the numbers (found from the running time
 * of @element when each frame came: ivtvframegap.h), the frame after them
 * DISCONT.  The reader thread counts and reports such a gap when the
 * session gives it one frame per buffer. */
IvtvPath *ivtv_hm12_path_wrap (IvtvPath * inner, GstElement * element,
    guint width, guint height);

/* Each PCM buffer gets its duration and its offsets in sample frames. */
IvtvPath *ivtv_pcm_path_wrap (IvtvPath * inner);

G_END_DECLS

#endif /* __IVTV_DECORATE_H__ */
