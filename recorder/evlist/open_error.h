/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_OPEN_ERROR_H
#define PREC_RECORDER_OPEN_ERROR_H
/*
 * The fix to name when perf_event_open refuses an event after every
 * fallback: one command per cause, computed from the facts below (a pure
 * function, so each cause, the busy counter included, is unit-tested).
 */
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/perf_event.h>

struct open_error {
	int err; /* the positive errno */
	const struct perf_event_attr *attr;
	const char *event; /* its name, as -e gives it */
	const char *pmu_name; /* its sysfs PMU, or NULL */
	bool has_cpu; /* -a/-C: CPU-wide events */
	bool cpu_list; /* -C given */
	int cpu; /* the CPU it failed on, -1 for any */
	bool is_root; /* euid 0 (no sudo in the commands) */
	bool can_perfmon; /* CAP_PERFMON or CAP_SYS_ADMIN effective */
	const char *perfmon_cap; /* "cap_perfmon", or "cap_sys_admin" before Linux 5.8 */
	int paranoid; /* kernel.perf_event_paranoid */
	const char *exe; /* prec's own path, for setcap */
	bool no_hw_pmu; /* sysfs has no cpu (or cpu_core/cpu_atom) PMU */
	bool in_container; /* /.dockerenv or /run/.containerenv */
	unsigned long nr_fds; /* event fds the whole recording needs */
	unsigned long nofile_hard; /* RLIMIT_NOFILE's hard limit (ULONG_MAX unlimited) */
	pid_t busy_pid; /* EBUSY: another process holding perf events, 0 none found */
	const char *busy_comm; /* its comm */
	int nmi_watchdog; /* kernel.nmi_watchdog (it holds one hardware counter) */
	unsigned long max_sample_rate; /* kernel.perf_event_max_sample_rate */
	unsigned long max_stack; /* kernel.perf_event_max_stack */
	const char *vendor_hint; /* the vendor's rule for an EINVAL (vendor.c), or NULL */
};

/*
 * Writes the fix for e's refusal into buf (one line, no newline): what the
 * kernel wants and the one command that gives it, the least privilege first.
 * Returns buf, or a static string. Pure.
 */
const char *open_error__hint(const struct open_error *e, char *buf, size_t len);

/*
 * The first process other than self (and its comm) that holds a perf event
 * fd, from proc_dir's fd links: who keeps a busy counter. Returns its pid,
 * or 0 when none is found (or none may be read).
 */
pid_t open_error__perf_holder(const char *proc_dir, pid_t self, char *comm, size_t len);

#endif
