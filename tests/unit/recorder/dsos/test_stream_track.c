// SPDX-License-Identifier: GPL-2.0-only
/*
 * The --threads pieces that need no rings: a drain stream's inbound
 * side-band queue (dso_inbox: records come out whole and in push order, an
 * empty inbox costs nothing, short records are refused, the size cap drops
 * and counts, pushes from several threads while the owner takes lose and
 * tear nothing) and the merge of the streams' hit sets (dso_track__merge).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "recorder/dsos/dso_track.h"
#include "prec/writer.h"
#include "recorder/dsos/dso_inbox.h"

struct rec {
	struct perf_event_header h;
	uint32_t who, seq;
	uint8_t pad[48];
};

static struct rec mkrec(uint32_t who, uint32_t seq, uint16_t size)
{
	struct rec r;

	memset(&r, 0, sizeof(r));
	r.h.type = PERF_RECORD_MMAP2;
	r.h.size = size;
	r.who = who;
	r.seq = seq;
	memset(r.pad, (int)(seq & 0xff), sizeof(r.pad));
	return r;
}

struct seen {
	uint64_t n;
	uint32_t next[8]; /* per pusher: the seq expected next */
	bool bad;
};

static void collect(void *arg, const void *p, size_t len)
{
	struct seen *s = arg;
	struct rec r;

	memcpy(&r, p, len < sizeof(r) ? len : sizeof(r));
	if (len != r.h.size || r.who >= 8 || r.seq != s->next[r.who])
		s->bad = true;
	if (len > 16)
		for (size_t i = 0; i < len - 16; i++)
			if (r.pad[i] != (uint8_t)(r.seq & 0xff))
				s->bad = true;
	if (r.who < 8)
		s->next[r.who] = r.seq + 1;
	s->n++;
}

static void test_order_and_empty(void **state)
{
	struct dso_inbox in;
	struct seen s = { 0 };
	struct rec r;

	(void)state;
	assert_int_equal(dso_inbox__init(&in), 0);
	assert_int_equal(dso_inbox__take(&in, collect, &s), 0);
	for (uint32_t i = 0; i < 1000; i++) {
		r = mkrec(0, i, (uint16_t)(16 + 8 * (i % 7)));
		assert_int_equal(dso_inbox__push(&in, &r), 0);
	}
	assert_int_equal(dso_inbox__take(&in, collect, &s), 1000);
	assert_false(s.bad);
	/* The buffers swap: a second round reuses them. */
	r = mkrec(0, 1000, 64);
	assert_int_equal(dso_inbox__push(&in, &r), 0);
	assert_int_equal(dso_inbox__take(&in, collect, &s), 1);
	assert_int_equal(dso_inbox__take(&in, collect, &s), 0);
	assert_false(s.bad);
	r = mkrec(0, 0, 4); /* shorter than its header */
	assert_int_equal(dso_inbox__push(&in, &r), -EINVAL);
	dso_inbox__exit(&in);
	dso_inbox__exit(&in); /* twice: zeroed */
}

static void test_cap(void **state)
{
	struct dso_inbox in;
	struct seen s = { 0 };
	struct rec r = mkrec(0, 0, 64);
	uint64_t ok = 0;
	int ret;

	(void)state;
	assert_int_equal(dso_inbox__init(&in), 0);
	while (!(ret = dso_inbox__push(&in, &r))) {
		ok++;
		r.seq++;
		memset(r.pad, (int)(r.seq & 0xff), sizeof(r.pad));
	}
	assert_int_equal(ret, -ENOSPC);
	assert_int_equal(ok, DSO_INBOX_MAX / 64);
	assert_int_equal(atomic_load(&in.dropped), 1);
	assert_int_equal(dso_inbox__take(&in, collect, &s), ok);
	assert_false(s.bad);
	dso_inbox__exit(&in);
}

#define PUSHERS 4
#define PER_PUSHER 20000

struct pusher {
	struct dso_inbox *in;
	uint32_t who;
};

static void *push_main(void *arg)
{
	struct pusher *p = arg;

	for (uint32_t i = 0; i < PER_PUSHER; i++) {
		struct rec r = mkrec(p->who, i, (uint16_t)(16 + 8 * (i % 7)));

		while (dso_inbox__push(p->in, &r))
			;
	}
	return NULL;
}

static void test_threads(void **state)
{
	struct dso_inbox in;
	struct seen s = { 0 };
	struct pusher p[PUSHERS];
	pthread_t t[PUSHERS];

	(void)state;
	assert_int_equal(dso_inbox__init(&in), 0);
	for (uint32_t i = 0; i < PUSHERS; i++) {
		p[i] = (struct pusher){ &in, i };
		assert_int_equal(pthread_create(&t[i], NULL, push_main, &p[i]), 0);
	}
	/* The owner takes while they push, as a stream between passes. */
	while (s.n < (uint64_t)PUSHERS * PER_PUSHER / 2)
		dso_inbox__take(&in, collect, &s);
	for (int i = 0; i < PUSHERS; i++)
		pthread_join(t[i], NULL);
	dso_inbox__take(&in, collect, &s);
	assert_int_equal(s.n, (uint64_t)PUSHERS * PER_PUSHER);
	assert_false(s.bad);
	for (int i = 0; i < PUSHERS; i++)
		assert_int_equal(s.next[i], PER_PUSHER);
	dso_inbox__exit(&in);
}

/* An MMAP2 of name at [start, start + 4096) in pid, carrying build-id byte
 * id (so no file is read). */
static void mmap2(struct dso_track *t, uint32_t pid, uint64_t start, const char *name, uint8_t id)
{
	uint8_t r[128] = { 0 };
	struct perf_event_header h = { PERF_RECORD_MMAP2,
				       PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID,
				       (uint16_t)(72 + ((strlen(name) + 8) & ~7u)) };
	uint64_t len = 4096;

	memcpy(r, &h, sizeof(h));
	memcpy(r + 8, &pid, 4);
	memcpy(r + 12, &pid, 4);
	memcpy(r + 16, &start, 8);
	memcpy(r + 24, &len, 8);
	r[40] = 20;
	memset(r + 44, id, 20);
	strcpy((char *)r + 72, name);
	dso_track__event(t, r, h.size);
}

/* Lists name in the build-ids finish returned, with id? */
static bool listed(const struct writer_buildid *b, uint32_t nr, const char *name, uint8_t id)
{
	for (uint32_t i = 0; i < nr; i++)
		if (!strcmp(b[i].filename, name))
			return b[i].id[0] == id && b[i].size == 20;
	return false;
}

static void test_merge(void **state)
{
	struct dso_track_layout l;
	struct dso_track *file, *s0, *s1;
	const struct writer_buildid *b;
	uint32_t nr;

	(void)state;
	assert_int_equal(dso_track__layout(PERF_SAMPLE_IP | PERF_SAMPLE_TID, true, &l), 0);
	assert_int_equal(dso_track__new(&file, &l), 0);
	assert_int_equal(dso_track__new(&s0, &l), 0);
	assert_int_equal(dso_track__new(&s1, &l), 0);
	/* The synthesized side-band: every tracker has /a and /b of pid 10. */
	mmap2(file, 10, 0x10000, "/a", 0xa);
	mmap2(file, 10, 0x20000, "/b", 0xb);
	mmap2(s0, 10, 0x10000, "/a", 0xa);
	mmap2(s0, 10, 0x20000, "/b", 0xb);
	mmap2(s1, 10, 0x10000, "/a", 0xa);
	mmap2(s1, 10, 0x20000, "/b", 0xb);
	/* Stream 0 hits /a; stream 1 maps /c (the file never saw it) and a
	 * sample of stream 0 waits for it (its map came through the inbox
	 * only at the end). */
	dso_track__sample(s0, PERF_RECORD_MISC_USER, 10, 0x10010);
	dso_track__sample(s0, PERF_RECORD_MISC_USER, 11, 0x30010);
	mmap2(s1, 11, 0x30000, "/c", 0xc);
	mmap2(s0, 11, 0x30000, "/c", 0xc);
	assert_int_equal(dso_track__merge(file, s0), 0);
	assert_int_equal(dso_track__merge(file, s1), 0);
	assert_int_equal(dso_track__finish(file, &b, &nr), 0);
	assert_int_equal(nr, 2);
	assert_true(listed(b, nr, "/a", 0xa));
	assert_true(listed(b, nr, "/c", 0xc));
	assert_false(listed(b, nr, "/b", 0xb)); /* mapped, never hit */
	dso_track__delete(s0);
	dso_track__delete(s1);
	dso_track__delete(file);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_and_empty),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
