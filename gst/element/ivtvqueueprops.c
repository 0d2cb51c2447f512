/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ivtvsrc — max-buffer-bytes, max-buffer-time, stats-interval (see
 * ivtvqueueprops.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "ivtvqueueprops.h"

void
ivtv_queue_param_specs (GParamSpec * specs[IVTV_QUEUE_N_PROPS])
{
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  specs[IVTV_QUEUE_PROP_MAX_BUFFER_BYTES] = (g_param_spec_uint64 ("max-buffer-bytes", "Max buffer bytes",
          "The most data (bytes) held for a downstream that does not take "
          "buffers (a slow disk, an encoder slower than real time) while "
          "the card is read on; when it is full, newly read data is dropped "
          "with a warning (0 = no bound). The default, 64 MiB, holds about "
          "85 s of 6 Mbit/s MPEG or 3.2 s of raw 720x576 video",
          0, G_MAXUINT64, IVTV_DEFAULT_MAX_BUFFER_BYTES, rw));
  specs[IVTV_QUEUE_PROP_MAX_BUFFER_TIME] = (g_param_spec_uint64 ("max-buffer-time", "Max buffer time",
          "The most recording time (ns) held for a downstream that does not "
          "take buffers; when it is full, newly read data is dropped with a "
          "warning (0 = no bound)", 0, G_MAXUINT64,
          IVTV_DEFAULT_MAX_BUFFER_TIME, rw));
  specs[IVTV_QUEUE_PROP_STATS_INTERVAL] = (g_param_spec_uint ("stats-interval", "Stats interval",
          "Milliseconds between ivtvsrc-stats element messages (bytes and "
          "buffers captured, bit rate, signal, queue fill, bytes and frames "
          "lost; a final one at the end); 0 = only the final one", 0,
          G_MAXUINT, IVTV_DEFAULT_STATS_INTERVAL, rw));
}

gboolean
ivtv_queue_set_property (IvtvCapture * cap, guint prop, const GValue * value)
{
  IvtvReaderLimits limits;

  if (prop >= IVTV_QUEUE_N_PROPS)
    return FALSE;
  ivtv_capture_get_limits (cap, &limits);
  if (prop == IVTV_QUEUE_PROP_MAX_BUFFER_BYTES)
    limits.max_bytes = g_value_get_uint64 (value);
  else if (prop == IVTV_QUEUE_PROP_MAX_BUFFER_TIME)
    limits.max_time = g_value_get_uint64 (value);
  else
    limits.stats_interval = g_value_get_uint (value);
  ivtv_capture_set_limits (cap, &limits);
  return TRUE;
}

gboolean
ivtv_queue_get_property (IvtvCapture * cap, guint prop, GValue * value)
{
  IvtvReaderLimits limits;

  if (prop >= IVTV_QUEUE_N_PROPS)
    return FALSE;
  ivtv_capture_get_limits (cap, &limits);
  if (prop == IVTV_QUEUE_PROP_MAX_BUFFER_BYTES)
    g_value_set_uint64 (value, limits.max_bytes);
  else if (prop == IVTV_QUEUE_PROP_MAX_BUFFER_TIME)
    g_value_set_uint64 (value, limits.max_time);
  else
    g_value_set_uint (value, limits.stats_interval);
  return TRUE;
}
