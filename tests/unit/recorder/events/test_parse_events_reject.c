// SPDX-License-Identifier: GPL-2.0-only
/*
 * The -e grammar's failures: every rejected string with what its one-line
 * error must say and the offset it names, all or nothing (a failure leaves
 * the earlier events as they were), and an error that stays one line.
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

/* A rejected string, a piece of its error and the offset the error names. */
struct reject_row {
	const char *str;
	const char *err_has;
	int off;
};

/* clang-format off */
static const struct reject_row reject_rows[] = {
	/* the table */
	{ "nosuch",                          "unknown event 'nosuch'", 0 },
	{ "cpu-clock:zz",                    "unknown modifier 'z' in 'cpu-clock:zz'", 10 },
	{ "software/foo=1/",                 "unknown term 'foo' for PMU 'software'", 9 },
	{ "{cpu-clock",                      "unbalanced '{'", 0 },
	{ "{cpu-clock,task-clock",           "unbalanced '{'", 0 },
	{ "{cpu-clock,",                     "unbalanced '{'", 0 },
	{ "{",                               "unbalanced '{'", 0 },
	{ "cpu-clock}",                      "unbalanced '}'", 9 },
	{ "}",                               "unbalanced '}'", 0 },
	/* lists and groups */
	{ "{}",                              "empty group", 0 },
	{ "{cpu-clock,{task-clock}}",        "nested groups", 11 },
	{ "{cpu-clock}x",                    "unexpected 'x' after a group", 11 },
	{ "{cpu-clock}:",                    "missing modifier", 12 },
	{ "{cpu-clock}:zz",                  "unknown modifier 'z'", 12 },
	{ "{cpu-clock}:uu",                  "modifier 'u' repeated", 12 },
	{ "a{cpu-clock}:u{",                 "unknown modifier '{'", 14 },
	{ "cpu-clock,,task-clock",           "empty event after ','", 10 },
	{ ",cpu-clock",                      "empty event", 0 },
	{ "cpu-clock,",                      "empty event after ','", 10 },
	{ "cpu-clock{",                      "unexpected '{' after 'cpu-clock'", 9 },
	{ "/event=1/",                       "missing event name before '/'", 0 },
	{ ":u",                              "missing event name before ':'", 0 },
	{ "-",                               "unknown event '-'", 0 },
	/* modifiers: perf's check_modifier */
	{ "cpu-clock:uu",                    "modifier 'u' repeated", 10 },
	{ "cpu-clock:pppp",                  "too many 'p'", 10 },
	{ "cpu-clock:ukhGHpppPSDIWebp",      "too many 'p'", 10 },
	{ "cpu-clock:u:k",                   "unknown modifier ':'", 11 },
	{ "cpu-clock:",                      "missing modifier after ':' in 'cpu-clock:'", 10 },
	{ "cycles-t:zz",                     "unknown modifier 'z' in 'cycles-t:zz'", 9 },
	{ "tsc:zz",                          "unknown modifier 'z'", 4 },
	{ "CPU-CLOCK",                       "unknown event 'CPU-CLOCK'", 0 },
	{ "cpu-clock ",                      "unknown event 'cpu-clock '", 0 },
	{ " cpu-clock",                      "unknown event ' cpu-clock'", 0 },
	/* raw and numeric */
	{ "r",                               "unknown event 'r'", 0 },
	{ "rzz",                             "unknown event 'rzz'", 0 },
	{ "R1a8",                            "unknown event 'R1a8'", 0 },
	{ "r1a8x",                           "unknown event 'r1a8x'", 0 },
	{ "r0x1a8",                          "unknown event 'r0x1a8'", 0 },
	{ "read",                            "unknown event 'read'", 0 },
	{ "r123456789abcdef01",              "raw event 'r123456789abcdef01' too large", 0 },
	{ "r1a8/period=x/",                  "term 'period' of 'r1a8' expects a numeric value", 5 },
	{ "r1a8/foo/",                       "unknown term 'foo' for 'r1a8'", 5 },
	{ "1:",                              "unknown event '1'", 0 },
	{ "4294967296:0",                    "numeric event '4294967296:0' too large", 0 },
	{ "1:0x10000000000000000",           "too large", 0 },
	/* cache */
	{ "L1-icache-stores",                "L1-icache counts: load, prefetch", 0 },
	{ "iTLB-stores",                     "iTLB counts: load", 0 },
	{ "branch-prefetches",               "branch counts: load", 0 },
	{ "branches-loads",                  "unknown event 'branches-loads'", 0 },
	{ "L1-dcache-loadsx",                "unknown event", 0 },
	{ "L1-dcache-load-misses-refs",      "unknown event", 0 },
	{ "Instruction-TLB-reads",           "unknown event", 0 },
	/* breakpoints */
	{ "mem:",                            "missing breakpoint address", 4 },
	{ "mem:x",                           "missing breakpoint address", 4 },
	{ "mem:0x1000:xx",                   "breakpoint access 'x' repeated", 12 },
	{ "mem:0x1000:rwxr",                 "breakpoint access 'r' repeated", 14 },
	{ "mem:0x1000:q",                    "unknown modifier 'q'", 11 },
	{ "mem:0x1000/z",                    "bad breakpoint length", 11 },
	{ "mem:0x1000/name=bp/",             "bad breakpoint length", 11 },
	{ "mem:0x1000u",                     "unexpected 'u' in breakpoint", 10 },
	{ "mem:0x10000000000000000",         "breakpoint address too large", 4 },
	{ "mem:0x1000:w:zz",                 "unknown modifier 'z'", 13 },
	/* tracepoints */
	{ "sched:nosuch",                    "unknown tracepoint 'sched:nosuch'", 0 },
	{ "nosuch:foo",                      "unknown tracepoint 'nosuch:foo'", 0 },
	{ "sched:nosuch*",                   "no tracepoint matches 'sched:nosuch*'", 0 },
	{ "nosys*:sched_switch",             "no tracepoint matches", 0 },
	{ "broken:no_id",                    "unknown tracepoint 'broken:no_id'", 0 },
	{ "broken:bad_id",                   "has no usable id", 0 },
	{ "broken:huge_id",                  "has no usable id", 0 },
	{ "sched:..",                        "unknown tracepoint 'sched:..'", 0 },
	{ "sched:../sched",                  "unknown tracepoint 'sched:..'", 0 },
	{ "sched:sched_switch/period=10/",   "unknown term 'period' for tracepoint 'sched:sched_switch'", 19 },
	{ "sched:sched_switch/name=x/",      "valid terms: call-graph,stack-size", 19 },
	{ "sched:sched_switch:zz",           "unknown modifier 'z'", 19 },
	{ "cpu-clock,sched:nosuch",          "unknown tracepoint", 10 },
	/* PMU terms: perf's messages, with the term's offset */
	{ "cpu/event=0x100/",                "too big for term 'event' of PMU 'cpu' at offset 4 (maximum is 255)", 4 },
	{ "cpu/umask=0x100/",                "maximum is 255", 4 },
	{ "cpu/any=2/",                      "maximum is 1", 4 },
	{ "cpu/cmask=256/",                  "maximum is 255", 4 },
	{ "uncore_imc_0/umask=0x100000000/", "maximum is 4294967295", 13 },
	{ "uncore_imc_0/cas_count_param/",   "needs parameter 'umask'", 13 },
	{ "cpu/foo/",                        "valid terms: any,cmask,edge,event,frontend,in_tx,in_tx_cp,inv,ldlat,offcore_rsp,pc,umask,config", 4 },
	{ "cpu/event=1,foo=1/",              "unknown term 'foo' for PMU 'cpu'", 12 },
	/* cpu= (perf 6.16): one CPU number a term; not on tracepoints */
	{ "cpu-clock/cpu=65536/",            "CPU 65536 of term 'cpu' of 'cpu-clock' is too big at offset 10 (CPUs are numbered 0 to 65535)", 10 },
	{ "cpu-clock/cpu/",                  "term 'cpu' of 'cpu-clock' needs a CPU number at offset 10 (give it as cpu=N)", 10 },
	{ "cpu-clock/cpu=cpu_core/",         "term 'cpu' of 'cpu-clock' expects a numeric value, not 'cpu_core'", 10 },
	{ "cpu-clock/cpu=0-1/",              "unexpected '-' in the value of term 'cpu'", 15 },
	{ "cpu/event=1,cpu=99999999999/",    "CPU 99999999999 of term 'cpu' of PMU 'cpu' is too big", 12 },
	{ "sched:sched_switch/cpu=0/",       "unknown term 'cpu' for tracepoint 'sched:sched_switch'", 19 },
	{ "cpu/cycles-t=2/",                 "unknown term 'cycles-t'", 4 },
	{ "cpu/event=nosuch/",               "expects a number or one of its events, not 'nosuch'", 4 },
	{ "cpu/event=/",                     "missing value for term 'event'", 10 },
	{ "cpu/=1/",                         "expected a term name", 4 },
	{ "cpu/,/",                          "expected a term name", 4 },
	{ "cpu/event=1,/",                   "missing term after ','", 12 },
	{ "cpu/event=1",                     "missing closing '/'", 3 },
	{ "cpu/event=0x/",                   "unexpected 'x' in the value of term 'event'", 11 },
	{ "cpu/event=1x/",                   "unexpected 'x'", 11 },
	{ "cpu/name='/",                     "bad quoted value", 9 },
	{ "cpu/name=''/",                    "bad quoted value", 9 },
	{ "cpu/name=1/",                     "expects a string value", 4 },
	{ "cpu/period=x/",                   "expects a numeric value, not 'x'", 4 },
	{ "cpu/time=2/",                     "expects 0 or 1", 4 },
	{ "cpu/percore=2/",                  "expects 0 or 1", 4 },
	{ "cpu/branch_type=nosuch/",         "unknown branch_type 'nosuch'", 4 },
	{ "cpu/aux-sample-size=0x100000000/","is too big", 4 },
	{ "cpu/event=0x10000000000000000/",  "is too large", 10 },
	{ "cpu/event=1/:u",                  "unexpected ':' after 'cpu/event=1/'", 12 },
	{ "cpu/event=1/zz",                  "unknown modifier 'z'", 12 },
	{ "cas_count_read/nosuch/",          "unknown term 'nosuch' for PMU 'uncore_imc_0'", 15 },
	/* PMUs */
	{ "nosuchpmu/event=1/",              "unknown PMU 'nosuchpmu' at offset 0 (PMUs here: breakpoint, cpu, msr, power,", 0 },
	{ "CPU/event=1/",                    "unknown PMU 'CPU'", 0 },
	{ "imc_x/clockticks/",               "unknown PMU 'imc_x'", 0 },
	{ "cpu-clock,uncore_imc_9/event=1/", "unknown PMU 'uncore_imc_9'", 10 },
	/* symbols with terms */
	{ "cpu-clock/foo=1/",                "unknown term 'foo' for 'cpu-clock'", 10 },
	{ "cpu-clock/name/",                 "expects a string value", 10 },
	{ "cpu-clock/period=1",              "missing closing '/'", 9 },
	{ "cpu-clock//:u",                   "unexpected ':' after 'cpu-clock//'", 11 },
	{ "cpu-clock/u",                     "missing closing '/'", 9 },
	{ "cpu-clock:u/",                    "unknown modifier '/'", 11 },
	{ "duration_time/period=1/",         "takes no terms", 13 },
};
/* clang-format on */

static bool reject_row__check(const struct reject_row *r)
{
	struct event_specs specs = { 0 };
	struct event_spec before;
	char off[32];
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	bool ok = false;
	int ret;

	/* Earlier -e arguments that a failure must not touch. */
	assert_int_equal(parse_events_ctx(&specs, "{task-clock:u,msr/tsc/}", &fx, &e), 0);
	before = specs.v[1];
	ret = parse_events_ctx(&specs, r->str, &fx, &e);
	snprintf(off, sizeof(off), " at offset %d", r->off);
	if (ret != -EINVAL)
		print_error("'%s': ret %d, expected -EINVAL\n", r->str, ret);
	else if (specs.nr != 2 || strcmp(specs.v[0].name, "task-clock:u") ||
		 memcmp(&specs.v[1].attr, &before.attr, sizeof(before.attr)) ||
		 specs.v[1].leader != 0 || specs.last_arg != 0)
		print_error("'%s': the specs changed on failure (nr %d)\n", r->str, specs.nr);
	else if (!prec_err__is_set(&e) || strpbrk(prec_err__msg(&e), "\n\r"))
		print_error("'%s': err '%s' is not one non-empty line\n", r->str,
			    prec_err__msg(&e));
	else if (!strstr(prec_err__msg(&e), r->err_has) || !strstr(prec_err__msg(&e), off))
		print_error("'%s': err '%s' lacks '%s' or '%s'\n", r->str, prec_err__msg(&e),
			    r->err_has, off);
	else
		ok = true;
	event_specs__exit(&specs);
	return ok;
}

static void test_rejected(void **state)
{
	int failed = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(reject_rows) / sizeof(reject_rows[0]); i++)
		failed += !reject_row__check(&reject_rows[i]);
	assert_int_equal(failed, 0);
}

/*
 * A failure anywhere, after events were already made for the argument,
 * leaves the set as it was; and a later argument appends as if nothing
 * had happened.
 */
static void test_all_or_nothing(void **state)
{
	static const char *const bad[] = {
		"sched:*,cpu-clock:zz",
		"{cpu-clock,task-clock}:zz",
		"cas_count_read,nosuch",
		"cas_count_read/nosuch/",
		"msr/tsc/,cpu/event=0x100/",
		"{cas_count_read,cas_count_write},{",
		"mem:0x1000,sched:sched_switch/period=1/",
		"g{cpu-clock,task-clock},r1a8/name=x/,L1-icache-stores",
		"cpu/cycles-t,name=a,name=b,foo/",
		"sched:sched_wak*/call-graph=fp,name=x/",
	};
	struct event_specs s = { 0 };
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	parse_ok(&s, "{cpu-clock,task-clock}");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse_events_ctx(&s, bad[i], &fx, &e), -EINVAL);
		assert_int_equal(s.nr, 2);
		assert_int_equal(s.last_arg, 0);
		assert_string_equal(s.v[1].name, "task-clock");
		assert_int_equal(s.v[1].leader, 0);
	}
	parse_ok(&s, "{faults,cs}");
	assert_int_equal(s.nr, 4);
	assert_int_equal(s.v[3].leader, 2);
	event_specs__exit(&s);
}

static void test_err_one_line(void **state)
{
	static const char *const rows[] = {
		"cpu-clock\n",	   "sched:x\ny",   "cpu/name='a\nb'/", "nosuch\r",
		"cpu-clock:u\x7f", "{cpu-clock\n", "msr/\n/",	       "r1a8/name=\x1b[31m/",
	};
	struct event_specs s = { 0 };
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	char long_str[3000];

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_int_equal(parse_events_ctx(&s, rows[i], &fx, &e), -EINVAL);
		for (const char *c = prec_err__msg(&e); *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				fail_msg("row %zu: control character in '%s'", i,
					 prec_err__msg(&e));
	}
	/* no error object at all is fine */
	assert_int_equal(parse_events_ctx(&s, "nosuch", &fx, NULL), -EINVAL);
	/* a long argument gives one whole line */
	memset(long_str, 'a', sizeof(long_str) - 1);
	long_str[sizeof(long_str) - 1] = '\0';
	assert_int_equal(parse_events_ctx(&s, long_str, &fx, &e), -EINVAL);
	assert_null(strchr(prec_err__msg(&e), '\n'));
	assert_true(prec_err__msg(&e)[0] != '\0');
	assert_int_equal(s.nr, 0);
	event_specs__exit(&s);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rejected),
		cmocka_unit_test(test_all_or_nothing),
		cmocka_unit_test(test_err_one_line),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, setup, NULL);
}
