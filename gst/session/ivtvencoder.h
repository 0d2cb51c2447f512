/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the MPEG encoder controls as element properties (their
 * GParamSpecs, installed by the element's property table: stream-type,
 * bitrate-mode, bitrate, peak-bitrate, gop-size, b-frames, aspect,
 * audio-rate, audio-bitrate) and extra-controls (a GstStructure of any
 * controls by their v4l2-ctl names, as v4l2src has it).
 *
 * Every property defaults to "keep the card's value".  At start the wanted
 * values are checked against the probed controls (range, menu items) and
 * set with one VIDIOC_S_EXT_CTRLS; a value the card cannot take is an
 * error naming what it can; a control the card lacks is a warning naming
 * the controls it has (capture goes on).  The values read back after
 * setting are what get_property shows from then on.
 */
#ifndef __IVTV_ENCODER_H__
#define __IVTV_ENCODER_H__

#include <gst/gst.h>
#include "ivtvdevice.h"
#include "ivtvprobe.h"

G_BEGIN_DECLS

/* "keep the card's value" of every named property */
#define IVTV_ENCODER_KEEP (-1)

typedef enum
{
  IVTV_ENC_STREAM_TYPE,
  IVTV_ENC_BITRATE_MODE,
  IVTV_ENC_BITRATE,
  IVTV_ENC_PEAK_BITRATE,
  IVTV_ENC_GOP_SIZE,
  IVTV_ENC_B_FRAMES,
  IVTV_ENC_ASPECT,
  IVTV_ENC_AUDIO_RATE,
  IVTV_ENC_AUDIO_BITRATE,
  IVTV_ENC_N_NAMED,
  IVTV_ENC_EXTRA_CONTROLS = IVTV_ENC_N_NAMED,
  IVTV_ENC_N_PROPS
} IvtvEncoderProp;

typedef struct
{
  gint want[IVTV_ENC_N_NAMED];  /* property value, IVTV_ENCODER_KEEP */
  gint current[IVTV_ENC_N_NAMED];       /* read back at start, or
                                         * IVTV_ENCODER_KEEP if unknown */
  GstStructure *extra_controls;
} IvtvEncoder;

void ivtv_encoder_init (IvtvEncoder * enc);
void ivtv_encoder_clear (IvtvEncoder * enc);

/* The properties' GParamSpecs, by IvtvEncoderProp (the element's property
 * table installs them). */
void ivtv_encoder_param_specs (GParamSpec * specs[IVTV_ENC_N_PROPS]);

/* @prop is an IvtvEncoderProp.  Caller holds the object lock. */
void ivtv_encoder_set_property (IvtvEncoder * enc, guint prop,
    const GValue * value);
void ivtv_encoder_get_property (IvtvEncoder * enc, guint prop, GValue * value);

/* Apply @want (IVTV_ENCODER_KEEP: leave the card's) and @extra to the
 * device (the capture session does, at start and for a live change of
 * extra-controls).  *warning gets a message for controls that were
 * ignored (g_free); FALSE with @error (IVTV_SETTINGS_ERROR) when a value is
 * out of range or the driver refuses.  @current gets the read-back values
 * (IVTV_ENCODER_KEEP for controls the card lacks). */
gboolean ivtv_encoder_apply (IvtvDevice * dev, const IvtvProbe * probe,
    const gint want[IVTV_ENC_N_NAMED], const GstStructure * extra,
    gint current[IVTV_ENC_N_NAMED], gchar ** warning, GError ** error);

/* The value of V4L2_CID_MPEG_STREAM_TYPE, or -1 when the control is
 * absent (then the capture sniffs the stream). */
gint ivtv_encoder_get_stream_type (IvtvDevice * dev);

/* VIDIOC_ENCODER_CMD STOP at the end of the GOP.  TRUE when the driver
 * took it; FALSE (quietly) when it has no encoder commands. */
gboolean ivtv_encoder_stop (IvtvDevice * dev);
/* The same; *@at_gop_end: the driver kept STOP_AT_GOP_END in the returned
 * flags (it ends the stream at the end of the GOP: read on to drain);
 * FALSE after TRUE: it stopped at once without draining (hdpvr). */
gboolean ivtv_encoder_stop_full (IvtvDevice * dev, gboolean * at_gop_end);

/* VIDIOC_ENCODER_CMD PAUSE (@pause) or RESUME: 0, or -errno: -EPERM when
 * the encoder is not running, -ENOTTY (no encoder commands: pvrusb2) or
 * -EINVAL (no such command: hdpvr) when it cannot pause.  ivtv and cx18
 * pause the encoder (ivtv-ioctl.c ivtv_encoder_cmd: CX2341X_ENC_PAUSE_
 * ENCODER, audio muted until RESUME); what the driver holds stays
 * readable. */
gint ivtv_encoder_pause (IvtvDevice * dev, gboolean pause);

/* v4l2-ctl's name of a control: "Video Bitrate" -> "video_bitrate"
 * (lower case, runs of anything else one '_', none at the ends). */
gchar *ivtv_encoder_control_name (const gchar * name);

/* "brightness, contrast, ..." of the card's controls (g_free). */
gchar *ivtv_encoder_list_controls (const IvtvProbe * probe);

G_END_DECLS

#endif /* __IVTV_ENCODER_H__ */
