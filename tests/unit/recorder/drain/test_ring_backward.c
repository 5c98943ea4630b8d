// SPDX-License-Identifier: GPL-2.0-only
/*
 * Backward (overwrite) rings on plain memory: the kernel writes downwards
 * from 0, so positions count down and wrap below 2^64; the window is the
 * newest records first, read once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>
#include <sys/uio.h>

#include "recorder/drain/ring.h"

#define DATA 256

struct fixture {
	struct perf_event_mmap_page ctl;
	unsigned char data[DATA];
	struct ring r;
};

/* Writes a record of size bytes, type type, at logical position pos. */
static void put(struct fixture *f, uint64_t pos, uint16_t size, uint32_t type)
{
	struct perf_event_header h = { .type = type, .misc = 0, .size = size };

	memcpy(f->data + (pos & (DATA - 1)), &h, sizeof(h));
}

static void setup_ring(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	ring__init_mem(&f->r, &f->ctl, f->data, DATA);
	f->r.backward = true;
}

static void test_backward_not_wrapped(void **state)
{
	struct fixture f;
	uint64_t pos;
	int n = 0;

	(void)state;
	setup_ring(&f);
	/* Three records written downwards from 0: newest at -96. */
	put(&f, (uint64_t)-32, 32, 9);
	put(&f, (uint64_t)-64, 32, 9);
	put(&f, (uint64_t)-96, 32, 3);
	f.ctl.data_head = (uint64_t)-96;
	assert_int_equal(ring__read_init(&f.r), 96);
	pos = f.r.start;
	while (ring__read_event(&f.r, &pos))
		n++;
	assert_int_equal(n, 3);
	/* Read once: a second init yields nothing. */
	assert_int_equal(ring__read_init(&f.r), 0);
}

static void test_backward_full_and_wrapped(void **state)
{
	struct fixture f;
	struct iovec iov[2];
	uint64_t head = (uint64_t)-1000 & ~7ULL, pos;
	int n = 0;

	(void)state;
	setup_ring(&f);
	/* A full ring of 16-byte records from head: one ring's worth. */
	for (uint64_t p = head; p - head < DATA; p += 16)
		put(&f, p, 16, 9);
	f.ctl.data_head = head;
	assert_int_equal(ring__read_init(&f.r), DATA);
	pos = f.r.start;
	while (ring__read_event(&f.r, &pos))
		n++;
	assert_int_equal(n, DATA / 16);
	assert_int_equal(ring__spans(&f.r, iov), (head & (DATA - 1)) ? 2 : 1);
	assert_int_equal(iov[0].iov_len + (ring__spans(&f.r, iov) == 2 ? iov[1].iov_len : 0), DATA);
	/* Consuming never writes the read-only control page. */
	ring__consume(&f.r);
	assert_int_equal(f.ctl.data_tail, 0);
}

static void test_backward_stops_at_unwritten(void **state)
{
	struct fixture f;

	(void)state;
	setup_ring(&f);
	put(&f, (uint64_t)-16, 16, 9);
	f.ctl.data_head = (uint64_t)-16;
	/* The zeroed header after it (at 0) ends the window. */
	assert_int_equal(ring__read_init(&f.r), 16);
	setup_ring(&f);
	assert_int_equal(ring__read_init(&f.r), 0); /* never written */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_backward_not_wrapped),
		cmocka_unit_test(test_backward_full_and_wrapped),
		cmocka_unit_test(test_backward_stops_at_unwritten),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
