/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_SIGNALS_H
#define PREC_RECORDER_SIGNALS_H
/*
 * The signals a recording answers: SIGCHLD (the command ended); SIGINT,
 * SIGTERM, SIGHUP, SIGQUIT, SIGALRM and, when the output is a file, SIGPIPE
 * (stop, finish the file, then die of that signal; a second one: stop now);
 * SIGUSR2 (rotate or snapshot); SIGUSR1 (nothing: the recording goes on).
 * They are blocked except inside ppoll, so none is ever missed; the flags
 * they set are the only globals prec has.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * First thing in main: notes which signals prec's caller ignored (nohup's
 * SIGHUP, an ignored SIGPIPE stay ignored), then ignores SIGPIPE, so a
 * closed stderr or output pipe is an error return until the recording's
 * handlers are installed.
 */
void signals__init(void);

/*
 * Installs the handlers (SIGUSR2 only when usr2, ignored otherwise, as
 * perf; SIGPIPE only when !pipe_output: a pipe's reader going away is a
 * write error there), ignores SIGXFSZ and blocks them all; *orig gets the
 * mask to give ppoll and the command, and to restore with signals__restore.
 */
void signals__install(bool usr2, bool pipe_output, sigset_t *orig);

/* Puts the mask back as it was before signals__install. */
void signals__restore(const sigset_t *orig);

/*
 * In the forked command before exec: the default action back for every
 * signal prec took or ignored for itself, so a signal to the corked child
 * ends it; what prec's caller ignored stays ignored.
 */
void signals__child_defaults(void);

/* The signal that asked prec to stop; 0 none yet. */
int signals__stop_signal(void);

/* Whether SIGCHLD came since the start. */
bool signals__child_done(void);

/* Whether SIGUSR2 came since the last call (the request is taken). */
bool signals__take_switch(void);

/*
 * What SIGUSR2 asks (rotate or snapshot), asked from inside prec: by a
 * control command or a --switch-output-event; any thread may call it. The
 * main loop sees it after its next pass: a caller on another thread wakes
 * it through its eventfd (drain/wake.h); no signal is sent.
 */
void signals__request_switch(void);

/*
 * -D's delay: sleeps ms milliseconds with mask (signals__install's orig)
 * while the signals may come, ending early for a stop signal (returns
 * true) or SIGCHLD (the command is gone: false, as at the end); other
 * wake-ups (a user's SIGUSR1 or SIGUSR2) sleep on.
 */
bool signals__sleep(uint64_t ms, const sigset_t *mask);

/*
 * Once prec is stopping: takes the pending stop signals and says whether
 * there were two in all (end now, with what is written). arg is unused (a
 * drain callback).
 */
bool signals__stop_again(void *arg);

/*
 * Ends prec by sig's default action (no core file for SIGQUIT: the
 * recording ended in order), so its parent sees the signal; returns only
 * when sig could not end it (blocked by the caller, or no default kill).
 */
void signals__die_of(int sig);

#endif
