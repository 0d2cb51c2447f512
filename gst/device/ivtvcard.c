/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — a node's kind and role, its card's other nodes, its ALSA
 * capture device (see ivtvcard.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvcard.h"

#include <stdlib.h>
#include <string.h>

#define MAX_FORMATS 64

/* The pixel formats of @dev's capture queue (ENUM_FMT), at most MAX_FORMATS */
static guint
enum_formats (IvtvDevice * dev, guint32 * fourcc)
{
  struct v4l2_fmtdesc f;
  guint n;

  for (n = 0; n < MAX_FORMATS; n++) {
    memset (&f, 0, sizeof (f));
    f.index = n;
    f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (ivtv_ioctl (dev, VIDIOC_ENUM_FMT, &f) < 0)
      break;
    fourcc[n] = f.pixelformat;
  }
  return n;
}

IvtvNodeKind
ivtv_card_node_kind (IvtvDevice * dev, const IvtvProbe * p)
{
  guint32 fourcc[MAX_FORMATS];
  guint i, n, mpeg = 0, hm12 = 0;

  if ((dev->device_caps & (V4L2_CAP_VBI_CAPTURE | V4L2_CAP_SLICED_VBI_CAPTURE))
      && !(dev->device_caps & V4L2_CAP_VIDEO_CAPTURE))
    return IVTV_NODE_VBI;
  if (ivtv_device_is_pcm (dev))
    return IVTV_NODE_PCM;
  if (!(dev->device_caps & V4L2_CAP_VIDEO_CAPTURE)
      && (dev->device_caps & V4L2_CAP_RADIO))
    return IVTV_NODE_RADIO;
  if (p != NULL) {
    n = MIN (p->n_formats, MAX_FORMATS);
    for (i = 0; i < n; i++)
      fourcc[i] = p->formats[i].pixelformat;
  } else {
    n = enum_formats (dev, fourcc);
  }
  for (i = 0; i < n; i++) {
    mpeg += fourcc[i] == V4L2_PIX_FMT_MPEG;
    hm12 += fourcc[i] == V4L2_PIX_FMT_HM12;
  }
  if (n > 0 && mpeg == n)
    return IVTV_NODE_MPEG;
  if (n > 0 && hm12 == n)
    return IVTV_NODE_HM12;
  return IVTV_NODE_RAW;
}

const gchar *
ivtv_card_kind_role (IvtvNodeKind kind)
{
  switch (kind) {
    case IVTV_NODE_MPEG:
      return "mpeg";
    case IVTV_NODE_RAW:
    case IVTV_NODE_HM12:
      return "raw-video";
    case IVTV_NODE_PCM:
      return "audio";
    case IVTV_NODE_VBI:
      return "vbi";
    case IVTV_NODE_RADIO:
      return "radio";
    default:
      return "other";
  }
}

#define SAME_FIELD(a, b, f) \
  (strncmp ((const gchar *) (a)->f, (const gchar *) (b)->f, \
      sizeof ((a)->f)) == 0)

/* The role of a node just opened (open: a capture node) or refused. */
static const gchar *
node_role (IvtvDevice * d, gboolean open)
{
  guint32 caps = (d->cap.capabilities & V4L2_CAP_DEVICE_CAPS) ?
      d->cap.device_caps : d->cap.capabilities;

  if (!open)
    return (caps & V4L2_CAP_RADIO) ? "radio" : "other";
  return ivtv_card_kind_role (ivtv_card_node_kind (d, NULL));
}

gchar *
ivtv_card_find_node (const struct v4l2_capability *card, const gchar * skip,
    IvtvCardVisit visit, gpointer data)
{
  static const struct
  {
    const gchar *prefix;
    guint n;
  } kinds[] = { {"/dev/video", 64}, {"/dev/vbi", 32}, {"/dev/radio", 32} };
  gchar *found = NULL;
  IvtvDevice d;
  guint k, i;

  ivtv_device_init (&d, NULL);
  for (k = 0; k < G_N_ELEMENTS (kinds) && found == NULL; k++)
    for (i = 0; i < kinds[k].n && found == NULL; i++) {
      gchar *path = g_strdup_printf ("%s%u", kinds[k].prefix, i);
      gboolean open;

      /* QUERYCAP fills d.cap even when the node is no capture node */
      memset (&d.cap, 0, sizeof (d.cap));
      open = ivtv_device_open (&d, path, TRUE, NULL);
      if (d.cap.driver[0] && g_strcmp0 (path, skip) != 0
          && SAME_FIELD (&d.cap, card, driver)
          && SAME_FIELD (&d.cap, card, bus_info)
          && visit (path, &d.cap, node_role (&d, open), data))
        found = g_strdup (path);
      ivtv_device_close (&d);
      g_free (path);
    }
  ivtv_device_clear (&d);
  return found;
}

/* every node: "a,b,c" */
static gboolean
append_sibling (const gchar * path, const struct v4l2_capability *cap,
    const gchar * role, gpointer data)
{
  GString *s = data;

  (void) cap;
  (void) role;
  g_string_append_printf (s, "%s%s", s->len ? "," : "", path);
  return FALSE;
}

gchar *
ivtv_card_siblings (const IvtvDevice * dev)
{
  GString *s = g_string_new (NULL);

  g_free (ivtv_card_find_node (&dev->cap, dev->path, append_sibling, s));
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
  if (!is_usb_interface (video_dev))
    return FALSE;
  a = g_path_get_dirname (video_dev);
  if (strcmp (a, sound_dev) == 0) {
    /* the sound card on the USB device itself, the video node on one of
     * its interfaces: usbtv (usbtv-audio.c usbtv_audio_init,
     * snd_card_new (&usbtv->udev->dev, ...)) */
    g_free (a);
    return TRUE;
  }
  if (!is_usb_interface (sound_dev)) {
    g_free (a);
    return FALSE;
  }
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
