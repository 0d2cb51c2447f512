/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* tests/sanitize/tsan-glib.c: GLib's GMutex, as ThreadSanitizer sees it.
 * GLib on Linux locks a GMutex with futexes of its own (gthread-posix.c),
 * which TSan does not intercept, so every GMutex-guarded access in
 * GStreamer and in our code would look like a race.  This small library,
 * LD_PRELOADed by tsan-run.sh (built by it, without TSan, so it can load
 * into any process), wraps g_mutex_lock/trylock/unlock and g_cond_wait*
 * (and GAsyncQueue's push and pop, which lock inside GLib) and tells
 * TSan about the acquire and release (its annotation calls are
 * weak: in a process without TSan they are absent and nothing is done). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <glib.h>

extern void __tsan_acquire (void *addr) __attribute__((weak));
extern void __tsan_release (void *addr) __attribute__((weak));

typedef void (*LockFn) (GMutex *);
typedef gboolean (*TryFn) (GMutex *);
typedef void (*WaitFn) (GCond *, GMutex *);
typedef gboolean (*WaitUntilFn) (GCond *, GMutex *, gint64);
typedef void (*PushFn) (GAsyncQueue *, gpointer);
typedef gpointer (*PopFn) (GAsyncQueue *);
typedef gpointer (*TimeoutPopFn) (GAsyncQueue *, guint64);

#define REAL(name, type) \
  static type real; \
  if (!real) \
    real = (type) dlsym (RTLD_NEXT, name)

static void
acquired (void *m)
{
  if (__tsan_acquire)
    __tsan_acquire (m);
}

static void
releasing (void *m)
{
  if (__tsan_release)
    __tsan_release (m);
}

void
g_mutex_lock (GMutex * m)
{
  REAL ("g_mutex_lock", LockFn);
  real (m);
  acquired (m);
}

gboolean
g_mutex_trylock (GMutex * m)
{
  gboolean ok;

  REAL ("g_mutex_trylock", TryFn);
  ok = real (m);
  if (ok)
    acquired (m);
  return ok;
}

void
g_mutex_unlock (GMutex * m)
{
  REAL ("g_mutex_unlock", LockFn);
  releasing (m);
  real (m);
}

void
g_cond_wait (GCond * c, GMutex * m)
{
  REAL ("g_cond_wait", WaitFn);
  releasing (m);
  real (c, m);
  acquired (m);
}

gboolean
g_cond_wait_until (GCond * c, GMutex * m, gint64 end_time)
{
  gboolean ok;

  REAL ("g_cond_wait_until", WaitUntilFn);
  releasing (m);
  ok = real (c, m, end_time);
  acquired (m);
  return ok;
}

/* GAsyncQueue locks inside GLib (calls this library cannot see): a push
 * releases, a pop that got an item acquires (GstHarness hands buffers
 * over this way). */
void
g_async_queue_push (GAsyncQueue * q, gpointer data)
{
  REAL ("g_async_queue_push", PushFn);
  releasing (q);
  real (q, data);
}

gpointer
g_async_queue_pop (GAsyncQueue * q)
{
  gpointer item;

  REAL ("g_async_queue_pop", PopFn);
  item = real (q);
  acquired (q);
  return item;
}

gpointer
g_async_queue_try_pop (GAsyncQueue * q)
{
  gpointer item;

  REAL ("g_async_queue_try_pop", PopFn);
  item = real (q);
  if (item)
    acquired (q);
  return item;
}

gpointer
g_async_queue_timeout_pop (GAsyncQueue * q, guint64 timeout)
{
  gpointer item;

  REAL ("g_async_queue_timeout_pop", TimeoutPopFn);
  item = real (q, timeout);
  if (item)
    acquired (q);
  return item;
}
