/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* stream-frames.h - picture content of the emulated streaming cameras and
 * cards: raw YUYV/UYVY frames and baseline JPEG (MJPEG) frames with moving
 * colour bars and the frame number drawn in (stream-frames.c). */
#ifndef IVTV_EMU_STREAM_FRAMES_H
#define IVTV_EMU_STREAM_FRAMES_H

#include <stddef.h>
#include <stdint.h>

/* What to draw: `content` selects the pattern (per input), `frame` is the
 * number drawn in and moves the pattern, `black` draws a no-signal frame. */
struct emu_picture
{
  uint32_t width, height;
  uint64_t frame;
  int content;
  int black;
  int white;                    /* a sync mark's flash (marks.c) */
};

/* Colour of the picture at pixel (x, y) as BT.601 limited-range Y, Cb, Cr. */
void emu_picture_pixel (const struct emu_picture *pic, uint32_t x, uint32_t y,
    uint8_t yuv[3]);

/* Bytes one frame of `fourcc` takes at this size (sizeimage), 0 if the
 * format is not one stream-frames.c can draw.  MJPEG: an upper bound. */
size_t emu_frame_size (uint32_t fourcc, uint32_t width, uint32_t height);

/* Draws one frame into dst (capacity `cap` bytes, bytesperline = what
 * emu_frame_size implies).  Returns the bytes used, or 0 when the format is
 * unknown or `cap` is too small (nothing sensible can be delivered). */
size_t emu_frame_draw (uint32_t fourcc, const struct emu_picture *pic,
    void *dst, size_t cap);

/* baseline JPEG (4:2:2, DC-only) of the picture; width a
 * multiple of 16 and height of 8.  Returns bytes written, 0 if `cap` is
 * too small. */
size_t emu_jpeg_encode (const struct emu_picture *pic, uint8_t * dst,
    size_t cap);

#endif /* IVTV_EMU_STREAM_FRAMES_H */
