// SPDX-License-Identifier: GPL-2.0-only
/*
 * The attr and output options of issue 14: --switch-output-event,
 * --timestamp-boundary, --strict-freq, --running-time, --transaction,
 * --group, --dry-run. Each one's parse, its validate (implied settings and
 * refused combinations, each with its one line), and what it becomes for the
 * events (evlist_config, the merged group, the -F rule).
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

#include "recorder/evlist/evlist_config.h"
#include "recorder/options/options.h"
#include "recorder/events/parse_events.h"
#include "prec/sysinfo.h"
#include "recorder/entry.h"
#include "recorder/record_prepare.h"
#include "recorder/live/sideband_event.h"

static const struct options_env plain_stdout;

/* Parses then validates argv (after "prec"); the result of the first that fails. */
static int parse_validate(struct record_opts *o, struct prec_err *e, const char *const *args)
{
	char *argv[16] = { "prec" };
	int argc = 1, ret;

	for (; args[argc - 1]; argc++)
		argv[argc] = (char *)args[argc - 1];
	ret = options__parse(o, argc, argv, e);
	if (!ret)
		ret = options__validate(o, &plain_stdout, e);
	return ret;
}

static void test_flags_parse(void **state)
{
	const char *args[] = { "--timestamp-boundary", "--strict-freq", "--running-time",
			       "--transaction", "--group", "--dry-run", "true", NULL };
	struct record_opts o;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	assert_int_equal(parse_validate(&o, &e, args), 0);
	assert_true(o.timestamp_boundary && o.strict_freq && o.running_time);
	assert_true(o.sample_transaction && o.group && o.dry_run);
	/* None of them implies anything about the output. */
	assert_false(o.switch_output || o.timestamp_filename);
	assert_string_equal(o.output, PREC_DEFAULT_OUTPUT);
	options__exit(&o);
}

static void test_flags_take_no_value(void **state)
{
	static const char *const names[] = { "--timestamp-boundary=1", "--strict-freq=1",
					     "--running-time=yes", "--transaction=1", "--group=x",
					     "--dry-run=1" };
	struct record_opts o;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *args[] = { names[i], "true", NULL };

		assert_int_equal(parse_validate(&o, &e, args), -EINVAL);
		assert_non_null(strstr(prec_err__msg(&e), "takes no value"));
	}
}

static void test_switch_output_event(void **state)
{
	const char *both[] = { "--switch-output-event", "syscalls:sys_enter_getsid", "true", NULL };
	const char *eq[] = { "--switch-output-event=cs", "--switch-max-files=2", "true", NULL };
	struct record_opts o;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	assert_int_equal(parse_validate(&o, &e, both), 0);
	assert_string_equal(o.switch_output_event, "syscalls:sys_enter_getsid");
	/* perf's switch_output_setup: the event is --switch-output=signal. */
	assert_true(o.switch_output && o.switch_signal && o.timestamp_filename);
	assert_int_equal(o.switch_size, 0);
	assert_int_equal(o.switch_time_ms, 0);
	options__exit(&o);
	/* --switch-max-files counts its files as --switch-output's. */
	assert_int_equal(parse_validate(&o, &e, eq), 0);
	assert_int_equal(o.switch_max_files, 2);
	options__exit(&o);
}

static void test_switch_output_event_refused(void **state)
{
	static const struct {
		const char *args[6];
		const char *msg;
	} rows[] = {
		{ { "--switch-output-event=", "true" }, "empty --switch-output-event" },
		{ { "--switch-output-event" }, "needs a value" },
		{ { "--switch-output-event=cs", "--threads", "true" }, "not with --threads" },
		{ { "--switch-output-event=cs", "-o", "-", "true" }, "not with -o -" },
	};
	struct record_opts o;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_int_equal(parse_validate(&o, &e, rows[i].args), -EINVAL);
		if (!strstr(prec_err__msg(&e), rows[i].msg))
			fail_msg("row %zu: '%s' lacks '%s'", i, prec_err__msg(&e), rows[i].msg);
		options__exit(&o);
	}
}

static void test_evlist_config(void **state)
{
	const char *args[] = { "--running-time", "--transaction", "true", NULL };
	const char *none[] = { "true", NULL };
	struct evlist_config cfg;
	struct record_opts o;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	assert_int_equal(parse_validate(&o, &e, args), 0);
	evlist_config__init(&cfg, &o, 4000, -1);
	assert_true(cfg.running_time && cfg.sample_transaction);
	options__exit(&o);
	assert_int_equal(parse_validate(&o, &e, none), 0);
	evlist_config__init(&cfg, &o, 4000, -1);
	assert_false(cfg.running_time || cfg.sample_transaction);
	options__exit(&o);
}

/* --group: perf's evlist__set_leader over whatever groups -e made. */
static void test_group_merges(void **state)
{
	const char *args[] = { "--group", "-e", "{cpu-clock,task-clock}", "-e", "page-faults",
			       "-e", "cs", "true", NULL };
	const char *one[] = { "--group", "-e", "cpu-clock", "true", NULL };
	const char *plain[] = { "-e", "{cpu-clock,task-clock}", "-e", "page-faults", "true", NULL };
	struct event_specs specs = { 0 };
	struct record_opts o;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	assert_int_equal(parse_validate(&o, &e, args), 0);
	assert_int_equal(event_specs__parse_options(&specs, &o, &e), 0);
	assert_int_equal(specs.nr, 4);
	assert_int_equal(specs.v[0].nr_members, 4);
	for (int i = 0; i < specs.nr; i++)
		assert_int_equal(specs.v[i].leader, 0);
	event_specs__exit(&specs);
	options__exit(&o);

	/* One event: no group at all. */
	assert_int_equal(parse_validate(&o, &e, one), 0);
	assert_int_equal(event_specs__parse_options(&specs, &o, &e), 0);
	assert_int_equal(specs.v[0].nr_members, 1);
	event_specs__exit(&specs);
	options__exit(&o);

	/* Without --group the explicit group stays as written. */
	assert_int_equal(parse_validate(&o, &e, plain), 0);
	assert_int_equal(event_specs__parse_options(&specs, &o, &e), 0);
	assert_int_equal(specs.v[0].nr_members, 2);
	assert_int_equal(specs.v[2].leader, 2);
	event_specs__exit(&specs);
	options__exit(&o);
}

/* --strict-freq: an -F over kernel.perf_event_max_sample_rate fails (0)
 * where it is otherwise lowered to the limit; -F max is never refused. */
static void test_strict_freq(void **state)
{
	long max = sysinfo__sysctl_or("kernel/perf_event_max_sample_rate", 0);
	char over[32];
	const char *strict[] = { "--strict-freq", "-F", over, "true", NULL };
	const char *lax[] = { "-F", over, "true", NULL };
	const char *at_max[] = { "--strict-freq", "-F", "max", "true", NULL };
	const char *low[] = { "--strict-freq", "-F", "1", "true", NULL };
	struct record_opts o;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	uint64_t freq = 0;

	(void)state;
	if (max <= 0)
		skip(); /* no limit to pass on this machine */
	snprintf(over, sizeof(over), "%ld", max + 1);
	assert_int_equal(parse_validate(&o, &e, strict), 0);
	assert_int_equal(prepare__freq(&o, &freq, &e), -EINVAL);
	assert_non_null(strstr(prec_err__msg(&e), "with --strict-freq (use -F "));
	options__exit(&o);
	assert_int_equal(parse_validate(&o, &e, lax), 0);
	assert_int_equal(prepare__freq(&o, &freq, &e), 0);
	assert_int_equal(freq, (uint64_t)max);
	options__exit(&o);
	assert_int_equal(parse_validate(&o, &e, at_max), 0);
	assert_int_equal(prepare__freq(&o, &freq, &e), 0);
	assert_int_equal(freq, (uint64_t)max);
	options__exit(&o);
	assert_int_equal(parse_validate(&o, &e, low), 0);
	assert_int_equal(prepare__freq(&o, &freq, &e), 0);
	assert_int_equal(freq, 1);
	options__exit(&o);
}

/* The side-band event is parsed before anything opens; an unknown one is
 * the usage error that names the option. */
static void test_sideband_parse(void **state)
{
	struct sideband_event sb;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	assert_int_equal(sideband_event__parse(&sb, "nosuch", &e), -EINVAL);
	assert_non_null(strstr(prec_err__msg(&e), "--switch-output-event"));
	assert_non_null(strstr(prec_err__msg(&e), "nosuch"));
	sideband_event__exit(&sb);
	assert_int_equal(sideband_event__parse(&sb, "cpu-clock,task-clock", &e), 0);
	assert_int_equal(sb.specs.nr, 2);
	assert_false(sb.started);
	sideband_event__stop(&sb); /* never started: nothing to join */
	sideband_event__exit(&sb);
	sideband_event__exit(&sb); /* twice is harmless */
	assert_int_equal(sb.stop_fd, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flags_parse),
		cmocka_unit_test(test_flags_take_no_value),
		cmocka_unit_test(test_switch_output_event),
		cmocka_unit_test(test_switch_output_event_refused),
		cmocka_unit_test(test_evlist_config),
		cmocka_unit_test(test_group_merges),
		cmocka_unit_test(test_strict_freq),
		cmocka_unit_test(test_sideband_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
