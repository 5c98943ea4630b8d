/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_PROC_STATUS_H
#define PREC_RECORDER_PROC_STATUS_H
/*
 * A task's /proc/PID/status as perf reads it (targets/proc_status.c): its
 * name, process, parent and namespace pid. The side-band of existing tasks
 * (synth/), the off-CPU and filter targets (bpf/) and the names layer
 * (names/) all ask it here.
 */
#include <stdbool.h>
#include <sys/types.h>

/* What perf takes from /proc/PID/status. */
struct proc_status {
	char comm[16]; /* the Name line, cut to 15 bytes */
	pid_t tgid, ppid; /* -1 when missing */
	bool kernel; /* no VmPeak but a Threads line: a kernel thread */
	pid_t nstgid; /* the last NStgid (its own PID namespace's); tgid without one */
	int threads; /* the Threads line: its live threads; -1 when missing */
};

/*
 * Parses a status file's text (buf, NUL-terminated; perf reads the first
 * 4095 bytes): Name, then Tgid after it, PPid after that, VmPeak or Threads
 * after PPid, as perf finds them. Pure. 0, or -ESRCH without a Tgid.
 */
int proc_status__parse(const char *buf, struct proc_status *st);

/* Reads the status file rel below procfd (the first 4095 bytes, in one
 * read, as perf) and parses it. 0, or -errno / -ESRCH without Tgid. */
int proc_status__read(int procfd, const char *rel, struct proc_status *st);

#endif
