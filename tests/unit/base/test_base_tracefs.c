// SPDX-License-Identifier: GPL-2.0-only
/*
 * base/tracefs.c, the one reader of tracefs event id files: the parser
 * (perf's one 31-byte read, digits then newlines or blanks) and the reader
 * by path and by directory fd, over a scratch events tree.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/tracefs.h"

static void test_parse(void **state)
{
	char big[40];
	uint64_t id = 7;

	(void)state;
	assert_int_equal(tracefs__parse_id("316\n", 4, &id), 0);
	assert_int_equal(id, 316);
	assert_int_equal(tracefs__parse_id("0", 1, &id), 0);
	assert_int_equal(id, 0);
	assert_int_equal(tracefs__parse_id("42 \n\n", 5, &id), 0);
	assert_int_equal(id, 42);
	/* A NUL ends the text, as it ends perf's string. */
	assert_int_equal(tracefs__parse_id("9\0junk", 6, &id), 0);
	assert_int_equal(id, 9);
	/* length-bounded: the bytes past len are not read */
	assert_int_equal(tracefs__parse_id("12x", 2, &id), 0);
	assert_int_equal(id, 12);
	id = 7;
	assert_int_equal(tracefs__parse_id("", 0, &id), -EINVAL);
	assert_int_equal(tracefs__parse_id("\n", 1, &id), -EINVAL);
	assert_int_equal(tracefs__parse_id(" 5\n", 3, &id), -EINVAL);
	assert_int_equal(tracefs__parse_id("+5", 2, &id), -EINVAL);
	assert_int_equal(tracefs__parse_id("5\t", 2, &id), -EINVAL);
	assert_int_equal(tracefs__parse_id("5x", 2, &id), -EINVAL);
	assert_int_equal(tracefs__parse_id("18446744073709551616", 20, &id), -EINVAL);
	assert_int_equal(id, 7); /* untouched on failure */
	/* Only the first 31 bytes count: digits then 31 - n blanks pass,
	 * whatever follows them. */
	memset(big, ' ', sizeof(big));
	big[0] = '3';
	big[35] = 'x';
	assert_int_equal(tracefs__parse_id(big, sizeof(big), &id), 0);
	assert_int_equal(id, 3);
}

/* Writes text to dir/rel (creating dir/rel's directories first). */
static void put(const char *dir, const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (char *p = path + strlen(dir) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_read(void **state)
{
	char root[] = "/tmp/prec-tracefs-XXXXXX", path[PATH_MAX], cmd[PATH_MAX + 16];
	uint64_t id = 0;
	int sysfd;

	(void)state;
	assert_non_null(mkdtemp(root));
	put(root, "events/sched/sched_switch/id", "316\n");
	put(root, "events/sched/bad/id", "abc\n");
	put(root, "events/sched/noid/format", "name: noid\n");
	put(root, "events/sched/file", "not a directory\n");

	/* By path (AT_FDCWD), as the -e parser asks. */
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch", root);
	assert_int_equal(tracefs__read_id(AT_FDCWD, path, &id), 0);
	assert_int_equal(id, 316);
	snprintf(path, sizeof(path), "%s/events/sched/bad", root);
	assert_int_equal(tracefs__read_id(AT_FDCWD, path, &id), -EINVAL);
	snprintf(path, sizeof(path), "%s/events/sched/noid", root);
	assert_int_equal(tracefs__read_id(AT_FDCWD, path, &id), -ENOENT);
	snprintf(path, sizeof(path), "%s/events/sched/file", root);
	assert_int_equal(tracefs__read_id(AT_FDCWD, path, &id), -ENOENT); /* ENOTDIR */

	/* By a system's directory fd, as the TRACING_DATA walk asks. */
	snprintf(path, sizeof(path), "%s/events/sched", root);
	sysfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(sysfd >= 0);
	id = 0;
	assert_int_equal(tracefs__read_id(sysfd, "sched_switch", &id), 0);
	assert_int_equal(id, 316);
	assert_int_equal(tracefs__read_id(sysfd, "nosuch", &id), -ENOENT);
	close(sysfd);

	/* A name too long for a path. */
	memset(path, 'a', sizeof(path) - 1);
	path[sizeof(path) - 1] = '\0';
	assert_int_equal(tracefs__read_id(AT_FDCWD, path, &id), -ENAMETOOLONG);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
