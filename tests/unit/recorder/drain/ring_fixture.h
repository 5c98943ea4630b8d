/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_TESTS_RING_FIXTURE_H
#define PREC_TESTS_RING_FIXTURE_H
/*
 * Rings on plain memory for test_ring.c and test_drain.c: a fake control
 * page and a 4096-byte data area, records written the way the kernel writes
 * them (one of them wrapped around the end), and a temp dir for a file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prec/event.h"
#include "recorder/drain/ring.h"

#define DATA_SIZE 4096u
/* Positions are free-running counters; start far from 0 so masking matters. */
#define BASE (1ULL << 32)
/* sample_type IP|TID|TIME|PERIOD: TIME follows ip (8) and pid/tid (8). */
#define TIME_OFF 16

struct sample_rec {
	struct perf_event_header header;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t period;
};

struct comm_rec {
	struct perf_event_header header;
	uint32_t pid, tid;
	char comm[8];
};

/* The records as they should come out: contiguous, in ring order. */
struct stream {
	uint8_t b[1024];
	size_t n;
	uint64_t pos[16]; /* offset of each record in b */
	uint16_t size[16];
	uint32_t type[16];
	int nr;
};

struct fixture {
	struct perf_event_mmap_page *ctl;
	uint8_t *data;
	struct ring ring;
	char dir[64];
	char path[128];
};

static inline int fixture_setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->ctl = aligned_alloc(4096, 4096);
	f->data = aligned_alloc(4096, DATA_SIZE);
	if (!f->ctl || !f->data)
		return -1;
	memset(f->ctl, 0, 4096);
	/* Poison: a reader that strays outside the window sees garbage. */
	memset(f->data, 0xee, DATA_SIZE);
	ring__init_mem(&f->ring, f->ctl, f->data, DATA_SIZE);
	strcpy(f->dir, "/tmp/prec-test-ring-XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/perf.data", f->dir);
	*state = f;
	return 0;
}

static inline int fixture_teardown(void **state)
{
	struct fixture *f = *state;

	unlink(f->path);
	rmdir(f->dir);
	free(f->ctl);
	free(f->data);
	free(f);
	return 0;
}

static inline void stream_add(struct stream *s, const void *rec)
{
	const struct perf_event_header *h = rec;

	assert_true(s->n + h->size <= sizeof(s->b));
	assert_true(s->nr < 16);
	s->pos[s->nr] = s->n;
	s->size[s->nr] = h->size;
	s->type[s->nr] = h->type;
	s->nr++;
	memcpy(s->b + s->n, rec, h->size);
	s->n += h->size;
}

static inline void add_sample(struct stream *s, uint64_t ip, uint32_t tid, uint64_t time, uint64_t period)
{
	struct sample_rec r = {
		.header = { .type = PERF_RECORD_SAMPLE,
			    .misc = PERF_RECORD_MISC_USER,
			    .size = sizeof(r) },
		.ip = ip,
		.pid = tid,
		.tid = tid,
		.time = time,
		.period = period,
	};

	stream_add(s, &r);
}

static inline void add_lost(struct stream *s, uint64_t id, uint64_t lost)
{
	struct prec_lost_event r = {
		.header = { .type = PERF_RECORD_LOST, .misc = 0, .size = sizeof(r) },
		.id = id,
		.lost = lost,
	};

	stream_add(s, &r);
}

static inline void add_comm(struct stream *s, uint32_t pid, const char *comm)
{
	struct comm_rec r = {
		.header = { .type = PERF_RECORD_COMM, .misc = 0, .size = sizeof(r) },
		.pid = pid,
		.tid = pid,
	};

	strncpy(r.comm, comm, sizeof(r.comm) - 1);
	stream_add(s, &r);
}

/* Copies bytes into the data area at free-running position pos, wrapping. */
static inline void ring_put(uint8_t *data, uint64_t pos, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	for (size_t i = 0; i < len; i++)
		data[(pos + i) & (DATA_SIZE - 1)] = p[i];
}

/* Publishes s in the ring from tail: the kernel's side of the protocol. */
static inline void publish(struct fixture *f, uint64_t tail, const struct stream *s)
{
	ring_put(f->data, tail, s->b, s->n);
	f->ctl->data_tail = tail;
	__atomic_store_n(&f->ctl->data_head, tail + s->n, __ATOMIC_RELEASE);
}

/*
 * Five records from offset 4016: SAMPLE (40, 4016..4056), LOST (24, ..4080),
 * SAMPLE (40, 4080..4120: ip is the last u64 before the end, pid/tid,
 * time and period wrap to 0..24), COMM (24, 24..48), SAMPLE (40, 48..88).
 */
#define TAIL (BASE + 4016)

static inline void std_stream(struct stream *s)
{
	memset(s, 0, sizeof(*s));
	add_sample(s, 0x401000, 100, 3000, 1);
	add_lost(s, 7, 17);
	add_sample(s, 0xffffffff81000000ULL, 101, 1000, 250000);
	add_comm(s, 102, "worker");
	add_sample(s, 0x401234, 102, 2000, 4);
	assert_int_equal(s->n, 168);
}

#endif
