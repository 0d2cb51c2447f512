/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — v4l2src's property names, so scripts and applications written
 * for v4l2src run on ivtvsrc unchanged (README.md has the whole table):
 *   norm                v4l2src's enum (same values, same nicks: "PAL",
 *                       "NTSC-M", ...) onto the "standard" property;
 *   brightness, contrast, saturation, hue
 *                       the card's controls, through "extra-controls" (set
 *                       at start, at once while capturing); read back from
 *                       the card while it is open;
 *   pixel-aspect-ratio  "N/D" replaces the device's pixel aspect ratio in
 *                       the raw and JPEG caps (a bad value: one warning,
 *                       the device's is kept);
 *   device-fd           reads back the descriptor in use while the device
 *                       is open (as v4l2src's), the value set otherwise.
 * io-mode needs nothing here: its enum has v4l2src's nicks
 * (ivtviomode.h).  The element hooks these in with one line each. */
#ifndef __IVTV_DROPIN_H__
#define __IVTV_DROPIN_H__

#include <gst/gst.h>
#include "ivtvcapture.h"

G_BEGIN_DECLS

#define IVTV_TYPE_TV_NORM (ivtv_tv_norm_get_type ())
GType ivtv_tv_norm_get_type (void);

/* Installs norm, brightness, contrast, saturation, hue and
 * pixel-aspect-ratio with ids first_id, first_id + 1, ... */
void ivtv_dropin_install_properties (GObjectClass * klass, guint first_id);

/* Per element: the session it reads the card through (not owned). */
void ivtv_dropin_attach (GObject * element, IvtvCapture * cap);

/* The session given to ivtv_dropin_attach (for ivtvorientation.c). */
IvtvCapture *ivtv_dropin_capture (GObject * element);

/* TRUE when the property is one of ours (handled); call before taking
 * the object lock.  get also answers device-fd while the device is open. */
gboolean ivtv_dropin_set_property (GObject * element, guint prop_id,
    const GValue * value, GParamSpec * pspec);
gboolean ivtv_dropin_get_property (GObject * element, guint prop_id,
    GValue * value, GParamSpec * pspec);

/* @caps (taken) with pixel-aspect-ratio set as the property asks. */
GstCaps *ivtv_dropin_fix_caps (GObject * element, GstCaps * caps);

G_END_DECLS

#endif /* __IVTV_DROPIN_H__ */
