/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — capture from a VBI node: the services the standard allows,
 * sliced or raw (libzvbi) set-up, and the VBI path that reads one frame a
 * buffer and turns it into CEA-608 or WSS (see ivtvvbi.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvvbi.h"
#include "ivtvread.h"
#include "ivtvdebug.h"

#include <errno.h>
#include <string.h>

#if HAVE_ZVBI
#include <libzvbi.h>
#endif

#define GST_CAT_DEFAULT ivtv_debug

#define SLICED_REC (sizeof (struct v4l2_sliced_vbi_data))
#define CC_NULL 0x80            /* a null byte with odd parity */

GstCaps *
ivtv_vbi_template_caps (void)
{
  return gst_caps_from_string (IVTV_VBI_CAPS_CC "; " IVTV_VBI_CAPS_WSS);
}

/* 1: a 525-line standard, 0: 625, -1: no standard (G_STD failed) */
static gint
standard_is_525 (IvtvDevice * dev, v4l2_std_id * std)
{
  *std = 0;
  if (ivtv_ioctl (dev, VIDIOC_G_STD, std) < 0 || *std == 0)
    return -1;
  return (*std & V4L2_STD_525_60) ? 1 : 0;
}

static gboolean
want_cc (const IvtvVbiSettings * s, gint is525)
{
  return s->services == IVTV_VBI_SERVICES_CC
      || (s->services == IVTV_VBI_SERVICES_AUTO && is525 != 0);
}

GstCaps *
ivtv_vbi_device_caps (IvtvDevice * dev, const IvtvVbiSettings * settings)
{
  v4l2_std_id std;

  return gst_caps_from_string (want_cc (settings, standard_is_525 (dev,
              &std)) ? IVTV_VBI_CAPS_CC : IVTV_VBI_CAPS_WSS);
}

/* ---- set-up ---- */

gboolean
ivtv_vbi_take_card (IvtvDevice * dev, gboolean * held)
{
  enum v4l2_priority prio = V4L2_PRIORITY_RECORD;

  *held = ivtv_ioctl (dev, VIDIOC_S_PRIORITY, &prio) == 0;
  return TRUE;
}

static gboolean
check_services (IvtvDevice * dev, GstElement * element, gint is525,
    v4l2_std_id std, gboolean cc)
{
  if (!ivtv_device_has_cap (dev, V4L2_CAP_READWRITE)) {
    GST_ELEMENT_ERROR (element, RESOURCE, SETTINGS,
        (_("%s offers no read() I/O, which ivtvsrc captures VBI with."),
            dev->path), ("device caps 0x%08x", dev->device_caps));
    return FALSE;
  }
  if (is525 < 0) {
    GST_ELEMENT_ERROR (element, RESOURCE, SETTINGS,
        (_("%s has no video standard set, so it cannot tell which VBI services "
            "the signal carries; set standard=ntsc or standard=pal."),
            dev->path), ("VIDIOC_G_STD failed or 0"));
    return FALSE;
  }
  if (cc && !is525) {
    GST_ELEMENT_ERROR (element, RESOURCE, SETTINGS,
        (_("%s is set to a 50 Hz standard: closed captions (CEA-608 on line "
            "21) exist only on 60 Hz standards (NTSC, PAL-M). Set "
            "standard=ntsc for an NTSC tape, or vbi-services=wss for the "
            "4:3/16:9 signal of a 50 Hz one."), dev->path),
        ("standard 0x%016" G_GINT64_MODIFIER "x", (guint64) std));
    return FALSE;
  }
  if (!cc && is525) {
    GST_ELEMENT_ERROR (element, RESOURCE, SETTINGS,
        (_("%s is set to a 60 Hz standard: WSS (the 4:3/16:9 signal on line "
            "23) exists only on 50 Hz standards (PAL, SECAM). Use "
            "vbi-services=cc for the closed captions of a 60 Hz tape."),
            dev->path), ("standard 0x%016" G_GINT64_MODIFIER "x",
            (guint64) std));
    return FALSE;
  }
  return TRUE;
}

/* sliced or raw: what was asked and what the node has; FALSE posted */
static gboolean
choose_raw (IvtvDevice * dev, GstElement * element,
    const IvtvVbiSettings * s, gboolean * raw)
{
  gboolean has_sliced = ivtv_device_has_cap (dev,
      V4L2_CAP_SLICED_VBI_CAPTURE);
  gboolean has_raw = ivtv_device_has_cap (dev, V4L2_CAP_VBI_CAPTURE);

  *raw = s->mode == IVTV_VBI_MODE_RAW
      || (s->mode == IVTV_VBI_MODE_AUTO && !has_sliced);
  if (!*raw && !has_sliced) {
    GST_ELEMENT_ERROR (element, RESOURCE, SETTINGS,
        (_("%s offers only raw VBI, not sliced VBI; use vbi-mode=raw or auto."),
            dev->path), (NULL));
    return FALSE;
  }
  if (*raw && !has_raw) {
    GST_ELEMENT_ERROR (element, RESOURCE, SETTINGS,
        (_("%s offers only sliced VBI, not raw VBI; use vbi-mode=sliced or "
            "auto."), dev->path), (NULL));
    return FALSE;
  }
  if (*raw && !HAVE_ZVBI) {
    GST_ELEMENT_ERROR (element, RESOURCE, SETTINGS,
        (_("%s gives raw VBI (sampled lines), and this ivtvsrc was built "
            "without libzvbi, which decodes them (meson option zvbi; Debian "
            "package libzvbi-dev)%s."), dev->path, has_sliced ?
            "; the node also slices the lines itself: use vbi-mode=sliced" :
            ""), (NULL));
    return FALSE;
  }
  return TRUE;
}

/* ---- the card's record priority, lent ----
 * An ivtvsrc on the card's video node holds the card's record priority
 * from its start (ivtvpriority.h); V4L2 then refuses S_FMT (and
 * S_PRIORITY) on every other handle of the card, the VBI node's too.  The
 * video captures of this process that hold it are noted here, so a VBI
 * capture of the same card can borrow it for its S_FMT (the two ivtvsrc of
 * one pipeline start in an order GstBin chooses). */

/* holders_lock — the list `holders` and the lending itself: the
 * S_PRIORITY on each holder's fd, the borrower's ioctl and the hand-back
 * are issued under it, without the holders' session locks (the driver
 * serialises the ioctls).  Taken by a session with its own lock held
 * (note, forget, the VBI set-up), or alone at free (forget); nothing else
 * of ours is taken under it.
 * A holder is forgotten before its device closes. */
static GMutex holders_lock;
static GList *holders;          /* IvtvDevice *, open, priority held */

void
ivtv_vbi_note_holder (IvtvDevice * dev, gboolean held)
{
  g_mutex_lock (&holders_lock);
  if (held && !g_list_find (holders, dev))
    holders = g_list_prepend (holders, dev);
  g_mutex_unlock (&holders_lock);
}

void
ivtv_vbi_forget_holder (IvtvDevice * dev)
{
  g_mutex_lock (&holders_lock);
  holders = g_list_remove (holders, dev);
  g_mutex_unlock (&holders_lock);
}

static gboolean
same_card (const IvtvDevice * a, const IvtvDevice * b)
{
  return strncmp ((const char *) a->cap.bus_info,
      (const char *) b->cap.bus_info, sizeof (a->cap.bus_info)) == 0
      && strncmp ((const char *) a->cap.driver, (const char *) b->cap.driver,
      sizeof (a->cap.driver)) == 0 && a->cap.bus_info[0] != '\0';
}

static void
set_prio (IvtvDevice * dev, enum v4l2_priority prio)
{
  ivtv_ioctl (dev, VIDIOC_S_PRIORITY, &prio);
}

/* an ioctl (S_FMT, REQBUFS) with the record priority of this process's
 * video captures of the card lent for it; -errno */
static gint
ioctl_lent (IvtvDevice * dev, gulong request, void *arg)
{
  GList *l, *lent = NULL;
  gint ret;

  g_mutex_lock (&holders_lock);
  for (l = holders; l; l = l->next)
    if (ivtv_device_is_open (l->data) && same_card (l->data, dev)) {
      set_prio (l->data, V4L2_PRIORITY_DEFAULT);
      lent = g_list_prepend (lent, l->data);
    }
  set_prio (dev, V4L2_PRIORITY_RECORD);
  ret = ivtv_ioctl (dev, request, arg);
  set_prio (dev, V4L2_PRIORITY_DEFAULT);
  for (l = lent; l; l = l->next)
    set_prio (l->data, V4L2_PRIORITY_RECORD);
  g_mutex_unlock (&holders_lock);
  GST_CAT_DEBUG (ivtv_debug, "%s: ioctl 0x%08lx with the priority of %u "
      "video capture(s) of the card: %s", dev->path, request,
      g_list_length (lent), ret < 0 ? g_strerror (-ret) : "ok");
  g_list_free (lent);
  return ret;
}

static gint
s_fmt (IvtvDevice * dev, struct v4l2_format *f)
{
  gint ret = ivtv_ioctl (dev, VIDIOC_S_FMT, f);

  return ret == -EBUSY ? ioctl_lent (dev, VIDIOC_S_FMT, f) : ret;
}

/* Tells a streaming (vb2) driver whose raw and sliced VBI share one queue
 * which of the two its buffers are, read()'s included.  vivid changes the
 * queue's type on REQBUFS and CREATE_BUFS only (vivid-core.c
 * vivid_reqbufs -> vb2_queue_change_type), not on S_FMT: read() after
 * S_FMT sliced gives raw frames (seen on Linux 6.1) until a REQBUFS of the
 * sliced type.  REQBUFS with count 0 allocates nothing.  read()-only
 * nodes (ivtv, cx18: no V4L2_CAP_STREAMING) are left alone; an error
 * changes nothing and is only logged. */
static void
select_buffer_type (IvtvDevice * dev, guint32 type)
{
  struct v4l2_requestbuffers rb;
  gint ret;

  if (!ivtv_device_has_cap (dev, V4L2_CAP_STREAMING))
    return;
  memset (&rb, 0, sizeof (rb));
  rb.type = type;
  rb.memory = V4L2_MEMORY_MMAP;
  ret = ivtv_ioctl (dev, VIDIOC_REQBUFS, &rb);
  if (ret == -EBUSY)
    ret = ioctl_lent (dev, VIDIOC_REQBUFS, &rb);
  GST_CAT_DEBUG (ivtv_debug, "%s: REQBUFS(0) of type %u: %s", dev->path,
      type, ret < 0 ? g_strerror (-ret) : "ok");
}

/* S_FMT refused: the card's record priority is another capture's (an
 * ivtvsrc on the card's video node takes it, ivtvpriority.h) */
static void
busy_error (IvtvDevice * dev, GstElement * element, const gchar * v4l2ctl)
{
  GST_ELEMENT_ERROR (element, RESOURCE, BUSY,
      (_("%s cannot set its VBI format: another program records from the "
          "card and holds its settings (the record priority). Set the "
          "format before that program starts (v4l2-ctl -d %s %s), or capture "
          "the video in the same pipeline as the VBI."), dev->path, dev->path,
          v4l2ctl), ("VIDIOC_S_FMT: EBUSY"));
}

/* The sliced services the node is set to (G_FMT; 0 when raw or on error):
 * ivtv's encoder VBI node answers from its video decoder's line set,
 * which a raw S_FMT empties (ivtv-ioctl.c ivtv_g_fmt_sliced_vbi_cap,
 * ivtv_s_fmt_vbi_cap).  @f: the format read. */
static guint16
current_sliced_set (IvtvDevice * dev, struct v4l2_format *f)
{
  memset (f, 0, sizeof (*f));
  f->type = V4L2_BUF_TYPE_SLICED_VBI_CAPTURE;
  if (ivtv_ioctl (dev, VIDIOC_G_FMT, f) < 0)
    return 0;
  return f->fmt.sliced.service_set;
}

static gboolean
setup_sliced (IvtvDevice * dev, GstElement * element, IvtvVbiFormat * fmt)
{
  struct v4l2_format f;
  guint16 want = fmt->cc ? V4L2_SLICED_CAPTION_525 : V4L2_SLICED_WSS_625;
  gint ret;

  /* always S_FMT: it also switches a node that has both from raw to
   * sliced capture (ivtv's vbi.in.type; vivid needs the REQBUFS of
   * select_buffer_type as well), which G_FMT does not tell */
  memset (&f, 0, sizeof (f));
  f.type = V4L2_BUF_TYPE_SLICED_VBI_CAPTURE;
  f.fmt.sliced.service_set = want;
  ret = s_fmt (dev, &f);
  /* refused while the card records (another program's priority; ivtv
   * switches no raw <-> sliced while capturing): a format set before the
   * recording began that slices what is wanted does (busy_error's advice) */
  if (ret == -EBUSY && (current_sliced_set (dev, &f) & want))
    ret = 0;
  if (ret == -EBUSY) {
    busy_error (dev, element, fmt->cc ? "--set-fmt-sliced-vbi=cc" :
        "--set-fmt-sliced-vbi=wss");
    return FALSE;
  }
  if (ret < 0 || !(f.fmt.sliced.service_set & want)) {
    GST_ELEMENT_ERROR (element, RESOURCE, SETTINGS,
        (_("%s does not slice %s on its current standard."), dev->path,
            fmt->cc ? "closed captions (CEA-608)" : "WSS"),
        ("S_FMT sliced: %s, service set 0x%04x", ret < 0 ?
            g_strerror (-ret) : "ok", f.fmt.sliced.service_set));
    return FALSE;
  }
  select_buffer_type (dev, V4L2_BUF_TYPE_SLICED_VBI_CAPTURE);
  fmt->frame_size = MAX (f.fmt.sliced.io_size, SLICED_REC);
  return TRUE;
}

static gboolean
setup_raw (IvtvDevice * dev, GstElement * element, IvtvVbiFormat * fmt)
{
  struct v4l2_format f;
  struct v4l2_vbi_format *v = &f.fmt.vbi;
  gint ret;

  memset (&f, 0, sizeof (f));
  f.type = V4L2_BUF_TYPE_VBI_CAPTURE;
  ret = ivtv_ioctl (dev, VIDIOC_G_FMT, &f);
  if (ret >= 0)
    ret = s_fmt (dev, &f);      /* selects raw (ivtv) */
  /* refused while the card records: fine if the node is raw already (raw
   * is all it does, or no sliced service is set) */
  if (ret == -EBUSY && (!ivtv_device_has_cap (dev,
              V4L2_CAP_SLICED_VBI_CAPTURE) || !current_sliced_set (dev, &f))) {
    memset (&f, 0, sizeof (f));
    f.type = V4L2_BUF_TYPE_VBI_CAPTURE;
    ret = ivtv_ioctl (dev, VIDIOC_G_FMT, &f);
  } else if (ret == -EBUSY) {
    busy_error (dev, element, "--set-fmt-vbi=");
    return FALSE;
  }
  if (ret < 0 || v->sample_format != V4L2_PIX_FMT_GREY
      || v->samples_per_line == 0 || v->count[0] + v->count[1] == 0) {
    GST_ELEMENT_ERROR (element, RESOURCE, SETTINGS,
        (_("The raw VBI format of %s cannot be decoded (8-bit samples are "
            "needed)."), dev->path), ("VBI format: %s, sample format "
            "0x%08x, %u samples, %u+%u lines", ret < 0 ? g_strerror (-ret) :
            "ok", v->sample_format, v->samples_per_line, v->count[0],
            v->count[1]));
    return FALSE;
  }
  select_buffer_type (dev, V4L2_BUF_TYPE_VBI_CAPTURE);
  fmt->rawfmt = *v;
  fmt->frame_size = v->samples_per_line * (v->count[0] + v->count[1]);
  return TRUE;
}

gboolean
ivtv_vbi_setup (IvtvDevice * dev, GstElement * element,
    const IvtvVbiSettings * settings, IvtvVbiFormat * fmt)
{
  v4l2_std_id std;
  gint is525 = standard_is_525 (dev, &std);

  memset (fmt, 0, sizeof (*fmt));
  fmt->cc = want_cc (settings, is525);
  fmt->is525 = is525 > 0;
  fmt->s334 = TRUE;
  if (!check_services (dev, element, is525, std, fmt->cc)
      || !choose_raw (dev, element, settings, &fmt->raw))
    return FALSE;
  GST_INFO_OBJECT (element, "VBI: %s, %s", fmt->raw ? "raw (libzvbi)" :
      "sliced", fmt->cc ? "CC" : "WSS");
  return fmt->raw ? setup_raw (dev, element, fmt) :
      setup_sliced (dev, element, fmt);
}

void
ivtv_vbi_apply_caps (IvtvVbiFormat * fmt, GstCaps * caps)
{
  const gchar *f = gst_structure_get_string (gst_caps_get_structure (caps,
          0), "format");

  fmt->s334 = g_strcmp0 (f, "raw") != 0;
}

/* ---- decoding ---- */

const gchar *
ivtv_vbi_wss_aspect (guint wss, const gchar ** format)
{
  static const struct
  {
    guint bits;
    const gchar *aspect, *format;
  } g1[] = {
    {0x8, "4:3", "4:3 full format"},
    {0x1, "4:3", "14:9 letterbox, centre"},
    {0x2, "4:3", "14:9 letterbox, top"},
    {0xb, "4:3", "16:9 letterbox, centre"},
    {0x4, "4:3", "16:9 letterbox, top"},
    {0xd, "4:3", "letterbox wider than 16:9, centre"},
    {0xe, "4:3", "14:9 full format"},
    {0x7, "16:9", "16:9 full format (anamorphic)"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (g1); i++)
    if ((wss & 0xf) == g1[i].bits) {
      if (format)
        *format = g1[i].format;
      return g1[i].aspect;
    }
  return NULL;                  /* the other codes fail the parity bit */
}

void
ivtv_vbi_parse_sliced (const guint8 * data, gsize size, IvtvVbiFrame * frame)
{
  gsize off;

  memset (frame, 0, sizeof (*frame));
  frame->wss = -1;
  for (off = 0; off + SLICED_REC <= size; off += SLICED_REC) {
    struct v4l2_sliced_vbi_data d;

    memcpy (&d, data + off, SLICED_REC);
    if (d.id == V4L2_SLICED_CAPTION_525 && d.field < 2) {
      memcpy (frame->cc[d.field], d.data, 2);
      frame->has_cc[d.field] = TRUE;
    } else if (d.id == V4L2_SLICED_WSS_625 && d.field == 0) {
      frame->wss = d.data[0] | (d.data[1] << 8);
    }
  }
}

GstBuffer *
ivtv_vbi_cc_buffer (const IvtvVbiFrame * frame, gboolean s334)
{
  guint8 out[6];
  gsize n = 0;
  gint f;

  for (f = 0; f < (s334 ? 2 : 1); f++) {
    if (s334)
      out[n++] = f == 0 ? 0x80 : 0x00;  /* field 1 flag, line offset 0 */
    out[n++] = frame->has_cc[f] ? frame->cc[f][0] : CC_NULL;
    out[n++] = frame->has_cc[f] ? frame->cc[f][1] : CC_NULL;
  }
  return gst_buffer_new_memdup (out, n);
}

#if HAVE_ZVBI
static gboolean
zvbi_init (vbi_raw_decoder * rd, const IvtvVbiFormat * fmt, GError ** error)
{
  const struct v4l2_vbi_format *v = &fmt->rawfmt;
  guint want = fmt->cc ? VBI_SLICED_CAPTION_525 : VBI_SLICED_WSS_625;

  vbi_raw_decoder_init (rd);
  rd->scanning = fmt->is525 ? 525 : 625;
  rd->sampling_format = VBI_PIXFMT_YUV420;      /* 8-bit luma samples */
  rd->sampling_rate = v->sampling_rate;
  rd->bytes_per_line = v->samples_per_line;
  rd->offset = v->offset;
  rd->start[0] = v->start[0];
  rd->start[1] = v->start[1];
  rd->count[0] = v->count[0];
  rd->count[1] = v->count[1];
  rd->interlaced = !!(v->flags & V4L2_VBI_INTERLACED);
  rd->synchronous = !(v->flags & V4L2_VBI_UNSYNC);
  if ((vbi_raw_decoder_add_services (rd, want, 1) & want) == 0) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
        _("libzvbi cannot decode %s from this raw VBI format (%u Hz, %u "
        "samples, lines %u+%u from %u/%u)"), fmt->cc ? "closed captions" :
        "WSS", v->sampling_rate, v->samples_per_line, v->count[0],
        v->count[1], v->start[0], v->start[1]);
    vbi_raw_decoder_destroy (rd);
    return FALSE;
  }
  return TRUE;
}

static void
zvbi_decode (vbi_raw_decoder * rd, guint8 * raw, IvtvVbiFrame * frame)
{
  vbi_sliced sliced[64];
  gint i, n = vbi_raw_decode (rd, raw, sliced);

  memset (frame, 0, sizeof (*frame));
  frame->wss = -1;
  for (i = 0; i < n; i++) {
    gint f = -1;

    if (sliced[i].id & VBI_SLICED_CAPTION_525)  /* line 21 or 284 */
      f = sliced[i].line >= 263 ? 1 : 0;
    else if (sliced[i].id & VBI_SLICED_WSS_625)
      frame->wss = sliced[i].data[0] | (sliced[i].data[1] << 8);
    if (f >= 0) {
      memcpy (frame->cc[f], sliced[i].data, 2);
      frame->has_cc[f] = TRUE;
    }
  }
}
#endif

/* ---- the path ---- */

typedef struct
{
  IvtvPath path;
  IvtvReader reader;
  IvtvVbiFormat fmt;
  GstElement *element;
  guint64 frames;
  gint last_wss;
#if HAVE_ZVBI
  vbi_raw_decoder rd;
#endif
} IvtvVbiPath;

static void
post_wss (IvtvVbiPath * p, gint wss)
{
  const gchar *format = NULL;
  const gchar *aspect = ivtv_vbi_wss_aspect ((guint) wss, &format);

  if (wss == p->last_wss || aspect == NULL || p->element == NULL)
    return;
  p->last_wss = wss;
  GST_INFO_OBJECT (p->element, "WSS 0x%04x: %s (%s)", wss, aspect, format);
  gst_element_post_message (p->element,
      gst_message_new_element (GST_OBJECT (p->element),
          gst_structure_new ("ivtvsrc-wss", "aspect", G_TYPE_STRING, aspect,
              "format", G_TYPE_STRING, format, "wss", G_TYPE_UINT,
              (guint) wss, "frame", G_TYPE_UINT64, p->frames, NULL)));
}

static GstBuffer *
frame_buffer (IvtvVbiPath * p, const IvtvVbiFrame * frame)
{
  guint8 w[2];

  if (p->fmt.cc)
    return ivtv_vbi_cc_buffer (frame, p->fmt.s334);
  w[0] = frame->wss < 0 ? 0 : frame->wss & 0xff;
  w[1] = frame->wss < 0 ? 0 : frame->wss >> 8;
  if (frame->wss >= 0)
    post_wss (p, frame->wss);
  return gst_buffer_new_memdup (w, 2);
}

static GstFlowReturn
vbi_path_create (IvtvPath * path, GstBuffer ** buf, IvtvError ** error)
{
  IvtvVbiPath *p = (IvtvVbiPath *) path;
  IvtvVbiFrame frame;
  GstBuffer *in = NULL;
  GstMapInfo map;
  GstFlowReturn ret;

  *buf = NULL;
  ret = ivtv_read_create (&p->reader, &in, error);
  if (ret != GST_FLOW_OK)
    return ret;
  if (!gst_buffer_map (in, &map, GST_MAP_READWRITE)) {
    gst_buffer_unref (in);
    IVTV_ERROR (error, RESOURCE, READ, (NULL), ("cannot map a VBI buffer"));
    return GST_FLOW_ERROR;
  }
#if HAVE_ZVBI
  if (p->fmt.raw && map.size >= p->fmt.frame_size)
    zvbi_decode (&p->rd, map.data, &frame);
  else
#endif
  if (!p->fmt.raw)
    ivtv_vbi_parse_sliced (map.data, map.size, &frame);
  else {
    GST_WARNING_OBJECT (p->element, "short raw VBI read: %" G_GSIZE_FORMAT
        " of %u bytes", map.size, p->fmt.frame_size);
    memset (&frame, 0, sizeof (frame));
    frame.wss = -1;
  }
  gst_buffer_unmap (in, &map);
  gst_buffer_unref (in);

  *buf = frame_buffer (p, &frame);
  GST_BUFFER_OFFSET (*buf) = p->frames;
  GST_BUFFER_OFFSET_END (*buf) = p->frames + 1;
  GST_BUFFER_DURATION (*buf) = p->fmt.is525 ?
      gst_util_uint64_scale (GST_SECOND, 1001, 30000) : GST_SECOND / 25;
  p->frames++;
  return GST_FLOW_OK;
}

static gboolean
vbi_path_drain (IvtvPath * path, gint64 max_us)
{
  (void) path;
  (void) max_us;
  return FALSE;                 /* no encoder to stop: the base class's EOS */
}

static void
vbi_path_set_timeout (IvtvPath * path, guint seconds)
{
  ivtv_read_set_timeout (&((IvtvVbiPath *) path)->reader, seconds);
}

static void
vbi_path_get_position (IvtvPath * path, IvtvPathPosition * pos)
{
  IvtvVbiPath *p = (IvtvVbiPath *) path;

  pos->bytes = p->reader.offset;
  pos->buffers = p->frames;
  pos->next_offset = p->frames;
}

static void
vbi_path_resume_from (IvtvPath * path, const IvtvPathPosition * before)
{
  IvtvVbiPath *p = (IvtvVbiPath *) path;

  p->reader.offset = before->bytes;
  p->frames = before->buffers;
}

static void
vbi_path_free (IvtvPath * path)
{
  IvtvVbiPath *p = (IvtvVbiPath *) path;

  ivtv_read_stop (&p->reader);
#if HAVE_ZVBI
  if (p->fmt.raw)
    vbi_raw_decoder_destroy (&p->rd);
#endif
  g_free (p);
}

static const IvtvPathFuncs vbi_path_funcs = {
  vbi_path_create, vbi_path_drain, vbi_path_set_timeout,
  vbi_path_get_position, vbi_path_resume_from, vbi_path_free,
  NULL,                         /* set_behind: read() copies anyway */
  NULL                          /* stop_encoder: no encoder */
};

IvtvPath *
ivtv_vbi_path_new (const IvtvPathConfig * config, const IvtvVbiFormat * fmt,
    GError ** error)
{
  IvtvVbiPath *p = g_new0 (IvtvVbiPath, 1);

  p->path.funcs = &vbi_path_funcs;
  p->path.mode = IVTV_IO_RW;
  p->fmt = *fmt;
  p->element = config->element;
  p->last_wss = -1;
#if HAVE_ZVBI
  if (fmt->raw && !zvbi_init (&p->rd, fmt, error)) {
    g_free (p);
    return NULL;
  }
#endif
  ivtv_read_init (&p->reader);
  if (!ivtv_read_start (&p->reader, config->element, config->dev,
          config->poll, fmt->frame_size, error)) {
#if HAVE_ZVBI
    if (fmt->raw)
      vbi_raw_decoder_destroy (&p->rd);
#endif
    g_free (p);
    return NULL;
  }
  ivtv_read_set_timeout (&p->reader, config->timeout);
  p->reader.reconnect = config->reconnect;
  return &p->path;
}
