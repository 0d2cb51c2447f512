/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* profile-usbtv.c - `usbtv`: the Fushicai USBTV007 "EasyCAP" dongle (usbtv
 * driver), raw YUYV over isochronous USB.  Streaming (MMAP, USERPTR) and
 * read(), no DMABUF; inputs Composite and S-Video; 525-line, PAL and
 * SECAM standards.  Kernel sources (drivers/media/usb/usbtv/):
 *  - usbtv-video.c usbtv_video_init(): device_caps VIDEO_CAPTURE |
 *    READWRITE | STREAMING, card and driver "usbtv", vb2 io_modes VB2_MMAP |
 *    VB2_USERPTR | VB2_READ (DMABUF refused), timestamp_flags
 *    V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC (source EOF: usbtv_image_chunk()
 *    stamps the buffer with ktime_get_ns() when the last chunk of the odd
 *    field arrives, a frame period after the frame began); tvnorms
 *    USBTV_TV_STD (usbtv.h: 525_60 | PAL | PAL_Nc | SECAM), NTSC at start
 *    (usbtv_configure_for_norm(usbtv, V4L2_STD_525_60));
 *  - usbtv_ioctl_ops: no EXPBUF (vb2_ioctl_expbuf absent: ENOTTY), no
 *    event ioctls (no vidioc_subscribe_event: ENOTTY), no ENUM_FRAMESIZES,
 *    no G/S_PARM (G_PARM is the core's from the standard, S_PARM ENOTTY);
 *  - usbtv_enum_input(): "Composite", "S-Video", CAMERA, std = tvnorms (the
 *    core adds V4L2_IN_CAP_STD, v4l2-ioctl.c v4l_enuminput());
 *  - usbtv_enum_fmt_vid_cap(), usbtv_fmt_vid_cap(): YUYV only, the size of
 *    the standard (720x480 or 720x576, norm_params[]), INTERLACED,
 *    bytesperline 2 x width, SMPTE170M; S_FMT and TRY_FMT are G_FMT;
 *  - usbtv_s_std() -> usbtv_configure_for_norm(): the norm kept is the
 *    family of norm_params[] (G_STD after S_STD(PAL-BG) names every
 *    625-line standard the card takes, NTSC every 525-line one);
 *  - usbtv_s_ctrl(): returns what usb_control_msg() returns, the bytes it
 *    sent (3 for brightness and contrast, 2 for the others), not 0: the
 *    control framework (v4l2-ctrls-core.c try_or_set_cluster()) takes that
 *    for an error, keeps the old value and sends no event, and S_CTRL or
 *    S_EXT_CTRLS returns the positive count to the caller.  Only a change
 *    reaches s_ctrl; setting the current value returns 0.  Controls from
 *    usbtv_video_init(): contrast, brightness, saturation 0..0x3ff, hue
 *    -0xdff..0xdff, sharpness 0..0xff;
 *  - usbtv_image_chunk(): with no buffer queued the frame is dropped and
 *    `sequence` is not counted (seq_counts_delivered).
 * The engine is the streaming engine (stream.c) with these ioctls in front.
 * Not modelled: the ALSA capture device (usbtv-audio.c registers it under
 * the USB device, not an interface; no sysfs layout is faked). */
#include "emu.h"

#include <errno.h>
#include <string.h>

#define USBTV_STD (EMU_STD_SDTV & (V4L2_STD_525_60 | V4L2_STD_PAL |    \
        V4L2_STD_PAL_Nc | V4L2_STD_SECAM))

static long
below (struct emu_file *f, unsigned long req, void *arg)
{
  long r = emu_engine_stream.ioctl (f, req, arg);

  return r == EMU_NEXT ? emu_core_ioctl (f, req, arg) : r;
}

/* usbtv_s_ctrl(): the bytes of the register write */
static long
ctrl_bytes (uint32_t id)
{
  return id == V4L2_CID_BRIGHTNESS || id == V4L2_CID_CONTRAST ? 3 : 2;
}

/* the value the framework would hand s_ctrl (integers are clamped) differs
 * from the current one */
static bool
ctrl_changes (struct emu_file *f, uint32_t id, int32_t val)
{
  struct v4l2_queryctrl q = {.id = id };

  if (emu_core_ioctl (f, VIDIOC_QUERYCTRL, &q) < 0 ||
      q.type == V4L2_CTRL_TYPE_CTRL_CLASS)
    return false;
  if (val < q.minimum)
    val = q.minimum;
  if (val > q.maximum)
    val = q.maximum;
  return val != emu_ctrl_value (f->dev, id);
}

static long
s_ctrl (struct emu_file *f, struct v4l2_control *c)
{
  long r = emu_prio_check (f);

  if (r < 0)
    return r;
  if (!ctrl_changes (f, c->id, c->value))
    return below (f, VIDIOC_S_CTRL, c);
  return ctrl_bytes (c->id);    /* not stored: no event either */
}

static long
s_ext_ctrls (struct emu_file *f, struct v4l2_ext_controls *cs)
{
  long r;

  if (cs->which != V4L2_CTRL_WHICH_CUR_VAL &&
      cs->which != V4L2_CTRL_CLASS_USER)
    return below (f, VIDIOC_S_EXT_CTRLS, cs);
  if (below (f, VIDIOC_TRY_EXT_CTRLS, cs) != 0)
    return below (f, VIDIOC_S_EXT_CTRLS, cs);   /* the core's error_idx */
  if ((r = emu_prio_check (f)) < 0)
    return r;
  for (uint32_t i = 0; i < cs->count; i++)
    if (ctrl_changes (f, cs->controls[i].id, cs->controls[i].value))
      return ctrl_bytes (cs->controls[i].id);
  return below (f, VIDIOC_S_EXT_CTRLS, cs);
}

/* usbtv_s_std() -> usbtv_configure_for_norm(): the family is kept */
static long
s_std (struct emu_file *f, v4l2_std_id * std)
{
  long r = below (f, VIDIOC_S_STD, std);

  if (r == 0) {
    struct emu_shared *st = f->dev->card->st;

    emu_lock (f->dev);
    st->std = USBTV_STD & ((st->std & V4L2_STD_525_60) ? V4L2_STD_525_60 :
        V4L2_STD_625_50);
    emu_unlock (f->dev);
  }
  return r;
}

/* vb2 io_modes without VB2_DMABUF: vb2_verify_memory_type() refuses the
 * memory, and the capabilities lack V4L2_BUF_CAP_SUPPORTS_DMABUF */
static long
no_dmabuf (struct emu_file *f, unsigned long req, void *arg)
{
  struct v4l2_requestbuffers *rb = arg;
  struct v4l2_create_buffers *cb = arg;
  uint32_t memory = req == VIDIOC_REQBUFS ? rb->memory : cb->memory;
  long r;

  if (memory == V4L2_MEMORY_DMABUF)
    return -EINVAL;
  r = emu_engine_stream.ioctl (f, req, arg);
  if (req == VIDIOC_REQBUFS)
    rb->capabilities &= ~V4L2_BUF_CAP_SUPPORTS_DMABUF;
  else
    cb->capabilities &= ~V4L2_BUF_CAP_SUPPORTS_DMABUF;
  return r;
}

static long
usbtv_ioctl (struct emu_file *f, unsigned long req, void *arg)
{
  switch (req) {
    case VIDIOC_S_CTRL:
      return s_ctrl (f, arg);
    case VIDIOC_S_EXT_CTRLS:
      return s_ext_ctrls (f, arg);
    case VIDIOC_S_STD:
      return s_std (f, arg);
    case VIDIOC_SUBSCRIBE_EVENT:
    case VIDIOC_UNSUBSCRIBE_EVENT:
    case VIDIOC_DQEVENT:
    case VIDIOC_EXPBUF:
      return -ENOTTY;
    case VIDIOC_REQBUFS:
    case VIDIOC_CREATE_BUFS:
      return no_dmabuf (f, req, arg);
    default:
      return emu_engine_stream.ioctl (f, req, arg);
  }
}

/* the streaming engine with usbtv's ioctls in front (filled at load) */
static struct emu_engine emu_engine_usbtv;

__attribute__((constructor))
static void
usbtv_engine_init (void)
{
  emu_engine_usbtv = emu_engine_stream;
  emu_engine_usbtv.name = "usbtv";
  emu_engine_usbtv.ioctl = usbtv_ioctl;
}

#define TV_INPUT(n, c) {.name = n,.type = V4L2_INPUT_TYPE_CAMERA,       \
    .std = USBTV_STD,.capabilities = V4L2_IN_CAP_STD,.content = (c)}
#define TV_CTRL(id, name, min, max, def) {(id), V4L2_CTRL_TYPE_INTEGER,   \
    (name), (min), (max), 1, (def), V4L2_CTRL_FLAG_SLIDER, {NULL}, false}

const struct emu_profile emu_profile_usbtv = {
  .name = "usbtv",
  .summary = "USB composite dongle USBTV007 \"EasyCAP\" (usbtv): streaming "
      "and read(), YUYV, S_CTRL returns a byte count",
  .driver = "usbtv",
  .card = "usbtv",
  .bus_info = "usb-0000:00:14.0-4",
  .caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING | V4L2_CAP_READWRITE,
  .buf_type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
  .inputs = {
        TV_INPUT ("Composite", 1),
        TV_INPUT ("S-Video", 0),
      },
  .def_std = USBTV_STD & V4L2_STD_525_60,      /* the 525_60 family */
  .ctrls = {
        {V4L2_CID_USER_CLASS, V4L2_CTRL_TYPE_CTRL_CLASS, "User Controls",
              0, 0, 0, 0, V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_WRITE_ONLY,
            {NULL}, false},
        TV_CTRL (V4L2_CID_BRIGHTNESS, "Brightness", 0, 0x3ff, 0x1c0),
        TV_CTRL (V4L2_CID_CONTRAST, "Contrast", 0, 0x3ff, 0x1d0),
        TV_CTRL (V4L2_CID_SATURATION, "Saturation", 0, 0x3ff, 0x200),
        TV_CTRL (V4L2_CID_HUE, "Hue", -0xdff, 0xdff, 0),
        TV_CTRL (V4L2_CID_SHARPNESS, "Sharpness", 0, 0xff, 0x60),
      },
  .formats = {
        {.pixelformat = V4L2_PIX_FMT_YUYV,
              .description = "YUYV 4:2:2",
              .size_follows_std = true,
              .sizes = {
                  {720, 480, {{1001, 30000}}},
                  {720, 576, {{1, 25}}},
                }},
      },
  .seq_counts_delivered = true,
  .events = 0,
  .engine = &emu_engine_usbtv,
};
