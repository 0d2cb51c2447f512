/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of the read() path (gst/paths/ivtvread.c) against a scripted fake
 * read (fakedev.h): short reads are pushed as they are, EINTR/EAGAIN
 * retried, EIO retried then an error (an unplug when QUERYCAP fails too),
 * ENODEV/EBUSY errors that say what happened, flushing returns at once;
 * the stall watchdog's timeout counts from when it was set
 * (gst/paths/ivtvpath.c); after a refused encoder stop (pvrusb2) the
 * drain reads what the driver holds without waiting, then EOS. */
#include <gst/check/gstcheck.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "fakedev.h"
#include "ivtvread.h"

/* ---- the read() path against a scripted fake read ---- */

static const gssize *script;    /* >0 bytes, 0 EOS, <0 -errno */
static guint script_pos;

static gssize
script_read (void *buf, gsize len)
{
  gssize r = script[script_pos++];

  if (r < 0)
    return fake_fail ((int) -r);
  if ((size_t) r > len)
    r = len;
  memset (buf, 'a' + script_pos, r);
  return r;
}

typedef struct
{
  GstElement *pipe, *el;
  IvtvDevice dev;
  IvtvReader r;
  GstPoll *poll;
  gint pfd[2];
} ReadFixture;

static void
read_setup_ioctl (ReadFixture * f, const gssize * s, guint blocksize,
    FakeIoctlFunc ioctl)
{
  script = s;
  script_pos = 0;
  f->pipe = gst_pipeline_new (NULL);
  f->el = gst_element_factory_make ("fakesrc", NULL);
  gst_bin_add (GST_BIN (f->pipe), f->el);
  fail_unless (pipe (f->pfd) == 0);
  fail_unless (write (f->pfd[1], "x", 1) == 1); /* always readable */
  fake_dev_init (&f->dev, f->pfd[0], ioctl, script_read);
  f->poll = gst_poll_new (TRUE);
  ivtv_read_init (&f->r);
  fail_unless (ivtv_read_start (&f->r, f->el, &f->dev, f->poll, blocksize,
          NULL));
}

static void
read_setup (ReadFixture * f, const gssize * s, guint blocksize)
{
  read_setup_ioctl (f, s, blocksize, NULL);
}

static gchar *
read_teardown (ReadFixture * f)
{
  GstBus *bus = gst_element_get_bus (f->pipe);
  GstMessage *m = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  gchar *msg = NULL;

  if (m) {
    GError *e = NULL;
    gst_message_parse_error (m, &e, NULL);
    msg = g_strdup (e->message);
    g_error_free (e);
    gst_message_unref (m);
  }
  gst_object_unref (bus);
  ivtv_read_stop (&f->r);
  ivtv_read_stop (&f->r);
  gst_poll_free (f->poll);
  fake_dev_clear (&f->dev);
  close (f->pfd[0]);
  close (f->pfd[1]);
  gst_object_unref (f->pipe);
  return msg;
}

/* ivtv_read_create, its error (data) posted on the element as the
 * element's create() posts it */
static GstFlowReturn
read_create (ReadFixture * f, GstBuffer ** b)
{
  IvtvError *e = NULL;
  GstFlowReturn ret = ivtv_read_create (&f->r, b, &e);

  fail_unless ((ret == GST_FLOW_ERROR) == (e != NULL),
      "an error flow without its error, or an error without the flow");
  ivtv_error_post (e, f->el);
  return ret;
}

GST_START_TEST (test_read_short_and_retry)
{
  static const gssize s[] = { 100, -EINTR, -EAGAIN, 4096, 7, 0 };
  ReadFixture f;
  GstBuffer *b;
  gchar *err;

  read_setup (&f, s, 4096);
  fail_unless_equals_int (read_create (&f, &b), GST_FLOW_OK);
  fail_unless_equals_int (gst_buffer_get_size (b), 100);        /* short: as is */
  fail_unless_equals_int (GST_BUFFER_OFFSET (b), 0);
  gst_buffer_unref (b);
  /* EINTR and EAGAIN: waited again, then the next full read */
  fail_unless_equals_int (read_create (&f, &b), GST_FLOW_OK);
  fail_unless_equals_int (gst_buffer_get_size (b), 4096);
  fail_unless_equals_int (GST_BUFFER_OFFSET (b), 100);
  fail_unless_equals_int (GST_BUFFER_OFFSET_END (b), 4196);
  gst_buffer_unref (b);
  fail_unless_equals_int (read_create (&f, &b), GST_FLOW_OK);
  fail_unless_equals_int (gst_buffer_get_size (b), 7);
  gst_buffer_unref (b);
  fail_unless_equals_int (read_create (&f, &b), GST_FLOW_EOS);
  fail_unless (b == NULL);
  fail_unless_equals_int (f.r.n_short, 2);
  err = read_teardown (&f);
  fail_unless (err == NULL, "%s", err);
}

GST_END_TEST;

GST_START_TEST (test_read_errors)
{
  static const gssize enodev[] = { -ENODEV };
  /* EIO: retried IVTV_READ_EIO_RETRIES times, then an error */
  static const gssize eio[] = { 10, -EIO, -EIO, -EIO, -EIO, -EIO, -EIO,
    -EIO, -EIO, -EIO, -EIO, -EIO
  };
  static const gssize eio_once[] = { -EIO, 20 };
  static const gssize ebusy[] = { -EBUSY };
  ReadFixture f;
  GstBuffer *b;
  gchar *err;

  read_setup (&f, enodev, 4096);
  fail_unless_equals_int (read_create (&f, &b), GST_FLOW_ERROR);
  err = read_teardown (&f);
  fail_unless (err && strstr (err, "went away"), "%s", err);
  g_free (err);

  read_setup (&f, eio, 4096);
  fail_unless_equals_int (read_create (&f, &b), GST_FLOW_OK);
  gst_buffer_unref (b);
  fail_unless_equals_int (read_create (&f, &b), GST_FLOW_ERROR);
  err = read_teardown (&f);
  fail_unless (err && strstr (err, "I/O error"), "%s", err);
  fail_unless_equals_int (script_pos, IVTV_READ_EIO_RETRIES + 2);
  g_free (err);

  read_setup (&f, eio_once, 4096);
  fail_unless_equals_int (read_create (&f, &b), GST_FLOW_OK);
  fail_unless_equals_int (gst_buffer_get_size (b), 20);
  fail_unless_equals_int (GST_BUFFER_OFFSET (b), 0);
  gst_buffer_unref (b);
  err = read_teardown (&f);
  fail_unless (err == NULL, "%s", err);

  read_setup (&f, ebusy, 4096);
  fail_unless_equals_int (read_create (&f, &b), GST_FLOW_ERROR);
  err = read_teardown (&f);
  fail_unless (err && strstr (err, "busy"), "%s", err);
  g_free (err);
}

GST_END_TEST;

/* pvrusb2 after an unplug, its node held open: read() EIO, and before
 * Linux 4.19 every ioctl EFAULT (pvrusb2-v4l2.c pvr2_v4l2_ioctl,
 * !pvr2_hdw_dev_ok; a later kernel's new open() fails instead, which the
 * fault matrix's unplug-eio case checks under the emulator) */
static int
unplugged_pvrusb2_ioctl (unsigned long request, void *arg)
{
  (void) request;
  (void) arg;
  return fake_fail (EFAULT);
}

GST_START_TEST (test_read_eio_unplugged)
{
  /* one EIO is enough: more would be retries, not the unplug named */
  static const gssize s[] = { 10, -EIO, 0 };
  ReadFixture f;
  GstBuffer *b;
  gchar *err;

  read_setup_ioctl (&f, s, 4096, unplugged_pvrusb2_ioctl);
  fail_unless_equals_int (read_create (&f, &b), GST_FLOW_OK);
  gst_buffer_unref (b);
  fail_unless_equals_int (read_create (&f, &b), GST_FLOW_ERROR);
  fail_unless_equals_int (script_pos, 2);
  err = read_teardown (&f);
  fail_unless (err && strstr (err, "went away"), "%s", err);
  g_free (err);

  /* reconnect=true: the capture session's "lost", no error */
  read_setup_ioctl (&f, s, 4096, unplugged_pvrusb2_ioctl);
  f.r.reconnect = TRUE;
  fail_unless_equals_int (read_create (&f, &b), GST_FLOW_OK);
  gst_buffer_unref (b);
  fail_unless_equals_int (read_create (&f, &b), IVTV_FLOW_DEVICE_LOST);
  err = read_teardown (&f);
  fail_unless (err == NULL, "%s", err);
}

GST_END_TEST;

/* pvrusb2 unplugged before its first data: poll() never ready, no read()
 * at all (pvrusb2-ioread.c pvr2_ioread_avail waits for half its buffers);
 * the idle check finds the device gone (here QUERYCAP EFAULT) within
 * about a second: the one 'went away' error, no read */
GST_START_TEST (test_read_idle_unplugged)
{
  static const gssize s[] = { 0 };
  ReadFixture f;
  GstBuffer *b;
  gchar *err, c;

  read_setup_ioctl (&f, s, 4096, unplugged_pvrusb2_ioctl);
  fail_unless (read (f.pfd[0], &c, 1) == 1);    /* never readable now */
  fail_unless_equals_int (read_create (&f, &b), GST_FLOW_ERROR);
  fail_unless_equals_int (script_pos, 0);
  err = read_teardown (&f);
  fail_unless (err && strstr (err, "went away"), "%s", err);
  g_free (err);
}

GST_END_TEST;

GST_START_TEST (test_read_flushing)
{
  static const gssize s[] = { 10 };
  ReadFixture f;
  GstBuffer *b;

  read_setup (&f, s, 4096);
  gst_poll_set_flushing (f.poll, TRUE);
  fail_unless_equals_int (read_create (&f, &b), GST_FLOW_FLUSHING);
  fail_unless_equals_int (script_pos, 0);       /* no read happened */
  gst_poll_set_flushing (f.poll, FALSE);
  fail_unless_equals_int (read_create (&f, &b), GST_FLOW_OK);
  gst_buffer_unref (b);
  g_free (read_teardown (&f));
}

GST_END_TEST;

/* ---- EOS on a card without an encoder stop (pvrusb2): the held drain ---- */

static IvtvStopResult
stop_refused (gpointer data)
{
  (void) data;
  return IVTV_STOP_REFUSED;     /* ENOTTY: pvrusb2-v4l2.c pvr2_ioctl_ops */
}

/* After the refused stop, drain(): read what the driver holds, without
 * waiting, and EOS when a read comes back short (pvrusb2-ioread.c
 * pvr2_ioread_read took every ready buffer) or EAGAIN; the stream still
 * runs, so nothing after that is read. */
static void
held_drain (ReadFixture * f, gint64 max_us)
{
  fail_unless_equals_int (ivtv_read_stop_encoder (&f->r, stop_refused, NULL),
      IVTV_STOP_REFUSED);
  ivtv_read_drain (&f->r, max_us);
}

static void
expect_read (ReadFixture * f, gsize size)
{
  GstBuffer *b = NULL;

  fail_unless_equals_int (read_create (f, &b), GST_FLOW_OK);
  fail_unless_equals_int (gst_buffer_get_size (b), size);
  gst_buffer_unref (b);
}

GST_START_TEST (test_read_held_drain_until_short)
{
  static const gssize s[] = { 10, 4096, 4096, 100, 4096 };
  ReadFixture f;
  GstBuffer *b = NULL;

  read_setup (&f, s, 4096);
  f.r.nonblocking = TRUE;       /* O_NONBLOCK: read without a poll */
  expect_read (&f, 10);
  held_drain (&f, 10 * G_USEC_PER_SEC);
  expect_read (&f, 4096);
  expect_read (&f, 4096);
  expect_read (&f, 100);        /* short: all it held */
  fail_unless_equals_int (read_create (&f, &b), GST_FLOW_EOS);
  fail_unless_equals_int (script_pos, 4);       /* the next never read */
  fail_unless (read_teardown (&f) == NULL);
}

GST_END_TEST;

GST_START_TEST (test_read_held_drain_until_eagain)
{
  static const gssize s[] = { 4096, -EAGAIN, 4096 };
  ReadFixture f;
  GstBuffer *b = NULL;

  read_setup (&f, s, 4096);
  f.r.nonblocking = TRUE;
  held_drain (&f, 10 * G_USEC_PER_SEC);
  expect_read (&f, 4096);
  fail_unless_equals_int (read_create (&f, &b), GST_FLOW_EOS);
  fail_unless_equals_int (script_pos, 2);
  fail_unless (read_teardown (&f) == NULL);
}

GST_END_TEST;

/* The deadline passed before the reader got there: one read is still made
 * (it cannot wait), then EOS. */
GST_START_TEST (test_read_held_drain_one_read_past_deadline)
{
  static const gssize s[] = { 4096, 4096 };
  ReadFixture f;
  GstBuffer *b = NULL;

  read_setup (&f, s, 4096);
  f.r.nonblocking = TRUE;
  held_drain (&f, 0);
  expect_read (&f, 4096);
  fail_unless_equals_int (read_create (&f, &b), GST_FLOW_EOS);
  fail_unless_equals_int (script_pos, 1);
  fail_unless (read_teardown (&f) == NULL);
}

GST_END_TEST;

/* A blocking fd is asked poll() with no timeout first: nothing ready is
 * EOS, not a read() that would wait for the running stream's next data. */
GST_START_TEST (test_read_held_drain_blocking_fd_polls)
{
  static const gssize s[] = { 10, 4096 };
  ReadFixture f;
  GstBuffer *b = NULL;
  gchar c;

  read_setup (&f, s, 4096);
  fail_if (f.r.nonblocking);    /* the fixture's pipe */
  expect_read (&f, 10);
  fail_unless (read (f.pfd[0], &c, 1) == 1);    /* not readable any more */
  held_drain (&f, 10 * G_USEC_PER_SEC);
  fail_unless_equals_int (read_create (&f, &b), GST_FLOW_EOS);
  fail_unless_equals_int (script_pos, 1);       /* no read() */
  fail_unless (read_teardown (&f) == NULL);
}

GST_END_TEST;

/* A wait that began 20 s ago, its timeout (5 s) set again just now (an
 * encoder resumed after a pause, ivtvcapturepause.c): no stall yet; 20 s
 * counted from the wait's start would be the error (2 x 5 s). */
GST_START_TEST (test_stall_timeout_counts_from_set)
{
  IvtvStall stall;
  IvtvDevice dev;
  IvtvError *error = NULL;
  gint64 since = g_get_monotonic_time () - 20 * G_USEC_PER_SEC;

  memset (&dev, 0, sizeof (dev));
  dev.path = (gchar *) "/dev/video0";
  ivtv_stall_init (&stall, 0);
  fail_unless_equals_int (ivtv_stall_check (&stall, NULL, &dev, since,
          &error), GST_FLOW_OK);
  ivtv_stall_set_timeout (&stall, 5);
  fail_unless_equals_int (ivtv_stall_check (&stall, NULL, &dev, since,
          &error), GST_FLOW_OK);
  fail_unless (error == NULL);
  fail_if (stall.warned, "warned of a stall at once");
  /* a timeout that was not set again counts from the wait's start */
  ivtv_stall_init (&stall, 5);
  fail_unless_equals_int (ivtv_stall_check (&stall, NULL, &dev, since,
          &error), GST_FLOW_ERROR);
  ivtv_error_free (error);
}

GST_END_TEST;

static Suite *
read_suite (void)
{
  Suite *s = suite_create ("ivtv-read");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_read_short_and_retry);
  tcase_add_test (tc, test_read_errors);
  tcase_add_test (tc, test_read_eio_unplugged);
  tcase_add_test (tc, test_read_idle_unplugged);
  tcase_add_test (tc, test_read_flushing);
  tcase_add_test (tc, test_stall_timeout_counts_from_set);
  tcase_add_test (tc, test_read_held_drain_until_short);
  tcase_add_test (tc, test_read_held_drain_until_eagain);
  tcase_add_test (tc, test_read_held_drain_one_read_past_deadline);
  tcase_add_test (tc, test_read_held_drain_blocking_fd_polls);
  return s;
}

GST_CHECK_MAIN (read);
