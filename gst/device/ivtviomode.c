/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the io-mode enum and the I/O method choice (see ivtviomode.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtviomode.h"

#include <linux/videodev2.h>

GType
ivtv_io_mode_get_type (void)
{
  static gsize id = 0;
  static const GEnumValue values[] = {
    {IVTV_IO_AUTO, "Choose: mmap streaming if possible, else read()",
        "auto"},
    {IVTV_IO_RW, "read() (the only method of ivtv MPEG encoders)", "rw"},
    {IVTV_IO_MMAP, "Streaming with mmap'd driver buffers", "mmap"},
    {IVTV_IO_USERPTR, "Streaming into buffers we allocate (userptr)",
        "userptr"},
    {IVTV_IO_DMABUF, "Streaming with driver buffers exported as dmabuf",
        "dmabuf"},
    {IVTV_IO_DMABUF_IMPORT, "v4l2src's capture into downstream's dmabufs: "
          "not supported (an error at start)", "dmabuf-import"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&id)) {
    GType t = g_enum_register_static ("GstIvtvIoMode", values);
    g_once_init_leave (&id, t);
  }
  return id;
}

const gchar *
ivtv_io_mode_nick (IvtvIoMode mode)
{
  switch (mode) {
    case IVTV_IO_AUTO:
      return "auto";
    case IVTV_IO_RW:
      return "rw";
    case IVTV_IO_MMAP:
      return "mmap";
    case IVTV_IO_USERPTR:
      return "userptr";
    case IVTV_IO_DMABUF:
      return "dmabuf";
    case IVTV_IO_DMABUF_IMPORT:
      return "dmabuf-import";
  }
  return "unknown";
}

gchar *
ivtv_io_mode_describe (guint32 caps, guint modes)
{
  GString *s = g_string_new (NULL);
  IvtvIoMode m;

  if (caps & V4L2_CAP_READWRITE)
    g_string_append (s, "rw");
  if (caps & V4L2_CAP_STREAMING) {
    for (m = IVTV_IO_MMAP; m <= IVTV_IO_DMABUF; m++)
      if (modes & IVTV_IO_BIT (m))
        g_string_append_printf (s, "%s%s", s->len ? ", " : "",
            ivtv_io_mode_nick (m));
  }
  if (s->len == 0)
    g_string_append (s, "none");
  return g_string_free (s, FALSE);
}

gboolean
ivtv_io_mode_choose (IvtvIoMode requested, guint32 caps, guint modes,
    const gchar * device, IvtvIoMode * chosen, GError ** error)
{
  gboolean rw = (caps & V4L2_CAP_READWRITE) != 0;
  gboolean streaming = (caps & V4L2_CAP_STREAMING) != 0;
  gchar *offers;
  IvtvIoMode m;

  if (!streaming)
    modes = 0;

  switch (requested) {
    case IVTV_IO_AUTO:
      if (modes & IVTV_IO_BIT (IVTV_IO_MMAP)) {
        *chosen = IVTV_IO_MMAP;
        return TRUE;
      }
      if (rw) {
        *chosen = IVTV_IO_RW;
        return TRUE;
      }
      for (m = IVTV_IO_USERPTR; m <= IVTV_IO_DMABUF; m++)
        if (modes & IVTV_IO_BIT (m)) {
          *chosen = m;
          return TRUE;
        }
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
          _("%s offers no I/O method ivtvsrc can use (%s)"), device,
          streaming ? "streaming is advertised but the driver accepts no "
          "buffers" : "neither read() nor streaming");
      return FALSE;
    case IVTV_IO_RW:
      if (rw) {
        *chosen = IVTV_IO_RW;
        return TRUE;
      }
      break;
    case IVTV_IO_MMAP:
    case IVTV_IO_USERPTR:
    case IVTV_IO_DMABUF:
      if (modes & IVTV_IO_BIT (requested)) {
        *chosen = requested;
        return TRUE;
      }
      break;
    case IVTV_IO_DMABUF_IMPORT:
      offers = ivtv_io_mode_describe (caps, modes);
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
          _("ivtvsrc cannot capture with io-mode=dmabuf-import (into "
          "downstream's dmabufs); %s can do: %s (io-mode=dmabuf exports the "
          "driver's buffers as dmabuf)"), device, offers);
      g_free (offers);
      return FALSE;
  }

  offers = ivtv_io_mode_describe (caps, modes);
  g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
      _("%s cannot capture with io-mode=%s%s. It can do: %s (use io-mode=auto "
      "to choose automatically)"), device, ivtv_io_mode_nick (requested),
      requested == IVTV_IO_RW ? " (the driver has no read() support)" :
      !streaming ? " (the driver has no streaming I/O)" : "", offers);
  g_free (offers);
  return FALSE;
}

gboolean
ivtv_io_mode_can_fall_back (IvtvIoMode requested, guint32 caps)
{
  return requested == IVTV_IO_AUTO && (caps & V4L2_CAP_READWRITE);
}
