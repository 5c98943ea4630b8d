// SPDX-License-Identifier: GPL-2.0-only
/*
 * The engine (streams.c) over rings on plain memory (ring_fixture.h): one
 * stream on the caller's thread, or --threads' streams with stream 0 still
 * on the caller's thread and the others on their own; each drains its own
 * rings into its own writer, stops when told, takes its tail; with -p/-t's
 * stop_on_hup the recording ends only once every stream's targets are gone.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <unistd.h>

#include "prec/writer.h"
#include "recorder/drain/drain.h"
#include "recorder/drain/streams.h"
#include "recorder/drain/threads.h"
#include "recorder/drain/wake.h"
/* The fixture's records to publish are its struct stream, not the engine's. */
#define stream fx_records
#include "ring_fixture.h"
#undef stream

#define NR 2

static const uint64_t fake_ids[1] = { 42 };
static struct perf_event_attr fake_attr;
static struct writer_event fake_event;

/* Two rings (CPUs 0 and 1), a writer each, the masks of NR streams. */
struct engine {
	struct fixture *f[NR];
	struct writer *w[NR];
	struct ring rings[NR];
	struct threads_mask mask[NR];
	struct threads_masks m;
	struct streams ss;
	pthread_t main_thread;
};

static int setup(void **state)
{
	struct engine *e = calloc(1, sizeof(*e));
	void *fs;

	if (!e)
		return -1;
	for (int i = 0; i < NR; i++) {
		if (fixture_setup(&fs))
			return -1;
		e->f[i] = fs;
		e->rings[i] = e->f[i]->ring;
		e->rings[i].cpu = i;
	}
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct engine *e = *state;
	void *fs;

	streams__exit(&e->ss);
	for (int i = 0; i < NR; i++) {
		writer__abort(e->w[i]);
		cpulist__exit(&e->mask[i].maps);
		cpulist__exit(&e->mask[i].affinity);
		fs = e->f[i];
		fixture_teardown(&fs);
	}
	free(e);
	return 0;
}

static struct writer *open_writer(const char *path)
{
	struct writer *w = NULL;

	memset(&fake_attr, 0, sizeof(fake_attr));
	fake_attr.type = PERF_TYPE_SOFTWARE;
	fake_attr.size = sizeof(fake_attr);
	fake_attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				PERF_SAMPLE_PERIOD;
	fake_event.attr = &fake_attr;
	fake_event.name = "cpu-clock";
	fake_event.ids = fake_ids;
	fake_event.nr_ids = 1;
	assert_int_equal(writer__open(&w, path), 0);
	assert_int_equal(writer__begin(w, &fake_event, 1), 0);
	return w;
}

/* nr streams (threaded or not), stream i over ring i (one stream: both),
 * each with its writer; every stream's drain wakes at least every ms. */
static void engine_init(struct engine *e, int nr, bool threaded, const struct pollfd *fds,
			int nr_fds, bool stop_on_hup)
{
	struct drain_config c = { .time_off = TIME_OFF, .no_round = true };
	const char *one = "0-1";

	for (int i = 0; i < nr; i++) {
		char cpu[4];

		snprintf(cpu, sizeof(cpu), "%d", i);
		assert_int_equal(cpulist__parse(nr == 1 ? one : cpu, strlen(nr == 1 ? one : cpu),
						&e->mask[i].maps),
				 0);
		/* No affinity CPU: nothing is bound, this process included. */
		memset(&e->mask[i].affinity, 0, sizeof(e->mask[i].affinity));
	}
	e->m = (struct threads_masks){ .m = e->mask, .nr = (uint32_t)nr, .threaded = threaded };
	assert_int_equal(streams__init(&e->ss, &e->m, e->rings, NR, fds, nr_fds, &c, stop_on_hup),
			 0);
	for (int i = 0; i < nr; i++) {
		e->w[i] = open_writer(e->f[i]->path);
		drain__set_writer(&e->ss.s[i].d, e->w[i]);
		assert_true(drain__want_tick(&e->ss.s[i].d, 1) >= 0);
	}
}

struct stopper {
	struct engine *e;
	int calls;
	int after; /* stop on this call */
	bool wrong_thread; /* asked on a thread that is not the caller's */
};

static bool stop_when(void *arg)
{
	struct stopper *s = arg;

	if (!pthread_equal(pthread_self(), s->e->main_thread))
		s->wrong_thread = true;
	return ++s->calls >= s->after;
}

/* One stream drains both rings on this thread; the tail takes what came
 * after the stop. */
static void test_one_stream(void **state)
{
	struct engine *e = *state;
	struct stopper st = { .e = e, .after = 1 };
	struct fx_records s;
	sigset_t mask;

	sigemptyset(&mask);
	e->main_thread = pthread_self();
	engine_init(e, 1, false, NULL, 0, false);
	assert_int_equal(e->ss.s[0].nr_rings, 2);
	assert_ptr_equal(streams__main_drain(&e->ss), &e->ss.s[0].d);
	std_stream(&s);
	publish(e->f[0], TAIL, &s);
	publish(e->f[1], TAIL, &s);
	assert_int_equal(streams__run(&e->ss, stop_when, &st, &mask), 0);
	assert_int_equal(st.calls, 1);
	assert_false(st.wrong_thread);
	assert_int_equal(e->ss.s[0].d.stats.bytes, 2 * 168);
	assert_int_equal(e->ss.s[0].d.stats.samples, 6);
	assert_int_equal(writer__data_size(e->w[0]), 2 * 168);
	/* The tail: one pass with data, then one that finds none. */
	publish(e->f[1], TAIL + 168, &s);
	assert_int_equal(streams__tail(&e->ss, NULL, NULL), 1);
	assert_int_equal(writer__data_size(e->w[0]), 3 * 168);
	assert_int_equal(e->f[1]->ctl->data_tail, TAIL + 2 * 168);
}

/* Which thread a drain's passes ran on. */
struct where {
	pthread_t main;
	int here, elsewhere;
};

static void where_pass(void *arg, const struct drain_stats *pass)
{
	struct where *w = arg;

	(void)pass;
	if (pthread_equal(pthread_self(), w->main))
		w->here++;
	else
		w->elsewhere++;
}

/* --threads: stream 0 on this thread (stop asked here only), stream 1 on
 * its own; each ring into its stream's file; the stop reaches both. */
static void test_threaded_streams(void **state)
{
	struct engine *e = *state;
	struct stopper st = { .e = e, .after = 3 };
	struct where w0 = { .main = pthread_self() }, w1 = w0;
	struct drain_hook h0 = { .on_pass = where_pass, .arg = &w0 };
	struct drain_hook h1 = { .on_pass = where_pass, .arg = &w1 };
	struct fx_records s;
	sigset_t mask;

	sigemptyset(&mask);
	e->main_thread = pthread_self();
	engine_init(e, NR, true, NULL, 0, false);
	assert_int_equal(e->ss.s[0].nr_rings, 1);
	assert_int_equal(e->ss.s[1].nr_rings, 1);
	assert_int_equal(drain__add_hook(&e->ss.s[0].d, &h0), 0);
	assert_int_equal(drain__add_hook(&e->ss.s[1].d, &h1), 0);
	std_stream(&s);
	publish(e->f[0], TAIL, &s);
	publish(e->f[1], TAIL, &s);
	assert_int_equal(streams__run(&e->ss, stop_when, &st, &mask), 0);
	assert_int_equal(st.calls, 3);
	assert_false(st.wrong_thread);
	/* Stream 0 is the main loop; stream 1 ran on its own thread. */
	assert_int_equal(w0.here, 3);
	assert_int_equal(w0.elsewhere, 0);
	assert_int_equal(w1.here, 0);
	assert_true(w1.elsewhere > 0);
	/* Joined: the other stream's thread is done, its data in its file. */
	assert_false(e->ss.s[1].started);
	assert_int_equal(atomic_load(&e->ss.running), 0);
	assert_int_equal(writer__data_size(e->w[0]), 168);
	assert_int_equal(writer__data_size(e->w[1]), 168);
	assert_int_equal(e->ss.s[1].d.stats.samples, 3);
	/* Each stream's tail, on this thread. */
	publish(e->f[0], TAIL + 168, &s);
	assert_int_equal(streams__tail(&e->ss, NULL, NULL), 1);
	assert_int_equal(writer__data_size(e->w[0]), 2 * 168);
	assert_int_equal(writer__data_size(e->w[1]), 168);
}

/* A stream thread whose step ends the recording (--max-size) stops the
 * main loop too, without the caller's stop. */
static int end_step(void *arg)
{
	(void)arg;
	return DRAIN_END;
}

static void test_threaded_end_stops_all(void **state)
{
	struct engine *e = *state;
	struct stopper st = { .e = e, .after = 1 << 30 };
	struct wake wake = { .fd = -1 };
	struct streams_main watch = { .side_fd = -1, .out_fd = -1, .wake = &wake };
	sigset_t mask;

	sigemptyset(&mask);
	e->main_thread = pthread_self();
	assert_int_equal(wake__init(&wake), 0);
	engine_init(e, NR, true, NULL, 0, false);
	assert_int_equal(drain__add_between(&e->ss.s[1].d, end_step, NULL), 0);
	streams__set_main(&e->ss, &watch);
	assert_int_equal(streams__run(&e->ss, stop_when, &st, &mask), 0);
	assert_true(e->ss.s[1].d.no_tail);
	assert_false(e->ss.s[0].d.no_tail);
	assert_true(st.calls < 1 << 30);
	wake__exit(&wake);
}

/* -p/-t (stop_on_hup): stream 0's targets gone is not the end while
 * stream 1's still run; once they are gone too, the recording ends
 * without the caller's stop. */
struct hup {
	struct stopper st;
	int pipe1[2];
	bool closed; /* stream 1's target went, by this stop's hand */
};

static bool stop_never_close_late(void *arg)
{
	struct hup *h = arg;

	h->st.calls++;
	/* Stream 0 hung up from the start; a few passes later stream 1's
	 * target goes. */
	if (h->st.calls == 5) {
		close(h->pipe1[1]);
		h->closed = true;
	}
	return false;
}

static void test_threaded_hup_waits_for_all(void **state)
{
	struct engine *e = *state;
	struct hup h = { .st = { .e = e } };
	struct wake wake = { .fd = -1 };
	struct streams_main watch = { .side_fd = -1, .out_fd = -1, .wake = &wake };
	int pipe0[2];
	sigset_t mask;

	sigemptyset(&mask);
	e->main_thread = pthread_self();
	assert_int_equal(pipe(pipe0), 0);
	assert_int_equal(pipe(h.pipe1), 0);
	e->rings[0].fd = pipe0[0];
	e->rings[1].fd = h.pipe1[0];
	close(pipe0[1]); /* stream 0's target is gone already */
	assert_int_equal(wake__init(&wake), 0);
	engine_init(e, NR, true, NULL, 0, true);
	streams__set_main(&e->ss, &watch);
	assert_int_equal(streams__run(&e->ss, stop_never_close_late, &h, &mask), 0);
	assert_true(h.closed);
	assert_true(h.st.calls >= 5);
	assert_int_equal(e->ss.s[0].d.live, 0);
	assert_int_equal(e->ss.s[1].d.live, 0);
	close(pipe0[0]);
	close(h.pipe1[0]);
	wake__exit(&wake);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_one_stream, setup, teardown),
		cmocka_unit_test_setup_teardown(test_threaded_streams, setup, teardown),
		cmocka_unit_test_setup_teardown(test_threaded_end_stops_all, setup, teardown),
		cmocka_unit_test_setup_teardown(test_threaded_hup_waits_for_all, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
