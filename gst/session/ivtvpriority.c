/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — owning the card for a recording (see ivtvpriority.h): the
 * V4L2 record priority, the busy checks that come before any setting, and
 * who else has the node open. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvpriority.h"
#include "ivtvdebug.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GST_CAT_DEFAULT ivtv_debug

#define IVTV_MAX_HOLDERS 8

/* This process's captures of a card that took its record priority
 * (IvtvDevice *, added by ivtv_priority_take, removed by
 * ivtv_priority_release), the newest first.  ivtv and cx18 keep one
 * priority state for all the card's nodes (v4l2_device_register ->
 * v4l2_prio_init, v4l2-device.c; __video_register_device points
 * vdev->prio at it when the driver sets none, v4l2-dev.c), and a handle
 * below the highest priority may not change its own (VIDIOC_S_PRIORITY is
 * INFO_FL_PRIO, v4l2_prio_check in v4l2-ioctl.c).  So a second capture of
 * the same application on another node of the card gets the priority
 * handed over (the holder steps down, the newcomer steps up: it sets its
 * input and format with it), and at its release hands it back to the
 * newest capture of the card still open.  The card stays this process's
 * throughout; other programs are refused as before. */
/* ours_lock — the process-wide list `ours` and the hand-over itself: the
 * S_PRIORITY on another capture's fd (the holder's) is issued under it,
 * without that capture's session lock (the driver serialises the ioctls).
 * Taken by a session with its own lock held (take, release); nothing else
 * of ours is taken under it. */
static GMutex ours_lock;
static GList *ours;

/* The command name of process @pid ("?" when it cannot be read). */
static gchar *
process_name (const gchar * pid)
{
  gchar *file = g_build_filename ("/proc", pid, "comm", NULL), *comm = NULL;

  if (!g_file_get_contents (file, &comm, NULL, NULL))
    comm = g_strdup ("?");
  g_strstrip (comm);
  g_free (file);
  return comm;
}

/* Does one of process @pid's descriptors point at @target? */
static gboolean
process_has_open (const gchar * pid, const gchar * target)
{
  gchar *dir = g_build_filename ("/proc", pid, "fd", NULL);
  GDir *d = g_dir_open (dir, 0, NULL);
  const gchar *fd;
  gboolean found = FALSE;

  while (d && !found && (fd = g_dir_read_name (d))) {
    gchar *link = g_build_filename (dir, fd, NULL);
    gchar *to = g_file_read_link (link, NULL);

    found = to && strcmp (to, target) == 0;
    g_free (to);
    g_free (link);
  }
  if (d)
    g_dir_close (d);
  g_free (dir);
  return found;
}

gchar *
ivtv_priority_find_holders (const gchar * path)
{
  gchar *target = realpath (path, NULL), *self;
  GString *s = g_string_new (NULL);
  GDir *proc = g_dir_open ("/proc", 0, NULL);
  const gchar *pid;
  guint n = 0;

  self = g_strdup_printf ("%d", (gint) getpid ());
  while (target && proc && n < IVTV_MAX_HOLDERS
      && (pid = g_dir_read_name (proc))) {
    gchar *comm;

    if (!g_ascii_isdigit (pid[0]) || strcmp (pid, self) == 0
        || !process_has_open (pid, target))
      continue;
    comm = process_name (pid);
    g_string_append_printf (s, "%sPID %s (%s)", n ? ", " : "", pid, comm);
    g_free (comm);
    n++;
  }
  if (proc)
    g_dir_close (proc);
  g_free (self);
  free (target);
  return g_string_free (s, n == 0);
}

static gboolean
same_card (const IvtvDevice * a, const IvtvDevice * b)
{
  return a->cap.bus_info[0] != '\0'
      && strncmp ((const char *) a->cap.bus_info,
      (const char *) b->cap.bus_info, sizeof (a->cap.bus_info)) == 0
      && strncmp ((const char *) a->cap.driver, (const char *) b->cap.driver,
      sizeof (a->cap.driver)) == 0;
}

/* Another open capture of this process on @dev's card (ours_lock held),
 * or NULL. */
static IvtvDevice *
ours_on_card (IvtvDevice * dev)
{
  GList *l;

  for (l = ours; l; l = l->next) {
    IvtvDevice *d = l->data;

    if (d != dev && ivtv_device_is_open (d) && same_card (d, dev))
      return d;
  }
  return NULL;
}

static gint
set_prio (IvtvDevice * dev, enum v4l2_priority prio)
{
  return ivtv_ioctl (dev, VIDIOC_S_PRIORITY, &prio);
}

/* The card's record priority is held by another capture of this process
 * and no other process has @dev's node open (where /proc tells): the
 * holder steps down and @dev takes it.  TRUE when @dev holds it now. */
static gboolean
share_ours (IvtvDevice * dev)
{
  IvtvDevice *holder;
  gchar *others, *from;
  gboolean ok;

  g_mutex_lock (&ours_lock);
  holder = ours_on_card (dev);
  if (holder == NULL) {
    g_mutex_unlock (&ours_lock);
    return FALSE;
  }
  if (!dev->adopted
      && (others = ivtv_priority_find_holders (dev->path)) != NULL) {
    g_mutex_unlock (&ours_lock);
    GST_CAT_DEBUG_OBJECT (ivtv_debug, dev->owner, "%s: open in %s too: "
        "not sharing the record priority", dev->path, others);
    g_free (others);
    return FALSE;
  }
  from = g_strdup (holder->path);
  set_prio (holder, V4L2_PRIORITY_DEFAULT);
  ok = set_prio (dev, V4L2_PRIORITY_RECORD) == 0;
  if (ok)
    ours = g_list_prepend (ours, dev);
  else                          /* another program came in between */
    set_prio (holder, V4L2_PRIORITY_RECORD);
  g_mutex_unlock (&ours_lock);
  GST_CAT_DEBUG_OBJECT (ivtv_debug, dev->owner, "%s: the card's record "
      "priority is held by this process's capture of %s: %s", dev->path,
      from, ok ? "sharing it (handed over)" : "could not take it over");
  g_free (from);
  return ok;
}

/* The one busy error: what holds the card and, where /proc tells, who. */
static void
set_busy (GError ** error, IvtvDevice * dev, const gchar * card,
    const gchar * what)
{
  gchar *who = dev->adopted ? NULL : ivtv_priority_find_holders (dev->path);

  g_set_error (error, IVTV_DEVICE_ERROR, IVTV_DEVICE_ERROR_BUSY,
      _("%s ('%s') is busy: %s%s%s%s. This capture changed nothing on the "
      "card; stop the other program or use another card."), dev->path,
      card, what, who ? " (the node is open in " : "", who ? who : "",
      who ? ")" : "");
  g_free (who);
}

/* The MPEG encoder runs for another reader: cx2341x grabs the stream type
 * control while encoding (ivtv_start_capture -> cx2341x_handler_set_busy),
 * QUERYCTRL shows V4L2_CTRL_FLAG_GRABBED. */
static gboolean
encoder_running (IvtvDevice * dev)
{
  struct v4l2_queryctrl qc;

  memset (&qc, 0, sizeof (qc));
  qc.id = V4L2_CID_MPEG_STREAM_TYPE;
  return ivtv_ioctl (dev, VIDIOC_QUERYCTRL, &qc) == 0
      && (qc.flags & V4L2_CTRL_FLAG_GRABBED);
}

/* Another handle owns the streaming queue (vb2_queue_is_busy: REQBUFS
 * from anyone else is EBUSY; REQBUFS 0 from nobody's queue frees
 * nothing). */
static gboolean
queue_owned_elsewhere (IvtvDevice * dev)
{
  struct v4l2_requestbuffers rb;

  if (!ivtv_device_has_cap (dev, V4L2_CAP_STREAMING))
    return FALSE;
  memset (&rb, 0, sizeof (rb));
  rb.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  rb.memory = V4L2_MEMORY_MMAP;
  return ivtv_ioctl (dev, VIDIOC_REQBUFS, &rb) == -EBUSY;
}

gboolean
ivtv_priority_take (IvtvDevice * dev, const gchar * card, gboolean record,
    gboolean encoder_ours, gboolean * held, GError ** error)
{
  enum v4l2_priority prio = V4L2_PRIORITY_UNSET;
  int ret;

  if (*held)                    /* ours already (READY -> PAUSED took it) */
    return TRUE;
  if (ivtv_ioctl (dev, VIDIOC_G_PRIORITY, &prio) == 0
      && prio == V4L2_PRIORITY_RECORD) {
    if (share_ours (dev))
      return (*held = TRUE);
    set_busy (error, dev, card, "another program is recording from it (it "
        "holds the card's record priority)");
    return FALSE;
  }
  if (!encoder_ours && encoder_running (dev)) {
    set_busy (error, dev, card, "its MPEG encoder is running for another "
        "program");
    return FALSE;
  }
  if (queue_owned_elsewhere (dev)) {
    set_busy (error, dev, card, "another program is streaming from it");
    return FALSE;
  }
  if (!record)                  /* record-priority=false: checks only */
    return TRUE;
  prio = V4L2_PRIORITY_RECORD;
  ret = ivtv_ioctl (dev, VIDIOC_S_PRIORITY, &prio);
  if (ret == -EBUSY) {          /* taken between the two calls */
    if (share_ours (dev))
      return (*held = TRUE);
    set_busy (error, dev, card, "another program is recording from it (it "
        "holds the card's record priority)");
    return FALSE;
  }
  *held = ret == 0;
  if (*held) {
    g_mutex_lock (&ours_lock);
    if (!g_list_find (ours, dev))
      ours = g_list_prepend (ours, dev);
    g_mutex_unlock (&ours_lock);
  }
  GST_CAT_DEBUG_OBJECT (ivtv_debug, dev->owner, "%s: record priority %s",
      dev->path, *held ? "held" : g_strerror (-ret));
  return TRUE;
}

void
ivtv_priority_release (IvtvDevice * dev, gboolean * held)
{
  IvtvDevice *next;

  g_mutex_lock (&ours_lock);
  ours = g_list_remove (ours, dev);
  next = ours_on_card (dev);
  if (*held && ivtv_device_is_open (dev))
    set_prio (dev, V4L2_PRIORITY_DEFAULT);
  if (*held && next && set_prio (next, V4L2_PRIORITY_RECORD) == 0)
    GST_CAT_DEBUG_OBJECT (ivtv_debug, dev->owner, "%s: the card's record "
        "priority handed back to this process's capture of %s", dev->path,
        next->path);
  g_mutex_unlock (&ours_lock);
  *held = FALSE;
}
