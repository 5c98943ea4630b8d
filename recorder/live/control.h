/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_RECORDER_CONTROL_H
#define PREC_RECORDER_CONTROL_H
/*
 * --control fifo:CTL[,ACK] | fd:CTL[,ACK]: the command channel profilers and
 * test harnesses drive perf record with. Commands are lines ("\n" or "\0"
 * ends one, at most CONTROL_CMD_MAX - 1 bytes, perf's limit): enable,
 * disable, enable EVENT, disable EVENT, snapshot, stop, ping, evlist
 * [-v|-g|-F]. Each is acknowledged with perf's "ack\n\0" on ACK exactly when
 * perf acknowledges it (every known command; an unknown one gets nothing).
 *
 * The parsers are pure (unit-tested and fuzzed); struct control is the
 * live channel, polled with the rings by whoever sleeps (the drain loop, or
 * the main thread under --threads) and run on that thread, so a command
 * takes effect before the next pass.
 */
#include <stdbool.h>
#include <stddef.h>

#include "options/control_spec.h" /* struct control_spec: --control's argument */

struct drain;
struct evlist;
struct prec_err;

/* perf's EVLIST_CTL_CMD_MAX_LEN: a longer line is cut into commands of
 * CONTROL_CMD_MAX - 1 bytes. */
#define CONTROL_CMD_MAX 64

/* What perf writes on the ack channel: the tag and its terminating NUL. */
#define CONTROL_ACK "ack\n"
#define CONTROL_ACK_LEN (sizeof(CONTROL_ACK))

enum control_cmd {
	CONTROL_UNKNOWN, /* not a command: ignored, not acked (perf's UNSUPPORTED) */
	CONTROL_ENABLE,
	CONTROL_DISABLE,
	CONTROL_SNAPSHOT,
	CONTROL_EVLIST,
	CONTROL_STOP,
	CONTROL_PING,
};

/*
 * One command line, without its terminator (len bytes, no NUL needed), as
 * perf reads it: the command is the longest known prefix ("enablex" is
 * enable, malformed). *arg gets the argument after "CMD " (pointing into
 * line, *arg_len bytes; NULL when none). *malformed: a known command
 * followed by something other than " ARG" (perf's "failed: wrong
 * command"), still acked. Returns the command.
 */
enum control_cmd control_cmd__parse(const char *line, size_t len, const char **arg, size_t *arg_len,
				    bool *malformed);

/* evlist's argument (len bytes; NULL: none) -> the flag, or -EINVAL for
 * anything but -v, -g, -F. */
int control_evlist__flag(const char *arg, size_t len);

/* The live channel. */
struct control {
	int fd; /* -1: none (no --control, or the channel hung up) */
	int ack_fd; /* -1: no acks */
	bool own_fds; /* fifo: prec opened them and closes them */
	struct evlist *evlist; /* what enable, disable and evlist act on */
	bool stop; /* "stop" came: the recording ends */
	/* snapshot does what SIGUSR2 does (--overwrite, --switch-output=signal:
	 * set by the recording); false: acked only, as perf without an AUX area. */
	bool snapshot_switches;
	/* "snapshot" came and was handed on (signals__request_switch): its ack
	 * waits for the main drain's next between-pass steps, the output's
	 * taking the request, so a harness that reads the ack finds the
	 * rotated file or the dump. */
	bool snapshot_pending;
	/* control__attach added the step that sends that ack; false: a
	 * snapshot is acked at once. */
	bool ack_between;
};

/*
 * Opens what spec names (fifo: O_RDWR, so a harness may open and close its
 * end any number of times; fd: checked open) and makes the command fd
 * non-blocking, as perf. c acts on evlist. 0, or -errno with the line
 * naming the fix in err (may be NULL); nothing is left open then.
 */
int control__open(struct control *c, const struct control_spec *spec, struct evlist *evlist,
		  struct prec_err *err);

/*
 * The command fd of ctl (a struct control; void * as the pollers' hooks take
 * it) polled and found ready (revents): reads every complete
 * command and runs it, acking as perf. Returns false when the channel has
 * hung up or reached its end (stop polling it, as perf: the recording goes
 * on), true to keep polling.
 */
bool control__ready(void *ctl, short revents);

/*
 * Adds to d (the main loop's drain) a between-pass step that acks a
 * snapshot command once the pass after it has taken the request; call it
 * after the output added its steps. takes_switch: d's steps take the
 * request (the output of one file); without it, or without d, the snapshot
 * is acked at once. 0 or -ENOSPC (d's steps are full).
 */
int control__attach(struct control *c, struct drain *d, bool takes_switch);

/* Whether "stop" came. */
bool control__stopped(const struct control *c);

/* Closes what control__open opened (fd: mode's fds are the caller's).
 * Accepts a zeroed control or one with fd -1. */
void control__exit(struct control *c);

#endif
