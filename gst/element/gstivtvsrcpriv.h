/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the element's private struct and the calls its files share
 * (gstivtvsrc.c: class, states, base-class methods; ivtvsrcprops.c: the
 * property table and the one way in to the session; ivtvcolorbalance.c,
 * ivtvorientation.c: the interfaces, thin adapters on that way in).
 * Nothing outside gst/element/ includes it. */
#ifndef __GST_IVTV_SRC_PRIV_H__
#define __GST_IVTV_SRC_PRIV_H__

#include "gstivtvsrc.h"
#include "ivtvcapture.h"
#include "ivtvpath.h"

G_BEGIN_DECLS

#define DEFAULT_DEVICE       "/dev/video0"
#define DEFAULT_DEVICE_FD    -1
#define DEFAULT_FREQUENCY    0
#define DEFAULT_IO_MODE      IVTV_IO_AUTO
#define DEFAULT_USE_LIBV4L2  IVTV_LIBV4L2_AUTO
#define DEFAULT_BLOCKSIZE    524288
/* blocksize's range: below a page a card's 6 Mbit/s is read in too many
 * small read()s to keep up (issue 28: blocksize=1 kept 0.7 of 6 MB, the
 * driver dropped the rest); above 64 MiB the read buffer pool's g_malloc
 * aborts the process rather than failing (blocksize=4000000000) */
#define MIN_BLOCKSIZE        4096
#define MAX_BLOCKSIZE        (64 * 1024 * 1024)
#define DEFAULT_TIMEOUT      IVTV_PATH_DEFAULT_TIMEOUT
#define DEFAULT_SIGNAL_TIMEOUT 0
#define DEFAULT_WAIT_FOR_SIGNAL FALSE
#define DEFAULT_RECONNECT    FALSE
#define DEFAULT_RECORD_PRIORITY TRUE

struct _GstIvtvSrc
{
  GstPushSrc parent;

  /* properties (object lock); props.blocksize is the base class's */
  gchar *device;
  gint device_fd;
  IvtvLibv4l2Mode use_libv4l2;
  IvtvCaptureSettings props;    /* controls set one by one are recorded in
                                 * props.encoder.extra_controls */
  gchar *par;                   /* pixel-aspect-ratio as set */
  gboolean par_warned;          /* a bad one was reported */
  /* the colour balance channels (object lock): made when first asked for
   * while the device is open, dropped when it closes */
  GList *balance_channels;

  IvtvCapture *capture;         /* the device and everything done with it */
  /* negotiate_lock — a live input/standard change waits for a negotiation
   * under way (its caps were asked of the old input) and is then
   * renegotiated.  Rule: held by gst_ivtv_src_negotiate (the streaming
   * thread: caps asked, chosen and set) and by apply_live (ivtvsrcprops.c:
   * ivtv_capture_update) for their whole length; guards no field, orders
   * the two.  Order: taken before the session's locks (cap->lock,
   * state_lock, taken inside the calls), never under the object lock. */
  GRecMutex negotiate_lock;
};

/* ivtvsrcprops.c: the property table (install, get, set). */
void ivtv_src_install_properties (GObjectClass * klass);
void ivtv_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
void ivtv_src_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec);

/* A copy of the properties for the session (ivtv_capture_settings_clear). */
void ivtv_src_snapshot (GstIvtvSrc * src, IvtvCaptureSettings * s);

/* The one way in for a single control, whoever sets it (brightness=,
 * the colour balance, the orientation): @name is its v4l2-ctl name, or
 * NULL for the card's name of @cid.  Recorded in the element's settings
 * (the next start) and given to the session, which sets it at once while
 * the device is open and records it for a reconnect.  FALSE with @error
 * when the card refused it or has no such control (nothing recorded). */
gboolean ivtv_src_set_control (GstIvtvSrc * src, guint32 cid,
    const gchar * name, gint value, GError ** error);
/* The card's value while the device is open, else the recorded one (by
 * @name); FALSE when neither is known. */
gboolean ivtv_src_get_control (GstIvtvSrc * src, guint32 cid,
    const gchar * name, gint * value);

/* pixel-aspect-ratio on @caps (taken); warns once of a bad value. */
GstCaps *ivtv_src_fix_par (GstIvtvSrc * src, GstCaps * caps);

/* ivtvcolorbalance.c: drop the channels (the device closed). */
void ivtv_color_balance_clear (GstIvtvSrc * src);

G_END_DECLS

#endif /* __GST_IVTV_SRC_PRIV_H__ */
