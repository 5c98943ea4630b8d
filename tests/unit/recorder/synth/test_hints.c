// SPDX-License-Identifier: GPL-2.0-only
/*
 * synth_hints (recorder/synth/hints.c): the pids the drains saw samples of
 * reach the background walk once each, in order, only when the walk listed
 * them and no worker took them yet; hostile pids (0, negative, past the
 * kernel's limit) are ignored; the queue's overflow only loses the
 * priority, never a pid's "sampled" mark; and several threads adding and
 * taking at once claim each pid exactly once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "recorder/synth/hints.h"

static void test_order_and_claims(void **state)
{
	const pid_t listed[] = { 10, 20, 30, 40 };
	struct synth_hints *h;

	(void)state;
	assert_int_equal(synth_hints__new(&h), 0);
	synth_hints__list(h, listed, 4);
	assert_int_equal(synth_hints__take(h), 0);
	synth_hints__add(h, 30);
	synth_hints__add(h, 99); /* born after the listing */
	synth_hints__add(h, 30); /* again: queued once */
	synth_hints__add(h, 20);
	assert_true(synth_hints__claim(h, 20)); /* the walk met it first */
	assert_int_equal(synth_hints__take(h), 30);
	assert_int_equal(synth_hints__take(h), 0); /* 99 unlisted, 20 claimed */
	assert_false(synth_hints__claim(h, 30)); /* its place in the walk is skipped */
	assert_true(synth_hints__claim(h, 40));
	assert_true(synth_hints__has(h, 99) && synth_hints__has(h, 20));
	assert_false(synth_hints__has(h, 40));
	assert_false(synth_hints__closed(h));
	synth_hints__close(h);
	assert_true(synth_hints__closed(h));
	synth_hints__delete(h);
	synth_hints__delete(NULL);
}

static void test_hostile_pids(void **state)
{
	const pid_t listed[] = { 0, -1, (pid_t)SYNTH_HINTS_PID_LIMIT, 5 };
	struct synth_hints *h;

	(void)state;
	assert_int_equal(synth_hints__new(&h), 0);
	synth_hints__list(h, listed, 4);
	synth_hints__add(h, 0);
	synth_hints__add(h, -1);
	synth_hints__add(h, (pid_t)SYNTH_HINTS_PID_LIMIT);
	synth_hints__add(h, (pid_t)SYNTH_HINTS_PID_LIMIT - 1);
	assert_false(synth_hints__has(h, 0));
	assert_false(synth_hints__has(h, -1));
	assert_false(synth_hints__has(h, (pid_t)SYNTH_HINTS_PID_LIMIT));
	assert_true(synth_hints__has(h, (pid_t)SYNTH_HINTS_PID_LIMIT - 1));
	assert_int_equal(synth_hints__take(h), 0); /* the last one was never listed */
	/* A pid the bitmaps cannot hold is always the walk's to read. */
	assert_true(synth_hints__claim(h, (pid_t)SYNTH_HINTS_PID_LIMIT));
	assert_true(synth_hints__claim(h, (pid_t)SYNTH_HINTS_PID_LIMIT));
	synth_hints__delete(h);
}

static void test_queue_full(void **state)
{
	struct synth_hints *h;
	pid_t *all = calloc(SYNTH_HINTS_QUEUE + 10, sizeof(*all));
	size_t taken = 0;

	(void)state;
	assert_non_null(all);
	assert_int_equal(synth_hints__new(&h), 0);
	for (size_t i = 0; i < SYNTH_HINTS_QUEUE + 10; i++)
		all[i] = (pid_t)(i + 1);
	synth_hints__list(h, all, SYNTH_HINTS_QUEUE + 10);
	for (size_t i = 0; i < SYNTH_HINTS_QUEUE + 10; i++)
		synth_hints__add(h, all[i]);
	while (synth_hints__take(h) > 0)
		taken++;
	assert_int_equal(taken, SYNTH_HINTS_QUEUE);
	/* Past the queue: still sampled (a cut file keeps them), and the walk's. */
	assert_true(synth_hints__has(h, (pid_t)SYNTH_HINTS_QUEUE + 5));
	assert_true(synth_hints__claim(h, (pid_t)SYNTH_HINTS_QUEUE + 5));
	synth_hints__delete(h);
	free(all);
}

#define NR_PIDS 20000
#define NR_THREADS 4

struct race {
	struct synth_hints *h;
	atomic_int claims[NR_PIDS + 1];
	int who;
};

/* Half the threads add every pid and take; the others walk, claiming. */
static void *race__run(void *arg)
{
	struct race *r = arg;
	int me = __atomic_fetch_add(&r->who, 1, __ATOMIC_RELAXED);
	pid_t p;

	for (pid_t pid = 1; pid <= NR_PIDS; pid++) {
		if (me % 2) {
			synth_hints__add(r->h, pid);
			while ((p = synth_hints__take(r->h)) > 0)
				atomic_fetch_add(&r->claims[p], 1);
		} else if (synth_hints__claim(r->h, pid)) {
			atomic_fetch_add(&r->claims[pid], 1);
		}
	}
	return NULL;
}

static void test_threads_claim_once(void **state)
{
	struct race *r = calloc(1, sizeof(*r));
	pid_t *all = calloc(NR_PIDS, sizeof(*all));
	pthread_t t[NR_THREADS];

	(void)state;
	assert_non_null(r);
	assert_non_null(all);
	assert_int_equal(synth_hints__new(&r->h), 0);
	for (int i = 0; i < NR_PIDS; i++)
		all[i] = i + 1;
	synth_hints__list(r->h, all, NR_PIDS);
	for (int i = 0; i < NR_THREADS; i++)
		assert_int_equal(pthread_create(&t[i], NULL, race__run, r), 0);
	for (int i = 0; i < NR_THREADS; i++)
		pthread_join(t[i], NULL);
	for (int pid = 1; pid <= NR_PIDS; pid++)
		assert_int_equal(atomic_load(&r->claims[pid]), 1);
	synth_hints__delete(r->h);
	free(all);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_and_claims),
		cmocka_unit_test(test_hostile_pids),
		cmocka_unit_test(test_queue_full),
		cmocka_unit_test(test_threads_claim_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
