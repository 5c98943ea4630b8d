// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a drain is told after drain__init, through drain.c's functions only:
 * the ticks anyone may ask for (the smallest wins, each withdrawn alone),
 * the between-pass steps (in the order added, every one run, the first
 * error or the strongest answer), the writer changed between passes, the
 * rounds held back and given back, and a pass that leaves a ring's data
 * under --mmap-flush's mark says so.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <unistd.h>

#include "prec/writer.h"
#include "recorder/drain/drain.h"
#include "ring_fixture.h"

static const uint64_t fake_ids[1] = { 42 };
static struct perf_event_attr fake_attr;
static struct writer_event fake_event;

static struct writer *open_writer(const char *path, uint64_t *data_off)
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
	*data_off = writer__file_size(w);
	return w;
}

static void init(struct drain *d, struct fixture *f, struct writer *w)
{
	struct drain_config c = { .nr_rings = 1, .writer = w, .time_off = TIME_OFF };

	assert_int_equal(drain__init(d, &f->ring, &c), 0);
}

/* The longest sleep is the smallest tick standing, whoever asked first. */
static void test_ticks(void **state)
{
	struct fixture *f = *state;
	struct drain d;
	int out, status, hints;

	init(&d, f, NULL);
	assert_int_equal(drain__tick_ms(&d), 0); /* none: until data or a signal */
	out = drain__want_tick(&d, 1000);
	status = drain__want_tick(&d, 250);
	assert_true(out >= 0 && status >= 0 && out != status);
	assert_int_equal(drain__tick_ms(&d), 250);
	/* Asked after a smaller one, a larger tick changes nothing. */
	hints = drain__want_tick(&d, 20);
	assert_int_equal(drain__tick_ms(&d), 20);
	assert_true(drain__want_tick(&d, 5000) >= 0);
	assert_int_equal(drain__tick_ms(&d), 20);
	/* Withdrawn, the others stand: the status line's, not the output's. */
	drain__drop_tick(&d, hints);
	assert_int_equal(drain__tick_ms(&d), 250);
	drain__drop_tick(&d, status);
	assert_int_equal(drain__tick_ms(&d), 1000);
	drain__drop_tick(&d, -ENOSPC); /* a refused request's answer: nothing */
	assert_int_equal(drain__tick_ms(&d), 1000);
	/* Room is bounded; a full table says so. */
	while (drain__want_tick(&d, 7) >= 0)
		;
	assert_int_equal(drain__want_tick(&d, 7), -ENOSPC);
	assert_int_equal(drain__tick_ms(&d), 7);
	drain__exit(&d);
}

struct step {
	int answer;
	int calls;
	int order; /* the call's place among all steps' calls */
	int *clock;
};

static int step_fn(void *arg)
{
	struct step *s = arg;

	s->calls++;
	s->order = ++*s->clock;
	return s->answer;
}

static bool stop_after_one(void *arg)
{
	int *n = arg;

	return ++*n >= 1;
}

/* Steps run in the order added, every one of them, after every pass. */
static void test_between_steps(void **state)
{
	struct fixture *f = *state;
	int clock = 0, stops = 0;
	struct step out = { .answer = DRAIN_GO_ON, .clock = &clock };
	struct step ack = { .answer = DRAIN_GO_ON, .clock = &clock };
	struct drain d;
	sigset_t mask;

	sigemptyset(&mask);
	init(&d, f, NULL);
	assert_int_equal(drain__add_between(&d, step_fn, &out), 0);
	assert_int_equal(drain__add_between(&d, step_fn, &ack), 0);
	assert_int_equal(drain__run(&d, NULL, 0, false, stop_after_one, &stops, &mask), 0);
	assert_int_equal(out.calls, 1);
	assert_int_equal(ack.calls, 1);
	assert_int_equal(out.order, 1);
	assert_int_equal(ack.order, 2);
	assert_int_equal(stops, 1);

	/* The output ends the recording: the step after it still runs (an
	 * ack is sent), stop() is not asked, the tail is left. */
	out.answer = DRAIN_END;
	assert_int_equal(drain__run(&d, NULL, 0, false, stop_after_one, &stops, &mask), 0);
	assert_int_equal(ack.calls, 2);
	assert_int_equal(stops, 1);
	assert_true(d.no_tail);
	d.no_tail = false;

	/* A later step's stop does not hide an earlier END; an error beats both. */
	out.answer = DRAIN_STOP;
	ack.answer = DRAIN_END;
	assert_int_equal(drain__run(&d, NULL, 0, false, stop_after_one, &stops, &mask), 0);
	assert_true(d.no_tail);
	d.no_tail = false;
	ack.answer = -ENOSPC;
	assert_int_equal(drain__run(&d, NULL, 0, false, stop_after_one, &stops, &mask), -ENOSPC);
	out.answer = -EIO; /* the first error is the one returned */
	assert_int_equal(drain__run(&d, NULL, 0, false, stop_after_one, &stops, &mask), -EIO);
	assert_int_equal(out.calls, 5);
	assert_int_equal(ack.calls, 5);

	/* Bounded room. */
	while (drain__add_between(&d, step_fn, &ack) == 0)
		;
	assert_int_equal(drain__add_between(&d, step_fn, &ack), -ENOSPC);
	drain__exit(&d);
}

/* A rotation's step gives the drain the next file: the next pass writes
 * there, the old file gets nothing more. */
struct rotate {
	struct drain *d;
	struct writer *next;
	int calls;
};

static int rotate_step(void *arg)
{
	struct rotate *r = arg;

	if (r->calls++ == 0)
		drain__set_writer(r->d, r->next);
	return DRAIN_GO_ON;
}

static bool stop_after_two(void *arg)
{
	int *n = arg;

	return ++*n >= 2;
}

static void test_set_writer_and_rounds(void **state)
{
	struct fixture *f = *state;
	char path2[160];
	uint64_t off1, off2;
	struct writer *w1 = open_writer(f->path, &off1), *w2;
	struct rotate rot;
	struct stream s;
	struct drain d;
	sigset_t mask;
	int stops = 0;

	snprintf(path2, sizeof(path2), "%s/next.data", f->dir);
	w2 = open_writer(path2, &off2);
	sigemptyset(&mask);
	init(&d, f, w1);
	rot = (struct rotate){ .d = &d, .next = w2 };
	assert_true(drain__rounds(&d));
	drain__hold_rounds(&d, true);
	assert_false(drain__rounds(&d));
	assert_int_equal(drain__add_between(&d, rotate_step, &rot), 0);
	assert_int_equal(drain__want_tick(&d, 1), 0);
	std_stream(&s);
	publish(f, TAIL, &s);
	/* Pass 1 into w1 (no round: held), the step moves to w2; pass 2 finds
	 * nothing. */
	assert_int_equal(drain__run(&d, NULL, 0, false, stop_after_two, &stops, &mask), 0);
	assert_int_equal(rot.calls, 2);
	assert_int_equal(writer__data_size(w1), 168);
	assert_int_equal(writer__data_size(w2), 0);
	/* Rounds given back: the next records go to w2 with their round. */
	drain__hold_rounds(&d, false);
	publish(f, TAIL + 168, &s);
	assert_int_equal(drain__pass(&d), 168);
	assert_int_equal(writer__data_size(w1), 168);
	assert_int_equal(writer__data_size(w2), 168 + 8);
	assert_int_equal(writer__finish(w1, NULL), 0);
	assert_int_equal(writer__finish(w2, NULL), 0);
	drain__exit(&d);
	unlink(path2);
}

static void count_held(void *arg, const struct drain_stats *pass)
{
	*(uint64_t *)arg += pass->held;
}

/* --mmap-flush: a ring under the mark waits, and the pass says it left data
 * behind (the side-band log then keeps an exited process's maps). */
static void test_flush_mark_held(void **state)
{
	struct fixture *f = *state;
	uint64_t off, held = 0;
	struct writer *w = open_writer(f->path, &off);
	struct drain_config c = { .nr_rings = 1, .writer = w, .time_off = TIME_OFF, .flush = 1024 };
	struct drain_hook hook = { .on_pass = count_held, .arg = &held };
	struct stream s;
	struct drain d;

	assert_int_equal(drain__init(&d, &f->ring, &c), 0);
	assert_int_equal(drain__add_hook(&d, &hook), 0);
	std_stream(&s);
	publish(f, TAIL, &s);
	assert_int_equal(drain__pass(&d), 0);
	assert_int_equal(held, 1);
	assert_int_equal(writer__data_size(w), 0);
	drain__exit(&d);
	/* Without a mark the ring is drained, and an empty one holds nothing. */
	c.flush = 0;
	held = 0;
	assert_int_equal(drain__init(&d, &f->ring, &c), 0);
	assert_int_equal(drain__add_hook(&d, &hook), 0);
	assert_int_equal(drain__pass(&d), 168);
	assert_int_equal(drain__pass(&d), 0);
	assert_int_equal(held, 0);
	assert_int_equal(writer__finish(w, NULL), 0);
	drain__exit(&d);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ticks, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_between_steps, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_set_writer_and_rounds, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_flush_mark_held, fixture_setup, fixture_teardown),
	};
	/* clang-format on */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
