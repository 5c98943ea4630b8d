#ifndef PREC_WORKLOAD_H
#define PREC_WORKLOAD_H
/*
 * The command prec runs: forked corked (blocked on a pipe) so events can be
 * opened on its pid before it execs; exec failures come back through a
 * close-on-exec pipe as an errno.
 */
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct prec_err;

struct workload {
	pid_t pid;
	int go_fd; /* write end: one byte lets the child exec */
	int err_fd; /* read end: an errno if exec failed, EOF if it worked */
	bool exited;
	int status; /* wait status once exited */
};

/*
 * Finds file as execvp would (PATH search when it has no '/'). Returns 0 and
 * the path in buf, -ENOENT when nothing is found, -EACCES when what is found
 * cannot be executed (a directory, no x bit).
 */
int workload__resolve(const char *file, char *buf, size_t len);

/*
 * Forks the child, which waits for workload__start. sigmask is the mask the
 * child restores before exec. With stdout_to_stderr (prec's stdout is the
 * pipe-mode stream) the child's stdout is its stderr, as perf does, so what
 * the command prints cannot land inside the stream. 0, or -errno with one
 * line in e naming the fix.
 */
int workload__prepare(struct workload *w, char *const argv[], const void *sigmask,
		      bool stdout_to_stderr, struct prec_err *e);

/* Lets the child exec. Returns 0, or the child's exec errno negated. */
int workload__start(struct workload *w);

/* Collects the child's status; block waits for it. 1 when exited, 0 if not yet. */
int workload__reap(struct workload *w, bool block);

/* Kills a started or corked child and reaps it (used on errors and SIGINT). */
void workload__kill(struct workload *w, int sig);

/*
 * The command still runs when prec stops (a signal, a full file, an error):
 * ends it (SIGTERM, then SIGKILL when it lingers or a second stop signal
 * comes) and reaps it, sleeping in ppoll with sigmask. Nothing when it is
 * gone or was never started.
 */
void workload__end(struct workload *wl, const sigset_t *sigmask);

/* The reaped command's status as a shell gives it: its exit code, or
 * 128 + the signal that killed it; PREC_EXIT_FAILURE otherwise. */
int workload__exit_status(const struct workload *w);

#endif
