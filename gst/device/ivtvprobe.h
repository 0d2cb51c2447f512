/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — probing: what the card can do, as plain structs.
 *
 * ivtv_probe_run() asks an open IvtvDevice everything the element needs to
 * know before capturing: the card (driver, card and bus names from
 * QUERYCAP; the capabilities are the IvtvDevice's device_caps),
 * inputs (ENUMINPUT + G_INPUT), audio inputs (ENUMAUDIO + G_AUDIO),
 * standards (ENUMSTD + G_STD), the tuner of the current input (G_TUNER +
 * G_FREQUENCY), capture formats (ENUM_FMT with ENUM_FRAMESIZES and
 * ENUM_FRAMEINTERVALS) and controls (QUERY_EXT_CTRL/QUERYCTRL with
 * NEXT_CTRL, QUERYMENU).  Nothing here changes the device.
 *
 * The driver is not trusted: every string is copied bounded, NUL-terminated
 * and made printable UTF-8; every enumeration is bounded by the IVTV_PROBE_MAX_*
 * limits below and stops at a repeated or non-increasing answer.  A feature
 * the driver lacks (ENOTTY/EINVAL) leaves an empty list, never an error.
 */
#ifndef __IVTV_PROBE_H__
#define __IVTV_PROBE_H__

#include "ivtvdevice.h"

G_BEGIN_DECLS

#define IVTV_PROBE_MAX_INPUTS     64
#define IVTV_PROBE_MAX_AUDIOS     64
#define IVTV_PROBE_MAX_STDS       128
#define IVTV_PROBE_MAX_FORMATS    64
#define IVTV_PROBE_MAX_SIZES      128
#define IVTV_PROBE_MAX_INTERVALS  64
#define IVTV_PROBE_MAX_CONTROLS   512
#define IVTV_PROBE_MAX_MENU       64


typedef struct
{
  guint32 index;
  gchar name[IVTV_NAME_LEN];
  guint32 type;                 /* V4L2_INPUT_TYPE_TUNER / _CAMERA / _TOUCH */
  guint32 tuner;                /* tuner index, meaningful for TYPE_TUNER */
  v4l2_std_id std;              /* standards this input supports */
  guint32 status;               /* V4L2_IN_ST_* at probe time */
} IvtvInput;

typedef struct
{
  guint32 index;
  gchar name[IVTV_NAME_LEN];
  guint32 mode;
} IvtvAudioInput;

typedef struct
{
  guint32 index;
  v4l2_std_id id;
  gchar name[IVTV_NAME_LEN];
  gint fps_n, fps_d;            /* frame rate (inverse of frameperiod);
                                 * 0/1 when the driver gave nonsense */
} IvtvStandard;

typedef struct
{
  guint32 num, den;             /* a frame interval: num/den seconds */
} IvtvFraction;

typedef struct
{
  guint32 type;                 /* 0 = not enumerated (ENOTTY/EINVAL),
                                 * else V4L2_FRMIVAL_TYPE_* */
  guint n_discrete;
  IvtvFraction *discrete;       /* n_discrete entries (TYPE_DISCRETE) */
  IvtvFraction min, max, step;  /* TYPE_STEPWISE / TYPE_CONTINUOUS */
} IvtvIntervals;

typedef struct
{
  guint32 width, height;
  IvtvIntervals intervals;
} IvtvFrameSize;

typedef struct
{
  guint32 index;
  guint32 pixelformat;          /* V4L2_PIX_FMT_* fourcc */
  guint32 flags;                /* V4L2_FMT_FLAG_* (COMPRESSED, EMULATED) */

  guint32 size_type;            /* 0 = ENUM_FRAMESIZES unsupported,
                                 * else V4L2_FRMSIZE_TYPE_* */
  guint n_sizes;
  IvtvFrameSize *sizes;         /* TYPE_DISCRETE: n_sizes entries */
  struct v4l2_frmsize_stepwise stepwise;        /* STEPWISE / CONTINUOUS */
  IvtvIntervals stepwise_intervals;     /* intervals at stepwise.max_* */
} IvtvFormat;

typedef struct
{
  guint32 index;
  gint64 value;                 /* integer menus: the value */
  gchar name[IVTV_NAME_LEN];    /* menus: the name ("" for integer menus) */
} IvtvMenuItem;

typedef struct
{
  guint32 id;                   /* V4L2_CID_* */
  guint32 type;                 /* V4L2_CTRL_TYPE_* */
  gchar name[IVTV_NAME_LEN];
  gint64 minimum, maximum, default_value;
  guint64 step;
  guint32 flags;                /* V4L2_CTRL_FLAG_* */
  guint n_menu;
  IvtvMenuItem *menu;           /* MENU / INTEGER_MENU items that exist */
} IvtvControl;

typedef struct
{
  gboolean present;             /* G_TUNER succeeded */
  guint32 index;
  gchar name[IVTV_NAME_LEN];
  guint32 type;                 /* V4L2_TUNER_RADIO / ANALOG_TV / ... */
  guint32 rangelow, rangehigh;  /* in tuner units */
  guint64 unit_hz_x16;          /* 16 x Hz per tuner unit: 1000 for
                                 * CAP_LOW (62.5 Hz), 1000000 else (62.5 kHz)
                                 * (CAP_1HZ: 16) */
  guint32 frequency;            /* G_FREQUENCY, tuner units; 0 = unknown */
} IvtvTuner;

typedef struct
{
  gchar driver[IVTV_NAME_LEN];
  gchar card[IVTV_NAME_LEN];
  gchar bus_info[IVTV_NAME_LEN];

  guint n_inputs;
  IvtvInput *inputs;
  gint current_input;           /* index from G_INPUT, -1 unknown */

  guint n_audios;
  IvtvAudioInput *audios;
  gint current_audio;           /* index from G_AUDIO, -1 unknown */

  guint n_stds;
  IvtvStandard *stds;
  v4l2_std_id current_std;      /* G_STD, 0 unknown */

  IvtvTuner tuner;              /* tuner of the current input */

  guint n_formats;
  IvtvFormat *formats;          /* V4L2_BUF_TYPE_VIDEO_CAPTURE formats */

  guint n_controls;
  IvtvControl *controls;
} IvtvProbe;

/* Zero-initialise (IvtvProbe p = { 0 } is equivalent, except the -1s). */
void ivtv_probe_init (IvtvProbe * probe);

/* Everything above.  Clears @probe first.  Only fails (FALSE + @error)
 * when the device is not open; missing features give empty lists. */
gboolean ivtv_probe_run (IvtvProbe * probe, IvtvDevice * dev, GError ** error);

/* Individual parts, for re-probing after a change (e.g. the input's status
 * after S_INPUT, the tuner after S_INPUT). Each clears its part first. */
void ivtv_probe_inputs (IvtvProbe * probe, IvtvDevice * dev);
void ivtv_probe_audios (IvtvProbe * probe, IvtvDevice * dev);
void ivtv_probe_standards (IvtvProbe * probe, IvtvDevice * dev);
void ivtv_probe_tuner (IvtvProbe * probe, IvtvDevice * dev);
void ivtv_probe_formats (IvtvProbe * probe, IvtvDevice * dev);
void ivtv_probe_controls (IvtvProbe * probe, IvtvDevice * dev);

/* Free all lists. The struct is reusable after ivtv_probe_init. */
void ivtv_probe_clear (IvtvProbe * probe);

/* Look-ups (NULL when absent). */
const IvtvInput *ivtv_probe_find_input (const IvtvProbe * probe,
    guint32 index);
const IvtvFormat *ivtv_probe_find_format (const IvtvProbe * probe,
    guint32 pixelformat);
const IvtvControl *ivtv_probe_find_control (const IvtvProbe * probe,
    guint32 id);

/* Convert between Hz and tuner units of @tuner (0 when no tuner). */
guint32 ivtv_tuner_hz_to_units (const IvtvTuner * tuner, guint64 hz);
guint64 ivtv_tuner_units_to_hz (const IvtvTuner * tuner, guint32 units);

G_END_DECLS

#endif /* __IVTV_PROBE_H__ */
