// SPDX-License-Identifier: GPL-2.0-only
/* The recording's signal flags and their handler (signals.h). */
#include <string.h>
#include <time.h>

#include "signals.h"

static volatile sig_atomic_t child_done;
static volatile sig_atomic_t stop_signal;
static volatile sig_atomic_t stop_count; /* SIGINTs and SIGTERMs so far */
static volatile sig_atomic_t switch_req;

static void on_signal(int sig)
{
	if (sig == SIGCHLD) {
		child_done = 1;
	} else if (sig == SIGUSR2) {
		switch_req = 1;
	} else {
		stop_signal = sig;
		stop_count++;
	}
}

void signals__install(bool usr2, sigset_t *orig)
{
	struct sigaction sa;
	sigset_t block;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* SIGUSR2 rotates (--switch-output) or snapshots (--overwrite); perf
	 * ignores it otherwise. */
	if (usr2)
		sigaction(SIGUSR2, &sa, NULL);
	else
		signal(SIGUSR2, SIG_IGN);
	/* Past `ulimit -f` a write fails with EFBIG, said in one line with its
	 * fix, instead of SIGXFSZ killing prec mid-file (the command gets the
	 * default back). */
	signal(SIGXFSZ, SIG_IGN);
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGUSR2);
	sigprocmask(SIG_BLOCK, &block, orig);
}

void signals__restore(const sigset_t *orig)
{
	sigprocmask(SIG_SETMASK, orig, NULL);
}

int signals__stop_signal(void)
{
	return stop_signal;
}

bool signals__child_done(void)
{
	return child_done;
}

bool signals__take_switch(void)
{
	bool sw = switch_req;

	switch_req = 0;
	return sw;
}

/*
 * A second SIGINT or SIGTERM means: end now. They are blocked outside
 * ppoll, so the pending ones are taken here. One Ctrl-C reaches the command
 * and prec at once: a single signal, however it arrives, never cuts the tail.
 */
bool signals__stop_again(void *arg)
{
	static const struct timespec zero;
	sigset_t stops;
	int sig;

	(void)arg;
	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	while ((sig = sigtimedwait(&stops, NULL, &zero)) > 0) {
		if (!stop_signal)
			stop_signal = sig;
		stop_count++;
	}
	return stop_count >= 2;
}
