/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_EXIT_STATUS_H
#define PREC_EXIT_STATUS_H
/*
 * The exit statuses of prec itself (a workload's own status is passed
 * through): low, so whoever decides one (main, the orchestrator, the
 * command's fork) includes this and nothing above it.
 */

enum {
	PREC_EXIT_FAILURE = 1, /* recording failed */
	PREC_EXIT_USAGE = 2, /* bad command line */
	PREC_EXIT_NOEXEC = 126, /* the command exists but cannot run */
	PREC_EXIT_NOTFOUND = 127, /* the command is not found */
};

#endif
