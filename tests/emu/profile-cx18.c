/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* profile-cx18.c - `cx18`: a Hauppauge HVR-1600 (cx18 driver, the cx23418:
 * the cx2341x encoder's successor), its MPEG node like ivtv's, and
 * `cx18-yuv` (/dev/video32: HM12 and UYVY, read() and streaming) and
 * `cx18-pcm` (/dev/video24: S16LE stereo 48 kHz by read()); `ivtv-emu
 * --card cx18` puts all three in place.  Kernel sources
 * (drivers/media/pci/cx18/):
 *  - cx18-streams.c cx18_stream_info[]: MPEG node VIDEO_CAPTURE |
 *    READWRITE | AUDIO | TUNER; YUV node (CX18_V4L2_ENC_YUV_OFFSET 32)
 *    VIDEO_CAPTURE | READWRITE | STREAMING | AUDIO | TUNER; PCM node
 *    (CX18_V4L2_ENC_PCM_OFFSET 24) TUNER | AUDIO | READWRITE;
 *  - cx18-ioctl.c cx18_enum_fmt_vid_cap(): the YUV node offers HM12 and
 *    UYVY; cx18_g_fmt_vid_cap(): 720 x the standard's height, INTERLACED;
 *    the YUV node alone has a buffer queue for streaming
 *    (cx18-streams.c, the STREAMING capability above);
 *  - cx18-cards.c: the HVR-1600's inputs "Tuner 1", "S-Video 1",
 *    "S-Video 2", "Composite 1", "Composite 2", "Component 1" (input names
 *    from cx18-ioctl.c cx18_get_input()), audio inputs "Tuner 1",
 *    "Line In 1", "Line In 2";
 *  - the cx2341x codec controls (cx18-controls.c uses cx2341x_handler).
 * Format descriptions are the core's (v4l2-ioctl.c v4l_fill_fmtdesc()).
 * Each node keeps its own settings here (see profile-ivtv-nodes.c). */
#include "profile-pvr.h"

#define CX18_INPUTS \
  TUNER_INPUT ("Tuner 1"), \
  LINE_INPUT ("S-Video 1", 1, 1), \
  LINE_INPUT ("S-Video 2", 2, 3), \
  LINE_INPUT ("Composite 1", 1, 2), \
  LINE_INPUT ("Composite 2", 2, 4), \
  LINE_INPUT ("Component 1", 1, 0)
#define CX18_AUDIOS \
  {.name = "Tuner 1",.capability = V4L2_AUDCAP_STEREO}, \
  {.name = "Line In 1",.capability = V4L2_AUDCAP_STEREO}, \
  {.name = "Line In 2",.capability = V4L2_AUDCAP_STEREO}
#define CX18_CARD \
  .driver = "cx18", \
  .card = "Hauppauge HVR-1600", \
  .bus_info = "PCI:0000:05:00.0", \
  .inputs = {CX18_INPUTS}, \
  .audios = {CX18_AUDIOS}, \
  .def_std = V4L2_STD_NTSC_M, \
  .tuner = TV_TUNER, \
  .ctrls = {MPEG_CTRLS}

#define YUV_SIZES {                                                     \
    { 720, 480, { { 1001, 30000 } } },                                  \
    { 720, 576, { { 1, 25 } } },                                        \
  }

const struct emu_profile emu_profile_cx18 = {
  .name = "cx18",
  .summary = "Hauppauge HVR-1600 (cx18) MPEG encoder: read() only, 6 inputs, "
      "tuner",
  CX18_CARD,
  .caps = MPEG_CAPS,
  .buf_type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
  .formats = {MPEG_FORMATS},
  .events = (1u << V4L2_EVENT_EOS) | (1u << V4L2_EVENT_SOURCE_CHANGE),
  .engine = &emu_engine_mpeg,
};

const struct emu_profile emu_profile_cx18_yuv = {
  .name = "cx18-yuv",
  .summary = "HVR-1600's YUV node (/dev/video32): HM12 and UYVY, read() and "
      "streaming",
  CX18_CARD,
  .caps = MPEG_CAPS | V4L2_CAP_STREAMING,
  .buf_type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
  .formats = {
        {.pixelformat = V4L2_PIX_FMT_HM12,
              .description = "Y/CbCr 4:2:0 (16x16 Linear)",
            .size_follows_std = true,.sizes = YUV_SIZES},
        {.pixelformat = V4L2_PIX_FMT_UYVY,.description = "UYVY 4:2:2",
            .size_follows_std = true,.sizes = YUV_SIZES},
      },
  .engine = &emu_engine_stream,
};

const struct emu_profile emu_profile_cx18_pcm = {
  .name = "cx18-pcm",
  .summary = "HVR-1600's PCM node (/dev/video24): S16LE stereo 48 kHz by "
      "read()",
  CX18_CARD,
  .caps = V4L2_CAP_TUNER | V4L2_CAP_AUDIO | V4L2_CAP_READWRITE,
  .engine = &emu_engine_pcm,
};
