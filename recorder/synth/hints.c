// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pids the recording has samples of, for the background side-band
 * (hints.h): three bitmaps over every possible pid (added, listed by the
 * walk, claimed by a worker) and a small queue of the added ones. The
 * bitmaps are calloc'd, so only their pages that pids fall in are ever
 * touched; the queue takes a lock once per new pid, never per sample.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "synth/hints.h"

#define WORDS (SYNTH_HINTS_PID_LIMIT / 64)

struct synth_hints {
	_Atomic uint64_t *added, *listed, *claimed; /* WORDS each */
	pthread_mutex_t lock; /* queue, head, tail */
	pid_t queue[SYNTH_HINTS_QUEUE];
	size_t tail;
	atomic_size_t head; /* written under the lock, read without it */
	atomic_size_t queued; /* tail, read without the lock */
	atomic_bool closed;
};

int synth_hints__new(struct synth_hints **out)
{
	struct synth_hints *h = calloc(1, sizeof(*h));

	*out = NULL;
	if (!h)
		return -ENOMEM;
	h->added = calloc(WORDS, sizeof(*h->added));
	h->listed = calloc(WORDS, sizeof(*h->listed));
	h->claimed = calloc(WORDS, sizeof(*h->claimed));
	if (!h->added || !h->listed || !h->claimed) {
		synth_hints__delete(h);
		return -ENOMEM;
	}
	pthread_mutex_init(&h->lock, NULL);
	*out = h;
	return 0;
}

void synth_hints__delete(struct synth_hints *h)
{
	if (!h)
		return;
	if (h->added && h->listed && h->claimed)
		pthread_mutex_destroy(&h->lock);
	free(h->added);
	free(h->listed);
	free(h->claimed);
	free(h);
}

static bool valid(pid_t pid)
{
	return pid > 0 && (unsigned)pid < SYNTH_HINTS_PID_LIMIT;
}

/* Sets pid's bit in map: true when this call set it. */
static bool bit_set(_Atomic uint64_t *map, pid_t pid)
{
	uint64_t bit = 1ull << ((unsigned)pid % 64);

	return !(atomic_fetch_or_explicit(&map[(unsigned)pid / 64], bit, memory_order_relaxed) &
		 bit);
}

static bool bit_test(const _Atomic uint64_t *map, pid_t pid)
{
	uint64_t bit = 1ull << ((unsigned)pid % 64);

	return atomic_load_explicit(&map[(unsigned)pid / 64], memory_order_relaxed) & bit;
}

void synth_hints__add(struct synth_hints *h, pid_t pid)
{
	/* A test first: a sample of a known pid costs one load. */
	if (!valid(pid) || bit_test(h->added, pid) || !bit_set(h->added, pid))
		return;
	pthread_mutex_lock(&h->lock);
	if (h->tail < SYNTH_HINTS_QUEUE) {
		h->queue[h->tail++] = pid;
		atomic_store_explicit(&h->queued, h->tail, memory_order_release);
	}
	pthread_mutex_unlock(&h->lock);
}

bool synth_hints__has(const struct synth_hints *h, pid_t pid)
{
	return valid(pid) && bit_test(h->added, pid);
}

void synth_hints__list(struct synth_hints *h, const pid_t *pids, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (valid(pids[i]))
			bit_set(h->listed, pids[i]);
}

bool synth_hints__claim(struct synth_hints *h, pid_t pid)
{
	/* A pid past the limit cannot be hinted: its walk is its only way. */
	return !valid(pid) || bit_set(h->claimed, pid);
}

pid_t synth_hints__take(struct synth_hints *h)
{
	pid_t pid = 0;

	/* Between two processes of the walk: no lock when nothing is new. */
	if (atomic_load_explicit(&h->queued, memory_order_acquire) == atomic_load(&h->head))
		return 0;
	pthread_mutex_lock(&h->lock);
	while (!pid && atomic_load(&h->head) < h->tail) {
		pid_t p = h->queue[atomic_fetch_add(&h->head, 1)];

		/* A process born after the listing has its records from the
		 * kernel; one the walk met already is not read twice. */
		if (bit_test(h->listed, p) && bit_set(h->claimed, p))
			pid = p;
	}
	pthread_mutex_unlock(&h->lock);
	return pid;
}

void synth_hints__close(struct synth_hints *h)
{
	atomic_store_explicit(&h->closed, true, memory_order_relaxed);
}

bool synth_hints__closed(const struct synth_hints *h)
{
	return atomic_load_explicit(&h->closed, memory_order_relaxed);
}
