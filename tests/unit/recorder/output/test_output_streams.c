// SPDX-License-Identifier: GPL-2.0-only
/*
 * The output's side of the engine (output_streams.c) driving real streams
 * over a ring on plain memory (the drain tests' ring_fixture.h): what the
 * output configures and attaches is all the engine needs to write the
 * file, count it, and stop at --max-size through the output's own
 * between-pass step (output.c), the rest left in the ring.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <unistd.h>

#include "prec/writer.h"
#include "recorder/dsos/dso_track.h"
#include "recorder/drain/drain.h"
#include "recorder/drain/streams.h"
#include "recorder/drain/threads.h"
#include "recorder/evlist/evlist.h"
#include "recorder/evlist/evsel.h"
#include "recorder/output/output_config.h"
#include "recorder/output/output.h"
/* The fixture's records to publish are its struct stream, not the engine's. */
#define stream fx_records
#include "../drain/ring_fixture.h"
#undef stream

static const uint64_t fake_ids[1] = { 42 };
static struct writer_event fake_event;

struct rig {
	struct fixture *f;
	struct output_config cfg;
	struct evsel ev;
	struct evlist evlist;
	struct output o;
	struct threads_masks m;
	struct streams ss;
};

static int setup(void **state)
{
	struct rig *r = calloc(1, sizeof(*r));
	void *fs;

	if (!r || fixture_setup(&fs))
		return -1;
	r->f = fs;
	r->ev.attr.type = PERF_TYPE_SOFTWARE;
	r->ev.attr.size = sizeof(r->ev.attr);
	r->ev.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				 PERF_SAMPLE_PERIOD;
	r->evlist.evsel = &r->ev;
	r->evlist.nr = 1;
	fake_event.attr = &r->ev.attr;
	fake_event.name = "cpu-clock";
	fake_event.ids = fake_ids;
	fake_event.nr_ids = 1;
	*state = r;
	return 0;
}

static int teardown(void **state)
{
	struct rig *r = *state;
	void *fs = r->f;

	streams__exit(&r->ss);
	threads_masks__exit(&r->m);
	output__exit(&r->o);
	fixture_teardown(&fs);
	free(r);
	return 0;
}

/* The output of one file at f's path, its front written, as output__begin
 * leaves it (here without the machine's side-band); max: --max-size past
 * the front (0: none). */
static void output_begin(struct rig *r, uint64_t max)
{
	struct dso_track_layout tl;
	struct writer *w = NULL;

	assert_int_equal(writer__open(&w, r->f->path), 0);
	assert_int_equal(writer__begin(w, &fake_event, 1), 0);
	r->cfg.max_size = max ? writer__file_size(w) + max : 0;
	r->o.src = (struct output_src){ .cfg = &r->cfg, .evlist = &r->evlist, .pid = -1 };
	r->o.path = r->f->path;
	r->o.w = w;
	dso_track__layout(r->ev.attr.sample_type, false, &tl);
	assert_int_equal(dso_track__new(&r->o.track, &tl), 0);
	size_limit__begin_file(&r->o.size, &r->cfg, writer__file_size(w));
}

/* One stream over the fixture's ring, configured and attached by the output. */
static void engine(struct rig *r)
{
	struct drain_config c = { .time_off = TIME_OFF, .flush = 4096 };

	output__drain_config(&r->o, &c);
	assert_ptr_equal(c.writer, r->o.w);
	assert_false(c.no_round);
	assert_int_equal(c.flush, 4096); /* the output's fields only */
	c.flush = 0;
	assert_int_equal(threads_masks__one(&r->m), 0);
	assert_int_equal(streams__init(&r->ss, &r->m, &r->f->ring, 1, NULL, 0, &c, false), 0);
	assert_int_equal(output__attach_streams(&r->o, &r->ss), 0);
	/* A quiet ring is passed over at least every second. */
	assert_int_equal(drain__tick_ms(streams__main_drain(&r->ss)), 1000);
}

static bool stop_count(void *arg)
{
	int *n = arg;

	return ++*n >= 2;
}

/* Without a limit: the records go to the output's file, counted for the
 * file and the run, until the caller stops; the tail takes the rest. */
static void test_records_counted(void **state)
{
	struct rig *r = *state;
	struct fx_records s;
	sigset_t mask;
	int stops = 0;

	sigemptyset(&mask);
	output_begin(r, 0);
	engine(r);
	std_stream(&s);
	publish(r->f, TAIL, &s);
	assert_int_equal(streams__run(&r->ss, stop_count, &stops, &mask), 0);
	assert_int_equal(stops, 2);
	/* The records and one FINISHED_ROUND. */
	assert_int_equal(writer__data_size(r->o.w), 168 + 8);
	assert_int_equal(r->o.file.samples, 3);
	assert_int_equal(r->o.total.samples, 3);
	assert_int_equal(r->o.total.lost, 17);
	publish(r->f, TAIL + 168, &s);
	assert_int_equal(streams__tail(&r->ss, NULL, NULL), 1);
	assert_int_equal(r->o.total.samples, 6);
	assert_int_equal(output__end_stream(&r->o, 0, &r->ss.s[0].d.stats), 0);
	assert_false(output__size_reached(&r->o));
}

/* --max-size: the cut keeps the file within the limit, and the output's
 * step ends the recording by itself (the caller's stop never asked); what
 * did not fit stays in the ring, and no tail is taken. */
static void test_max_size_ends(void **state)
{
	struct rig *r = *state;
	struct fx_records s;
	sigset_t mask;
	int stops = 0;

	sigemptyset(&mask);
	output_begin(r, 100);
	engine(r);
	std_stream(&s);
	publish(r->f, TAIL, &s);
	assert_int_equal(streams__run(&r->ss, stop_count, &stops, &mask), 0);
	assert_int_equal(stops, 0);
	assert_true(output__size_reached(&r->o));
	assert_true(r->ss.s[0].d.no_tail);
	assert_true(writer__file_size(r->o.w) <= r->cfg.max_size);
	assert_true(r->f->ctl->data_tail < TAIL + 168);
	assert_int_equal(streams__tail(&r->ss, NULL, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_records_counted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_max_size_ends, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
