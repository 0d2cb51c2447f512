/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the capture session: everything one capture does with the
 * device, below the element and above the paths.
 *
 * IvtvCapture owns the device (IvtvDevice, its lock and the probe), and
 *  - opens it with one recipe (a path, or an fd the application opened;
 *    libc or libv4l2, decided once at open) and reopens it with the same
 *    recipe: a fresh descriptor after an MPEG capture stops, and after an
 *    unplug (reconnect);
 *  - applies the settings (input, standard, audio input, frequency,
 *    encoder controls) in one function with one error rule: at start an
 *    unknown or refused value is an error, a busy driver or an undetected
 *    standard a warning; a live change is always a warning;
 *  - chooses the I/O method once at start (ivtviomode) and starts the path
 *    (ivtvpath.h) at the first buffer, falling back from a failing
 *    streaming start to read() where the device has it;
 *  - applies the negotiated format and keeps it (caps, frame size, rate)
 *    for a reconnect; sniffs the MPEG stream type when there is no control;
 *  - stops: the path, the encoder (ENCODER_CMD STOP), the signal watch;
 *    drains on EOS (the encoder stops at the end of its GOP, the path reads
 *    the rest);
 *  - "lost" is a state: a path that returns IVTV_FLOW_DEVICE_LOST makes
 *    the reader thread (ivtv_capture_reconnect, ivtvcaptureread.c) wait
 *    for the node, reopen it with the recipe, set it up as before and go
 *    on (ivtvsrc-reconnect messages); the buffers already queued are
 *    handed out meanwhile.
 *
 * The node's kind (ivtvcard.h: MPEG, raw, HM12, PCM, VBI, radio) is
 * decided once, at the first open, and kept over a reopen
 * (ivtv_capture_node_kind).  Across PAUSED, a read() MPEG encoder is
 * paused with the pipeline where the driver can (ivtv_capture_set_playing,
 * ivtvcapturepause.c).
 *
 * The element asks ivtv_capture_next() for each buffer: it takes from the
 * bounded queue the reader thread fills (ivtvreaderthread.h), starting the
 * path and that thread at the first call.  Helpers that need
 * the device (colour balance, the device provider) take the lock and use
 * ivtv_capture_device()/ivtv_capture_probe().  Messages are posted on the
 * GstElement given to ivtv_capture_new() (may be NULL: no messages, e.g.
 * the device provider's probing session).
 */
#ifndef __IVTV_CAPTURE_H__
#define __IVTV_CAPTURE_H__

#include <gst/gst.h>
#include "ivtvcard.h"          /* IvtvNodeKind */
#include "ivtvdevice.h"
#include "ivtvencoder.h"
#include "ivtviomode.h"
#include "ivtvprobe.h"
#include "ivtvreaderthread.h"
#include "ivtvvbi.h"             /* the VBI settings (IvtvVbiSettings) */

G_BEGIN_DECLS

typedef enum
{
  IVTV_LIBV4L2_AUTO,
  IVTV_LIBV4L2_ON,
  IVTV_LIBV4L2_OFF
} IvtvLibv4l2Mode;

/* The use-libv4l2 property's enum (nicks auto, on, off). */
#define IVTV_TYPE_LIBV4L2_MODE (ivtv_libv4l2_mode_get_type ())
GType ivtv_libv4l2_mode_get_type (void);

/* How the device is opened (and opened again). */
typedef struct
{
  const gchar *path;            /* the node, when fd < 0 */
  gint fd;                      /* an fd the application opened, or -1 */
  IvtvLibv4l2Mode libv4l2;
} IvtvOpenRecipe;

/* What a capture applies: the element's properties, copied at start. */
typedef struct
{
  gchar *input, *standard, *audio_input;        /* NULL: keep the card's */
  guint64 frequency;            /* Hz, 0: keep */
  IvtvIoMode io_mode;
  guint blocksize;              /* read(): bytes per buffer */
  guint timeout;                /* stall timeout, s */
  guint signal_timeout;         /* s without signal: EOS; 0 = never */
  gboolean wait_for_signal;
  gboolean reconnect;
  gboolean record_priority;     /* take V4L2_PRIORITY_RECORD (ivtvpriority.h) */
  IvtvEncoder encoder;          /* want[] and extra_controls are used */
  IvtvVbiSettings vbi;          /* on a VBI node (ivtvvbi.h) */
} IvtvCaptureSettings;

void ivtv_capture_settings_init (IvtvCaptureSettings * s);
void ivtv_capture_settings_clear (IvtvCaptureSettings * s);
void ivtv_capture_settings_copy (IvtvCaptureSettings * dst,
    const IvtvCaptureSettings * src);

/* Which settings a live change touches. */
typedef enum
{
  IVTV_SETTING_INPUT = 1 << 0,
  IVTV_SETTING_STANDARD = 1 << 1,
  IVTV_SETTING_AUDIO = 1 << 2,
  IVTV_SETTING_FREQUENCY = 1 << 3,
  IVTV_SETTING_ENCODER = 1 << 4,        /* the named encoder controls */
  IVTV_SETTING_EXTRA_CONTROLS = 1 << 5,
  IVTV_SETTING_ALL = 0x3f
} IvtvSettingMask;

typedef struct _IvtvCapture IvtvCapture;

IvtvCapture *ivtv_capture_new (GstElement * element);
void ivtv_capture_free (IvtvCapture * cap);

/* NULL -> READY: open with @recipe and probe; libv4l2 as the recipe says
 * (auto: for a streaming device none of whose formats GStreamer knows).
 * FALSE with @error (IVTV_DEVICE_ERROR) and the device closed. */
gboolean ivtv_capture_open (IvtvCapture * cap, const IvtvOpenRecipe * recipe,
    GError ** error);
void ivtv_capture_close (IvtvCapture * cap);
/* The node's kind, decided at open (IVTV_NODE_NONE when closed). */
IvtvNodeKind ivtv_capture_node_kind (IvtvCapture * cap);

/* The device lock, and what it protects (the device is open when
 * ivtv_device_is_open() says so). */
void ivtv_capture_lock (IvtvCapture * cap);
void ivtv_capture_unlock (IvtvCapture * cap);
IvtvDevice *ivtv_capture_device (IvtvCapture * cap);
IvtvProbe *ivtv_capture_probe (IvtvCapture * cap);

/* READY -> PAUSED: do the names fit the card, and is the card ours (the
 * record priority, ivtvpriority.h; before the base class starts, so a
 * busy card is one error)?  FALSE after one error. */
gboolean ivtv_capture_check_names (IvtvCapture * cap,
    const IvtvCaptureSettings * settings);

/* start/stop of the base class.  start applies @settings, checks the
 * signal, chooses the I/O method and starts the signal watch; FALSE after
 * posting the error. */
gboolean ivtv_capture_start (IvtvCapture * cap,
    const IvtvCaptureSettings * settings);
void ivtv_capture_stop (IvtvCapture * cap);
gboolean ivtv_capture_is_capturing (IvtvCapture * cap);
/* A new device (or device-fd) while capturing: refused with a warning
 * naming the device in use (TRUE); FALSE when not capturing. */
gboolean ivtv_capture_refuse_device_change (IvtvCapture * cap,
    const gchar * property);

/* A live property change while capturing (warnings only); a switch to the
 * tuner also tunes to settings->frequency.  TRUE when the input or
 * standard now gives other caps than the negotiated ones: the caller
 * renegotiates.  *refused: the settings the card refused (one warning
 * posted each); they keep their old value in the session and get it back
 * in @settings, for the element to put into its properties
 * (ivtv_capture_settings_restore).  A value that applies later (a
 * standard the driver takes at the next start, a frequency for when the
 * tuner is the input) is not refused. */
gboolean ivtv_capture_update (IvtvCapture * cap,
    IvtvCaptureSettings * settings, IvtvSettingMask what,
    IvtvSettingMask * refused);
/* One control by its v4l2-ctl name ("brightness"): set now when the
 * device is open and recorded with the session's extra-controls, so a
 * reconnect restores it.  FALSE with @error (refused, or no such control);
 * the caller warns and records it with its own settings for the next
 * start. */
gboolean ivtv_capture_set_control (IvtvCapture * cap, const gchar * name,
    gint value, GError ** error);
/* Copy the settings of @what from @old into @dst. */
void ivtv_capture_settings_restore (IvtvCaptureSettings * dst,
    const IvtvCaptureSettings * old, IvtvSettingMask what);
void ivtv_capture_set_timeout (IvtvCapture * cap, guint seconds);
/* The capture queue's bounds and the stats interval (any time). */
void ivtv_capture_set_limits (IvtvCapture * cap,
    const IvtvReaderLimits * limits);
void ivtv_capture_get_limits (IvtvCapture * cap, IvtvReaderLimits * limits);

/* The I/O method in use (IVTV_IO_AUTO when not capturing). */
IvtvIoMode ivtv_capture_get_io_mode (IvtvCapture * cap);
/* The encoder controls' values read back at start. */
void ivtv_capture_get_encoder_current (IvtvCapture * cap,
    gint current[IVTV_ENC_N_NAMED]);

/* ---- format ---- */

/* What the device can give (NULL when it is closed). */
GstCaps *ivtv_capture_get_caps (IvtvCapture * cap);
/* What the device gives as it is set now (the device provider's caps):
 * an MPEG node's caps are of the stream type the card is set to (NULL
 * when closed). */
GstCaps *ivtv_capture_get_caps_as_set (IvtvCapture * cap);
/* Is the device's format MPEG?  Then *caps are the stream type's, or NULL
 * when the type is sniffed from the first buffer. */
gboolean ivtv_capture_negotiate_mpeg (IvtvCapture * cap, GstCaps ** caps);
/* Negotiation failed: when downstream (the peer of @pad) wants caps the
 * device cannot make, post the error naming what it can (FALSE always;
 * nothing posted when the caps did intersect: the failure was posted
 * where it happened). */
gboolean ivtv_capture_explain_caps (IvtvCapture * cap, GstPad * pad);
/* Fixate raw caps (transfer full) by the device's preferences. */
GstCaps *ivtv_capture_fixate (IvtvCapture * cap, GstCaps * caps);
/* Apply the negotiated caps (a renegotiation restarts the path); FALSE
 * after posting the error. */
gboolean ivtv_capture_set_format (IvtvCapture * cap, GstCaps * caps);
/* Downstream's minimum of buffers (allocation query). */
void ivtv_capture_set_extra_buffers (IvtvCapture * cap, guint n);
/* One buffer's worth of time (latency), GST_CLOCK_TIME_NONE when not
 * capturing. */
GstClockTime ivtv_capture_latency (IvtvCapture * cap, guint blocksize);

/* ---- data ---- */

/* The next buffer: starts the path and the reader thread that drains it
 * into the capture queue at the first call (after waiting for a signal
 * with wait-for-signal), then takes from the queue; the reader reconnects
 * after a loss.  *sniffed gets
 * new caps (transfer full) when the MPEG stream type was just sniffed.
 * GST_FLOW_OK, FLUSHING, EOS, ERROR with *@error, the one error of the
 * capture, after every buffer read before it: the element posts it
 * (ivtv_error_post). */
GstFlowReturn ivtv_capture_next (IvtvCapture * cap, GstBuffer ** buf,
    GstCaps ** sniffed, IvtvError ** error);

/* The buffer just taken is the last one (num-buffers): the final
 * ivtvsrc-stats goes on the bus now, before the EOS that follows it. */
void ivtv_capture_last_buffer (IvtvCapture * cap);

/* EOS asked: stop a read() MPEG encoder at the end of its GOP and read the
 * rest; any other capture whose reader thread runs ends its reading (the
 * queued buffers are still handed out).  TRUE either way (the caller
 * holds the EOS back: next() ends with EOS), FALSE when nothing is being
 * read and the base class should handle it. */
gboolean ivtv_capture_drain (IvtvCapture * cap);

/* PLAYING -> PAUSED (@playing FALSE) and back (issue 28 item 1;
 * ivtvcapturepause.c): a read() MPEG encoder that can pause is paused
 * (ENCODER_CMD PAUSE: ivtv, cx18) and resumed; one that cannot (hdpvr,
 * pvrusb2) is read on into the capture queue while paused; what the
 * driver holds is read on either way, stamped with the running time of
 * the pause.  Nothing else changes for other captures. */
void ivtv_capture_set_playing (IvtvCapture * cap, gboolean playing);
/* EOS asked (before ivtv_capture_drain): a paused encoder resumes (its
 * STOP at the end of the GOP needs a GOP end) and the rest is read even
 * while PAUSED. */
void ivtv_capture_end_pause (IvtvCapture * cap);

/* unlock/unlock_stop: every wait returns at once while flushing. */
void ivtv_capture_set_flushing (IvtvCapture * cap, gboolean flushing);

G_END_DECLS

#endif /* __IVTV_CAPTURE_H__ */
