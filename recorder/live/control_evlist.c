// SPDX-License-Identifier: GPL-2.0-only
/* The --control commands that act on the events: enable, disable, evlist
 * (control_evlist.h). */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "evlist/evlist.h"
#include "prec/log.h"
#include "live/control_evlist.h"

/* The tracking dummy perf adds for -a/-C/-D: always on (see toggle). */
static bool evsel__is_dummy(const struct evsel *e)
{
	return e->attr.type == PERF_TYPE_SOFTWARE && e->attr.config == PERF_COUNT_SW_DUMMY;
}

void control_evlist__toggle(struct evlist *evlist, const char *name, size_t len, bool enable)
{
	const char *verb = enable ? "enabled" : "disabled";
	const struct evsel *found = NULL;

	for (int e = 0; e < evlist->nr; e++) {
		struct evsel *evsel = &evlist->evsel[e];

		if (name ? strlen(evsel->name) != len || memcmp(evsel->name, name, len) :
			   evsel__is_dummy(evsel))
			continue;
		if (!found)
			found = evsel;
		if (evsel->leader == evsel->idx)
			evlist__toggle_evsel(evlist, e, enable);
	}
	if (!name)
		pr_info("Events %s\n", verb);
	else if (found)
		pr_info("Event %s %s\n", found->name, verb);
	else
		pr_info("failed: can't find '%.*s' event\n", (int)len, name);
}

/* perf's comma_fprintf: ":" before the first field, "," before the others. */
static void field(FILE *fp, bool *first, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void field(FILE *fp, bool *first, const char *fmt, ...)
{
	va_list ap;

	fputc(*first ? ':' : ',', fp);
	*first = false;
	va_start(ap, fmt);
	vfprintf(fp, fmt, ap);
	va_end(ap);
}

struct bit_name {
	uint64_t bit;
	const char *name;
};

/* perf's bit tables, in its order (perf_event_attr_fprintf.c). */
static const struct bit_name sample_bits[] = {
	{ PERF_SAMPLE_IP, "IP" }, { PERF_SAMPLE_TID, "TID" }, { PERF_SAMPLE_TIME, "TIME" },
	{ PERF_SAMPLE_ADDR, "ADDR" }, { PERF_SAMPLE_READ, "READ" },
	{ PERF_SAMPLE_CALLCHAIN, "CALLCHAIN" }, { PERF_SAMPLE_ID, "ID" },
	{ PERF_SAMPLE_CPU, "CPU" }, { PERF_SAMPLE_PERIOD, "PERIOD" },
	{ PERF_SAMPLE_STREAM_ID, "STREAM_ID" }, { PERF_SAMPLE_RAW, "RAW" },
	{ PERF_SAMPLE_BRANCH_STACK, "BRANCH_STACK" }, { PERF_SAMPLE_REGS_USER, "REGS_USER" },
	{ PERF_SAMPLE_STACK_USER, "STACK_USER" }, { PERF_SAMPLE_IDENTIFIER, "IDENTIFIER" },
	{ PERF_SAMPLE_REGS_INTR, "REGS_INTR" }, { PERF_SAMPLE_DATA_SRC, "DATA_SRC" },
	{ PERF_SAMPLE_WEIGHT, "WEIGHT" }, { PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR" },
	{ PERF_SAMPLE_AUX, "AUX" }, { PERF_SAMPLE_CGROUP, "CGROUP" },
	{ PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
	{ PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
	{ PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" }, { 0, NULL },
};

static const struct bit_name read_bits[] = {
	{ PERF_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED" },
	{ PERF_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING" },
	{ PERF_FORMAT_ID, "ID" }, { PERF_FORMAT_GROUP, "GROUP" }, { 1u << 4, "LOST" },
	{ 0, NULL },
};

static const struct bit_name branch_bits[] = {
	{ PERF_SAMPLE_BRANCH_USER, "USER" }, { PERF_SAMPLE_BRANCH_KERNEL, "KERNEL" },
	{ PERF_SAMPLE_BRANCH_HV, "HV" }, { PERF_SAMPLE_BRANCH_ANY, "ANY" },
	{ PERF_SAMPLE_BRANCH_ANY_CALL, "ANY_CALL" },
	{ PERF_SAMPLE_BRANCH_ANY_RETURN, "ANY_RETURN" },
	{ PERF_SAMPLE_BRANCH_IND_CALL, "IND_CALL" }, { PERF_SAMPLE_BRANCH_ABORT_TX, "ABORT_TX" },
	{ PERF_SAMPLE_BRANCH_IN_TX, "IN_TX" }, { PERF_SAMPLE_BRANCH_NO_TX, "NO_TX" },
	{ PERF_SAMPLE_BRANCH_COND, "COND" }, { PERF_SAMPLE_BRANCH_CALL_STACK, "CALL_STACK" },
	{ PERF_SAMPLE_BRANCH_IND_JUMP, "IND_JUMP" }, { PERF_SAMPLE_BRANCH_CALL, "CALL" },
	{ PERF_SAMPLE_BRANCH_NO_FLAGS, "NO_FLAGS" }, { PERF_SAMPLE_BRANCH_NO_CYCLES, "NO_CYCLES" },
	{ PERF_SAMPLE_BRANCH_TYPE_SAVE, "TYPE_SAVE" }, { PERF_SAMPLE_BRANCH_HW_INDEX, "HW_INDEX" },
	{ 1u << 18, "PRIV_SAVE" }, { 0, NULL },
};

static void bits_field(FILE *fp, bool *first, const char *name, uint64_t v,
		       const struct bit_name *bits)
{
	bool one = true;

	if (!v)
		return;
	field(fp, first, " %s: ", name);
	for (int i = 0; bits[i].name; i++) {
		if (!(v & bits[i].bit))
			continue;
		fprintf(fp, "%s%s", one ? "" : "|", bits[i].name);
		one = false;
	}
}

/* A field perf prints only when set (but type, always). */
#define U(n, v)                                                            \
	do {                                                               \
		if (v)                                                     \
			field(fp, &first, " %s: %" PRIu64, n, (uint64_t)(v)); \
	} while (0)
#define X(n, v)                                                             \
	do {                                                                \
		if (v)                                                      \
			field(fp, &first, " %s: %#" PRIx64, n, (uint64_t)(v)); \
	} while (0)

/* The flag bits, in perf's order; split from attr__fprint for its length. */
static void attr__fprint_flags(const struct perf_event_attr *a, FILE *fp, bool *firstp)
{
	bool first = *firstp;

	U("disabled", a->disabled); U("inherit", a->inherit); U("pinned", a->pinned);
	U("exclusive", a->exclusive); U("exclude_user", a->exclude_user);
	U("exclude_kernel", a->exclude_kernel); U("exclude_hv", a->exclude_hv);
	U("exclude_idle", a->exclude_idle); U("mmap", a->mmap); U("comm", a->comm);
	U("freq", a->freq); U("inherit_stat", a->inherit_stat);
	U("enable_on_exec", a->enable_on_exec); U("task", a->task);
	U("watermark", a->watermark); U("precise_ip", a->precise_ip);
	U("mmap_data", a->mmap_data); U("sample_id_all", a->sample_id_all);
	U("exclude_host", a->exclude_host); U("exclude_guest", a->exclude_guest);
	U("exclude_callchain_kernel", a->exclude_callchain_kernel);
	U("exclude_callchain_user", a->exclude_callchain_user); U("mmap2", a->mmap2);
	U("comm_exec", a->comm_exec); U("use_clockid", a->use_clockid);
	U("context_switch", a->context_switch); U("write_backward", a->write_backward);
	U("namespaces", a->namespaces); U("ksymbol", a->ksymbol); U("bpf_event", a->bpf_event);
	U("aux_output", a->aux_output); U("cgroup", a->cgroup); U("text_poke", a->text_poke);
	U("build_id", a->build_id); U("inherit_thread", a->inherit_thread);
	U("remove_on_exec", a->remove_on_exec); U("sigtrap", a->sigtrap);
	*firstp = first;
}

void attr__fprint(const struct perf_event_attr *a, FILE *fp)
{
	bool first = true;

	field(fp, &first, " type: %" PRIu32, a->type);
	U("size", a->size);
	X("config", a->config);
	U("{ sample_period, sample_freq }", a->sample_period);
	bits_field(fp, &first, "sample_type", a->sample_type, sample_bits);
	bits_field(fp, &first, "read_format", a->read_format, read_bits);
	attr__fprint_flags(a, fp, &first);
	U("{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	U("bp_type", a->bp_type);
	X("{ bp_addr, config1 }", a->bp_addr);
	X("{ bp_len, config2 }", a->bp_len);
	bits_field(fp, &first, "branch_sample_type", a->branch_sample_type, branch_bits);
	X("sample_regs_user", a->sample_regs_user);
	U("sample_stack_user", a->sample_stack_user);
	if (a->clockid)
		field(fp, &first, " clockid: %" PRId32, a->clockid);
	X("sample_regs_intr", a->sample_regs_intr);
	U("aux_watermark", a->aux_watermark);
	U("sample_max_stack", a->sample_max_stack);
	U("aux_sample_size", a->aux_sample_size);
	U("sig_data", a->sig_data);
}

#undef U
#undef X

void control_evlist__print(const struct evlist *evlist, int flag, FILE *fp)
{
	for (int i = 0; i < evlist->nr; i++) {
		const struct evsel *e = &evlist->evsel[i];

		if (flag == CONTROL_EVLIST_GROUPS) {
			/* perf's -g: a line per leader, its members after it. */
			if (e->leader != e->idx)
				continue;
			if (e->nr_members > 1)
				fprintf(fp, "%s{", e->group_name ? e->group_name : "");
			fputs(e->name, fp);
			for (int m = i + 1; m < evlist->nr; m++)
				if (evlist->evsel[m].leader == e->idx)
					fprintf(fp, ",%s", evlist->evsel[m].name);
			if (e->nr_members > 1)
				fputc('}', fp);
		} else {
			fputs(e->name, fp);
		}
		if (flag == CONTROL_EVLIST_VERBOSE) {
			attr__fprint(&e->attr, fp);
		} else if (flag == CONTROL_EVLIST_FREQ) {
			fprintf(fp, ": %s=%" PRIu64, e->attr.freq ? "sample_freq" : "sample_period",
				(uint64_t)e->attr.sample_period);
		}
		fputc('\n', fp);
	}
	fflush(fp);
}
