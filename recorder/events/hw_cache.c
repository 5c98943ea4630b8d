// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hardware cache events (PERF_TYPE_HW_CACHE): perf 6.1's names and aliases
 * for the caches, operations and results, which operations each cache
 * has, and the names perf gives them back (util/evsel.c's tables).
 * config = cache | op << 8 | result << 16.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "events/parse_events_int.h"

#define MAX_ALIASES 5

static const char *const cache_names[PERF_COUNT_HW_CACHE_MAX][MAX_ALIASES] = {
	[PERF_COUNT_HW_CACHE_L1D] = { "L1-dcache", "l1-d", "l1d", "L1-data" },
	[PERF_COUNT_HW_CACHE_L1I] = { "L1-icache", "l1-i", "l1i", "L1-instruction" },
	[PERF_COUNT_HW_CACHE_LL] = { "LLC", "L2" },
	[PERF_COUNT_HW_CACHE_DTLB] = { "dTLB", "d-tlb", "Data-TLB" },
	[PERF_COUNT_HW_CACHE_ITLB] = { "iTLB", "i-tlb", "Instruction-TLB" },
	[PERF_COUNT_HW_CACHE_BPU] = { "branch", "branches", "bpu", "btb", "bpc" },
	[PERF_COUNT_HW_CACHE_NODE] = { "node" },
};

static const char *const op_names[PERF_COUNT_HW_CACHE_OP_MAX][MAX_ALIASES] = {
	[PERF_COUNT_HW_CACHE_OP_READ] = { "load", "loads", "read" },
	[PERF_COUNT_HW_CACHE_OP_WRITE] = { "store", "stores", "write" },
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = { "prefetch", "prefetches", "speculative-read",
					      "speculative-load" },
};

static const char *const result_names[PERF_COUNT_HW_CACHE_RESULT_MAX][MAX_ALIASES] = {
	[PERF_COUNT_HW_CACHE_RESULT_ACCESS] = { "refs", "Reference", "ops", "access" },
	[PERF_COUNT_HW_CACHE_RESULT_MISS] = { "misses", "miss" },
};

#define OP(x) (1u << PERF_COUNT_HW_CACHE_OP_##x)

/* The operations each cache counts (perf's evsel__hw_cache_stat). */
static const unsigned cache_ops[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D] = OP(READ) | OP(WRITE) | OP(PREFETCH),
	[PERF_COUNT_HW_CACHE_L1I] = OP(READ) | OP(PREFETCH),
	[PERF_COUNT_HW_CACHE_LL] = OP(READ) | OP(WRITE) | OP(PREFETCH),
	[PERF_COUNT_HW_CACHE_DTLB] = OP(READ) | OP(WRITE) | OP(PREFETCH),
	[PERF_COUNT_HW_CACHE_ITLB] = OP(READ),
	[PERF_COUNT_HW_CACHE_BPU] = OP(READ),
	[PERF_COUNT_HW_CACHE_NODE] = OP(READ) | OP(WRITE) | OP(PREFETCH),
};

/*
 * The longest alias in names[nr] that word[pos..len) starts with and that
 * ends at a '-' or the end, as the lexer would cut it. Returns the index
 * and sets *tok_len, or -1.
 */
static int match_token(const char *const names[][MAX_ALIASES], int nr, const char *word, size_t len,
		       size_t pos, size_t *tok_len)
{
	int best = -1;

	*tok_len = 0;
	for (int i = 0; i < nr; i++) {
		for (int j = 0; j < MAX_ALIASES && names[i][j]; j++) {
			size_t n = strlen(names[i][j]);

			/* "branches" lexes as the hardware event, never as a cache. */
			if (names == cache_names && !strcmp(names[i][j], "branches"))
				continue;
			if (n > len - pos || n <= *tok_len || strncmp(word + pos, names[i][j], n))
				continue;
			if (pos + n < len && word[pos + n] != '-')
				continue;
			best = i;
			*tok_len = n;
		}
	}
	return best;
}

static int match_op_result(const char *word, size_t len, size_t pos, size_t *tok_len, int *op,
			   int *result)
{
	size_t n_op, n_res;
	int o = match_token(op_names, PERF_COUNT_HW_CACHE_OP_MAX, word, len, pos, &n_op);
	int r = match_token(result_names, PERF_COUNT_HW_CACHE_RESULT_MAX, word, len, pos, &n_res);

	*op = -1;
	*result = -1;
	if (o < 0 && r < 0)
		return -1;
	if (o >= 0 && (r < 0 || n_op >= n_res)) {
		*op = o;
		*tok_len = n_op;
	} else {
		*result = r;
		*tok_len = n_res;
	}
	return 0;
}

int hw_cache__parse(struct pe_state *st, const char *word, size_t len, size_t off, uint64_t *config)
{
	int parts_op[2] = { -1, -1 }, parts_res[2] = { -1, -1 };
	int type, op = -1, result = -1, nr = 0;
	size_t pos, n;

	type = match_token(cache_names, PERF_COUNT_HW_CACHE_MAX, word, len, 0, &n);
	if (type < 0)
		return 0;
	pos = n;
	while (pos < len) {
		if (nr == 2 || word[pos] != '-' || pos + 1 >= len)
			return 0;
		pos++;
		if (match_op_result(word, len, pos, &n, &parts_op[nr], &parts_res[nr]))
			return 0;
		pos += n;
		nr++;
	}
	/*
	 * perf's parse_events_add_cache: each part is the operation while none
	 * is set, then the result; a part that fits neither slot is ignored.
	 */
	for (int i = 0; i < nr; i++) {
		if (op < 0 && parts_op[i] >= 0) {
			op = parts_op[i];
			if (!(cache_ops[type] & (1u << op))) {
				char takes[64] = "";
				size_t m = 0;

				for (int k = 0; k < PERF_COUNT_HW_CACHE_OP_MAX; k++)
					if (cache_ops[type] & (1u << k))
						m += (size_t)snprintf(takes + m, sizeof(takes) - m,
								      "%s%s", m ? ", " : "",
								      op_names[k][0]);
				char hint[96];

				snprintf(hint, sizeof(hint), "%s counts: %s", cache_names[type][0],
					 takes);
				return pe_error(
					st, off, hint,
					"cache event '%.*s' asks %s for '%s', which it does not count",
					(int)len, word, cache_names[type][0], op_names[op][0]);
			}
			continue;
		}
		if (result < 0 && parts_res[i] >= 0)
			result = parts_res[i];
	}
	if (op < 0)
		op = PERF_COUNT_HW_CACHE_OP_READ;
	if (result < 0)
		result = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	*config = (uint64_t)type | (uint64_t)op << 8 | (uint64_t)result << 16;
	return 1;
}

static int cache_name(char *buf, size_t size, int type, int op, int result)
{
	if (result == PERF_COUNT_HW_CACHE_RESULT_ACCESS)
		return snprintf(buf, size, "%s-%s", cache_names[type][0], op_names[op][1]);
	return snprintf(buf, size, "%s-%s-%s", cache_names[type][0], op_names[op][0],
			result_names[result][0]);
}

int event_name__hw_cache(char *buf, size_t size, uint64_t config)
{
	uint64_t type = config & 0xff, op = (config >> 8) & 0xff, result = (config >> 16) & 0xff;

	if ((config >> 24) || type >= PERF_COUNT_HW_CACHE_MAX || op >= PERF_COUNT_HW_CACHE_OP_MAX ||
	    result >= PERF_COUNT_HW_CACHE_RESULT_MAX || !(cache_ops[type] & (1u << op)))
		return -EINVAL;
	return cache_name(buf, size, (int)type, (int)op, (int)result);
}

void hw_cache__for_each(void (*fn)(void *arg, const char *name, uint64_t config), void *arg)
{
	for (int type = 0; type < PERF_COUNT_HW_CACHE_MAX; type++) {
		for (int op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			if (!(cache_ops[type] & (1u << op)))
				continue;
			for (int res = 0; res < PERF_COUNT_HW_CACHE_RESULT_MAX; res++) {
				char name[64];

				cache_name(name, sizeof(name), type, op, res);
				fn(arg, name,
				   (uint64_t)type | (uint64_t)op << 8 | (uint64_t)res << 16);
			}
		}
	}
}
