/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — owning the card for a recording.
 *
 * Before a capture touches any setting of the card (input, standard,
 * frequency, controls, the encoder), it takes the card:
 *  - V4L2_PRIORITY_RECORD (VIDIOC_S_PRIORITY) where the driver has
 *    priorities (every driver on the core's v4l2_fh does): then the card's
 *    settings refuse other file handles with EBUSY (v4l2-ioctl.c checks
 *    INFO_FL_PRIO ioctls against v4l2_prio_check()), so nobody disturbs
 *    the recording; released at stop (and by the driver on close);
 *  - the card is busy when another handle holds the record priority, when
 *    the MPEG encoder runs for another reader (its stream type control is
 *    V4L2_CTRL_FLAG_GRABBED, as cx2341x grabs it while encoding), or when
 *    another handle owns the streaming queue (REQBUFS 0 gives EBUSY, vb2's
 *    vb2_queue_is_busy()).  Then one error says so, naming the programs
 *    that have the node open where /proc tells (same user, or root), and
 *    nothing on the card has been changed;
 *  - but when the record priority is held by another capture of this very
 *    process on the same card (driver and bus_info; one application
 *    recording a card's YUV and PCM nodes, whose priority the driver keeps
 *    card-wide) and no other process has this node open, the same
 *    application's recording shares it: the holder hands it over (so this
 *    capture may set its input and format) and gets it back when this
 *    one releases it (debug log says so).  Another program is still
 *    refused.
 */
#ifndef __IVTV_PRIORITY_H__
#define __IVTV_PRIORITY_H__

#include "ivtvdevice.h"

G_BEGIN_DECLS

/* Take @dev for a recording.  TRUE when it is ours (*held: the record
 * priority is held, FALSE where the driver has no priorities or @record
 * is FALSE -- the `record-priority=false` property: the busy checks only,
 * other programs may still change the card's settings; TRUE at
 * once when *held already is).  @encoder_ours: a running MPEG encoder is
 * this capture's own (started before through the application's device-fd,
 * whose open file outlives our dup), not another program's.  FALSE
 * with @error (IVTV_DEVICE_ERROR_BUSY, a sentence naming @card and who
 * holds it) when another handle records; the card is left untouched. */
gboolean ivtv_priority_take (IvtvDevice * dev, const gchar * card,
    gboolean record, gboolean encoder_ours, gboolean * held,
    GError ** error);

/* Give the record priority back (V4L2_PRIORITY_DEFAULT) when held. */
void ivtv_priority_release (IvtvDevice * dev, gboolean * held);

/* The other processes that have @path open, as "PID 123 (gst-launch-1.0),
 * PID 456 (cat)", or NULL when none can be seen (/proc shows only one's
 * own processes unless root).  At most 8 are named. */
gchar *ivtv_priority_find_holders (const gchar * path);

G_END_DECLS

#endif /* __IVTV_PRIORITY_H__ */
