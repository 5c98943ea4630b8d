// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ring reader (mmap.c) and the drain loop (drain.c) on plain memory: a
 * fake control page and a 4096-byte data area holding records the way the
 * kernel writes them, one of them wrapped around the end. The drain writes
 * through a real writer to a temp file, which is read back here byte by byte.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/event.h"
#include "prec/mmap.h"
#include "prec/writer.h"
#include "recorder/drain.h"

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

static int fixture_setup(void **state)
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

static int fixture_teardown(void **state)
{
	struct fixture *f = *state;

	unlink(f->path);
	rmdir(f->dir);
	free(f->ctl);
	free(f->data);
	free(f);
	return 0;
}

static void stream_add(struct stream *s, const void *rec)
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

static void add_sample(struct stream *s, uint64_t ip, uint32_t tid, uint64_t time, uint64_t period)
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

static void add_lost(struct stream *s, uint64_t id, uint64_t lost)
{
	struct prec_lost_event r = {
		.header = { .type = PERF_RECORD_LOST, .misc = 0, .size = sizeof(r) },
		.id = id,
		.lost = lost,
	};

	stream_add(s, &r);
}

static void add_comm(struct stream *s, uint32_t pid, const char *comm)
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
static void ring_put(uint8_t *data, uint64_t pos, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	for (size_t i = 0; i < len; i++)
		data[(pos + i) & (DATA_SIZE - 1)] = p[i];
}

/* Publishes s in the ring from tail: the kernel's side of the protocol. */
static void publish(struct fixture *f, uint64_t tail, const struct stream *s)
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

static void std_stream(struct stream *s)
{
	memset(s, 0, sizeof(*s));
	add_sample(s, 0x401000, 100, 3000, 1);
	add_lost(s, 7, 17);
	add_sample(s, 0xffffffff81000000ULL, 101, 1000, 250000);
	add_comm(s, 102, "worker");
	add_sample(s, 0x401234, 102, 2000, 4);
	assert_int_equal(s->n, 168);
}

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

/* ---- the drain, with a real writer ---- */

static const uint64_t fake_ids[1] = { 42 };
static struct perf_event_attr fake_attr;
static struct writer_event fake_event;

static struct writer *open_writer(struct fixture *f, uint64_t *data_off)
{
	struct writer *w = NULL;

	memset(&fake_attr, 0, sizeof(fake_attr));
	fake_attr.type = PERF_TYPE_SOFTWARE;
	fake_attr.config = PERF_COUNT_SW_CPU_CLOCK;
	fake_attr.size = sizeof(fake_attr);
	fake_attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				PERF_SAMPLE_PERIOD;
	fake_attr.sample_id_all = 1;
	fake_event.attr = &fake_attr;
	fake_event.name = "cpu-clock";
	fake_event.ids = fake_ids;
	fake_event.nr_ids = 1;
	assert_int_equal(writer__open(&w, f->path), 0);
	assert_int_equal(writer__begin(w, &fake_event, 1), 0);
	assert_int_equal(writer__data_size(w), 0);
	*data_off = writer__file_size(w);
	assert_true(*data_off > 0);
	return w;
}

static void read_file(const char *path, uint64_t off, void *buf, size_t len)
{
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, buf, len, (off_t)off), (ssize_t)len);
	close(fd);
}

static uint64_t file_size(const char *path)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return (uint64_t)st.st_size;
}

static void assert_finished_round(const uint8_t *p)
{
	struct perf_event_header h;

	memcpy(&h, p, sizeof(h));
	assert_int_equal(h.type, PERF_RECORD_FINISHED_ROUND);
	assert_int_equal(h.misc, 0);
	assert_int_equal(h.size, 8);
}

static void test_drain_pass(void **state)
{
	struct fixture *f = *state;
	struct stream s, s2;
	struct drain d;
	uint64_t data_off;
	uint8_t got[512];
	struct writer *w = open_writer(f, &data_off);

	std_stream(&s);
	publish(f, TAIL, &s);
	assert_int_equal(drain__init(&d, &f->ring, 1, w, TIME_OFF), 0);
	assert_int_equal(drain__pass(&d), 168);
	assert_int_equal(d.stats.samples, 3);
	assert_int_equal(d.stats.lost, 17);
	assert_int_equal(d.stats.lost_records, 1);
	assert_int_equal(d.stats.first_time, 1000);
	assert_int_equal(d.stats.last_time, 3000);
	assert_int_equal(d.stats.bytes, 168);
	assert_int_equal(d.stats.wakeups, 0);
	/* window + FINISHED_ROUND, already in the file (writev is unbuffered) */
	assert_int_equal(writer__data_size(w), 168 + 8);
	assert_int_equal(file_size(f->path), data_off + 176);
	/* The window went back to the kernel. */
	assert_int_equal(f->ctl->data_tail, TAIL + 168);

	read_file(f->path, data_off, got, 176);
	assert_memory_equal(got, s.b, 168); /* unwrapped, contiguous */
	assert_finished_round(got + 168);

	/* Nothing new: nothing written, not even a FINISHED_ROUND. */
	assert_int_equal(drain__pass(&d), 0);
	assert_int_equal(writer__data_size(w), 176);
	assert_int_equal(file_size(f->path), data_off + 176);
	assert_int_equal(d.stats.samples, 3);
	assert_int_equal(d.stats.bytes, 168);

	/* More arrives: one sample with an earlier time and a LOST. */
	memset(&s2, 0, sizeof(s2));
	add_sample(&s2, 0x402000, 100, 500, 1);
	add_lost(&s2, 7, 3);
	ring_put(f->data, TAIL + 168, s2.b, s2.n);
	f->ctl->data_head = TAIL + 168 + s2.n;
	assert_int_equal(drain__pass(&d), 64);
	assert_int_equal(d.stats.samples, 4);
	assert_int_equal(d.stats.lost, 20);
	assert_int_equal(d.stats.lost_records, 2);
	assert_int_equal(d.stats.first_time, 500);
	assert_int_equal(d.stats.last_time, 3000);
	assert_int_equal(d.stats.bytes, 168 + 64);
	assert_int_equal(writer__data_size(w), 176 + 72);
	read_file(f->path, data_off + 176, got, 72);
	assert_memory_equal(got, s2.b, 64);
	assert_finished_round(got + 64);
	assert_int_equal(f->ctl->data_tail, TAIL + 168 + 64);

	drain__exit(&d);
	assert_null(d.iov);
	assert_null(d.pending);
	writer__abort(w);
	assert_int_equal(access(f->path, F_OK), -1);
}

/* Without TIME in the samples, counting still works and no time is made up. */
static void test_drain_no_time(void **state)
{
	struct fixture *f = *state;
	struct stream s;
	struct drain d;
	uint64_t data_off;
	struct writer *w = open_writer(f, &data_off);

	std_stream(&s);
	publish(f, TAIL, &s);
	assert_int_equal(drain__init(&d, &f->ring, 1, w, -1), 0);
	assert_int_equal(drain__pass(&d), 168);
	assert_int_equal(d.stats.samples, 3);
	assert_int_equal(d.stats.lost, 17);
	assert_int_equal(d.stats.first_time, 0);
	assert_int_equal(d.stats.last_time, 0);
	drain__exit(&d);
	writer__abort(w);
}

/*
 * Two rings in one pass: ring 0's span, ring 1's two spans, then a single
 * FINISHED_ROUND; an empty third ring adds nothing.
 */
/* batch: drain's batch_bytes; 1 writes (and releases) every ring on its
 * own, and the file must read the same. */
static void several_rings(struct fixture *f, uint64_t batch)
{
	struct perf_event_mmap_page *ctl[2];
	uint8_t *data[2];
	struct ring rings[3];
	struct stream s0, s1;
	struct drain d;
	uint64_t data_off;
	uint8_t got[512];
	struct writer *w = open_writer(f, &data_off);

	for (int i = 0; i < 2; i++) {
		ctl[i] = aligned_alloc(4096, 4096);
		data[i] = aligned_alloc(4096, DATA_SIZE);
		assert_non_null(ctl[i]);
		assert_non_null(data[i]);
		memset(ctl[i], 0, 4096);
		memset(data[i], 0xee, DATA_SIZE);
		ring__init_mem(&rings[i + 1], ctl[i], data[i], DATA_SIZE);
	}
	ring__init_mem(&rings[0], f->ctl, f->data, DATA_SIZE);

	memset(&s0, 0, sizeof(s0));
	add_sample(&s0, 1, 1, 10, 1);
	add_sample(&s0, 2, 1, 20, 1);
	ring_put(f->data, 64, s0.b, s0.n);
	f->ctl->data_tail = 64;
	f->ctl->data_head = 64 + s0.n;

	std_stream(&s1);
	ring_put(data[0], TAIL, s1.b, s1.n);
	ctl[0]->data_tail = TAIL;
	ctl[0]->data_head = TAIL + s1.n;
	/* rings[2] (ctl[1]) stays empty */

	assert_int_equal(drain__init(&d, rings, 3, w, TIME_OFF), 0);
	if (batch)
		d.batch_bytes = batch;
	assert_int_equal(drain__pass(&d), 80 + 168);
	assert_int_equal(d.stats.samples, 5);
	assert_int_equal(d.stats.first_time, 10);
	assert_int_equal(d.stats.last_time, 3000);
	assert_int_equal(writer__data_size(w), 80 + 168 + 8);
	read_file(f->path, data_off, got, 80 + 168 + 8);
	assert_memory_equal(got, s0.b, 80);
	assert_memory_equal(got + 80, s1.b, 168);
	assert_finished_round(got + 248);
	assert_int_equal(f->ctl->data_tail, 64 + 80);
	assert_int_equal(ctl[0]->data_tail, TAIL + 168);
	assert_int_equal(ctl[1]->data_tail, 0);

	drain__exit(&d);
	writer__abort(w);
	for (int i = 0; i < 2; i++) {
		free(ctl[i]);
		free(data[i]);
	}
}

static void test_drain_several_rings(void **state)
{
	several_rings(*state, 0);
}

static void test_drain_ring_by_ring(void **state)
{
	several_rings(*state, 1);
}

/* drain__run then drain__tail: stop() says yes at once, yet what arrived
 * meanwhile is drained by the tail. */
struct late_producer {
	struct fixture *f;
	struct stream s;
	int calls;
};

static bool stop_after_producing(void *arg)
{
	struct late_producer *p = arg;

	if (p->calls++ == 0) {
		ring_put(p->f->data, TAIL + 168, p->s.b, p->s.n);
		__atomic_store_n(&p->f->ctl->data_head, TAIL + 168 + p->s.n, __ATOMIC_RELEASE);
	}
	return true;
}

static void test_drain_run_final_drain(void **state)
{
	struct fixture *f = *state;
	struct late_producer p = { .f = f };
	struct stream s;
	struct drain d;
	uint64_t data_off;
	uint8_t got[512];
	sigset_t mask;
	struct writer *w = open_writer(f, &data_off);

	sigemptyset(&mask);
	std_stream(&s);
	publish(f, TAIL, &s);
	add_sample(&p.s, 0x403000, 5, 4000, 1);
	assert_int_equal(drain__init(&d, &f->ring, 1, w, TIME_OFF), 0);
	assert_int_equal(drain__run(&d, NULL, 0, false, stop_after_producing, &p, &mask), 0);
	assert_int_equal(p.calls, 1);
	assert_int_equal(d.stats.samples, 3);
	/* One pass with data, then an empty one ends the tail. */
	assert_int_equal(drain__tail(&d, NULL, NULL), 1);
	assert_int_equal(d.stats.samples, 4);
	assert_int_equal(d.stats.last_time, 4000);
	assert_int_equal(d.stats.bytes, 168 + 40);
	/* Two passes that wrote data: two FINISHED_ROUNDs. */
	assert_int_equal(writer__data_size(w), 168 + 8 + 40 + 8);
	read_file(f->path, data_off, got, 224);
	assert_memory_equal(got, s.b, 168);
	assert_finished_round(got + 168);
	assert_memory_equal(got + 176, p.s.b, 40);
	assert_finished_round(got + 216);
	assert_int_equal(f->ctl->data_tail, TAIL + 208);
	drain__exit(&d);
	writer__abort(w);
}

/*
 * A producer that never stops (events still enabled, system-wide sampling
 * of the drain itself): the tail still ends, after DRAIN_TAIL_PASSES; and a
 * second signal (give_up) ends it before the next pass.
 */
struct endless {
	struct fixture *f;
	struct stream s;
	uint64_t head;
	int calls, stop_at;
};

static bool produce_every_pass(void *arg)
{
	struct endless *e = arg;

	if (e->stop_at && e->calls == e->stop_at)
		return true;
	e->calls++;
	ring_put(e->f->data, e->head, e->s.b, e->s.n);
	e->head += e->s.n;
	__atomic_store_n(&e->f->ctl->data_head, e->head, __ATOMIC_RELEASE);
	return false;
}

static void test_drain_tail_bounded(void **state)
{
	struct fixture *f = *state;
	struct endless e = { .f = f, .head = TAIL };
	struct drain d;
	uint64_t data_off;
	struct writer *w = open_writer(f, &data_off);

	add_sample(&e.s, 0x403000, 5, 4000, 1);
	f->ctl->data_tail = TAIL;
	__atomic_store_n(&f->ctl->data_head, TAIL, __ATOMIC_RELEASE);
	assert_int_equal(drain__init(&d, &f->ring, 1, w, TIME_OFF), 0);
	assert_int_equal(drain__tail(&d, produce_every_pass, &e), DRAIN_TAIL_PASSES);
	assert_int_equal(e.calls, DRAIN_TAIL_PASSES);
	assert_int_equal(d.stats.samples, DRAIN_TAIL_PASSES);

	/* give_up true before the third pass: two passes, then out. */
	e.calls = 0;
	e.stop_at = 2;
	assert_int_equal(drain__tail(&d, produce_every_pass, &e), 2);
	assert_int_equal(d.stats.samples, DRAIN_TAIL_PASSES + 2);

	/* --max-size's no_tail: nothing at all. */
	e.calls = 0;
	e.stop_at = 0;
	d.no_tail = true;
	assert_int_equal(drain__tail(&d, produce_every_pass, &e), 0);
	assert_int_equal(e.calls, 0);
	drain__exit(&d);
	writer__abort(w);
}

/*
 * Saturation: every pass finds data (the producer refills the ring each
 * time stop() is asked). A signal that came meanwhile, blocked outside the
 * loop's ppoll as prec blocks them, must still be seen: the loop lets it in
 * between busy passes. It used to spin until a pass came back empty.
 */
static volatile sig_atomic_t got_usr1;
static int asked;

static void on_usr1(int sig)
{
	(void)sig;
	got_usr1 = 1;
}

static bool stop_on_usr1(void *arg)
{
	struct endless *e = arg;

	if (++asked > 1000)
		return true; /* the signal was never let in: fail below, not hang */
	if (asked == 3)
		raise(SIGUSR1); /* pending: SIGUSR1 is blocked here */
	produce_every_pass(e);
	return got_usr1;
}

static void test_drain_run_busy_sees_signals(void **state)
{
	struct fixture *f = *state;
	struct endless e = { .f = f, .head = TAIL };
	struct sigaction sa = { .sa_handler = on_usr1 };
	sigset_t block, orig, open_mask;
	struct drain d;
	uint64_t data_off;
	struct writer *w = open_writer(f, &data_off);

	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, &orig);
	sigemptyset(&open_mask);
	got_usr1 = 0;
	asked = 0;

	add_sample(&e.s, 0x403000, 5, 4000, 1);
	f->ctl->data_tail = TAIL;
	__atomic_store_n(&f->ctl->data_head, TAIL, __ATOMIC_RELEASE);
	produce_every_pass(&e);
	assert_int_equal(drain__init(&d, &f->ring, 1, w, TIME_OFF), 0);
	assert_int_equal(drain__run(&d, NULL, 0, false, stop_on_usr1, &e, &open_mask), 0);
	assert_true(got_usr1);
	assert_in_range(asked, 3, 5);
	sigprocmask(SIG_SETMASK, &orig, NULL);
	signal(SIGUSR1, SIG_DFL);
	drain__exit(&d);
	writer__abort(w);
}

/* A failed write releases nothing: the records stay in the ring. */
static void test_drain_write_error(void **state)
{
	struct fixture *f = *state;
	struct writer *w = NULL;
	struct stream s;
	struct drain d;

	/* Opened but not begun: every data write is refused with -EINVAL. */
	assert_int_equal(writer__open(&w, f->path), 0);
	std_stream(&s);
	publish(f, TAIL, &s);
	assert_int_equal(drain__init(&d, &f->ring, 1, w, TIME_OFF), 0);
	assert_int_equal(drain__pass(&d), -EINVAL);
	assert_int_equal(f->ctl->data_tail, TAIL);
	assert_int_equal(d.stats.bytes, 0);
	drain__exit(&d);
	writer__abort(w);
}

static void test_drain_exit_twice(void **state)
{
	struct drain d;
	struct ring r;

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_int_equal(drain__init(&d, &r, 1, NULL, -1), 0);
	drain__exit(&d);
	drain__exit(&d);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_read_empty, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_read_walk, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_peek_across_wrap, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(test_spans, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_consume, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_corrupt_headers, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(test_drain_pass, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_drain_no_time, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(test_drain_several_rings, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(test_drain_ring_by_ring, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(test_drain_run_final_drain, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(test_drain_tail_bounded, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(test_drain_run_busy_sees_signals, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(test_drain_write_error, fixture_setup,
						fixture_teardown),
		cmocka_unit_test(test_drain_exit_twice),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, NULL, NULL);
}
