#ifndef PREC_RECORDER_CALLCHAIN_H
#define PREC_RECORDER_CALLCHAIN_H
/* -g, --call-graph and the call-graph= / stack-size= / max-stack= terms. */
#include <stdbool.h>
#include <stddef.h>

#include "prec/error.h"
#include <stdint.h>

struct perf_event_attr;

enum callchain_mode { CALLCHAIN_NONE, CALLCHAIN_FP, CALLCHAIN_DWARF, CALLCHAIN_LBR };

struct callchain_param {
	enum callchain_mode mode;
	uint32_t dump_size; /* dwarf: bytes of user stack per sample (perf: 8192) */
	uint32_t max_stack; /* sample_max_stack; 0: the kernel's sysctl */
	bool has_max_stack; /* callchain__parse: "fp,N" gave max_stack */
	/* dwarf: the data addresses too (ADDR, DATA_SRC), as perf's
	 * --call-graph dwarf and call-graph=dwarf terms; callchain__parse sets it */
	bool data_addr;
};

#define CALLCHAIN_DEFAULT_DUMP 8192
#define CALLCHAIN_MAX_DUMP 65528 /* the u16 record size, 8-aligned, as perf */

/*
 * Parses "fp[,DEPTH]", "dwarf[,SIZE]", "lbr" or "no" as perf's --call-graph
 * does (SIZE rounded up to 8, at most 65528; DEPTH a whole number to 65535,
 * sample_max_stack, with has_max_stack set). Pure. 0, or -EINVAL with one
 * line.
 */
int callchain__parse(const char *str, struct callchain_param *p, struct prec_err *e);

/*
 * Sets the attr as perf's evsel__config_callchain: CALLCHAIN, and for dwarf
 * the user registers and stack copy (and ADDR and DATA_SRC with
 * p->data_addr), for lbr the call-stack branch sampling.
 * user_only/kernel_only: --user-callchains / --kernel-callchains.
 */
void callchain__config(struct perf_event_attr *attr, const struct callchain_param *p,
		       uint64_t regs_mask, int user_only, int kernel_only);

#endif
