/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the device layer: the fd, the libc/libv4l2 I/O table, the
 * named ioctl helper and classified open failures (see ivtvdevice.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvdevice.h"
#include "ivtvdebug.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#if HAVE_LIBV4L2
#include <libv4l2.h>
#endif

#define GST_CAT_DEFAULT ivtv_debug

GQuark
ivtv_device_error_quark (void)
{
  return g_quark_from_static_string ("ivtv-device-error-quark");
}

GstResourceError
ivtv_device_error_resource (const GError * err)
{
  static const GstResourceError code[] = {
    [IVTV_DEVICE_ERROR_NOT_FOUND] = GST_RESOURCE_ERROR_NOT_FOUND,
    [IVTV_DEVICE_ERROR_BUSY] = GST_RESOURCE_ERROR_BUSY,
    [IVTV_DEVICE_ERROR_NOT_CHAR_DEVICE] = GST_RESOURCE_ERROR_SETTINGS,
    [IVTV_DEVICE_ERROR_NOT_V4L2] = GST_RESOURCE_ERROR_SETTINGS,
    [IVTV_DEVICE_ERROR_NO_CAPTURE] = GST_RESOURCE_ERROR_SETTINGS,
    [IVTV_DEVICE_ERROR_BAD_FD] = GST_RESOURCE_ERROR_SETTINGS,
  };

  if (err->domain == IVTV_DEVICE_ERROR && err->code >= 0
      && err->code < (gint) G_N_ELEMENTS (code) && code[err->code] != 0)
    return code[err->code];
  return GST_RESOURCE_ERROR_OPEN_READ_WRITE;
}

/* ---- the libc table ---- */

static int
libc_open (const char *path, int flags)
{
  return open (path, flags);
}

static int
libc_ioctl (int fd, unsigned long request, void *arg)
{
  return ioctl (fd, request, arg);
}

static void *
libc_mmap (void *addr, size_t len, int prot, int flags, int fd, gint64 off)
{
  return mmap (addr, len, prot, flags, fd, (off_t) off);
}

const IvtvIoFuncs ivtv_io_libc = {
  "libc", libc_open, close, dup, libc_ioctl, read, libc_mmap, munmap
};

/* ---- the libv4l2 table (a build without libv4l2 has libc only) ---- */

#if HAVE_LIBV4L2

static int
lib_open (const char *path, int flags)
{
  return v4l2_open (path, flags);
}

static int
lib_ioctl (int fd, unsigned long request, void *arg)
{
  return v4l2_ioctl (fd, request, arg);
}

static void *
lib_mmap (void *addr, size_t len, int prot, int flags, int fd, gint64 off)
{
  return v4l2_mmap (addr, len, prot, flags, fd, off);
}

const IvtvIoFuncs ivtv_io_libv4l2 = {
  "libv4l2", lib_open, v4l2_close, v4l2_dup, lib_ioctl, v4l2_read,
  lib_mmap, v4l2_munmap
};
#endif

void
ivtv_device_init (IvtvDevice * dev, GstObject * owner)
{
  ivtv_debug_init ();
  memset (dev, 0, sizeof (*dev));
  dev->fd = -1;
  dev->io = &ivtv_io_libc;
  dev->owner = owner;
}

int
ivtv_device_named_ioctl (IvtvDevice * dev, const char *name,
    unsigned long request, void *arg)
{
  int ret;

  if (dev->fd < 0) {
    GST_CAT_LOG_OBJECT (ivtv_debug, dev->owner, "%s: device not open", name);
    return -EBADF;
  }

  do {
    ret = dev->io->ioctl (dev->fd, request, arg);
  } while (ret < 0 && errno == EINTR);

  if (ret < 0) {
    int err = errno ? errno : EIO;
    GST_CAT_LOG_OBJECT (ivtv_debug, dev->owner, "%s: %s", name,
        g_strerror (err));
    return -err;
  }
  GST_CAT_LOG_OBJECT (ivtv_debug, dev->owner, "%s: ok", name);
  return 0;
}

gboolean
ivtv_device_get_control (IvtvDevice * dev, guint32 id, gint64 * value)
{
  struct v4l2_ext_control c;
  struct v4l2_ext_controls cs;
  struct v4l2_control old;

  memset (&c, 0, sizeof (c));
  memset (&cs, 0, sizeof (cs));
  c.id = id;
  cs.ctrl_class = V4L2_CTRL_ID2CLASS (id);
  cs.count = 1;
  cs.controls = &c;
  if (ivtv_ioctl (dev, VIDIOC_G_EXT_CTRLS, &cs) == 0) {
    *value = c.value;
    return TRUE;
  }
  memset (&old, 0, sizeof (old));
  old.id = id;
  if (ivtv_ioctl (dev, VIDIOC_G_CTRL, &old) == 0) {
    *value = old.value;
    return TRUE;
  }
  return FALSE;
}

int
ivtv_device_get_format (IvtvDevice * dev, struct v4l2_format *fmt)
{
  memset (fmt, 0, sizeof (*fmt));
  fmt->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  return ivtv_ioctl (dev, VIDIOC_G_FMT, fmt);
}

gssize
ivtv_device_read (IvtvDevice * dev, gpointer buf, gsize len)
{
  ssize_t n;

  if (dev->fd < 0)
    return -EBADF;
  n = dev->io->read (dev->fd, buf, len);
  if (n < 0)
    return -(errno ? errno : EIO);
  return n;
}

gpointer
ivtv_device_mmap (IvtvDevice * dev, gsize len, gint64 offset)
{
  void *p;

  if (dev->fd < 0) {
    errno = EBADF;
    return NULL;
  }
  p = dev->io->mmap (NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, dev->fd,
      offset);
  if (p == MAP_FAILED)
    return NULL;
  return p;
}

int
ivtv_device_munmap (IvtvDevice * dev, gpointer addr, gsize len)
{
  if (dev->io->munmap (addr, len) < 0)
    return -(errno ? errno : EIO);
  return 0;
}

int
ivtv_device_dup_fd (IvtvDevice * dev)
{
  int fd;

  if (dev->fd < 0)
    return -EBADF;
  fd = dev->io->dup (dev->fd);
  if (fd < 0)
    return -(errno ? errno : EIO);
  return fd;
}

void
ivtv_device_copy_name (gchar * dst, gsize dstlen, const void *src, gsize srclen)
{
  const guchar *s = src;
  gsize n = 0, i;

  if (dstlen == 0)
    return;
  while (n < srclen && n < dstlen - 1 && s[n] != '\0')
    n++;
  memcpy (dst, s, n);
  dst[n] = '\0';

  /* control characters are never part of a name */
  for (i = 0; i < n; i++)
    if ((guchar) dst[i] < 0x20 || (guchar) dst[i] == 0x7f)
      dst[i] = '?';
  /* a name cut in the middle of a character, or Latin-1: keep ASCII */
  if (!g_utf8_validate (dst, -1, NULL))
    for (i = 0; i < n; i++)
      if ((guchar) dst[i] >= 0x80)
        dst[i] = '?';
  while (n > 0 && dst[n - 1] == ' ')
    dst[--n] = '\0';
}

gchar *
ivtv_device_caps_to_string (guint32 caps)
{
  static const struct
  {
    guint32 bit;
    const gchar *name;
  } names[] = {
    {V4L2_CAP_VIDEO_CAPTURE, "video capture"},
    {V4L2_CAP_VIDEO_CAPTURE_MPLANE, "multi-planar video capture"},
    {V4L2_CAP_VIDEO_OUTPUT, "video output"},
    {V4L2_CAP_VIDEO_OUTPUT_MPLANE, "multi-planar video output"},
    {V4L2_CAP_VIDEO_M2M, "memory-to-memory"},
    {V4L2_CAP_VIDEO_M2M_MPLANE, "multi-planar memory-to-memory"},
    {V4L2_CAP_VIDEO_OVERLAY, "overlay"},
    {V4L2_CAP_VBI_CAPTURE, "VBI capture"},
    {V4L2_CAP_VBI_OUTPUT, "VBI output"},
    {V4L2_CAP_SLICED_VBI_CAPTURE, "sliced VBI capture"},
    {V4L2_CAP_SLICED_VBI_OUTPUT, "sliced VBI output"},
    {V4L2_CAP_RDS_CAPTURE, "RDS capture"},
    {V4L2_CAP_VIDEO_OUTPUT_OVERLAY, "output overlay"},
    {V4L2_CAP_HW_FREQ_SEEK, "frequency seek"},
    {V4L2_CAP_RDS_OUTPUT, "RDS output"},
    {V4L2_CAP_TUNER, "tuner"},
    {V4L2_CAP_AUDIO, "audio"},
    {V4L2_CAP_RADIO, "radio"},
    {V4L2_CAP_MODULATOR, "modulator"},
    {V4L2_CAP_SDR_CAPTURE, "SDR capture"},
    {V4L2_CAP_EXT_PIX_FORMAT, "extended pixel format"},
    {V4L2_CAP_SDR_OUTPUT, "SDR output"},
    {V4L2_CAP_META_CAPTURE, "metadata capture"},
    {V4L2_CAP_READWRITE, "read/write"},
    {V4L2_CAP_STREAMING, "streaming"},
    {V4L2_CAP_META_OUTPUT, "metadata output"},
    {V4L2_CAP_TOUCH, "touch"},
  };
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    if (caps & names[i].bit) {
      if (s->len)
        g_string_append (s, ", ");
      g_string_append (s, names[i].name);
    }
  }
  if (s->len == 0)
    g_string_append (s, "nothing");
  return g_string_free (s, FALSE);
}

/* ---- opening ---- */

static gchar *
describe_owner (const struct stat *st)
{
  gchar gbuf[1024], pbuf[1024];
  struct group grp, *gr = NULL;
  struct passwd pw, *pwp = NULL;
  gchar *user, *group, *ret;

  if (getgrgid_r (st->st_gid, &grp, gbuf, sizeof (gbuf), &gr) == 0 && gr)
    group = g_strdup (gr->gr_name);
  else
    group = g_strdup_printf ("%u", (guint) st->st_gid);
  if (getpwuid_r (st->st_uid, &pw, pbuf, sizeof (pbuf), &pwp) == 0 && pwp)
    user = g_strdup (pwp->pw_name);
  else
    user = g_strdup_printf ("%u", (guint) st->st_uid);

  ret = g_strdup_printf ("it belongs to user '%s' and group '%s', mode %04o; "
      "add your user to group '%s' (sudo usermod -aG %s $USER) and log in "
      "again", user, group, (guint) (st->st_mode & 07777), group, group);
  g_free (user);
  g_free (group);
  return ret;
}

static const gchar *
file_kind (mode_t mode)
{
  if (S_ISREG (mode))
    return "a regular file";
  if (S_ISDIR (mode))
    return "a directory";
  if (S_ISFIFO (mode))
    return "a pipe";
  if (S_ISSOCK (mode))
    return "a socket";
  if (S_ISBLK (mode))
    return "a block device";
  if (S_ISLNK (mode))
    return "a symbolic link";
  return "not a device";
}

gboolean
ivtv_device_is_pcm (const IvtvDevice * dev)
{
  const gchar *drv = (const gchar *) dev->cap.driver;
  guint32 want = V4L2_CAP_AUDIO | V4L2_CAP_READWRITE;

  if ((dev->device_caps & want) != want || (dev->device_caps &
          (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_RADIO | V4L2_CAP_VBI_CAPTURE |
              V4L2_CAP_SLICED_VBI_CAPTURE)))
    return FALSE;
  return strncmp (drv, "ivtv", sizeof (dev->cap.driver)) == 0
      || strncmp (drv, "cx18", sizeof (dev->cap.driver)) == 0;
}

/* QUERYCAP and the capture check on dev->fd; closes it on failure. */
static gboolean
check_v4l2_capture (IvtvDevice * dev, GError ** error)
{
  int ret;
  gchar *what;

  memset (&dev->cap, 0, sizeof (dev->cap));
  ret = ivtv_ioctl (dev, VIDIOC_QUERYCAP, &dev->cap);
  if (ret < 0) {
    g_set_error (error, IVTV_DEVICE_ERROR, IVTV_DEVICE_ERROR_NOT_V4L2,
        _("%s is not a V4L2 video device (VIDIOC_QUERYCAP failed: %s)"),
        dev->path, g_strerror (-ret));
    goto fail;
  }

  if (dev->cap.capabilities & V4L2_CAP_DEVICE_CAPS)
    dev->device_caps = dev->cap.device_caps;
  else
    dev->device_caps = dev->cap.capabilities;

  if (!(dev->device_caps & (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_VBI_CAPTURE |
              V4L2_CAP_SLICED_VBI_CAPTURE)) && !ivtv_device_is_pcm (dev)) {
    gchar card[IVTV_NAME_LEN], driver[IVTV_NAME_LEN];

    ivtv_device_copy_name (card, sizeof (card), dev->cap.card,
        sizeof (dev->cap.card));
    ivtv_device_copy_name (driver, sizeof (driver), dev->cap.driver,
        sizeof (dev->cap.driver));
    what = ivtv_device_caps_to_string (dev->device_caps);
    /* not a capture node (a radio node's advice is the session's,
     * ivtv_pcm_advise_radio: dev->cap stays filled) */
    g_set_error (error, IVTV_DEVICE_ERROR, IVTV_DEVICE_ERROR_NO_CAPTURE,
        _("%s ('%s', driver %s) cannot capture video or VBI: it offers only "
            "%s%s"), dev->path, card, driver, what,
        (dev->device_caps & V4L2_CAP_VIDEO_CAPTURE_MPLANE) ?
        " (multi-planar capture is not supported by ivtvsrc)" : "");
    g_free (what);
    goto fail;
  }

  if (!(dev->device_caps & (V4L2_CAP_READWRITE | V4L2_CAP_STREAMING))) {
    g_set_error (error, IVTV_DEVICE_ERROR, IVTV_DEVICE_ERROR_NO_CAPTURE,
        _("%s can capture video but offers neither read() nor streaming I/O"),
        dev->path);
    goto fail;
  }
  return TRUE;

fail:
  dev->io->close (dev->fd);
  dev->fd = -1;
  dev->device_caps = 0;
  return FALSE;
}

gboolean
ivtv_device_open (IvtvDevice * dev, const gchar * path, gboolean nonblock,
    GError ** error)
{
  struct stat st;
  int flags = O_RDWR | O_CLOEXEC | (nonblock ? O_NONBLOCK : 0);
  int fd, err;

  g_return_val_if_fail (dev->fd < 0, FALSE);

  if (path == NULL || *path == '\0') {
    g_set_error (error, IVTV_DEVICE_ERROR, IVTV_DEVICE_ERROR_NOT_FOUND,
        _("No device given (set the 'device' property, e.g. /dev/video0)"));
    return FALSE;
  }

  g_free (dev->path);
  dev->path = g_strdup (path);
  dev->adopted = FALSE;
  dev->io = &ivtv_io_libc;

  if (stat (path, &st) < 0) {
    err = errno;
    if (err == ENOENT || err == ENOTDIR) {
      g_set_error (error, IVTV_DEVICE_ERROR, IVTV_DEVICE_ERROR_NOT_FOUND,
          _("Device %s does not exist. Is the card's driver loaded (for a "
          "PVR-250: modprobe ivtv)? Video devices present are listed by "
          "'v4l2-ctl --list-devices'"), path);
    } else if (err == EACCES) {
      g_set_error (error, IVTV_DEVICE_ERROR, IVTV_DEVICE_ERROR_PERMISSION,
          _("Permission denied looking up %s: %s"), path, g_strerror (err));
    } else {
      g_set_error (error, IVTV_DEVICE_ERROR, IVTV_DEVICE_ERROR_FAILED,
          _("Cannot look up device %s: %s"), path, g_strerror (err));
    }
    return FALSE;
  }
  if (!S_ISCHR (st.st_mode)) {
    g_set_error (error, IVTV_DEVICE_ERROR,
        IVTV_DEVICE_ERROR_NOT_CHAR_DEVICE,
        _("%s is %s, not a video device (expected a V4L2 character device "
        "such as /dev/video0)"), path, file_kind (st.st_mode));
    return FALSE;
  }

  fd = dev->io->open (path, flags);
  if (fd < 0) {
    err = errno;
    if (err == EACCES || err == EPERM) {
      gchar *owner = describe_owner (&st);
      g_set_error (error, IVTV_DEVICE_ERROR, IVTV_DEVICE_ERROR_PERMISSION,
          _("Permission denied opening %s: %s"), path, owner);
      g_free (owner);
    } else if (err == EBUSY) {
      g_set_error (error, IVTV_DEVICE_ERROR, IVTV_DEVICE_ERROR_BUSY,
          _("Device %s is busy: another program is using it (see "
          "'fuser -v %s')"), path, path);
    } else if (err == ENOENT || err == ENODEV || err == ENXIO) {
      g_set_error (error, IVTV_DEVICE_ERROR, IVTV_DEVICE_ERROR_NOT_FOUND,
          _("Device %s has no driver behind it (%s); was the card removed or "
          "the driver unloaded?"), path, g_strerror (err));
    } else {
      g_set_error (error, IVTV_DEVICE_ERROR, IVTV_DEVICE_ERROR_FAILED,
          _("Cannot open device %s: %s"), path, g_strerror (err));
    }
    return FALSE;
  }
  dev->fd = fd;
  GST_CAT_DEBUG_OBJECT (ivtv_debug, dev->owner, "opened %s as fd %d", path, fd);

  return check_v4l2_capture (dev, error);
}

gboolean
ivtv_device_adopt_fd (IvtvDevice * dev, gint fd, GError ** error)
{
  struct stat st;
  int nfd;

  g_return_val_if_fail (dev->fd < 0, FALSE);

  g_free (dev->path);
  dev->path = g_strdup_printf ("device-fd %d", fd);
  dev->adopted = TRUE;
  dev->io = &ivtv_io_libc;

  if (fd < 0 || fstat (fd, &st) < 0) {
    g_set_error (error, IVTV_DEVICE_ERROR, IVTV_DEVICE_ERROR_BAD_FD,
        _("device-fd %d is not an open file descriptor"), fd);
    return FALSE;
  }
  if (!S_ISCHR (st.st_mode)) {
    g_set_error (error, IVTV_DEVICE_ERROR,
        IVTV_DEVICE_ERROR_NOT_CHAR_DEVICE,
        _("device-fd %d is %s, not a video device"), fd, file_kind (st.st_mode));
    return FALSE;
  }
  nfd = dev->io->dup (fd);
  if (nfd < 0) {
    g_set_error (error, IVTV_DEVICE_ERROR, IVTV_DEVICE_ERROR_FAILED,
        _("Cannot duplicate device-fd %d: %s"), fd, g_strerror (errno));
    return FALSE;
  }
  dev->fd = nfd;
  GST_CAT_DEBUG_OBJECT (ivtv_debug, dev->owner, "adopted fd %d as fd %d",
      fd, nfd);
  return check_v4l2_capture (dev, error);
}

gboolean
ivtv_device_use_libv4l2 (IvtvDevice * dev, int flags)
{
#if HAVE_LIBV4L2
  int ret;

  if (dev->fd < 0 || dev->io == &ivtv_io_libv4l2)
    return dev->fd >= 0;
  ret = v4l2_fd_open (dev->fd, flags);
  if (ret < 0) {
    GST_CAT_WARNING_OBJECT (ivtv_debug, dev->owner,
        "libv4l2 refused %s: %s", dev->path, g_strerror (errno));
    return FALSE;
  }
  dev->fd = ret;
  dev->io = &ivtv_io_libv4l2;
  GST_CAT_DEBUG_OBJECT (ivtv_debug, dev->owner, "using libv4l2 for %s",
      dev->path);
  return TRUE;
#else
  (void) flags;
  GST_CAT_WARNING_OBJECT (ivtv_debug, dev->owner, "this build of ivtvsrc "
      "has no libv4l2 (meson option libv4l2=disabled): %s stays on libc",
      dev->path);
  return FALSE;
#endif
}

void
ivtv_device_close (IvtvDevice * dev)
{
  if (dev->fd >= 0) {
    GST_CAT_DEBUG_OBJECT (ivtv_debug, dev->owner, "closing fd %d (%s)",
        dev->fd, dev->io->name);
    dev->io->close (dev->fd);
  }
  dev->fd = -1;
  dev->io = &ivtv_io_libc;
  dev->device_caps = 0;
}

void
ivtv_device_clear (IvtvDevice * dev)
{
  ivtv_device_close (dev);
  g_free (dev->path);
  dev->path = NULL;
}
