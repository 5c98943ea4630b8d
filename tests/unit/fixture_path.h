/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_TEST_FIXTURE_PATH_H
#define PREC_TEST_FIXTURE_PATH_H
/*
 * Where a unit test finds tests/fixtures, written once for all of them:
 * $PREC_FIXTURES when set (ctest sets it), else the source tree the test was
 * built from (PREC_FIXTURES_DIR, defined by tests/CMakeLists.txt), so a test
 * run by hand reads the same trees from any directory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef PREC_FIXTURES_DIR
#define PREC_FIXTURES_DIR "tests/fixtures" /* built outside CMake: run from the source tree */
#endif

/* The fixtures directory, without a trailing slash. */
static inline const char *fixtures_dir(void)
{
	const char *dir = getenv("PREC_FIXTURES");

	return dir && *dir ? dir : PREC_FIXTURES_DIR;
}

/*
 * Fills path with the fixtures directory, a slash and fmt's text (a path
 * inside tests/fixtures, e.g. "sysinfo/%s"). A path that does not fit ends
 * the test binary: a fixture that cannot be named cannot be checked.
 */
static inline __attribute__((format(printf, 3, 4))) void fixture_path(char *path, size_t size,
								      const char *fmt, ...)
{
	const char *dir = fixtures_dir();
	va_list ap;
	int n, m;

	n = snprintf(path, size, "%s/", dir);
	if (n < 0 || (size_t)n >= size)
		goto too_long;
	va_start(ap, fmt);
	m = vsnprintf(path + n, size - (size_t)n, fmt, ap);
	va_end(ap);
	if (m < 0 || (size_t)m >= size - (size_t)n)
		goto too_long;
	return;
too_long:
	fprintf(stderr, "fixture_path: a path under %s does not fit in %zu bytes\n", dir, size);
	abort();
}

#endif
