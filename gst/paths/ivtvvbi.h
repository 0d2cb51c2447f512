/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — capture from a VBI node (/dev/vbiN): the VBI path.
 *
 * A node with V4L2_CAP_SLICED_VBI_CAPTURE (the card slices the lines: ivtv,
 * cx18, saa7134, vivid) or V4L2_CAP_VBI_CAPTURE (sampled lines, decoded here
 * with libzvbi when the build has it: meson option zvbi) and read() I/O is
 * captured one frame per buffer:
 *  - closed captions (CEA-608 on line 21, 525-line 60 Hz standards only) as
 *    closedcaption/x-cea-608, format s334-1a (both fields, three bytes per
 *    field: 0x80 | line offset for field 1, the line offset for field 2,
 *    then the two bytes) or raw (the two bytes of field 1), chosen by
 *    negotiation, framerate 30000/1001;
 *  - WSS (line 23, 625-line 50 Hz standards): the aspect of the picture,
 *    posted as an `ivtvsrc-wss` element message when it changes, and pushed
 *    as application/x-ivtv-wss (two bytes a frame: the 14 WSS bits, LE).
 * The reader thread stamps each buffer with the pipeline clock's running
 * time when the frame was read (ivtvreaderthread.h), as it does the video
 * of another ivtvsrc on the card's video node, so cccombiner pairs the two.
 *
 * The session calls these instead of its video format and path when the
 * node's kind is IVTV_NODE_VBI (ivtvcard.h): the set-up at start
 * (ivtvcapture.c), the card's priority (ivtvcaptureopen.c), the caps
 * (ivtvcaptureformat.c), the path (ivtvcaptureread.c). */
#ifndef __IVTV_VBI_H__
#define __IVTV_VBI_H__

#include <gst/gst.h>
#include "ivtvdevice.h"
#include "ivtvpath.h"

G_BEGIN_DECLS

/* property vbi-services */
typedef enum
{
  IVTV_VBI_SERVICES_AUTO,       /* CC on 60 Hz standards, WSS on 50 Hz */
  IVTV_VBI_SERVICES_CC,
  IVTV_VBI_SERVICES_WSS
} IvtvVbiServices;

/* property vbi-mode */
typedef enum
{
  IVTV_VBI_MODE_AUTO,           /* sliced when the node has it, else raw */
  IVTV_VBI_MODE_SLICED,
  IVTV_VBI_MODE_RAW
} IvtvVbiMode;

typedef struct
{
  IvtvVbiServices services;
  IvtvVbiMode mode;
} IvtvVbiSettings;

/* What the capture was set up for (ivtv_vbi_setup). */
typedef struct
{
  gboolean raw;                 /* raw VBI decoded with libzvbi */
  gboolean cc;                  /* CC, else WSS */
  gboolean s334;                /* CC caps: s334-1a, else raw */
  gboolean is525;
  guint frame_size;             /* bytes of one frame's read() */
  struct v4l2_vbi_format rawfmt;
} IvtvVbiFormat;

#define IVTV_VBI_CAPS_CC "closedcaption/x-cea-608, " \
    "format = (string) { s334-1a, raw }, framerate = (fraction) 30000/1001"
#define IVTV_VBI_CAPS_WSS "application/x-ivtv-wss, " \
    "framerate = (fraction) 25/1"

/* The device provider's class of a VBI node: not "Video/Source", so
 * that video pickers (a GstDeviceMonitor filtered on Video/Source) do not
 * offer it; caption tools ask for "Captions/Source". */
#define IVTV_VBI_DEVICE_CLASS "Captions/Source"

/* A VBI capture goes with the card's video capture (another ivtvsrc that
 * holds the card's record priority, ivtvpriority.h): it takes the record
 * priority too, without the busy checks, only while its settings and
 * formats are set (the session gives it back once started: read() needs
 * none), so the two start in either order.  Always TRUE. */
gboolean ivtv_vbi_take_card (IvtvDevice * dev, gboolean * held);

/* A video capture took (or gives back) its card's record priority: a VBI
 * capture of the card in this process may borrow it for its S_FMT. */
void ivtv_vbi_note_holder (IvtvDevice * dev, gboolean held);
void ivtv_vbi_forget_holder (IvtvDevice * dev);

/* The pad template's share. */
GstCaps *ivtv_vbi_template_caps (void);

/* The caps of the node as the standard now is, for @settings. */
GstCaps *ivtv_vbi_device_caps (IvtvDevice * dev,
    const IvtvVbiSettings * settings);

/* At start, after the standard is set: can the node give @settings on this
 * standard, and how (sliced or raw, the formats set with S_FMT)?  FALSE
 * after posting one error on @element. */
gboolean ivtv_vbi_setup (IvtvDevice * dev, GstElement * element,
    const IvtvVbiSettings * settings, IvtvVbiFormat * fmt);

/* The negotiated caps (s334-1a or raw). */
void ivtv_vbi_apply_caps (IvtvVbiFormat * fmt, GstCaps * caps);

/* The path: read() a frame, decode, one buffer per frame. */
IvtvPath *ivtv_vbi_path_new (const IvtvPathConfig * config,
    const IvtvVbiFormat * fmt, GError ** error);

/* The aspect a WSS value says: "16:9" (anamorphic) or "4:3", and the
 * format's name (ETSI EN 300 294 group 1); NULL for a parity error. */
const gchar *ivtv_vbi_wss_aspect (guint wss, const gchar ** format);

/* Decode sliced records / raw CC bytes (for the unit tests). */
typedef struct
{
  guint8 cc[2][2];              /* per field */
  gboolean has_cc[2];
  gint wss;                     /* -1: none */
} IvtvVbiFrame;

void ivtv_vbi_parse_sliced (const guint8 * data, gsize size,
    IvtvVbiFrame * frame);
/* the closedcaption/x-cea-608 buffer of one frame */
GstBuffer *ivtv_vbi_cc_buffer (const IvtvVbiFrame * frame, gboolean s334);

G_END_DECLS

#endif /* __IVTV_VBI_H__ */
