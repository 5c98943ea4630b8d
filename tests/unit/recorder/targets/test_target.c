// SPDX-License-Identifier: GPL-2.0-only
/*
 * The target's CPUs and threads from its narrow config (targets/target.c):
 * what each refusal returns and the one line it leaves in the caller's
 * struct prec_err, printing nothing itself; and when the recording ends
 * with its threads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "prec/error.h"
#include "recorder/targets/cpu_map.h"
#include "recorder/targets/target.h"
#include "recorder/targets/thread_map.h"

/* e holds code and a line that contains want. */
static void assert_err(struct prec_err *e, int code, const char *want)
{
	assert_int_equal(e->code, code);
	assert_non_null(e->msg);
	if (!strstr(e->msg, want))
		fail_msg("'%s' not in '%s'", want, e->msg);
	prec_err__clear(e);
}

static void test_cpus(void **state)
{
	struct target_config t = { .per_thread = true };
	struct prec_err e = PREC_ERR_INIT;
	struct cpu_map *cpus = NULL;

	(void)state;
	/* --per-thread: the one "any CPU", whatever -C says. */
	assert_int_equal(target__cpus(&t, &cpus, &e), 0);
	assert_int_equal(cpus->nr, 1);
	assert_int_equal(cpus->cpu[0], -1);
	cpu_map__delete(cpus);
	assert_false(prec_err__is_set(&e));

	t = (struct target_config){ .system_wide = true };
	assert_int_equal(target__cpus(&t, &cpus, &e), 0);
	assert_true(cpus->nr >= 1);
	cpu_map__delete(cpus);

	t.cpu_list = "x-y";
	cpus = NULL;
	assert_int_equal(target__cpus(&t, &cpus, &e), -EINVAL);
	assert_null(cpus);
	assert_err(&e, -EINVAL, "invalid -C/--cpu list 'x-y' (give CPUs like 0-2,5)");

	t.cpu_list = "4000";
	assert_int_equal(target__cpus(&t, &cpus, &e), -EINVAL);
	assert_err(&e, -EINVAL, "CPU 4000 in -C/--cpu is not on this machine");
}

static void test_threads(void **state)
{
	struct target_config t = { .pid_list = "12a" };
	struct prec_err e = PREC_ERR_INIT;
	struct thread_map *threads = NULL;
	char self[32];

	(void)state;
	assert_int_equal(target__threads(&t, -1, &threads, &e), -EINVAL);
	assert_err(&e, -EINVAL, "invalid -p/--pid list '12a'");

	/* A pid past pid_max names no process. */
	t.pid_list = "1073741823";
	assert_int_equal(target__threads(&t, -1, &threads, &e), -ESRCH);
	assert_err(&e, -ESRCH, "no such process 1073741823 for -p/--pid");

	snprintf(self, sizeof(self), "%d", (int)getpid());
	t = (struct target_config){ .tid_list = self };
	assert_int_equal(target__threads(&t, -1, &threads, &e), -EINVAL);
	assert_null(threads);
	assert_err(&e, -EINVAL, "this prec itself");

	t = (struct target_config){ .uid_str = "no-such-user-for-prec" };
	assert_int_equal(target__threads(&t, -1, &threads, &e), -EINVAL);
	assert_err(&e, -EINVAL, "unknown user 'no-such-user-for-prec' for -u/--uid");

	/* A command on its own: its pid; -a or -C: any thread. */
	t = (struct target_config){ .command = true };
	assert_int_equal(target__threads(&t, 4242, &threads, &e), 0);
	assert_int_equal(threads->nr, 1);
	assert_int_equal(threads->pid[0], 4242);
	thread_map__delete(threads);
	t.cpu_list = "0";
	assert_int_equal(target__threads(&t, 4242, &threads, &e), 0);
	assert_int_equal(threads->pid[0], -1);
	thread_map__delete(threads);
	assert_false(prec_err__is_set(&e));
}

static void test_cgroup_fd(void **state)
{
	struct prec_err e = PREC_ERR_INIT;

	(void)state;
	assert_int_equal(target__cgroup_fd("no/such/cgroup/for/prec", &e), -ENOENT);
	assert_err(&e, -ENOENT, "cannot open cgroup 'no/such/cgroup/for/prec'");
}

static void test_ends_with_threads(void **state)
{
	struct target_config t = { .pid_list = "1" };

	(void)state;
	assert_true(target__ends_with_threads(&t));
	t.command = true;
	assert_false(target__ends_with_threads(&t));
	t = (struct target_config){ .uid_str = "root" };
	assert_true(target__ends_with_threads(&t));
	t.system_wide = true;
	assert_false(target__ends_with_threads(&t));
	t = (struct target_config){ .tid_list = "1", .cpu_list = "0" };
	assert_false(target__ends_with_threads(&t));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpus),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_cgroup_fd),
		cmocka_unit_test(test_ends_with_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
