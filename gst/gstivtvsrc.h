/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the element: a GstPushSrc that wires the device layer,
 * probing, controls, I/O choice and the read()/streaming capture paths
 * together.  See gstivtvsrc.c for the documentation. */
#ifndef __GST_IVTV_SRC_H__
#define __GST_IVTV_SRC_H__

#include <gst/gst.h>
#include <gst/base/gstpushsrc.h>

#include "ivtvdevice.h"
#include "ivtvprobe.h"
#include "ivtviomode.h"
#include "ivtvread.h"
#include "ivtvencoder.h"
#include "ivtvsignal.h"

G_BEGIN_DECLS

#define GST_TYPE_IVTV_SRC (gst_ivtv_src_get_type ())
G_DECLARE_FINAL_TYPE (GstIvtvSrc, gst_ivtv_src, GST, IVTV_SRC, GstPushSrc);

typedef enum
{
  IVTV_LIBV4L2_AUTO,
  IVTV_LIBV4L2_ON,
  IVTV_LIBV4L2_OFF
} IvtvLibv4l2Mode;

typedef struct _IvtvStream IvtvStream;

struct _GstIvtvSrc
{
  GstPushSrc parent;

  /* properties (object lock) */
  gchar *device;
  gint device_fd;
  gchar *input;
  gchar *standard;
  guint64 frequency;
  gchar *audio_input;
  IvtvIoMode io_mode;
  IvtvLibv4l2Mode use_libv4l2;
  /* robustness (helper "robust"): stall, signal */
  guint timeout;                /* s without data: warning, 2x: error */
  guint signal_timeout;         /* s without signal: EOS; 0 = off */
  gboolean wait_for_signal;
  gboolean reconnect;           /* wait for an unplugged node to return */

  /* the device (dev_lock: open/close/probe and live changes) */
  GMutex dev_lock;
  IvtvDevice dev;
  IvtvProbe probe;
  gboolean capturing;           /* between start and stop */

  /* capture (streaming thread, start/stop) */
  IvtvIoMode current_io_mode;
  guint stream_modes;           /* IVTV_IO_BIT mask */
  GstPoll *poll;
  IvtvReader reader;
  IvtvStream *stream;
  gboolean io_started;
  guint extra_buffers;          /* allocation query's min */
  gint mpeg_stream_type;        /* -1 unknown */
  gboolean mpeg;                /* current format is MPEG */
  gboolean need_sniff;          /* MPEG without stream-type control */
  guint frame_size;             /* raw: sizeimage, 0 for byte streams */
  gint fps_n, fps_d;

  /* encoder controls (object lock) and colour balance (dev_lock) */
  IvtvEncoder encoder;
  GList *cb_channels;
  IvtvSignal signal;            /* the signal watch */
  gboolean draining;            /* EOS asked: ENCODER_CMD STOP sent */
};

G_END_DECLS

#endif /* __GST_IVTV_SRC_H__ */
