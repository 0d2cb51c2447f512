/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the I/O method: the io-mode enum (nicknames as v4l2src's) and
 * the choice between read() and streaming.
 *
 * auto: mmap streaming when the device has STREAMING and accepts MMAP
 * buffers (REQBUFS), else read() when it has READWRITE; the capture
 * session falls back from a failing streaming start to read() when the
 * device has READWRITE (ivtv_io_mode_can_fall_back).  A forced mode the device cannot
 * do is an error naming the modes it can do.  dmabuf-import (v4l2src's
 * mode that captures into downstream's dmabufs) is accepted as a value and
 * refused at start with an error that says so and names the modes the
 * device can do.
 */
#ifndef __IVTV_IOMODE_H__
#define __IVTV_IOMODE_H__

#include <gst/gst.h>

G_BEGIN_DECLS

typedef enum
{
  IVTV_IO_AUTO = 0,
  IVTV_IO_RW = 1,
  IVTV_IO_MMAP = 2,
  IVTV_IO_USERPTR = 3,
  IVTV_IO_DMABUF = 4,
  IVTV_IO_DMABUF_IMPORT = 5     /* v4l2src's nick; refused: see choose */
} IvtvIoMode;

/* Bit of a streaming mode in a mask of modes the device accepts. */
#define IVTV_IO_BIT(mode) (1u << (mode))

#define IVTV_TYPE_IO_MODE (ivtv_io_mode_get_type ())
GType ivtv_io_mode_get_type (void);

/* "auto", "rw", "mmap", "userptr", "dmabuf", "dmabuf-import" */
const gchar *ivtv_io_mode_nick (IvtvIoMode mode);

/* The modes a device can do, "rw, mmap, dmabuf" (g_free). */
gchar *ivtv_io_mode_describe (guint32 device_caps, guint stream_modes);

/* Choose the mode to start with.  @stream_modes: IVTV_IO_BIT mask of the
 * streaming modes the device accepts (0 without streaming support).
 * FALSE with @error (GST_RESOURCE_ERROR_SETTINGS) when the forced mode is
 * impossible or the device offers nothing usable. */
gboolean ivtv_io_mode_choose (IvtvIoMode requested, guint32 device_caps,
    guint stream_modes, const gchar * device, IvtvIoMode * chosen,
    GError ** error);

/* After a streaming start failed: may we use read() instead? */
gboolean ivtv_io_mode_can_fall_back (IvtvIoMode requested,
    guint32 device_caps);

static inline gboolean
ivtv_io_mode_is_streaming (IvtvIoMode mode)
{
  return mode == IVTV_IO_MMAP || mode == IVTV_IO_USERPTR
      || mode == IVTV_IO_DMABUF;
}

G_END_DECLS

#endif /* __IVTV_IOMODE_H__ */
