/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* tests/fuzz: libFuzzer harness for the element's probing and read path.
 *
 * The device is fake: an IvtvDevice whose I/O table (gst/device/ivtvdevice.h)
 * answers every ioctl and read() from the fuzz input.  Each ioctl takes one
 * control byte: an error (EINVAL, ENOTTY, EIO, EBUSY, ENODEV, EINTR, EAGAIN,
 * ENOMEM) or success, in which case the structure the driver would fill is
 * filled with input bytes (random sizes, counts, strings without NUL,
 * absurd formats), optionally keeping the index/id the caller asked for so
 * that enumerations go deep.  Each read() takes two bytes: a length (maybe
 * longer than asked, which must be clamped), 0 (end of stream) or an error.
 *
 * The first byte chooses "cyclic" mode: the input then wraps around instead
 * of running out (for up to CYCLIC_MAX_CALLS calls), so an enumeration the
 * driver never ends must be ended by the probe's own limits.  Without it an exhausted input answers EINVAL to
 * ioctls and 0 to reads.
 *
 * Then it runs what ivtvsrc runs when it starts: QUERYCAP, ivtv_probe_run,
 * caps from the probe and from G_FMT, input/audio/standard/frequency by
 * name, the I/O mode choice, name lists, and up to 64 buffers of the read()
 * path (ivtvread.c) with its GstPoll, buffer pool and error messages.
 */
#include "ivtvcaps.h"
#include "ivtvsettings.h"
#include "ivtvdevice.h"
#include "ivtvencoder.h"
#include "ivtviomode.h"
#include "ivtvnames.h"
#include "ivtvprobe.h"
#include "ivtvread.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

static const guint8 *in_data;
static gsize in_len, in_pos;
static gboolean in_cyclic;
static guint in_calls;

/* A cyclic input answers at most this many calls: enough to run every
 * enumeration of the probe into its limit (IVTV_PROBE_MAX_*), not the
 * 64 x 128 x 64 nested format/size/interval product on every input. */
#define CYCLIC_MAX_CALLS 20000

static gboolean
take (guint8 * out)
{
  if (in_len == 0)
    return FALSE;
  if (in_pos >= in_len) {
    if (!in_cyclic || in_calls >= CYCLIC_MAX_CALLS)
      return FALSE;
    in_pos = 0;
  }
  *out = in_data[in_pos++];
  return TRUE;
}

static void
fill (void *arg, gsize n)
{
  guint8 *p = arg;

  while (n > 0) {
    gsize k;

    if (in_pos >= in_len) {
      if (in_len == 0 || !in_cyclic || in_calls >= CYCLIC_MAX_CALLS) {
        memset (p, 0, n);
        return;
      }
      in_pos = 0;
    }
    k = MIN (n, in_len - in_pos);
    memcpy (p, in_data + in_pos, k);
    in_pos += k;
    p += k;
    n -= k;
  }
}

static const int ioctl_errors[] = {
  EINVAL, ENOTTY, EIO, EBUSY, ENODEV, EINTR, EAGAIN, ENOMEM
};

static int
fuzz_ioctl (int fd, unsigned long request, void *arg)
{
  guint8 c;
  gsize size = _IOC_SIZE (request);
  guint8 keep[4];

  (void) fd;
  in_calls++;
  if (!take (&c)) {
    errno = EINVAL;
    return -1;
  }
  if ((c & 0x07) == 0) {
    int e = ioctl_errors[(c >> 3) & 7];

    /* an EINTR forever would be retried forever (ivtv_ioctl retries
     * EINTR, as every V4L2 client does); a cyclic input could do that */
    if (e == EINTR && in_cyclic)
      e = EIO;
    errno = e;
    return -1;
  }
  if (arg == NULL || !(_IOC_DIR (request) & _IOC_READ))
    return 0;                   /* S_* and commands: accepted */
  if ((c & 0x08) && size >= 4)
    memcpy (keep, arg, 4);      /* keep the caller's index / id */
  fill (arg, size);
  if ((c & 0x08) && size >= 4)
    memcpy (arg, keep, 4);
  return 0;
}

static ssize_t
fuzz_read (int fd, void *buf, size_t len)
{
  guint8 a, b;
  size_t n, k;

  (void) fd;
  in_calls++;
  if (!take (&a) || !take (&b))
    return 0;
  if (a == 0xff) {
    static const int read_errors[] = { EINTR, EAGAIN, EIO, ENODEV, EBUSY,
      EINVAL, EOVERFLOW, EFAULT
    };
    errno = read_errors[b & 7];
    return -1;
  }
  n = (size_t) a << 8 | b;
  if (n > len)
    n = len;                    /* a driver never writes past len */
  /* the bytes themselves matter little (only sniffed): what input is left,
   * not wrapping, then zeros */
  k = in_pos < in_len ? MIN (n, in_len - in_pos) : 0;
  memcpy (buf, in_data + in_pos, k);
  memset ((guint8 *) buf + k, 0, n - k);
  in_pos += k;
  return (ssize_t) n;
}

static int
fuzz_open (const char *path, int flags)
{
  (void) path;
  (void) flags;
  errno = ENODEV;
  return -1;
}

static void *
fuzz_mmap (void *addr, size_t len, int prot, int flags, int fd, gint64 off)
{
  (void) addr;
  (void) len;
  (void) prot;
  (void) flags;
  (void) fd;
  (void) off;
  errno = ENODEV;
  return MAP_FAILED;
}

static int
fuzz_munmap (void *addr, size_t len)
{
  (void) addr;
  (void) len;
  return 0;
}

static const IvtvIoFuncs fuzz_io = {
  .name = "fuzz",
  .open = fuzz_open,
  .close = close,
  .dup = dup,
  .ioctl = fuzz_ioctl,
  .read = fuzz_read,
  .mmap = fuzz_mmap,
  .munmap = fuzz_munmap,
};

static void
try_names (IvtvDevice * dev, IvtvProbe * probe)
{
  static const gchar *inputs[] = { "composite", "s-video", "tuner", "2",
    "Composite 3", "nonexistent"
  };
  static const gchar *stds[] = { "pal", "ntsc", "secam-l", "auto", "bogus" };
  GError *err = NULL;
  v4l2_std_id id = 0;
  gboolean is_auto = FALSE;
  gchar **names;
  gchar *s;
  guint8 c = 0;

  take (&c);
  ivtv_settings_find_input (probe, inputs[c % G_N_ELEMENTS (inputs)], &err);
  g_clear_error (&err);
  ivtv_settings_set_input (dev, probe, inputs[(c >> 3) % G_N_ELEMENTS (inputs)],
      &err);
  g_clear_error (&err);
  ivtv_settings_find_audio (probe, "line in 2", &err);
  g_clear_error (&err);
  ivtv_settings_set_audio (dev, probe, "tuner", &err);
  g_clear_error (&err);
  ivtv_settings_resolve_std (probe, stds[c % G_N_ELEMENTS (stds)], &id,
      &is_auto, &err);
  g_clear_error (&err);
  ivtv_settings_set_std (dev, probe, stds[(c >> 2) % G_N_ELEMENTS (stds)],
      &err);
  g_clear_error (&err);
  ivtv_settings_set_frequency (dev, probe, 55250000, &err);
  g_clear_error (&err);

  names = ivtv_settings_input_names (probe);
  g_strfreev (names);
  names = ivtv_settings_std_names (probe);
  g_strfreev (names);
  s = ivtv_settings_describe_stds (probe);
  g_free (s);
  s = ivtv_names_std_describe (probe->current_std);
  g_free (s);
}

static void
try_caps (IvtvDevice * dev, IvtvProbe * probe)
{
  struct v4l2_format fmt;
  GstCaps *caps;
  gchar *s;
  gint stream_type = ivtv_encoder_get_stream_type (dev);

  caps = ivtv_caps_from_probe (probe, probe->current_std, stream_type);
  if (caps) {
    s = gst_caps_to_string (caps);
    g_free (s);
    gst_caps_unref (caps);
  }

  if (ivtv_device_get_format (dev, &fmt) == 0) {
    GstStructure *st = ivtv_caps_structure_for_fourcc (fmt.fmt.pix.pixelformat,
        stream_type);
    if (st)
      gst_structure_free (st);
  }
}

static void
try_io_mode (IvtvDevice * dev)
{
  IvtvIoMode modes[] = { IVTV_IO_AUTO, IVTV_IO_RW, IVTV_IO_MMAP,
    IVTV_IO_USERPTR, IVTV_IO_DMABUF
  };
  GError *err = NULL;
  IvtvIoMode chosen;
  gchar *s;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (modes); i++) {
    ivtv_io_mode_choose (modes[i], dev->device_caps,
        IVTV_IO_BIT (IVTV_IO_MMAP), "fuzz", &chosen, &err);
    g_clear_error (&err);
  }
  s = ivtv_io_mode_describe (dev->device_caps, IVTV_IO_BIT (IVTV_IO_MMAP));
  g_free (s);
}

static void
try_read (IvtvDevice * dev)
{
  GstElement *element = gst_bin_new ("fuzz");
  GstPoll *poll = gst_poll_new (TRUE);
  IvtvReader r;
  GError *err = NULL;
  guint8 b = 0;
  guint blocksize, i;

  take (&b);
  blocksize = 1 + b * 256;      /* 1 byte to 64 KiB */
  ivtv_read_init (&r);
  if (ivtv_read_start (&r, element, dev, poll, blocksize, &err)) {
    for (i = 0; i < 64; i++) {
      GstBuffer *buf = NULL;
      IvtvError *e = NULL;
      GstFlowReturn ret = ivtv_read_create (&r, &buf, &e);

      if (buf) {
        GstMapInfo map;

        if (gst_buffer_map (buf, &map, GST_MAP_READ)) {
          g_assert (map.size <= blocksize);
          ivtv_caps_sniff_mpeg (map.data, map.size);
          gst_buffer_unmap (buf, &map);
        }
        gst_buffer_unref (buf);
      }
      g_assert (e == NULL || ret == GST_FLOW_ERROR);
      ivtv_error_free (e);
      if (ret != GST_FLOW_OK)
        break;
    }
  }
  g_clear_error (&err);
  ivtv_read_stop (&r);
  gst_poll_free (poll);
  gst_object_unref (element);
}

static void
run_one (const guint8 * data, gsize size)
{
  IvtvDevice dev;
  IvtvProbe probe;
  GError *err = NULL;
  int fd;

  in_data = data;
  in_len = size;
  in_pos = 0;
  in_calls = 0;
  in_cyclic = size > 0 && (data[0] & 1);
  if (size > 0)
    in_pos = 1;

  /* a real fd that poll() always finds readable; every I/O on it goes
   * through fuzz_io */
  fd = eventfd (1, EFD_CLOEXEC);
  if (fd < 0)
    return;

  ivtv_device_init (&dev, NULL);
  dev.fd = fd;
  dev.io = &fuzz_io;
  dev.path = g_strdup ("/dev/fuzz");
  if (ivtv_ioctl (&dev, VIDIOC_QUERYCAP, &dev.cap) == 0)
    dev.device_caps = (dev.cap.capabilities & V4L2_CAP_DEVICE_CAPS) ?
        dev.cap.device_caps : dev.cap.capabilities;

  ivtv_probe_init (&probe);
  if (ivtv_probe_run (&probe, &dev, &err)) {
    try_names (&dev, &probe);
    try_caps (&dev, &probe);
    try_io_mode (&dev);
    ivtv_encoder_stop (&dev);
    try_read (&dev);
  }
  g_clear_error (&err);
  ivtv_probe_clear (&probe);
  ivtv_device_clear (&dev);     /* closes fd through fuzz_io.close */
}

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t * data, size_t size);

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  static const guint8 warm[] = { 0, 0x09, 0x09, 0x09, 0x09, 0x09, 0x09 };

  (void) argc;
  (void) argv;
  /* no plugins are needed (GstBin, GstBufferPool and GstPoll are core):
   * no registry scan */
  g_setenv ("GST_REGISTRY_DISABLE", "yes", TRUE);
  g_setenv ("GST_PLUGIN_SYSTEM_PATH_1_0", "", TRUE);
  g_setenv ("GST_PLUGIN_PATH_1_0", "", TRUE);
  gst_init (NULL, NULL);
  /* types, debug categories and quarks are made once, on first use: make
   * them here so that the leak check of each input sees only its own */
  run_one (warm, sizeof (warm));
  run_one (NULL, 0);
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  run_one (data, size);
  return 0;
}
