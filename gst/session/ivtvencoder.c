/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — MPEG encoder controls as properties and extra-controls: the
 * property specs, checking wanted values against the probed controls,
 * one VIDIOC_S_EXT_CTRLS at start, the read-back.  See ivtvencoder.h. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvencoder.h"
#include "ivtvsettings.h"
#include "ivtvdebug.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#define GST_CAT_DEFAULT ivtvsrc_debug

/* how a property maps onto its control */
typedef enum
{
  MAP_MENU,                     /* an enum property: value = menu index */
  MAP_INT,                      /* an integer, checked against min..max */
  MAP_AUDIO_RATE,               /* Hz <-> V4L2_MPEG_AUDIO_SAMPLING_FREQ_* */
  MAP_AUDIO_BITRATE             /* bits/s <-> V4L2_MPEG_AUDIO_L2_BITRATE_* */
} MapKind;

typedef struct
{
  const gchar *name;
  guint32 cid;
  MapKind map;
  const gchar *unit;            /* for messages */
} EncParam;

static const EncParam params[IVTV_ENC_N_NAMED] = {
  {"stream-type", V4L2_CID_MPEG_STREAM_TYPE, MAP_MENU, ""},
  {"bitrate-mode", V4L2_CID_MPEG_VIDEO_BITRATE_MODE, MAP_MENU, ""},
  {"bitrate", V4L2_CID_MPEG_VIDEO_BITRATE, MAP_INT, " bits/s"},
  {"peak-bitrate", V4L2_CID_MPEG_VIDEO_BITRATE_PEAK, MAP_INT, " bits/s"},
  {"gop-size", V4L2_CID_MPEG_VIDEO_GOP_SIZE, MAP_INT, " frames"},
  {"b-frames", V4L2_CID_MPEG_VIDEO_B_FRAMES, MAP_INT, ""},
  {"aspect", V4L2_CID_MPEG_VIDEO_ASPECT, MAP_MENU, ""},
  {"audio-rate", V4L2_CID_MPEG_AUDIO_SAMPLING_FREQ, MAP_AUDIO_RATE, " Hz"},
  {"audio-bitrate", V4L2_CID_MPEG_AUDIO_L2_BITRATE, MAP_AUDIO_BITRATE,
      " bits/s"},
};

/* V4L2_MPEG_AUDIO_SAMPLING_FREQ_44100/48000/32000 */
static const gint audio_rates[] = { 44100, 48000, 32000 };

/* V4L2_MPEG_AUDIO_L2_BITRATE_32K .. _384K, kbit/s */
static const gint l2_kbps[] = {
  32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384
};

/* ---- property types ---- */

#define IVTV_TYPE_STREAM_TYPE (ivtv_stream_type_get_type ())
static GType
ivtv_stream_type_get_type (void)
{
  static gsize id = 0;
  static const GEnumValue values[] = {
    {IVTV_ENCODER_KEEP, "Keep the card's stream type", "keep"},
    {V4L2_MPEG_STREAM_TYPE_MPEG2_PS, "MPEG-2 program stream", "ps"},
    {V4L2_MPEG_STREAM_TYPE_MPEG2_TS, "MPEG-2 transport stream", "ts"},
    {V4L2_MPEG_STREAM_TYPE_MPEG1_SS, "MPEG-1 system stream", "mpeg1"},
    {V4L2_MPEG_STREAM_TYPE_MPEG2_DVD, "MPEG-2 DVD-compatible stream", "dvd"},
    {V4L2_MPEG_STREAM_TYPE_MPEG1_VCD, "MPEG-1 VCD-compatible stream", "vcd"},
    {V4L2_MPEG_STREAM_TYPE_MPEG2_SVCD, "MPEG-2 SVCD-compatible stream",
        "svcd"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&id)) {
    GType t = g_enum_register_static ("GstIvtvStreamType", values);
    g_once_init_leave (&id, t);
  }
  return id;
}

#define IVTV_TYPE_BITRATE_MODE (ivtv_bitrate_mode_get_type ())
static GType
ivtv_bitrate_mode_get_type (void)
{
  static gsize id = 0;
  static const GEnumValue values[] = {
    {IVTV_ENCODER_KEEP, "Keep the card's bitrate mode", "keep"},
    {V4L2_MPEG_VIDEO_BITRATE_MODE_VBR, "Variable bitrate", "vbr"},
    {V4L2_MPEG_VIDEO_BITRATE_MODE_CBR, "Constant bitrate", "cbr"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&id)) {
    GType t = g_enum_register_static ("GstIvtvBitrateMode", values);
    g_once_init_leave (&id, t);
  }
  return id;
}

#define IVTV_TYPE_ASPECT (ivtv_aspect_get_type ())
static GType
ivtv_aspect_get_type (void)
{
  static gsize id = 0;
  static const GEnumValue values[] = {
    {IVTV_ENCODER_KEEP, "Keep the card's aspect ratio", "keep"},
    {V4L2_MPEG_VIDEO_ASPECT_1x1, "Square pixels (1:1)", "1:1"},
    {V4L2_MPEG_VIDEO_ASPECT_4x3, "4:3 picture", "4:3"},
    {V4L2_MPEG_VIDEO_ASPECT_16x9, "16:9 picture", "16:9"},
    {V4L2_MPEG_VIDEO_ASPECT_221x100, "2.21:1 picture", "2.21:1"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&id)) {
    GType t = g_enum_register_static ("GstIvtvAspect", values);
    g_once_init_leave (&id, t);
  }
  return id;
}

static GType
enum_type_of (guint prop)
{
  switch (prop) {
    case IVTV_ENC_STREAM_TYPE:
      return IVTV_TYPE_STREAM_TYPE;
    case IVTV_ENC_BITRATE_MODE:
      return IVTV_TYPE_BITRATE_MODE;
    case IVTV_ENC_ASPECT:
      return IVTV_TYPE_ASPECT;
    default:
      return G_TYPE_INVALID;
  }
}

void
ivtv_encoder_param_specs (GParamSpec * specs[IVTV_ENC_N_PROPS])
{
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY;

  specs[IVTV_ENC_STREAM_TYPE] = (g_param_spec_enum ("stream-type", "Stream type",
          "MPEG stream the encoder makes: ps, ts, mpeg1, dvd, vcd, svcd "
          "(keep = the card's); the caps follow it", IVTV_TYPE_STREAM_TYPE,
          IVTV_ENCODER_KEEP, rw));
  specs[IVTV_ENC_BITRATE_MODE] = (g_param_spec_enum ("bitrate-mode", "Bitrate mode",
          "Video bitrate mode: vbr or cbr (keep = the card's)",
          IVTV_TYPE_BITRATE_MODE, IVTV_ENCODER_KEEP, rw));
  specs[IVTV_ENC_BITRATE] = (g_param_spec_int ("bitrate", "Video bitrate",
          "Video bitrate in bits/s (-1 = keep the card's)",
          -1, G_MAXINT, IVTV_ENCODER_KEEP, rw));
  specs[IVTV_ENC_PEAK_BITRATE] = (g_param_spec_int ("peak-bitrate", "Peak video bitrate",
          "Peak video bitrate in bits/s for vbr (-1 = keep the card's)",
          -1, G_MAXINT, IVTV_ENCODER_KEEP, rw));
  specs[IVTV_ENC_GOP_SIZE] = (g_param_spec_int ("gop-size", "GOP size",
          "Frames per group of pictures (-1 = keep the card's)",
          -1, G_MAXINT, IVTV_ENCODER_KEEP, rw));
  specs[IVTV_ENC_B_FRAMES] = (g_param_spec_int ("b-frames", "B-frames",
          "B-frames between I/P frames (-1 = keep the card's)",
          -1, G_MAXINT, IVTV_ENCODER_KEEP, rw));
  specs[IVTV_ENC_ASPECT] = (g_param_spec_enum ("aspect", "Aspect ratio",
          "Picture aspect ratio written in the stream: 4:3, 16:9, 1:1, "
          "2.21:1 (keep = the card's)", IVTV_TYPE_ASPECT, IVTV_ENCODER_KEEP,
          rw));
  specs[IVTV_ENC_AUDIO_RATE] = (g_param_spec_int ("audio-rate", "Audio sampling rate",
          "Audio sampling rate in Hz: 44100, 48000 or 32000 (-1 = keep the "
          "card's)", -1, G_MAXINT, IVTV_ENCODER_KEEP, rw));
  specs[IVTV_ENC_AUDIO_BITRATE] = (g_param_spec_int ("audio-bitrate", "Audio bitrate",
          "MPEG audio layer II bitrate in bits/s, e.g. 224000 or 384000 "
          "(-1 = keep the card's)", -1, G_MAXINT, IVTV_ENCODER_KEEP, rw));
  specs[IVTV_ENC_EXTRA_CONTROLS] = (g_param_spec_boxed ("extra-controls", "Extra controls",
          "Any other controls, by their v4l2-ctl names, set at start, e.g. "
          "\"controls,brightness=128,video_temporal_decimation=1\" (the "
          "named properties win over an entry for the same control); a "
          "change while capturing is applied at once, a refusal is a "
          "warning", GST_TYPE_STRUCTURE,
          (rw & ~GST_PARAM_MUTABLE_READY) | GST_PARAM_MUTABLE_PLAYING));

  gst_type_mark_as_plugin_api (IVTV_TYPE_STREAM_TYPE, 0);
  gst_type_mark_as_plugin_api (IVTV_TYPE_BITRATE_MODE, 0);
  gst_type_mark_as_plugin_api (IVTV_TYPE_ASPECT, 0);
}

void
ivtv_encoder_init (IvtvEncoder * enc)
{
  guint i;

  for (i = 0; i < IVTV_ENC_N_NAMED; i++)
    enc->want[i] = enc->current[i] = IVTV_ENCODER_KEEP;
  enc->extra_controls = NULL;
}

void
ivtv_encoder_clear (IvtvEncoder * enc)
{
  if (enc->extra_controls)
    gst_structure_free (enc->extra_controls);
  enc->extra_controls = NULL;
}

void
ivtv_encoder_set_property (IvtvEncoder * enc, guint prop, const GValue * value)
{
  if (prop == IVTV_ENC_EXTRA_CONTROLS) {
    const GstStructure *s = gst_value_get_structure (value);

    ivtv_encoder_clear (enc);
    enc->extra_controls = s ? gst_structure_copy (s) : NULL;
    return;
  }
  g_return_if_fail (prop < IVTV_ENC_N_NAMED);
  if (enum_type_of (prop) != G_TYPE_INVALID)
    enc->want[prop] = g_value_get_enum (value);
  else
    enc->want[prop] = g_value_get_int (value);
  enc->current[prop] = IVTV_ENCODER_KEEP;       /* until the next start */
}

void
ivtv_encoder_get_property (IvtvEncoder * enc, guint prop, GValue * value)
{
  gint v;

  if (prop == IVTV_ENC_EXTRA_CONTROLS) {
    gst_value_set_structure (value, enc->extra_controls);
    return;
  }
  g_return_if_fail (prop < IVTV_ENC_N_NAMED);
  v = enc->current[prop] != IVTV_ENCODER_KEEP ? enc->current[prop] :
      enc->want[prop];
  if (enum_type_of (prop) != G_TYPE_INVALID)
    g_value_set_enum (value, v);
  else
    g_value_set_int (value, v);
}

/* ---- names ---- */

gchar *
ivtv_encoder_control_name (const gchar * name)
{
  GString *s = g_string_new (NULL);
  const gchar *p;

  for (p = name; *p; p++) {
    if (g_ascii_isalnum (*p))
      g_string_append_c (s, g_ascii_tolower (*p));
    else if (s->len > 0 && s->str[s->len - 1] != '_')
      g_string_append_c (s, '_');
  }
  while (s->len > 0 && s->str[s->len - 1] == '_')
    g_string_truncate (s, s->len - 1);
  return g_string_free (s, FALSE);
}

gchar *
ivtv_encoder_list_controls (const IvtvProbe * probe)
{
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; i < probe->n_controls; i++) {
    gchar *n = ivtv_encoder_control_name (probe->controls[i].name);

    g_string_append_printf (s, "%s%s", s->len ? ", " : "", n);
    g_free (n);
  }
  if (s->len == 0)
    g_string_append (s, "none");
  return g_string_free (s, FALSE);
}

static const IvtvControl *
find_control_by_name (const IvtvProbe * probe, const gchar * name)
{
  gchar *want = ivtv_encoder_control_name (name);
  const IvtvControl *found = NULL;
  guint i;

  for (i = 0; i < probe->n_controls && !found; i++) {
    gchar *n = ivtv_encoder_control_name (probe->controls[i].name);

    if (strcmp (n, want) == 0)
      found = &probe->controls[i];
    g_free (n);
  }
  g_free (want);
  return found;
}

static const IvtvMenuItem *
find_menu_item (const IvtvControl * c, gint64 index)
{
  guint i;

  for (i = 0; i < c->n_menu; i++)
    if (c->menu[i].index == index)
      return &c->menu[i];
  return NULL;
}

/* "'MPEG-2 Program Stream' (0), ..." or "44100, 48000" */
static gchar *
describe_menu (const IvtvControl * c, MapKind map, const gchar * unit)
{
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; i < c->n_menu; i++) {
    guint idx = c->menu[i].index;

    if (s->len)
      g_string_append (s, ", ");
    if (map == MAP_AUDIO_RATE && idx < G_N_ELEMENTS (audio_rates))
      g_string_append_printf (s, "%d%s", audio_rates[idx], unit);
    else if (map == MAP_AUDIO_BITRATE && idx < G_N_ELEMENTS (l2_kbps))
      g_string_append_printf (s, "%d%s", l2_kbps[idx] * 1000, unit);
    else if (c->type == V4L2_CTRL_TYPE_INTEGER_MENU)
      g_string_append_printf (s, "%" G_GINT64_FORMAT, c->menu[i].value);
    else
      g_string_append_printf (s, "'%s' (%u)", c->menu[i].name, idx);
  }
  return g_string_free (s, FALSE);
}

/* ---- checking wanted values ---- */

static gboolean
out_of_range (const gchar * what, gint64 v, const IvtvControl * c,
    const gchar * unit, const IvtvProbe * probe, GError ** error)
{
  g_set_error (error, IVTV_SETTINGS_ERROR, IVTV_SETTINGS_ERROR_RANGE,
      "%s %" G_GINT64_FORMAT "%s is out of the range of '%s': %"
      G_GINT64_FORMAT " to %" G_GINT64_FORMAT "%s.", what, v, unit,
      probe->card, c->minimum, c->maximum, unit);
  return FALSE;
}

static gboolean
not_offered (const gchar * what, const gchar * value, const IvtvControl * c,
    MapKind map, const gchar * unit, const IvtvProbe * probe, GError ** error)
{
  gchar *list = describe_menu (c, map, unit);

  g_set_error (error, IVTV_SETTINGS_ERROR, IVTV_SETTINGS_ERROR_RANGE,
      _("%s %s is not offered by '%s'; it has: %s."), what, value,
      probe->card, list);
  g_free (list);
  return FALSE;
}

/* The control value for property @prop = @want, or FALSE with @error. */
static gboolean
named_to_ctrl (guint prop, gint want, const IvtvControl * c,
    const IvtvProbe * probe, gint64 * out, GError ** error)
{
  const EncParam *p = &params[prop];
  gint64 idx = -1;
  gchar *text;
  guint i;

  switch (p->map) {
    case MAP_INT:
      if (want < c->minimum || want > c->maximum)
        return out_of_range (p->name, want, c, p->unit, probe, error);
      *out = want;
      return TRUE;
    case MAP_MENU:
      idx = want;
      break;
    case MAP_AUDIO_RATE:
      for (i = 0; i < G_N_ELEMENTS (audio_rates); i++)
        if (audio_rates[i] == want)
          idx = i;
      break;
    case MAP_AUDIO_BITRATE:
      for (i = 0; i < G_N_ELEMENTS (l2_kbps); i++)
        if (l2_kbps[i] * 1000 == want)
          idx = i;
      break;
  }
  if (idx >= 0 && (c->type == V4L2_CTRL_TYPE_MENU ? find_menu_item (c, idx)
          != NULL : idx >= c->minimum && idx <= c->maximum)) {
    *out = idx;
    return TRUE;
  }
  if (p->map == MAP_MENU) {
    GEnumClass *k = g_type_class_ref (enum_type_of (prop));
    GEnumValue *ev = g_enum_get_value (k, want);

    text = g_strdup_printf ("'%s'", ev ? ev->value_nick : "?");
    g_type_class_unref (k);
  } else {
    text = g_strdup_printf ("%d%s", want, p->unit);
  }
  not_offered (p->name, text, c, p->map, p->unit, probe, error);
  g_free (text);
  return FALSE;
}

static gint
ctrl_to_named (guint prop, gint64 v)
{
  switch (params[prop].map) {
    case MAP_AUDIO_RATE:
      return v >= 0 && v < (gint64) G_N_ELEMENTS (audio_rates) ?
          audio_rates[v] : IVTV_ENCODER_KEEP;
    case MAP_AUDIO_BITRATE:
      return v >= 0 && v < (gint64) G_N_ELEMENTS (l2_kbps) ?
          l2_kbps[v] * 1000 : IVTV_ENCODER_KEEP;
    default:
      return v < G_MININT || v > G_MAXINT ? IVTV_ENCODER_KEEP : (gint) v;
  }
}

/* An extra-controls entry as the value of control @c. */
static gboolean
extra_to_ctrl (const gchar * field, const GValue * gv, const IvtvControl * c,
    const IvtvProbe * probe, gint64 * out, GError ** error)
{
  gint64 v = 0;
  gboolean have = TRUE;
  guint i;

  if (G_VALUE_HOLDS_INT (gv))
    v = g_value_get_int (gv);
  else if (G_VALUE_HOLDS_UINT (gv))
    v = g_value_get_uint (gv);
  else if (G_VALUE_HOLDS_INT64 (gv))
    v = g_value_get_int64 (gv);
  else if (G_VALUE_HOLDS_BOOLEAN (gv))
    v = g_value_get_boolean (gv);
  else if (G_VALUE_HOLDS_DOUBLE (gv)) {
    gdouble d = floor (g_value_get_double (gv) + 0.5);

    /* beyond 2^62 (or not a number) the cast is undefined */
    if (!isfinite (d) || fabs (d) > 4611686018427387904.0) {
      g_set_error (error, IVTV_SETTINGS_ERROR, IVTV_SETTINGS_ERROR_RANGE,
          "%s %g is out of the range of '%s': %" G_GINT64_FORMAT " to %"
          G_GINT64_FORMAT ".", field, g_value_get_double (gv), probe->card,
          c->minimum, c->maximum);
      return FALSE;
    }
    v = (gint64) d;
  } else if (G_VALUE_HOLDS_STRING (gv) && g_value_get_string (gv)) {
    const gchar *str = g_value_get_string (gv);
    gchar *want = ivtv_encoder_control_name (str);

    have = g_ascii_string_to_signed (str, 10, G_MININT64, G_MAXINT64, &v, NULL);
    for (i = 0; !have && i < c->n_menu; i++) {
      gchar *n = ivtv_encoder_control_name (c->menu[i].name);

      if (strcmp (n, want) == 0) {
        v = c->menu[i].index;
        have = TRUE;
      }
      g_free (n);
    }
    g_free (want);
    if (!have && c->type == V4L2_CTRL_TYPE_MENU)
      return not_offered (field, str, c, MAP_MENU, "", probe, error);
  } else {
    have = FALSE;
  }
  if (!have) {
    g_set_error (error, IVTV_SETTINGS_ERROR, IVTV_SETTINGS_ERROR_FAILED,
        _("extra-controls: the value of %s must be a number%s."), field,
        c->type == V4L2_CTRL_TYPE_MENU ? " or the name of a menu item" : "");
    return FALSE;
  }
  switch (c->type) {
    case V4L2_CTRL_TYPE_MENU:
    case V4L2_CTRL_TYPE_INTEGER_MENU:
      if (!find_menu_item (c, v)) {
        gchar *t = g_strdup_printf ("%" G_GINT64_FORMAT, v);

        not_offered (field, t, c, MAP_MENU, "", probe, error);
        g_free (t);
        return FALSE;
      }
      break;
    case V4L2_CTRL_TYPE_BUTTON:
      v = 0;
      break;
    default:
      if (v < c->minimum || v > c->maximum)
        return out_of_range (field, v, c, "", probe, error);
      break;
  }
  *out = v;
  return TRUE;
}

/* ---- setting ---- */

typedef struct
{
  GArray *ctrls;                /* struct v4l2_ext_control */
  GPtrArray *names;             /* what the user called each, for messages */
} CtrlList;

static gboolean
list_has (CtrlList * l, guint32 id)
{
  guint i;

  for (i = 0; i < l->ctrls->len; i++)
    if (g_array_index (l->ctrls, struct v4l2_ext_control, i).id == id)
      return TRUE;
  return FALSE;
}

static void
list_add (CtrlList * l, const IvtvControl * c, gint64 v, const gchar * name)
{
  struct v4l2_ext_control x;

  memset (&x, 0, sizeof (x));
  x.id = c->id;
  if (c->type == V4L2_CTRL_TYPE_INTEGER64)
    x.value64 = v;
  else
    x.value = (gint32) v;
  g_array_append_val (l->ctrls, x);
  g_ptr_array_add (l->names, g_strdup (name));
}

static int
set_ctrls (IvtvDevice * dev, struct v4l2_ext_control *x, guint n)
{
  struct v4l2_ext_controls cs;
  int ret;

  memset (&cs, 0, sizeof (cs));
  cs.which = V4L2_CTRL_WHICH_CUR_VAL;
  cs.count = n;
  cs.controls = x;
  ret = ivtv_ioctl (dev, VIDIOC_S_EXT_CTRLS, &cs);
  if (ret == -ENOTTY && n == 1) {
    struct v4l2_control old = {.id = x->id,.value = x->value };

    ret = ivtv_ioctl (dev, VIDIOC_S_CTRL, &old);
  }
  return ret;
}

static gboolean
driver_refused (IvtvDevice * dev, const IvtvProbe * probe, const gchar * name,
    int ret, GError ** error)
{
  if (ret == -EBUSY)
    g_set_error (error, IVTV_SETTINGS_ERROR, IVTV_SETTINGS_ERROR_FAILED,
        _("'%s' (%s) refuses to change %s while it is encoding: the "
        "encoder's settings change only before capture starts."), probe->card,
        dev->path, name);
  else
    g_set_error (error, IVTV_SETTINGS_ERROR, IVTV_SETTINGS_ERROR_FAILED,
        _("'%s' refused to set %s: %s."), probe->card, name, g_strerror (-ret));
  return FALSE;
}

/* One S_EXT_CTRLS for all; when it fails, one by one to name the culprit. */
static gboolean
set_all (IvtvDevice * dev, const IvtvProbe * probe, CtrlList * l,
    GError ** error)
{
  guint i;
  int ret;

  if (l->ctrls->len == 0)
    return TRUE;
  ret = set_ctrls (dev, (struct v4l2_ext_control *) l->ctrls->data,
      l->ctrls->len);
  if (ret == 0)
    return TRUE;
  GST_DEBUG_OBJECT (dev->owner, "S_EXT_CTRLS of %u controls: %s; one by one",
      l->ctrls->len, g_strerror (-ret));
  for (i = 0; i < l->ctrls->len; i++) {
    ret = set_ctrls (dev, &g_array_index (l->ctrls, struct v4l2_ext_control,
            i), 1);
    if (ret < 0)
      return driver_refused (dev, probe, g_ptr_array_index (l->names, i),
          ret, error);
  }
  return TRUE;
}

static void
append (GString * s, const gchar * item)
{
  g_string_append_printf (s, "%s%s", s->len ? ", " : "", item);
}

gboolean
ivtv_encoder_apply (IvtvDevice * dev, const IvtvProbe * probe,
    const gint want[IVTV_ENC_N_NAMED], const GstStructure * extra,
    gint current[IVTV_ENC_N_NAMED], gchar ** warning, GError ** error)
{
  CtrlList l;
  GString *missing = g_string_new (NULL), *unknown = g_string_new (NULL);
  gboolean ok = TRUE;
  guint i, n;

  *warning = NULL;
  l.ctrls = g_array_new (FALSE, TRUE, sizeof (struct v4l2_ext_control));
  l.names = g_ptr_array_new_with_free_func (g_free);

  for (i = 0; ok && i < IVTV_ENC_N_NAMED; i++) {
    const IvtvControl *c = ivtv_probe_find_control (probe, params[i].cid);
    gint64 v;

    if (want[i] == IVTV_ENCODER_KEEP)
      continue;
    if (c == NULL)
      append (missing, params[i].name);
    else if ((ok = named_to_ctrl (i, want[i], c, probe, &v, error)))
      list_add (&l, c, v, params[i].name);
  }

  n = extra ? gst_structure_n_fields (extra) : 0;
  for (i = 0; ok && i < n; i++) {
    const gchar *field = gst_structure_nth_field_name (extra, i);
    const IvtvControl *c = find_control_by_name (probe, field);
    gint64 v = 0;

    if (c == NULL) {
      append (unknown, field);
    } else if (c->flags & V4L2_CTRL_FLAG_READ_ONLY) {
      append (unknown, field);
    } else if (list_has (&l, c->id)) {
      GST_INFO_OBJECT (dev->owner, "extra-controls: %s is also a named "
          "property; the property wins", field);
    } else if ((ok = extra_to_ctrl (field, gst_structure_get_value (extra,
                    field), c, probe, &v, error))) {
      list_add (&l, c, v, field);
    }
  }

  if (ok)
    ok = set_all (dev, probe, &l, error);

  for (i = 0; i < IVTV_ENC_N_NAMED; i++) {
    gint64 v;

    current[i] = IVTV_ENCODER_KEEP;
    if (ivtv_probe_find_control (probe, params[i].cid)
        && ivtv_device_get_control (dev, params[i].cid, &v))
      current[i] = ctrl_to_named (i, v);
  }

  if (missing->len || unknown->len) {
    gchar *have = ivtv_encoder_list_controls (probe);
    GString *w = g_string_new (NULL);

    if (missing->len)
      g_string_append_printf (w, "'%s' has no encoder control for %s "
          "(ignored). ", probe->card, missing->str);
    if (unknown->len)
      g_string_append_printf (w, "extra-controls: '%s' has no writable "
          "control named %s (ignored). ", probe->card, unknown->str);
    g_string_append_printf (w, "Its controls are: %s.", have);
    *warning = g_string_free (w, FALSE);
    g_free (have);
  }
  g_string_free (missing, TRUE);
  g_string_free (unknown, TRUE);
  g_array_free (l.ctrls, TRUE);
  g_ptr_array_free (l.names, TRUE);
  return ok;
}

/* ---- the encoder's state ---- */

gint
ivtv_encoder_get_stream_type (IvtvDevice * dev)
{
  gint64 v;

  if (!ivtv_device_get_control (dev, V4L2_CID_MPEG_STREAM_TYPE, &v))
    return -1;
  if (v < 0 || v > G_MAXINT)
    return -1;
  return (gint) v;
}

gboolean
ivtv_encoder_stop (IvtvDevice * dev)
{
  gboolean at_gop_end;

  return ivtv_encoder_stop_full (dev, &at_gop_end);
}

gboolean
ivtv_encoder_stop_full (IvtvDevice * dev, gboolean * at_gop_end)
{
  struct v4l2_encoder_cmd cmd;
  int ret;

  *at_gop_end = FALSE;
  memset (&cmd, 0, sizeof (cmd));
  cmd.cmd = V4L2_ENC_CMD_STOP;
  cmd.flags = V4L2_ENC_CMD_STOP_AT_GOP_END;
  ret = ivtv_ioctl (dev, VIDIOC_ENCODER_CMD, &cmd);
  if (ret < 0) {
    if (ret != -ENOTTY && ret != -EINVAL)
      GST_DEBUG_OBJECT (dev->owner, "ENCODER_CMD STOP: %s", g_strerror (-ret));
    return FALSE;
  }
  /* the driver returns the flags it honoured: ivtv and cx18 keep
   * STOP_AT_GOP_END (ivtv_try_encoder_cmd), hdpvr clears them and stops at
   * once (hdpvr-video.c vidioc_encoder_cmd: a->flags = 0) */
  *at_gop_end = (cmd.flags & V4L2_ENC_CMD_STOP_AT_GOP_END) != 0;
  GST_DEBUG_OBJECT (dev->owner, "encoder stopped %s", *at_gop_end ?
      "at the end of the GOP" : "at once (the driver cleared STOP_AT_GOP_END)");
  return TRUE;
}

gint
ivtv_encoder_pause (IvtvDevice * dev, gboolean pause)
{
  struct v4l2_encoder_cmd cmd;
  gint ret;

  memset (&cmd, 0, sizeof (cmd));
  cmd.cmd = pause ? V4L2_ENC_CMD_PAUSE : V4L2_ENC_CMD_RESUME;
  ret = ivtv_ioctl (dev, VIDIOC_ENCODER_CMD, &cmd);
  GST_DEBUG_OBJECT (dev->owner, "ENCODER_CMD %s: %s", pause ? "PAUSE" :
      "RESUME", ret < 0 ? g_strerror (-ret) : "done");
  return ret < 0 ? ret : 0;
}
