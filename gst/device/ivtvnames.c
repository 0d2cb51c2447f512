/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — fuzzy input names and TV standard names (see ivtvnames.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvnames.h"

#include <string.h>

static gboolean
is_separator (gchar c)
{
  return c == ' ' || c == '-' || c == '_' || c == '.' || c == '\t';
}

gchar *
ivtv_names_normalize (const gchar * s)
{
  GString *out = g_string_new (NULL);

  for (; s && *s; s++)
    if (!is_separator (*s))
      g_string_append_c (out, g_ascii_tolower (*s));
  return g_string_free (out, FALSE);
}

static gboolean
all_digits (const gchar * s)
{
  if (*s == '\0')
    return FALSE;
  for (; *s; s++)
    if (!g_ascii_isdigit (*s))
      return FALSE;
  return TRUE;
}

/* Split a normalized name into its base word and trailing number
 * ("composite2" -> "composite", 2; "tuner" -> "tuner", -1). */
static gchar *
split_number (const gchar * norm, gint64 * number)
{
  gsize len = strlen (norm), end = len;

  while (end > 0 && g_ascii_isdigit (norm[end - 1]))
    end--;
  if (end == len || end == 0 || len - end > 9) {
    *number = -1;
    return g_strdup (norm);
  }
  *number = g_ascii_strtoll (norm + end, NULL, 10);
  return g_strndup (norm, end);
}

static const gchar *const tuner_words[] = {
  "tuner", "tv", "television", "antenna", "rf", "cable", "air", NULL
};

static const struct
{
  const gchar *alias;
  const gchar *base;
} base_aliases[] = {
  {"cvbs", "composite"},
  {"comp", "composite"},
  {"yc", "svideo"},
  {"svhs", "svideo"},
  {"sv", "svideo"},
  {"ypbpr", "component"},
  {"yuv", "component"},
  {"cam", "webcam"},
  {"camera", "webcam"},
};

static gboolean
is_tuner_word (const gchar * base)
{
  guint i;

  for (i = 0; tuner_words[i]; i++)
    if (strcmp (base, tuner_words[i]) == 0)
      return TRUE;
  return FALSE;
}

/* Rule 5: the tuner entries (or, for audio lists, entries whose base word
 * is a tuner word), first or the numbered one. */
static gint
match_tuner (const IvtvNameEntry * e, guint n, gint64 number)
{
  gint first = IVTV_NAMES_NO_MATCH;
  guint i;

  for (i = 0; i < n; i++) {
    gchar *norm, *base;
    gint64 num;
    gboolean tunerish;

    norm = ivtv_names_normalize (e[i].name);
    base = split_number (norm, &num);
    tunerish = e[i].is_tuner || is_tuner_word (base);
    g_free (norm);
    g_free (base);
    if (!tunerish)
      continue;
    if (number < 0)
      return i;
    if (num == number)
      return i;
    if (first == IVTV_NAMES_NO_MATCH)
      first = i;
  }
  /* "tv1" with one unnumbered tuner: that tuner */
  if (number >= 0 && first >= 0 && number <= 1)
    return first;
  return IVTV_NAMES_NO_MATCH;
}

/* Rule 6: candidates are entries whose base word starts with @qbase (and
 * whose number is @qnum if given).  A candidate whose base word equals
 * @qbase wins (the first one); else all candidates must share one base. */
static gint
match_base (const IvtvNameEntry * e, guint n, const gchar * qbase, gint64 qnum)
{
  gint first_exact = IVTV_NAMES_NO_MATCH, first = IVTV_NAMES_NO_MATCH;
  gchar *first_base = NULL;
  gboolean mixed = FALSE;
  guint i;

  for (i = 0; i < n; i++) {
    gchar *norm, *base;
    gint64 num;

    norm = ivtv_names_normalize (e[i].name);
    base = split_number (norm, &num);
    g_free (norm);
    if (g_str_has_prefix (base, qbase) && (qnum < 0 || num == qnum)) {
      if (strcmp (base, qbase) == 0 && first_exact < 0)
        first_exact = i;
      if (first < 0) {
        first = i;
        first_base = g_strdup (base);
      } else if (strcmp (first_base, base) != 0) {
        mixed = TRUE;
      }
    }
    g_free (base);
  }
  g_free (first_base);
  if (first_exact >= 0)
    return first_exact;
  if (mixed)
    return IVTV_NAMES_AMBIGUOUS;
  return first;
}

gint
ivtv_names_match (const IvtvNameEntry * e, guint n, const gchar * query)
{
  gchar *q, *qnorm, *qbase;
  gint64 qnum;
  gint ret = IVTV_NAMES_NO_MATCH;
  guint i;

  if (query == NULL || e == NULL)
    return IVTV_NAMES_NO_MATCH;
  q = g_strstrip (g_strdup (query));
  if (*q == '\0')
    goto done;

  /* 1. index */
  if (all_digits (q)) {
    guint64 idx = g_ascii_strtoull (q, NULL, 10);
    ret = idx < n ? (gint) idx : IVTV_NAMES_NO_MATCH;
    goto done;
  }
  /* 2. exact, 3. case-insensitive */
  for (i = 0; i < n; i++)
    if (g_strcmp0 (e[i].name, q) == 0) {
      ret = i;
      goto done;
    }
  for (i = 0; i < n; i++)
    if (e[i].name && g_ascii_strcasecmp (e[i].name, q) == 0) {
      ret = i;
      goto done;
    }
  /* 4. ignoring separators */
  qnorm = ivtv_names_normalize (q);
  if (*qnorm == '\0') {
    g_free (qnorm);
    goto done;
  }
  for (i = 0; i < n; i++) {
    gchar *norm = ivtv_names_normalize (e[i].name);
    gboolean same = strcmp (norm, qnorm) == 0;
    g_free (norm);
    if (same) {
      ret = i;
      g_free (qnorm);
      goto done;
    }
  }

  qbase = split_number (qnorm, &qnum);
  g_free (qnorm);

  /* 5. tuner words */
  if (is_tuner_word (qbase)) {
    ret = match_tuner (e, n, qnum);
    if (ret >= 0) {
      g_free (qbase);
      goto done;
    }
  }
  /* 6. base word (after aliases) */
  for (i = 0; i < G_N_ELEMENTS (base_aliases); i++)
    if (strcmp (qbase, base_aliases[i].alias) == 0) {
      ret = match_base (e, n, base_aliases[i].base, qnum);
      if (ret != IVTV_NAMES_NO_MATCH) {
        g_free (qbase);
        goto done;
      }
    }
  ret = match_base (e, n, qbase, qnum);
  g_free (qbase);

done:
  g_free (q);
  return ret;
}

gchar *
ivtv_names_join (const IvtvNameEntry * e, guint n)
{
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; i < n; i++)
    g_string_append_printf (s, "%s'%s'", i ? ", " : "",
        e[i].name ? e[i].name : "");
  if (n == 0)
    g_string_append (s, "(none)");
  return g_string_free (s, FALSE);
}

/* ---- standards ---- */

static const struct
{
  const gchar *name;
  v4l2_std_id id;
} std_names[] = {
  {"ntsc", V4L2_STD_NTSC},
  {"ntsc-m", V4L2_STD_NTSC_M},
  {"ntsc-jp", V4L2_STD_NTSC_M_JP},
  {"ntsc-kr", V4L2_STD_NTSC_M_KR},
  {"ntsc-443", V4L2_STD_NTSC_443},
  {"pal", V4L2_STD_PAL},
  {"pal-bg", V4L2_STD_PAL_BG},
  {"pal-b", V4L2_STD_PAL_B},
  {"pal-b1", V4L2_STD_PAL_B1},
  {"pal-g", V4L2_STD_PAL_G},
  {"pal-h", V4L2_STD_PAL_H},
  {"pal-i", V4L2_STD_PAL_I},
  {"pal-dk", V4L2_STD_PAL_DK},
  {"pal-d", V4L2_STD_PAL_D},
  {"pal-d1", V4L2_STD_PAL_D1},
  {"pal-k", V4L2_STD_PAL_K},
  {"pal-m", V4L2_STD_PAL_M},
  {"pal-n", V4L2_STD_PAL_N},
  {"pal-nc", V4L2_STD_PAL_Nc},
  {"pal-60", V4L2_STD_PAL_60},
  {"secam", V4L2_STD_SECAM},
  {"secam-b", V4L2_STD_SECAM_B},
  {"secam-d", V4L2_STD_SECAM_D},
  {"secam-dk", V4L2_STD_SECAM_DK},
  {"secam-g", V4L2_STD_SECAM_G},
  {"secam-h", V4L2_STD_SECAM_H},
  {"secam-k", V4L2_STD_SECAM_K},
  {"secam-k1", V4L2_STD_SECAM_K1},
  {"secam-l", V4L2_STD_SECAM_L},
  {"secam-lc", V4L2_STD_SECAM_LC},
  {"525-60", V4L2_STD_525_60},
  {"625-50", V4L2_STD_625_50},
};

/* other spellings: the kernel's own ENUMSTD names and v4l2-ctl's */
static const struct
{
  const gchar *name;
  const gchar *canonical;
} std_aliases[] = {
  {"ntsc-m-jp", "ntsc-jp"},
  {"ntsc-j", "ntsc-jp"},
  {"ntsc-japan", "ntsc-jp"},
  {"ntsc-m-kr", "ntsc-kr"},
  {"ntsc-us", "ntsc-m"},
  {"pal-n-c", "pal-nc"},
  {"secam-l-c", "secam-lc"},
  {"secam-l-prime", "secam-lc"},
};

static gchar *std_all[G_N_ELEMENTS (std_names) + 1];

const gchar *const *
ivtv_names_std_all (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    guint i;
    for (i = 0; i < G_N_ELEMENTS (std_names); i++)
      std_all[i] = (gchar *) std_names[i].name;
    std_all[i] = NULL;
    g_once_init_leave (&done, 1);
  }
  return (const gchar * const *) std_all;
}

gboolean
ivtv_names_parse_std (const gchar * name, v4l2_std_id * id, gboolean * is_auto)
{
  gchar *q, *norm;
  gboolean ok = FALSE;
  guint i;

  *id = 0;
  *is_auto = FALSE;
  if (name == NULL)
    return FALSE;
  q = g_strstrip (g_strdup (name));

  if (g_ascii_strncasecmp (q, "0x", 2) == 0 && q[2] != '\0') {
    gchar *end = NULL;
    guint64 v = g_ascii_strtoull (q + 2, &end, 16);
    if (end && *end == '\0' && v != 0) {
      *id = v;
      ok = TRUE;
    }
    g_free (q);
    return ok;
  }

  norm = ivtv_names_normalize (q);
  g_free (q);
  if (strcmp (norm, "auto") == 0 || strcmp (norm, "detect") == 0) {
    *is_auto = TRUE;
    g_free (norm);
    return TRUE;
  }
  for (i = 0; i < G_N_ELEMENTS (std_names) && !ok; i++) {
    gchar *n = ivtv_names_normalize (std_names[i].name);
    if (strcmp (n, norm) == 0) {
      *id = std_names[i].id;
      ok = TRUE;
    }
    g_free (n);
  }
  for (i = 0; i < G_N_ELEMENTS (std_aliases) && !ok; i++) {
    gchar *n = ivtv_names_normalize (std_aliases[i].name);
    if (strcmp (n, norm) == 0)
      ok = ivtv_names_parse_std (std_aliases[i].canonical, id, is_auto);
    g_free (n);
  }
  g_free (norm);
  return ok;
}

const gchar *
ivtv_names_std_to_string (v4l2_std_id id)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (std_names); i++)
    if (std_names[i].id == id)
      return std_names[i].name;
  return NULL;
}

gchar *
ivtv_names_std_describe (v4l2_std_id id)
{
  GString *s;
  v4l2_std_id left = id;
  guint i;

  if (ivtv_names_std_to_string (id))
    return g_strdup (ivtv_names_std_to_string (id));
  if (id == 0)
    return g_strdup ("none");

  /* greedy: the biggest named groups contained in @id first (the table
   * lists groups before their members within each family) */
  s = g_string_new (NULL);
  for (i = 0; i < G_N_ELEMENTS (std_names); i++) {
    v4l2_std_id part = std_names[i].id;
    if (part == V4L2_STD_525_60 || part == V4L2_STD_625_50)
      continue;
    if ((left & part) == part) {
      g_string_append_printf (s, "%s%s", s->len ? "/" : "", std_names[i].name);
      left &= ~part;
    }
  }
  if (left)
    g_string_append_printf (s, "%s0x%" G_GINT64_MODIFIER "x",
        s->len ? "/" : "", (guint64) left);
  return g_string_free (s, FALSE);
}
