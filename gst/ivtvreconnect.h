/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — reconnect=true: a device node that goes away (unplugged USB
 * card, driver reloaded) is waited for, reopened, set up as before (input,
 * standard, audio, frequency, the negotiated format) and capture resumes,
 * read() or streaming; ivtvsrc-reconnect messages say lost and restored. */
#ifndef __IVTV_RECONNECT_H__
#define __IVTV_RECONNECT_H__

#include "gstivtvsrc.h"

G_BEGIN_DECLS

/* Did the reader or the stream lose the device (create() returned
 * GST_FLOW_CUSTOM_ERROR for it)? */
gboolean ivtv_src_io_lost (GstIvtvSrc * src);

/* Close the lost node, try to open it again once a second (bounded:
 * 12 x timeout, at least 60 s; flushing ends the wait), re-apply the
 * settings and restart the I/O.  Byte offsets (read()) and frame offsets
 * (streaming) go on from where they were.  GST_FLOW_OK, FLUSHING, or
 * ERROR after posting one. */
GstFlowReturn ivtv_src_reconnect (GstIvtvSrc * src);

G_END_DECLS

#endif /* __IVTV_RECONNECT_H__ */
