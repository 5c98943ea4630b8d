// SPDX-License-Identifier: GPL-2.0-only
/* /proc/PID/status, as perf reads it (proc_status.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "targets/proc_status.h"

/* A decimal pid after "Key:" and blanks; -1 when there is none. */
static pid_t status_int(const char *p)
{
	char *end;
	long v;

	while (*p == ' ' || *p == '\t')
		p++;
	v = strtol(p, &end, 10);
	if (end == p || v < INT_MIN || v > INT_MAX)
		return -1;
	return (pid_t)v;
}

int proc_status__parse(const char *buf, struct proc_status *st)
{
	const char *name, *tgid, *ppid, *vmpeak, *threads, *ns;

	memset(st, 0, sizeof(*st));
	st->tgid = st->ppid = -1;
	name = strstr(buf, "Name:");
	tgid = strstr(name ? name : buf, "Tgid:");
	ppid = strstr(tgid ? tgid : buf, "PPid:");
	vmpeak = strstr(ppid ? ppid : buf, "VmPeak:");
	threads = vmpeak ? NULL : strstr(ppid ? ppid : buf, "Threads:");
	if (name) {
		const char *p = name + 5;
		size_t len;

		while (*p == ' ' || *p == '\t')
			p++;
		len = strcspn(p, "\n");
		if (len > sizeof(st->comm) - 1)
			len = sizeof(st->comm) - 1;
		memcpy(st->comm, p, len);
	}
	if (tgid)
		st->tgid = status_int(tgid + 5);
	if (ppid)
		st->ppid = status_int(ppid + 5);
	st->kernel = !vmpeak && threads;
	threads = strstr(ppid ? ppid : buf, "Threads:");
	st->threads = threads ? status_int(threads + 8) : -1;
	st->nstgid = st->tgid;
	ns = strstr(tgid ? tgid : buf, "NStgid:");
	if (ns) {
		/* The innermost namespace's is the last of the line. */
		const char *end = ns + 7 + strcspn(ns + 7, "\n"), *last = end;

		while (last > ns + 7 && last[-1] != ' ' && last[-1] != '\t')
			last--;
		if (last < end && status_int(last) > 0)
			st->nstgid = status_int(last);
	}
	return st->tgid < 0 ? -ESRCH : 0;
}

int proc_status__read(int procfd, const char *rel, struct proc_status *st)
{
	char buf[4096];
	ssize_t n;
	int fd;

	memset(st, 0, sizeof(*st));
	st->tgid = st->ppid = -1;
	fd = openat(procfd, rel, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -ESRCH; /* gone between open and read */
	buf[n] = '\0';
	return proc_status__parse(buf, st);
}
