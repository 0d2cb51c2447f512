/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* profile-hdpvr.c - `hdpvr`: the Hauppauge HD PVR (hdpvr driver), a USB
 * H.264 encoder.  read() only; an MPEG-2 transport stream carrying H.264
 * and AAC; G_FMT fails with EFAULT while there is no signal; input, audio
 * input and standard changes are EBUSY while it streams.  Kernel sources
 * (drivers/media/usb/hdpvr/hdpvr-video.c):
 *  - vidioc_querycap(): VIDEO_CAPTURE | AUDIO | READWRITE, card "Hauppauge
 *    HD PVR"; hdpvr_fops: read and poll, no mmap (REQBUFS is ENOTTY);
 *  - vidioc_enum_fmt_vid_cap(): one format, V4L2_PIX_FMT_MPEG, COMPRESSED
 *    (the driver's "MPEG2-TS with AVC/AAC streams" is replaced by the
 *    core's "MPEG-1/2/4", v4l2-ioctl.c v4l_fill_fmtdesc());
 *  - vidioc_g_fmt_vid_cap(): in legacy mode (every open, until a DV timings
 *    ioctl) the detected signal's size, and -EFAULT when get_video_info()
 *    finds no valid signal; 720-wide SDTV is INTERLACED, SMPTE170M;
 *  - vidioc_s_input(), vidioc_s_std(), vidioc_s_audio(): -EBUSY unless
 *    dev->status == STATUS_IDLE (i.e. while streaming);
 *  - iname[] / vidioc_enum_input(): "Component", "S-Video", "Composite",
 *    CAMERA inputs, audioset RCA front | RCA back | SPDIF;
 *    audio_iname[] / vidioc_enumaudio(): "RCA front", "RCA back", "SPDIF";
 *  - hdpvr_read(): a read on an idle device starts streaming, also right
 *    after a stop: a fresh stream, never an end-of-stream 0;
 *  - vidioc_encoder_cmd() / vidioc_try_encoder_cmd(): `a->flags = 0`, so
 *    V4L2_ENC_CMD_STOP_AT_GOP_END is ignored and cleared in the returned
 *    flags, and STOP stops streaming at once (hdpvr_stop_streaming()):
 *    nothing drains to the end of a GOP; any other command (PAUSE,
 *    RESUME) is EINVAL: the encoder cannot pause.
 * Not modelled: the Component input's DV timings (the emulator gives it the
 * standards like the others: its core has no DV timings ioctls), HD sizes
 * (every clip is 720x480/576), short reads at USB buffer ends.  The clips
 * are mkpayload-h264.sh's. */
#include "emu.h"
#include "payload.h"

#include <errno.h>

static long
hdpvr_ioctl (struct emu_file *f, unsigned long req, void *arg)
{
  struct emu_device *dev = f->dev;
  bool streaming;

  switch (req) {
    case VIDIOC_ENUMINPUT:{
      /* vidioc_enum_input() sets no status: no NO_SIGNAL here */
      long r = emu_core_ioctl (f, req, arg);

      if (r == 0)
        ((struct v4l2_input *) arg)->status = 0;
      return r;
    }
    case VIDIOC_G_FMT:
      /* legacy mode: no signal, no size: EFAULT */
      if (emu_fault_no_signal (dev))
        return -EFAULT;
      break;
    case VIDIOC_ENCODER_CMD:
    case VIDIOC_TRY_ENCODER_CMD:{
      /* vidioc_encoder_cmd(): a->flags = 0, a stop is at once */
      struct v4l2_encoder_cmd *cmd = arg;
      long r;

      /* only START and STOP: PAUSE, RESUME are EINVAL ("Unsupported
       * encoder cmd", vidioc_encoder_cmd / vidioc_try_encoder_cmd) */
      if (cmd->cmd != V4L2_ENC_CMD_START && cmd->cmd != V4L2_ENC_CMD_STOP)
        return -EINVAL;
      cmd->flags = 0;
      r = emu_engine_mpeg.ioctl (f, req, arg);
      cmd->flags = 0;
      return r;
    }
    case VIDIOC_S_INPUT:
    case VIDIOC_S_STD:
    case VIDIOC_S_AUDIO:
      emu_lock (dev);
      streaming = emu_owner_any (dev);
      emu_unlock (dev);
      if (streaming)
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
  emu_engine_mpeg.close (f);
}

/* hdpvr_read(): status IDLE (never started, or stopped) starts streaming
 * (hdpvr_start_streaming()) and reads on: after a stop the engine's one
 * end-of-stream 0 is not what the driver gives, a new stream is. */
static ssize_t
hdpvr_read (struct emu_file *f, void *buf, size_t n)
{
  ssize_t r = emu_engine_mpeg.read (f, buf, n);

  if (r == 0 && n > 0)
    r = emu_engine_mpeg.read (f, buf, n);
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
        {.name = "RCA front",.capability = V4L2_AUDCAP_STEREO},
        {.name = "RCA back",.capability = V4L2_AUDCAP_STEREO},
        {.name = "SPDIF",.capability = V4L2_AUDCAP_STEREO},
      },
  .def_std = V4L2_STD_NTSC_M,
  .ctrls = {
        {.id = V4L2_CID_USER_CLASS,.type = V4L2_CTRL_TYPE_CTRL_CLASS,
            .name = "User Controls"},
        {.id = V4L2_CID_BRIGHTNESS,.type = V4L2_CTRL_TYPE_INTEGER,
            .name = "Brightness",.min = 0,.max = 0xff,.step = 1,.def = 0x86},
        {.id = V4L2_CID_CONTRAST,.type = V4L2_CTRL_TYPE_INTEGER,
            .name = "Contrast",.min = 0,.max = 0xff,.step = 1,.def = 0x80},
        {.id = V4L2_CID_SATURATION,.type = V4L2_CTRL_TYPE_INTEGER,
            .name = "Saturation",.min = 0,.max = 0xff,.step = 1,.def = 0x80},
        {.id = V4L2_CID_HUE,.type = V4L2_CTRL_TYPE_INTEGER,
            .name = "Hue",.min = 0,.max = 0x1e,.step = 1,.def = 0xf},
        {.id = V4L2_CID_SHARPNESS,.type = V4L2_CTRL_TYPE_INTEGER,
            .name = "Sharpness",.min = 0,.max = 0xff,.step = 1,.def = 0x80},
        {.id = V4L2_CID_CODEC_CLASS,.type = V4L2_CTRL_TYPE_CTRL_CLASS,
            .name = "Codec Controls"},
        {.id = V4L2_CID_MPEG_STREAM_TYPE,.type = V4L2_CTRL_TYPE_MENU,
              .name = "Stream Type",.min = 1,.max = 1,.def = 1,
            .menu = {[1] = "MPEG-2 Transport Stream"}},
        {.id = V4L2_CID_MPEG_AUDIO_ENCODING,.type = V4L2_CTRL_TYPE_MENU,
              .name = "Audio Encoding",.min = 2,.max = 2,.def = 2,
            .menu = {[2] = "AAC"}},
        {.id = V4L2_CID_MPEG_VIDEO_ENCODING,.type = V4L2_CTRL_TYPE_MENU,
              .name = "Video Encoding",.min = 2,.max = 2,.def = 2,
            .menu = {[2] = "H.264"}},
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
  .events = (1u << V4L2_EVENT_EOS),
  .clip = EMU_CLIP_H264,
  .engine = &emu_engine_hdpvr,
};
