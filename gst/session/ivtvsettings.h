/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the card's settings as the user names them: video input, TV
 * standard (including "auto" via QUERYSTD), audio input and tuner
 * frequency.  (V4L2 controls are ivtvencoder's: the named ones,
 * extra-controls, and one at a time from the element's interfaces through
 * ivtv_capture_set_control.)
 *
 * Each setter resolves the user's text against the probed card (fuzzy
 * names from ivtvnames), issues the ioctl through the device layer,
 * updates the probe (current input/std/tuner) and on failure returns a
 * GError (IVTV_SETTINGS_ERROR) whose message a person understands: an
 * unknown or ambiguous name lists what the card offers; a standard change
 * the driver refuses while capturing is IVTV_SETTINGS_ERROR_BUSY (ivtv
 * answers EBUSY while encoding), which the capture session reports as a
 * warning.
 */
#ifndef __IVTV_SETTINGS_H__
#define __IVTV_SETTINGS_H__

#include "ivtvdevice.h"
#include "ivtvprobe.h"

G_BEGIN_DECLS

typedef enum
{
  IVTV_SETTINGS_ERROR_FAILED,   /* the driver refused (message says why) */
  IVTV_SETTINGS_ERROR_UNKNOWN,  /* no such input/standard; lists them */
  IVTV_SETTINGS_ERROR_AMBIGUOUS,        /* name fits several; lists them */
  IVTV_SETTINGS_ERROR_UNSUPPORTED,      /* the card has no inputs/std/tuner */
  IVTV_SETTINGS_ERROR_BUSY,     /* EBUSY: not now (capturing) */
  IVTV_SETTINGS_ERROR_NO_SIGNAL,        /* standard=auto found nothing */
  IVTV_SETTINGS_ERROR_RANGE     /* frequency out of the tuner's range */
} IvtvSettingsError;

#define IVTV_SETTINGS_ERROR (ivtv_settings_error_quark ())
GQuark ivtv_settings_error_quark (void);

/* Index of the input @name means, or -1 with @error (UNKNOWN/AMBIGUOUS). */
gint ivtv_settings_find_input (const IvtvProbe * probe, const gchar * name,
    GError ** error);
gint ivtv_settings_find_audio (const IvtvProbe * probe, const gchar * name,
    GError ** error);

/* S_INPUT to the input @name means (no-op when it is current already),
 * then re-probes inputs (status) and the tuner. */
gboolean ivtv_settings_set_input (IvtvDevice * dev, IvtvProbe * probe,
    const gchar * name, GError ** error);

/* S_AUDIO. */
gboolean ivtv_settings_set_audio (IvtvDevice * dev, IvtvProbe * probe,
    const gchar * name, GError ** error);

/* Resolve a standard name to an id the card supports: the card's own
 * ENUMSTD names first, then v4l2-ctl's short names (ivtvnames).  "auto"
 * gives 0 with *is_auto.  FALSE with @error (UNKNOWN lists the card's). */
gboolean ivtv_settings_resolve_std (const IvtvProbe * probe,
    const gchar * name, v4l2_std_id * id, gboolean * is_auto,
    GError ** error);

/* S_STD to @name ("auto": QUERYSTD first; NO_SIGNAL when it detects
 * nothing).  No-op when the standard is already set.  BUSY when the
 * driver refuses because it is capturing. */
gboolean ivtv_settings_set_std (IvtvDevice * dev, IvtvProbe * probe,
    const gchar * name, GError ** error);

/* S_FREQUENCY on the current input's tuner, @hz in Hz. */
gboolean ivtv_settings_set_frequency (IvtvDevice * dev, IvtvProbe * probe,
    guint64 hz, GError ** error);

/* Resolve the names the user gave (any may be NULL) without touching the
 * device: FALSE with @error (UNKNOWN/AMBIGUOUS, listing what the card
 * has) for the first one that does not fit. */
gboolean ivtv_settings_check_names (const IvtvProbe * probe,
    const gchar * input, const gchar * standard, const gchar * audio,
    GError ** error);

/* Names for the read-only properties (NULL-terminated, g_strfreev). */
gchar **ivtv_settings_input_names (const IvtvProbe * probe);
gchar **ivtv_settings_std_names (const IvtvProbe * probe);

/* "'NTSC-M' (ntsc-m), 'PAL-BG' (pal-bg), ..." for messages; g_free. */
gchar *ivtv_settings_describe_stds (const IvtvProbe * probe);

G_END_DECLS

#endif /* __IVTV_SETTINGS_H__ */
