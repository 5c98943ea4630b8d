// SPDX-License-Identifier: GPL-2.0-only
/* The command prec runs: forked corked, exec'd on go, its errors reported back. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "prec/error.h"
#include "prec/exit_status.h"
#include "targets/workload.h"
#include "signals.h"

static int check_exec(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode) || access(path, X_OK) < 0)
		return -EACCES;
	/* root passes access(X_OK) when any x bit is set; none set is EACCES. */
	if (!(st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH)))
		return -EACCES;
	return 0;
}

int workload__resolve(const char *file, char *buf, size_t len)
{
	const char *path, *p;
	int found_noexec = 0;

	if (!*file)
		return -ENOENT;
	if (strchr(file, '/')) {
		if ((size_t)snprintf(buf, len, "%s", file) >= len)
			return -ENAMETOOLONG;
		return check_exec(buf);
	}
	path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path;; p = strchr(p, ':') + 1) {
		size_t dirlen = strcspn(p, ":");
		int ret;

		if ((size_t)snprintf(buf, len, "%.*s%s%s", (int)dirlen, dirlen ? p : "",
				     dirlen ? "/" : "", file) < len) {
			ret = check_exec(buf);
			if (ret == 0)
				return 0;
			if (ret == -EACCES)
				found_noexec = 1;
		}
		if (!p[dirlen])
			break;
	}
	return found_noexec ? -EACCES : -ENOENT;
}

/* The corking pipes or the fork failed: what to do about it. */
static int prepare_failed(int ret, struct prec_err *e)
{
	return prec_err__set(
		e, ret, "cannot fork the workload: %s (%s)", strerror(-ret),
		ret == -EMFILE ? "raise the open-file limit, e.g. ulimit -n 4096" :
		ret == -ENFILE ? "the system's open-file table is full (fs.file-max)" :
		ret == -EAGAIN ? "raise the process limit (ulimit -u) or end some processes" :
				 "free some memory and retry");
}

int workload__prepare(struct workload *w, char *const argv[], const void *sigmask,
		      bool stdout_to_stderr, struct prec_err *e)
{
	int go[2], err[2];

	memset(w, 0, sizeof(*w));
	w->pid = -1;
	w->go_fd = -1;
	w->err_fd = -1;
	if (pipe2(go, O_CLOEXEC) < 0)
		return prepare_failed(-errno, e);
	if (pipe2(err, O_CLOEXEC) < 0) {
		int ret = -errno;

		close(go[0]);
		close(go[1]);
		return prepare_failed(ret, e);
	}
	w->pid = fork();
	if (w->pid < 0) {
		int ret = -errno;

		close(go[0]);
		close(go[1]);
		close(err[0]);
		close(err[1]);
		return prepare_failed(ret, e);
	}
	if (w->pid == 0) {
		char c;
		int code;

		close(go[1]);
		close(err[0]);
		/* The name the synthesized COMM gives the child until it execs. */
		prctl(PR_SET_NAME, "prec-exec", 0, 0, 0);
		signals__child_defaults();
		sigprocmask(SIG_SETMASK, sigmask, NULL);
		/* EOF instead of the go byte: prec gave up; leave quietly. */
		if (read(go[0], &c, 1) != 1)
			_exit(0);
		if (stdout_to_stderr && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(126);
		execvp(argv[0], argv);
		code = errno;
		if (write(err[1], &code, sizeof(code)) < 0)
			_exit(127);
		_exit(code == ENOENT ? 127 : 126);
	}
	close(go[0]);
	close(err[1]);
	w->go_fd = go[1];
	w->err_fd = err[0];
	return 0;
}

int workload__start(struct workload *w)
{
	int e = 0;
	ssize_t n;

	if (write(w->go_fd, "", 1) != 1) {
		int ret = -errno;

		close(w->go_fd);
		w->go_fd = -1;
		return ret;
	}
	close(w->go_fd);
	w->go_fd = -1;
	/* EOF: exec worked and closed the pipe; an int: exec's errno. */
	do {
		n = read(w->err_fd, &e, sizeof(e));
	} while (n < 0 && errno == EINTR);
	close(w->err_fd);
	w->err_fd = -1;
	return n == sizeof(e) ? -e : 0;
}

int workload__reap(struct workload *w, bool block)
{
	pid_t r;

	if (w->exited || w->pid <= 0)
		return 1;
	do {
		r = waitpid(w->pid, &w->status, block ? 0 : WNOHANG);
	} while (r < 0 && errno == EINTR);
	if (r == w->pid || (r < 0 && errno == ECHILD)) {
		w->exited = true;
		return 1;
	}
	return 0;
}

void workload__kill(struct workload *w, int sig)
{
	if (w->go_fd >= 0) {
		/* Corked child: closing the pipe makes it exit by itself. */
		close(w->go_fd);
		w->go_fd = -1;
	} else if (w->pid > 0 && !w->exited) {
		kill(w->pid, sig);
	}
	if (w->err_fd >= 0) {
		close(w->err_fd);
		w->err_fd = -1;
	}
	if (w->pid > 0)
		workload__reap(w, true);
}

/* SIGTERM, as perf, then a wait; a second stop signal, or 5 s of a command
 * that ignores SIGTERM, brings SIGKILL so prec never hangs on it. */
void workload__end(struct workload *wl, const sigset_t *sigmask)
{
	struct timespec tick = { 0, 50 * 1000000L };

	if (wl->pid <= 0 || wl->exited)
		return;
	if (wl->go_fd >= 0) {
		workload__kill(wl, SIGTERM); /* corked: it leaves by itself */
		return;
	}
	kill(wl->pid, SIGTERM);
	for (int i = 0; i < 100 && !workload__reap(wl, false); i++) {
		if (signals__stop_again(NULL))
			break;
		ppoll(NULL, 0, &tick, sigmask); /* SIGCHLD ends the sleep */
	}
	workload__kill(wl, SIGKILL);
}

int workload__exit_status(const struct workload *w)
{
	if (WIFEXITED(w->status))
		return WEXITSTATUS(w->status);
	if (WIFSIGNALED(w->status))
		return 128 + WTERMSIG(w->status);
	return PREC_EXIT_FAILURE;
}
