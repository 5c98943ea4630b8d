// SPDX-License-Identifier: GPL-2.0-only
/*
 * The drain's append hook (drain.h, drain__flush): records a hook makes
 * from a pass's own (the names of JIT code) come after the rings' records
 * of that pass and before its FINISHED_ROUND, once per pass, only when the
 * pass wrote, also after a rewrite hook's span. Read back from a real file
 * as test_drain.c does (rings on plain memory: ring_fixture.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "prec/writer.h"
#include "recorder/drain/drain.h"
#include "ring_fixture.h"

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
	*data_off = writer__file_size(w);
	return w;
}

static void read_back(const char *path, uint64_t off, void *buf, size_t len)
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
	assert_int_equal(h.size, 8);
}

/* An append hook with one COMM record of its own; counts its calls. */
struct appender {
	struct stream rec;
	int calls, given;
	bool have;
};

static bool append_rec(void *arg, struct iovec *iov)
{
	struct appender *a = arg;

	a->calls++;
	if (!a->have)
		return false;
	iov->iov_base = a->rec.b;
	iov->iov_len = a->rec.n;
	a->given++;
	return true;
}

static void appender_init(struct appender *a)
{
	memset(a, 0, sizeof(*a));
	add_comm(&a->rec, 4242, "jitted");
	a->have = true;
}

static void append_case(struct fixture *f, bool no_round)
{
	struct appender a;
	struct drain_hook hk = { .append = append_rec, .arg = &a };
	struct stream s;
	struct drain d;
	uint64_t data_off, want;
	uint8_t got[512];
	struct writer *w = open_writer(f, &data_off);

	appender_init(&a);
	std_stream(&s);
	publish(f, TAIL, &s);
	assert_int_equal(drain__init(&d, &f->ring,
				     &(struct drain_config){
					     .nr_rings = 1, .writer = w, .time_off = TIME_OFF }),
			 0);
	d.no_round = no_round;
	assert_int_equal(drain__add_hook(&d, &hk), 0);
	assert_int_equal(drain__pass(&d), 168);
	assert_int_equal(a.given, 1);
	want = 168 + a.rec.n + (no_round ? 0 : 8);
	assert_int_equal(writer__data_size(w), want);
	assert_int_equal(file_size(f->path), data_off + want);
	read_back(f->path, data_off, got, want);
	assert_memory_equal(got, s.b, 168);
	assert_memory_equal(got + 168, a.rec.b, a.rec.n);
	if (!no_round)
		assert_finished_round(got + 168 + a.rec.n);
	/* The appended record is not the rings': the stats count the rings. */
	assert_int_equal(d.stats.bytes, 168);
	assert_int_equal(f->ctl->data_tail, TAIL + 168);

	/* A pass that finds nothing writes nothing and does not ask. */
	assert_int_equal(drain__pass(&d), 0);
	assert_int_equal(a.calls, 1);
	assert_int_equal(file_size(f->path), data_off + want);

	/* A hook with nothing to add: the pass as without it. */
	a.have = false;
	memset(&s, 0, sizeof(s));
	add_sample(&s, 0x402000, 100, 500, 1);
	ring_put(f->data, TAIL + 168, s.b, s.n);
	f->ctl->data_head = TAIL + 168 + s.n;
	assert_int_equal(drain__pass(&d), 40);
	assert_int_equal(a.calls, 2);
	assert_int_equal(writer__data_size(w), want + 40 + (no_round ? 0 : 8));
	read_back(f->path, data_off + want, got, 40 + (no_round ? 0 : 8));
	assert_memory_equal(got, s.b, 40);
	if (!no_round)
		assert_finished_round(got + 40);
	drain__exit(&d);
	writer__abort(w);
}

static void test_drain_append(void **state)
{
	append_case(*state, false);
}

/* A stream of a perf.data directory: appended at the pass's end, no marker. */
static void test_drain_append_no_round(void **state)
{
	append_case(*state, true);
}

/* Two rings written in two batches (batch_bytes lowered): the appended
 * records come once, after the second ring's, in the last flush. */
static void test_drain_append_batches(void **state)
{
	struct fixture *f = *state;
	struct perf_event_mmap_page *ctl = aligned_alloc(4096, 4096);
	uint8_t *data = aligned_alloc(4096, DATA_SIZE);
	struct appender a;
	struct drain_hook hk = { .append = append_rec, .arg = &a };
	struct ring rings[2];
	struct stream s0, s1;
	struct drain d;
	uint64_t data_off, want;
	uint8_t got[512];
	struct writer *w = open_writer(f, &data_off);

	assert_non_null(ctl);
	assert_non_null(data);
	memset(ctl, 0, 4096);
	memset(data, 0xee, DATA_SIZE);
	ring__init_mem(&rings[0], f->ctl, f->data, DATA_SIZE);
	ring__init_mem(&rings[1], ctl, data, DATA_SIZE);
	appender_init(&a);
	memset(&s0, 0, sizeof(s0));
	add_sample(&s0, 1, 1, 10, 1);
	add_sample(&s0, 2, 1, 20, 1);
	publish(f, 64, &s0);
	std_stream(&s1);
	ring_put(data, TAIL, s1.b, s1.n);
	ctl->data_tail = TAIL;
	ctl->data_head = TAIL + s1.n;

	assert_int_equal(drain__init(&d, rings,
				     &(struct drain_config){
					     .nr_rings = 2, .writer = w, .time_off = TIME_OFF }),
			 0);
	d.batch_bytes = 1;
	assert_int_equal(drain__add_hook(&d, &hk), 0);
	assert_int_equal(drain__pass(&d), 80 + 168);
	assert_int_equal(a.calls, 1);
	want = 80 + 168 + a.rec.n + 8;
	assert_int_equal(writer__data_size(w), want);
	read_back(f->path, data_off, got, want);
	assert_memory_equal(got, s0.b, 80);
	assert_memory_equal(got + 80, s1.b, 168);
	assert_memory_equal(got + 248, a.rec.b, a.rec.n);
	assert_finished_round(got + 248 + a.rec.n);
	drain__exit(&d);
	writer__abort(w);
	free(ctl);
	free(data);
}

/* A rewriter (the unwinder's kind) replacing the pass's windows by a span
 * of its own: the appended records follow that span. */
struct rewriter {
	struct stream out;
	int calls;
};

static int rewrite_rec(void *arg, struct ring *rings, const bool *pending, int nr,
		       struct iovec *iov)
{
	struct rewriter *rw = arg;

	(void)rings;
	(void)pending;
	(void)nr;
	rw->calls++;
	iov[0].iov_base = rw->out.b;
	iov[0].iov_len = rw->out.n;
	return 1;
}

static void test_drain_append_after_rewrite(void **state)
{
	struct fixture *f = *state;
	struct appender a;
	struct rewriter rw = { 0 };
	struct drain_hook app = { .append = append_rec, .arg = &a };
	struct drain_hook rwh = { .rewrite = rewrite_rec, .arg = &rw };
	struct stream s;
	struct drain d;
	uint64_t data_off, want;
	uint8_t got[512];
	struct writer *w = open_writer(f, &data_off);

	appender_init(&a);
	add_sample(&rw.out, 0x777000, 9, 9, 9);
	add_lost(&rw.out, 1, 2);
	std_stream(&s);
	publish(f, TAIL, &s);
	assert_int_equal(drain__init(&d, &f->ring,
				     &(struct drain_config){
					     .nr_rings = 1, .writer = w, .time_off = TIME_OFF }),
			 0);
	/* The appender first: the order of hooks does not move the records. */
	assert_int_equal(drain__add_hook(&d, &app), 0);
	assert_int_equal(drain__add_hook(&d, &rwh), 0);
	assert_int_equal(drain__pass(&d), 168);
	assert_int_equal(rw.calls, 1);
	assert_int_equal(a.given, 1);
	want = rw.out.n + a.rec.n + 8;
	assert_int_equal(writer__data_size(w), want);
	read_back(f->path, data_off, got, want);
	assert_memory_equal(got, rw.out.b, rw.out.n);
	assert_memory_equal(got + rw.out.n, a.rec.b, a.rec.n);
	assert_finished_round(got + rw.out.n + a.rec.n);
	drain__exit(&d);
	writer__abort(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_drain_append, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_drain_append_no_round, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(test_drain_append_batches, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(test_drain_append_after_rewrite, fixture_setup,
						fixture_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
