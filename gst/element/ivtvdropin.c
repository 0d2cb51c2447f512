/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — v4l2src's property names on ivtvsrc (see ivtvdropin.h): their
 * GParamSpecs and the translations the element's property table uses
 * (norm <-> standard, the colour controls' names, pixel-aspect-ratio on
 * caps).  Pure: no element, no device. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvdropin.h"
#include "ivtvdebug.h"
#include "ivtvnames.h"

#include <string.h>

#define GST_CAT_DEFAULT ivtvsrc_debug

/* The colour controls: property, v4l2-ctl name (extra-controls), CID.
 * Their GParamSpec default (0) is a placeholder: unset, the card keeps its
 * value (issue 27: gst-inspect's "Default: 0" said otherwise). */
#define COLOUR_UNSET "; unset (the shown default), the card keeps its own " \
  "value; read back while open, the card's value"
static const struct
{
  const gchar *prop, *blurb;
  guint32 cid;
} colour[] = {
  {"brightness", "Picture brightness (the black level), the card's "
        "control of that name" COLOUR_UNSET, V4L2_CID_BRIGHTNESS},
  {"contrast", "Picture contrast (luma gain), the card's control of that "
        "name" COLOUR_UNSET, V4L2_CID_CONTRAST},
  {"saturation", "Picture colour saturation (chroma gain), the card's "
        "control of that name" COLOUR_UNSET, V4L2_CID_SATURATION},
  {"hue", "Hue (colour balance), the card's control of that name"
        COLOUR_UNSET, V4L2_CID_HUE},
};

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
gchar *
ivtv_dropin_norm_to_standard (gint norm)
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
gint
ivtv_dropin_standard_to_norm (const gchar * standard)
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
ivtv_dropin_param_specs (GParamSpec * specs[IVTV_DROPIN_N_PROPS])
{
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;
  guint i;

  g_type_class_ref (IVTV_TYPE_TV_NORM);
  specs[IVTV_DROPIN_NORM] = g_param_spec_enum ("norm", "TV norm",
      "v4l2src's name of the TV standard: sets 'standard' (e.g. "
      "norm=PAL is standard=pal); none = keep", IVTV_TYPE_TV_NORM, 0,
      rw | GST_PARAM_MUTABLE_PLAYING);
  for (i = 0; i < G_N_ELEMENTS (colour); i++)
    specs[IVTV_DROPIN_BRIGHTNESS + i] = g_param_spec_int (colour[i].prop,
        colour[i].prop, colour[i].blurb, G_MININT, G_MAXINT, 0,
        rw | GST_PARAM_MUTABLE_PLAYING | GST_PARAM_CONTROLLABLE);
  specs[IVTV_DROPIN_PAR] = g_param_spec_string ("pixel-aspect-ratio",
      "Pixel aspect ratio", "Replaces the device's pixel aspect ratio in "
      "the caps, e.g. 1/1 or 12/11 (NULL = the device's)", NULL,
      rw | GST_PARAM_MUTABLE_READY);
  gst_type_mark_as_plugin_api (IVTV_TYPE_TV_NORM, 0);
}

const gchar *
ivtv_dropin_colour_name (guint prop)
{
  return colour[prop - IVTV_DROPIN_BRIGHTNESS].prop;
}

guint32
ivtv_dropin_colour_cid (guint prop)
{
  return colour[prop - IVTV_DROPIN_BRIGHTNESS].cid;
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
ivtv_dropin_fix_caps (GstCaps * caps, const gchar * par, gboolean * bad)
{
  gint n = 0, den = 0;
  guint i;

  *bad = par != NULL && !parse_par (par, &n, &den);
  if (par == NULL || *bad)
    return caps;
  caps = gst_caps_make_writable (caps);
  for (i = 0; i < gst_caps_get_size (caps); i++) {
    GstStructure *s = gst_caps_get_structure (caps, i);
    if (gst_structure_has_name (s, "video/x-raw")
        || gst_structure_has_field (s, "pixel-aspect-ratio"))
      gst_structure_set (s, "pixel-aspect-ratio", GST_TYPE_FRACTION, n, den,
          NULL);
  }
  return caps;
}
