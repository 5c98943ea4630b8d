// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ring reader (mmap.c) on plain memory (ring_fixture.h): the window, the
 * walk record by record, peeks and spans across the wrap, hostile headers.
 */
#include <errno.h>
#include <stdbool.h>
#include <sys/uio.h>

#include "ring_fixture.h"

static void test_read_empty(void **state)
{
	struct fixture *f = *state;
	struct iovec iov[2];
	uint64_t pos;

	f->ctl->data_tail = TAIL;
	f->ctl->data_head = TAIL;
	assert_int_equal(ring__read_init(&f->ring), 0);
	assert_int_equal(f->ring.start, TAIL);
	assert_int_equal(f->ring.end, TAIL);
	pos = f->ring.start;
	assert_null(ring__read_event(&f->ring, &pos));
	assert_int_equal(pos, TAIL);
	assert_int_equal(ring__spans(&f->ring, iov), 0);
}

static void test_read_walk(void **state)
{
	struct fixture *f = *state;
	struct stream s;
	uint64_t pos;
	int k = 0;

	std_stream(&s);
	publish(f, TAIL, &s);
	assert_int_equal(ring__read_init(&f->ring), 168);
	assert_int_equal(f->ring.start, TAIL);
	assert_int_equal(f->ring.end, TAIL + 168);

	pos = f->ring.start;
	for (;;) {
		uint64_t rec = pos;
		const struct perf_event_header *h = ring__read_event(&f->ring, &pos);

		if (!h)
			break;
		assert_true(k < s.nr);
		assert_int_equal(rec, TAIL + s.pos[k]);
		/* The header points into the mapping, no copy. */
		assert_ptr_equal(h, f->data + ((TAIL + s.pos[k]) & (DATA_SIZE - 1)));
		assert_int_equal(h->type, s.type[k]);
		assert_int_equal(h->size, s.size[k]);
		assert_int_equal(pos, rec + s.size[k]);
		k++;
	}
	assert_int_equal(k, 5);
	assert_int_equal(pos, TAIL + 168);
	/* At the end it stays NULL and pos does not move. */
	assert_null(ring__read_event(&f->ring, &pos));
	assert_int_equal(pos, TAIL + 168);
	/* Reading does not release anything. */
	assert_int_equal(f->ctl->data_tail, TAIL);
}

static void test_peek_across_wrap(void **state)
{
	struct fixture *f = *state;
	struct stream s;
	uint64_t rec3;

	std_stream(&s);
	publish(f, TAIL, &s);
	ring__read_init(&f->ring);
	rec3 = TAIL + s.pos[2];
	assert_int_equal(rec3 & (DATA_SIZE - 1), 4080);
	/* ip: the last u64 of the data area */
	assert_int_equal(ring__peek_u64(&f->ring, rec3 + 8), 0xffffffff81000000ULL);
	/* pid/tid: wrapped to offset 0 */
	assert_int_equal(ring__peek_u64(&f->ring, rec3 + 16), (101ULL << 32) | 101);
	/* time and period: offsets 8 and 16 */
	assert_int_equal(ring__peek_u64(&f->ring, rec3 + 8 + TIME_OFF), 1000);
	assert_int_equal(ring__peek_u64(&f->ring, rec3 + 32), 250000);
	/* first record's time, before the wrap */
	assert_int_equal(ring__peek_u64(&f->ring, TAIL + 8 + TIME_OFF), 3000);
	/* LOST.lost */
	assert_int_equal(ring__peek_u64(&f->ring,
					TAIL + s.pos[1] + offsetof(struct prec_lost_event, lost)),
			 17);
}

static void test_spans(void **state)
{
	struct fixture *f = *state;
	struct stream s;
	struct iovec iov[2];
	uint8_t joined[256];

	/* One record that does not wrap: one span. */
	memset(&s, 0, sizeof(s));
	add_sample(&s, 1, 2, 3, 4);
	publish(f, BASE + 1000, &s);
	ring__read_init(&f->ring);
	assert_int_equal(ring__spans(&f->ring, iov), 1);
	assert_ptr_equal(iov[0].iov_base, f->data + 1000);
	assert_int_equal(iov[0].iov_len, 40);
	assert_memory_equal(iov[0].iov_base, s.b, 40);

	/* A window that ends exactly at the end of the area: still one span. */
	publish(f, BASE + DATA_SIZE - 40, &s);
	ring__read_init(&f->ring);
	assert_int_equal(ring__spans(&f->ring, iov), 1);
	assert_ptr_equal(iov[0].iov_base, f->data + DATA_SIZE - 40);
	assert_int_equal(iov[0].iov_len, 40);

	/* The standard stream wraps: 80 bytes at the end, 88 at the start. */
	std_stream(&s);
	publish(f, TAIL, &s);
	ring__read_init(&f->ring);
	assert_int_equal(ring__spans(&f->ring, iov), 2);
	assert_ptr_equal(iov[0].iov_base, f->data + 4016);
	assert_int_equal(iov[0].iov_len, 80);
	assert_ptr_equal(iov[1].iov_base, f->data);
	assert_int_equal(iov[1].iov_len, 88);
	memcpy(joined, iov[0].iov_base, iov[0].iov_len);
	memcpy(joined + iov[0].iov_len, iov[1].iov_base, iov[1].iov_len);
	assert_memory_equal(joined, s.b, 168);
}

static void test_consume(void **state)
{
	struct fixture *f = *state;
	struct stream s;
	struct iovec iov[2];

	std_stream(&s);
	publish(f, TAIL, &s);
	assert_int_equal(ring__read_init(&f->ring), 168);
	ring__consume(&f->ring);
	assert_int_equal(f->ctl->data_tail, TAIL + 168);
	assert_int_equal(f->ring.start, TAIL + 168);
	assert_int_equal(f->ring.end, TAIL + 168);
	assert_int_equal(ring__spans(&f->ring, iov), 0);
	/* Nothing new since: empty window. */
	assert_int_equal(ring__read_init(&f->ring), 0);

	/* The next record lands after the consumed ones. */
	memset(&s, 0, sizeof(s));
	add_sample(&s, 9, 9, 9, 9);
	ring_put(f->data, TAIL + 168, s.b, s.n);
	f->ctl->data_head = TAIL + 168 + 40;
	assert_int_equal(ring__read_init(&f->ring), 40);
	assert_int_equal(f->ring.start, TAIL + 168);
	assert_int_equal(ring__spans(&f->ring, iov), 1);
	assert_ptr_equal(iov[0].iov_base, f->data + ((TAIL + 168) & (DATA_SIZE - 1)));
}

/* Headers the reader must refuse rather than loop on or run past. */
static void test_corrupt_headers(void **state)
{
	static const struct {
		uint16_t size;
		uint64_t window; /* bytes published */
	} rows[] = {
		{ 0, 48 }, /* size 0: would never advance */
		{ 4, 48 }, /* smaller than a header */
		{ 7, 48 }, /* still too small */
		{ 56, 48 }, /* runs past the window end */
		{ 0xffff, 48 }, /* far past it */
		{ 8, 4 }, /* window too short for a header */
	};
	struct fixture *f = *state;
	int failed = 0;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct perf_event_header good = { .type = PERF_RECORD_SAMPLE, .size = 8 };
		struct perf_event_header bad = { .type = PERF_RECORD_SAMPLE, .size = rows[i].size };
		const struct perf_event_header *h;
		uint64_t pos;

		/* A valid 8-byte record first, then the bad one. */
		memset(f->data, 0xee, DATA_SIZE);
		ring_put(f->data, BASE + 2000, &good, sizeof(good));
		ring_put(f->data, BASE + 2008, &bad, sizeof(bad));
		f->ctl->data_tail = BASE + 2000;
		f->ctl->data_head = BASE + 2008 + rows[i].window;
		ring__read_init(&f->ring);
		pos = f->ring.start;
		h = ring__read_event(&f->ring, &pos);
		assert_non_null(h);
		assert_int_equal(pos, BASE + 2008);
		h = ring__read_event(&f->ring, &pos);
		if (h || pos != BASE + 2008) {
			print_error("row %zu: size %u window %llu: got %p pos +%llu\n", i,
				    rows[i].size, (unsigned long long)rows[i].window, (void *)h,
				    (unsigned long long)(pos - BASE));
			failed++;
		}
	}
	assert_int_equal(failed, 0);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_read_empty, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_read_walk, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_peek_across_wrap, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_spans, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_consume, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_corrupt_headers, fixture_setup, fixture_teardown),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, NULL, NULL);
}
