// SPDX-License-Identifier: GPL-2.0-only
/*
 * The drain loop (drain.c) over rings on plain memory (ring_fixture.h): it
 * writes through a real writer to a temp file, which is read back here
 * byte by byte; its hooks, its between-pass steps, its signals and its tail.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/stat.h>
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
	assert_int_equal(drain__init(&d, &f->ring,
				     &(struct drain_config){
					     .nr_rings = 1, .writer = w, .time_off = TIME_OFF }),
			 0);
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

/* A stream of a perf.data directory (--threads): the records alone, no
 * FINISHED_ROUND (the reader orders the streams itself, as perf writes them). */
static void test_drain_no_round(void **state)
{
	struct fixture *f = *state;
	struct stream s;
	struct drain d;
	uint64_t data_off;
	uint8_t got[168];
	struct writer *w = open_writer(f, &data_off);

	std_stream(&s);
	publish(f, TAIL, &s);
	assert_int_equal(drain__init(&d, &f->ring,
				     &(struct drain_config){
					     .nr_rings = 1, .writer = w, .time_off = TIME_OFF }),
			 0);
	d.no_round = true;
	assert_int_equal(drain__pass(&d), 168);
	assert_int_equal(writer__data_size(w), 168);
	read_file(f->path, data_off, got, sizeof(got));
	assert_memory_equal(got, s.b, 168);
	assert_int_equal(f->ctl->data_tail, TAIL + 168);
	drain__exit(&d);
	writer__abort(w);
}

/* A MMAP2 record carrying the build-id flag the events did not ask for (a
 * kernel leak from another session's --buildid-mmap) is written without it;
 * with --buildid-mmap the flag stays. */
static void mmap2_flag_case(struct fixture *f, bool asked, uint16_t want_misc)
{
	struct {
		struct perf_event_header h;
		uint8_t body[72]; /* pid, tid, addr, len, pgoff, maj/min/ino..., prot, flags, "x" */
	} rec = { .h = { PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID,
			 80 } };
	struct stream s = { 0 };
	struct drain d;
	uint64_t data_off;
	struct perf_event_header got;
	struct writer *w = open_writer(f, &data_off);

	memset(rec.body, 0, sizeof(rec.body));
	rec.body[24] = 0x03; /* maj 0x103: its low byte would be read as a size */
	rec.body[25] = 0x01;
	stream_add(&s, &rec);
	publish(f, BASE, &s);
	assert_int_equal(drain__init(&d, &f->ring,
				     &(struct drain_config){
					     .nr_rings = 1, .writer = w, .time_off = TIME_OFF }),
			 0);
	d.mmap2_build_ids = asked;
	assert_int_equal(drain__pass(&d), 80);
	read_file(f->path, data_off, &got, sizeof(got));
	assert_int_equal(got.type, PERF_RECORD_MMAP2);
	assert_int_equal(got.misc, want_misc);
	drain__exit(&d);
	writer__abort(w);
}

static void test_drain_mmap2_build_id_flag(void **state)
{
	mmap2_flag_case(*state, false, PERF_RECORD_MISC_USER);
	mmap2_flag_case(*state, true, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID);
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
	assert_int_equal(
		drain__init(&d, &f->ring,
			    &(struct drain_config){ .nr_rings = 1, .writer = w, .time_off = -1 }),
		0);
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
 * own, and the file must read the same. no_round: the round is held back
 * (background synthesis): the last, empty ring leaves nothing to write. */
static void several_rings(struct fixture *f, uint64_t batch, bool no_round)
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

	assert_int_equal(drain__init(&d, rings,
				     &(struct drain_config){
					     .nr_rings = 3, .writer = w, .time_off = TIME_OFF }),
			 0);
	if (batch)
		d.batch_bytes = batch;
	d.no_round = no_round;
	assert_int_equal(drain__pass(&d), 80 + 168);
	assert_int_equal(d.stats.samples, 5);
	assert_int_equal(d.stats.first_time, 10);
	assert_int_equal(d.stats.last_time, 3000);
	assert_int_equal(writer__data_size(w), 80 + 168 + (no_round ? 0 : 8));
	read_file(f->path, data_off, got, 80 + 168 + (no_round ? 0 : 8));
	assert_memory_equal(got, s0.b, 80);
	assert_memory_equal(got + 80, s1.b, 168);
	if (!no_round)
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
	several_rings(*state, 0, false);
}

static void test_drain_ring_by_ring(void **state)
{
	several_rings(*state, 1, false);
	several_rings(*state, 1, true);
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
	assert_int_equal(drain__init(&d, &f->ring,
				     &(struct drain_config){
					     .nr_rings = 1, .writer = w, .time_off = TIME_OFF }),
			 0);
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
	assert_int_equal(drain__init(&d, &f->ring,
				     &(struct drain_config){
					     .nr_rings = 1, .writer = w, .time_off = TIME_OFF }),
			 0);
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

/* A backlog: a quarter of the ring each pass, so the loop never sleeps. */
static void produce_backlog(struct endless *e)
{
	for (uint64_t n = 0; n < DATA_SIZE / DRAIN_BACKLOG_SHARE; n += e->s.n)
		produce_every_pass(e);
}

static bool stop_on_usr1(void *arg)
{
	struct endless *e = arg;

	if (++asked > 1000)
		return true; /* the signal was never let in: fail below, not hang */
	if (asked == 3)
		raise(SIGUSR1); /* pending: SIGUSR1 is blocked here */
	produce_backlog(e);
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
	produce_backlog(&e);
	assert_int_equal(drain__init(&d, &f->ring,
				     &(struct drain_config){
					     .nr_rings = 1, .writer = w, .time_off = TIME_OFF }),
			 0);
	assert_int_equal(drain__run(&d, NULL, 0, false, stop_on_usr1, &e, &open_mask), 0);
	assert_true(got_usr1);
	assert_in_range(asked, 3, 5);
	sigprocmask(SIG_SETMASK, &orig, NULL);
	signal(SIGUSR1, SIG_DFL);
	drain__exit(&d);
	writer__abort(w);
}

/*
 * A pass that found little sleeps in ppoll on the event fds before the next
 * one (so each bite is taken whole, and -r leaves the CPU to the command);
 * a backlog passes again at once. The fd here is a pipe whose writer is
 * gone: only a loop that polled it sees the hang-up and ends there.
 */
static bool produce_small(void *arg)
{
	struct endless *e = arg;

	if (e->calls >= 50)
		return true;
	return produce_every_pass(e);
}

static bool produce_big(void *arg)
{
	struct endless *e = arg;

	if (e->calls >= 50)
		return true;
	produce_backlog(e);
	return false;
}

static void run_until_hup(struct fixture *f, bool (*stop)(void *), struct endless *e)
{
	int p[2];
	struct pollfd pfd;
	sigset_t mask;
	struct drain d;
	uint64_t data_off;
	struct writer *w = open_writer(f, &data_off);

	assert_int_equal(pipe(p), 0);
	close(p[1]);
	pfd = (struct pollfd){ .fd = p[0], .events = POLLIN };
	sigemptyset(&mask);
	add_sample(&e->s, 0x403000, 5, 4000, 1);
	f->ctl->data_tail = TAIL;
	__atomic_store_n(&f->ctl->data_head, TAIL, __ATOMIC_RELEASE);
	stop(e);
	assert_int_equal(drain__init(&d, &f->ring,
				     &(struct drain_config){
					     .nr_rings = 1, .writer = w, .time_off = TIME_OFF }),
			 0);
	assert_int_equal(drain__run(&d, &pfd, 1, true, stop, e, &mask), 0);
	close(p[0]);
	drain__exit(&d);
	writer__abort(w);
}

static void test_drain_run_sleeps_between_small_bites(void **state)
{
	struct endless small = { .f = *state, .head = TAIL };
	struct endless big = { .f = *state, .head = TAIL };

	run_until_hup(*state, produce_small, &small);
	/* The first bite, a pass, ppoll sees the hang-up, the last pass ends. */
	assert_int_equal(small.calls, 3);
	run_until_hup(*state, produce_big, &big);
	assert_true(big.calls >= 50); /* never polled: stop() ended it */
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
	assert_int_equal(drain__init(&d, &f->ring,
				     &(struct drain_config){
					     .nr_rings = 1, .writer = w, .time_off = TIME_OFF }),
			 0);
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
	assert_int_equal(drain__init(&d, &r,
				     &(struct drain_config){
					     .nr_rings = 1, .writer = NULL, .time_off = -1 }),
			 0);
	drain__exit(&d);
	drain__exit(&d);
}

/* ---- the drain's hooks and its between-pass steps ---- */

/* A size cut (as the output's --max-size hook) that lets room bytes of
 * whole records through, and a watcher after it. */
struct hook_probe {
	uint64_t room;
	int seen; /* records the watcher saw */
	int passes; /* on_pass calls */
	struct drain_stats last; /* the last pass's counts */
};

static enum drain_verdict probe_cut(void *arg, const struct ring *r, uint64_t pos,
				    const struct perf_event_header *h)
{
	struct hook_probe *p = arg;

	(void)r;
	(void)pos;
	if (h->size > p->room)
		return DRAIN_CUT;
	p->room -= h->size;
	return DRAIN_KEEP;
}

static enum drain_verdict probe_watch(void *arg, const struct ring *r, uint64_t pos,
				      const struct perf_event_header *h)
{
	struct hook_probe *p = arg;

	(void)r;
	(void)pos;
	(void)h;
	p->seen++;
	return DRAIN_KEEP;
}

static void probe_pass(void *arg, const struct drain_stats *pass)
{
	struct hook_probe *p = arg;

	p->passes++;
	p->last = *pass;
}

static int fake_rewrite(void *arg, struct ring *rings, const bool *pending, int nr,
			struct iovec *iov)
{
	(void)arg;
	(void)rings;
	(void)pending;
	(void)nr;
	(void)iov;
	return 0;
}

static void test_drain_hooks(void **state)
{
	struct fixture *f = *state;
	struct hook_probe p = { .room = 100 };
	struct drain_hook cut = { .on_record = probe_cut, .arg = &p };
	struct drain_hook watch = { .on_record = probe_watch, .on_pass = probe_pass, .arg = &p };
	struct drain_hook rw = { .rewrite = fake_rewrite };
	struct stream s;
	struct drain d;
	uint64_t data_off;
	uint8_t got[256];
	struct writer *w = open_writer(f, &data_off);

	std_stream(&s);
	publish(f, TAIL, &s);
	assert_int_equal(drain__init(&d, &f->ring,
				     &(struct drain_config){
					     .nr_rings = 1, .writer = w, .time_off = TIME_OFF }),
			 0);
	assert_int_equal(drain__add_hook(&d, &cut), 0);
	assert_int_equal(drain__add_hook(&d, &watch), 0);
	/* SAMPLE (40) and LOST (24) fit in 100, the next SAMPLE does not: the
	 * window ends at a record boundary and the watcher never sees the rest. */
	assert_int_equal(drain__pass(&d), 64);
	assert_int_equal(p.seen, 2);
	assert_int_equal(p.passes, 1);
	assert_int_equal(p.last.bytes, 64);
	assert_int_equal(p.last.samples, 1);
	assert_int_equal(p.last.lost, 17);
	assert_int_equal(d.stats.samples, 1);
	assert_int_equal(d.stats.bytes, 64);
	assert_int_equal(f->ctl->data_tail, TAIL + 64);
	read_file(f->path, data_off, got, 72);
	assert_memory_equal(got, s.b, 64);
	assert_finished_round(got + 64);

	/* Full: nothing is written, the pass is still reported (bytes 0). */
	assert_int_equal(drain__pass(&d), 0);
	assert_int_equal(p.passes, 2);
	assert_int_equal(p.last.bytes, 0);
	assert_int_equal(f->ctl->data_tail, TAIL + 64);

	/* Room again: the rest, whole, in ring order. */
	p.room = 1000;
	assert_int_equal(drain__pass(&d), 104);
	assert_int_equal(p.seen, 5);
	assert_int_equal(p.last.samples, 2);
	assert_int_equal(p.last.first_time, 1000);
	assert_int_equal(d.stats.samples, 3);
	assert_int_equal(d.stats.first_time, 1000);
	assert_int_equal(d.stats.last_time, 3000);
	read_file(f->path, data_off + 72, got, 112);
	assert_memory_equal(got, s.b + 64, 104);
	assert_finished_round(got + 104);

	/* One rewriter at most, and a bounded list. */
	assert_int_equal(drain__add_hook(&d, &rw), 0);
	assert_int_equal(drain__add_hook(&d, &rw), -EBUSY);
	while (d.nr_hooks < DRAIN_MAX_HOOKS)
		assert_int_equal(drain__add_hook(&d, &watch), 0);
	assert_int_equal(drain__add_hook(&d, &watch), -ENOSPC);
	drain__exit(&d);
	writer__abort(w);
}

/* A between-pass step: asked after every pass, before stop(); DRAIN_END leaves the
 * tail in the rings, an error ends the loop with it. */
struct after_probe {
	int calls, answer, stops;
};

static int probe_after(void *arg)
{
	struct after_probe *a = arg;

	a->calls++;
	return a->answer;
}

static bool probe_stop(void *arg)
{
	struct after_probe *a = arg;

	a->stops++;
	return true;
}

static void test_drain_between_step(void **state)
{
	struct fixture *f = *state;
	struct after_probe a = { .answer = DRAIN_END };
	struct stream s;
	struct drain d;
	uint64_t data_off;
	sigset_t mask;
	struct writer *w = open_writer(f, &data_off);

	sigemptyset(&mask);
	std_stream(&s);
	publish(f, TAIL, &s);
	assert_int_equal(drain__init(&d, &f->ring,
				     &(struct drain_config){
					     .nr_rings = 1, .writer = w, .time_off = TIME_OFF }),
			 0);
	assert_int_equal(drain__add_between(&d, probe_after, &a), 0);
	assert_int_equal(drain__run(&d, NULL, 0, false, probe_stop, &a, &mask), 0);
	assert_int_equal(a.calls, 1);
	assert_int_equal(a.stops, 0);
	assert_true(d.no_tail);
	assert_int_equal(d.stats.bytes, 168);
	/* What comes now stays: the output is full. */
	publish(f, TAIL + 168, &s);
	assert_int_equal(drain__tail(&d, NULL, NULL), 0);
	assert_int_equal(f->ctl->data_tail, TAIL + 168);

	/* A rotation that failed: its error, at once. */
	d.no_tail = false;
	a.answer = -ENOSPC;
	assert_int_equal(drain__run(&d, NULL, 0, false, probe_stop, &a, &mask), -ENOSPC);
	assert_int_equal(a.calls, 2);
	assert_int_equal(a.stops, 0);

	/* Go on: stop() decides. */
	a.answer = DRAIN_GO_ON;
	assert_int_equal(drain__run(&d, NULL, 0, false, probe_stop, &a, &mask), 0);
	assert_int_equal(a.calls, 3);
	assert_int_equal(a.stops, 1);
	drain__exit(&d);
	writer__abort(w);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_drain_pass, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_drain_no_time, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_drain_several_rings, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_drain_ring_by_ring, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_drain_run_final_drain, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_drain_tail_bounded, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_drain_run_busy_sees_signals, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_drain_mmap2_build_id_flag, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_drain_run_sleeps_between_small_bites, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(test_drain_write_error, fixture_setup, fixture_teardown),
		cmocka_unit_test(test_drain_exit_twice),
		cmocka_unit_test_setup_teardown(test_drain_hooks, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_drain_between_step, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_drain_no_round, fixture_setup, fixture_teardown),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, NULL, NULL);
}
