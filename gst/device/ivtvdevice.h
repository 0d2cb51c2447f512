/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the device layer.
 *
 * IvtvDevice owns the file descriptor of one V4L2 node and the table of I/O
 * functions (open, close, dup, ioctl, read, mmap, munmap) that points either
 * at libc or at libv4l2.  Every access to the device in the plugin goes
 * through this table: nothing else calls ioctl(), read() or mmap() on the
 * device directly.  ivtv_ioctl() is the one way to issue an ioctl: it names
 * the request in the debug log, retries EINTR and returns 0 or -errno, and
 * the caller (who knows the context) turns a failure into a message.
 *
 * Opening (by path, or adopting an fd the application opened) checks that
 * the node can capture (video, raw or sliced VBI, or an ivtv/cx18 PCM node:
 * ivtv_device_is_pcm) and classifies every failure into an IvtvDeviceError
 * with a message a person understands; a node that cannot capture is
 * IVTV_DEVICE_ERROR_NO_CAPTURE (a radio node's advice is written above this
 * layer, ivtvpcm.c).  Also here: the one reader of the current capture
 * format (ivtv_device_get_format), an integer control's value
 * (ivtv_device_get_control), dup, mmap/munmap and a readable list of
 * capabilities (ivtv_device_caps_to_string).
 */
#ifndef __IVTV_DEVICE_H__
#define __IVTV_DEVICE_H__

#include <gst/gst.h>
#include <sys/types.h>
#include <linux/videodev2.h>

G_BEGIN_DECLS

/* Name buffers: V4L2 names are at most 32 bytes (std names 24) + NUL. */
#define IVTV_NAME_LEN 33

/* Why opening a device failed (GError domain IVTV_DEVICE_ERROR). */
typedef enum
{
  IVTV_DEVICE_ERROR_FAILED,             /* anything else, message says what */
  IVTV_DEVICE_ERROR_NOT_FOUND,          /* ENOENT / ENODEV / ENXIO */
  IVTV_DEVICE_ERROR_PERMISSION,         /* EACCES / EPERM, message names the group */
  IVTV_DEVICE_ERROR_BUSY,               /* EBUSY */
  IVTV_DEVICE_ERROR_NOT_CHAR_DEVICE,    /* regular file, directory, ... */
  IVTV_DEVICE_ERROR_NOT_V4L2,           /* char device but QUERYCAP fails */
  IVTV_DEVICE_ERROR_NO_CAPTURE,         /* V4L2 but no video capture */
  IVTV_DEVICE_ERROR_BAD_FD              /* device-fd is not an open fd */
} IvtvDeviceError;

#define IVTV_DEVICE_ERROR (ivtv_device_error_quark ())
GQuark ivtv_device_error_quark (void);

/* The GStreamer resource error for a failed open (any GError: other
 * domains give OPEN_READ_WRITE). */
GstResourceError ivtv_device_error_resource (const GError * err);

/* The I/O function table: libc or libv4l2.  Fixed signatures (no varargs)
 * so both back-ends fit. */
typedef struct
{
  const gchar *name;            /* "libc" or "libv4l2" */
  int (*open) (const char *path, int flags);
  int (*close) (int fd);
  int (*dup) (int fd);
  int (*ioctl) (int fd, unsigned long request, void *arg);
  ssize_t (*read) (int fd, void *buf, size_t len);
  void *(*mmap) (void *addr, size_t len, int prot, int flags, int fd,
      gint64 offset);
  int (*munmap) (void *addr, size_t len);
} IvtvIoFuncs;

extern const IvtvIoFuncs ivtv_io_libc;
#if HAVE_LIBV4L2
extern const IvtvIoFuncs ivtv_io_libv4l2;
#endif

typedef struct _IvtvDevice IvtvDevice;

struct _IvtvDevice
{
  gint fd;                      /* -1 when closed */
  const IvtvIoFuncs *io;        /* never NULL; &ivtv_io_libc by default */
  gchar *path;                  /* node path, or "fd N" for an adopted fd */
  gboolean adopted;             /* fd is our dup() of the application's fd */

  /* Filled by open/adopt from VIDIOC_QUERYCAP. */
  struct v4l2_capability cap;
  guint32 device_caps;          /* cap.device_caps if V4L2_CAP_DEVICE_CAPS,
                                 * else cap.capabilities */

  GstObject *owner;             /* for debug log lines; not a reference */
};

/* TRUE for an open PCM node of an encoder card (ivtv, cx18:
 * /dev/video24): read() and audio, no video or VBI capture, not a radio
 * (ivtv-streams.c / cx18-streams.c: TUNER | AUDIO | READWRITE). */
gboolean ivtv_device_is_pcm (const IvtvDevice * dev);

/* Initialise a closed device (fd -1, libc I/O).  owner may be NULL. */
void ivtv_device_init (IvtvDevice * dev, GstObject * owner);

/* Open @path (O_RDWR | O_CLOEXEC, plus O_NONBLOCK when @nonblock), check it
 * is a character device answering QUERYCAP with video capture.  On failure
 * the device stays closed and @error says why (IvtvDeviceError). */
gboolean ivtv_device_open (IvtvDevice * dev, const gchar * path,
    gboolean nonblock, GError ** error);

/* Use an fd the application opened: dup() it (the application keeps its
 * own), then the same checks as ivtv_device_open. */
gboolean ivtv_device_adopt_fd (IvtvDevice * dev, gint fd, GError ** error);

/* Switch the open device to libv4l2 (v4l2_fd_open).  @flags are
 * v4l2_fd_open's flags (0 for conversion).  FALSE (device unchanged) when
 * libv4l2 refuses or the build has no libv4l2 (HAVE_LIBV4L2 0). */
gboolean ivtv_device_use_libv4l2 (IvtvDevice * dev, int flags);

/* Close the fd (if open) with the table's close; safe to call twice.
 * Resets the table to libc. */
void ivtv_device_close (IvtvDevice * dev);

/* Close and free owned memory; the struct itself is the caller's. */
void ivtv_device_clear (IvtvDevice * dev);

static inline gboolean
ivtv_device_is_open (const IvtvDevice * dev)
{
  return dev->fd >= 0;
}

/* Does the device's I/O go through libv4l2 (ivtv_device_use_libv4l2)? */
static inline gboolean
ivtv_device_via_libv4l2 (const IvtvDevice * dev)
{
  return dev->io != &ivtv_io_libc;
}

static inline gboolean
ivtv_device_has_cap (const IvtvDevice * dev, guint32 cap)
{
  return (dev->device_caps & cap) != 0;
}

/* Issue an ioctl.  Returns 0 on success or -errno (EINTR is retried).
 * Logs the request's name at GST_LOG.  Use the macro, which names it. */
int ivtv_device_named_ioctl (IvtvDevice * dev, const char *name,
    unsigned long request, void *arg);
#define ivtv_ioctl(dev, req, arg) \
  ivtv_device_named_ioctl ((dev), #req, (req), (arg))

/* Current value of an integer control (G_EXT_CTRLS, then G_CTRL). */
gboolean ivtv_device_get_control (IvtvDevice * dev, guint32 id,
    gint64 * value);

/* The current capture format (VIDIOC_G_FMT, video capture): 0 or -errno.
 * The one place the plugin reads it. */
int ivtv_device_get_format (IvtvDevice * dev, struct v4l2_format *fmt);

/* read() once into @buf.  Returns the byte count (0 = end of file) or
 * -errno (EINTR and EAGAIN are returned, not retried: the caller polls). */
gssize ivtv_device_read (IvtvDevice * dev, gpointer buf, gsize len);

/* mmap (MAP_SHARED, PROT_READ|PROT_WRITE) / munmap through the table.
 * ivtv_device_mmap returns NULL (not MAP_FAILED) on failure, with errno. */
gpointer ivtv_device_mmap (IvtvDevice * dev, gsize len, gint64 offset);
int ivtv_device_munmap (IvtvDevice * dev, gpointer addr, gsize len);

/* A second descriptor for the same device through the table's dup (e.g. a
 * non-blocking reader next to a control fd).  -errno on failure. */
int ivtv_device_dup_fd (IvtvDevice * dev);

/* Copy a fixed-size, maybe unterminated name from the driver into @dst:
 * stops at NUL or @srclen, replaces control characters (and bytes of
 * invalid UTF-8) with '?', drops trailing blanks.  The driver is not
 * trusted. */
void ivtv_device_copy_name (gchar * dst, gsize dstlen, const void *src,
    gsize srclen);

/* Human-readable name of a V4L2 capability bit set, e.g.
 * "video capture, tuner, audio, read/write".  Free with g_free. */
gchar *ivtv_device_caps_to_string (guint32 caps);

G_END_DECLS

#endif /* __IVTV_DEVICE_H__ */
