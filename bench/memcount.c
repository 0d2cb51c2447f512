/* libbenchmemcount.so — LD_PRELOAD counter of the bytes copied by memcpy,
 * memmove and mempcpy (and their _chk forms), per calling shared object,
 * for the benchmark's streaming figures (bench/run.sh).
 *
 * The caller is found from the return address with dladdr(); calls made
 * inside glibc (which do not go through the PLT) are not seen.  Copies made
 * by the emulator (libivtvemu.so: the "driver's copy" into its buffers) are
 * counted under their own name, so the report can leave them out.  At exit
 * it appends one line per object to $BENCH_MEMCOUNT_OUT (or stderr):
 *   memcount object=NAME calls=N bytes=N
 * Built only for the benchmark; never installed.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OBJS 64
#define CACHE 1024

typedef void *(*copy_fn) (void *, const void *, size_t);

static copy_fn real_memcpy, real_memmove, real_mempcpy;
static char obj_name[MAX_OBJS][128];
static unsigned long long obj_calls[MAX_OBJS], obj_bytes[MAX_OBJS];
static int n_objs;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static __thread int busy;
static __thread struct
{
  uintptr_t ret;
  int obj;
} cache[CACHE];

/* byte copy for the moment before the real functions are resolved */
static void *
slow_move (void *d, const void *s, size_t n)
{
  volatile unsigned char *dp = d;
  const volatile unsigned char *sp = s;

  if (dp < sp)
    for (size_t i = 0; i < n; i++)
      dp[i] = sp[i];
  else
    for (size_t i = n; i > 0; i--)
      dp[i - 1] = sp[i - 1];
  return d;
}

static void
resolve (void)
{
  if (real_memmove)
    return;
  busy++;
  real_memcpy = (copy_fn) dlsym (RTLD_NEXT, "memcpy");
  real_mempcpy = (copy_fn) dlsym (RTLD_NEXT, "mempcpy");
  real_memmove = (copy_fn) dlsym (RTLD_NEXT, "memmove");
  busy--;
}

static int
lookup_obj (uintptr_t ret)
{
  Dl_info info;
  const char *name = "?", *base;
  int i;

  busy++;
  if (dladdr ((void *) ret, &info) && info.dli_fname)
    name = info.dli_fname;
  base = strrchr (name, '/');
  base = base ? base + 1 : name;
  pthread_mutex_lock (&lock);
  for (i = 0; i < n_objs; i++)
    if (strcmp (obj_name[i], base) == 0)
      break;
  if (i == n_objs) {
    if (n_objs < MAX_OBJS - 1) {
      snprintf (obj_name[n_objs], sizeof (obj_name[0]), "%s", base);
      n_objs++;
    } else {
      i = MAX_OBJS - 1;
      snprintf (obj_name[i], sizeof (obj_name[0]), "(others)");
    }
  }
  pthread_mutex_unlock (&lock);
  busy--;
  return i;
}

static void
count (uintptr_t ret, size_t n)
{
  unsigned h;
  int obj;

  if (busy)
    return;
  h = (unsigned) ((ret >> 2) % CACHE);
  if (cache[h].ret == ret)
    obj = cache[h].obj;
  else {
    obj = lookup_obj (ret);
    cache[h].ret = ret;
    cache[h].obj = obj;
  }
  __atomic_fetch_add (&obj_calls[obj], 1, __ATOMIC_RELAXED);
  __atomic_fetch_add (&obj_bytes[obj], n, __ATOMIC_RELAXED);
}

#define RET ((uintptr_t) __builtin_return_address (0))

void *
memcpy (void *d, const void *s, size_t n)
{
  resolve ();
  count (RET, n);
  return real_memcpy ? real_memcpy (d, s, n) : slow_move (d, s, n);
}

void *
memmove (void *d, const void *s, size_t n)
{
  resolve ();
  count (RET, n);
  return real_memmove ? real_memmove (d, s, n) : slow_move (d, s, n);
}

void *
mempcpy (void *d, const void *s, size_t n)
{
  resolve ();
  count (RET, n);
  if (real_mempcpy)
    return real_mempcpy (d, s, n);
  return (char *) slow_move (d, s, n) + n;
}

void *
__memcpy_chk (void *d, const void *s, size_t n, size_t dn)
{
  (void) dn;
  resolve ();
  count (RET, n);
  return real_memcpy ? real_memcpy (d, s, n) : slow_move (d, s, n);
}

void *
__memmove_chk (void *d, const void *s, size_t n, size_t dn)
{
  (void) dn;
  resolve ();
  count (RET, n);
  return real_memmove ? real_memmove (d, s, n) : slow_move (d, s, n);
}

__attribute__((destructor))
static void
report (void)
{
  const char *path = getenv ("BENCH_MEMCOUNT_OUT");
  FILE *f = path ? fopen (path, "a") : NULL;
  int i;

  busy++;
  for (i = 0; i < MAX_OBJS; i++)
    if (obj_name[i][0])
      fprintf (f ? f : stderr, "memcount object=%s calls=%llu bytes=%llu\n",
          obj_name[i], obj_calls[i], obj_bytes[i]);
  if (f)
    fclose (f);
}
