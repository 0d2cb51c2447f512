/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* info.c - ivtv-emu-info: the helper of the ivtv-emu command that lists the
 * profiles (--list) and checks --profile/--fault arguments before a run
 * (--check DEVICES FAULTS), using the emulator's own tables. */
#include "emu.h"
#include "vbi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
check (const char *devices, const char *faults)
{
  char *copy = strdup (devices), *tok, *save = NULL;
  int bad = 0;

  for (tok = strtok_r (copy, ",", &save); tok;
      tok = strtok_r (NULL, ",", &save)) {
    char *at = strchr (tok, '@');
    struct emu_faults fl;

    if (!at || strncmp (at + 1, "/dev/", 5) != 0) {
      fprintf (stderr, "ivtv-emu: bad device '%s' (want NAME@/dev/videoN)\n",
          tok);
      bad = 1;
      continue;
    }
    *at = '\0';
    if (!emu_profile_find (tok)) {
      fprintf (stderr, "ivtv-emu: unknown profile '%s' (see ivtv-emu --list)"
          "\n", tok);
      bad = 1;
    }
    if (emu_faults_parse (faults, at + 1, &fl) < 0)
      bad = 1;
  }
  free (copy);
  return bad ? 2 : 0;
}

int
main (int argc, char **argv)
{
  int i;

  if (argc == 2 && strcmp (argv[1], "--list") == 0) {
    for (i = 0; i < emu_n_profiles; i++)
      if (emu_profiles[i])
      {
        printf ("%-13s %s\n", emu_profiles[i]->name,
            emu_profiles[i]->summary);
        if (emu_profiles[i]->vbi)
          printf ("%-13s   + /dev/vbiN: %s\n", "",
              emu_profiles[i]->vbi->what);
      }
    return 0;
  }
  if (argc == 4 && strcmp (argv[1], "--check") == 0)
    return check (argv[2], argv[3]);
  fprintf (stderr, "usage: ivtv-emu-info --list | --check DEVICES FAULTS\n");
  return 2;
}
