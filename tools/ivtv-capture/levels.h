/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtv-capture — audio levels of an archival capture (levels.c) */
#ifndef IVTV_CAPTURE_LEVELS_H
#define IVTV_CAPTURE_LEVELS_H

#include <gst/gst.h>
#include <stdatomic.h>
#include <stdint.h>

#define CAP_LEVEL_CHANNELS 8

typedef struct
{
  gdouble time;                 /* the minute's start, s into the capture */
  gint channels;
  gdouble peak_db[CAP_LEVEL_CHANNELS], rms_db[CAP_LEVEL_CHANNELS];
  guint64 clipped;
} CapLevelMinute;

typedef struct
{
  gint channels;
  gdouble peak_db[CAP_LEVEL_CHANNELS], rms_db[CAP_LEVEL_CHANNELS];
  gboolean have;
  _Atomic uint64_t clipped;     /* samples at full scale, streaming thread */
  /* the minute being summed */
  gdouble minute_start, peak[CAP_LEVEL_CHANNELS], power[CAP_LEVEL_CHANNELS];
  guint intervals;
  guint64 clipped_before;
  GArray *minutes;              /* CapLevelMinute */
} CapLevels;

void cap_levels_init (CapLevels * l);
void cap_levels_clear (CapLevels * l);
/* counts full-scale samples of interleaved signed integer audio */
void cap_levels_count_clipped (CapLevels * l, GstBuffer * buf, gint width);
/* a "level" element message; TRUE if it was one */
gboolean cap_levels_message (CapLevels * l, const GstStructure * s);
/* the minute under way goes into the list (at the end) */
void cap_levels_finish (CapLevels * l);
void cap_levels_text (CapLevels * l, GString * out);
void cap_levels_json (CapLevels * l, GString * out);

#endif /* IVTV_CAPTURE_LEVELS_H */
