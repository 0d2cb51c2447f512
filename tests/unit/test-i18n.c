/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Messages are translatable: a catalogue of the plugin's gettext domain
 * (GETTEXT_PACKAGE, made here with msgfmt) translates the text of an
 * error the device layer reports (ivtvdevice.c), as GStreamer plugins'
 * messages are; and the shipped German catalogue (po/de.po, IVTV_DE_PO)
 * translates the queue-loss warning (ivtvloss.c), which is put together
 * from pieces.  Skips when msgfmt (Debian gettext) is missing. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <glib/gi18n-lib.h>
#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "ivtvdevice.h"
#include "ivtvloss.h"

/* as in ivtvdevice.c: the error for an empty device path */
#define MSGID "No device given (set the 'device' property, e.g. /dev/video0)"
#define MSGSTR "KEIN GERAET (xx)"

GST_START_TEST (test_error_text_translated)
{
  gchar *dir = g_dir_make_tmp ("ivtv-i18n-XXXXXX", NULL);
  gchar *po = g_build_filename (dir, "xx.po", NULL);
  gchar *lc = g_build_filename (dir, "xx", "LC_MESSAGES", NULL);
  gchar *mo = g_build_filename (lc, GETTEXT_PACKAGE ".mo", NULL);
  gchar *cmd = g_strdup_printf ("msgfmt -o '%s' '%s'", mo, po);
  gchar *text = g_strdup_printf ("msgid \"\"\nmsgstr \"Content-Type: "
      "text/plain; charset=UTF-8\\n\"\n\nmsgid \"%s\"\nmsgstr \"%s\"\n",
      MSGID, MSGSTR);
  IvtvDevice dev;
  GError *err = NULL;

  fail_unless (g_file_set_contents (po, text, -1, NULL));
  g_mkdir_with_parents (lc, 0700);
  fail_unless (system (cmd) == 0, "%s failed", cmd);
  fail_unless (setlocale (LC_ALL, "C.UTF-8") != NULL, "no C.UTF-8 locale");
  g_setenv ("LANGUAGE", "xx", TRUE);
  bindtextdomain (GETTEXT_PACKAGE, dir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");

  ivtv_device_init (&dev, NULL);
  fail_if (ivtv_device_open (&dev, "", FALSE, &err));
  fail_unless_equals_string (err->message, MSGSTR);
  g_clear_error (&err);
  ivtv_device_clear (&dev);

  g_unlink (mo);
  g_unlink (po);
  g_rmdir (lc);
  g_free (mo);
  mo = g_build_filename (dir, "xx", NULL);
  g_rmdir (mo);
  g_rmdir (dir);
  g_free (mo);
  g_free (lc);
  g_free (po);
  g_free (cmd);
  g_free (text);
  g_free (dir);
}

GST_END_TEST;

/* po/de.po made into DIR/de/LC_MESSAGES/GETTEXT_PACKAGE.mo */
static gchar *
german_catalogue (void)
{
  const gchar *po = g_getenv ("IVTV_DE_PO");
  gchar *dir = g_dir_make_tmp ("ivtv-i18n-de-XXXXXX", NULL);
  gchar *lc = g_build_filename (dir, "de", "LC_MESSAGES", NULL);
  gchar *cmd = g_strdup_printf ("msgfmt -o '%s/" GETTEXT_PACKAGE ".mo' '%s'",
      lc, po);

  fail_unless (po != NULL, "IVTV_DE_PO is not set (tests/unit/meson.build)");
  g_mkdir_with_parents (lc, 0700);
  fail_unless (system (cmd) == 0, "%s failed", cmd);
  g_free (cmd);
  g_free (lc);
  return dir;
}

/* The queue-loss warning, words and pieces, in German; its figures kept */
GST_START_TEST (test_loss_text_german)
{
  IvtvLoss l = { IVTV_LOSS_ENDED, IVTV_QUEUE_FULL_BYTES, 3000000, 3, 3,
    GST_SECOND, 12 * GST_SECOND, 12 * GST_SECOND, 2960 * GST_MSECOND,
    400, 0
  };
  gchar *dir = german_catalogue (), *text, *cmd;

  fail_unless (setlocale (LC_ALL, "C.UTF-8") != NULL, "no C.UTF-8 locale");
  g_setenv ("LANGUAGE", "de", TRUE);
  bindtextdomain (GETTEXT_PACKAGE, dir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  text = ivtv_loss_describe (&l);
  /* (the size's space is g_format_size's own, a no-break space) */
  fail_unless (g_str_has_suffix (text, "MB (1.0 s, 3 Bilder) der "
          "Aufnahme bei 0:00:12.0 gingen verloren: die Warteschlange des "
          "Elements (max-buffer-bytes=400) war voll, weil die nachfolgenden "
          "Elemente 3.0 s lang keine Puffer abgenommen haben"), "got: %s", text);
  g_free (text);
  l.frames = 1;
  text = ivtv_loss_describe (&l);
  fail_unless (strstr (text, "(1.0 s, 1 Bild)") != NULL, "got: %s", text);
  g_free (text);
  g_unsetenv ("LANGUAGE");
  cmd = g_strdup_printf ("rm -rf '%s'", dir);
  fail_unless (system (cmd) == 0);
  g_free (cmd);
  g_free (dir);
}

GST_END_TEST;

static Suite *
i18n_suite (void)
{
  Suite *s = suite_create ("i18n");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  if (g_find_program_in_path ("msgfmt") == NULL)
    g_print ("skip: no msgfmt (Debian gettext)\n");
  else {
    tcase_add_test (tc, test_error_text_translated);
    tcase_add_test (tc, test_loss_text_german);
  }
  return s;
}

GST_CHECK_MAIN (i18n);
