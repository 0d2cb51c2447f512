/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — v4l2src's property names, so scripts and applications written
 * for v4l2src run on ivtvsrc unchanged (README.md has the whole table):
 *   norm                v4l2src's enum (same values, same nicks: "PAL",
 *                       "NTSC-M", ...) onto the "standard" property;
 *   brightness, contrast, saturation, hue
 *                       the card's controls, through the element's one
 *                       control call (recorded as extra-controls entries:
 *                       set at start, at once while open, again after a
 *                       reconnect); read back from the card while open;
 *   pixel-aspect-ratio  "N/D" replaces the device's pixel aspect ratio in
 *                       the raw and JPEG caps (a bad value: one warning,
 *                       the device's is kept);
 *   device-fd           reads back the descriptor in use while the device
 *                       is open (as v4l2src's), the value set otherwise.
 * io-mode needs nothing here: its enum has v4l2src's nicks
 * (ivtviomode.h).  The element's property table holds these; this file
 * only translates (no element, no device). */
#ifndef __IVTV_DROPIN_H__
#define __IVTV_DROPIN_H__

#include <gst/gst.h>
#include <linux/videodev2.h>

G_BEGIN_DECLS

enum
{
  IVTV_DROPIN_NORM,
  IVTV_DROPIN_BRIGHTNESS,
  IVTV_DROPIN_CONTRAST,
  IVTV_DROPIN_SATURATION,
  IVTV_DROPIN_HUE,
  IVTV_DROPIN_PAR,
  IVTV_DROPIN_N_PROPS
};

#define IVTV_TYPE_TV_NORM (ivtv_tv_norm_get_type ())
GType ivtv_tv_norm_get_type (void);

/* The GParamSpecs, by IVTV_DROPIN_* (the element's table installs them). */
void ivtv_dropin_param_specs (GParamSpec * specs[IVTV_DROPIN_N_PROPS]);

/* norm=N as a "standard" value (g_free; NULL for none), and back (0 when
 * the standard is none of the enum's: auto, several, unset). */
gchar *ivtv_dropin_norm_to_standard (gint norm);
gint ivtv_dropin_standard_to_norm (const gchar * standard);

/* IVTV_DROPIN_BRIGHTNESS .. HUE: the control's v4l2-ctl name and CID. */
const gchar *ivtv_dropin_colour_name (guint prop);
guint32 ivtv_dropin_colour_cid (guint prop);

/* @caps (taken) with pixel-aspect-ratio @par ("N/D", NULL: unchanged);
 * *bad when @par is not such a fraction (caps unchanged). */
GstCaps *ivtv_dropin_fix_caps (GstCaps * caps, const gchar * par,
    gboolean * bad);

G_END_DECLS

#endif /* __IVTV_DROPIN_H__ */
