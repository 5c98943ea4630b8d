// SPDX-License-Identifier: GPL-2.0-only
/*
 * The narrow configs record_prepare.c builds once from the final options
 * (target_config__init, synth_config__init, off_cpu_config__init,
 * output_config__init): each
 * option lands in its field, the implied ones included, so the modules that
 * read them see what the command line asked for.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "recorder/bpf/off_cpu.h"
#include "recorder/options/options.h"
#include "recorder/output/output_config.h"
#include "recorder/entry.h"
#include "prec/error.h"
#include "recorder/synth/synth_config.h"
#include "recorder/targets/target.h"

static const struct options_env plain_stdout;

/* Parses then validates argv (after "prec"), which must be accepted. */
static void parse_validate(struct record_opts *o, const char *const *args)
{
	char *argv[16] = { "prec" };
	struct prec_err e = PREC_ERR_INIT;
	int argc = 1;

	for (; args[argc - 1]; argc++)
		argv[argc] = (char *)args[argc - 1];
	if (options__parse(o, argc, argv, &e) || options__validate(o, &plain_stdout, &e))
		fail_msg("%s: %s", args[0], prec_err__msg(&e));
}

static void test_target(void **state)
{
	struct record_opts o;
	struct target_config t;

	(void)state;
	parse_validate(&o, (const char *const[]){ "-C", "0-1", "-G", "grp", "true", NULL });
	target_config__init(&t, &o);
	assert_string_equal(t.cpu_list, "0-1");
	assert_string_equal(t.cgroup, "grp");
	assert_true(t.command);
	assert_false(t.system_wide || t.per_thread || t.pid_list || t.tid_list || t.uid_str);
	options__exit(&o);

	parse_validate(&o, (const char *const[]){ "--per-thread", "-p", "1,2", NULL });
	target_config__init(&t, &o);
	assert_true(t.per_thread);
	assert_string_equal(t.pid_list, "1,2");
	assert_false(t.command);
	assert_true(target__ends_with_threads(&t));
	options__exit(&o);

	parse_validate(&o, (const char *const[]){ "-u", "root", NULL });
	target_config__init(&t, &o);
	assert_string_equal(t.uid_str, "root");
	assert_true(target__ends_with_threads(&t));
	options__exit(&o);

	parse_validate(&o, (const char *const[]){ "-a", NULL });
	target_config__init(&t, &o);
	assert_true(t.system_wide);
	assert_false(target__ends_with_threads(&t));
	options__exit(&o);
}

static void test_synth(void **state)
{
	struct record_opts o;
	struct synth_config s;

	(void)state;
	/* The defaults: every existing task with its maps; no CGROUP without
	 * --all-cgroups. */
	parse_validate(&o, (const char *const[]){ "true", NULL });
	synth_config__init(&s, &o);
	assert_true(s.tasks && s.mmaps);
	assert_false(s.cgroups || s.tail || s.namespaces || s.buildid_mmap || s.no_bpf_event);
	assert_int_equal(s.nr_threads, 0);
	options__exit(&o);

	parse_validate(&o, (const char *const[]){ "--all-cgroups", "--namespaces", "--buildid-mmap",
						  "--no-bpf-event", "--num-thread-synthesize=3",
						  "--proc-map-timeout=700", "-d", "true", NULL });
	synth_config__init(&s, &o);
	assert_true(s.tasks && s.mmaps && s.cgroups && s.namespaces && s.buildid_mmap);
	assert_true(s.no_bpf_event && s.data_mmap);
	assert_int_equal(s.nr_threads, 3);
	assert_int_equal(s.proc_map_timeout_ms, 700);
	options__exit(&o);

	/* --synth=task: no maps; --all-cgroups without --synth's cgroup: none. */
	parse_validate(&o, (const char *const[]){ "--synth=task", "--all-cgroups", "true", NULL });
	synth_config__init(&s, &o);
	assert_true(s.tasks);
	assert_false(s.mmaps || s.cgroups);
	options__exit(&o);

	/* --overwrite implies --tail-synthesize. */
	parse_validate(&o, (const char *const[]){ "--overwrite", "true", NULL });
	synth_config__init(&s, &o);
	assert_true(s.tail);
	options__exit(&o);
}

static void test_off_cpu(void **state)
{
	struct record_opts o;
	struct off_cpu_config c;

	(void)state;
	parse_validate(&o, (const char *const[]){ "--off-cpu", "--all-cgroups", "-k", "mono",
						  "true", NULL });
	off_cpu_config__init(&c, &o);
	assert_true(c.needs_cgroup && c.use_clockid);
	assert_int_equal(c.clockid, 1); /* CLOCK_MONOTONIC */
	assert_int_equal(c.thresh_ns, o.off_cpu_thresh_ns);
	options__exit(&o);
}

static void test_output(void **state)
{
	struct record_opts o;
	struct output_config c;

	(void)state;
	/* The defaults: perf.data, a file, build-ids of the hit DSOs cached,
	 * names kept, nothing rotates or stops for its size. */
	parse_validate(&o, (const char *const[]){ "true", NULL });
	output_config__init(&c, &o);
	assert_string_equal(c.path, "perf.data");
	assert_false(c.pipe || c.kcore || c.switch_output || c.timestamp_filename);
	assert_false(c.no_buildid || c.no_buildid_cache || c.buildid_all || c.buildid_mmap);
	assert_false(c.branch_stack);
	assert_true(c.keep_names);
	assert_int_equal(c.comp_level, 0);
	assert_int_equal(c.nr_cblocks, 0);
	assert_true(c.max_size == 0 && c.switch_size == 0 && c.switch_time_ms == 0);
	assert_null(c.debuginfod_urls);
	options__exit(&o);

	/* --switch-output=SIZE implies the timestamped names. */
	parse_validate(&o, (const char *const[]){ "-o", "x.data", "--switch-output=2M",
						  "--switch-max-files=3", "--max-size=100K", "-z",
						  "--aio=2", "true", NULL });
	output_config__init(&c, &o);
	assert_string_equal(c.path, "x.data");
	assert_true(c.switch_output && c.timestamp_filename);
	assert_int_equal(c.switch_size, 2 << 20);
	assert_int_equal(c.switch_time_ms, 0);
	assert_int_equal(c.switch_max_files, 3);
	assert_int_equal(c.max_size, 100 << 10);
	assert_int_equal(c.comp_level, o.comp_level);
	assert_true(c.comp_level > 0);
	assert_int_equal(c.nr_cblocks, 2);
	options__exit(&o);

	parse_validate(&o, (const char *const[]){ "--switch-output=3s", "-N", "--buildid-all",
						  "--no-keep-names", "-j", "any", "true", NULL });
	output_config__init(&c, &o);
	assert_int_equal(c.switch_time_ms, 3000);
	assert_int_equal(c.switch_size, 0);
	assert_true(c.no_buildid_cache && c.buildid_all && c.branch_stack);
	assert_false(c.keep_names || c.no_buildid);
	options__exit(&o);

	parse_validate(&o, (const char *const[]){ "-o", "-", "-B", "--buildid-mmap", "true", NULL });
	output_config__init(&c, &o);
	assert_string_equal(c.path, "-");
	assert_true(c.pipe && c.no_buildid && c.buildid_mmap);
	options__exit(&o);

	/* --debuginfod's servers; none when it is off, even with servers
	 * named (record.debuginfod = false in a config that names them). */
	parse_validate(&o, (const char *const[]){ "--debuginfod=https://d.example", "true", NULL });
	output_config__init(&c, &o);
	assert_string_equal(c.debuginfod_urls, "https://d.example");
	o.debuginfod = false;
	output_config__init(&c, &o);
	assert_null(c.debuginfod_urls);
	options__exit(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_target),
		cmocka_unit_test(test_synth),
		cmocka_unit_test(test_off_cpu),
		cmocka_unit_test(test_output),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
