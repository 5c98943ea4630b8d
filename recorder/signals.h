/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_SIGNALS_H
#define PREC_RECORDER_SIGNALS_H
/*
 * The signals a recording answers: SIGCHLD (the command ended), SIGINT and
 * SIGTERM (stop; a second one: stop now), SIGUSR2 (rotate or snapshot).
 * They are blocked except inside ppoll, so none is ever missed; the flags
 * they set are the only globals prec has.
 */
#include <signal.h>
#include <stdbool.h>

/*
 * Installs the handlers (SIGUSR2 only when usr2, ignored otherwise, as
 * perf), ignores SIGXFSZ and blocks the four; *orig gets the mask to give
 * ppoll and the command, and to restore with signals__restore.
 */
void signals__install(bool usr2, sigset_t *orig);

/* Puts the mask back as it was before signals__install. */
void signals__restore(const sigset_t *orig);

/* The SIGINT or SIGTERM that asked prec to stop; 0 none yet. */
int signals__stop_signal(void);

/* Whether SIGCHLD came since the start. */
bool signals__child_done(void);

/* Whether SIGUSR2 came since the last call (the request is taken). */
bool signals__take_switch(void);

/*
 * Once prec is stopping: takes the pending SIGINTs/SIGTERMs and says whether
 * there were two in all (end now, with what is written). arg is unused (a
 * drain callback).
 */
bool signals__stop_again(void *arg);

#endif
