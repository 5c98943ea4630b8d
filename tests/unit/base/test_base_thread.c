// SPDX-License-Identifier: GPL-2.0-only
/*
 * thread__start (base/thread.c): the new thread has its name (cut to the
 * kernel's 15 bytes) before its function runs, the stack asked for (at
 * least the system's minimum), every signal blocked, and the caller's own
 * signal mask is as it was.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

#include "prec/thread.h"

struct seen {
	char name[32];
	size_t stack;
	sigset_t mask;
};

static void *look(void *arg)
{
	struct seen *s = arg;
	pthread_attr_t attr;

	/* PR_GET_NAME: the kernel's task name, what a COMM record carries. */
	prctl(PR_GET_NAME, s->name, 0, 0, 0);
	if (!pthread_getattr_np(pthread_self(), &attr)) {
		pthread_attr_getstacksize(&attr, &s->stack);
		pthread_attr_destroy(&attr);
	}
	pthread_sigmask(SIG_SETMASK, NULL, &s->mask);
	return s;
}

static void test_named_sized_masked(void **state)
{
	struct seen s;
	pthread_t th;
	void *ret;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(thread__start(&th, "prec-drain-7", 256 * 1024, look, &s), 0);
	assert_int_equal(pthread_join(th, &ret), 0);
	assert_ptr_equal(ret, &s);
	assert_string_equal(s.name, "prec-drain-7");
	assert_true(s.stack >= 256 * 1024 && s.stack < 512 * 1024);
	assert_int_equal(sigismember(&s.mask, SIGINT), 1);
	assert_int_equal(sigismember(&s.mask, SIGTERM), 1);
	assert_int_equal(sigismember(&s.mask, SIGUSR1), 1);
}

static void test_long_name_small_stack(void **state)
{
	struct seen s;
	pthread_t th;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(thread__start(&th, "prec-a-name-longer-than-fifteen", 1, look, &s), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_string_equal(s.name, "prec-a-name-lon");
	assert_true(s.stack >= (size_t)PTHREAD_STACK_MIN);
}

static void test_caller_mask_kept(void **state)
{
	sigset_t before, after, one;
	struct seen s;
	pthread_t th;

	(void)state;
	sigemptyset(&one);
	sigaddset(&one, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &one, &before);
	pthread_sigmask(SIG_SETMASK, NULL, &before);
	assert_int_equal(thread__start(&th, "prec-t", 0, look, &s), 0);
	pthread_sigmask(SIG_SETMASK, NULL, &after);
	assert_int_equal(pthread_join(th, NULL), 0);
	for (int sig = 1; sig < 32; sig++)
		assert_int_equal(sigismember(&after, sig), sigismember(&before, sig));
	assert_int_equal(sigismember(&after, SIGINT), 0);
	pthread_sigmask(SIG_UNBLOCK, &one, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_named_sized_masked),
		cmocka_unit_test(test_long_name_small_stack),
		cmocka_unit_test(test_caller_mask_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
