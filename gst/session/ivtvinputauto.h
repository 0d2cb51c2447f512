/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — `input=auto`: the first video input that reports a signal
 * (see ivtvinputauto.c for the order and the settle time). */
#ifndef __IVTV_INPUT_AUTO_H__
#define __IVTV_INPUT_AUTO_H__

#include "ivtvdevice.h"
#include "ivtvprobe.h"

G_BEGIN_DECLS

/* Time an input gets to show a signal after the switch, milliseconds. */
#define IVTV_INPUT_AUTO_SETTLE_MS 500

/* TRUE when the user's input name is "auto" (any case). */
gboolean ivtv_input_is_auto (const gchar * name);

/* Switch to the first input with a signal, re-probing what depends on the
 * input.  FALSE with an IVTV_SETTINGS_ERROR (NO_SIGNAL: every input and
 * its status in the message; UNSUPPORTED: no inputs); the card is then
 * back on the input it was on. */
gboolean ivtv_input_auto_select (IvtvDevice * dev, IvtvProbe * probe,
    guint settle_ms, GError ** error);

G_END_DECLS

#endif /* __IVTV_INPUT_AUTO_H__ */
