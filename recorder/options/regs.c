// SPDX-License-Identifier: GPL-2.0-only
/* Register and branch-filter names (regs.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <linux/perf_event.h>

#include "options/regs.h"

struct name_bit {
	const char *name;
	int bit;
};

#ifdef __x86_64__
/* arch/x86/include/uapi/asm/perf_regs.h; DS, ES, FS, GS are not sampled on x86-64. */
static const struct name_bit reg_names[] = {
	{ "ax", 0 },	{ "bx", 1 },	{ "cx", 2 },	{ "dx", 3 },	{ "si", 4 },
	{ "di", 5 },	{ "bp", 6 },	{ "sp", 7 },	{ "ip", 8 },	{ "flags", 9 },
	{ "cs", 10 },	{ "ss", 11 },	{ "r8", 16 },	{ "r9", 17 },	{ "r10", 18 },
	{ "r11", 19 },	{ "r12", 20 },	{ "r13", 21 },	{ "r14", 22 },	{ "r15", 23 },
};
#define NR_REGS (sizeof(reg_names) / sizeof(reg_names[0]))
#else
static const struct name_bit reg_names[1];
#define NR_REGS 0
#endif

uint64_t regs__default_mask(void)
{
	uint64_t mask = 0;

	for (size_t i = 0; i < NR_REGS; i++)
		mask |= 1ULL << reg_names[i].bit;
	return mask;
}

static void list_names(char *buf, size_t len, const struct name_bit *v, size_t n)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " " : "", v[i].name);
}

/*
 * Splits list at commas and ORs each name's bit; 0 or -EINVAL with the bad
 * name in bad, always set ("" for an empty list or an empty name, as perf
 * reports `--user-regs=` and `-j ''`).
 */
static int parse_names(const char *list, const struct name_bit *v, size_t n, uint64_t *bits,
		       char *bad, size_t badlen)
{
	const char *p = list;

	*bits = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		size_t i;

		for (i = 0; i < n; i++)
			if (strlen(v[i].name) == len && !strncasecmp(v[i].name, p, len))
				break;
		if (i == n || !len) {
			snprintf(bad, badlen, "%.*s", (int)len, p);
			return -EINVAL;
		}
		*bits |= 1ULL << v[i].bit;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

int regs__parse(const char *list, uint64_t *mask, struct prec_err *e)
{
	char bad[64], names[256];

	if (!NR_REGS)
		return prec_err__set(e, -EOPNOTSUPP,
				     "register sampling is not supported on this architecture yet");
	list_names(names, sizeof(names), reg_names, NR_REGS);
	if (parse_names(list, reg_names, NR_REGS, mask, bad, sizeof(bad)))
		return prec_err__set(e, -EINVAL, "unknown register '%s' (available registers: %s)",
				     bad, names);
	return 0;
}

/*
 * perf 6.1's -j names, with the bit each one sets ("stack" and "priv" are its
 * spellings of call_stack and priv_save), then the kernel's names of the
 * bits it has no name for, which prec also takes, and perf 6.8's counter
 * (PERF_SAMPLE_BRANCH_COUNTERS, bit 19: older uapi headers lack it).
 */
static const struct name_bit branch_names[] = {
	{ "u", 0 },	      { "k", 1 },	  { "hv", 2 },	       { "any", 3 },
	{ "any_call", 4 },    { "any_ret", 5 },	  { "ind_call", 6 },   { "abort_tx", 7 },
	{ "in_tx", 8 },	      { "no_tx", 9 },	  { "cond", 10 },      { "stack", 11 },
	{ "ind_jmp", 12 },    { "call", 13 },	  { "save_type", 16 }, { "priv", 18 },
	{ "call_stack", 11 }, { "no_flags", 14 }, { "no_cycles", 15 }, { "hw_index", 17 },
	{ "priv_save", 18 },  { "counter", 19 },
};
#define NR_BRANCH (sizeof(branch_names) / sizeof(branch_names[0]))

int branch_filter__parse(const char *list, uint64_t *bits, struct prec_err *e)
{
	const uint64_t plm = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL |
			     PERF_SAMPLE_BRANCH_HV;
	char bad[64], names[512];

	if (parse_names(list, branch_names, NR_BRANCH, bits, bad, sizeof(bad))) {
		list_names(names, sizeof(names), branch_names, NR_BRANCH);
		return prec_err__set(e, -EINVAL,
				     "unknown branch filter '%s' for -j (available: %s)", bad,
				     names);
	}
	/* Only privilege levels: perf 6.1 asks for any branch and leaves the
	 * levels to the event's own exclude bits (-j u is ANY, not ANY|USER). */
	if (!(*bits & ~plm))
		*bits = PERF_SAMPLE_BRANCH_ANY;
	return 0;
}
