/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* interpose-poll.c - waiting on a mix of emulated and real fds: poll, ppoll,
 * select, pselect and epoll_ctl/epoll_wait.  Emulated readiness comes from
 * the engine (with the time it next changes, for pacing); the real wait is
 * done on the real fds plus each emulated file's wake eventfd, with the
 * timeout cut to that time, so nothing ever busy-spins. */
#undef _FILE_OFFSET_BITS
#include "emu.h"
#include "interpose.h"

#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <time.h>

static int (*real_ppoll) (struct pollfd *, nfds_t, const struct timespec *,
    const sigset_t *);
static int (*real_select) (int, fd_set *, fd_set *, fd_set *,
    struct timeval *);
static int (*real_pselect) (int, fd_set *, fd_set *, fd_set *,
    const struct timespec *, const sigset_t *);
static int (*real_epoll_ctl) (int, int, int, struct epoll_event *);
static int (*real_epoll_wait) (int, struct epoll_event *, int, int);
static int (*real_epoll_pwait) (int, struct epoll_event *, int, int,
    const sigset_t *);

void
interpose_poll_init (void)
{
  *(void **) &real_ppoll = dlsym (RTLD_NEXT, "ppoll");
  *(void **) &real_select = dlsym (RTLD_NEXT, "select");
  *(void **) &real_pselect = dlsym (RTLD_NEXT, "pselect");
  *(void **) &real_epoll_ctl = dlsym (RTLD_NEXT, "epoll_ctl");
  *(void **) &real_epoll_wait = dlsym (RTLD_NEXT, "epoll_wait");
  *(void **) &real_epoll_pwait = dlsym (RTLD_NEXT, "epoll_pwait");
}

short
interpose_revents (struct emu_file *f, short events, int64_t *next_ns)
{
  const struct emu_engine *eng = f->dev->prof->engine;
  short rev = 0;

  if (emu_file_gone (f))
    return emu_gone_revents (f, events);
  if ((events & POLLPRI) && emu_event_pending (f))
    rev |= POLLPRI;
  if (eng && eng->poll)
    rev |= eng->poll (f, events, next_ns);
  if ((events & POLLPRI) && !(rev & POLLPRI) && emu_event_subscribed (f)) {
    int64_t t = emu_now_ns () + EMU_XEVENT_RECHECK_NS;

    if (*next_ns < 0 || t < *next_ns)
      *next_ns = t;
  }
  return rev;
}

static int
real_wait (struct pollfd *fds, nfds_t n, int64_t wait_ns,
    const sigset_t *mask)
{
  struct timespec ts, *tsp = NULL;

  if (wait_ns >= 0) {
    ts.tv_sec = wait_ns / 1000000000;
    ts.tv_nsec = wait_ns % 1000000000;
    tsp = &ts;
  }
  return real_ppoll (fds, n, tsp, mask);
}

/* timeout_ns < 0: forever */
static int
poll_common (struct pollfd *fds, nfds_t n, int64_t timeout_ns,
    const sigset_t *mask)
{
  struct emu_file *local_files[64], **files = local_files;
  struct pollfd local_copy[64], *copy = local_copy;
  int64_t deadline = -1, now;
  int n_emu = 0, ret = -1;
  nfds_t i;

  emu_real ();
  if (!interpose_any_emulated ())
    return real_wait (fds, n, timeout_ns, mask);
  if (n > 64) {
    files = calloc (n, sizeof (*files));
    copy = calloc (n, sizeof (*copy));
    if (!files || !copy) {
      free (files);
      free (copy);
      errno = ENOMEM;
      return -1;
    }
  }
  for (i = 0; i < n; i++) {
    files[i] = interpose_get (fds[i].fd);
    n_emu += files[i] != NULL;
  }
  if (!n_emu) {
    ret = real_wait (fds, n, timeout_ns, mask);
    goto out;
  }
  emu_debug ("poll on %d emulated fds", n_emu);
  if (timeout_ns >= 0)
    deadline = emu_now_ns () + timeout_ns;

  for (;;) {
    int64_t next = -1, wait_ns;
    int ready = 0, r;

    for (i = 0; i < n; i++) {
      int64_t nx = -1;

      copy[i] = fds[i];
      copy[i].revents = 0;
      if (!files[i])
        continue;
      fds[i].revents = interpose_revents (files[i], fds[i].events, &nx);
      if (fds[i].revents)
        ready++;
      if (nx >= 0 && (next < 0 || nx < next))
        next = nx;
      copy[i].fd = ready ? -1 : files[i]->wake_fd;
      copy[i].events = POLLIN;
    }
    now = emu_now_ns ();
    if (ready)
      wait_ns = 0;
    else {
      int64_t until = next;

      if (deadline >= 0 && (until < 0 || deadline < until))
        until = deadline;
      wait_ns = until < 0 ? -1 : (until > now ? until - now : 0);
    }
    if (ready)
      for (i = 0; i < n; i++)
        if (files[i])
          copy[i].fd = -1;
    r = real_wait (copy, n, wait_ns, mask);
    if (r < 0) {
      ret = -1;
      goto out;
    }
    r = 0;
    for (i = 0; i < n; i++) {
      if (files[i]) {
        if (copy[i].revents) {
          uint64_t v;

          if (emu_real ()->read (files[i]->wake_fd, &v, sizeof (v)) < 0) {
            /* drained by another waiter */
          }
        }
        continue;
      }
      fds[i].revents = copy[i].revents;
      if (fds[i].revents)
        r++;
    }
    if (ready || r) {
      /* report emulated readiness as of now */
      for (i = 0; i < n; i++)
        if (files[i]) {
          int64_t nx;

          fds[i].revents = interpose_revents (files[i], fds[i].events, &nx);
          if (fds[i].revents)
            r++;
        }
      ret = r;
      goto out;
    }
    if (deadline >= 0 && emu_now_ns () >= deadline) {
      for (i = 0; i < n; i++)
        if (files[i])
          fds[i].revents = 0;
      ret = 0;
      goto out;
    }
  }

out:
  for (i = 0; i < n; i++)
    if (files[i])
      interpose_put (files[i]);
  if (files != local_files) {
    free (files);
    free (copy);
  }
  return ret;
}

int
poll (struct pollfd *fds, nfds_t n, int timeout)
{
  return poll_common (fds, n, timeout < 0 ? -1 : (int64_t) timeout * 1000000,
      NULL);
}

int
__poll_chk (struct pollfd *fds, nfds_t n, int timeout, size_t len)
{
  (void) len;
  return poll (fds, n, timeout);
}

int
ppoll (struct pollfd *fds, nfds_t n, const struct timespec *ts,
    const sigset_t *mask)
{
  return poll_common (fds, n,
      ts ? (int64_t) ts->tv_sec * 1000000000 + ts->tv_nsec : -1, mask);
}

int
__ppoll_chk (struct pollfd *fds, nfds_t n, const struct timespec *ts,
    const sigset_t *mask, size_t len)
{
  (void) len;
  return ppoll (fds, n, ts, mask);
}

/* ---- select ---- */

static bool
sets_have_emulated (int nfds, fd_set *r, fd_set *w, fd_set *e)
{
  int fd;

  if (!interpose_any_emulated ())
    return false;
  for (fd = 0; fd < nfds && fd < FD_SETSIZE; fd++)
    if ((r && FD_ISSET (fd, r)) || (w && FD_ISSET (fd, w)) ||
        (e && FD_ISSET (fd, e))) {
      struct emu_file *f = interpose_get (fd);

      if (f) {
        interpose_put (f);
        return true;
      }
    }
  return false;
}

static int
select_common (int nfds, fd_set *r, fd_set *w, fd_set *e, int64_t timeout_ns,
    const sigset_t *mask)
{
  struct pollfd pfds[FD_SETSIZE];
  int n = 0, fd, ret, count = 0, i;

  for (fd = 0; fd < nfds && fd < FD_SETSIZE; fd++) {
    short ev = 0;

    if (r && FD_ISSET (fd, r))
      ev |= POLLIN;
    if (w && FD_ISSET (fd, w))
      ev |= POLLOUT;
    if (e && FD_ISSET (fd, e))
      ev |= POLLPRI;
    if (ev) {
      pfds[n].fd = fd;
      pfds[n].events = ev;
      pfds[n].revents = 0;
      n++;
    }
  }
  ret = poll_common (pfds, n, timeout_ns, mask);
  if (ret < 0)
    return ret;
  for (i = 0; i < n; i++) {
    if (pfds[i].revents & POLLNVAL) {
      errno = EBADF;
      return -1;
    }
  }
  if (r)
    FD_ZERO (r);
  if (w)
    FD_ZERO (w);
  if (e)
    FD_ZERO (e);
  for (i = 0; i < n; i++) {
    short rev = pfds[i].revents;

    fd = pfds[i].fd;
    if (r && (pfds[i].events & POLLIN) && (rev & (POLLIN | POLLHUP | POLLERR))) {
      FD_SET (fd, r);
      count++;
    }
    if (w && (pfds[i].events & POLLOUT) && (rev & (POLLOUT | POLLERR))) {
      FD_SET (fd, w);
      count++;
    }
    if (e && (pfds[i].events & POLLPRI) && (rev & POLLPRI)) {
      FD_SET (fd, e);
      count++;
    }
  }
  return count;
}

int
select (int nfds, fd_set *r, fd_set *w, fd_set *e, struct timeval *tv)
{
  int64_t t, start;
  int ret;

  emu_real ();
  if (!sets_have_emulated (nfds, r, w, e))
    return real_select (nfds, r, w, e, tv);
  t = tv ? (int64_t) tv->tv_sec * 1000000000 + tv->tv_usec * 1000 : -1;
  start = emu_now_ns ();
  ret = select_common (nfds, r, w, e, t, NULL);
  if (tv) {
    /* Linux select() leaves the time not slept in *tv */
    int64_t left = t - (emu_now_ns () - start);

    if (left < 0)
      left = 0;
    tv->tv_sec = left / 1000000000;
    tv->tv_usec = (left % 1000000000) / 1000;
  }
  return ret;
}

int
pselect (int nfds, fd_set *r, fd_set *w, fd_set *e, const struct timespec *ts,
    const sigset_t *mask)
{
  emu_real ();
  if (!sets_have_emulated (nfds, r, w, e))
    return real_pselect (nfds, r, w, e, ts, mask);
  return select_common (nfds, r, w, e,
      ts ? (int64_t) ts->tv_sec * 1000000000 + ts->tv_nsec : -1, mask);
}

/* ---- epoll: emulated fds registered in an epoll set are remembered here;
 * epoll_wait polls them together with the epoll fd itself ---- */

struct ep_entry
{
  int epfd, fd;
  struct epoll_event ev;
};
static struct ep_entry ep_entries[64];
static pthread_mutex_t ep_lock = PTHREAD_MUTEX_INITIALIZER;

int
epoll_ctl (int epfd, int op, int fd, struct epoll_event *ev)
{
  struct emu_file *f;
  int i, ret;

  emu_real ();
  ret = real_epoll_ctl (epfd, op, fd, ev);
  f = interpose_get (fd);
  if (!f || ret < 0) {
    if (f)
      interpose_put (f);
    return ret;
  }
  interpose_put (f);
  pthread_mutex_lock (&ep_lock);
  for (i = 0; i < 64; i++) {
    struct ep_entry *e = &ep_entries[i];

    if (op == EPOLL_CTL_ADD && e->epfd == 0 && e->fd == 0) {
      e->epfd = epfd;
      e->fd = fd;
      e->ev = *ev;
      break;
    }
    if (op != EPOLL_CTL_ADD && e->epfd == epfd && e->fd == fd) {
      if (op == EPOLL_CTL_DEL)
        memset (e, 0, sizeof (*e));
      else
        e->ev = *ev;
      break;
    }
  }
  pthread_mutex_unlock (&ep_lock);
  return ret;
}

static int
epoll_common (int epfd, struct epoll_event *out, int max, int timeout,
    const sigset_t *mask)
{
  struct pollfd pfds[65];
  struct epoll_event evs[64];
  int n = 0, i, ret, count = 0;

  pthread_mutex_lock (&ep_lock);
  for (i = 0; i < 64; i++)
    if (ep_entries[i].epfd == epfd && (ep_entries[i].fd || ep_entries[i].ev.events)) {
      struct emu_file *f = interpose_get (ep_entries[i].fd);

      if (!f)
        continue;               /* closed: the kernel dropped it too */
      interpose_put (f);
      pfds[n].fd = ep_entries[i].fd;
      pfds[n].events = ep_entries[i].ev.events & (POLLIN | POLLOUT | POLLPRI);
      pfds[n].revents = 0;
      evs[n] = ep_entries[i].ev;
      n++;
    }
  pthread_mutex_unlock (&ep_lock);
  if (!n)
    return mask ? real_epoll_pwait (epfd, out, max, timeout, mask) :
        real_epoll_wait (epfd, out, max, timeout);
  pfds[n].fd = epfd;
  pfds[n].events = POLLIN;
  pfds[n].revents = 0;
  ret = poll_common (pfds, n + 1, timeout < 0 ? -1 :
      (int64_t) timeout * 1000000, mask);
  if (ret <= 0)
    return ret;
  for (i = 0; i < n && count < max; i++)
    if (pfds[i].revents) {
      out[count] = evs[i];
      out[count].events = pfds[i].revents;
      count++;
    }
  if (pfds[n].revents && count < max) {
    ret = real_epoll_wait (epfd, out + count, max - count, 0);
    if (ret > 0)
      count += ret;
  }
  return count;
}

int
epoll_wait (int epfd, struct epoll_event *out, int max, int timeout)
{
  emu_real ();
  return epoll_common (epfd, out, max, timeout, NULL);
}

int
epoll_pwait (int epfd, struct epoll_event *out, int max, int timeout,
    const sigset_t *mask)
{
  emu_real ();
  return epoll_common (epfd, out, max, timeout, mask);
}
