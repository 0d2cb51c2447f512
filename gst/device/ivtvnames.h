/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — names people type for inputs and TV standards (pure functions,
 * no device access).
 *
 * Inputs (and audio inputs): ivtv_names_match() finds the entry a user
 * means by "2", "Composite 1", "composite 1", "composite1", "composite"
 * (the first "Composite ..."), "composite2" ("Composite 2"), "svideo",
 * "s-video", "S_Video", "tuner", "tv", "television", "line2" ("Line In 2"),
 * and a few aliases (cvbs, yc, ypbpr, ...).  Rules, first that matches wins:
 *   1. all digits: the index;
 *   2. exact name; 3. case-insensitive name;
 *   4. same name ignoring case, spaces, '-', '_' and '.';
 *   5. tuner words (tuner, tv, television, antenna, rf, cable, air) with an
 *      optional number: the (first, or numbered) tuner entry;
 *   6. base word + optional number, e.g. "composite", "svideo2": the base
 *      (after aliases: cvbs/comp -> composite, yc/svhs/sv -> svideo, ypbpr
 *      -> component, cam/camera -> webcam) is the name's base word or a
 *      prefix of it, and the number, if given, equals the name's number.
 *      Without a number the first such entry wins.  If the prefix fits
 *      entries of different base words ("s" for "S-Video" and "SCART") the
 *      query is ambiguous.
 *
 * Standards: ivtv_names_parse_std() knows v4l2-ctl's short names (ntsc,
 * ntsc-m, ntsc-jp, ntsc-kr, ntsc-443, pal, pal-bg, pal-b, pal-b1, pal-g,
 * pal-h, pal-i, pal-dk, pal-d, pal-d1, pal-k, pal-m, pal-n, pal-nc, pal-60,
 * secam, secam-b, secam-d, secam-dk, secam-g, secam-h, secam-k, secam-k1,
 * secam-l, secam-lc, 525-60, 625-50), "auto", and hexadecimal ids (0x1000).
 * Case and the separators ' ', '-', '_' do not matter ("PAL_BG", "palbg").
 */
#ifndef __IVTV_NAMES_H__
#define __IVTV_NAMES_H__

#include <glib.h>
#include <linux/videodev2.h>

G_BEGIN_DECLS

typedef struct
{
  const gchar *name;
  gboolean is_tuner;            /* V4L2_INPUT_TYPE_TUNER */
} IvtvNameEntry;

#define IVTV_NAMES_NO_MATCH   (-1)
#define IVTV_NAMES_AMBIGUOUS  (-2)

/* Position of the entry @query means, or IVTV_NAMES_NO_MATCH /
 * IVTV_NAMES_AMBIGUOUS.  NULL or empty @query: IVTV_NAMES_NO_MATCH. */
gint ivtv_names_match (const IvtvNameEntry * entries, guint n_entries,
    const gchar * query);

/* "'Tuner 1', 'S-Video 1', 'Composite 1'" (for messages). g_free it. */
gchar *ivtv_names_join (const IvtvNameEntry * entries, guint n_entries);

/* Lower-case @s without spaces, '-', '_', '.' (ASCII). g_free it. */
gchar *ivtv_names_normalize (const gchar * s);

/* Parse a standard name.  TRUE and *id set (0 with *is_auto TRUE for
 * "auto"), FALSE for an unknown name. */
gboolean ivtv_names_parse_std (const gchar * name, v4l2_std_id * id,
    gboolean * is_auto);

/* The v4l2-ctl short name of exactly @id ("pal-bg"), or NULL. */
const gchar *ivtv_names_std_to_string (v4l2_std_id id);

/* A readable name for any std mask: the short name when there is one,
 * else the short names of its parts joined by '/' ("ntsc-m/pal-m"), else
 * "0x...".  g_free it. */
gchar *ivtv_names_std_describe (v4l2_std_id id);

/* NULL-terminated list of all short names known (static, do not free). */
const gchar *const *ivtv_names_std_all (void);

G_END_DECLS

#endif /* __IVTV_NAMES_H__ */
