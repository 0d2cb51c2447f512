/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* profile-ivtv-nodes.c - the other nodes of an ivtv card, beside its MPEG
 * node (profile-pvr.c): the YUV node (`pvr250-yuv`, `pvr150-yuv`, at
 * /dev/video32), the PCM node (`pvr250-pcm`, `pvr150-pcm`, /dev/video24)
 * and the radio node (`pvr250-radio`, /dev/radio0).  `ivtv-emu --card
 * pvr250` puts them all at their places.  Kernel sources
 * (drivers/media/pci/ivtv/):
 *  - ivtv-streams.c ivtv_stream_info[]: YUV node VIDEO_CAPTURE | TUNER |
 *    AUDIO | READWRITE at IVTV_V4L2_ENC_YUV_OFFSET (32); PCM node TUNER |
 *    AUDIO | READWRITE (no VIDEO_CAPTURE) at IVTV_V4L2_ENC_PCM_OFFSET (24);
 *    radio node RADIO | TUNER (VFL_TYPE_RADIO, ivtv_v4l2_radio_fops);
 *    every node has the card's bus_info (ivtv-ioctl.c ivtv_querycap());
 *  - ivtv-ioctl.c ivtv_g_fmt_vid_cap(): the YUV node's format is
 *    V4L2_PIX_FMT_NV12_16L16 (HM12), 720 x the standard's height,
 *    bytesperline 720, sizeimage height x 720 x 3 / 2, field INTERLACED;
 *    ivtv_enum_fmt_vid_cap() lists HM12 on the YUV node only;
 *  - ivtv-fileops.c: the YUV and PCM nodes are read() only (no mmap, the
 *    encoder fops have no vb2 queue); Documentation/admin-guide/media/
 *    ivtv.rst: "/dev/video24 ... raw (signed 16 bit Little Endian, 48000
 *    Hz, stereo pcm) capture", "/dev/video32 ... raw YUV video";
 *  - the ioctl ops and the control handler are the card's, shared by its
 *    nodes: the inputs, audio inputs, standards, tuner and controls are
 *    those of the MPEG node; with the MPEG node in the run, input,
 *    standard, tuner and priority are its (interpose.c link_cards()).
 * The YUV node draws the streaming engine's picture (stream-frames.c) as
 * HM12; the PCM node's samples are pcm.c's. */
#include "profile-pvr.h"

#include <errno.h>

#define YUV_SIZES {                                                     \
    { 720, 480, { { 1001, 30000 } } },                                  \
    { 720, 576, { { 1, 25 } } },                                        \
  }

#define IVTV_YUV_NODE \
  .driver = "ivtv", \
  .caps = MPEG_CAPS, \
  .buf_type = V4L2_BUF_TYPE_VIDEO_CAPTURE, \
  .def_std = V4L2_STD_NTSC_M, \
  .tuner = TV_TUNER, \
  .ctrls = {MPEG_CTRLS}, \
  .formats = { {.pixelformat = V4L2_PIX_FMT_HM12, \
      .description = "Y/CbCr 4:2:0 (16x16 Linear)", \
      .size_follows_std = true,.sizes = YUV_SIZES} }, \
  .engine = &emu_engine_stream

#define IVTV_PCM_NODE \
  .driver = "ivtv", \
  .caps = V4L2_CAP_TUNER | V4L2_CAP_AUDIO | V4L2_CAP_READWRITE, \
  .def_std = V4L2_STD_NTSC_M, \
  .tuner = TV_TUNER, \
  .ctrls = {MPEG_CTRLS}, \
  .engine = &emu_engine_pcm

const struct emu_profile emu_profile_pvr250_yuv = {
  .name = "pvr250-yuv",
  .summary = "PVR-250's YUV node (/dev/video32): HM12 720x480/576 by read()",
  .card = "WinTV PVR 250",
  .bus_info = "PCI:0000:03:01.0",
  .inputs = {PVR250_INPUTS},
  .audios = {PVR250_AUDIOS},
  IVTV_YUV_NODE,
};

const struct emu_profile emu_profile_pvr250_pcm = {
  .name = "pvr250-pcm",
  .summary = "PVR-250's PCM node (/dev/video24): S16LE stereo 48 kHz by read()",
  .card = "WinTV PVR 250",
  .bus_info = "PCI:0000:03:01.0",
  .inputs = {PVR250_INPUTS},
  .audios = {PVR250_AUDIOS},
  IVTV_PCM_NODE,
};

const struct emu_profile emu_profile_pvr150_yuv = {
  .name = "pvr150-yuv",
  .summary = "PVR-150's YUV node (/dev/video32): HM12 720x480/576 by read()",
  .card = "WinTV PVR 150",
  .bus_info = "PCI:0000:04:00.0",
  .inputs = {PVR150_INPUTS},
  .audios = {PVR150_AUDIOS},
  IVTV_YUV_NODE,
};

const struct emu_profile emu_profile_pvr150_pcm = {
  .name = "pvr150-pcm",
  .summary = "PVR-150's PCM node (/dev/video24): S16LE stereo 48 kHz by read()",
  .card = "WinTV PVR 150",
  .bus_info = "PCI:0000:04:00.0",
  .inputs = {PVR150_INPUTS},
  .audios = {PVR150_AUDIOS},
  IVTV_PCM_NODE,
};

/* The radio node: no inputs, no formats, no read() (ivtv_v4l2_radio_fops
 * has open/release/ioctl/poll only); the v4l2-ioctl.c core gives ENOTTY for
 * the video ioctls of a VFL_TYPE_RADIO node (determine_valid_ioctls()). */
static long
radio_ioctl (struct emu_file *f, unsigned long req, void *arg)
{
  (void) f;
  switch (req) {
    case VIDIOC_S_TUNER:{
      /* an FM tuner has mono and stereo only: the language modes become
       * stereo (tuner-core.c tuner_s_tuner() for radio) */
      struct v4l2_tuner *tu = arg;

      if (tu->audmode > V4L2_TUNER_MODE_STEREO
          && tu->audmode <= V4L2_TUNER_MODE_LANG1_LANG2)
        tu->audmode = V4L2_TUNER_MODE_STEREO;
      return EMU_NEXT;
    }
    case VIDIOC_ENUMINPUT:
    case VIDIOC_G_INPUT:
    case VIDIOC_S_INPUT:
    case VIDIOC_ENUMSTD:
    case VIDIOC_G_STD:
    case VIDIOC_S_STD:
    case VIDIOC_QUERYSTD:
    case VIDIOC_ENUM_FMT:
    case VIDIOC_G_FMT:
    case VIDIOC_S_FMT:
    case VIDIOC_TRY_FMT:
    case VIDIOC_G_PARM:
    case VIDIOC_S_PARM:
    case VIDIOC_ENUMAUDIO:
    case VIDIOC_G_AUDIO:
    case VIDIOC_S_AUDIO:
      return -ENOTTY;
    default:
      return EMU_NEXT;
  }
}

static short
radio_poll (struct emu_file *f, short events, int64_t * next_ns)
{
  (void) events;
  (void) next_ns;
  return emu_event_pending (f) ? POLLPRI : 0;
}

static const struct emu_engine emu_engine_radio = {
  .name = "radio",
  .ioctl = radio_ioctl,
  .poll = radio_poll,
};

const struct emu_profile emu_profile_pvr250_radio = {
  .name = "pvr250-radio",
  .summary = "PVR-250's FM radio node (/dev/radio0): tuner only, no samples "
      "(its sound is on the PCM node)",
  .driver = "ivtv",
  .card = "WinTV PVR 250",
  .bus_info = "PCI:0000:03:01.0",
  .caps = V4L2_CAP_RADIO | V4L2_CAP_TUNER,
  .tuner = {.name = "ivtv radio",.type = V4L2_TUNER_RADIO,
        .capability = V4L2_TUNER_CAP_LOW | V4L2_TUNER_CAP_STEREO,
        .rangelow = 65 * 16000,.rangehigh = 108 * 16000,
        .rxsubchans = V4L2_TUNER_SUB_STEREO,
      .def_frequency = 1536000 /* 96 MHz */ },
  .ctrls = {
        {.id = V4L2_CID_USER_CLASS,.type = V4L2_CTRL_TYPE_CTRL_CLASS,
            .name = "User Controls"},
        {.id = V4L2_CID_AUDIO_VOLUME,.type = V4L2_CTRL_TYPE_INTEGER,
              .name = "Volume",.min = 0,.max = 65535,.step = 655,.def = 58950,
            .flags = V4L2_CTRL_FLAG_SLIDER},
        {.id = V4L2_CID_AUDIO_MUTE,.type = V4L2_CTRL_TYPE_BOOLEAN,
            .name = "Mute",.min = 0,.max = 1,.step = 1,.def = 0},
      },
  .engine = &emu_engine_radio,
};
