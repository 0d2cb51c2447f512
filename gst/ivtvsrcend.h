/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the clean end of a capture.
 *
 * EOS sent to the element (gst-launch -e on Ctrl-C, an application, or
 * the signal watch's signal-timeout) while a read() MPEG encoder captures
 * is not passed to the base class at once: the encoder is told to stop at
 * the end of its GOP (VIDIOC_ENCODER_CMD STOP, V4L2_ENC_CMD_STOP_AT_GOP_END)
 * and the reader goes on until the driver ends the stream (read() returns
 * 0), at most IVTV_DRAIN_MAX_US (or 0.5 s without data); then create()
 * returns EOS and the base class sends it downstream, so the file ends
 * with a complete GOP.  Other devices (no encoder commands, streaming)
 * get the base class's EOS handling.
 */
#ifndef __IVTV_SRC_END_H__
#define __IVTV_SRC_END_H__

#include "gstivtvsrc.h"

G_BEGIN_DECLS

#define IVTV_DRAIN_MAX_US (2 * G_USEC_PER_SEC)

/* Install the element's send_event on @klass. */
void ivtv_src_end_class_init (GstIvtvSrcClass * klass);

G_END_DECLS

#endif /* __IVTV_SRC_END_H__ */
