/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the VBI properties (vbi-services, vbi-mode): their GTypes,
 * GParamSpecs and get/set on IvtvVbiSettings (see ivtvvbiprops.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvvbiprops.h"

#define IVTV_TYPE_VBI_SERVICES (ivtv_vbi_services_get_type ())
static GType
ivtv_vbi_services_get_type (void)
{
  static gsize id = 0;
  static const GEnumValue values[] = {
    {IVTV_VBI_SERVICES_AUTO, "Closed captions on 60 Hz standards, WSS on "
          "50 Hz ones", "auto"},
    {IVTV_VBI_SERVICES_CC, "Closed captions (CEA-608, line 21; 60 Hz "
          "standards only)", "cc"},
    {IVTV_VBI_SERVICES_WSS, "Wide screen signalling (4:3/16:9, line 23; "
          "50 Hz standards only)", "wss"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&id)) {
    GType t = g_enum_register_static ("GstIvtvVbiServices", values);
    g_once_init_leave (&id, t);
  }
  return id;
}

#define IVTV_TYPE_VBI_MODE (ivtv_vbi_mode_get_type ())
static GType
ivtv_vbi_mode_get_type (void)
{
  static gsize id = 0;
  static const GEnumValue values[] = {
    {IVTV_VBI_MODE_AUTO, "Sliced VBI when the node has it, else raw",
        "auto"},
    {IVTV_VBI_MODE_SLICED, "Sliced VBI (the card decodes the lines)",
        "sliced"},
    {IVTV_VBI_MODE_RAW, "Raw VBI (sampled lines, decoded with libzvbi)",
        "raw"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&id)) {
    GType t = g_enum_register_static ("GstIvtvVbiMode", values);
    g_once_init_leave (&id, t);
  }
  return id;
}

void
ivtv_vbi_param_specs (GParamSpec * specs[IVTV_VBI_N_PROPS])
{
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
      | GST_PARAM_MUTABLE_READY;

  specs[IVTV_VBI_PROP_SERVICES] = (g_param_spec_enum ("vbi-services", "VBI services",
          "On a VBI node (/dev/vbiN): what to capture. Closed captions "
          "become closedcaption/x-cea-608 (for cccombiner); WSS is posted "
          "as ivtvsrc-wss messages (aspect 4:3 or 16:9)",
          IVTV_TYPE_VBI_SERVICES, IVTV_VBI_SERVICES_AUTO, rw));
  specs[IVTV_VBI_PROP_MODE] = (g_param_spec_enum ("vbi-mode", "VBI mode",
          "On a VBI node: sliced VBI (the card decodes the lines) or raw "
          "VBI (sampled lines, decoded with libzvbi)",
          IVTV_TYPE_VBI_MODE, IVTV_VBI_MODE_AUTO, rw));
}

gboolean
ivtv_vbi_set_property (IvtvVbiSettings * s, guint id, const GValue * value)
{
  if (id == IVTV_VBI_PROP_SERVICES)
    s->services = g_value_get_enum (value);
  else if (id == IVTV_VBI_PROP_MODE)
    s->mode = g_value_get_enum (value);
  else
    return FALSE;
  return TRUE;
}

gboolean
ivtv_vbi_get_property (const IvtvVbiSettings * s, guint id, GValue * value)
{
  if (id == IVTV_VBI_PROP_SERVICES)
    g_value_set_enum (value, s->services);
  else if (id == IVTV_VBI_PROP_MODE)
    g_value_set_enum (value, s->mode);
  else
    return FALSE;
  return TRUE;
}
