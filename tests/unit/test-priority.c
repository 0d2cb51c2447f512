/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of gst/session/ivtvpriority.c without a device: who else has a node
 * open, as the busy error names them (/proc/PID/fd). */
#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ivtvpriority.h"

/* A child process (sleep) holding @path open names itself; this process,
 * which has it open too, is not named; nobody is named once it is gone. */
GST_START_TEST (test_find_holders)
{
  gchar *dir = g_dir_make_tmp ("ivtv-prio-XXXXXX", NULL);
  gchar *path = g_build_filename (dir, "node", NULL), *who, *pid_s;
  gint fd, i;
  pid_t pid;

  fail_unless (g_file_set_contents (path, "x", 1, NULL));
  fd = open (path, O_RDONLY);
  fail_unless (fd >= 0);
  who = ivtv_priority_find_holders (path);
  fail_unless (who == NULL, "names '%s' though only this process has it", who);

  pid = fork ();
  if (pid == 0) {
    execlp ("sleep", "sleep", "30", (char *) NULL);
    _exit (127);
  }
  /* the child has inherited fd; wait until it runs sleep */
  pid_s = g_strdup_printf ("PID %d (sleep)", (gint) pid);
  for (i = 0, who = NULL; i < 100; i++) {
    g_free (who);
    who = ivtv_priority_find_holders (path);
    if (who && strstr (who, pid_s))
      break;
    g_usleep (20000);
  }
  fail_unless (who && strstr (who, pid_s), "'%s' does not name %s", who,
      pid_s);
  g_free (who);

  kill (pid, SIGKILL);
  waitpid (pid, NULL, 0);
  who = ivtv_priority_find_holders (path);
  fail_unless (who == NULL, "still names '%s'", who);
  who = ivtv_priority_find_holders ("/nonexistent/video99");
  fail_unless (who == NULL);

  close (fd);
  g_unlink (path);
  g_rmdir (dir);
  g_free (pid_s);
  g_free (path);
  g_free (dir);
}

GST_END_TEST;

static Suite *
priority_suite (void)
{
  Suite *s = suite_create ("priority");
  TCase *tc = tcase_create ("holders");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_find_holders);
  return s;
}

GST_CHECK_MAIN (priority);
