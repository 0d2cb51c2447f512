/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — the GstURIHandler of ivtvsrc (scheme "ivtv"): parsing an
 * ivtv:// URI into the device path and properties, and back. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>

#include "ivtvurihandler.h"

#include <string.h>

#define IVTV_URI_DEFAULT_DEVICE "/dev/video0"
#define IVTV_URI_EXAMPLE "ivtv:///dev/video0?input=composite&standard=pal"

/* Properties a URI may not set: the path gives the device. */
static const gchar *const reserved[] = { "name", "parent", "device",
  "device-fd", NULL
};

static gboolean
is_settable (GParamSpec * pspec)
{
  return (pspec->flags & G_PARAM_WRITABLE)
      && !(pspec->flags & G_PARAM_CONSTRUCT_ONLY)
      && !g_strv_contains (reserved, pspec->name);
}

/* "device-name, input, standard, ..." — what a query may contain. */
static gchar *
settable_names (GObject * obj)
{
  GParamSpec **specs;
  guint i, n;
  GString *s = g_string_new (NULL);

  specs = g_object_class_list_properties (G_OBJECT_GET_CLASS (obj), &n);
  for (i = 0; i < n; i++) {
    if (!is_settable (specs[i]))
      continue;
    g_string_append_printf (s, "%s%s", s->len ? ", " : "", specs[i]->name);
  }
  g_free (specs);
  return g_string_free (s, FALSE);
}

/* What values @pspec accepts, for an error message. */
static gchar *
describe_values (GParamSpec * pspec)
{
  GType t = G_PARAM_SPEC_VALUE_TYPE (pspec);

  if (G_IS_PARAM_SPEC_ENUM (pspec)) {
    GEnumClass *ec = g_type_class_ref (t);
    GString *s = g_string_new ("one of ");
    guint i;

    for (i = 0; i < ec->n_values; i++)
      g_string_append_printf (s, "%s%s", i ? ", " : "",
          ec->values[i].value_nick);
    g_type_class_unref (ec);
    return g_string_free (s, FALSE);
  }
  if (G_IS_PARAM_SPEC_BOOLEAN (pspec))
    return g_strdup ("true or false");
  if (G_IS_PARAM_SPEC_INT (pspec))
    return g_strdup_printf ("an integer from %d to %d",
        G_PARAM_SPEC_INT (pspec)->minimum, G_PARAM_SPEC_INT (pspec)->maximum);
  if (G_IS_PARAM_SPEC_UINT (pspec))
    return g_strdup_printf ("an integer from %u to %u",
        G_PARAM_SPEC_UINT (pspec)->minimum, G_PARAM_SPEC_UINT (pspec)->maximum);
  if (G_IS_PARAM_SPEC_INT64 (pspec))
    return g_strdup_printf ("an integer from %" G_GINT64_FORMAT " to %"
        G_GINT64_FORMAT, G_PARAM_SPEC_INT64 (pspec)->minimum,
        G_PARAM_SPEC_INT64 (pspec)->maximum);
  if (G_IS_PARAM_SPEC_UINT64 (pspec))
    return g_strdup_printf ("an integer from %" G_GUINT64_FORMAT " to %"
        G_GUINT64_FORMAT, G_PARAM_SPEC_UINT64 (pspec)->minimum,
        G_PARAM_SPEC_UINT64 (pspec)->maximum);
  if (G_IS_PARAM_SPEC_DOUBLE (pspec))
    return g_strdup_printf ("a number from %g to %g",
        G_PARAM_SPEC_DOUBLE (pspec)->minimum,
        G_PARAM_SPEC_DOUBLE (pspec)->maximum);
  return g_strdup_printf ("a %s", g_type_name (t));
}

/* Parse @text for @pspec into @value (initialised here).  FALSE with
 * @error when the text is no value of the property's type or range. */
static gboolean
parse_value (GParamSpec * pspec, const gchar * key, const gchar * text,
    GValue * value, const gchar * uri, GError ** error)
{
  gchar *what;

  g_value_init (value, G_PARAM_SPEC_VALUE_TYPE (pspec));
  if (G_VALUE_HOLDS_STRING (value)) {
    g_value_set_string (value, text);
    return TRUE;
  }
  /* the integer parsers wrap "-5" around for unsigned types */
  if (!((G_VALUE_HOLDS_UINT (value) || G_VALUE_HOLDS_UINT64 (value)
              || G_VALUE_HOLDS_ULONG (value)) && strchr (text, '-'))
      && gst_value_deserialize_with_pspec (value, text, pspec)
      && !g_param_value_validate (pspec, value))
    return TRUE;

  what = describe_values (pspec);
  g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_REFERENCE,
      _("Bad value '%s' for '%s' in %s: it must be %s."), text, key, uri, what);
  g_free (what);
  g_value_unset (value);
  return FALSE;
}

/* The device path of @u (the default device for "ivtv://"), or NULL with
 * @error when it is not an ivtv URI of a local device. */
static gchar *
device_of_uri (GstUri * u, const gchar * uri, GError ** error)
{
  const gchar *scheme = gst_uri_get_scheme (u), *host = gst_uri_get_host (u);
  gchar *path;

  if (scheme == NULL || g_ascii_strcasecmp (scheme, IVTV_URI_SCHEME) != 0) {
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_UNSUPPORTED_PROTOCOL,
        _("ivtvsrc handles ivtv:// URIs, not '%s' (expected e.g. %s)."), uri,
        IVTV_URI_EXAMPLE);
    return NULL;
  }
  if (host != NULL && host[0] != '\0' && g_ascii_strcasecmp (host,
          "localhost") != 0) {
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_URI,
        _("'%s' names a host ('%s'); an ivtv URI names a local device after "
        "three slashes, e.g. %s."), uri, host, IVTV_URI_EXAMPLE);
    return NULL;
  }
  path = gst_uri_get_path (u);
  if (path == NULL || path[0] == '\0' || strcmp (path, "/") == 0) {
    g_free (path);
    path = g_strdup (IVTV_URI_DEFAULT_DEVICE);
  } else if (path[0] != '/') {
    /* ivtv:dev/video0 would come back as ivtv://dev/video0, a host */
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_URI,
        _("'%s' names the device by a relative path ('%s'); write it in full "
        "after three slashes, e.g. ivtv:///dev/video0."), uri, path);
    g_clear_pointer (&path, g_free);
  }
  return path;
}

/* Every '%' starts an escape of two hex digits, and the decoded text is
 * UTF-8 (GstUri would keep a bad escape as it is and pass bytes that are
 * no text into string properties).  FALSE with @error. */
static gboolean
check_escapes (const gchar * uri, GError ** error)
{
  const gchar *p;
  gchar *decoded, *shown;
  gboolean ok;

  for (p = strchr (uri, '%'); p != NULL; p = strchr (p + 1, '%')) {
    if (!g_ascii_isxdigit (p[1]) || !g_ascii_isxdigit (p[2])) {
      shown = g_utf8_make_valid (uri, -1);
      g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_URI,
          _("'%s' has an invalid %%-escape at '%.3s': a '%%' must be followed "
          "by two hex digits (write %%25 for a '%%' itself)."), shown, p);
      g_free (shown);
      return FALSE;
    }
  }
  decoded = g_uri_unescape_string (uri, NULL);
  ok = decoded != NULL && g_utf8_validate (decoded, -1, NULL);
  if (!ok) {
    shown = g_utf8_make_valid (uri, -1);
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_URI,
        _("'%s' is not valid UTF-8 text once its %%-escapes are decoded (device "
        "paths and names must be UTF-8, e.g. %%C3%%A9 for '\303\251')."),
        shown);
    g_free (shown);
  }
  g_free (decoded);
  return ok;
}

/* One query parameter: its property and value, or FALSE with @error. */
static gboolean
parse_param (GObject * element, GstUri * u, const gchar * key,
    const gchar * uri, GParamSpec ** pspec, GValue * v, GError ** error)
{
  const gchar *text = gst_uri_get_query_value (u, key);

  *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (element), key);
  if (*pspec == NULL || !is_settable (*pspec)) {
    gchar *names = settable_names (element);
    if (*pspec != NULL && strcmp (key, "device") == 0)
      g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_REFERENCE,
          _("'device' cannot be a parameter of %s: the device is the URI's "
          "path (e.g. %s)."), uri, IVTV_URI_EXAMPLE);
    else
      g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_REFERENCE,
          _("Unknown parameter '%s' in %s. Known parameters: %s."), key, uri,
          names);
    g_free (names);
    return FALSE;
  }
  if (text == NULL || text[0] == '\0') {
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_REFERENCE,
        _("Parameter '%s' in %s has no value (write %s=VALUE)."), key, uri, key);
    return FALSE;
  }
  return parse_value (*pspec, key, text, v, uri, error);
}

gboolean
ivtv_uri_apply (GObject * element, const gchar * uri, GError ** error)
{
  GstUri *u;
  gchar *path;
  GList *keys, *l;
  GArray *values;
  GPtrArray *specs;
  gboolean ok = TRUE;
  guint i;

  if (!check_escapes (uri, error))
    return FALSE;
  u = gst_uri_from_string (uri);
  if (u == NULL) {
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_URI,
        _("'%s' is not a valid URI (expected e.g. %s)."), uri, IVTV_URI_EXAMPLE);
    return FALSE;
  }
  if ((path = device_of_uri (u, uri, error)) == NULL) {
    gst_uri_unref (u);
    return FALSE;
  }

  /* Check every parameter before changing anything. */
  keys = gst_uri_get_query_keys (u);
  values = g_array_new (FALSE, TRUE, sizeof (GValue));
  g_array_set_clear_func (values, (GDestroyNotify) g_value_unset);
  specs = g_ptr_array_new ();
  for (l = keys; ok && l != NULL; l = l->next) {
    GParamSpec *pspec;
    GValue v = G_VALUE_INIT;

    ok = parse_param (element, u, l->data, uri, &pspec, &v, error);
    if (ok) {
      g_array_append_val (values, v);
      g_ptr_array_add (specs, pspec);
    }
  }

  if (ok) {
    g_object_set (element, "device", path, NULL);
    for (i = 0; i < specs->len; i++)
      g_object_set_property (element,
          ((GParamSpec *) g_ptr_array_index (specs, i))->name,
          &g_array_index (values, GValue, i));
  }
  g_array_unref (values);
  g_ptr_array_unref (specs);
  g_list_free (keys);
  g_free (path);
  gst_uri_unref (u);
  return ok;
}

gchar *
ivtv_uri_from_element (GObject * element)
{
  static const gchar *const shown[] = { "input", "standard", "audio-input",
    NULL
  };
  GString *uri = g_string_new (IVTV_URI_SCHEME "://");
  gchar *device = NULL;
  guint i, n = 0;

  /* written by hand: GstUri writes a space as '+', which it does not read
   * back as a space */
  g_object_get (element, "device", &device, NULL);
  g_string_append_uri_escaped (uri, device ? device : IVTV_URI_DEFAULT_DEVICE,
      "/", FALSE);
  for (i = 0; shown[i] != NULL; i++) {
    gchar *v = NULL;

    if (!g_object_class_find_property (G_OBJECT_GET_CLASS (element), shown[i]))
      continue;
    g_object_get (element, shown[i], &v, NULL);
    if (v != NULL && v[0] != '\0') {
      g_string_append_printf (uri, "%c%s=", n++ ? '&' : '?', shown[i]);
      g_string_append_uri_escaped (uri, v, NULL, FALSE);
    }
    g_free (v);
  }
  g_free (device);
  return g_string_free (uri, FALSE);
}

/* ---- GstURIHandler ---- */

static GstURIType
ivtv_uri_get_type (GType type)
{
  (void) type;
  return GST_URI_SRC;
}

static const gchar *const *
ivtv_uri_get_protocols (GType type)
{
  static const gchar *const protocols[] = { IVTV_URI_SCHEME, NULL };
  (void) type;
  return protocols;
}

static gchar *
ivtv_uri_get_uri (GstURIHandler * handler)
{
  return ivtv_uri_from_element (G_OBJECT (handler));
}

static gboolean
ivtv_uri_set_uri (GstURIHandler * handler, const gchar * uri, GError ** error)
{
  GstElement *element = GST_ELEMENT (handler);
  GstState state;

  GST_OBJECT_LOCK (element);
  state = GST_STATE (element);
  GST_OBJECT_UNLOCK (element);
  if (state != GST_STATE_NULL) {
    g_set_error (error, GST_URI_ERROR, GST_URI_ERROR_BAD_STATE,
        _("The URI of %s can only be changed in the NULL state (the device "
        "is open)."), GST_ELEMENT_NAME (element));
    return FALSE;
  }
  return ivtv_uri_apply (G_OBJECT (handler), uri, error);
}

void
ivtv_uri_handler_init (gpointer g_iface, gpointer iface_data)
{
  GstURIHandlerInterface *iface = g_iface;

  (void) iface_data;
  iface->get_type = ivtv_uri_get_type;
  iface->get_protocols = ivtv_uri_get_protocols;
  iface->get_uri = ivtv_uri_get_uri;
  iface->set_uri = ivtv_uri_set_uri;
}
