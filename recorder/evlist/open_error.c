// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one command that fixes an event the kernel refused (open_error.h):
 * perf 6.1's causes (evsel__open_strerror) with the fix computed, not
 * described, and the causes perf leaves to "dmesg may say".
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evlist/open_error.h"

/* The kernel's cap on a user stack dump (perf's too). */
#define STACK_USER_MAX 65528u

static const char *sudo(const struct open_error *e)
{
	return e->is_root ? "" : "sudo ";
}

/*
 * The paranoid level the kernel wants for e without CAP_PERFMON (its
 * perf_event_open and perf_trace_event_perm): raw tracepoint data -1,
 * CPU-wide events 0, the kernel counted 1, else 2 (a Debian kernel's 3
 * refuses everything).
 */
static int paranoid_needed(const struct open_error *e, const char **what)
{
	const struct perf_event_attr *a = e->attr;

	if (a->type == PERF_TYPE_TRACEPOINT && (a->sample_type & PERF_SAMPLE_RAW)) {
		*what = "tracepoint samples (raw data)";
		return -1;
	}
	if (e->has_cpu) {
		*what = "CPU-wide events (-a/-C)";
		return 0;
	}
	if (!a->exclude_kernel) {
		*what = a->exclude_user ? "kernel-only events (:k, --all-kernel)" :
					  "events that count the kernel";
		return 1;
	}
	*what = "any event";
	return 2;
}

static const char *permission_hint(const struct open_error *e, char *buf, size_t len)
{
	const char *what;
	int need = paranoid_needed(e, &what);

	/* In a container the default seccomp profile refuses perf_event_open
	 * whatever the level, and --cap-add PERFMON alone does not lift it
	 * (moby/moby#43163). */
	if (e->in_container && (e->can_perfmon || e->paranoid <= need))
		return "the container's seccomp profile blocks perf_event_open: start the container with '--cap-add PERFMON --security-opt seccomp=unconfined'";
	if (e->can_perfmon)
		return "prec has CAP_PERFMON and was refused anyway: a security module or lockdown blocks perf_event_open; 'dmesg | grep -i -e denied -e lockdown' names it";
	if (e->paranoid <= need) {
		/* Not the paranoid level: the kernel's ptrace check on the target. */
		snprintf(
			buf, len,
			"prec may not trace another user's or a non-dumpable process: grant it with '%ssetcap cap_sys_ptrace+ep %s', or record it as its user",
			sudo(e), e->exe);
		return buf;
	}
	/* With CAP_PERFMON the default event samples the kernel again (the
	 * paranoid fallback's :u is gone): CAP_SYSLOG lets prec read the
	 * kernel's addresses (kptr_restrict), as perf-security.rst's perf_users
	 * group has. */
	snprintf(
		buf, len,
		"kernel.perf_event_paranoid is %d and %s need %d or lower without CAP_PERFMON: run '%ssysctl -w kernel.perf_event_paranoid=%d', or grant prec the capability with '%ssetcap %s,cap_syslog+ep %s'",
		e->paranoid, what, need, sudo(e), need, sudo(e), e->perfmon_cap, e->exe);
	return buf;
}

static const char *nofile_hint(const struct open_error *e, char *buf, size_t len)
{
	/* Every event fd, and room for the output, the /proc walk and stdio. */
	unsigned long want = (e->nr_fds + 64 + 1023) / 1024 * 1024;

	if (want > e->nofile_hard)
		snprintf(
			buf, len,
			"%lu event fds do not fit the open-file limit, whose hard limit is %lu: raise both with '%sprlimit --nofile=%lu:%lu --pid $$' in the shell that runs prec",
			e->nr_fds, e->nofile_hard, sudo(e), want, want);
	else
		snprintf(
			buf, len,
			"%lu event fds do not fit the open-file limit: raise it with 'ulimit -n %lu'",
			e->nr_fds, want);
	return buf;
}

/* ENOENT, ENODEV, ENXIO: the event, its PMU or its CPU is not there. */
static const char *missing_hint(const struct open_error *e, char *buf, size_t len)
{
	uint32_t type = e->attr->type;

	if (e->no_hw_pmu &&
	    (type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE || type == PERF_TYPE_RAW))
		return "this machine has no hardware PMU (a VM without PMU passthrough?): record a software event such as -e cpu-clock; 'prec --list-events' lists what is here";
	if (e->err == ENODEV && e->cpu_list && e->cpu >= 0) {
		snprintf(
			buf, len,
			"the event cannot count on CPU %d of -C: pick CPUs from 'cat /sys/bus/event_source/devices/%s/cpus'",
			e->cpu, e->pmu_name ? e->pmu_name : "cpu");
		return buf;
	}
	return "the kernel has no such event: pick one that 'prec --list-events' lists";
}

#define BRANCH_HINT \
	"this event's PMU cannot sample branch stacks: record it without -b/-j and --call-graph lbr"

/* perf's words for a refused precise_ip, with the fix. */
static const char *precise_hint(const struct open_error *e, char *buf, size_t len)
{
	snprintf(buf, len,
		 "'precise' request may not be supported: drop the 'p' modifier from '%s'",
		 e->event);
	return buf;
}

static const char *unsupported_hint(const struct open_error *e, char *buf, size_t len)
{
	const struct perf_event_attr *a = e->attr;

	if (a->sample_type & PERF_SAMPLE_BRANCH_STACK)
		return BRANCH_HINT;
	if (a->aux_output)
		return "this event's PMU has no aux-output: drop the aux-output term";
	/* perf checks sampling first and so never names a refused 'p'; the
	 * modifier is the narrower request. */
	if (a->precise_ip) {
		return precise_hint(e, buf, len);
	}
	snprintf(
		buf, len,
		"the %s PMU counts but cannot sample (no overflow interrupt): count it instead with 'perf stat -e %s'",
		e->pmu_name ? e->pmu_name : "event's", e->event);
	return buf;
}

static const char *busy_hint(const struct open_error *e, char *buf, size_t len)
{
	if (e->busy_pid > 0)
		snprintf(
			buf, len,
			"process %d (%s) holds perf events on these counters: stop it with 'kill %d'",
			(int)e->busy_pid, e->busy_comm ? e->busy_comm : "?", (int)e->busy_pid);
	else if (e->nmi_watchdog > 0 && e->attr->type == PERF_TYPE_HARDWARE)
		snprintf(
			buf, len,
			"the NMI watchdog holds a hardware counter: free it with '%ssysctl -w kernel.nmi_watchdog=0'",
			sudo(e));
	else
		snprintf(
			buf, len,
			"another tool holds this PMU: find it with '%sfind /proc/[0-9]*/fd -lname \"anon_inode:\\[perf_event\\]\"'",
			sudo(e));
	return buf;
}

/* EINVAL: the attr field the kernel most likely refused, by what it asks. */
static const char *invalid_hint(const struct open_error *e, char *buf, size_t len)
{
	const struct perf_event_attr *a = e->attr;

	if (a->sample_type & PERF_SAMPLE_BRANCH_STACK)
		return BRANCH_HINT;
	if (!a->freq && a->sample_period > INT64_MAX) {
		/* A period= term: the kernel takes 63 bits (-c is checked early). */
		snprintf(buf, len,
			 "a sample period of %llu is above the kernel's largest, 9223372036854775807: give a smaller period=",
			 (unsigned long long)a->sample_period);
		return buf;
	}
	if (e->vendor_hint)
		return e->vendor_hint;
	if (a->freq && e->max_sample_rate && a->sample_freq > e->max_sample_rate) {
		snprintf(
			buf, len,
			"-F %llu is above kernel.perf_event_max_sample_rate: use -F %lu, or raise it with '%ssysctl -w kernel.perf_event_max_sample_rate=%llu'",
			(unsigned long long)a->sample_freq, e->max_sample_rate, sudo(e),
			(unsigned long long)a->sample_freq);
		return buf;
	}
	if ((a->sample_type & PERF_SAMPLE_STACK_USER) &&
	    (a->sample_stack_user > STACK_USER_MAX || a->sample_stack_user % 8)) {
		snprintf(
			buf, len,
			"a user stack dump of %u bytes is refused (at most %u, a multiple of 8): use --call-graph dwarf,%u",
			a->sample_stack_user, STACK_USER_MAX,
			a->sample_stack_user > STACK_USER_MAX ? STACK_USER_MAX :
								a->sample_stack_user / 8 * 8);
		return buf;
	}
	if (a->use_clockid)
		return "this kernel refused the clock: record without -k/--clockid, or with -k monotonic";
	if (a->write_backward)
		return "this kernel cannot write backward rings: record without --overwrite";
	if (a->sample_type & (PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE))
		return "this kernel (before 5.11) cannot sample page sizes: record without --data-page-size and --code-page-size";
	if (a->aux_output)
		return "this kernel cannot take aux-output: drop the aux-output term";
	if (a->precise_ip) {
		return precise_hint(e, buf, len);
	}
	return "the kernel refused one of the event's attributes: 'dmesg | grep -i perf' may say which; else try the event without modifiers";
}

static const char *memory_hint(const struct open_error *e, char *buf, size_t len)
{
	const struct perf_event_attr *a = e->attr;

	if (!(a->sample_type & PERF_SAMPLE_CALLCHAIN))
		return "the kernel is out of memory for the event: record fewer events or CPUs (-e, -C)";
	if (e->err == EOVERFLOW) {
		/* The asked depth is over kernel.perf_event_max_stack. */
		snprintf(
			buf, len,
			"a callchain depth of %u is above kernel.perf_event_max_stack (%lu): raise it with '%ssysctl -w kernel.perf_event_max_stack=%u'",
			a->sample_max_stack, e->max_stack, sudo(e), a->sample_max_stack);
		return buf;
	}
	snprintf(
		buf, len,
		"the callchain buffers did not fit in memory: lower their depth with '%ssysctl -w kernel.perf_event_max_stack=%lu'",
		sudo(e), e->max_stack > 2 ? e->max_stack / 2 : 1);
	return buf;
}

const char *open_error__hint(const struct open_error *e, char *buf, size_t len)
{
	switch (e->err) {
	case EACCES:
	case EPERM:
		return permission_hint(e, buf, len);
	case EMFILE:
		return nofile_hint(e, buf, len);
	case ENFILE:
		snprintf(
			buf, len,
			"the system's open-file table is full: raise it with '%ssysctl -w fs.file-max=%lu'",
			sudo(e), e->nr_fds > 1048576 ? e->nr_fds * 4 : 4194304ul);
		return buf;
	case ENOENT:
	case ENODEV:
	case ENXIO:
		return missing_hint(e, buf, len);
	case EOPNOTSUPP:
		return unsupported_hint(e, buf, len);
	case EBUSY:
		return busy_hint(e, buf, len);
	case ESRCH:
		return "the target exited before its events were opened: pick a live process from 'ps -e'";
	case EINVAL:
		return invalid_hint(e, buf, len);
	case ENOMEM:
	case EOVERFLOW:
		return memory_hint(e, buf, len);
	default:
		return "'dmesg | grep -i perf' may say why";
	}
}

/* Whether /proc's pid directory dfd holds a perf event fd. */
static bool holds_perf_event(int dfd)
{
	int fd = openat(dfd, "fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *d;
	bool found = false;

	if (!dir) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	while (!found && (d = readdir(dir))) {
		char link[64];
		ssize_t n = readlinkat(fd, d->d_name, link, sizeof(link) - 1);

		if (n > 0) {
			link[n] = '\0';
			found = !strcmp(link, "anon_inode:[perf_event]");
		}
	}
	closedir(dir);
	return found;
}

pid_t open_error__perf_holder(const char *proc_dir, pid_t self, char *comm, size_t len)
{
	DIR *proc = opendir(proc_dir);
	struct dirent *d;
	pid_t found = 0;

	if (!proc)
		return 0;
	while (!found && (d = readdir(proc))) {
		long pid = isdigit((unsigned char)d->d_name[0]) ? strtol(d->d_name, NULL, 10) : 0;
		int dfd;

		if (pid <= 0 || pid == self)
			continue;
		dfd = openat(dirfd(proc), d->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0)
			continue;
		if (holds_perf_event(dfd)) {
			int cfd = openat(dfd, "comm", O_RDONLY | O_CLOEXEC);
			ssize_t n = cfd >= 0 && len ? read(cfd, comm, len - 1) : -1;

			if (len)
				comm[n > 0 ? (size_t)n : 0] = '\0';
			if (n > 0 && comm[n - 1] == '\n')
				comm[n - 1] = '\0';
			if (cfd >= 0)
				close(cfd);
			found = (pid_t)pid;
		}
		close(dfd);
	}
	closedir(proc);
	return found;
}
