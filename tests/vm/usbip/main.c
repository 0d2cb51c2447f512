/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* main.c - ivtv-usbdev MODEL ARGS...: runs one device model over USB/IP
 * (usbdev.c) inside the VM; stdin takes fault commands, stdout reports
 * events (README.md). */
#include <stdio.h>
#include <string.h>

int model_hdpvr (int argc, char **argv);
int model_usbtv (int argc, char **argv);
int model_stk1160 (int argc, char **argv);
int model_pvrusb2 (int argc, char **argv);

static const struct
{
  const char *name;
  int (*run) (int argc, char **argv);
} models[] = {
  {"hdpvr", model_hdpvr},
  {"usbtv", model_usbtv},
  {"stk1160", model_stk1160},
  {"pvrusb2", model_pvrusb2},
};

int
main (int argc, char **argv)
{
  setvbuf (stdout, NULL, _IOLBF, 0);
  for (size_t i = 0; argc > 1 && i < sizeof models / sizeof models[0]; i++)
    if (!strcmp (argv[1], models[i].name))
      return models[i].run (argc - 1, argv + 1);
  fprintf (stderr, "usage: ivtv-usbdev MODEL ARGS (models:");
  for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
    fprintf (stderr, " %s", models[i].name);
  fprintf (stderr, ")\n");
  return 2;
}
