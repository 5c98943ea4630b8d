// SPDX-License-Identifier: GPL-2.0-only
/*
 * evlist__open through the sys.c seam: sys_perf_event_open and ioctl are
 * wrapped (-Wl,--wrap, see tests/CMakeLists.txt) so the kernel's answers can
 * be chosen: a kernel that refuses every event opened into a group (perf's
 * weak-group fallback, :W), and kernels of other machines for perf 6.1's
 * fallbacks in its order: one without a hardware PMU, one whose PMU takes
 * precise_ip <= 1 only, one that forbids kernel profiling (paranoid 2), one
 * whose PMU refuses exclude_guest, one without WEIGHT_STRUCT; and a hybrid
 * machine's CPUs. caps__paranoid and caps__can_perfmon are wrapped too, so
 * the privileges are the test's, not the machine's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
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

#include "recorder/targets/cpu_map.h"
#include "recorder/evlist/evlist.h"
#include "prec/error.h"
#include "prec/log.h"
#include "recorder/events/parse_events.h"
#include "recorder/targets/thread_map.h"
#include "recorder/evlist/vendor.h"

static int opens, group_opens;
static uint64_t next_id = 100;

/* The kernel's answer to one open: 0 to open it, else the errno. */
typedef int (*kernel_fn)(const struct perf_event_attr *attr, int cpu, int group_fd);

/* The default: no groups (see test_weak_group_opens_members_alone). */
static int kernel_no_groups(const struct perf_event_attr *attr, int cpu, int group_fd)
{
	(void)attr;
	(void)cpu;
	return group_fd != -1 ? EINVAL : 0;
}

static kernel_fn kernel = kernel_no_groups;
static int paranoid = 2;
static bool perfmon;

/* Every open tried, in order. */
struct attempt {
	uint32_t type;
	uint64_t config;
	unsigned precise_ip;
	int cpu;
	bool ok;
};
static struct attempt tried[256];
static int nr_tried;

int __wrap_caps__paranoid(void);
bool __wrap_caps__can_perfmon(void);

int __wrap_caps__paranoid(void)
{
	return paranoid;
}

bool __wrap_caps__can_perfmon(void)
{
	return perfmon;
}

int __wrap_sys_perf_event_open(struct perf_event_attr *attr, int pid, int cpu, int group_fd,
			       unsigned long flags);
int __real_ioctl(int fd, unsigned long req, ...);
int __wrap_ioctl(int fd, unsigned long req, ...);

int __wrap_sys_perf_event_open(struct perf_event_attr *attr, int pid, int cpu, int group_fd,
			       unsigned long flags)
{
	int err = kernel(attr, cpu, group_fd);

	(void)pid;
	(void)flags;
	opens++;
	if (group_fd != -1)
		group_opens++;
	if (nr_tried < (int)(sizeof(tried) / sizeof(tried[0])))
		tried[nr_tried++] =
			(struct attempt){ attr->type, attr->config, attr->precise_ip, cpu, !err };
	if (err) {
		errno = err;
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
	/* a forked command */
	struct evlist_config cfg = { .freq = 4000, .cgroup_fd = -1, .workload_only = true,
				     .inherit = true };
	struct cpu_map *cpus;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	int ret;

	assert_int_equal(parse_events(&specs, str, &e), 0);
	assert_int_equal(cpu_map__parse(&cpus, "0"), 0);
	assert_int_equal(
		evlist__init(evlist, &specs, &cfg, cpus, thread_map__new_one(getpid()), NULL), 0);
	opens = group_opens = 0;
	ret = evlist__open(evlist, NULL);
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

/* ---- perf 6.1's fallbacks, on the kernels of other machines ---- */

/* The specs of the last setup: the evsels borrow names from them. */
static struct event_specs last_specs;

static void reset(kernel_fn k)
{
	event_specs__exit(&last_specs);
	log__set_level(LOG_NORMAL);
	kernel = k;
	paranoid = 2;
	perfmon = false;
	nr_tried = 0;
	opens = group_opens = 0;
}

/*
 * Builds and opens an evlist of str (NULL: the default event for env) on
 * cpu_list ("0" when NULL: a forked command's per-CPU events), system-wide
 * when system_wide. Returns evlist__open's result; stderr, with the line a
 * failure leaves in its struct prec_err (printed as record.c does), goes to
 * errbuf.
 */
struct setup {
	const char *events;
	const struct default_event_env *env;
	struct event_machine machine;
	const char *cpus;
	bool system_wide, cpu_list, sample_weight, all_kernel;
};

static char errbuf[2048];

static int open_setup(const struct setup *su, struct evlist *evlist, int *init_ret)
{
	struct event_specs specs = { 0 };
	struct evlist_config cfg = { .freq = 4000, .cgroup_fd = -1, .inherit = true };
	struct cpu_map *cpus;
	struct prec_err e = PREC_ERR_INIT;
	bool filled;
	int ret, saved = dup(2);
	FILE *f = tmpfile();

	memset(evlist, 0, sizeof(*evlist));
	cfg.sample_weight = su->sample_weight;
	cfg.all_kernel = su->all_kernel;
	/* -a, -C (the hybrid warnings name the list), or a forked command */
	cfg.has_cpu = su->system_wide || su->cpu_list;
	cfg.cpu_list = !su->system_wide && su->cpu_list ? su->cpus : NULL;
	cfg.workload_only = !cfg.has_cpu;
	if (su->events)
		assert_int_equal(parse_events(&specs, su->events, &e), 0);
	else
		assert_int_equal(parse_events__add_default(&specs, su->env), 0);
	specs.machine = su->machine;
	assert_int_equal(cpu_map__parse(&cpus, su->cpus ? su->cpus : "0"), 0);
	assert_non_null(f);
	fflush(stderr);
	dup2(fileno(f), 2);
	*init_ret = evlist__init(evlist, &specs, &cfg, cpus,
				 thread_map__new_one(cfg.workload_only ? getpid() : -1), &e);
	nr_tried = 0;
	opens = group_opens = 0;
	ret = *init_ret ? *init_ret : evlist__open(evlist, &e);
	/* A failure fills e and prints nothing itself. */
	filled = prec_err__is_set(&e);
	prec_err__print(&e, NULL);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	errbuf[fread(errbuf, 1, sizeof(errbuf) - 1, f)] = '\0';
	fclose(f);
	assert_int_equal(filled, ret != 0);
	last_specs = specs;
	return ret;
}

static int kernel_no_hw_pmu(const struct perf_event_attr *attr, int cpu, int group_fd)
{
	(void)cpu;
	(void)group_fd;
	return attr->type == PERF_TYPE_HARDWARE || attr->type == PERF_TYPE_HW_CACHE ? ENOENT : 0;
}

/* No hardware PMU (a VM like the one these tests were written on): precise
 * 3..0 first, then cpu-clock at the precise level it started from. */
static void test_no_hardware_pmu(void **state)
{
	const struct default_event_env intel = { .can_profile_kernel = true };
	const struct default_event_env amd = { .amd = true, .can_profile_kernel = true };
	static const unsigned want_precise[] = { 3, 2, 1, 0, 3 };
	struct evlist evlist;
	int init;

	(void)state;
	reset(kernel_no_hw_pmu);
	assert_int_equal(open_setup(&(struct setup){ .env = &intel }, &evlist, &init), 0);
	assert_int_equal(nr_tried, 5);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(tried[i].precise_ip, want_precise[i]);
		assert_int_equal(tried[i].type, i < 4 ? PERF_TYPE_HARDWARE : PERF_TYPE_SOFTWARE);
	}
	assert_string_equal(evlist.evsel[0].name, "cpu-clock:pppH");
	assert_int_equal(evlist.evsel[0].attr.exclude_guest, 1);
	evlist__exit(&evlist);

	reset(kernel_no_hw_pmu);
	assert_int_equal(open_setup(&(struct setup){ .env = &amd }, &evlist, &init), 0);
	/* What perf record 6.1 writes on an AMD machine without a PMU. */
	assert_string_equal(evlist.evsel[0].name, "cpu-clock:ppp");
	assert_int_equal(evlist.evsel[0].attr.exclude_guest, 0);
	assert_int_equal(evlist.evsel[0].attr.precise_ip, 3);
	evlist__exit(&evlist);

	/* Not being able to profile the kernel: user only from the start. */
	reset(kernel_no_hw_pmu);
	assert_int_equal(
		open_setup(&(struct setup){ .env = &(struct default_event_env){ .amd = true } },
			   &evlist, &init),
		0);
	assert_string_equal(evlist.evsel[0].name, "cpu-clock:uhppp");
	evlist__exit(&evlist);
}

/* Only cycles falls back (perf 6.1's evsel__fallback): another hardware or
 * cache event, alone or beside cycles in a group, is refused with the
 * machine's lack named, never recorded as cpu-clock under its name. */
static void test_no_hardware_pmu_only_cycles(void **state)
{
	static const char *const refused[] = { "instructions:u", "cache-misses", "L1-dcache-loads",
					       "{cycles,instructions}", "branches:k" };
	struct evlist evlist;
	int init;

	(void)state;
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		reset(kernel_no_hw_pmu);
		assert_int_not_equal(
			open_setup(&(struct setup){ .events = refused[i] }, &evlist, &init), 0);
		assert_non_null(strstr(errbuf, "no hardware PMU"));
		assert_null(strstr(errbuf, "recording cpu-clock"));
		evlist__exit(&evlist);
	}
	/* cycles with a modifier still falls back, named as perf 6.1 names it. */
	reset(kernel_no_hw_pmu);
	assert_int_equal(open_setup(&(struct setup){ .events = "cycles:u" }, &evlist, &init), 0);
	assert_int_equal(evlist.evsel[0].attr.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(evlist.evsel[0].attr.config, PERF_COUNT_SW_CPU_CLOCK);
	assert_string_equal(evlist.evsel[0].name, "cpu-clock:uH"); /* as perf names it */
	evlist__exit(&evlist);
}

static int kernel_precise_1(const struct perf_event_attr *attr, int cpu, int group_fd)
{
	(void)cpu;
	(void)group_fd;
	return attr->type == PERF_TYPE_HARDWARE && attr->precise_ip > 1 ? EOPNOTSUPP : 0;
}

/* A PMU that takes precise_ip <= 1: the default settles there and keeps its
 * name; an explicit :ppp fails with the precise advice, not cpu-clock. */
static void test_precise_le_1(void **state)
{
	const struct default_event_env intel = { .can_profile_kernel = true };
	struct evlist evlist;
	int init;

	(void)state;
	reset(kernel_precise_1);
	assert_int_equal(
		open_setup(&(struct setup){ .env = &intel, .cpus = "0-1" }, &evlist, &init), 0);
	/* 3 and 2 refused on CPU 0, then 1 on both CPUs. */
	assert_int_equal(nr_tried, 4);
	assert_int_equal(tried[0].precise_ip, 3);
	assert_int_equal(tried[1].precise_ip, 2);
	assert_int_equal(tried[2].precise_ip, 1);
	assert_int_equal(tried[3].precise_ip, 1);
	assert_int_equal(tried[3].cpu, 1);
	assert_int_equal(evlist.evsel[0].attr.type, PERF_TYPE_HARDWARE);
	assert_int_equal(evlist.evsel[0].attr.precise_ip, 1);
	assert_string_equal(evlist.evsel[0].name, "cycles");
	evlist__exit(&evlist);

	reset(kernel_precise_1);
	assert_int_equal(open_setup(&(struct setup){ .events = "cycles:ppp" }, &evlist, &init),
			 -EOPNOTSUPP);
	assert_int_equal(nr_tried, 1);
	assert_non_null(strstr(errbuf, "'precise' request may not be supported"));
	evlist__exit(&evlist);
}

static int kernel_paranoid(const struct perf_event_attr *attr, int cpu, int group_fd)
{
	(void)cpu;
	(void)group_fd;
	return attr->exclude_kernel ? 0 : EACCES;
}

/* precise_ip is lowered on any error first (EACCES too), then the kernel is
 * excluded with precise_ip back where it started. */
static void test_precise_before_paranoid(void **state)
{
	const struct default_event_env intel = { .can_profile_kernel = true };
	static const unsigned want_precise[] = { 3, 2, 1, 0, 3 };
	struct evlist evlist;
	int init;

	(void)state;
	reset(kernel_paranoid);
	assert_int_equal(open_setup(&(struct setup){ .env = &intel }, &evlist, &init), 0);
	assert_int_equal(nr_tried, 5);
	for (int i = 0; i < 5; i++)
		assert_int_equal(tried[i].precise_ip, want_precise[i]);
	assert_true(tried[4].ok);
	assert_int_equal(evlist.evsel[0].attr.exclude_kernel, 1);
	assert_int_equal(evlist.evsel[0].attr.exclude_hv, 1);
	assert_string_equal(evlist.evsel[0].name, "cycles:u");
	evlist__exit(&evlist);

	/* perf's name rule: no ':' added after a PMU's '/'. */
	reset(kernel_paranoid);
	assert_int_equal(open_setup(&(struct setup){ .events = "cpu-clock:p" }, &evlist, &init), 0);
	assert_string_equal(evlist.evsel[0].name, "cpu-clock:pu");
	evlist__exit(&evlist);
}

/* The hostile case: an event that excludes user space cannot fall back to
 * excluding the kernel too (it would record nothing); refused with the fix. */
static void test_kernel_only_refused(void **state)
{
	struct evlist evlist;
	int init;

	(void)state;
	reset(kernel_paranoid);
	assert_int_equal(open_setup(&(struct setup){ .events = "cpu-clock:k" }, &evlist, &init),
			 -EACCES);
	assert_int_equal(nr_tried, 1);
	assert_int_equal(evlist.evsel[0].attr.exclude_kernel, 0);
	assert_non_null(strstr(errbuf, "prec: cannot open event 'cpu-clock:k'"));
	assert_non_null(strstr(errbuf, "sysctl -w kernel.perf_event_paranoid=1"));
	assert_non_null(strstr(errbuf, "CAP_PERFMON"));
	/* One line. */
	assert_true(strchr(errbuf, '\n') == errbuf + strlen(errbuf) - 1);
	evlist__exit(&evlist);

	/* --all-kernel is the same request. */
	reset(kernel_paranoid);
	assert_int_equal(open_setup(&(struct setup){ .events = "cpu-clock", .all_kernel = true },
				    &evlist, &init),
			 -EACCES);
	assert_int_equal(nr_tried, 1);
	assert_non_null(strstr(errbuf, "sysctl -w kernel.perf_event_paranoid=1"));
	evlist__exit(&evlist);

	/* Paranoid 1 allows the kernel: no fallback for anyone, the general advice. */
	reset(kernel_paranoid);
	paranoid = 1;
	assert_int_equal(open_setup(&(struct setup){ .events = "cpu-clock" }, &evlist, &init),
			 -EACCES);
	assert_int_equal(nr_tried, 1);
	evlist__exit(&evlist);
}

static int kernel_no_exclude_guest(const struct perf_event_attr *attr, int cpu, int group_fd)
{
	(void)cpu;
	(void)group_fd;
	return attr->exclude_guest || attr->exclude_host ? EINVAL : 0;
}

/* A PMU without exclude_guest/host: cleared (perf's missing feature), unless
 * :H asked for it. */
static void test_pmu_without_exclude_guest(void **state)
{
	struct evlist evlist;
	int init;

	(void)state;
	reset(kernel_no_exclude_guest);
	assert_int_equal(open_setup(&(struct setup){ .events = "cpu-clock" }, &evlist, &init), 0);
	assert_int_equal(evlist.evsel[0].attr.exclude_guest, 0);
	/* LOST first, then exclude_guest, in perf's order. */
	assert_int_equal(nr_tried, 3);
	assert_int_equal(evlist.evsel[0].attr.read_format & PERF_FORMAT_LOST, 0);
	evlist__exit(&evlist);

	reset(kernel_no_exclude_guest);
	assert_int_equal(open_setup(&(struct setup){ .events = "cpu-clock:H" }, &evlist, &init),
			 -EINVAL);
	evlist__exit(&evlist);
}

static int kernel_no_weight_struct(const struct perf_event_attr *attr, int cpu, int group_fd)
{
	(void)cpu;
	(void)group_fd;
	return attr->sample_type & PERF_SAMPLE_WEIGHT_STRUCT ? EINVAL : 0;
}

/* -W: WEIGHT_STRUCT built for x86, WEIGHT elsewhere, and WEIGHT on a kernel
 * before 5.12. */
static void test_sample_weight(void **state)
{
	struct evlist evlist;
	int init;

	(void)state;
	reset(kernel_no_groups);
	assert_int_equal(open_setup(&(struct setup){ .events = "cpu-clock", .sample_weight = true },
				    &evlist, &init),
			 0);
	assert_true(evlist.evsel[0].attr.sample_type & vendor__weight_bit(vendor__build_arch()));
	evlist__exit(&evlist);

	reset(kernel_no_weight_struct);
	assert_int_equal(open_setup(&(struct setup){ .events = "cpu-clock", .sample_weight = true },
				    &evlist, &init),
			 0);
	assert_false(evlist.evsel[0].attr.sample_type & PERF_SAMPLE_WEIGHT_STRUCT);
	assert_true(evlist.evsel[0].attr.sample_type & PERF_SAMPLE_WEIGHT);
	evlist__exit(&evlist);
}

static int kernel_any(const struct perf_event_attr *attr, int cpu, int group_fd)
{
	(void)attr;
	(void)cpu;
	(void)group_fd;
	return 0;
}

/* A hybrid machine: cpu_core on CPUs 0-1, cpu_atom on 2-3. Each default
 * event opens on its PMU's CPUs only; -C CPUs of one PMU leave the other's
 * event out; CPUs of neither are refused. */
static void test_hybrid_default(void **state)
{
	static const struct default_event_pmu pmus[] = {
		{ .name = "cpu_core", .type = 4, .cpus = "0-1" },
		{ .name = "cpu_atom", .type = 10, .cpus = "2-3" },
	};
	const struct default_event_env env = { .can_profile_kernel = true,
					       .hybrid = pmus,
					       .nr_hybrid = 2 };
	struct evlist evlist;
	int init, n[2] = { 0, 0 };

	(void)state;
	reset(kernel_any);
	assert_int_equal(
		open_setup(&(struct setup){ .env = &env, .cpus = "0-3", .system_wide = true },
			   &evlist, &init),
		0);
	assert_int_equal(evlist.nr, 3); /* two cycles and the tracking dummy */
	for (int i = 0; i < nr_tried; i++) {
		uint64_t type = tried[i].config >> 32;

		if (tried[i].type != PERF_TYPE_HARDWARE)
			continue;
		assert_true(type == 4 || type == 10);
		assert_true(type == 4 ? tried[i].cpu <= 1 : tried[i].cpu >= 2);
		n[type == 10]++;
	}
	assert_int_equal(n[0], 2);
	assert_int_equal(n[1], 2);
	assert_int_equal(EVSEL_FD(&evlist.evsel[0], 2, 0), -1);
	assert_true(EVSEL_FD(&evlist.evsel[0], 1, 0) >= 0);
	assert_int_equal(EVSEL_FD(&evlist.evsel[1], 0, 0), -1);
	assert_true(EVSEL_FD(&evlist.evsel[1], 3, 0) >= 0);
	evlist__exit(&evlist);

	reset(kernel_any);
	assert_int_equal(open_setup(&(struct setup){ .env = &env, .cpus = "2-3", .cpu_list = true },
				    &evlist, &init),
			 0);
	assert_int_equal(evlist.nr, 2); /* cpu_atom's cycles and the dummy */
	assert_string_equal(evlist.evsel[0].pmu_name, "cpu_atom");
	assert_non_null(strstr(errbuf, "2-3 isn't a 'cpu_core'"));
	evlist__exit(&evlist);

	reset(kernel_any);
	assert_int_equal(open_setup(&(struct setup){ .env = &env, .cpus = "1-2", .cpu_list = true },
				    &evlist, &init),
			 0);
	assert_int_equal(evlist.nr, 3);
	assert_non_null(strstr(errbuf, "use 1 in 'cpu_core'"));
	assert_non_null(strstr(errbuf, "use 2 in 'cpu_atom'"));
	evlist__exit(&evlist);

	reset(kernel_any);
	assert_int_equal(open_setup(&(struct setup){ .env = &env, .cpus = "5", .cpu_list = true },
				    &evlist, &init),
			 -EINVAL);
	assert_non_null(strstr(errbuf, "prec: cannot record the default event on CPUs 5"));
	evlist__exit(&evlist);
}

static int kernel_ibs(const struct perf_event_attr *attr, int cpu, int group_fd)
{
	(void)cpu;
	(void)group_fd;
	/* IBS takes no exclude_* bits and, before Linux 6.2, no task events. */
	return attr->precise_ip || attr->type == 11 ? EINVAL : 0;
}

/* AMD IBS: perf 6.1's advice for EINVAL, in its order. */
static void test_amd_ibs_advice(void **state)
{
	const struct event_machine amd = { .amd = true, .ibs_op_type = 11 };
	struct evlist evlist;
	int init;

	(void)state;
	reset(kernel_ibs);
	assert_int_equal(open_setup(&(struct setup){ .events = "cycles:pp", .machine = amd },
				    &evlist, &init),
			 -EINVAL);
	assert_non_null(strstr(errbuf, "AMD IBS events may be invalid in per-thread mode"));
	evlist__exit(&evlist);

	reset(kernel_ibs);
	assert_int_equal(open_setup(&(struct setup){ .events = "11:0x10000:u",
						     .machine = amd,
						     .system_wide = true,
						     .cpus = "0" },
				    &evlist, &init),
			 -EINVAL);
	assert_non_null(strstr(errbuf, "AMD IBS can't exclude kernel events"));
	evlist__exit(&evlist);

	/* The same error on Intel: prec's general advice. */
	reset(kernel_ibs);
	assert_int_equal(open_setup(&(struct setup){ .events = "cycles:pp" }, &evlist, &init),
			 -EINVAL);
	assert_null(strstr(errbuf, "AMD IBS"));
	evlist__exit(&evlist);
}

/*
 * evlist__ring_idx, libperf 6.1's mmap idx: per CPU of all_cpus; with
 * --per-thread the threads' rings first, then the system-wide event's CPUs
 * (perf's ID_INDEX of --kcore --per-thread: idx 0 cpu -1, idx 1 cpu 0, ...).
 */
static void test_ring_idx(void **state)
{
	static const int cpus13[] = { 1, 3 }, any[] = { -1 }, all[] = { 0, 1, 2, 3 };
	struct evsel target, sw;
	struct evlist evlist;
	struct thread_map *threads = malloc(sizeof(*threads) + 2 * sizeof(pid_t));
	struct cpu_map *m = NULL;

	(void)state;
	assert_non_null(threads);
	threads->nr = 2;
	threads->pid[0] = 700;
	threads->pid[1] = 701;
	memset(&evlist, 0, sizeof(evlist));
	memset(&target, 0, sizeof(target));
	memset(&sw, 0, sizeof(sw));
	evlist.threads = threads;
	sw.open_cpus = all;
	sw.nr_cpus = 4;
	sw.system_wide = true;
	/* -C 1,3 beside a dummy on CPUs 0-3: rings for 0-3, by CPU. */
	assert_int_equal(cpu_map__parse(&evlist.cpus, "1,3"), 0);
	assert_int_equal(cpu_map__parse(&evlist.all_cpus, "0-3"), 0);
	target.open_cpus = cpus13;
	target.nr_cpus = 2;
	assert_int_equal(evlist__ring_idx(&evlist, &target, 0, 0), 1);
	assert_int_equal(evlist__ring_idx(&evlist, &target, 1, 1), 3);
	assert_int_equal(evlist__ring_idx(&evlist, &sw, 0, 0), 0);
	assert_int_equal(evlist__ring_idx(&evlist, &sw, 2, 0), 2);
	cpu_map__delete(evlist.cpus);
	cpu_map__delete(evlist.all_cpus);
	/* --per-thread: two thread rings, then the dummy's four. */
	m = malloc(sizeof(*m) + sizeof(int));
	assert_non_null(m);
	m->nr = 1;
	m->cpu[0] = -1;
	evlist.cpus = m;
	assert_int_equal(cpu_map__parse(&evlist.all_cpus, "0-3"), 0);
	target.open_cpus = any;
	target.nr_cpus = 1;
	assert_int_equal(evlist__ring_idx(&evlist, &target, 0, 0), 0);
	assert_int_equal(evlist__ring_idx(&evlist, &target, 0, 1), 1);
	assert_int_equal(evlist__ring_idx(&evlist, &sw, 0, 0), 2);
	assert_int_equal(evlist__ring_idx(&evlist, &sw, 3, 0), 5);
	/* A CPU without a ring. */
	cpu_map__delete(evlist.all_cpus);
	assert_int_equal(cpu_map__parse(&evlist.all_cpus, "0-2"), 0);
	assert_int_equal(evlist__ring_idx(&evlist, &sw, 3, 0), -1);
	cpu_map__delete(evlist.all_cpus);
	free(m);
	free(threads);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_weak_group_opens_members_alone),
		cmocka_unit_test(test_plain_group_fails),
		cmocka_unit_test(test_no_hardware_pmu),
		cmocka_unit_test(test_precise_le_1),
		cmocka_unit_test(test_no_hardware_pmu_only_cycles),
		cmocka_unit_test(test_precise_before_paranoid),
		cmocka_unit_test(test_kernel_only_refused),
		cmocka_unit_test(test_pmu_without_exclude_guest),
		cmocka_unit_test(test_sample_weight),
		cmocka_unit_test(test_hybrid_default),
		cmocka_unit_test(test_amd_ibs_advice),
		cmocka_unit_test(test_ring_idx),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
