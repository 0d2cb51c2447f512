/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — v4l2src's property names on ivtvsrc (see ivtvdropin.h): norm,
 * brightness, contrast, saturation, hue, pixel-aspect-ratio, and device-fd
 * read back as the open descriptor.  They are translated into ivtvsrc's
 * own properties (standard, extra-controls), so they are applied, checked
 * and changed live exactly as those are. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvdropin.h"
#include "ivtvcard.h"
#include "ivtvdebug.h"
#include "ivtvnames.h"

#include <string.h>

#define GST_CAT_DEFAULT ivtvsrc_debug

enum
{
  DROPIN_NORM,
  DROPIN_BRIGHTNESS,
  DROPIN_CONTRAST,
  DROPIN_SATURATION,
  DROPIN_HUE,
  DROPIN_PAR,
  DROPIN_N_PROPS
};

/* The colour controls: property, v4l2-ctl name (extra-controls), CID. */
static const struct
{
  const gchar *prop, *blurb;
  guint32 cid;
} colour[] = {
  {"brightness", "Picture brightness (the black level), the card's "
        "control of that name", V4L2_CID_BRIGHTNESS},
  {"contrast", "Picture contrast (luma gain), the card's control of that "
        "name", V4L2_CID_CONTRAST},
  {"saturation", "Picture colour saturation (chroma gain), the card's "
        "control of that name", V4L2_CID_SATURATION},
  {"hue", "Hue (colour balance), the card's control of that name",
      V4L2_CID_HUE},
};

static guint first_prop;        /* the element's id of DROPIN_NORM */

typedef struct
{
  IvtvCapture *cap;             /* not owned */
  gchar *par;                   /* pixel-aspect-ratio as set (object lock) */
  gboolean par_warned;          /* the bad value was reported */
} IvtvDropin;

/* ---- norm: v4l2src's enum ---- */

/* Values and nicks of v4l2src's norm (V4L2 std ids), in numeric order. */
GType
ivtv_tv_norm_get_type (void)
{
  static gsize id = 0;
  static const GEnumValue values[] = {
    {0, "Keep the card's standard (or the 'standard' property)", "none"},
    {V4L2_STD_PAL_B, "PAL-B", "PAL-B"},
    {V4L2_STD_PAL_B1, "PAL-B1", "PAL-B1"},
    {V4L2_STD_PAL_G, "PAL-G", "PAL-G"},
    {V4L2_STD_PAL_BG, "PAL-B/G", "PAL-BG"},
    {V4L2_STD_PAL_H, "PAL-H", "PAL-H"},
    {V4L2_STD_PAL_I, "PAL-I", "PAL-I"},
    {V4L2_STD_PAL_D, "PAL-D", "PAL-D"},
    {V4L2_STD_PAL_D1, "PAL-D1", "PAL-D1"},
    {V4L2_STD_PAL_K, "PAL-K", "PAL-K"},
    {V4L2_STD_PAL_DK, "PAL-D/K", "PAL-DK"},
    {V4L2_STD_PAL, "PAL (any 625-line PAL)", "PAL"},
    {V4L2_STD_PAL_M, "PAL-M", "PAL-M"},
    {V4L2_STD_PAL_N, "PAL-N", "PAL-N"},
    {V4L2_STD_PAL_Nc, "PAL-Nc", "PAL-Nc"},
    {V4L2_STD_PAL_60, "PAL-60", "PAL-60"},
    {V4L2_STD_NTSC_M, "NTSC-M", "NTSC-M"},
    {V4L2_STD_NTSC_M_JP, "NTSC-M-JP", "NTSC-M-JP"},
    {V4L2_STD_NTSC_443, "NTSC-443", "NTSC-443"},
    {V4L2_STD_NTSC_M_KR, "NTSC-M-KR", "NTSC-M-KR"},
    {V4L2_STD_NTSC, "NTSC (any NTSC)", "NTSC"},
    {V4L2_STD_SECAM_B, "SECAM-B", "SECAM-B"},
    {V4L2_STD_SECAM_D, "SECAM-D", "SECAM-D"},
    {V4L2_STD_SECAM_G, "SECAM-G", "SECAM-G"},
    {V4L2_STD_SECAM_H, "SECAM-H", "SECAM-H"},
    {V4L2_STD_SECAM_K, "SECAM-K", "SECAM-K"},
    {V4L2_STD_SECAM_K1, "SECAM-K1", "SECAM-K1"},
    {V4L2_STD_SECAM_DK, "SECAM-D/K", "SECAM-DK"},
    {V4L2_STD_SECAM_L, "SECAM-L", "SECAM-L"},
    {V4L2_STD_SECAM_LC, "SECAM-L'", "SECAM-Lc"},
    {V4L2_STD_SECAM, "SECAM (any SECAM)", "SECAM"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&id)) {
    /* not "V4L2_TV_norms": v4l2src's type may live in the same process */
    GType t = g_enum_register_static ("GstIvtvTvNorm", values);
    g_once_init_leave (&id, t);
  }
  return id;
}

/* norm=N as a "standard" value: the lower-case nick when ivtvnames reads
 * it as exactly that id, else the id in hex. */
static gchar *
norm_to_standard (gint norm)
{
  GEnumValue *ev = g_enum_get_value (g_type_class_peek (IVTV_TYPE_TV_NORM),
      norm);
  v4l2_std_id id = 0;
  gboolean is_auto = FALSE;
  gchar *s;

  if (norm == 0 || ev == NULL)
    return NULL;
  s = g_ascii_strdown (ev->value_nick, -1);
  if (!ivtv_names_parse_std (s, &id, &is_auto) || id != (v4l2_std_id) norm) {
    g_free (s);
    s = g_strdup_printf ("0x%x", (guint) norm);
  }
  return s;
}

/* The norm a "standard" value means, 0 ("none") when it is none of the
 * enum's (auto, several standards, unset). */
static gint
standard_to_norm (const gchar * standard)
{
  v4l2_std_id id = 0;
  gboolean is_auto = FALSE;

  if (standard == NULL || !ivtv_names_parse_std (standard, &id, &is_auto)
      || is_auto || id > G_MAXINT
      || !g_enum_get_value (g_type_class_peek (IVTV_TYPE_TV_NORM), (gint) id))
    return 0;
  return (gint) id;
}

/* ---- properties ---- */

void
ivtv_dropin_install_properties (GObjectClass * klass, guint first_id)
{
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;
  guint i;

  first_prop = first_id;
  g_type_class_ref (IVTV_TYPE_TV_NORM);
  g_object_class_install_property (klass, first_id + DROPIN_NORM,
      g_param_spec_enum ("norm", "TV norm",
          "v4l2src's name of the TV standard: sets 'standard' (e.g. "
          "norm=PAL is standard=pal); none = keep", IVTV_TYPE_TV_NORM, 0,
          rw | GST_PARAM_MUTABLE_PLAYING));
  for (i = 0; i < G_N_ELEMENTS (colour); i++)
    g_object_class_install_property (klass, first_id + DROPIN_BRIGHTNESS + i,
        g_param_spec_int (colour[i].prop, colour[i].prop, colour[i].blurb,
            G_MININT, G_MAXINT, 0, rw | GST_PARAM_MUTABLE_PLAYING |
            GST_PARAM_CONTROLLABLE));
  g_object_class_install_property (klass, first_id + DROPIN_PAR,
      g_param_spec_string ("pixel-aspect-ratio", "Pixel aspect ratio",
          "Replaces the device's pixel aspect ratio in the caps, e.g. 1/1 "
          "or 12/11 (NULL = the device's)", NULL,
          rw | GST_PARAM_MUTABLE_READY));
  gst_type_mark_as_plugin_api (IVTV_TYPE_TV_NORM, 0);
  ivtv_card_install_properties (klass, first_id + DROPIN_N_PROPS);
}

static GQuark
dropin_quark (void)
{
  return g_quark_from_static_string ("ivtv-dropin");
}

static void
dropin_free (gpointer data)
{
  IvtvDropin *d = data;

  g_free (d->par);
  g_free (d);
}

void
ivtv_dropin_attach (GObject * element, IvtvCapture * cap)
{
  IvtvDropin *d = g_new0 (IvtvDropin, 1);

  d->cap = cap;
  g_object_set_qdata_full (element, dropin_quark (), d, dropin_free);
}

static IvtvDropin *
dropin_of (GObject * element)
{
  return g_object_get_qdata (element, dropin_quark ());
}

/* brightness=V: the extra-controls entry of that name. */
static void
set_colour (GObject * element, guint i, gint v)
{
  GstStructure *s = NULL;

  g_object_get (element, "extra-controls", &s, NULL);
  if (s == NULL)
    s = gst_structure_new_empty ("controls");
  gst_structure_set (s, colour[i].prop, G_TYPE_INT, v, NULL);
  g_object_set (element, "extra-controls", s, NULL);
  gst_structure_free (s);
}

/* The card's value while it is open, else the value set (0: unset). */
static gint
get_colour (GObject * element, IvtvDropin * d, guint i)
{
  IvtvDevice *dev = ivtv_capture_device (d->cap);
  GstStructure *s = NULL;
  gint64 v64 = 0;
  gint v = 0;
  gboolean live;

  ivtv_capture_lock (d->cap);
  live = ivtv_device_is_open (dev)
      && ivtv_probe_find_control (ivtv_capture_probe (d->cap), colour[i].cid)
      && ivtv_device_get_control (dev, colour[i].cid, &v64);
  ivtv_capture_unlock (d->cap);
  if (live)
    return (gint) CLAMP (v64, G_MININT, G_MAXINT);
  g_object_get (element, "extra-controls", &s, NULL);
  if (s != NULL && !gst_structure_get_int (s, colour[i].prop, &v))
    v = 0;
  if (s != NULL)
    gst_structure_free (s);
  return v;
}

gboolean
ivtv_dropin_set_property (GObject * element, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  IvtvDropin *d = dropin_of (element);
  guint which = prop_id - first_prop;
  gchar *std;

  (void) pspec;
  if (prop_id < first_prop || which >= DROPIN_N_PROPS)
    return FALSE;
  if (which == DROPIN_NORM) {
    std = norm_to_standard (g_value_get_enum (value));
    g_object_set (element, "standard", std, NULL);
    g_free (std);
  } else if (which == DROPIN_PAR) {
    GST_OBJECT_LOCK (element);
    g_free (d->par);
    d->par = g_value_dup_string (value);
    d->par_warned = FALSE;
    GST_OBJECT_UNLOCK (element);
  } else {
    set_colour (element, which - DROPIN_BRIGHTNESS, g_value_get_int (value));
  }
  return TRUE;
}

/* device-fd while the device is open: the descriptor in use (a dup() of
 * the one set, or the one the element opened), as v4l2src reads it. */
static gboolean
get_open_fd (IvtvDropin * d, GValue * value)
{
  IvtvDevice *dev = ivtv_capture_device (d->cap);
  gint fd;

  ivtv_capture_lock (d->cap);
  fd = dev->fd;
  ivtv_capture_unlock (d->cap);
  if (fd < 0)
    return FALSE;
  g_value_set_int (value, fd);
  return TRUE;
}

gboolean
ivtv_dropin_get_property (GObject * element, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  IvtvDropin *d = dropin_of (element);
  guint which = prop_id - first_prop;
  gchar *std = NULL;

  if (g_str_equal (pspec->name, "device-fd"))
    return get_open_fd (d, value);
  if (ivtv_card_get_property (element, pspec, value))
    return TRUE;                /* ivtvcard.c: alsa-device */
  if (prop_id < first_prop || which >= DROPIN_N_PROPS)
    return FALSE;
  if (which == DROPIN_NORM) {
    g_object_get (element, "standard", &std, NULL);
    g_value_set_enum (value, standard_to_norm (std));
    g_free (std);
  } else if (which == DROPIN_PAR) {
    GST_OBJECT_LOCK (element);
    g_value_set_string (value, d->par);
    GST_OBJECT_UNLOCK (element);
  } else {
    g_value_set_int (value, get_colour (element, d, which - DROPIN_BRIGHTNESS));
  }
  return TRUE;
}

/* ---- caps ---- */

/* "N/D" (or "N:D") as a positive fraction. */
static gboolean
parse_par (const gchar * text, gint * n, gint * d)
{
  GValue v = G_VALUE_INIT;
  gchar *t = g_strdelimit (g_strdup (text), ":", '/');
  gboolean ok;

  g_value_init (&v, GST_TYPE_FRACTION);
  ok = gst_value_deserialize (&v, t);
  if (ok) {
    *n = gst_value_get_fraction_numerator (&v);
    *d = gst_value_get_fraction_denominator (&v);
    ok = *n > 0 && *d > 0;
  }
  g_value_unset (&v);
  g_free (t);
  return ok;
}

GstCaps *
ivtv_dropin_fix_caps (GObject * element, GstCaps * caps)
{
  IvtvDropin *d = dropin_of (element);
  gint n = 0, den = 0;
  gboolean ok, warn = FALSE;
  gchar *par;
  guint i;

  GST_OBJECT_LOCK (element);
  par = g_strdup (d->par);
  ok = par != NULL && parse_par (par, &n, &den);
  if (par != NULL && !ok && !d->par_warned)
    warn = d->par_warned = TRUE;
  GST_OBJECT_UNLOCK (element);

  if (warn)
    GST_ELEMENT_WARNING (element, RESOURCE, SETTINGS,
        (_("pixel-aspect-ratio '%s' is not a fraction such as 1/1 or 12/11; "
            "the device's pixel aspect ratio is used."), par), (NULL));
  if (ok) {
    caps = gst_caps_make_writable (caps);
    for (i = 0; i < gst_caps_get_size (caps); i++) {
      GstStructure *s = gst_caps_get_structure (caps, i);
      if (gst_structure_has_name (s, "video/x-raw")
          || gst_structure_has_field (s, "pixel-aspect-ratio"))
        gst_structure_set (s, "pixel-aspect-ratio", GST_TYPE_FRACTION, n, den,
            NULL);
    }
  }
  g_free (par);
  return caps;
}

IvtvCapture *
ivtv_dropin_capture (GObject * element)
{
  return dropin_of (element)->cap;
}
