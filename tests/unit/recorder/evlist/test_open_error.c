// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fix named for each refusal of perf_event_open (recorder/evlist/open_error.c),
 * the causes this VM cannot make for real included: a busy counter, a
 * counting-only PMU, a callchain over perf_event_max_stack.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "recorder/evlist/open_error.h"

static char buf[1024];

/* An unprivileged user at paranoid 2, per-task, user and kernel. */
static struct open_error base(int err, const struct perf_event_attr *attr)
{
	struct open_error e = {
		.err = err,
		.attr = attr,
		.event = "cycles",
		.cpu = 0,
		.perfmon_cap = "cap_perfmon",
		.paranoid = 2,
		.exe = "/usr/bin/prec",
		.nr_fds = 8,
		.nofile_hard = 1048576,
		.max_sample_rate = 100000,
		.max_stack = 127,
	};
	return e;
}

/* Every hint is one line and names a command in quotes or an option. */
static const char *hint(const struct open_error *e)
{
	const char *h = open_error__hint(e, buf, sizeof(buf));

	assert_non_null(h);
	assert_null(strchr(h, '\n'));
	assert_true(strlen(h) < sizeof(buf) - 1);
	return h;
}

#define assert_has(h, s) assert_non_null(strstr((h), (s)))

static void test_paranoid_levels(void **state)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .sample_period = 1 };
	struct open_error e = base(EACCES, &a);
	const char *h;

	(void)state;
	/* The kernel in the samples: 1, and cap_syslog for its addresses. */
	h = hint(&e);
	assert_has(h, "'sudo sysctl -w kernel.perf_event_paranoid=1'");
	assert_has(h, "'sudo setcap cap_perfmon,cap_syslog+ep /usr/bin/prec'");
	/* The sysctl (least privilege) comes first. */
	assert_true(strstr(h, "sysctl") < strstr(h, "setcap"));

	/* CPU-wide: 0. */
	e.has_cpu = true;
	assert_has(hint(&e), "kernel.perf_event_paranoid=0'");

	/* Raw tracepoint data: -1, whatever else. */
	a.type = PERF_TYPE_TRACEPOINT;
	a.sample_type = PERF_SAMPLE_RAW;
	assert_has(hint(&e), "kernel.perf_event_paranoid=-1'");

	/* User only, per task, at a Debian 3: 2; root has no sudo. */
	a = (struct perf_event_attr){ .type = PERF_TYPE_SOFTWARE, .exclude_kernel = 1 };
	e = base(EPERM, &a);
	e.paranoid = 3;
	e.is_root = true;
	h = hint(&e);
	assert_has(h, "'sysctl -w kernel.perf_event_paranoid=2'");
	assert_has(h, "'setcap cap_perfmon,cap_syslog+ep /usr/bin/prec'");

	/* Before Linux 5.8 the capability is CAP_SYS_ADMIN. */
	e.perfmon_cap = "cap_sys_admin";
	assert_has(hint(&e), "'setcap cap_sys_admin,cap_syslog+ep");
}

static void test_permission_not_paranoid(void **state)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .exclude_kernel = 1 };
	struct open_error e = base(EACCES, &a);

	(void)state;
	/* The level allows it: the target's ptrace check refused it. */
	assert_has(hint(&e), "'sudo setcap cap_sys_ptrace+ep /usr/bin/prec'");

	/* In a container at a level that allows it: the seccomp profile. */
	e.in_container = true;
	assert_has(hint(&e), "'--cap-add PERFMON --security-opt seccomp=unconfined'");
	/* Privileged and refused: a container's seccomp profile, or an LSM. */
	e.can_perfmon = true;
	assert_has(hint(&e), "--security-opt seccomp=unconfined");
	e.in_container = false;
	assert_has(hint(&e), "'dmesg | grep -i -e denied -e lockdown'");
}

static void test_nofile(void **state)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE };
	struct open_error e = base(EMFILE, &a);

	(void)state;
	/* 3 events on 256 CPUs: 768 fds, and room for the rest. */
	e.nr_fds = 768;
	assert_has(hint(&e), "'ulimit -n 1024'");
	e.nr_fds = 1000;
	assert_has(hint(&e), "'ulimit -n 2048'");
	/* Over the hard limit only root raises it. */
	e.nofile_hard = 1024;
	assert_has(hint(&e), "'sudo prlimit --nofile=2048:2048 --pid $$'");
	e.err = ENFILE;
	assert_has(hint(&e), "'sudo sysctl -w fs.file-max=");
}

static void test_missing(void **state)
{
	struct perf_event_attr a = { .type = PERF_TYPE_RAW, .config = 0x1234 };
	struct open_error e = base(ENOENT, &a);

	(void)state;
	e.no_hw_pmu = true;
	assert_has(hint(&e), "no hardware PMU");
	assert_has(hint(&e), "-e cpu-clock");
	/* With a PMU the event itself is unknown. */
	e.no_hw_pmu = false;
	assert_has(hint(&e), "'prec --list-events'");
	/* -C of a CPU the PMU does not cover. */
	e.err = ENODEV;
	e.cpu_list = true;
	e.cpu = 3;
	e.pmu_name = "uncore_imc_0";
	assert_has(hint(&e), "CPU 3");
	assert_has(hint(&e), "'cat /sys/bus/event_source/devices/uncore_imc_0/cpus'");
}

static void test_unsupported(void **state)
{
	struct perf_event_attr a = { .type = 12, .sample_period = 4000 };
	struct open_error e = base(EOPNOTSUPP, &a);

	(void)state;
	/* A counting-only PMU: perf stat counts it. */
	e.pmu_name = "power";
	e.event = "power/energy-pkg/";
	assert_has(hint(&e), "'perf stat -e power/energy-pkg/'");
	/* 'p' is named before sampling (perf never reaches it). */
	a.precise_ip = 2;
	e.event = "cycles:pp";
	assert_has(hint(&e), "drop the 'p' modifier from 'cycles:pp'");
	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	assert_has(hint(&e), "without -b/-j");
}

static void test_busy(void **state)
{
	struct perf_event_attr a = { .type = PERF_TYPE_HARDWARE };
	struct open_error e = base(EBUSY, &a);

	(void)state;
	e.busy_pid = 4242;
	e.busy_comm = "oprofiled";
	assert_has(hint(&e), "process 4242 (oprofiled)");
	assert_has(hint(&e), "'kill 4242'");
	/* Nobody found: the NMI watchdog's counter, for a hardware event. */
	e.busy_pid = 0;
	e.nmi_watchdog = 1;
	assert_has(hint(&e), "'sudo sysctl -w kernel.nmi_watchdog=0'");
	/* Else how to find the holder. */
	a.type = 15;
	assert_has(hint(&e), "find /proc/[0-9]*/fd -lname");
}

static void test_invalid_fields(void **state)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .freq = 1, .sample_freq = 200000 };
	struct open_error e = base(EINVAL, &a);

	(void)state;
	assert_has(hint(&e), "use -F 100000");
	assert_has(hint(&e), "'sudo sysctl -w kernel.perf_event_max_sample_rate=200000'");
	a.sample_freq = 4000;
	a.sample_type = PERF_SAMPLE_STACK_USER;
	a.sample_stack_user = 70000;
	assert_has(hint(&e), "--call-graph dwarf,65528");
	a.sample_stack_user = 8191;
	assert_has(hint(&e), "--call-graph dwarf,8184");
	a.sample_type = 0;
	a.use_clockid = 1;
	assert_has(hint(&e), "-k/--clockid");
	a.use_clockid = 0;
	a.write_backward = 1;
	assert_has(hint(&e), "--overwrite");
	a.write_backward = 0;
	a.sample_type = PERF_SAMPLE_DATA_PAGE_SIZE;
	assert_has(hint(&e), "--data-page-size");
	a.sample_type = 0;
	assert_has(hint(&e), "'dmesg | grep -i perf'");
	/* The vendor's rule wins over the generic one. */
	e.vendor_hint =
		"AMD IBS events may be invalid in per-thread mode: record system wide with -a";
	assert_string_equal(hint(&e), e.vendor_hint);
	/* A period over 63 bits is that, not a modifier or the vendor's. */
	a.freq = 0;
	a.precise_ip = 2;
	a.sample_period = 1ULL << 63;
	assert_has(hint(&e), "above the kernel's largest, 9223372036854775807");
	a.sample_period = (1ULL << 63) - 1;
	assert_string_equal(hint(&e), e.vendor_hint);
}

static void test_callchain_memory(void **state)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE,
				     .sample_type = PERF_SAMPLE_CALLCHAIN,
				     .sample_max_stack = 512 };
	struct open_error e = base(EOVERFLOW, &a);

	(void)state;
	assert_has(hint(&e), "'sudo sysctl -w kernel.perf_event_max_stack=512'");
	e.err = ENOMEM;
	assert_has(hint(&e), "'sudo sysctl -w kernel.perf_event_max_stack=63'");
	e.err = ESRCH;
	assert_has(hint(&e), "'ps -e'");
	e.err = E2BIG;
	assert_has(hint(&e), "'dmesg | grep -i perf'");
}

/* A /proc of two processes; the other one holds a perf event fd. */
static void test_perf_holder(void **state)
{
	char dir[] = "/tmp/prec-holder-XXXXXX", path[PATH_MAX], comm[32];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/100", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/100/fd", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/100/fd/3", dir);
	assert_int_equal(symlink("anon_inode:[perf_event]", path), 0);
	snprintf(path, sizeof(path), "%s/200", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/200/fd", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/200/fd/4", dir);
	assert_int_equal(symlink("anon_inode:[perf_event]", path), 0);
	snprintf(path, sizeof(path), "%s/200/comm", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("perf\n", f);
	fclose(f);

	/* 100 is prec itself: skipped. */
	assert_int_equal(open_error__perf_holder(dir, 100, comm, sizeof(comm)), 200);
	assert_string_equal(comm, "perf");
	assert_int_equal(open_error__perf_holder(dir, 200, comm, sizeof(comm)), 100);
	assert_string_equal(comm, ""); /* no comm file */
	assert_int_equal(open_error__perf_holder("/nonexistent", 1, comm, sizeof(comm)), 0);

	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paranoid_levels),
		cmocka_unit_test(test_permission_not_paranoid),
		cmocka_unit_test(test_nofile),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_unsupported),
		cmocka_unit_test(test_busy),
		cmocka_unit_test(test_invalid_fields),
		cmocka_unit_test(test_callchain_memory),
		cmocka_unit_test(test_perf_holder),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
