/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Unit tests of the read() path's pool of blocks (gst/paths/ivtvread.c)
 * against a fake read (fakedev.h): the block downstream released last is
 * the next one read into (the one most likely still in the CPU's cache),
 * a block cut short by a short read is not handed out again at its short
 * size, and the pool stops cleanly with blocks on its stack, with a block
 * still downstream, and again. */
#include <gst/check/gstcheck.h>
#include <string.h>
#include <unistd.h>

#include "fakedev.h"
#include "ivtvread.h"

#define BLOCK 4096

static gsize next_read;         /* bytes the next read() gives */

static gssize
full_read (void *buf, gsize len)
{
  gsize n = MIN (next_read, len);

  memset (buf, 'x', n);
  next_read = len;
  return n;
}

typedef struct
{
  GstElement *el;
  IvtvDevice dev;
  IvtvReader r;
  GstPoll *poll;
  gint pfd[2];
} PoolFixture;

static void
pool_setup (PoolFixture * f)
{
  next_read = BLOCK;
  f->el = gst_element_factory_make ("fakesrc", NULL);
  gst_object_ref_sink (f->el);
  fail_unless (pipe (f->pfd) == 0);
  fail_unless (write (f->pfd[1], "x", 1) == 1); /* always readable */
  fake_dev_init (&f->dev, f->pfd[0], NULL, full_read);
  f->poll = gst_poll_new (TRUE);
  ivtv_read_init (&f->r);
  fail_unless (ivtv_read_start (&f->r, f->el, &f->dev, f->poll, BLOCK,
          NULL));
}

static void
pool_teardown (PoolFixture * f)
{
  ivtv_read_stop (&f->r);
  gst_poll_free (f->poll);
  fake_dev_clear (&f->dev);
  close (f->pfd[0]);
  close (f->pfd[1]);
  gst_object_unref (f->el);
}

/* a buffer read, and the address of the block it was read into */
static GstBuffer *
read_block (PoolFixture * f, gconstpointer * block)
{
  GstBuffer *b = NULL;
  IvtvError *e = NULL;
  GstMapInfo map;

  fail_unless_equals_int (ivtv_read_create (&f->r, &b, &e), GST_FLOW_OK);
  fail_unless (e == NULL);
  fail_unless (gst_buffer_map (b, &map, GST_MAP_READ));
  *block = map.data;
  gst_buffer_unmap (b, &map);
  return b;
}

GST_START_TEST (test_pool_last_released_first)
{
  PoolFixture f;
  GstBuffer *a, *b, *c, *d;
  gconstpointer pa, pb, pc, pd;

  pool_setup (&f);
  a = read_block (&f, &pa);
  b = read_block (&f, &pb);
  c = read_block (&f, &pc);
  fail_unless (pa != pb && pb != pc && pa != pc);
  /* downstream lets go of a, then c: c was released last */
  gst_buffer_unref (a);
  gst_buffer_unref (c);
  c = read_block (&f, &pd);
  fail_unless (pd == pc, "read into %p, not the block released last (%p); "
      "the one released first was %p", pd, pc, pa);
  d = read_block (&f, &pd);
  fail_unless (pd == pa);
  gst_buffer_unref (b);
  gst_buffer_unref (c);
  gst_buffer_unref (d);
  /* three blocks on the stack at stop: freed, no warning */
  pool_teardown (&f);
}

GST_END_TEST;

GST_START_TEST (test_pool_short_block_not_reused_short)
{
  PoolFixture f;
  GstBuffer *a, *b;
  gconstpointer pa, pb;

  pool_setup (&f);
  next_read = BLOCK / 2;        /* short, kept in its block (not compacted) */
  a = read_block (&f, &pa);
  fail_unless_equals_int (gst_buffer_get_size (a), BLOCK / 2);
  gst_buffer_unref (a);
  b = read_block (&f, &pb);
  fail_unless_equals_int (gst_buffer_get_size (b), BLOCK);
  gst_buffer_unref (b);
  pool_teardown (&f);
}

GST_END_TEST;

GST_START_TEST (test_pool_stop_with_block_downstream)
{
  PoolFixture f;
  GstBuffer *a, *b;
  gconstpointer pa, pb;

  pool_setup (&f);
  a = read_block (&f, &pa);
  b = read_block (&f, &pb);
  gst_buffer_unref (b);         /* on the stack */
  /* a still downstream at stop: the pool stops when it comes back */
  pool_teardown (&f);
  fail_unless_equals_int (gst_buffer_get_size (a), BLOCK);
  gst_buffer_unref (a);
  /* a second start and stop on the same reader */
  pool_setup (&f);
  a = read_block (&f, &pa);
  gst_buffer_unref (a);
  pool_teardown (&f);
}

GST_END_TEST;

static Suite *
read_pool_suite (void)
{
  Suite *s = suite_create ("ivtv-read-pool");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_pool_last_released_first);
  tcase_add_test (tc, test_pool_short_block_not_reused_short);
  tcase_add_test (tc, test_pool_stop_with_block_downstream);
  return s;
}

GST_CHECK_MAIN (read_pool);
