/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* profile-pvr.h - what the cx2341x MPEG encoder cards share: the ivtv
 * encoder node's capabilities, tuner, controls (cx2341x codec controls and
 * the user controls) and its one MPEG format.  Used by profile-pvr.c (ivtv)
 * and profile-pvrusb2.c (pvrusb2, the same encoder chip on USB). */
#ifndef IVTV_EMU_PROFILE_PVR_H
#define IVTV_EMU_PROFILE_PVR_H

#include "emu.h"

#define MPEG_CAPS (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_TUNER | V4L2_CAP_AUDIO | \
    V4L2_CAP_READWRITE)

#define TV_TUNER { .name = "ivtv TV Tuner", .type = V4L2_TUNER_ANALOG_TV, \
    .capability = V4L2_TUNER_CAP_NORM | V4L2_TUNER_CAP_STEREO | \
      V4L2_TUNER_CAP_LANG1 | V4L2_TUNER_CAP_LANG2, \
    .rangelow = 44 * 16, .rangehigh = 958 * 16, \
    .rxsubchans = V4L2_TUNER_SUB_MONO | V4L2_TUNER_SUB_STEREO, \
    .def_frequency = 1076 /* 67.25 MHz, NTSC channel 4 */ }

#define IN_STD (EMU_STD_SDTV)

/* cx2341x encoder + ivtv user controls (same on both cards) */
#define MPEG_CTRLS \
  { .id = V4L2_CID_USER_CLASS, .type = V4L2_CTRL_TYPE_CTRL_CLASS, \
    .name = "User Controls" }, \
  { .id = V4L2_CID_BRIGHTNESS, .type = V4L2_CTRL_TYPE_INTEGER, \
    .name = "Brightness", .min = 0, .max = 255, .step = 1, .def = 128, \
    .flags = V4L2_CTRL_FLAG_SLIDER }, \
  { .id = V4L2_CID_CONTRAST, .type = V4L2_CTRL_TYPE_INTEGER, \
    .name = "Contrast", .min = 0, .max = 127, .step = 1, .def = 64, \
    .flags = V4L2_CTRL_FLAG_SLIDER }, \
  { .id = V4L2_CID_SATURATION, .type = V4L2_CTRL_TYPE_INTEGER, \
    .name = "Saturation", .min = 0, .max = 127, .step = 1, .def = 64, \
    .flags = V4L2_CTRL_FLAG_SLIDER }, \
  { .id = V4L2_CID_HUE, .type = V4L2_CTRL_TYPE_INTEGER, \
    .name = "Hue", .min = -128, .max = 127, .step = 1, .def = 0, \
    .flags = V4L2_CTRL_FLAG_SLIDER }, \
  { .id = V4L2_CID_AUDIO_VOLUME, .type = V4L2_CTRL_TYPE_INTEGER, \
    .name = "Volume", .min = 0, .max = 65535, .step = 655, .def = 58950, \
    .flags = V4L2_CTRL_FLAG_SLIDER }, \
  { .id = V4L2_CID_AUDIO_MUTE, .type = V4L2_CTRL_TYPE_BOOLEAN, \
    .name = "Mute", .min = 0, .max = 1, .step = 1, .def = 0 }, \
  { .id = V4L2_CID_CODEC_CLASS, .type = V4L2_CTRL_TYPE_CTRL_CLASS, \
    .name = "Codec Controls" }, \
  { .id = V4L2_CID_MPEG_STREAM_TYPE, .type = V4L2_CTRL_TYPE_MENU, \
    .name = "Stream Type", .min = 0, .max = 5, .def = 0, \
    .busy_while_streaming = true, \
    .menu = { "MPEG-2 Program Stream", "MPEG-2 Transport Stream", \
      "MPEG-1 System Stream", "MPEG-2 DVD-compatible Stream", \
      "MPEG-1 VCD-compatible Stream", "MPEG-2 SVCD-compatible Stream" } }, \
  { .id = V4L2_CID_MPEG_AUDIO_SAMPLING_FREQ, .type = V4L2_CTRL_TYPE_MENU, \
    .name = "Audio Sampling Frequency", .min = 0, .max = 2, .def = 1, \
    .busy_while_streaming = true, \
    .menu = { "44.1 kHz", "48 kHz", "32 kHz" } }, \
  { .id = V4L2_CID_MPEG_AUDIO_ENCODING, .type = V4L2_CTRL_TYPE_MENU, \
    .name = "Audio Encoding", .min = 1, .max = 1, .def = 1, \
    .busy_while_streaming = true, \
    .menu = { [1] = "MPEG-1/2 Layer II" } }, \
  { .id = V4L2_CID_MPEG_AUDIO_L2_BITRATE, .type = V4L2_CTRL_TYPE_MENU, \
    .name = "Audio Layer II Bitrate", .min = 9, .max = 13, .def = 10, \
    .busy_while_streaming = true, \
    .menu = { [9] = "192 kbps", [10] = "224 kbps", [11] = "256 kbps", \
      [12] = "320 kbps", [13] = "384 kbps" } }, \
  { .id = V4L2_CID_MPEG_AUDIO_MODE, .type = V4L2_CTRL_TYPE_MENU, \
    .name = "Audio Stereo Mode", .min = 0, .max = 3, .def = 0, \
    .menu = { "Stereo", "Joint Stereo", "Dual", "Mono" } }, \
  { .id = V4L2_CID_MPEG_VIDEO_ENCODING, .type = V4L2_CTRL_TYPE_MENU, \
    .name = "Video Encoding", .min = 0, .max = 1, .def = 1, \
    .busy_while_streaming = true, \
    .menu = { "MPEG-1", "MPEG-2" } }, \
  { .id = V4L2_CID_MPEG_VIDEO_ASPECT, .type = V4L2_CTRL_TYPE_MENU, \
    .name = "Video Aspect", .min = 0, .max = 3, .def = 1, \
    .menu = { "1x1", "4x3", "16x9", "2.21x1" } }, \
  { .id = V4L2_CID_MPEG_VIDEO_B_FRAMES, .type = V4L2_CTRL_TYPE_INTEGER, \
    .name = "Video B Frames", .min = 0, .max = 33, .step = 1, .def = 2, \
    .busy_while_streaming = true }, \
  { .id = V4L2_CID_MPEG_VIDEO_GOP_SIZE, .type = V4L2_CTRL_TYPE_INTEGER, \
    .name = "Video GOP Size", .min = 1, .max = 34, .step = 1, .def = 12, \
    .busy_while_streaming = true }, \
  { .id = V4L2_CID_MPEG_VIDEO_GOP_CLOSURE, .type = V4L2_CTRL_TYPE_BOOLEAN, \
    .name = "Video GOP Closure", .min = 0, .max = 1, .step = 1, .def = 1 }, \
  { .id = V4L2_CID_MPEG_VIDEO_BITRATE_MODE, .type = V4L2_CTRL_TYPE_MENU, \
    .name = "Video Bitrate Mode", .min = 0, .max = 1, .def = 0, \
    .busy_while_streaming = true, \
    .menu = { "Variable Bitrate", "Constant Bitrate" } }, \
  { .id = V4L2_CID_MPEG_VIDEO_BITRATE, .type = V4L2_CTRL_TYPE_INTEGER, \
    .name = "Video Bitrate", .min = 0, .max = 27000000, .step = 1, \
    .def = 6000000 }, \
  { .id = V4L2_CID_MPEG_VIDEO_BITRATE_PEAK, .type = V4L2_CTRL_TYPE_INTEGER, \
    .name = "Video Peak Bitrate", .min = 0, .max = 27000000, .step = 1, \
    .def = 8000000 }, \
  { .id = V4L2_CID_MPEG_VIDEO_TEMPORAL_DECIMATION, \
    .type = V4L2_CTRL_TYPE_INTEGER, .name = "Video Temporal Decimation", \
    .min = 0, .max = 15, .step = 1, .def = 0 }

#define MPEG_FORMATS \
  { .pixelformat = V4L2_PIX_FMT_MPEG, .description = "MPEG-1/2/4", \
    .flags = V4L2_FMT_FLAG_COMPRESSED, .size_follows_std = true, \
    .sizeimage = 128 * 1024, \
    .sizes = { { .width = 720, .height = 480 } } }

/* what every ivtv MPEG encoder node has; a profile adds its name, card,
 * bus and inputs */
#define IVTV_ENCODER \
  .driver = "ivtv", \
  .caps = MPEG_CAPS, \
  .buf_type = V4L2_BUF_TYPE_VIDEO_CAPTURE, \
  .def_std = V4L2_STD_NTSC_M, \
  .tuner = TV_TUNER, \
  .ctrls = {MPEG_CTRLS}, \
  .formats = {MPEG_FORMATS}, \
  .events = (1u << V4L2_EVENT_EOS) | (1u << V4L2_EVENT_SOURCE_CHANGE), \
  .engine = &emu_engine_mpeg

#define TUNER_INPUT(n) {.name = n,.type = V4L2_INPUT_TYPE_TUNER,.std = IN_STD, \
    .audioset = 1 << 0,.tuner = 0,.capabilities = V4L2_IN_CAP_STD,.content = 0}
#define LINE_INPUT(n, audio, c) {.name = n,.type = V4L2_INPUT_TYPE_CAMERA, \
    .std = IN_STD,.audioset = 1 << (audio),.capabilities = V4L2_IN_CAP_STD, \
    .content = (c)}

/* the inputs and audio inputs of each card: every node of the card answers
 * ENUMINPUT/ENUMAUDIO the same (ivtv's ioctl ops are shared by its nodes,
 * ivtv-ioctl.c ivtv_set_funcs()) */
#define PVR250_INPUTS \
  TUNER_INPUT ("Tuner 1"), \
  LINE_INPUT ("S-Video 1", 1, 1), \
  LINE_INPUT ("Composite 1", 1, 2), \
  LINE_INPUT ("S-Video 2", 2, 3), \
  LINE_INPUT ("Composite 2", 2, 4)
#define PVR250_AUDIOS \
  {.name = "Tuner 1",.capability = V4L2_AUDCAP_STEREO}, \
  {.name = "Line In 1",.capability = V4L2_AUDCAP_STEREO}, \
  {.name = "Line In 2",.capability = V4L2_AUDCAP_STEREO}
#define PVR150_INPUTS \
  TUNER_INPUT ("Television"), \
  LINE_INPUT ("Composite 1", 1, 2), \
  LINE_INPUT ("S-Video 1", 1, 1)
#define PVR150_AUDIOS \
  {.name = "Television",.capability = V4L2_AUDCAP_STEREO}, \
  {.name = "Line In",.capability = V4L2_AUDCAP_STEREO}

#endif
