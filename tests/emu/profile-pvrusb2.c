/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* profile-pvrusb2.c - `pvrusb2`: a Hauppauge WinTV PVR-USB2 (pvrusb2
 * driver, the cx23416 encoder of the PVR-250 on USB).  One video node, MPEG
 * program stream by read() only, no YUV or PCM node; inputs "television",
 * "s-video", "composite", "radio".  Kernel sources:
 *  - drivers/media/usb/pvrusb2/pvrusb2-v4l2.c pvr2_querycap(): the video
 *    node is VIDEO_CAPTURE | TUNER | AUDIO | READWRITE; pvr2_v4l2_fops has
 *    read and poll, no mmap and no vb2 (REQBUFS is ENOTTY);
 *  - pvrusb2-v4l2.c pvr2_enum_input(): the input names are the values of
 *    the "input" control (pvrusb2-hdw.c control_values_input[]), in the
 *    order of their PVR2_CVAL_INPUT_* values (pvr2_v4l2_open builds
 *    input_map so): "television", "composite", "s-video", "radio", as the
 *    real driver lists them in the VM (tests/vm/usbip, pvrusb2.bind);
 *    television and radio are TUNER inputs, the others CAMERA;
 *  - pvr2_querycap(): the card name is the device description
 *    (pvrusb2-devattr.c pvr2_device_29xxx: "WinTV PVR USB2 Model 29xxx");
 *  - pvr_format[] (pvrusb2-v4l2.c): sizeimage 32 KiB;
 *  - no event ioctls: pvr2_ioctl_ops has no vidioc_subscribe_event, and
 *    no vidioc_encoder_cmd / vidioc_try_encoder_cmd: ENCODER_CMD is
 *    ENOTTY (the encoder stops when the last reader closes,
 *    pvr2_v4l2_release -> pvr2_hdw_set_streaming).
 *  - the reader's buffers: pvrusb2-ioread.c pvr2_ioread_setup gives the
 *    stream BUFFER_COUNT 32 buffers of BUFFER_SIZE 16 KiB, each filled by
 *    one bulk URB (pvrusb2-io.c pvr2_buffer_queue: usb_fill_bulk_urb of
 *    the buffer's whole size), ready for read() only when it completes
 *    (buffer_complete; the FX2 sends full 512-byte packets): the stream
 *    becomes readable 16 KiB at a time (read_unit);
 *  - read() takes every ready buffer up to its size (pvrusb2-ioread.c
 *    pvr2_ioread_read), O_NONBLOCK gives EAGAIN when none is ready
 *    (pvrusb2-v4l2.c pvr2_v4l2_read, pvr2_ioread_avail); a blocking read()
 *    waits only while none is ready (pvr2_v4l2_read loops on -EAGAIN
 *    alone) and returns what it copied, not a full buffer as ivtv_read()
 *    (read_partial);
 *  - the close throws away what the driver holds: pvr2_v4l2_release
 *    stops streaming (pvrusb2-hdw.c pvr2_hdw_set_streaming) and frees
 *    the buffers with their data (pvr2_ioread_destroy -> pvr2_ioread_setup
 *    (cp, NULL) -> pvr2_ioread_stop, pvr2_stream_kill); the emulator
 *    counts those bytes in <rundir>/unread-videoN (close_counts_unread);
 *  - pvrusb2-hdw.c: the encoder is cx2341x, so the codec controls are
 *    those of the ivtv cards (profile-pvr.h).
 *  - every input has V4L2_IN_CAP_STD: the v4l2-ioctl.c core sets it when
 *    the node has S_STD (v4l_enuminput()), the radio input too.
 * The radio input carries no picture: the emulator gives the black clip. */
#include "payload.h"
#include "profile-pvr.h"

const struct emu_profile emu_profile_pvrusb2 = {
  .name = "pvrusb2",
  .summary = "Hauppauge WinTV PVR-USB2 (pvrusb2) MPEG encoder: one node, "
      "read() only, television/composite/s-video/radio",
  .driver = "pvrusb2",
  .card = "WinTV PVR USB2 Model 29xxx",
  .bus_info = "usb-0000:00:1d.7-4",
  .caps = MPEG_CAPS,
  .buf_type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
  .inputs = {
        TUNER_INPUT ("television"),
        LINE_INPUT ("composite", 0, 2),
        LINE_INPUT ("s-video", 0, 1),
        {.name = "radio",.type = V4L2_INPUT_TYPE_TUNER,.std = IN_STD,
              .audioset = 1 << 0,.tuner = 0,.capabilities = V4L2_IN_CAP_STD,
            .content = EMU_CONTENT_BLACK},
      },
  .audios = {
        {.name = "PVRUSB2 Audio",.capability = V4L2_AUDCAP_STEREO},
      },
  .def_std = V4L2_STD_NTSC_M,
  .tuner = TV_TUNER,
  .ctrls = {MPEG_CTRLS},
  .formats = {
        {.pixelformat = V4L2_PIX_FMT_MPEG,.description = "MPEG-1/2/4",
              .flags = V4L2_FMT_FLAG_COMPRESSED,.size_follows_std = true,
              .sizeimage = 32 * 1024,
            .sizes = {{.width = 720,.height = 480}}},
      },
  .events = 0,
  .no_encoder_cmd = true,
  .read_unit = 16384,
  .read_partial = true,
  .close_counts_unread = true,
  .engine = &emu_engine_mpeg,
};
