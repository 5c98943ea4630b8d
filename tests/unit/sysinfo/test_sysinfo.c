// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysinfo: every field from each fixture machine, graceful degradation on
 * garbled trees, the live system against uname(2), and the fsread helpers on
 * a scratch tree. The pure parsers' tables are in test_sysinfo_parsers.c.
 * Fixture trees live under tests/fixtures/sysinfo (tests/unit/fixture_path.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cmocka.h>

#include <prec/sysinfo.h>
#include "sysinfo/fsread.h"
#include "sysinfo/sysinfo_int.h"
#include "tests/unit/fixture_path.h"

struct expect {
	const char *fixture;
	const char *hostname, *osrelease, *arch;
	uint32_t avail, online;
	const char *cpudesc, *cpuid; /* NULL: must be NULL */
	uint64_t mem_kb;
};

static void check_fixture(const struct expect *e)
{
	struct sysinfo si;
	char root[PATH_MAX];

	fixture_path(root, sizeof(root), "sysinfo/%s", e->fixture);
	assert_int_equal(sysinfo__read(&si, root), 0);
	assert_string_equal(si.hostname, e->hostname);
	assert_string_equal(si.osrelease, e->osrelease);
	assert_string_equal(si.arch, e->arch);
	assert_int_equal(si.nr_cpus_avail, e->avail);
	assert_int_equal(si.nr_cpus_online, e->online);
	if (e->cpudesc)
		assert_non_null(si.cpudesc), assert_string_equal(si.cpudesc, e->cpudesc);
	else
		assert_null(si.cpudesc);
	if (e->cpuid)
		assert_non_null(si.cpuid), assert_string_equal(si.cpuid, e->cpuid);
	else
		assert_null(si.cpuid);
	assert_true(si.total_mem_kb == e->mem_kb);
	sysinfo__exit(&si);
	assert_null(si.cpudesc);
	assert_null(si.cpuid);
	sysinfo__exit(&si); /* twice is fine */
}

static void test_fixture_vm(void **state)
{
	/* Captured with scripts/capture-sysinfo on a 2-CPU Sapphire Rapids VM; perf 6.1 agreed. */
	static const struct expect e = {
		.fixture = "vm",
		.hostname = "vm",
		.osrelease = "6.18.44-fc-v669",
		.arch = "x86_64",
		.avail = 2,
		.online = 2,
		.cpudesc = "Intel(R) Xeon(R) Processor",
		.cpuid = "GenuineIntel,6,167,1",
		.mem_kb = 24684084, /* MemTotal in the fixture's proc/meminfo */
	};
	check_fixture(&e);
}

static void test_fixture_arm64(void **state)
{
	/*
	 * perf 6.1 on arm64 looks for "model name", which a 64-bit reader of
	 * /proc/cpuinfo never sees: no CPUDESC. CPUID is cpu0's MIDR
	 * (Cortex-A55 r2p0) without variant and revision.
	 */
	static const struct expect e = {
		.fixture = "arm64",
		.hostname = "rock-5b",
		.osrelease = "6.1.43-rockchip-rk3588",
		.arch = "aarch64",
		.avail = 8,
		.online = 8,
		.cpudesc = NULL,
		.cpuid = "0x00000000410fd050",
		.mem_kb = 7924708,
	};
	check_fixture(&e);
}

static void test_fixture_broken(void **state)
{
	/* Not the live root: no uname fallback, the gaps stay empty. */
	static const struct expect e = {
		.fixture = "broken",
		.hostname = "broken",
		.osrelease = "",
		.arch = "",
	};
	check_fixture(&e);
}

static void test_fixture_broken_arm64(void **state)
{
	static const struct expect e = {
		.fixture = "broken-arm64",
		.hostname = "",
		.osrelease = "6.1.0-test",
		.arch = "aarch64",
		.avail = 0,
		.online = 2,
		.cpudesc = "ARMv8 Processor rev 4 (v8l)",
		.cpuid = "0x00000000410fd030",
	};
	check_fixture(&e);
}

static void test_bad_root(void **state)
{
	struct sysinfo si;
	char root[PATH_MAX];

	assert_int_equal(sysinfo__read(&si, "/nonexistent/prec-sysroot"), -ENOENT);
	assert_null(si.cpudesc);
	sysinfo__exit(&si);
	fixture_path(root, sizeof(root), "sysinfo/vm/proc/cpuinfo");
	assert_int_equal(sysinfo__read(&si, root), -ENOTDIR);
	sysinfo__exit(&si);
	sysinfo__exit(NULL);
}

static void test_live(void **state)
{
	const char *roots[] = { NULL, "/" };
	struct utsname u;

	assert_int_equal(uname(&u), 0);
	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		struct sysinfo si;

		assert_int_equal(sysinfo__read(&si, roots[i]), 0);
		assert_string_equal(si.hostname, u.nodename);
		assert_string_equal(si.osrelease, u.release);
		assert_string_equal(si.arch, u.machine);
		assert_true(si.nr_cpus_online >= 1);
		assert_int_equal(si.nr_cpus_online, sysconf(_SC_NPROCESSORS_ONLN));
		assert_true(si.nr_cpus_avail >= si.nr_cpus_online);
		assert_true(si.total_mem_kb > 0);
		if (!strcmp(u.machine, "x86_64")) {
			assert_non_null(si.cpuid);
			assert_non_null(si.cpudesc);
			assert_null(strstr(si.cpudesc, "  "));
		}
		sysinfo__exit(&si);
	}
}

/* ---- fsread on a scratch tree --------------------------------------------- */

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

struct scratch {
	char root[64];
	int fd;
};

/* cmocka setup/teardown, so a failed assertion still removes the tree. */
static int scratch__setup(void **state)
{
	struct scratch *s = calloc(1, sizeof(*s));

	if (!s)
		return -1;
	strcpy(s->root, "/tmp/prec-test-sysinfo-XXXXXX");
	if (!mkdtemp(s->root)) {
		free(s);
		return -1;
	}
	s->fd = open(s->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	*state = s;
	return s->fd < 0 ? -1 : 0;
}

static int scratch__teardown(void **state)
{
	struct scratch *s = *state;

	if (s->fd >= 0)
		close(s->fd);
	nftw(s->root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(s);
	return 0;
}

static void scratch__write(struct scratch *s, const char *rel, const void *data, size_t len)
{
	int fd = openat(s->fd, rel, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
}

#define SCRATCH_PUT(s, rel, lit) scratch__write(s, rel, lit, sizeof(lit) - 1)

static void test_fsread_files(void **state)
{
	struct scratch *s = *state;
	struct cpulist cl;
	char dst[SYSINFO_STR_MAX], small[4], *buf;
	uint64_t v;
	size_t len;

	assert_int_equal(mkdirat(s->fd, "d", 0755), 0);
	SCRATCH_PUT(s, "d/f", "hello\n");
	SCRATCH_PUT(s, "blank", "  x  y \nsecond\n");
	SCRATCH_PUT(s, "empty", "");
	SCRATCH_PUT(s, "nul", "ab\0cd\n");
	SCRATCH_PUT(s, "num", "123\n");
	SCRATCH_PUT(s, "badnum", "12x\n");
	SCRATCH_PUT(s, "cpus", "0-3,7\n");
	assert_int_equal(mkfifoat(s->fd, "fifo", 0644), 0);
	assert_int_equal(symlinkat("loop", s->fd, "loop"), 0);

	assert_int_equal(fsread__file(s->fd, "d/f", &buf, &len), 0);
	assert_int_equal(len, 6);
	assert_string_equal(buf, "hello\n");
	free(buf);
	/* An absolute path stays inside the root. */
	assert_int_equal(fsread__file(s->fd, "//d/f", &buf, NULL), 0);
	assert_string_equal(buf, "hello\n");
	free(buf);
	assert_int_equal(fsread__file(s->fd, "", &buf, &len), -EINVAL);
	assert_int_equal(fsread__file(s->fd, "/", &buf, &len), -EINVAL);
	assert_int_equal(fsread__file(s->fd, "missing", &buf, &len), -ENOENT);
	assert_null(buf);
	assert_int_equal(fsread__file(s->fd, "d", &buf, &len), -EISDIR);
	assert_int_equal(fsread__file(s->fd, "fifo", &buf, &len), -EINVAL); /* and no hang */
	assert_int_equal(fsread__file(s->fd, "loop", &buf, &len), -ELOOP);
	assert_int_equal(fsread__file(-1, "d/f", &buf, &len), -EBADF);
	assert_int_equal(fsread__file(s->fd, "empty", &buf, &len), 0);
	assert_int_equal(len, 0);
	assert_string_equal(buf, "");
	free(buf);

	assert_int_equal(fsread__line(s->fd, "d/f", dst, sizeof(dst)), 0);
	assert_string_equal(dst, "hello");
	assert_int_equal(fsread__line(s->fd, "blank", dst, sizeof(dst)), 0);
	assert_string_equal(dst, "  x  y "); /* verbatim: uname values are not trimmed */
	assert_int_equal(fsread__str(s->fd, "blank", dst, sizeof(dst)), 0);
	assert_string_equal(dst, "x  y \nsecond");
	assert_int_equal(fsread__line(s->fd, "nul", dst, sizeof(dst)), -EINVAL);
	assert_string_equal(dst, "");
	assert_int_equal(fsread__str(s->fd, "nul", dst, sizeof(dst)), -EINVAL);
	assert_int_equal(fsread__line(s->fd, "d/f", small, sizeof(small)), -EOVERFLOW);
	assert_string_equal(small, "");
	assert_int_equal(fsread__str(s->fd, "d/f", small, sizeof(small)), -EOVERFLOW);
	assert_int_equal(fsread__line(s->fd, "d/f", dst, 0), -EOVERFLOW);
	assert_int_equal(fsread__line(s->fd, "missing", dst, sizeof(dst)), -ENOENT);
	assert_string_equal(dst, "");
	assert_int_equal(fsread__line(s->fd, "empty", dst, sizeof(dst)), 0);
	assert_string_equal(dst, "");

	assert_int_equal(fsread__u64(s->fd, "num", 10, &v), 0);
	assert_true(v == 123);
	assert_int_equal(fsread__u64(s->fd, "badnum", 10, &v), -EINVAL);
	assert_int_equal(fsread__u64(s->fd, "empty", 10, &v), -EINVAL);
	assert_int_equal(fsread__u64(s->fd, "missing", 10, &v), -ENOENT);
	assert_true(v == 123);

	assert_int_equal(fsread__cpulist(s->fd, "cpus", &cl), 0);
	assert_int_equal(cpulist__count(&cl), 5);
	assert_int_equal(cpulist__max(&cl), 7);
	cpulist__exit(&cl);
	assert_int_equal(fsread__cpulist(s->fd, "empty", &cl), -ENODATA);
	assert_int_equal(fsread__cpulist(s->fd, "missing", &cl), -ENOENT);
	assert_null(cl.bits);
}

static void test_fsread_size_limit(void **state)
{
	struct scratch *s = *state;
	char *big, *buf;
	size_t len;

	big = malloc(FSREAD_MAX_SIZE + 1);
	assert_non_null(big);
	memset(big, '7', FSREAD_MAX_SIZE + 1);
	scratch__write(s, "max", big, FSREAD_MAX_SIZE);
	scratch__write(s, "over", big, FSREAD_MAX_SIZE + 1);
	free(big);

	assert_int_equal(fsread__file(s->fd, "max", &buf, &len), 0);
	assert_int_equal(len, FSREAD_MAX_SIZE);
	assert_int_equal(buf[len], '\0');
	free(buf);
	assert_int_equal(fsread__file(s->fd, "over", &buf, &len), -EFBIG);
	assert_null(buf);
	assert_int_equal(len, 0);
	/* /dev/zero would never end: refused as not a regular file. */
	assert_int_equal(symlinkat("/dev/zero", s->fd, "zero"), 0);
	assert_int_equal(fsread__file(s->fd, "zero", &buf, &len), -EINVAL);
}

static void test_uts_fallback(void **state)
{
	struct sysinfo si;
	struct scratch *s = *state;
	struct utsname u;

	assert_int_equal(uname(&u), 0);
	/* Nothing under the root: only the live root may borrow from uname(2). */
	memset(&si, 0, sizeof(si));
	assert_int_equal(sysinfo__read_uts(&si, s->fd, false), 0);
	assert_string_equal(si.hostname, "");
	assert_string_equal(si.osrelease, "");
	assert_string_equal(si.arch, "");
	assert_int_equal(sysinfo__read_uts(&si, s->fd, true), 0);
	assert_string_equal(si.hostname, u.nodename);
	assert_string_equal(si.osrelease, u.release);
	assert_string_equal(si.arch, u.machine);

	/* A file that is there wins over uname, field by field (arch < Linux 6.1). */
	assert_int_equal(mkdirat(s->fd, "proc", 0755), 0);
	assert_int_equal(mkdirat(s->fd, "proc/sys", 0755), 0);
	assert_int_equal(mkdirat(s->fd, "proc/sys/kernel", 0755), 0);
	SCRATCH_PUT(s, "proc/sys/kernel/hostname", "box\n");
	SCRATCH_PUT(s, "proc/sys/kernel/osrelease", "\n");
	memset(&si, 0, sizeof(si));
	assert_int_equal(sysinfo__read_uts(&si, s->fd, true), 0);
	assert_string_equal(si.hostname, "box");
	assert_string_equal(si.osrelease, u.release);
	assert_string_equal(si.arch, u.machine);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_vm),
		cmocka_unit_test(test_fixture_arm64),
		cmocka_unit_test(test_fixture_broken),
		cmocka_unit_test(test_fixture_broken_arm64),
		cmocka_unit_test(test_bad_root),
		cmocka_unit_test(test_live),
		cmocka_unit_test_setup_teardown(test_fsread_files, scratch__setup,
						scratch__teardown),
		cmocka_unit_test_setup_teardown(test_fsread_size_limit, scratch__setup,
						scratch__teardown),
		cmocka_unit_test_setup_teardown(test_uts_fallback, scratch__setup,
						scratch__teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
