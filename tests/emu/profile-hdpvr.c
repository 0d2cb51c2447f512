/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* profile-hdpvr.c - `hdpvr`: the Hauppauge HD PVR (hdpvr driver), a USB
 * H.264 encoder.  read() only; an MPEG-2 transport stream carrying H.264
 * and AAC; G_FMT fails with EFAULT while there is no signal; input, audio
 * input and standard changes are EBUSY while it streams; the Component
 * input is a DV timings input with the driver's "legacy mode".  Kernel
 * sources (drivers/media/usb/hdpvr/hdpvr-video.c unless named):
 *  - vidioc_querycap(): VIDEO_CAPTURE | AUDIO | READWRITE, card "Hauppauge
 *    HD PVR"; hdpvr_fops: read and poll, no mmap (REQBUFS is ENOTTY);
 *  - vidioc_enum_fmt_vid_cap(): one format, V4L2_PIX_FMT_MPEG, COMPRESSED
 *    (the driver's "MPEG2-TS with AVC/AAC streams" is replaced by the
 *    core's "MPEG-1/2/4", v4l2-ioctl.c v4l_fill_fmtdesc());
 *  - hdpvr_open(): every open starts in legacy mode (hdpvr_fh.legacy_mode);
 *    any DV timings ioctl leaves it for that open.  vidioc_g_fmt_vid_cap()
 *    (also S_FMT and TRY_FMT): in legacy mode the detected signal's size,
 *    -EFAULT when get_video_info() finds no signal; otherwise the size last
 *    set (dev->width/height, by S_STD or S_DV_TIMINGS); 720 wide is SDTV
 *    (INTERLACED, SMPTE170M), wider HDTV (NONE, REC709);
 *  - vidioc_enum_input(): "Component", "S-Video", "Composite", CAMERA,
 *    audioset RCA back | RCA front | SPDIF, no status; the Component input
 *    (0) has V4L2_IN_CAP_DV_TIMINGS and std 0, the others V4L2_IN_CAP_STD
 *    and V4L2_STD_ALL; hdpvr_video_template.tvnorms = V4L2_STD_ALL, so
 *    ENUMSTD lists the standards on every input;
 *  - vidioc_g_std(), vidioc_s_std(), vidioc_querystd(): on Component
 *    -ENODATA once the open left legacy mode (QUERYSTD there: UNKNOWN in
 *    legacy mode); S_STD -EBUSY while streaming; QUERYSTD 525_60 or 625_50
 *    from the detected height;
 *  - vidioc_{s,g,query,enum}_dv_timings(), vidioc_dv_timings_cap(): leave
 *    legacy mode; -ENODATA on the other inputs; hdpvr_dv_timings[] (CEA
 *    480i, 576i, 480p, 576p, 720p50/60, 1080i50/60), 480i at start;
 *    QUERY: -ENOLCK without signal, -ERANGE when none matches;
 *  - no vidioc_g_parm / s_parm: G_PARM is the core's from G_STD
 *    (v4l2-ioctl.c v4l_g_parm(): readbuffers 2, -ENODATA where G_STD is),
 *    S_PARM ENOTTY;
 *  - vidioc_s_input(), vidioc_s_std(), vidioc_s_audio(): -EBUSY unless
 *    dev->status == STATUS_IDLE (i.e. while streaming);
 *  - audio_iname[] indexed by hdpvr.h enum hdpvr_audio_inputs: 0 "RCA back",
 *    1 "RCA front", 2 "SPDIF"; hdpvr-core.c default_audio_input 0;
 *  - hdpvr_register_videodev(): firmware 0x1e (> 0x15, what tests/vm/usbip's
 *    model reports) gives brightness 0x80, contrast 0x40, saturation 0x40,
 *    hue 0..0x1e default 0xf, sharpness 0x80; menus made with
 *    v4l2_ctrl_new_std_menu (minimum 0, the rest skipped): stream type TS,
 *    video H.264, audio AAC or AC-3 (HDPVR_FLAG_AC3_CAP, hdpvr-core.c
 *    device_authorization(), firmware 0x1e) default AAC;
 *  - hdpvr_ioctl_ops: vidioc_subscribe_event = v4l2_ctrl_subscribe_event,
 *    control events only (no EOS, no SOURCE_CHANGE);
 *  - hdpvr_read(): a read on an idle device starts streaming, also right
 *    after a stop: a fresh stream, never an end-of-stream 0;
 *  - vidioc_encoder_cmd() / vidioc_try_encoder_cmd(): `a->flags = 0`, so
 *    V4L2_ENC_CMD_STOP_AT_GOP_END is ignored and cleared in the returned
 *    flags, and STOP stops streaming at once (hdpvr_stop_streaming()):
 *    nothing drains to the end of a GOP.
 *  - hdpvr_read() / hdpvr_cancel_queue(): the next stream is read from
 *    where the last reader stopped inside its 8 KiB USB buffer (below).
 * Not modelled (tests/emu/README.md says why): the picture of an HD timing
 * (every clip is 720x480/576, G_FMT says the size set), the 1 s read
 * timeout and 4 s restart, EIO from a read() started without signal, URB
 * errors (invisible above the driver).  The clips are mkpayload-h264.sh's. */
#include "emu.h"
#include "payload.h"

#include <errno.h>
#include <linux/v4l2-dv-timings.h>
#include <stddef.h>
#include <string.h>

#define HD_COMPONENT 0          /* HDPVR_COMPONENT */

/* hdpvr_dv_timings[] */
static const struct v4l2_dv_timings hd_timings[] = {
  V4L2_DV_BT_CEA_720X480I59_94,
  V4L2_DV_BT_CEA_720X576I50,
  V4L2_DV_BT_CEA_720X480P59_94,
  V4L2_DV_BT_CEA_720X576P50,
  V4L2_DV_BT_CEA_1280X720P50,
  V4L2_DV_BT_CEA_1280X720P60,
  V4L2_DV_BT_CEA_1920X1080I50,
  V4L2_DV_BT_CEA_1920X1080I60,
};
#define N_TIMINGS (sizeof (hd_timings) / sizeof (hd_timings[0]))

/* The driver keeps these in its hdpvr_device (cur_dv_timings, width,
 * height); here they are the process's, which every test run shares no
 * further than one process needs. */
static struct
{
  int dv;                       /* index in hd_timings */
  uint32_t width, height;
} hd = { 0, 720, 480 };

/* hdpvr_fh.legacy_mode: the open files of this process that left it */
#define HD_MAX_FILES 64
static struct emu_file *hd_modern[HD_MAX_FILES];

static bool
legacy (struct emu_file *f)
{
  for (int i = 0; i < HD_MAX_FILES; i++)
    if (hd_modern[i] == f)
      return false;
  return true;
}

static void
leave_legacy (struct emu_file *f)
{
  if (!legacy (f))
    return;
  for (int i = 0; i < HD_MAX_FILES; i++)
    if (!hd_modern[i]) {
      hd_modern[i] = f;
      return;
    }
}

static void
forget_file (struct emu_file *f)
{
  for (int i = 0; i < HD_MAX_FILES; i++)
    if (hd_modern[i] == f)
      hd_modern[i] = NULL;
}

/* what the MPEG engine, then the core, answer */
static long
below (struct emu_file *f, unsigned long req, void *arg)
{
  long r = emu_engine_mpeg.ioctl (f, req, arg);

  return r == EMU_NEXT ? emu_core_ioctl (f, req, arg) : r;
}

static uint32_t
cur_input (struct emu_device *dev)
{
  return dev->card->st->input;
}

static bool
streaming (struct emu_device *dev)
{
  bool s;

  emu_lock (dev);
  s = emu_owner_any (dev);
  emu_unlock (dev);
  return s;
}

/* hdpvr-control.c get_video_info() as tests/vm/usbip's model answers it:
 * 720 x 480 at 30 or 720 x 576 at 25, all zero (not valid) without signal */
static bool
video_info (struct emu_device *dev, uint32_t * w, uint32_t * h, uint32_t * fps)
{
  bool ntsc = dev->card->st->std & V4L2_STD_525_60;

  if (emu_fault_no_signal (dev))
    return false;
  *w = 720;
  *h = ntsc ? 480 : 576;
  *fps = ntsc ? 30 : 25;
  return true;
}

/* v4l2-dv-timings.c v4l2_match_dv_timings(t1, t2, 0, false) */
static bool
same_timings (const struct v4l2_dv_timings *a, const struct v4l2_dv_timings *b)
{
  const struct v4l2_bt_timings *x = &a->bt, *y = &b->bt;

  return a->type == b->type && x->width == y->width && x->height ==
      y->height && x->interlaced == y->interlaced && x->polarities ==
      y->polarities && x->pixelclock == y->pixelclock && x->hfrontporch ==
      y->hfrontporch && x->hsync == y->hsync && x->hbackporch ==
      y->hbackporch && x->vfrontporch == y->vfrontporch && x->vsync ==
      y->vsync && x->vbackporch == y->vbackporch && (!x->interlaced ||
      (x->il_vfrontporch == y->il_vfrontporch && x->il_vsync == y->il_vsync
          && x->il_vbackporch == y->il_vbackporch));
}

/* vidioc_query_dv_timings(): the detected signal's timings */
static long
query_dv (struct emu_device *dev, struct v4l2_dv_timings *t)
{
  uint32_t w, h, fps;

  if (!video_info (dev, &w, &h, &fps))
    return -ENOLCK;
  for (size_t i = 0; i < N_TIMINGS; i++) {
    const struct v4l2_bt_timings *bt = &hd_timings[i].bt;
    uint32_t frame = V4L2_DV_BT_FRAME_WIDTH (bt) * V4L2_DV_BT_FRAME_HEIGHT (bt);
    uint32_t f = (uint32_t) (bt->pixelclock / frame);

    if (bt->width != w || bt->height != h || bt->interlaced != (fps <= 30) ||
        (f != fps && f + 1 != fps))
      continue;
    *t = hd_timings[i];
    return 0;
  }
  return -ERANGE;
}

/* the DV timings ioctls: each leaves legacy mode first, then -ENODATA on
 * an input that is not Component */
static long
dv_ioctl (struct emu_file *f, unsigned long req, void *arg)
{
  struct emu_device *dev = f->dev;
  long r;

  leave_legacy (f);
  if (req == VIDIOC_ENUM_DV_TIMINGS) {
    /* v4l2-ioctl.c: INFO_FL_CLEAR(v4l2_enum_dv_timings, pad), everything
     * after pad is zeroed before the driver runs, even for an index past
     * the end */
    struct v4l2_enum_dv_timings *e = arg;

    memset (e->reserved, 0, sizeof (*e) - offsetof (struct
            v4l2_enum_dv_timings, reserved));
  }
  if (cur_input (dev) != HD_COMPONENT)
    return -ENODATA;
  switch (req) {
    case VIDIOC_S_DV_TIMINGS:{
      struct v4l2_dv_timings *t = arg;
      size_t i, keep = offsetof (struct v4l2_dv_timings, bt.picture_aspect);

      /* v4l2-ioctl.c: INFO_FL_CLEAR(v4l2_dv_timings, bt.flags) */
      memset ((char *) t + keep, 0, sizeof (*t) - keep);

      if ((r = emu_prio_check (f)) < 0)
        return r;
      if (streaming (dev))
        return -EBUSY;
      for (i = 0; i < N_TIMINGS && !same_timings (t, &hd_timings[i]); i++);
      if (i == N_TIMINGS)
        return -EINVAL;
      hd.dv = (int) i;
      hd.width = hd_timings[i].bt.width;
      hd.height = hd_timings[i].bt.height;
      return 0;
    }
    case VIDIOC_G_DV_TIMINGS:
      *(struct v4l2_dv_timings *) arg = hd_timings[hd.dv];
      return 0;
    case VIDIOC_QUERY_DV_TIMINGS:
      return query_dv (dev, arg);
    case VIDIOC_ENUM_DV_TIMINGS:{
      struct v4l2_enum_dv_timings *e = arg;

      if (e->index >= N_TIMINGS)
        return -EINVAL;
      e->timings = hd_timings[e->index];
      return 0;
    }
    default:{                  /* VIDIOC_DV_TIMINGS_CAP */
      struct v4l2_dv_timings_cap *c = arg;

      memset (c, 0, sizeof (*c));
      c->type = V4L2_DV_BT_656_1120;
      c->bt.min_width = 720;
      c->bt.max_width = 1920;
      c->bt.min_height = 480;
      c->bt.max_height = 1080;
      c->bt.min_pixelclock = 27000000;
      c->bt.max_pixelclock = 74250000;
      c->bt.standards = V4L2_DV_BT_STD_CEA861;
      c->bt.capabilities = V4L2_DV_BT_CAP_INTERLACED |
          V4L2_DV_BT_CAP_PROGRESSIVE;
      return 0;
    }
  }
}

/* vidioc_g_std(), vidioc_s_std(), vidioc_querystd(); ENUMSTD is the core's
 * (tvnorms, every input) */
static long
std_ioctl (struct emu_file *f, unsigned long req, void *arg)
{
  struct emu_device *dev = f->dev;
  bool comp = cur_input (dev) == HD_COMPONENT;
  uint32_t w, h, fps;
  long r;

  if (req == VIDIOC_QUERYSTD) {
    v4l2_std_id *std = arg;

    *std = V4L2_STD_UNKNOWN;
    if (comp)
      return legacy (f) ? 0 : -ENODATA;
    if (video_info (dev, &w, &h, &fps))
      *std = h == 480 ? V4L2_STD_525_60 : V4L2_STD_625_50;
    return 0;
  }
  if (comp && !legacy (f))
    return -ENODATA;
  if (req == VIDIOC_G_STD)
    return below (f, req, arg);
  if (streaming (dev))
    return -EBUSY;
  r = below (f, req, arg);
  if (r == 0) {
    hd.width = 720;
    hd.height = (dev->card->st->std & V4L2_STD_525_60) ? 480 : 576;
  }
  return r;
}

/* v4l2-ioctl.c v4l_g_parm() without a vidioc_g_parm: from G_STD */
static long
g_parm (struct emu_file *f, struct v4l2_streamparm *sp)
{
  v4l2_std_id std = 0;
  long r;

  if (sp->type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
    return -EINVAL;
  memset (&sp->parm, 0, sizeof (sp->parm));
  sp->parm.capture.readbuffers = 2;
  r = std_ioctl (f, VIDIOC_G_STD, &std);
  if (r < 0)
    return r;
  sp->parm.capture.timeperframe.numerator =
      (std & V4L2_STD_525_60) ? 1001 : 1;
  sp->parm.capture.timeperframe.denominator =
      (std & V4L2_STD_525_60) ? 30000 : 25;
  return 0;
}

/* vidioc_g_fmt_vid_cap() (S_FMT and TRY_FMT are the same function) */
static long
fmt_ioctl (struct emu_file *f, struct v4l2_format *vf)
{
  struct v4l2_pix_format *pix = &vf->fmt.pix;
  uint32_t w, h, fps;
  long r;

  if (vf->type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
    return -EINVAL;
  if (legacy (f)) {
    if (!video_info (f->dev, &w, &h, &fps))
      return -EFAULT;
  } else {
    w = hd.width;
    h = hd.height;
  }
  r = below (f, VIDIOC_G_FMT, vf);
  if (r < 0)
    return r;
  pix->width = w;
  pix->height = h;
  pix->bytesperline = 0;
  pix->field = w == 720 ? V4L2_FIELD_INTERLACED : V4L2_FIELD_NONE;
  pix->colorspace = w == 720 ? V4L2_COLORSPACE_SMPTE170M :
      V4L2_COLORSPACE_REC709;
  return 0;
}

/* vidioc_enum_input(): no status; Component a DV timings input */
static long
enum_input (struct emu_file *f, struct v4l2_input *in)
{
  long r = below (f, VIDIOC_ENUMINPUT, in);

  if (r < 0)
    return r;
  in->status = 0;
  in->capabilities = in->index == HD_COMPONENT ? V4L2_IN_CAP_DV_TIMINGS :
      V4L2_IN_CAP_STD;
  in->std = in->index == HD_COMPONENT ? 0 : V4L2_STD_ALL;
  return 0;
}

static long
hdpvr_ioctl (struct emu_file *f, unsigned long req, void *arg)
{
  switch (req) {
    case VIDIOC_ENUMINPUT:
      return enum_input (f, arg);
    case VIDIOC_G_FMT:
    case VIDIOC_S_FMT:
    case VIDIOC_TRY_FMT:
      return fmt_ioctl (f, arg);
    case VIDIOC_G_STD:
    case VIDIOC_S_STD:
    case VIDIOC_QUERYSTD:
      return std_ioctl (f, req, arg);
    case VIDIOC_G_PARM:
      return g_parm (f, arg);
    case VIDIOC_S_PARM:
      return -ENOTTY;
    case VIDIOC_S_DV_TIMINGS:
    case VIDIOC_G_DV_TIMINGS:
    case VIDIOC_QUERY_DV_TIMINGS:
    case VIDIOC_ENUM_DV_TIMINGS:
    case VIDIOC_DV_TIMINGS_CAP:
      return dv_ioctl (f, req, arg);
    case VIDIOC_ENCODER_CMD:
    case VIDIOC_TRY_ENCODER_CMD:{
      /* vidioc_encoder_cmd(): a->flags = 0, a stop is at once */
      struct v4l2_encoder_cmd *cmd = arg;
      long r;

      cmd->flags = 0;
      r = emu_engine_mpeg.ioctl (f, req, arg);
      cmd->flags = 0;
      return r;
    }
    case VIDIOC_S_INPUT:
    case VIDIOC_S_AUDIO:
      if (streaming (f->dev))
        return -EBUSY;
      break;
    default:
      break;
  }
  return emu_engine_mpeg.ioctl (f, req, arg);
}

/* the rest is the MPEG engine's */
static int
hdpvr_open (struct emu_file *f)
{
  return emu_engine_mpeg.open (f);
}

static void
hdpvr_close (struct emu_file *f)
{
  forget_file (f);
  emu_engine_mpeg.close (f);
}

/* hdpvr_read(): status IDLE (never started, or stopped) starts streaming
 * (hdpvr_start_streaming()) and reads on: after a stop the engine's one
 * end-of-stream 0 is not what the driver gives, a new stream is.
 * The driver's 8 KiB USB buffers keep their read position (buf->pos)
 * through a stop: hdpvr_cancel_queue() moves them to the free list
 * without resetting it, so the half-read buffer, refilled by the next
 * stream, is read from that position on; the next stream's first
 * usb_pos bytes are lost ('head -c 1000000' left 576 = 1000000 % 8192
 * for the next reader on the real driver). */
#define HD_USB_BUF 8192         /* dev->bulk_in_size */

static ssize_t
read_stream (struct emu_file *f, void *buf, size_t n)
{
  struct emu_shared *st = f->dev->st;
  bool fresh;
  ssize_t r;

  emu_lock (f->dev);
  fresh = !emu_owner_any (f->dev);
  if (fresh)
    st->usb_skip = st->usb_pos;
  emu_unlock (f->dev);
  while (st->usb_skip > 0) {
    unsigned char scratch[HD_USB_BUF];

    r = emu_engine_mpeg.read (f, scratch, st->usb_skip);
    if (r <= 0)
      return r;
    emu_lock (f->dev);
    st->usb_skip -= (uint32_t) r;
    emu_unlock (f->dev);
  }
  r = emu_engine_mpeg.read (f, buf, n);
  if (r > 0) {
    emu_lock (f->dev);
    st->usb_pos = (uint32_t) ((st->usb_pos + (uint64_t) r) % HD_USB_BUF);
    emu_unlock (f->dev);
  }
  return r;
}

static ssize_t
hdpvr_read (struct emu_file *f, void *buf, size_t n)
{
  ssize_t r = read_stream (f, buf, n);

  if (r == 0 && n > 0)
    r = read_stream (f, buf, n);
  return r;
}

static short
hdpvr_poll (struct emu_file *f, short events, int64_t * next_ns)
{
  return emu_engine_mpeg.poll (f, events, next_ns);
}

static bool
hdpvr_busy (struct emu_device *dev)
{
  return emu_engine_mpeg.busy (dev);
}

const struct emu_engine emu_engine_hdpvr = {
  .name = "hdpvr",
  .open = hdpvr_open,
  .close = hdpvr_close,
  .ioctl = hdpvr_ioctl,
  .read = hdpvr_read,
  .poll = hdpvr_poll,
  .busy = hdpvr_busy,
};

/* every input takes the standards in the table: ENUMSTD and the core's
 * G/S_STD answer from it on Component too (tvnorms V4L2_STD_ALL);
 * enum_input() says what vidioc_enum_input() says */
#define HD_INPUT(n, c) {.name = n,.type = V4L2_INPUT_TYPE_CAMERA,       \
    .std = EMU_STD_SDTV,.audioset = 7,.capabilities = V4L2_IN_CAP_STD,  \
    .content = (c)}

const struct emu_profile emu_profile_hdpvr = {
  .name = "hdpvr",
  .summary = "Hauppauge HD PVR (hdpvr): read() only, MPEG-TS of H.264 + AAC, "
      "EFAULT G_FMT without signal",
  .driver = "hdpvr",
  .card = "Hauppauge HD PVR",
  .bus_info = "usb-0000:00:14.0-3",
  .caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_AUDIO | V4L2_CAP_READWRITE,
  .buf_type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
  .inputs = {
        HD_INPUT ("Component", 0),
        HD_INPUT ("S-Video", 1),
        HD_INPUT ("Composite", 2),
      },
  .audios = {
        {.name = "RCA back",.capability = V4L2_AUDCAP_STEREO},
        {.name = "RCA front",.capability = V4L2_AUDCAP_STEREO},
        {.name = "SPDIF",.capability = V4L2_AUDCAP_STEREO},
      },
  .def_std = V4L2_STD_NTSC_M,
  .ctrls = {
        {.id = V4L2_CID_USER_CLASS,.type = V4L2_CTRL_TYPE_CTRL_CLASS,
            .name = "User Controls"},
        {.id = V4L2_CID_BRIGHTNESS,.type = V4L2_CTRL_TYPE_INTEGER,
            .name = "Brightness",.min = 0,.max = 0xff,.step = 1,.def = 0x80},
        {.id = V4L2_CID_CONTRAST,.type = V4L2_CTRL_TYPE_INTEGER,
            .name = "Contrast",.min = 0,.max = 0xff,.step = 1,.def = 0x40},
        {.id = V4L2_CID_SATURATION,.type = V4L2_CTRL_TYPE_INTEGER,
            .name = "Saturation",.min = 0,.max = 0xff,.step = 1,.def = 0x40},
        {.id = V4L2_CID_HUE,.type = V4L2_CTRL_TYPE_INTEGER,
            .name = "Hue",.min = 0,.max = 0x1e,.step = 1,.def = 0xf},
        {.id = V4L2_CID_SHARPNESS,.type = V4L2_CTRL_TYPE_INTEGER,
            .name = "Sharpness",.min = 0,.max = 0xff,.step = 1,.def = 0x80},
        {.id = V4L2_CID_CODEC_CLASS,.type = V4L2_CTRL_TYPE_CTRL_CLASS,
            .name = "Codec Controls"},
        {.id = V4L2_CID_MPEG_STREAM_TYPE,.type = V4L2_CTRL_TYPE_MENU,
              .name = "Stream Type",.min = 0,.max = 1,.def = 1,
            .menu = {[1] = "MPEG-2 Transport Stream"}},
        {.id = V4L2_CID_MPEG_AUDIO_ENCODING,.type = V4L2_CTRL_TYPE_MENU,
              .name = "Audio Encoding",.min = 0,
              .max = V4L2_MPEG_AUDIO_ENCODING_AC3,
              .def = V4L2_MPEG_AUDIO_ENCODING_AAC,
              .menu = {[V4L2_MPEG_AUDIO_ENCODING_AAC] = "MPEG-2/4 AAC",
            [V4L2_MPEG_AUDIO_ENCODING_AC3] = "AC-3"}},
        {.id = V4L2_CID_MPEG_VIDEO_ENCODING,.type = V4L2_CTRL_TYPE_MENU,
              .name = "Video Encoding",.min = 0,.max = 2,.def = 2,
            .menu = {[V4L2_MPEG_VIDEO_ENCODING_MPEG_4_AVC] = "MPEG-4 AVC"}},
        {.id = V4L2_CID_MPEG_VIDEO_BITRATE_MODE,.type = V4L2_CTRL_TYPE_MENU,
              .name = "Video Bitrate Mode",.min = 0,.max = 1,.def = 1,
            .menu = {"Variable Bitrate", "Constant Bitrate"}},
        {.id = V4L2_CID_MPEG_VIDEO_BITRATE,.type = V4L2_CTRL_TYPE_INTEGER,
              .name = "Video Bitrate",.min = 1000000,.max = 13500000,
            .step = 100000,.def = 6500000},
        {.id = V4L2_CID_MPEG_VIDEO_BITRATE_PEAK,.type = V4L2_CTRL_TYPE_INTEGER,
              .name = "Video Peak Bitrate",.min = 1100000,.max = 20200000,
            .step = 100000,.def = 9000000},
      },
  .formats = {
        {.pixelformat = V4L2_PIX_FMT_MPEG,
              .description = "MPEG-1/2/4",
              .flags = V4L2_FMT_FLAG_COMPRESSED,.size_follows_std = true,
              .sizeimage = 8192,
            .sizes = {{.width = 720,.height = 480}}},
      },
  .events = 0,                  /* v4l2_ctrl_subscribe_event: CTRL only */
  .clip = EMU_CLIP_H264,
  .engine = &emu_engine_hdpvr,
};
