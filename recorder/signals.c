// SPDX-License-Identifier: GPL-2.0-only
/* The recording's signal flags, their handler, -D's sleep, and how prec
 * dies of a signal once the file is finished (signals.h). */
#include <poll.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "prec/mono_clock.h"
#include "signals.h"

static volatile sig_atomic_t child_done;
static volatile sig_atomic_t stop_signal;
static volatile sig_atomic_t stop_count; /* stop signals so far */
static volatile sig_atomic_t switch_req;
/* What prec's caller ignored: nohup's SIGHUP, a SIGPIPE. */
static bool hup_ignored, pipe_ignored;

/*
 * Each ends a recording as SIGINT does. SIGINT and SIGQUIT are taken even
 * when the caller ignored them: a shell without job control starts every
 * background command so, without anyone asking (perf takes SIGINT the same
 * way). SIGHUP and SIGPIPE ignored on purpose stay ignored, as with perf.
 */
static const int stop_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGPIPE };
#define NR_STOP_SIGS (sizeof(stop_sigs) / sizeof(stop_sigs[0]))

static void on_signal(int sig)
{
	if (sig == SIGCHLD) {
		child_done = 1;
	} else if (sig == SIGUSR2) {
		switch_req = 1;
	} else if (sig != SIGUSR1) { /* SIGUSR1: nothing (perf survives it) */
		if (!stop_signal)
			stop_signal = sig;
		stop_count++;
	}
}

static bool ignored(int sig)
{
	struct sigaction old;

	return !sigaction(sig, NULL, &old) && old.sa_handler == SIG_IGN;
}

void signals__init(void)
{
	hup_ignored = ignored(SIGHUP);
	pipe_ignored = ignored(SIGPIPE);
	signal(SIGPIPE, SIG_IGN);
}

/* The stop signals this recording takes (see stop_sigs). */
static bool takes(int sig, bool pipe_output)
{
	if (sig == SIGHUP)
		return !hup_ignored;
	if (sig == SIGPIPE)
		return !pipe_ignored && !pipe_output;
	return true;
}

void signals__install(bool usr2, bool pipe_output, sigset_t *orig)
{
	struct sigaction sa;
	sigset_t block;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/* Stop signals that wait together (prec was busy, they are blocked)
	 * are delivered one handler at a time, lowest number first: without
	 * the mask the kernel nests the later handler inside the first one
	 * and the highest number would be taken as the first signal. */
	sigemptyset(&sa.sa_mask);
	for (unsigned int i = 0; i < NR_STOP_SIGS; i++)
		sigaddset(&sa.sa_mask, stop_sigs[i]);
	sa.sa_flags = SA_NOCLDSTOP;
	sigemptyset(&block);
	sigaction(SIGCHLD, &sa, NULL);
	sigaddset(&block, SIGCHLD);
	for (unsigned int i = 0; i < NR_STOP_SIGS; i++) {
		if (!takes(stop_sigs[i], pipe_output))
			continue;
		sigaction(stop_sigs[i], &sa, NULL);
		sigaddset(&block, stop_sigs[i]);
	}
	/* perf survives SIGUSR1 (its default would end prec with a torn file);
	 * a handler, not SIG_IGN, so the command gets the default at exec. */
	sigaction(SIGUSR1, &sa, NULL);
	sigaddset(&block, SIGUSR1);
	/* SIGUSR2 rotates (--switch-output) or snapshots (--overwrite); perf
	 * ignores it otherwise. */
	if (usr2)
		sigaction(SIGUSR2, &sa, NULL);
	else
		signal(SIGUSR2, SIG_IGN);
	sigaddset(&block, SIGUSR2);
	/* Past `ulimit -f` a write fails with EFBIG, which record.c prints in
	 * one line with its fix (output_hint.c), instead of SIGXFSZ killing
	 * prec mid-file (the command gets the default back). */
	signal(SIGXFSZ, SIG_IGN);
	sigprocmask(SIG_BLOCK, &block, orig);
}

void signals__restore(const sigset_t *orig)
{
	sigprocmask(SIG_SETMASK, orig, NULL);
}

void signals__child_defaults(void)
{
	for (unsigned int i = 0; i < NR_STOP_SIGS; i++)
		if (takes(stop_sigs[i], false))
			signal(stop_sigs[i], SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	signal(SIGUSR1, SIG_DFL);
	signal(SIGXFSZ, SIG_DFL);
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
	/* Atomic: a request may come from another thread (signals__request_switch). */
	return __atomic_exchange_n(&switch_req, 0, __ATOMIC_SEQ_CST) != 0;
}

void signals__request_switch(void)
{
	/* Another thread asking wakes the main loop itself (drain/wake.h). */
	__atomic_store_n(&switch_req, 1, __ATOMIC_SEQ_CST);
}

/*
 * A second stop signal means: end now. They are blocked outside ppoll, so
 * the pending ones are taken here. One Ctrl-C reaches the command and prec
 * at once: a single signal, however it arrives, never cuts the tail.
 */
bool signals__stop_again(void *arg)
{
	static const struct timespec zero;
	sigset_t stops;
	int sig;

	(void)arg;
	sigemptyset(&stops);
	for (unsigned int i = 0; i < NR_STOP_SIGS; i++)
		sigaddset(&stops, stop_sigs[i]);
	while ((sig = sigtimedwait(&stops, NULL, &zero)) > 0) {
		if (!stop_signal)
			stop_signal = sig;
		stop_count++;
	}
	return stop_count >= 2;
}

void signals__die_of(int sig)
{
	sigset_t one;

	if (sig == SIGQUIT) {
		/* Its default dumps core; a finished recording has nothing to
		 * debug, and a core file beside it would only puzzle. */
		struct rlimit none = { 0, 0 };

		setrlimit(RLIMIT_CORE, &none);
		prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	}
	signal(sig, SIG_DFL);
	sigemptyset(&one);
	sigaddset(&one, sig);
	sigprocmask(SIG_UNBLOCK, &one, NULL);
	raise(sig);
}

bool signals__sleep(uint64_t ms, const sigset_t *mask)
{
	uint64_t end = mono_clock__deadline_ns(ms);
	struct timespec left;

	while (mono_clock__left(end, &left)) {
		ppoll(NULL, 0, &left, mask);
		if (signals__stop_signal())
			return true;
		if (signals__child_done())
			break;
	}
	return false;
}
