/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* payload.c - finds and maps the MPEG clips made at build time by
 * mkpayload.sh (c<N>-ntsc.mpg, c<N>-pal.ts, black-pal.dvd.mpg, ...: one per
 * content, standard family and stream type) in $IVTV_EMU_PAYLOAD_DIR.  Each clip is a complete short stream; the MPEG
 * engine loops it.  Muted copies (payload-mute.c) are made on first use. */
#include "emu.h"
#include "payload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_CONTENT 8

static struct emu_clip clips[MAX_CONTENT + 1][2][EMU_CLIP_TYPES];
static struct emu_clip muted[MAX_CONTENT + 1][2][EMU_CLIP_TYPES];
static bool tried[MAX_CONTENT + 1][2][EMU_CLIP_TYPES];
static bool tried_muted[MAX_CONTENT + 1][2][EMU_CLIP_TYPES];

/* file name endings by stream type (mkpayload.sh) */
static const char *const suffix[EMU_CLIP_TYPES] = {
  [EMU_CLIP_PS] = "mpg",[EMU_CLIP_TS] = "ts",[EMU_CLIP_MPEG1] = "mpeg1.mpg",
  [EMU_CLIP_DVD] = "dvd.mpg",[EMU_CLIP_VCD] = "vcd.mpg",
  [EMU_CLIP_SVCD] = "svcd.mpg",[EMU_CLIP_H264] = "h264.ts",
};
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

const char *
emu_payload_dir (void)
{
  const char *d = getenv ("IVTV_EMU_PAYLOAD_DIR");

  return d && *d ? d : ".";
}

static void
load (struct emu_clip *c, const char *path, bool ts, bool pal)
{
  const struct emu_real *r = emu_real ();
  struct stat st;
  void *p;
  int fd = r->open (path, O_RDONLY | O_CLOEXEC);

  if (fd < 0 || fstat (fd, &st) < 0 || st.st_size == 0) {
    fprintf (stderr, "ivtv-emu: payload clip %s missing or empty: %s\n",
        path, fd < 0 ? strerror (errno) : "empty file");
    if (fd >= 0)
      r->close (fd);
    return;
  }
  p = r->mmap (NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  r->close (fd);
  if (p == MAP_FAILED) {
    fprintf (stderr, "ivtv-emu: cannot map %s: %s\n", path, strerror (errno));
    return;
  }
  c->data = p;
  c->len = st.st_size;
  emu_clip_scan (c, ts, pal);
}

const struct emu_clip *
emu_clip_get (int content, bool pal, int type)
{
  int slot = content < 0 ? MAX_CONTENT : content;
  struct emu_clip *c;
  char path[1024], name[16];

  if (slot > MAX_CONTENT || type < 0 || type >= EMU_CLIP_TYPES)
    return NULL;
  pthread_mutex_lock (&lock);
  c = &clips[slot][pal][type];
  if (!tried[slot][pal][type]) {
    tried[slot][pal][type] = true;
    if (content < 0)
      snprintf (name, sizeof (name), "black");
    else
      snprintf (name, sizeof (name), "c%d", content);
    snprintf (path, sizeof (path), "%s/%s-%s.%s", emu_payload_dir (), name,
        pal ? "pal" : "ntsc", suffix[type]);
    load (c, path, type == EMU_CLIP_TS || type == EMU_CLIP_H264, pal);
  }
  pthread_mutex_unlock (&lock);
  return c->data ? c : NULL;
}

const struct emu_clip *
emu_clip_get_muted (int content, bool pal, int type)
{
  const struct emu_clip *c = emu_clip_get (content, pal, type);
  int slot = content < 0 ? MAX_CONTENT : content;
  bool ts = type == EMU_CLIP_TS;

  if (type == EMU_CLIP_H264)
    return c;                   /* AAC: payload-mute.c knows MPEG audio only */
  struct emu_clip *m;

  if (!c)
    return NULL;
  pthread_mutex_lock (&lock);
  m = &muted[slot][pal][type];
  if (!tried_muted[slot][pal][type]) {
    tried_muted[slot][pal][type] = true;
    m->data = emu_clip_mute (c, ts, EMU_MUTE_FRAMES);
    m->len = m->data ? c->len : 0;
    if (m->data)
      emu_clip_scan (m, ts, pal);
  }
  pthread_mutex_unlock (&lock);
  return m->data ? m : c;
}
