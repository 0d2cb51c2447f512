/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — a node's role, its card's other nodes, its ALSA capture device
 * (see ivtvcard.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvcard.h"
#include "ivtvpcm.h"

#include <stdlib.h>
#include <string.h>

const gchar *
ivtv_card_role (const IvtvDevice * dev, const IvtvProbe * p)
{
  if (ivtv_pcm_is_node (dev))
    return "audio";
  if (!(dev->device_caps & V4L2_CAP_VIDEO_CAPTURE)
      && (dev->device_caps & (V4L2_CAP_VBI_CAPTURE |
              V4L2_CAP_SLICED_VBI_CAPTURE)))
    return "vbi";
  if (p != NULL && ivtv_probe_find_format (p, V4L2_PIX_FMT_MPEG))
    return "mpeg";
  return "raw-video";
}

static gboolean
same_card (const IvtvDevice * a, const IvtvDevice * b)
{
  return strncmp ((const gchar *) a->cap.driver, (const gchar *) b->cap.driver,
      sizeof (a->cap.driver)) == 0
      && strncmp ((const gchar *) a->cap.bus_info,
      (const gchar *) b->cap.bus_info, sizeof (a->cap.bus_info)) == 0;
}

gchar *
ivtv_card_siblings (const IvtvDevice * dev)
{
  static const struct
  {
    const gchar *prefix;
    guint n;
  } kinds[] = { {"/dev/video", 64}, {"/dev/vbi", 32}, {"/dev/radio", 32} };
  GString *s = g_string_new (NULL);
  IvtvDevice d;
  guint k, i;

  ivtv_device_init (&d, NULL);
  for (k = 0; k < G_N_ELEMENTS (kinds); k++)
    for (i = 0; i < kinds[k].n; i++) {
      gchar *path = g_strdup_printf ("%s%u", kinds[k].prefix, i);

      /* QUERYCAP fills d.cap even when the node is no capture node */
      memset (&d.cap, 0, sizeof (d.cap));
      ivtv_device_open (&d, path, TRUE, NULL);
      ivtv_device_close (&d);
      if (d.cap.driver[0] && g_strcmp0 (path, dev->path) != 0
          && same_card (&d, dev))
        g_string_append_printf (s, "%s%s", s->len ? "," : "", path);
      g_free (path);
    }
  ivtv_device_clear (&d);
  return g_string_free (s, FALSE);
}

/* a USB interface's sysfs name: "1-2:1.0" (bus-port:config.interface) */
static gboolean
is_usb_interface (const gchar * dir)
{
  gchar *base = g_path_get_basename (dir);
  gboolean usb = g_ascii_isdigit (base[0]) && strchr (base, '-') != NULL
      && strchr (base, ':') != NULL && !g_str_has_prefix (base, "0000:");

  g_free (base);
  return usb;
}

static gboolean
same_parent (const gchar * video_dev, const gchar * sound_dev)
{
  gchar *a, *b;
  gboolean same;

  if (strcmp (video_dev, sound_dev) == 0)
    return TRUE;                /* one PCI function (ivtv-alsa, cx18-alsa) */
  if (!is_usb_interface (video_dev) || !is_usb_interface (sound_dev))
    return FALSE;
  a = g_path_get_dirname (video_dev);
  b = g_path_get_dirname (sound_dev);
  same = strcmp (a, b) == 0;    /* interfaces of one USB device */
  g_free (a);
  g_free (b);
  return same;
}

/* "hw:CARD=ID" when sysfs card directory @card has a capture PCM */
static gchar *
alsa_capture_name (const gchar * card)
{
  GDir *dir = g_dir_open (card, 0, NULL);
  const gchar *e;
  gboolean capture = FALSE;
  gchar *id_path, *id = NULL, *name = NULL;

  while (dir && (e = g_dir_read_name (dir)) != NULL)
    capture |= g_str_has_prefix (e, "pcmC") && g_str_has_suffix (e, "c");
  if (dir)
    g_dir_close (dir);
  id_path = g_build_filename (card, "id", NULL);
  if (capture && g_file_get_contents (id_path, &id, NULL, NULL))
    name = g_strdup_printf ("hw:CARD=%s", g_strstrip (id));
  g_free (id_path);
  g_free (id);
  return name;
}

gchar *
ivtv_card_alsa_device (const gchar * node_path)
{
  const gchar *root = g_getenv ("IVTV_SYSFS");
  gchar *base, *link, *video_dev, *classdir, *found = NULL;
  GDir *dir;
  const gchar *e;

  if (root == NULL || *root == '\0')
    root = "/sys";
  base = g_path_get_basename (node_path);
  link = g_build_filename (root, "class", "video4linux", base, "device", NULL);
  video_dev = realpath (link, NULL);
  classdir = g_build_filename (root, "class", "sound", NULL);
  dir = video_dev ? g_dir_open (classdir, 0, NULL) : NULL;
  while (dir && found == NULL && (e = g_dir_read_name (dir)) != NULL) {
    gchar *card, *dev_link, *sound_dev;

    if (!g_str_has_prefix (e, "card"))
      continue;
    card = g_build_filename (classdir, e, NULL);
    dev_link = g_build_filename (card, "device", NULL);
    sound_dev = realpath (dev_link, NULL);
    if (sound_dev && same_parent (video_dev, sound_dev))
      found = alsa_capture_name (card);
    free (sound_dev);
    g_free (dev_link);
    g_free (card);
  }
  if (dir)
    g_dir_close (dir);
  free (video_dev);
  g_free (classdir);
  g_free (link);
  g_free (base);
  return found;
}
