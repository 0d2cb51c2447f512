/* payload.h - the MPEG clips the MPEG engine streams (payload.c). */
#ifndef IVTV_EMU_PAYLOAD_H
#define IVTV_EMU_PAYLOAD_H

#include <stddef.h>
#include <stdbool.h>

#define EMU_CONTENT_BLACK (-1)

struct emu_clip
{
  const unsigned char *data;
  size_t len;
};

/* The clip for an input content (or EMU_CONTENT_BLACK: no signal), in the
 * 625-line (pal) or 525-line family, as program or transport stream.
 * NULL (with a message on stderr, once) if the clip file is missing. */
const struct emu_clip *emu_clip_get (int content, bool pal, bool ts);

/* The same clip with its first EMU_MUTE_FRAMES audio frames silent (what
 * the encoder makes right after an input switch); the plain clip if it
 * cannot be made. */
#define EMU_MUTE_FRAMES 6       /* x 24 ms at 48 kHz = 144 ms */
const struct emu_clip *emu_clip_get_muted (int content, bool pal, bool ts);

/* payload-mute.c: a malloc'd copy of c with the first `frames` MPEG audio
 * frames silenced, or NULL */
unsigned char *emu_clip_mute (const struct emu_clip *c, bool ts, int frames);

#endif
