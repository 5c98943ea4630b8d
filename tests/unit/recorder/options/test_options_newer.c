// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf record's options newer than 6.1 (issue 31): --sample-mem-info,
 * --latency, --data-mmap and -j counter. Each one's parse, what validate
 * implies or refuses (one line naming the fix), and the attr bits the events
 * get from it (evlist_config, evsel__config_sample's rules).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/perf_event.h>

#include "recorder/evlist/evlist_config.h"
#include "recorder/options/options.h"
#include "recorder/entry.h"
#include "recorder/record_prepare.h"

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

/* --sample-mem-info: DATA_SRC alone; -d and --call-graph dwarf imply it (perf 6.16). */
static void test_sample_mem_info(void **state)
{
	static const struct {
		const char *args[6];
		bool addr, data_src;
	} rows[] = {
		{ { "true" }, false, false },
		{ { "--sample-mem-info", "true" }, false, true },
		{ { "--sample-mem", "true" }, false, true },
		{ { "-d", "true" }, true, true },
		{ { "-d", "--sample-mem-info", "true" }, true, true },
		{ { "--call-graph", "dwarf", "true" }, true, true },
		{ { "-g", "true" }, false, false },
	};
	struct record_opts o;
	struct evlist_config cfg;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_int_equal(parse_validate(&o, &e, rows[i].args), 0);
		evlist_config__init(&cfg, &o, 0, -1);
		if (o.sample_addr != rows[i].addr || o.sample_data_src != rows[i].data_src ||
		    cfg.sample_addr != rows[i].addr || cfg.sample_data_src != rows[i].data_src)
			fail_msg("row %zu: sample_addr %d/%d sample_data_src %d/%d", i,
				 o.sample_addr, cfg.sample_addr, o.sample_data_src,
				 cfg.sample_data_src);
		options__exit(&o);
	}
	{
		const char *args[] = { "--sample-mem-info=1", "true", NULL };

		assert_int_equal(parse_validate(&o, &e, args), -EINVAL);
		assert_non_null(strstr(prec_err__msg(&e), "takes no value"));
	}
}

/* --latency: context switches (perf 6.15), refused system-wide. */
static void test_latency(void **state)
{
	static const struct {
		const char *args[6];
		int ret;
	} rows[] = {
		{ { "--latency", "true" }, 0 },
		{ { "--latency", "-p", "1" }, 0 },
		{ { "--latency", "-C", "0", "true" }, 0 },
		{ { "--latency", "-a", "true" }, -EINVAL },
		{ { "--latency" }, -EINVAL },
		{ { "--latency", "-C", "0" }, 0 },
	};
	struct record_opts o;
	struct evlist_config cfg;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int ret = parse_validate(&o, &e, rows[i].args);

		if (ret != rows[i].ret)
			fail_msg("row %zu: %d (%s)", i, ret, prec_err__msg(&e));
		if (ret) {
			assert_non_null(strstr(prec_err__msg(&e),
					       "--latency is not supported with system-wide"));
			assert_null(strchr(prec_err__msg(&e), '\n'));
		} else {
			evlist_config__init(&cfg, &o, 0, -1);
			assert_true(o.latency && o.switch_events && cfg.switch_events);
		}
		options__exit(&o);
	}
}

/* --data-mmap: mmap_data and synthesized data maps, apart from -d (perf 7.0). */
static void test_data_mmap(void **state)
{
	static const struct {
		const char *args[6];
		bool addr, data_mmap;
	} rows[] = {
		{ { "true" }, false, false },
		{ { "--data-mmap", "true" }, false, true },
		{ { "-d", "true" }, true, true },
		{ { "-d", "--no-data-mmap", "true" }, true, false },
		{ { "--no-data-mmap", "-d", "true" }, true, false },
		{ { "--no-data-mmap", "true" }, false, false },
		{ { "--call-graph=dwarf", "true" }, true, true },
		{ { "--sample-mem-info", "true" }, false, false },
	};
	const char *both[] = { "--data-mmap", "--no-data-mmap", "true", NULL };
	struct record_opts o;
	struct evlist_config cfg;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_int_equal(parse_validate(&o, &e, rows[i].args), 0);
		evlist_config__init(&cfg, &o, 0, -1);
		if (cfg.sample_addr != rows[i].addr || o.data_mmap != rows[i].data_mmap ||
		    cfg.data_mmap != rows[i].data_mmap)
			fail_msg("row %zu: sample_addr %d data_mmap %d/%d", i, cfg.sample_addr,
				 o.data_mmap, cfg.data_mmap);
		options__exit(&o);
	}
	assert_int_equal(parse_validate(&o, &e, both), -EINVAL);
	assert_non_null(strstr(prec_err__msg(&e), "give one"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample_mem_info),
		cmocka_unit_test(test_latency),
		cmocka_unit_test(test_data_mmap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
