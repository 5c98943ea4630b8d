// SPDX-License-Identifier: GPL-2.0-only
/*
 * evlist__open through the sys.c seam: sys_perf_event_open and ioctl are
 * wrapped (-Wl,--wrap, see tests/CMakeLists.txt) so the kernel's answers can
 * be chosen: here, a kernel that refuses every event opened into a group,
 * to check perf's weak-group fallback (:W) and the plain group's failure.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "prec/cpu_map.h"
#include "prec/evlist.h"
#include "prec/log.h"
#include "prec/parse_events.h"
#include "prec/record.h"
#include "prec/thread_map.h"

static int opens, group_opens;
static uint64_t next_id = 100;

int __wrap_sys_perf_event_open(struct perf_event_attr *attr, int pid, int cpu, int group_fd,
			       unsigned long flags);
int __real_ioctl(int fd, unsigned long req, ...);
int __wrap_ioctl(int fd, unsigned long req, ...);

int __wrap_sys_perf_event_open(struct perf_event_attr *attr, int pid, int cpu, int group_fd,
			       unsigned long flags)
{
	(void)attr;
	(void)pid;
	(void)cpu;
	(void)flags;
	opens++;
	if (group_fd != -1) {
		group_opens++;
		errno = EINVAL; /* this "kernel" takes no groups */
		return -1;
	}
	return open("/dev/null", O_RDONLY | O_CLOEXEC);
}

int __wrap_ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (req == PERF_EVENT_IOC_ID) {
		*(uint64_t *)arg = next_id++;
		return 0;
	}
	return __real_ioctl(fd, req, arg);
}

static int open_group(const char *str, struct evlist *evlist)
{
	struct event_specs specs = { 0 };
	struct record_opts opts;
	struct cpu_map *cpus;
	char err[256];
	int ret;

	memset(&opts, 0, sizeof(opts));
	opts.freq = 4000;
	opts.cgroup_fd = -1;
	opts.argc = 1; /* a forked command */
	assert_int_equal(parse_events(&specs, str, err, sizeof(err)), 0);
	assert_int_equal(cpu_map__parse(&cpus, "0"), 0);
	assert_int_equal(evlist__init(evlist, &specs, &opts, cpus, thread_map__new_one(getpid())), 0);
	opens = group_opens = 0;
	ret = evlist__open(evlist);
	event_specs__exit(&specs);
	return ret;
}

static void test_weak_group_opens_members_alone(void **state)
{
	struct evlist evlist;

	(void)state;
	log__set_level(LOG_QUIET);
	assert_int_equal(open_group("{cpu-clock,task-clock,faults}:W", &evlist), 0);
	/* The refused group open (three times: the EINVAL retries without
	 * PERF_FORMAT_LOST and without exclude_guest, perf's missing-feature
	 * probes), then each member on its own. */
	assert_int_equal(group_opens, 3);
	assert_int_equal(opens, 6);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(evlist.evsel[i].leader, i);
		assert_int_equal(evlist.evsel[i].nr_members, 1);
		assert_true(EVSEL_FD(&evlist.evsel[i], 0, 0) >= 0);
		/* Each is enabled at exec like a leader now. */
		assert_int_equal(evlist.evsel[i].attr.disabled, 1);
		assert_int_equal(evlist.evsel[i].attr.enable_on_exec, 1);
	}
	evlist__exit(&evlist);
}

static void test_plain_group_fails(void **state)
{
	struct evlist evlist;

	(void)state;
	log__set_level(LOG_QUIET);
	assert_int_equal(open_group("{cpu-clock,task-clock}", &evlist), -EINVAL);
	assert_int_equal(group_opens, 3);
	/* Nothing is left open. */
	assert_int_equal(EVSEL_FD(&evlist.evsel[0], 0, 0), -1);
	evlist__exit(&evlist);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_weak_group_opens_members_alone),
		cmocka_unit_test(test_plain_group_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
