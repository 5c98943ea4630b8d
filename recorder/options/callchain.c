// SPDX-License-Identifier: GPL-2.0-only
/* Call-graph options as perf record reads and applies them (callchain.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "options/callchain.h"

int callchain__parse(const char *str, struct callchain_param *p, struct prec_err *e)
{
	const char *comma = strchr(str, ',');
	size_t len = comma ? (size_t)(comma - str) : strlen(str);

	p->dump_size = CALLCHAIN_DEFAULT_DUMP;
	if (len == 2 && !strncmp(str, "fp", 2))
		p->mode = CALLCHAIN_FP;
	else if (len == 5 && !strncmp(str, "dwarf", 5))
		p->mode = CALLCHAIN_DWARF;
	else if (len == 3 && !strncmp(str, "lbr", 3))
		p->mode = CALLCHAIN_LBR;
	else if (len == 2 && !strncmp(str, "no", 2))
		p->mode = CALLCHAIN_NONE;
	else {
		return prec_err__set(
			e, -EINVAL,
			"unknown --call-graph mode '%.*s' (use fp, dwarf[,size], lbr or no)",
			(int)len, str);
	}
	if (comma && p->mode == CALLCHAIN_FP) {
		char *end;
		unsigned long v;

		/* perf's fp,N: the depth of each callchain (sample_max_stack).
		 * perf takes "32x" as 32 and drops a depth at or past the
		 * sysctl without a word; prec takes a whole number only, and
		 * a depth past kernel.perf_event_max_stack is refused at open. */
		errno = 0;
		v = strtoul(comma + 1, &end, 0);
		if (!comma[1] || *end || errno || comma[1] == '-' || v > UINT16_MAX)
			return prec_err__set(
				e, -EINVAL,
				"incorrect --call-graph fp depth '%s' (give the frames to keep, 1 to %d; 0 is kernel.perf_event_max_stack)",
				comma + 1, (int)UINT16_MAX);
		p->max_stack = (uint32_t)v;
		p->has_max_stack = true;
	} else if (comma) {
		char *end;
		unsigned long v;

		if (p->mode != CALLCHAIN_DWARF)
			return prec_err__set(
				e, -EINVAL,
				"only --call-graph dwarf takes a stack dump size, and fp a depth ('%s')",
				str);
		v = strtoul(comma + 1, &end, 0);
		v = (v + 7) & ~7UL;
		if (!comma[1] || *end || comma[1] == '-' || !v || v > CALLCHAIN_MAX_DUMP)
			return prec_err__set(
				e, -EINVAL,
				"incorrect --call-graph stack dump size '%s' (give 8 to %d bytes)",
				comma + 1, CALLCHAIN_MAX_DUMP);
		p->dump_size = (uint32_t)v;
	}
	p->data_addr = p->mode == CALLCHAIN_DWARF;
	return 0;
}

void callchain__config(struct perf_event_attr *attr, const struct callchain_param *p,
		       uint64_t regs_mask, int user_only, int kernel_only)
{
	if (p->mode == CALLCHAIN_NONE && !p->max_stack)
		return;
	attr->sample_type |= PERF_SAMPLE_CALLCHAIN;
	attr->sample_max_stack = (uint16_t)p->max_stack;
	if (kernel_only)
		attr->exclude_callchain_user = 1;
	if (user_only)
		attr->exclude_callchain_kernel = 1;
	if (p->mode == CALLCHAIN_LBR) {
		attr->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		attr->branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
					   PERF_SAMPLE_BRANCH_NO_CYCLES |
					   PERF_SAMPLE_BRANCH_NO_FLAGS |
					   PERF_SAMPLE_BRANCH_HW_INDEX;
	} else if (p->mode == CALLCHAIN_DWARF) {
		/* The stack copy and registers a reader unwinds from; perf 6.1
		 * samples data addresses with a dwarf mode it parsed (-g with a
		 * configured dwarf mode does not: evsel adds them for -d). */
		attr->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		if (p->data_addr)
			attr->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
		attr->sample_regs_user |= regs_mask;
		attr->sample_stack_user = p->dump_size;
		attr->exclude_callchain_user = 1;
	}
}
