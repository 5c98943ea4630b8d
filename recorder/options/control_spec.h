/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_OPTIONS_CONTROL_SPEC_H
#define PREC_RECORDER_OPTIONS_CONTROL_SPEC_H
/*
 * --control's argument, perf's syntax: read by options__validate (so a bad
 * one is a usage error before anything else) and by the recording, which
 * opens what it names (live/control.h).
 */
#include <stdbool.h>
#include <stddef.h>

#include "prec/error.h"

/* --control's argument, read without opening anything. */
struct control_spec {
	bool fifo; /* fifo:PATH[,PATH] (else fd:N[,N]) */
	char ctl_path[4096]; /* fifo: the command FIFO */
	char ack_path[4096]; /* fifo: the ack FIFO; "" none */
	int ctl_fd; /* fd: the command fd */
	int ack_fd; /* fd: the ack fd; -1 none */
};

/*
 * Reads --control's value, perf's syntax: "fifo:CTL[,ACK]" or "fd:N[,M]"
 * (numbers as strtoul base 0 reads them, whole). 0, or -EINVAL with one
 * line in e naming the fix.
 */
int control_spec__parse(const char *str, struct control_spec *spec, struct prec_err *e);

#endif
