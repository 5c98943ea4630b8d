// SPDX-License-Identifier: GPL-2.0-only
/*
 * output_fs: the holder of a flock read from /proc/locks' text (only a
 * FLOCK on that device and inode, never a waiter's line), and the kernel
 * filesystems named (proc and sysfs here, a disk's tmp not).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>
#include <sys/sysmacros.h>

#include "output/output_fs.h"

static void test_lock_holder(void **state)
{
	const char *locks = "1: POSIX  ADVISORY  WRITE 111 08:01:5678 0 EOF\n"
			    "2: FLOCK  ADVISORY  WRITE 222 08:02:5678 0 EOF\n"
			    "3: FLOCK  ADVISORY  WRITE 333 08:01:5678 0 EOF\n"
			    "3: -> FLOCK  ADVISORY  WRITE 444 08:01:5678 0 EOF\n"
			    "4: FLOCK  ADVISORY  WRITE 555 fd:00:99 0 EOF\n";

	(void)state;
	assert_int_equal(output_fs__lock_holder(locks, makedev(8, 1), 5678), 333);
	assert_int_equal(output_fs__lock_holder(locks, makedev(8, 2), 5678), 222);
	assert_int_equal(output_fs__lock_holder(locks, makedev(0xfd, 0), 99), 555);
	assert_int_equal(output_fs__lock_holder(locks, makedev(8, 1), 1), 0);
	assert_int_equal(output_fs__lock_holder("", makedev(8, 1), 5678), 0);
	assert_int_equal(output_fs__lock_holder("garbage\n\n1: FLOCK", makedev(8, 1), 1), 0);
}

static void test_pseudo(void **state)
{
	(void)state;
	assert_string_equal(output_fs__pseudo("/proc/version"), "proc");
	assert_string_equal(output_fs__pseudo("/sys/kernel"), "sysfs");
	assert_null(output_fs__pseudo("/no/such/place"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lock_holder),
		cmocka_unit_test(test_pseudo),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
