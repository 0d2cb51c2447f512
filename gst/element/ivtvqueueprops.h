/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the element's properties of the capture queue and the
 * statistics (max-buffer-bytes, max-buffer-time, stats-interval): their
 * GParamSpecs and get/set, stored in the capture session (any state; a
 * change applies to a running capture at once).  The element's property
 * table installs them and passes their IVTV_QUEUE_PROP_* index. */
#ifndef __IVTV_QUEUE_PROPS_H__
#define __IVTV_QUEUE_PROPS_H__

#include <gst/gst.h>
#include "ivtvcapture.h"

G_BEGIN_DECLS

enum
{
  IVTV_QUEUE_PROP_MAX_BUFFER_BYTES,
  IVTV_QUEUE_PROP_MAX_BUFFER_TIME,
  IVTV_QUEUE_PROP_STATS_INTERVAL,
  IVTV_QUEUE_N_PROPS
};

/* Install the properties with ids first_id .. first_id + N_PROPS - 1. */
void ivtv_queue_param_specs (GParamSpec * specs[IVTV_QUEUE_N_PROPS]);
/* @prop: the id less first_id.  FALSE when it is not one of ours. */
gboolean ivtv_queue_set_property (IvtvCapture * cap, guint prop,
    const GValue * value);
gboolean ivtv_queue_get_property (IvtvCapture * cap, guint prop,
    GValue * value);

G_END_DECLS

#endif /* __IVTV_QUEUE_PROPS_H__ */
