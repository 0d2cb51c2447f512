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

#endif
