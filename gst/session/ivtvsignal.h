/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the signal watch: is there a picture on the input?
 *
 * IvtvSignal runs a private thread that, at start and then about once a
 * second while capturing, reads the current input's status (VIDIOC_G_INPUT
 * + VIDIOC_ENUMINPUT status bits; VIDIOC_G_TUNER's signal strength for a
 * tuner input) — never on the streaming hot path.  It posts an element
 * message "ivtvsrc-signal" (fields present: boolean, input: string,
 * locked: boolean) on the
 * first check and on every change, a GST_ELEMENT_WARNING with a hint when
 * there is no signal, and after signal-timeout seconds without signal it
 * sends EOS to the element (so the recording ends by itself and the file
 * is complete).  ivtv_signal_wait_present() holds the first buffer until a
 * signal is present (wait-for-signal).
 *
 * It also watches the TV standard (VIDIOC_G_STD): a standard that changes
 * under a recording on the same input, not by a setting of ours (the
 * probe's current_std, which ivtvsettings keeps), is a recording that
 * mixes two standards (an NTSC tape going on in PAL): a warning and an
 * element message "ivtvsrc-standard-changed" (fields input, from, to:
 * v4l2-ctl's names) that ivtv-capture can record as an event.
 */
#ifndef __IVTV_SIGNAL_H__
#define __IVTV_SIGNAL_H__

#include <gst/gst.h>
#include "ivtvdevice.h"
#include "ivtvprobe.h"

G_BEGIN_DECLS

typedef struct
{
  GstElement *element;          /* not a reference */
  IvtvDevice *dev;              /* the session's; ioctls under dev_lock */
  const IvtvProbe *probe;       /* the session's (current_std), dev_lock */
  GMutex *dev_lock;
  guint timeout;                /* signal-timeout in seconds, 0 = off */

  GThread *thread;
  /* lock — the fields below (the watch thread writes them; the reader
   * thread's stats, wait_present on the streaming thread and stop read or
   * set them).  Rule: never held together with dev_lock (a check takes
   * dev_lock for its ioctls, drops it, then takes lock), nor across a
   * message post.  cond: broadcast after each check and at stop; waited
   * on by the watch thread only (its period, cut short by stop);
   * wait_present looks at `present` in steps of the session's poll. */
  GMutex lock;
  GCond cond;
  gboolean running;
  gboolean checked;             /* at least one check done */
  gboolean present;
  gboolean locked;              /* present and the card locks on it */
  gboolean eos_sent;
  gboolean holding;             /* wait-for-signal: nothing recorded until
                                 * a signal comes (set before start) */
  gint64 lost_since;            /* monotonic us, or 0 */
  gchar *input;                 /* name of the current input */
  v4l2_std_id std;              /* G_STD at the last check, 0 unknown */
} IvtvSignal;

void ivtv_signal_init (IvtvSignal * s);
void ivtv_signal_clear (IvtvSignal * s);

/* Check once now, then start the watch thread; every check takes
 * @dev_lock itself, so call it without holding it.  @timeout: seconds
 * without signal before EOS (0 = never). */
void ivtv_signal_start (IvtvSignal * s, GstElement * element,
    IvtvDevice * dev, const IvtvProbe * probe, GMutex * dev_lock,
    guint timeout);

/* Stop and join the thread; call without holding dev_lock. */
void ivtv_signal_stop (IvtvSignal * s);

/* Block until a signal is present (TRUE) or @poll is set flushing / the
 * watch stopped (FALSE).  @poll is waited on in steps so flushing wakes
 * it. */
gboolean ivtv_signal_wait_present (IvtvSignal * s, GstPoll * poll);

/* Read the status now (caller holds the device lock).  TRUE when the
 * input has a signal (or its status cannot be read); *name gets the
 * input's name (g_free) when not NULL; *locked (when not NULL) is FALSE
 * when a signal is there but the card has no horizontal/vertical lock or
 * sync on it (a wrong standard, a damaged tape). */
gboolean ivtv_signal_query (IvtvDevice * dev, gchar ** name,
    gboolean * locked);

G_END_DECLS

#endif /* __IVTV_SIGNAL_H__ */
