// SPDX-License-Identifier: GPL-2.0-only
/*
 * The -e grammar's parts beyond one string's attrs, on the fixture PMUs and
 * tracefs: the terms as the recorder reads them, group links across -e
 * arguments, --filter, the cache names, the listing (prec --list-events, as
 * perf list prints it) and this machine's own sysfs and tracefs. The
 * accepted and rejected strings are test_parse_events_{accept,pmu,reject}.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/events/parse_events.h"
#include "parse_events_expect.h"

static void test_terms(void **state)
{
	struct event_specs s = { 0 };
	const struct event_terms *t;

	(void)state;
	/* perf applies period= and freq= in order: the later one wins. */
	parse_ok(&s, "software/period=10,freq=100/");
	t = &s.v[0].terms;
	assert_int_equal(t->set, EVENT_TERM_FREQ);
	assert_int_equal(t->freq, 100);
	/* terms never touch the attr's sample fields: the recorder applies them */
	assert_int_equal(s.v[0].attr.sample_period, 0);
	assert_int_equal(s.v[0].attr.freq, 0);
	parse_ok(&s, "cpu-clock/freq=100,period=0x10/");
	t = &s.v[1].terms;
	assert_int_equal(t->set, EVENT_TERM_PERIOD);
	assert_int_equal(t->period, 16);
	parse_ok(&s, "cpu-clock/period/"); /* bare: 1 */
	assert_int_equal(s.v[2].terms.period, 1);
	event_specs__exit(&s);

	parse_ok(&s, "cpu-clock/call-graph=dwarf,stack-size=8192,max-stack=7,nr=5/");
	t = &s.v[0].terms;
	assert_int_equal(t->set, EVENT_TERM_CALLGRAPH | EVENT_TERM_STACKSIZE |
					 EVENT_TERM_MAX_STACK | EVENT_TERM_MAX_EVENTS);
	assert_string_equal(t->call_graph, "dwarf");
	assert_int_equal(t->stack_size, 8192);
	assert_int_equal(t->max_stack, 7);
	assert_int_equal(t->max_events, 5);
	parse_ok(&s, "cpu-clock/call-graph=fp,call-graph=no/");
	assert_string_equal(s.v[1].terms.call_graph, "no");
	event_specs__exit(&s);

	/* inherit / no-inherit and overwrite / no-overwrite, with values as perf reads them */
	parse_ok(
		&s,
		"cpu-clock/inherit/,cpu-clock/no-inherit/,cpu-clock/no-inherit=0/,cpu-clock/inherit=0/");
	for (int i = 0; i < 4; i++)
		assert_int_equal(s.v[i].terms.set, EVENT_TERM_INHERIT);
	assert_true(s.v[0].terms.inherit);
	assert_false(s.v[1].terms.inherit);
	assert_true(s.v[2].terms.inherit);
	assert_false(s.v[3].terms.inherit);
	event_specs__exit(&s);
	parse_ok(&s, "cpu-clock/overwrite/,cpu-clock/no-overwrite/,cpu-clock/overwrite=5/");
	assert_true(s.v[0].terms.overwrite);
	assert_false(s.v[1].terms.overwrite);
	assert_true(s.v[2].terms.overwrite);
	assert_int_equal(s.v[1].terms.set, EVENT_TERM_OVERWRITE);
	event_specs__exit(&s);

	parse_ok(&s, "cpu-clock/time=0,percore,aux-output,aux-sample-size=4096,metric-id=m1/");
	t = &s.v[0].terms;
	assert_int_equal(t->set, EVENT_TERM_TIME | EVENT_TERM_PERCORE | EVENT_TERM_AUX_OUTPUT |
					 EVENT_TERM_AUX_SAMPLE_SIZE | EVENT_TERM_METRIC_ID);
	assert_false(t->time);
	assert_true(t->percore);
	assert_true(t->aux_output);
	assert_int_equal(t->aux_sample_size, 4096);
	assert_string_equal(t->metric_id, "m1");
	event_specs__exit(&s);

	/* cpu= (perf 6.16): repeated terms merge, kept as written for the recorder */
	parse_ok(&s, "cpu-clock/cpu=0/,cpu-clock/cpu=3,cpu=0x1/,cpu/event=0x3c,cpu=1/u");
	assert_int_equal(s.v[0].terms.set, EVENT_TERM_CPU);
	assert_string_equal(s.v[0].terms.cpus, "0");
	assert_string_equal(s.v[1].terms.cpus, "3,1");
	assert_string_equal(s.v[2].terms.cpus, "1");
	assert_int_equal(s.v[2].attr.config, 0x3c);
	assert_null(s.v[2].cpus); /* the PMU's own CPUs stay apart */
	parse_ok(&s, "cpu-clock/cpu=65535/");
	assert_string_equal(s.v[3].terms.cpus, "65535");
	event_specs__exit(&s);

	/* branch_type as perf's parse_branch_str; privilege alone means any */
	parse_ok(
		&s,
		"cpu-clock/branch_type=any_call/,cpu-clock/branch_type=u/,cpu-clock/branch_type=no/");
	assert_int_equal(s.v[0].terms.branch_sample_type, PERF_SAMPLE_BRANCH_ANY_CALL);
	assert_int_equal(s.v[1].terms.branch_sample_type, PERF_SAMPLE_BRANCH_ANY);
	assert_int_equal(s.v[2].terms.branch_sample_type, 0);
	assert_int_equal(s.v[2].terms.set, EVENT_TERM_BRANCH_TYPE);
	event_specs__exit(&s);

	/* the last name= wins; a quoted one may hold ',' ':' '=' */
	parse_ok(&s, "cpu-clock/name=a,name=b/,task-clock/name='x,y:z=1'/k");
	assert_string_equal(s.v[0].name, "b");
	assert_string_equal(s.v[1].name, "x,y:z=1");
	assert_int_equal(s.v[1].attr.exclude_user, 1);
	event_specs__exit(&s);

	/* tracepoints take their subset; PMU events take every term beside the formats */
	parse_ok(&s, "sched:sched_switch/call-graph=dwarf,no-inherit,max-stack=3/");
	assert_int_equal(s.v[0].terms.set,
			 EVENT_TERM_CALLGRAPH | EVENT_TERM_INHERIT | EVENT_TERM_MAX_STACK);
	parse_ok(&s, "cpu/cycles-t,period=1000,name=tx/pp");
	assert_string_equal(s.v[1].name, "tx");
	assert_int_equal(s.v[1].attr.config, 0x10000003cULL);
	assert_int_equal(s.v[1].attr.precise_ip, 2);
	assert_int_equal(s.v[1].terms.period, 1000);
	/* each event of a glob or alias gets the terms */
	parse_ok(&s, "sched:sched_wak*/call-graph=fp/,cas_count_read/name=rd/");
	assert_int_equal(s.nr, 6);
	for (int i = 2; i < 4; i++)
		assert_string_equal(s.v[i].terms.call_graph, "fp");
	assert_string_equal(s.v[4].name, "rd");
	assert_string_equal(s.v[5].name, "rd");
	event_specs__exit(&s);
}

static void test_groups(void **state)
{
	struct event_specs s = { 0 };

	(void)state;
	/* Leaders are indexes into the whole set, across -e arguments. */
	parse_ok(&s, "cs,{cpu-clock,task-clock}:S");
	parse_ok(&s, "faults,grp{sched:sched_wak*,msr/tsc/}:W");
	assert_int_equal(s.nr, 7);
	assert_int_equal(s.last_arg, 3);
	assert_int_equal(s.v[0].leader, 0);
	assert_int_equal(s.v[1].leader, 1);
	assert_int_equal(s.v[1].nr_members, 2);
	assert_int_equal(s.v[2].leader, 1);
	assert_true(s.v[1].sample_read && s.v[2].sample_read);
	assert_false(s.v[0].sample_read);
	assert_null(s.v[1].group_name);
	assert_int_equal(s.v[3].leader, 3);
	assert_int_equal(s.v[4].leader, 4);
	assert_int_equal(s.v[4].nr_members, 3);
	assert_string_equal(s.v[4].group_name, "grp");
	for (int i = 4; i < 7; i++) {
		assert_int_equal(s.v[i].leader, 4);
		assert_true(s.v[i].weak_group);
	}
	assert_true(s.v[6].counting_only);
	assert_string_equal(s.v[6].pmu_name, "msr");
	/* :e and :D go to the leader only, as perf's group modifiers */
	parse_ok(&s, "{cpu-clock,task-clock}:De");
	assert_int_equal(s.v[7].attr.pinned, 1);
	assert_int_equal(s.v[7].attr.exclusive, 1);
	assert_int_equal(s.v[8].attr.pinned, 0);
	assert_int_equal(s.v[8].attr.exclusive, 0);
	event_specs__exit(&s);
}

static void test_filter(void **state)
{
	struct event_specs s = { 0 };
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	/* nothing to follow yet */
	assert_int_equal(event_specs__add_filter(&s, "x", "--filter", &e), -EINVAL);
	assert_non_null(strstr(prec_err__msg(&e), "'--filter' must follow a -e event"));
	assert_int_equal(event_specs__add_filter(&s, "x", "--exclude-perf", &e), -EINVAL);
	assert_non_null(strstr(prec_err__msg(&e), "'--exclude-perf' must follow a -e tracepoint"));
	/* every event of the last argument, appended with && as perf */
	parse_ok(&s, "cpu-clock");
	parse_ok(&s, "sched:sched_wak*");
	assert_int_equal(event_specs__add_filter(&s, "prev_pid == 1", "--filter", &e), 0);
	assert_int_equal(event_specs__add_filter(&s, "common_pid != 5", "--exclude-perf", &e), 0);
	assert_null(s.v[0].filter);
	for (int i = 1; i < 3; i++)
		assert_string_equal(s.v[i].filter, "(prev_pid == 1) && (common_pid != 5)");
	/* a non-tracepoint in the last argument: the option's name and the event */
	parse_ok(&s, "sched:sched_switch,task-clock");
	assert_int_equal(event_specs__add_filter(&s, "x", "--exclude-perf", &e), -EINVAL);
	assert_non_null(strstr(prec_err__msg(&e), "'--exclude-perf'"));
	assert_non_null(strstr(prec_err__msg(&e), "'task-clock' is not one"));
	assert_null(s.v[3].filter);
	/* --filter after it: the tracepoint's kernel filter, the other's BPF
	 * filter, parsed, a second one joined with ',' */
	assert_int_equal(event_specs__add_filter(&s, "prev_pid == 1", "--filter", &e), -EINVAL);
	assert_string_equal(
		prec_err__msg(&e),
		"--filter 'prev_pid == 1' for event 'task-clock': unknown term 'prev_pid' at offset 0 (terms: ip, id, tid, pid, cpu, time, addr, period, txn, weight, weight1-3, ins_lat, retire_lat, p_stage_cyc, phys_addr, code_pgsz, data_pgsz, mem_op, mem_lvl, mem_snoop, mem_remote, mem_lock, mem_dtlb, mem_blk, mem_hops, uid, gid, cgroup)");
	assert_int_equal(event_specs__add_filter(&s, "ip < 0x8000", "--filter", &e), 0);
	assert_string_equal(s.v[3].filter, "ip < 0x8000");
	assert_false(s.v[3].filter_bpf);
	assert_string_equal(s.v[4].filter, "ip < 0x8000");
	assert_true(s.v[4].filter_bpf);
	assert_int_equal(event_specs__add_filter(&s, "cpu == 1 || cpu == 2", "--filter", &e), 0);
	assert_string_equal(s.v[4].filter, "ip < 0x8000, cpu == 1 || cpu == 2");
	assert_true(s.v[4].filter_bpf);
	assert_string_equal(s.v[3].filter, "(ip < 0x8000) && (cpu == 1 || cpu == 2)");
	/* the offsets of a message are those of the --filter that has it */
	assert_int_equal(event_specs__add_filter(&s, "ip\n<", "--filter", &e), -EINVAL);
	assert_non_null(strstr(prec_err__msg(&e), "expected a value for 'ip', found the end"));
	assert_string_equal(s.v[4].filter, "ip < 0x8000, cpu == 1 || cpu == 2");
	/* the default event is no -e argument */
	assert_int_equal(parse_events__add_default(&s, &(struct default_event_env){ 0 }), 0);
	assert_int_equal(event_specs__add_filter(&s, "x", "--filter", &e), -EINVAL);
	assert_int_equal(s.v[5].leader, 5);
	assert_int_equal(s.v[5].nr_members, 1);
	event_specs__exit(&s);
}

static void test_hw_cache_names(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(event_name__hw_cache(buf, sizeof(buf), 0), 15);
	assert_string_equal(buf, "L1-dcache-loads");
	event_name__hw_cache(buf, sizeof(buf), 0x10000);
	assert_string_equal(buf, "L1-dcache-load-misses");
	event_name__hw_cache(buf, sizeof(buf), 0x10102);
	assert_string_equal(buf, "LLC-store-misses");
	event_name__hw_cache(buf, sizeof(buf), 0x206);
	assert_string_equal(buf, "node-prefetches");
	event_name__hw_cache(buf, sizeof(buf), 0x5);
	assert_string_equal(buf, "branch-loads");
	assert_int_equal(event_name__hw_cache(buf, sizeof(buf), 0x104), -EINVAL); /* iTLB stores */
	assert_int_equal(event_name__hw_cache(buf, sizeof(buf), 0x7), -EINVAL);
	assert_int_equal(event_name__hw_cache(buf, sizeof(buf), 0x300), -EINVAL);
	assert_int_equal(event_name__hw_cache(buf, sizeof(buf), 0x20000), -EINVAL);
	assert_int_equal(event_name__hw_cache(buf, sizeof(buf), 0x1000000), -EINVAL);
}

static bool no_hardware(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_SOFTWARE;
}

static char *list_text(const struct parse_events_ctx *ctx)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	parse_events__print_list(f, ctx);
	fclose(f);
	return text;
}

/* Where needle first is in text, or -1. */
static __attribute__((noinline)) long offset_of(const char *text, const char *needle)
{
	const char *at = strstr(text, needle);

	return at ? (long)(at - text) : -1;
}

static void test_print_list(void **state)
{
	static const char *const kinds[] = {
		"[Hardware event]",	  "[Software event]",	"[Tool event]",
		"[Hardware cache event]", "[Kernel PMU event]", "[Raw hardware event descriptor]",
		"[Hardware breakpoint]",  "[Tracepoint event]",
	};
	static const char *const lines[] = {
		"  cpu-cycles OR cycles                               [Hardware event]\n",
		"  page-faults OR faults                              [Software event]\n",
		"  bpf-output                                         [Software event]\n",
		"  duration_time                                      [Tool event]\n",
		"  L1-dcache-load-misses                              [Hardware cache event]\n",
		"  node-prefetches                                    [Hardware cache event]\n",
		"  cycles-t OR cpu/cycles-t/                          [Kernel PMU event]\n",
		"  msr/tsc/                                           [Kernel PMU event]\n",
		"  power/energy-pkg/                                  [Kernel PMU event]\n",
		"  uncore_imc_0/cas_count_param,umask=?/              [Kernel PMU event]\n",
		"  uncore_imc_1/clockticks/                           [Kernel PMU event]\n",
		"  rNNN                                               [Raw hardware event descriptor]\n",
		"  cpu/t1=v1[,t2=v2,t3 ...]/modifier                  [Raw hardware event descriptor]\n",
		"  mem:<addr>[/len][:access]                          [Hardware breakpoint]\n",
		"  irq:irq_handler_entry                              [Tracepoint event]\n",
		"  sched:sched_switch                                 [Tracepoint event]\n",
	};
	/* perf's order: core PMU first, then by PMU and name; tracepoints as one string */
	static const char *const order[] = {
		"  branch-instructions OR cpu/",
		"  tx-start OR cpu/",
		"  msr/smi/",
		"  msr/tsc/",
		"  power/",
		"  uncore_imc_0/cas_count_param",
		"  uncore_imc_0/cas_count_read/",
		"  uncore_imc_1/",
		"  irq:irq_handler_entry",
		"  irq:softirq_entry",
		"  sched:sched_process_exec",
		"  sched:sched_wakeup ",
		"  sched:sched_waking",
		"  syscalls:sys_enter_openat",
	};
	struct parse_events_ctx ctx = fx;
	char *text = list_text(&ctx);
	size_t last = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (!strstr(text, lines[i]))
			fail_msg("missing line '%s'", lines[i]);
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		long at = offset_of(text, kinds[i]);

		if (at < 0 || (size_t)at < last)
			fail_msg("section '%s' missing or out of order", kinds[i]);
		last = (size_t)at;
	}
	last = 0;
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		long at = offset_of(text, order[i]);

		if (at < 0 || (size_t)at < last)
			fail_msg("'%s' missing or out of order", order[i]);
		last = (size_t)at;
	}
	/* the uncore alias side files are not events; broken tracepoints are not listed */
	assert_null(strstr(text, ".scale"));
	assert_null(strstr(text, "broken:"));
	free(text);

	/* hardware and cache events only where the machine opens them, as perf */
	ctx.supported = no_hardware;
	text = list_text(&ctx);
	assert_null(strstr(text, "[Hardware event]"));
	assert_null(strstr(text, "[Hardware cache event]"));
	assert_non_null(strstr(
		text, "  cpu-clock                                          [Software event]\n"));
	free(text);
}

/* This machine's own sysfs and tracefs, where they have what is asked. */
static void test_live(void **state)
{
	struct event_specs s = { 0 };
	char text[64];
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	FILE *f;

	(void)state;
	assert_int_equal(parse_events_ctx(&s, "cpu-clock,faults:u", NULL, &e), 0);
	assert_int_equal(s.nr, 2);
	event_specs__exit(&s);
	f = fopen("/sys/bus/event_source/devices/msr/type", "r");
	if (f) {
		unsigned type = 0;

		assert_int_equal(fscanf(f, "%u", &type), 1);
		fclose(f);
		assert_int_equal(parse_events(&s, "msr/tsc/", &e), 0);
		assert_int_equal(s.v[0].attr.type, type);
		assert_true(s.v[0].counting_only);
		assert_string_equal(s.v[0].name, "msr/tsc/");
		event_specs__exit(&s);
	}
	f = fopen("/sys/kernel/tracing/events/sched/sched_switch/id", "r");
	if (f && fgets(text, sizeof(text), f)) {
		assert_int_equal(parse_events(&s, "sched:sched_switch", &e), 0);
		assert_int_equal(s.v[0].attr.config, strtoull(text, NULL, 10));
		event_specs__exit(&s);
	}
	if (f)
		fclose(f);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_terms),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_hw_cache_names),
		cmocka_unit_test(test_print_list),
		cmocka_unit_test(test_live),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, setup, NULL);
}
