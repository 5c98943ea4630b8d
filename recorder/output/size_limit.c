// SPDX-License-Identifier: GPL-2.0-only
/* --max-size and --switch-output=SIZE's cut: the one size-limit policy
 * (size_limit.h). */
#include <stdio.h>

#include "prec/log.h"
#include "prec/event.h"
#include "output/output_config.h"
#include "output/size_limit.h"

/* bytes off the budget; what it cannot cover goes past the limit. */
static void size_limit__take(struct size_limit *sl, uint64_t bytes)
{
	uint_fast64_t left = atomic_load(&sl->budget);

	if (!sl->limit || !bytes)
		return;
	while (!atomic_compare_exchange_weak(&sl->budget, &left, left > bytes ? left - bytes : 0))
		;
	if (bytes > left)
		atomic_fetch_add(&sl->over, bytes - left);
}

/* The side-band made since the last call, off the budget. */
static void size_limit__absorb(struct size_limit *sl)
{
	size_limit__take(sl, atomic_exchange(&sl->fresh, 0));
}

void size_limit__begin_file(struct size_limit *sl, const struct output_config *cfg, uint64_t front)
{
	uint64_t limit = cfg->max_size, room = 0;
	bool switch_cut = cfg->switch_size && !cfg->pipe;

	if (switch_cut && (!limit || cfg->switch_size < limit))
		limit = cfg->switch_size;
	if (limit > front)
		room = limit - front;
	else if (limit && limit == cfg->switch_size && switch_cut &&
		 (!cfg->max_size || cfg->max_size > limit))
		room = UINT64_MAX;
	else if (limit)
		room = 1;
	sl->cfg = cfg;
	sl->limit = room;
	sl->front = front;
	atomic_store(&sl->budget, room);
	atomic_store(&sl->over, 0);
	atomic_store(&sl->full, false);
	size_limit__absorb(sl);
}

bool size_limit__active(const struct size_limit *sl)
{
	const struct output_config *cfg = sl->cfg;

	return cfg && (cfg->max_size || (cfg->switch_size && !cfg->pipe));
}

void size_limit__made(struct size_limit *sl, uint64_t bytes)
{
	atomic_fetch_add(&sl->ahead, bytes);
	atomic_fetch_add(&sl->fresh, bytes);
}

void size_limit__spend(struct size_limit *sl, uint64_t bytes)
{
	uint_fast64_t ahead, was;

	/* What was made is taken first, then what the bytes add to it. */
	size_limit__absorb(sl);
	ahead = atomic_load(&sl->ahead);
	do {
		was = ahead < bytes ? ahead : bytes;
	} while (!atomic_compare_exchange_weak(&sl->ahead, &ahead, ahead - was));
	size_limit__take(sl, bytes - was);
}

void size_share__init(struct size_share *sh, struct size_limit *sl)
{
	sh->set = sl;
	sh->room = 0;
	sh->capped = false;
}

/* Takes at least need - room more bytes from the budget (a grain when it
 * has one). false: the budget cannot hold need. */
static bool size_share__reserve(struct size_share *sh, uint64_t need)
{
	struct size_limit *sl = sh->set;
	uint_fast64_t left = atomic_load_explicit(&sl->budget, memory_order_relaxed);

	for (;;) {
		uint64_t want = need - sh->room;

		if (want < SIZE_LIMIT_GRAIN)
			want = SIZE_LIMIT_GRAIN;
		if (want > left)
			want = left;
		if (sh->room + want < need)
			return false;
		if (atomic_compare_exchange_weak_explicit(&sl->budget, &left, left - want,
							  memory_order_relaxed,
							  memory_order_relaxed)) {
			sh->room += want;
			return true;
		}
	}
}

enum drain_verdict size_share__cut(void *arg, const struct ring *r, uint64_t pos,
				   const struct perf_event_header *h)
{
	struct size_share *sh = arg;
	struct size_limit *sl = sh->set;

	/* Side-band made meanwhile will land in this file: it takes the
	 * share's room first, then the budget. */
	if (atomic_load_explicit(&sl->fresh, memory_order_relaxed)) {
		uint64_t made = atomic_exchange(&sl->fresh, 0);
		uint64_t mine = made < sh->room ? made : sh->room;

		sh->room -= mine;
		size_limit__take(sl, made - mine);
	}
	if (h->size > sh->room && (atomic_load_explicit(&sh->set->full, memory_order_relaxed) ||
				   !size_share__reserve(sh, h->size))) {
		sh->capped = true;
		return DRAIN_CUT;
	}
	sh->room -= h->size;
	return DRAIN_KEEP;
}

int size_share__between(void *arg)
{
	struct size_share *sh = arg;
	struct size_limit *sl = sh->set;

	if (!sh->capped && !atomic_load_explicit(&sl->full, memory_order_relaxed))
		return DRAIN_GO_ON;
	size_limit__absorb(sl);
	atomic_store(&sl->full, true);
	size_limit__stop(sl, sl->front + sl->limit - atomic_load(&sl->budget) +
				     atomic_load(&sl->over));
	return DRAIN_END;
}

bool size_limit__full(const struct output_config *cfg, uint64_t size, bool capped)
{
	/* A cut at the cap is the smaller of the two limits. */
	return cfg->max_size &&
	       (size >= cfg->max_size ||
		(capped && (!cfg->switch_size || cfg->pipe || cfg->max_size <= cfg->switch_size)));
}

void size_limit__stop(struct size_limit *sl, uint64_t size)
{
	if (atomic_exchange(&sl->reached, true))
		return;
	pr_info("[ prec record: perf size limit reached (%llu KB), stopping session ]\n",
		(unsigned long long)(size >> 10));
}

bool size_limit__reached(const struct size_limit *sl)
{
	return atomic_load(&sl->reached);
}
