// SPDX-License-Identifier: GPL-2.0-only
/*
 * What prec takes from perf's configuration (perfconfig.c), and how it
 * meets the command line: each key perf record 6.1 reads, with the values
 * perf takes and the ones it refuses (one line: file, line, key, fix);
 * perf's order (a set by first appearance, section by section; perf
 * record's own keys after the others; a later file's value in an earlier
 * one's place); then options__parse_with (the command line wins, -g takes
 * the configured mode) and options__validate (what a configured default
 * becomes for a stream, --threads, --debuginfod), and the attr bits of a
 * configured dwarf mode (callchain__config).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prec/debuginfod.h"
#include "recorder/options/callchain.h"
#include "recorder/options/options.h"
#include "recorder/options/perfconfig.h"

/* cfg from one or two files' texts, resolved; the resolve's return. */
static int load2(struct perfconfig *cfg, const char *a, const char *b, struct prec_err *e)
{
	int ret;

	perfconfig__init(cfg);
	ret = perfconfig__add_text(cfg, "/etc/perfconfig", a, strlen(a), e);
	if (!ret && b)
		ret = perfconfig__add_text(cfg, "/home/u/.perfconfig", b, strlen(b), e);
	return ret ? ret : perfconfig__resolve(cfg, e);
}

static int load(struct perfconfig *cfg, const char *text, struct prec_err *e)
{
	return load2(cfg, text, NULL, e);
}

static void test_record_keys(void **state)
{
	static const struct {
		const char *text;
		int buildid, aio, debuginfod;
		const char *urls;
	} rows[] = {
		{ "[record]\nbuild-id = cache\n", PERFCONFIG_BUILDID_CACHE, -1, -1, NULL },
		{ "[record]\nbuild-id = no-cache\n", PERFCONFIG_BUILDID_NO_CACHE, -1, -1, NULL },
		{ "[record]\nbuild-id = skip\n", PERFCONFIG_BUILDID_SKIP, -1, -1, NULL },
		{ "[record]\n\tbuild-id = \"mmap\" # comment\n", PERFCONFIG_BUILDID_MMAP, -1, -1,
		  NULL },
		{ "[record]\nbuild-id = skip\nbuild-id = cache\n", PERFCONFIG_BUILDID_CACHE, -1, -1,
		  NULL },
		/* perf's strtol and its limits: 0 is one, over 4 is 4, below 0 none */
		{ "[record]\naio = 2\n", 0, 2, -1, NULL },
		{ "[record]\naio = 0\n", 0, 1, -1, NULL },
		{ "[record]\naio = 9\n", 0, 4, -1, NULL },
		{ "[record]\naio = -3\n", 0, 0, -1, NULL },
		{ "[record]\naio = 0x3\n", 0, 3, -1, NULL },
		{ "[record]\ndebuginfod = http://a http://b\n", 0, -1, 1, "http://a http://b" },
		{ "[record]\ndebuginfod = system\n", 0, -1, 1, NULL },
		{ "[record]\ndebuginfod =\n", 0, -1, 0, "" },
		/* keys perf record does not read, and other commands' keys */
		{ "[record]\nbogus = 1\n[hist]\npercentage = bogus\n[llvm]\nx = 1\n", 0, -1, -1,
		  NULL },
		/* perf compares case: a key of another case is another key */
		{ "[RECORD]\nBuild-id = skip\n", PERFCONFIG_BUILDID_SKIP, -1, -1, NULL },
		{ "[record]\nbuild-Id = skip\n", 0, -1, -1, NULL },
		{ "[record \"x\"]\nbuild-id = skip\n", 0, -1, -1, NULL },
	};
	struct perfconfig cfg;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (load(&cfg, rows[i].text, &e))
			fail_msg("row %zu: %s", i, prec_err__msg(&e));
		if (cfg.buildid != rows[i].buildid || cfg.aio != rows[i].aio ||
		    cfg.debuginfod != rows[i].debuginfod)
			fail_msg("row %zu: buildid %d aio %d debuginfod %d", i, cfg.buildid,
				 cfg.aio, cfg.debuginfod);
		if (rows[i].debuginfod > 0 &&
		    (rows[i].urls ?
			     !cfg.debuginfod_urls || strcmp(cfg.debuginfod_urls, rows[i].urls) :
			     cfg.debuginfod_urls != NULL))
			fail_msg("row %zu: urls %s", i, cfg.debuginfod_urls);
		perfconfig__exit(&cfg);
	}
}

static void test_callchain_keys(void **state)
{
	static const struct {
		const char *text;
		int mode;
		uint32_t dump, depth;
	} rows[] = {
		{ "[call-graph]\nrecord-mode = fp\n", CALLCHAIN_FP, 0, 0 },
		{ "[call-graph]\nrecord-mode = dwarf\n", CALLCHAIN_DWARF, 8192, 0 },
		{ "[call-graph]\nrecord-mode = dwarf,100\n", CALLCHAIN_DWARF, 104, 0 },
		{ "[call-graph]\nrecord-mode = lbr\n", CALLCHAIN_LBR, 0, 0 },
		{ "[call-graph]\ndump-size = 0x100\n", CALLCHAIN_NONE, 256, 0 },
		{ "[Call-Graph]\nRecord-mode = dwarf\n", CALLCHAIN_DWARF, 8192, 0 },
		/* in the set's order: dwarf sets its default size, dump-size after it wins */
		{ "[call-graph]\nrecord-mode = dwarf\ndump-size = 4096\n", CALLCHAIN_DWARF, 4096,
		  0 },
		{ "[call-graph]\ndump-size = 4096\nrecord-mode = dwarf\n", CALLCHAIN_DWARF, 8192,
		  0 },
		/* a section seen again adds to its first place */
		{ "[call-graph]\nrecord-mode = dwarf\n[record]\nbuild-id = cache\n[call-graph]\ndump-size = 512\n",
		  CALLCHAIN_DWARF, 512, 0 },
		/* record.call-graph is read in perf record's pass, after all of them */
		{ "[record]\ncall-graph = dwarf\n[call-graph]\nrecord-mode = fp\ndump-size = 1024\n",
		  CALLCHAIN_DWARF, 8192, 0 },
		{ "[call-graph]\nrecord-mode = dwarf\ndump-size = 1024\n[record]\ncall-graph = fp\n",
		  CALLCHAIN_FP, 1024, 0 },
		/* fp,N: perf's depth of every callchain (issue 33 row 9) */
		{ "[call-graph]\nrecord-mode = fp,32\n", CALLCHAIN_FP, 0, 32 },
		{ "[call-graph]\nrecord-mode = fp,0x10\n", CALLCHAIN_FP, 0, 16 },
		{ "[call-graph]\nrecord-mode = fp,0\n", CALLCHAIN_FP, 0, 0 },
		{ "[call-graph]\nrecord-mode = fp,65535\n", CALLCHAIN_FP, 0, 65535 },
		/* a later mode keeps the depth, as perf's callchain_param */
		{ "[call-graph]\nrecord-mode = fp,32\n[record]\ncall-graph = dwarf,4096\n",
		  CALLCHAIN_DWARF, 4096, 32 },
		{ "[record]\ncall-graph = fp,8\n[call-graph]\nrecord-mode = fp,32\n", CALLCHAIN_FP,
		  0, 8 },
	};
	struct perfconfig cfg;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (load(&cfg, rows[i].text, &e))
			fail_msg("row %zu: %s", i, prec_err__msg(&e));
		if (cfg.callchain_mode != rows[i].mode || cfg.callchain_dump != rows[i].dump ||
		    cfg.callchain_max_stack != rows[i].depth)
			fail_msg("row %zu: mode %d dump %u depth %u", i, cfg.callchain_mode,
				 cfg.callchain_dump, cfg.callchain_max_stack);
		perfconfig__exit(&cfg);
	}
}

static void test_core_and_buildid_keys(void **state)
{
	struct perfconfig cfg;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	assert_int_equal(load(&cfg, "[core]\nproc-map-timeout = 1500\n[buildid]\ndir = /x y\n", &e),
			 0);
	assert_int_equal(cfg.proc_map_timeout_ms, 1500);
	assert_string_equal(cfg.buildid_dir, "/x y");
	perfconfig__exit(&cfg);
	/* prec's own key: a size, 0 included */
	assert_int_equal(load(&cfg, "[prec]\nnames-cache-max = 3M\n", &e), 0);
	assert_true(cfg.names_cache_max_set);
	assert_int_equal(cfg.names_cache_max, 3 << 20);
	perfconfig__exit(&cfg);
	assert_int_equal(load(&cfg, "[prec]\nnames-cache-max = 0\n", &e), 0);
	assert_true(cfg.names_cache_max_set && !cfg.names_cache_max);
	perfconfig__exit(&cfg);
	/* "": perf's default, $HOME/.debug */
	assert_int_equal(load(&cfg, "[buildid]\ndir = /x\ndir = \"\"\n", &e), 0);
	assert_null(cfg.buildid_dir);
	perfconfig__exit(&cfg);
	/* nothing set: nothing changes */
	assert_int_equal(load(&cfg, "", &e), 0);
	assert_true(cfg.buildid == PERFCONFIG_BUILDID_UNSET && cfg.aio == -1 &&
		    cfg.debuginfod == -1 && !cfg.callchain_mode && !cfg.callchain_dump &&
		    !cfg.proc_map_timeout_ms && !cfg.buildid_dir && !cfg.nr_warnings &&
		    !cfg.names_cache_max_set);
	perfconfig__exit(&cfg);
}

/* The values perf record refuses (and those prec cannot record with): one
 * line naming the file, the line, the key and the value. */
static void test_bad_values(void **state)
{
	static const struct {
		const char *text;
		const char *want;
	} rows[] = {
		{ "[record]\nbuild-id = bogus\n",
		  "line 2: record.build-id = 'bogus' is not a build-id mode" },
		{ "[record]\nbuild-id = Cache\n", "record.build-id = 'Cache'" },
		{ "\n[call-graph]\nrecord-mode = no\n", "line 3: call-graph.record-mode = 'no'" },
		{ "[call-graph]\nrecord-mode = bogus\n", "call-graph.record-mode = 'bogus'" },
		{ "[call-graph]\nrecord-mode = fp,8x\n", "fp,DEPTH with DEPTH 0 to 65535" },
		{ "[call-graph]\nrecord-mode = fp,\n", "call-graph.record-mode = 'fp,'" },
		{ "[call-graph]\nrecord-mode = fp,-1\n", "call-graph.record-mode = 'fp,-1'" },
		{ "[call-graph]\nrecord-mode = fp,65536\n", "call-graph.record-mode" },
		{ "[call-graph]\nrecord-mode = fp,8,2\n", "call-graph.record-mode" },
		{ "[call-graph]\nrecord-mode = dwarf,0\n", "dwarf,SIZE with SIZE 8 to 65528" },
		{ "[call-graph]\nrecord-mode = dwarf,70000\n", "call-graph.record-mode" },
		{ "[record]\ncall-graph = lbr,1\n", "record.call-graph = 'lbr,1'" },
		{ "[call-graph]\ndump-size = 70000\n",
		  "call-graph.dump-size = '70000' is not a stack dump size" },
		{ "[call-graph]\ndump-size = abc\n", "call-graph.dump-size" },
		{ "[call-graph]\ndump-size = -8\n", "call-graph.dump-size" },
		{ "[call-graph]\ndump-size =\n", "call-graph.dump-size" },
		{ "[core]\nproc-map-timeout = 0\n",
		  "core.proc-map-timeout = '0' is not a timeout" },
		{ "[core]\nproc-map-timeout = 10s\n", "core.proc-map-timeout" },
		{ "[record]\naio = x\n", "record.aio = 'x' is not a number" },
		{ "[prec]\nnames-cache-max = 3X\n", "prec.names-cache-max = '3X' is not a size" },
		{ "[prec]\nnames-cache-max = -1\n", "prec.names-cache-max" },
		{ "[prec]\nnames-cache-max =\n", "prec.names-cache-max" },
		{ "[record]\naio = 99999999999999999999\n", "record.aio" },
		/* one line whatever the value holds */
		{ "[record]\nbuild-id = a\\nb\n", "record.build-id = 'a?b'" },
	};
	struct perfconfig cfg;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int ret = load(&cfg, rows[i].text, &e);

		if (ret != -EINVAL || !strstr(prec_err__msg(&e), rows[i].want) ||
		    strchr(prec_err__msg(&e), '\n') ||
		    !strstr(prec_err__msg(&e), "/etc/perfconfig") ||
		    !strstr(prec_err__msg(&e), "remove the line"))
			fail_msg("row %zu: ret %d '%s'", i, ret, prec_err__msg(&e));
		perfconfig__exit(&cfg);
	}
}

/* Two files: the user's value replaces the system's in its place; the
 * error names the file that set the value. */
static void test_two_files(void **state)
{
	struct perfconfig cfg;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	assert_int_equal(load2(&cfg, "[call-graph]\ndump-size = 1024\n",
			       "[call-graph]\nrecord-mode = dwarf\n", &e),
			 0);
	assert_int_equal(cfg.callchain_dump, 8192);
	perfconfig__exit(&cfg);
	assert_int_equal(load2(&cfg, "[call-graph]\nrecord-mode = dwarf\ndump-size = 1024\n",
			       "[call-graph]\nrecord-mode = dwarf,2048\n", &e),
			 0);
	assert_int_equal(cfg.callchain_mode, CALLCHAIN_DWARF);
	assert_int_equal(cfg.callchain_dump, 1024);
	perfconfig__exit(&cfg);
	assert_int_equal(load2(&cfg, "[record]\nbuild-id = skip\naio = 1\n",
			       "# mine\n\n[record]\n  build-id = cached\n", &e),
			 -EINVAL);
	assert_non_null(strstr(prec_err__msg(&e),
			       "/home/u/.perfconfig, line 4: record.build-id = 'cached'"));
	perfconfig__exit(&cfg);
	/* a line perf cannot read: a warning, the settings before it stand */
	assert_int_equal(load2(&cfg, "[record]\nbuild-id = skip\n[bad\naio = 1\n", NULL, &e),
			 -EINVAL);
	assert_int_equal(cfg.nr_warnings, 1);
	assert_non_null(
		strstr(cfg.warnings[0], "/etc/perfconfig, line 3: not a setting perf reads"));
	assert_int_equal(perfconfig__resolve(&cfg, &e), 0);
	assert_int_equal(cfg.buildid, PERFCONFIG_BUILDID_SKIP);
	assert_int_equal(cfg.aio, -1);
	perfconfig__exit(&cfg);
}

/* Any number of names, as perf (issue 33 row 10: 1,025 were refused):
 * 200,000 other keys, in the sections prec reads too, around the ones it
 * takes: all in the set, read at once, perf's order of the keys kept. */
static void test_many_keys(void **state)
{
	const int nr = 200000;
	size_t cap = (size_t)nr * 40 + 256, n;
	char *text = malloc(cap);
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	struct perfconfig cfg;

	(void)state;
	assert_non_null(text);
	n = (size_t)snprintf(text, cap, "[record]\ncall-graph = dwarf,2048\n");
	for (int i = 0; i < nr; i++)
		n += (size_t)snprintf(text + n, cap - n, "%sk%d = 1\n",
				      i % 3 == 0 ? "[record]\n" :
				      i % 3 == 1 ? "[call-graph]\n" :
						   "[s]\n",
				      i);
	n += (size_t)snprintf(text + n, cap - n, "[call-graph]\nrecord-mode = fp,32\n");
	perfconfig__init(&cfg);
	assert_int_equal(perfconfig__add_text(&cfg, "big", text, n, &e), 0);
	assert_int_equal(perfconfig__resolve(&cfg, &e), 0);
	assert_int_equal(cfg.nr_items, (size_t)nr + 2);
	/* record.call-graph is read after call-graph.*, whatever lies between */
	assert_int_equal(cfg.callchain_mode, CALLCHAIN_DWARF);
	assert_int_equal(cfg.callchain_dump, 2048);
	assert_int_equal(cfg.callchain_max_stack, 32);
	perfconfig__exit(&cfg);
	free(text);
}

static const struct options_env plain_stdout;
static const struct options_env fifo_stdout = { .stdout_fifo = true };

/* The configuration of the last run: opts point into it, as in main. */
static struct perfconfig held;

static int free_held(void **state)
{
	(void)state;
	perfconfig__exit(&held);
	return 0;
}

/* Parses args (after "prec") over a configuration's text, then validates
 * with env. */
static int run(struct record_opts *o, const char *text, const struct options_env *env,
	       const char *const *args)
{
	char *argv[16] = { "prec" };
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	int argc = 1, ret;

	for (; args[argc - 1]; argc++)
		argv[argc] = (char *)args[argc - 1];
	perfconfig__exit(&held);
	if (load(&held, text, &e))
		fail_msg("%s", prec_err__msg(&e));
	ret = options__parse_with(o, &held, argc, argv, &e);
	if (!ret)
		ret = options__validate(o, env, &e);
	return ret;
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

static void test_command_line_wins(void **state)
{
	static const char dwarf[] = "[call-graph]\nrecord-mode = dwarf\ndump-size = 4096\n";
	struct record_opts o;

	(void)state;
	/* the configured mode is what -g records, without data addresses */
	assert_int_equal(run(&o, dwarf, &plain_stdout, ARGS("-g", "true")), 0);
	assert_int_equal(o.callchain_mode, CALLCHAIN_DWARF);
	assert_int_equal(o.callchain_dump, 4096);
	assert_false(o.sample_addr);
	options__exit(&o);
	/* ... and nothing without -g */
	assert_int_equal(run(&o, dwarf, &plain_stdout, ARGS("true")), 0);
	assert_int_equal(o.callchain_mode, CALLCHAIN_NONE);
	options__exit(&o);
	/* --call-graph is its own: dwarf at its default size, with -d */
	assert_int_equal(run(&o, dwarf, &plain_stdout, ARGS("--call-graph", "dwarf", "true")), 0);
	assert_int_equal(o.callchain_dump, 8192);
	assert_true(o.sample_addr);
	options__exit(&o);
	assert_int_equal(run(&o, dwarf, &plain_stdout, ARGS("--call-graph=fp", "-g", "true")), 0);
	assert_int_equal(o.callchain_mode, CALLCHAIN_FP);
	options__exit(&o);
	assert_int_equal(run(&o, dwarf, &plain_stdout, ARGS("-d", "-g", "true")), 0);
	assert_true(o.sample_addr && o.callchain_mode == CALLCHAIN_DWARF);
	options__exit(&o);
	/* fp,N's depth goes to every callchain, --call-graph's too; its own
	 * fp,N wins (issue 33 row 9) */
	assert_int_equal(run(&o, "[call-graph]\nrecord-mode = fp,32\n", &plain_stdout,
			     ARGS("-g", "true")),
			 0);
	assert_int_equal(o.callchain_mode, CALLCHAIN_FP);
	assert_int_equal(o.callchain_max_stack, 32);
	options__exit(&o);
	assert_int_equal(run(&o, "[call-graph]\nrecord-mode = fp,32\n", &plain_stdout,
			     ARGS("--call-graph", "dwarf", "true")),
			 0);
	assert_int_equal(o.callchain_max_stack, 32);
	options__exit(&o);
	assert_int_equal(run(&o, "[call-graph]\nrecord-mode = fp,32\n", &plain_stdout,
			     ARGS("--call-graph", "fp,8", "true")),
			 0);
	assert_int_equal(o.callchain_max_stack, 8);
	options__exit(&o);
	/* no configuration: -g is fp */
	assert_int_equal(run(&o, "", &plain_stdout, ARGS("-g", "true")), 0);
	assert_int_equal(o.callchain_mode, CALLCHAIN_FP);
	options__exit(&o);

	/* build-id: the configured default, the flags add to it */
	assert_int_equal(run(&o, "[record]\nbuild-id = no-cache\n", &plain_stdout, ARGS("true")),
			 0);
	assert_true(o.no_buildid_cache && !o.no_buildid && !o.buildid_mmap);
	options__exit(&o);
	assert_int_equal(run(&o, "[record]\nbuild-id = skip\n", &plain_stdout, ARGS("-N", "true")),
			 0);
	assert_true(o.no_buildid && o.no_buildid_cache);
	options__exit(&o);
	assert_int_equal(run(&o, "[record]\nbuild-id = mmap\n", &plain_stdout, ARGS("true")), 0);
	assert_true(o.buildid_mmap);
	options__exit(&o);

	/* --proc-map-timeout and the configured one */
	assert_int_equal(run(&o, "[core]\nproc-map-timeout = 900\n", &plain_stdout, ARGS("true")),
			 0);
	assert_int_equal(o.proc_map_timeout_ms, 900);
	options__exit(&o);
	assert_int_equal(run(&o, "[core]\nproc-map-timeout = 900\n", &plain_stdout,
			     ARGS("--proc-map-timeout", "20", "true")),
			 0);
	assert_int_equal(o.proc_map_timeout_ms, 20);
	options__exit(&o);

	/* --names-cache-max: the default, the configured one, the option */
	assert_int_equal(run(&o, "", &plain_stdout, ARGS("true")), 0);
	assert_int_equal(o.names_cache_max, PREC_NAMES_CACHE_MAX);
	options__exit(&o);
	assert_int_equal(run(&o, "[prec]\nnames-cache-max = 1G\n", &plain_stdout, ARGS("true")), 0);
	assert_int_equal(o.names_cache_max, 1ULL << 30);
	options__exit(&o);
	assert_int_equal(run(&o, "[prec]\nnames-cache-max = 1G\n", &plain_stdout,
			     ARGS("--names-cache-max=0", "true")),
			 0);
	assert_int_equal(o.names_cache_max, 0);
	options__exit(&o);
}

static void test_aio_default(void **state)
{
	static const char aio2[] = "[record]\naio = 2\n";
	struct record_opts o;

	(void)state;
	assert_int_equal(run(&o, aio2, &plain_stdout, ARGS("true")), 0);
	assert_int_equal(o.nr_cblocks, 2);
	options__exit(&o);
	assert_int_equal(run(&o, aio2, &plain_stdout, ARGS("--aio=1", "true")), 0);
	assert_int_equal(o.nr_cblocks, 1);
	assert_false(o.aio_from_config);
	options__exit(&o);
	/* a stream and --threads record without the configured default ... */
	assert_int_equal(run(&o, aio2, &fifo_stdout, ARGS("true")), 0);
	assert_true(o.pipe_output && o.nr_cblocks == 0);
	options__exit(&o);
	assert_int_equal(run(&o, aio2, &plain_stdout, ARGS("--threads", "true")), 0);
	assert_int_equal(o.nr_cblocks, 0);
	options__exit(&o);
	/* ... but --aio given for one is still refused */
	assert_int_equal(run(&o, aio2, &fifo_stdout, ARGS("--aio", "true")), -EINVAL);
	options__exit(&o);
}

static void test_debuginfod_default(void **state)
{
	static const struct options_env with_urls = { .debuginfod_urls = "http://env" };
	struct record_opts o;

	(void)state;
	assert_int_equal(run(&o, "[record]\ndebuginfod = http://a\n", &plain_stdout, ARGS("true")),
			 0);
	/* asked only when this prec can ask */
	assert_int_equal(o.debuginfod, debuginfod__available());
	assert_string_equal(o.debuginfod_urls, "http://a");
	options__exit(&o);
	/* "system" without $DEBUGINFOD_URLS: nobody to ask, quietly */
	assert_int_equal(run(&o, "[record]\ndebuginfod = system\n", &plain_stdout, ARGS("true")),
			 0);
	assert_false(o.debuginfod);
	options__exit(&o);
	assert_int_equal(run(&o, "[record]\ndebuginfod = system\n", &with_urls, ARGS("true")), 0);
	assert_int_equal(o.debuginfod, debuginfod__available());
	assert_string_equal(o.debuginfod_urls, "http://env");
	options__exit(&o);
	/* the option wins, and is the option's: refused later if it cannot work */
	assert_int_equal(run(&o, "[record]\ndebuginfod = http://a\n", &plain_stdout,
			     ARGS("--debuginfod=http://b", "true")),
			 0);
	assert_true(o.debuginfod && !o.debuginfod_from_config);
	assert_string_equal(o.debuginfod_urls, "http://b");
	options__exit(&o);
	assert_int_equal(run(&o, "[record]\ndebuginfod =\n", &with_urls, ARGS("true")), 0);
	assert_false(o.debuginfod);
	options__exit(&o);
}

/* The attr of a dwarf mode: data addresses only with a parsed one. */
static void test_dwarf_attr(void **state)
{
	struct callchain_param p = { .mode = CALLCHAIN_DWARF, .dump_size = 4096 };
	struct perf_event_attr attr;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	memset(&attr, 0, sizeof(attr));
	callchain__config(&attr, &p, 0xff, 0, 0);
	assert_int_equal(attr.sample_type,
			 PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER);
	assert_int_equal(attr.sample_stack_user, 4096);
	assert_int_equal(callchain__parse("dwarf,1024", &p, &e), 0);
	assert_true(p.data_addr);
	memset(&attr, 0, sizeof(attr));
	callchain__config(&attr, &p, 0xff, 0, 0);
	assert_true(attr.sample_type & PERF_SAMPLE_ADDR);
	assert_true(attr.sample_type & PERF_SAMPLE_DATA_SRC);
	assert_int_equal(callchain__parse("fp", &p, &e), 0);
	assert_false(p.data_addr);
	/* fp,N: the depth in sample_max_stack, as perf's --call-graph fp,N */
	memset(&p, 0, sizeof(p));
	assert_int_equal(callchain__parse("fp,32", &p, &e), 0);
	assert_true(p.has_max_stack);
	memset(&attr, 0, sizeof(attr));
	callchain__config(&attr, &p, 0xff, 0, 0);
	assert_int_equal(attr.sample_type, PERF_SAMPLE_CALLCHAIN);
	assert_int_equal(attr.sample_max_stack, 32);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_keys),
		cmocka_unit_test(test_callchain_keys),
		cmocka_unit_test(test_core_and_buildid_keys),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_two_files),
		cmocka_unit_test(test_many_keys),
		cmocka_unit_test(test_command_line_wins),
		cmocka_unit_test(test_aio_default),
		cmocka_unit_test(test_debuginfod_default),
		cmocka_unit_test(test_dwarf_attr),
	};

	return cmocka_run_group_tests(tests, NULL, free_held);
}
