/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* interpose-io.c - the LD_PRELOAD shim's I/O entry points on emulated
 * fds: ioctl (engine first, then the device core), read, write, mmap and
 * munmap (the table of device mappings, which keep their file alive). */
#undef _FILE_OFFSET_BITS
#include "emu.h"
#include "interpose.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

struct mapping
{
  void *addr;
  size_t len;
  struct emu_file *f;
};

static struct mapping maps[256];
static pthread_mutex_t maps_lock = PTHREAD_MUTEX_INITIALIZER;
static int (*real_ioctl) (int, unsigned long, ...);

bool
interpose_is_mapping (void *addr)
{
  bool r = false;
  int i;

  pthread_mutex_lock (&maps_lock);
  for (i = 0; i < (int) (sizeof (maps) / sizeof (maps[0])); i++)
    if (maps[i].addr == addr && addr)
      r = true;
  pthread_mutex_unlock (&maps_lock);
  return r;
}

void
interpose_io_init (void)
{
  *(void **) &real_ioctl = dlsym (RTLD_NEXT, "ioctl");
}

/* ---- ioctl / read / write ---- */

static long
emu_ioctl (struct emu_file *f, unsigned long req, void *arg)
{
  const struct emu_engine *eng = f->dev->prof->engine;
  long r = EMU_NEXT;

  if (emu_file_gone (f) && !emu_gone_like_pvrusb2 (f->dev))
    return -ENODEV;
  if (!arg && _IOC_SIZE (req) && (_IOC_DIR (req) != _IOC_NONE))
    return -EFAULT;
  if (eng && eng->ioctl)
    r = eng->ioctl (f, req, arg);
  if (r == EMU_NEXT)
    r = emu_core_ioctl (f, req, arg);
  if (r == EMU_NEXT)
    r = -ENOTTY;
  return r;
}

int
ioctl (int fd, unsigned long req, ...)
{
  struct emu_file *f;
  va_list ap;
  void *arg;
  long r;

  interpose_init ();
  va_start (ap, req);
  arg = va_arg (ap, void *);
  va_end (ap);
  f = interpose_get (fd);
  if (!f)
    return real_ioctl (fd, req, arg);
  r = emu_ioctl (f, req, arg);
  emu_debug ("%s: ioctl %c/%u -> %ld", f->dev->path, (int) _IOC_TYPE (req),
      (unsigned) _IOC_NR (req), r);
  interpose_put (f);
  return interpose_ret (r);
}

static ssize_t
emu_read (struct emu_file *f, void *buf, size_t n)
{
  const struct emu_engine *eng = f->dev->prof->engine;

  if (emu_file_gone (f))
    return emu_gone_read (f);
  if (f->accmode == O_WRONLY)
    return -EBADF;
  if (!eng || !eng->read)
    return -EINVAL;
  return eng->read (f, buf, n);
}

ssize_t
read (int fd, void *buf, size_t n)
{
  struct emu_file *f;
  ssize_t r;

  interpose_init ();
  f = interpose_get (fd);
  if (!f)
    return emu_real ()->read (fd, buf, n);
  r = emu_read (f, buf, n);
  interpose_put (f);
  return interpose_ret (r);
}

ssize_t
__read_chk (int fd, void *buf, size_t n, size_t buflen)
{
  (void) buflen;
  return read (fd, buf, n);
}

ssize_t
write (int fd, const void *buf, size_t n)
{
  const struct emu_engine *eng;
  struct emu_file *f;
  ssize_t r;

  interpose_init ();
  f = interpose_get (fd);
  if (!f)
    return emu_real ()->write (fd, buf, n);
  eng = f->dev->prof->engine;
  if (emu_file_gone (f))
    r = -ENODEV;
  else if (f->accmode == O_RDONLY)
    r = -EBADF;
  else if (!eng || !eng->write)
    r = -EINVAL;
  else
    r = eng->write (f, buf, n);
  interpose_put (f);
  return interpose_ret (r);
}

/* ---- mmap ---- */

/* An anonymous mapping is never the emulator's: straight to the kernel,
 * before any set-up.  ThreadSanitizer's start-up maps memory for its
 * symbolizer before it can take the emulator's pthread_once (the TSan
 * variant, tests/sanitize/tsan-run.sh). */
static void *
anonymous_mmap (void *addr, size_t len, int prot, int flags, int fd,
    off_t off)
{
#if defined(__x86_64__) && defined(__linux__)
  long ret;
  register long r10 __asm__ ("r10") = flags;
  register long r8 __asm__ ("r8") = fd;
  register long r9 __asm__ ("r9") = off;

  __asm__ volatile ("syscall":"=a" (ret)
      :"0" ((long) SYS_mmap), "D" (addr), "S" (len), "d" ((long) prot),
      "r" (r10), "r" (r8), "r" (r9)
      :"rcx", "r11", "memory");
  if (ret < 0 && ret > -4096) {
    errno = (int) -ret;
    return MAP_FAILED;
  }
  return (void *) ret;
#else
  return emu_real ()->mmap (addr, len, prot, flags, fd, off);
#endif
}

void *
mmap (void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
  const struct emu_engine *eng;
  struct emu_file *f;
  void *p;
  int i;

  if (fd < 0 && (flags & MAP_ANONYMOUS))
    return anonymous_mmap (addr, len, prot, flags, fd, off);
  interpose_init ();
  f = interpose_get (fd);
  if (!f)
    return emu_real ()->mmap (addr, len, prot, flags, fd, off);
  eng = f->dev->prof->engine;
  if (emu_file_gone (f))
    p = (void *) (intptr_t) - ENODEV;
  else if (!eng || !eng->mmap)
    p = (void *) (intptr_t) - ENODEV;
  else
    p = eng->mmap (f, addr, len, prot, flags, off);
  if ((intptr_t) p < 0 && (intptr_t) p > -4096) {
    errno = (int) -(intptr_t) p;
    interpose_put (f);
    return MAP_FAILED;
  }
  pthread_mutex_lock (&maps_lock);
  for (i = 0; i < (int) (sizeof (maps) / sizeof (maps[0])); i++)
    if (!maps[i].addr) {
      maps[i].addr = p;
      maps[i].len = len;
      maps[i].f = f;
      interpose_hold (f);       /* the mapping keeps the file alive */
      break;
    }
  pthread_mutex_unlock (&maps_lock);
  interpose_put (f);
  return p;
}

void *mmap64 (void *addr, size_t len, int prot, int flags, int fd, off_t off)
    __attribute__((alias ("mmap")));

int
munmap (void *addr, size_t len)
{
  struct emu_file *f = NULL;
  int i;

  interpose_init ();
  pthread_mutex_lock (&maps_lock);
  for (i = 0; i < (int) (sizeof (maps) / sizeof (maps[0])); i++)
    if (maps[i].addr == addr && addr) {
      f = maps[i].f;
      maps[i].addr = NULL;
      break;
    }
  pthread_mutex_unlock (&maps_lock);
  if (f) {
    const struct emu_engine *eng = f->dev->prof->engine;

    if (eng && eng->munmap)
      eng->munmap (f, addr, len);
    interpose_put (f);
  }
  return emu_real ()->munmap (addr, len);
}
