// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which of perf's configuration files are read, and how (perfconfig_load.c),
 * against perf 6.1's rules: $PERF_CONFIG alone ("" and /dev/null: none; a
 * missing one said), else the system file then ~/.perfconfig, each switched
 * off by its variable; a user file of another owner, or empty, skipped; a
 * system file with a bad line keeps the user's from being read. And where
 * prec does better: nothing that is not a regular file is opened for
 * reading, so a FIFO never blocks it (each case under an alarm).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recorder/options/callchain.h"
#include "recorder/options/perfconfig.h"

static char dir[] = "/tmp/prec-perfconfig.XXXXXX";
static char sys_path[PATH_MAX], home[256], user_path[PATH_MAX];

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(sys_path, sizeof(sys_path), "%s/etc-perfconfig", dir);
	snprintf(home, sizeof(home), "%s/home", dir);
	snprintf(user_path, sizeof(user_path), "%s/.perfconfig", home);
	return mkdir(home, 0755);
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

/* The machine's own files never: this test's system file and home. */
static struct perfconfig_env env_of(const char *perf_config)
{
	return (struct perfconfig_env){ .perf_config = perf_config,
					.home = home,
					.system_path = sys_path,
					.euid = (unsigned)geteuid() };
}

/* Loads under an alarm: a reader that blocks fails the test, not hangs it. */
static int load(struct perfconfig *cfg, const struct perfconfig_env *env, struct prec_err *e)
{
	int ret;

	alarm(10);
	ret = perfconfig__load(cfg, env, e);
	alarm(0);
	return ret;
}

static bool warned(const struct perfconfig *cfg, const char *what)
{
	for (int i = 0; i < cfg->nr_warnings; i++)
		if (strstr(cfg->warnings[i], what))
			return true;
	return false;
}

static void reset_files(void)
{
	unlink(sys_path);
	unlink(user_path);
}

static void test_system_then_user(void **state)
{
	struct perfconfig_env env = env_of(NULL);
	struct perfconfig cfg;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	reset_files();
	put(sys_path, "[record]\nbuild-id = skip\naio = 3\n");
	put(user_path, "[record]\nbuild-id = no-cache\n");
	assert_int_equal(load(&cfg, &env, &e), 0);
	assert_int_equal(cfg.buildid, PERFCONFIG_BUILDID_NO_CACHE); /* the user's wins */
	assert_int_equal(cfg.aio, 3); /* the system's stands */
	assert_int_equal(cfg.nr_files, 2);
	assert_int_equal(cfg.nr_warnings, 0);
	perfconfig__exit(&cfg);

	/* each switched off by its variable, as perf's perf_config_bool reads it */
	env.nosystem = "1";
	assert_int_equal(load(&cfg, &env, &e), 0);
	assert_true(cfg.buildid == PERFCONFIG_BUILDID_NO_CACHE && cfg.aio == -1);
	perfconfig__exit(&cfg);
	env.nosystem = "off";
	env.noglobal = "yes";
	assert_int_equal(load(&cfg, &env, &e), 0);
	assert_true(cfg.buildid == PERFCONFIG_BUILDID_SKIP && cfg.aio == 3);
	perfconfig__exit(&cfg);
	env.noglobal = "0";
	env.nosystem = "maybe"; /* perf warns, and takes it as set */
	assert_int_equal(load(&cfg, &env, &e), 0);
	assert_true(cfg.buildid == PERFCONFIG_BUILDID_NO_CACHE && cfg.aio == -1);
	assert_true(warned(&cfg, "PERF_CONFIG_NOSYSTEM=maybe is not a boolean"));
	perfconfig__exit(&cfg);

	/* no HOME, or an empty one: no user file */
	env = env_of(NULL);
	env.home = NULL;
	assert_int_equal(load(&cfg, &env, &e), 0);
	assert_int_equal(cfg.buildid, PERFCONFIG_BUILDID_SKIP);
	perfconfig__exit(&cfg);
	env.home = "";
	assert_int_equal(load(&cfg, &env, &e), 0);
	assert_int_equal(cfg.buildid, PERFCONFIG_BUILDID_SKIP);
	perfconfig__exit(&cfg);
}

/* $PERF_CONFIG: that file alone; "" or /dev/null: none; missing: said. */
static void test_exclusive(void **state)
{
	char path[PATH_MAX];
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	struct perfconfig_env env;
	struct perfconfig cfg;

	(void)state;
	reset_files();
	put(sys_path, "[record]\naio = 3\n");
	put(user_path, "[record]\nbuild-id = no-cache\n");
	snprintf(path, sizeof(path), "%s/only", dir);
	put(path, "[record]\nbuild-id = mmap\n");
	env = env_of(path);
	assert_int_equal(load(&cfg, &env, &e), 0);
	assert_true(cfg.buildid == PERFCONFIG_BUILDID_MMAP && cfg.aio == -1);
	assert_int_equal(cfg.nr_files, 1);
	perfconfig__exit(&cfg);
	static const char *const none[] = { "", "/dev/null" };
	for (size_t i = 0; i < 2; i++) {
		env = env_of(none[i]);
		assert_int_equal(load(&cfg, &env, &e), 0);
		assert_true(cfg.buildid == PERFCONFIG_BUILDID_UNSET && cfg.aio == -1);
		assert_int_equal(cfg.nr_warnings, 0);
		perfconfig__exit(&cfg);
	}
	snprintf(path, sizeof(path), "%s/missing", dir);
	env = env_of(path);
	assert_int_equal(load(&cfg, &env, &e), 0);
	assert_true(cfg.buildid == PERFCONFIG_BUILDID_UNSET && cfg.aio == -1);
	assert_true(warned(&cfg, "No such file or directory: no perf configuration is read"));
	perfconfig__exit(&cfg);
}

/* A FIFO, a directory: $PERF_CONFIG's refused at once, with the fix; the
 * system's and the user's skipped; none of them opened to be read. */
static void test_not_regular(void **state)
{
	char fifo[PATH_MAX];
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	struct perfconfig_env env;
	struct perfconfig cfg;

	(void)state;
	reset_files();
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	env = env_of(fifo);
	assert_int_equal(load(&cfg, &env, &e), -EINVAL);
	assert_non_null(strstr(prec_err__msg(&e), "is a FIFO, not a file"));
	assert_non_null(strstr(prec_err__msg(&e), "PERF_CONFIG=/dev/null"));
	perfconfig__exit(&cfg);
	env = env_of(dir);
	assert_int_equal(load(&cfg, &env, &e), -EINVAL);
	assert_non_null(strstr(prec_err__msg(&e), "is a directory"));
	perfconfig__exit(&cfg);

	/* /etc/perfconfig a FIFO (perf would wait on it): skipped, said */
	assert_int_equal(mkfifo(sys_path, 0644), 0);
	put(user_path, "[record]\nbuild-id = skip\n");
	env = env_of(NULL);
	assert_int_equal(load(&cfg, &env, &e), 0);
	assert_true(warned(&cfg, "is a FIFO, not a file: ignored"));
	assert_int_equal(cfg.buildid, PERFCONFIG_BUILDID_SKIP);
	perfconfig__exit(&cfg);
	/* ~/.perfconfig a FIFO: no size, so perf skips it too */
	reset_files();
	assert_int_equal(mkfifo(user_path, 0644), 0);
	assert_int_equal(load(&cfg, &env, &e), 0);
	assert_int_equal(cfg.nr_files, 0);
	perfconfig__exit(&cfg);
	reset_files();
	unlink(fifo);
}

/* perf's rules for ~/.perfconfig: empty, or another user's, is skipped. */
static void test_user_file_rules(void **state)
{
	struct perfconfig_env env = env_of(NULL);
	struct perfconfig cfg;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	reset_files();
	put(user_path, "");
	assert_int_equal(load(&cfg, &env, &e), 0);
	assert_int_equal(cfg.nr_files, 0);
	perfconfig__exit(&cfg);
	put(user_path, "[record]\nbuild-id = skip\n");
	if (geteuid() == 0)
		assert_int_equal(chown(user_path, 65534, 65534), 0); /* nobody's */
	else
		env.euid = (unsigned)geteuid() + 1; /* as if another user ran prec */
	assert_int_equal(load(&cfg, &env, &e), 0);
	assert_int_equal(cfg.buildid, PERFCONFIG_BUILDID_UNSET);
	assert_true(warned(&cfg, "not by you or root: ignored, as perf ignores it"));
	perfconfig__exit(&cfg);
	/* root's file is taken from anyone, as perf */
	if (geteuid() == 0) {
		assert_int_equal(chown(user_path, 0, 0), 0);
		env.euid = 1000;
		assert_int_equal(load(&cfg, &env, &e), 0);
		assert_int_equal(cfg.buildid, PERFCONFIG_BUILDID_SKIP);
		perfconfig__exit(&cfg);
	}
}

/* A bad line in the system file: its settings before it stand, the user's
 * file is not read (perf's perf_config_set__init stops there). */
static void test_system_bad_line(void **state)
{
	struct perfconfig_env env = env_of(NULL);
	struct perfconfig cfg;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	reset_files();
	put(sys_path, "[record]\naio = 2\n[oops\nbuild-id = mmap\n");
	put(user_path, "[record]\nbuild-id = skip\n");
	assert_int_equal(load(&cfg, &env, &e), 0);
	assert_int_equal(cfg.aio, 2);
	assert_int_equal(cfg.buildid, PERFCONFIG_BUILDID_UNSET);
	assert_true(warned(&cfg, "line 3: not a setting perf reads"));
	assert_true(warned(&cfg, "~/.perfconfig is not read either"));
	perfconfig__exit(&cfg);
	/* a bad value is refused whichever file holds it */
	put(sys_path, "[record]\naio = two\n");
	assert_int_equal(load(&cfg, &env, &e), -EINVAL);
	assert_non_null(strstr(prec_err__msg(&e), "etc-perfconfig, line 2: record.aio = 'two'"));
	perfconfig__exit(&cfg);
}

/* A file of any size is read, as perf reads it (issue 33 row 10: over
 * 16 MiB was refused): 17 MiB of comments, then the key. */
static void test_large(void **state)
{
	static const char tail[] = "[call-graph]\nrecord-mode = dwarf\n";
	struct perfconfig_env env;
	struct perfconfig cfg;
	char path[PATH_MAX];
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	size_t chunk = 1u << 20;
	char *text = malloc(chunk);
	int fd;

	(void)state;
	assert_non_null(text);
	memset(text, 'x', chunk);
	for (size_t i = 0; i < chunk; i += 64) {
		text[i] = '#';
		text[i + 63] = '\n';
	}
	snprintf(path, sizeof(path), "%s/huge", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	for (int i = 0; i < 17; i++)
		assert_int_equal(write(fd, text, chunk), (ssize_t)chunk);
	assert_int_equal(write(fd, tail, sizeof(tail) - 1), (ssize_t)(sizeof(tail) - 1));
	close(fd);
	free(text);
	env = env_of(path);
	assert_int_equal(load(&cfg, &env, &e), 0);
	assert_int_equal(cfg.callchain_mode, CALLCHAIN_DWARF);
	perfconfig__exit(&cfg);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_system_then_user), cmocka_unit_test(test_exclusive),
		cmocka_unit_test(test_not_regular),	 cmocka_unit_test(test_user_file_rules),
		cmocka_unit_test(test_system_bad_line),	 cmocka_unit_test(test_large),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
