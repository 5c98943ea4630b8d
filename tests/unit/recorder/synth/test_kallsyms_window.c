// SPDX-License-Identifier: GPL-2.0-only
/*
 * kallsyms__text_range_fd (recorder/synth/kallsyms_cached.c): the build-id
 * cache's kallsyms copy read a 64 KB window at a time, not whole, must find
 * what kallsyms__text_range finds in the whole text: a line cut by a
 * window's end, _etext far into the file, _edata windows after it, the last
 * line, none at all.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recorder/synth/synthesize.h"

#define WINDOW (64 << 10)

static const char etext_line[] = "ffffffff8220bb08 T _etext\n";
static const char edata_line[] = "ffffffff8372a000 D _edata\n"; /* as long as etext_line */

/* A kallsyms text of about size bytes: filler lines, _text on line 3 and
 * mark's line (etext_line or edata_line) starting at etext_at (0: none), then
 * more filler. With edata_line, _etext's line follows _text's. */
static char *make_copy(size_t size, size_t etext_at, const char *mark, size_t *len)
{
	char *buf = malloc(size + 256);
	size_t n = 0;
	int i = 0;

	assert_non_null(buf);
	n += (size_t)sprintf(buf + n, "0000000000000000 A fixed_percpu_data\n");
	n += (size_t)sprintf(buf + n, "ffffffff81000000 T startup_64\n");
	n += (size_t)sprintf(buf + n, "ffffffff81000000 T _text\n");
	if (mark == edata_line)
		n += (size_t)sprintf(buf + n, "%s", etext_line);
	while (n < size) {
		size_t gap = etext_at > n ? etext_at - n : 0;

		if (etext_at && n >= etext_at) {
			n += (size_t)sprintf(buf + n, "%s", mark);
			etext_at = 0;
		} else if (etext_at && gap < 128) {
			/* One line of exactly gap bytes: _etext's starts there. */
			n += (size_t)sprintf(
				buf + n, "ffffffff81ffffff t pad_%.*s\n", (int)gap - 24,
				"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
				"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
		} else {
			/* Lines of varying length (under 64 bytes), so the cuts
			 * fall everywhere. */
			n += (size_t)sprintf(buf + n, "ffffffff81%06x t filler_%.*s\n",
					     i & 0xffffff, i % 37 + 1,
					     "abcdefghijklmnopqrstuvwxyz0123456789_");
			i++;
		}
	}
	*len = n;
	return buf;
}

static int fd_of(const char *buf, size_t len)
{
	char path[] = "/tmp/prec-ksw-XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(write(fd, buf, len), (ssize_t)len);
	return fd;
}

static void check_mark(size_t size, size_t etext_at, const char *mark)
{
	uint64_t t, e, d, wt, we, wd;
	size_t len;
	char *buf = make_copy(size, etext_at, mark, &len);
	int fd = fd_of(buf, len);
	int want = kallsyms__text_range(buf, len, &wt, &we, &wd);

	/* The fixture is what it says: mark's line where asked. */
	if (etext_at)
		assert_memory_equal(buf + etext_at, mark, 26);

	assert_int_equal(kallsyms__text_range_fd(fd, &t, &e, &d), want);
	if (!want) {
		assert_int_equal(t, 0xffffffff81000000ull);
		assert_int_equal(e, 0xffffffff8220bb08ull);
	}
	assert_int_equal(d, mark == edata_line && etext_at ? 0xffffffff8372a000ull : 0);
	assert_int_equal(d, wd);
	close(fd);
	free(buf);
}

static void check(size_t size, size_t etext_at)
{
	check_mark(size, etext_at, etext_line);
}

static void test_cut_lines(void **state)
{
	(void)state;
	/* _etext's line cut at every place around the first windows' ends. */
	for (size_t at = WINDOW - 30; at <= WINDOW + 2; at++)
		check(3 * WINDOW, at);
	for (size_t at = 2 * WINDOW - 30; at <= 2 * WINDOW + 2; at++)
		check(3 * WINDOW, at);
	/* _edata's too, windows after the one that held _text and _etext. */
	for (size_t at = 2 * WINDOW - 30; at <= 2 * WINDOW + 2; at++)
		check_mark(3 * WINDOW, at, edata_line);
}

static void test_far_and_last(void **state)
{
	size_t len;
	char *buf;
	int fd;
	uint64_t t, e, d;

	(void)state;
	/* Today's size, _etext at ~95%. */
	check(5 * 1024 * 1024, 5 * 1024 * 1024 / 100 * 95);
	/* The last line of the file. */
	buf = make_copy(200 * 1024, 0, etext_line, &len);
	len += (size_t)sprintf(buf + len, "%s", etext_line);
	fd = fd_of(buf, len);
	assert_int_equal(kallsyms__text_range_fd(fd, &t, &e, &d), 0);
	assert_int_equal(e, 0xffffffff8220bb08ull);
	assert_int_equal(d, 0);
	close(fd);
	free(buf);
	/* _edata as the last line, _etext near the start. */
	buf = make_copy(200 * 1024, 0, edata_line, &len);
	len += (size_t)sprintf(buf + len, "%s", edata_line);
	fd = fd_of(buf, len);
	assert_int_equal(kallsyms__text_range_fd(fd, &t, &e, &d), 0);
	assert_int_equal(e, 0xffffffff8220bb08ull);
	assert_int_equal(d, 0xffffffff8372a000ull);
	close(fd);
	free(buf);
}

static void test_missing(void **state)
{
	uint64_t t, e, d;
	char *line;
	int fd;

	(void)state;
	/* No _etext at all. */
	check(300 * 1024, 0);
	/* The last line without its newline does not count (as whole). */
	fd = fd_of("ffffffff81000000 T _text\nffffffff8220bb08 T _etext", 51);
	assert_int_equal(kallsyms__text_range_fd(fd, &t, &e, &d), -ENOENT);
	close(fd);
	/* One line longer than a window: not a kallsyms file. */
	line = malloc(WINDOW + 64);
	assert_non_null(line);
	memset(line, 'a', WINDOW + 63);
	line[WINDOW + 63] = '\n';
	fd = fd_of(line, WINDOW + 64);
	assert_int_equal(kallsyms__text_range_fd(fd, &t, &e, &d), -ENOENT);
	close(fd);
	free(line);
	/* Empty, and unreadable. */
	fd = fd_of("", 0);
	assert_int_equal(kallsyms__text_range_fd(fd, &t, &e, &d), -ENOENT);
	close(fd);
	assert_int_equal(kallsyms__text_range_fd(-1, &t, &e, &d), -EBADF);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cut_lines),
		cmocka_unit_test(test_far_and_last),
		cmocka_unit_test(test_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
