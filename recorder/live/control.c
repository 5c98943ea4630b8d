// SPDX-License-Identifier: GPL-2.0-only
/* --control: its command lines and the live channel (control.h); its
 * argument is the options' (options/control_spec.c). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "evlist/evlist.h"
#include "prec/error.h"
#include "prec/log.h"
#include "live/control.h"
#include "live/control_evlist.h"
#include "drain/drain.h"
#include "signals.h"

static const struct {
	const char *tag;
	enum control_cmd cmd;
} control_tags[] = {
	/* perf's order of tests: the first tag that prefixes the line wins. */
	{ "enable", CONTROL_ENABLE },	  { "disable", CONTROL_DISABLE },
	{ "snapshot", CONTROL_SNAPSHOT }, { "evlist", CONTROL_EVLIST },
	{ "stop", CONTROL_STOP },	  { "ping", CONTROL_PING },
};

enum control_cmd control_cmd__parse(const char *line, size_t len, const char **arg, size_t *arg_len,
				    bool *malformed)
{
	*arg = NULL;
	*arg_len = 0;
	*malformed = false;
	for (size_t i = 0; i < sizeof(control_tags) / sizeof(control_tags[0]); i++) {
		size_t tl = strlen(control_tags[i].tag);

		if (len < tl || memcmp(line, control_tags[i].tag, tl))
			continue;
		/* perf reads an argument only where one is meant; "stopx" is stop. */
		if (len > tl && (control_tags[i].cmd == CONTROL_ENABLE ||
				 control_tags[i].cmd == CONTROL_DISABLE ||
				 control_tags[i].cmd == CONTROL_EVLIST)) {
			if (line[tl] != ' ') {
				*malformed = true;
			} else {
				*arg = line + tl + 1;
				*arg_len = len - tl - 1;
			}
		}
		return control_tags[i].cmd;
	}
	return CONTROL_UNKNOWN;
}

int control_evlist__flag(const char *arg, size_t len)
{
	if (!arg)
		return CONTROL_EVLIST_NAMES;
	if (len == 2 && arg[0] == '-') {
		if (arg[1] == 'v')
			return CONTROL_EVLIST_VERBOSE;
		if (arg[1] == 'g')
			return CONTROL_EVLIST_GROUPS;
		if (arg[1] == 'F')
			return CONTROL_EVLIST_FREQ;
	}
	return -EINVAL;
}

/* A FIFO at path, opened as perf does: O_RDWR, so the channel never sees
 * EOF when a harness closes its end, and an ack FIFO with no reader yet
 * takes the acks. Anything but a FIFO is refused: a regular file would
 * read as an endless stream of commands. The fd, or -errno. */
static int control__open_fifo(const char *path, struct prec_err *err)
{
	struct stat st;
	int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		int e = errno;

		return prec_err__set(err, -e, "--control: cannot open '%s': %s (%s)", path,
				     strerror(e),
				     e == ENOENT ? "create it first, e.g. mkfifo, or give fd:N" :
						   "check its permissions");
	}
	if (fstat(fd, &st) || !S_ISFIFO(st.st_mode)) {
		close(fd);
		return prec_err__set(err, -EINVAL,
				     "--control: '%s' is not a FIFO (create one with mkfifo '%s')",
				     path, path);
	}
	return fd;
}

static int control__check_fd(int fd, const char *what, struct prec_err *err)
{
	if (fcntl(fd, F_GETFL) >= 0)
		return 0;
	return prec_err__set(
		err, -EBADF,
		"--control: %s fd %d is not open (open it for prec, e.g. 'prec --control fd:%d ... %d<ctl.fifo', or use fifo:PATH)",
		what, fd, fd, fd);
}

int control__open(struct control *c, const struct control_spec *spec, struct evlist *evlist,
		  struct prec_err *err)
{
	int ret;

	memset(c, 0, sizeof(*c));
	c->fd = c->ack_fd = -1;
	c->evlist = evlist;
	if (spec->fifo) {
		c->own_fds = true;
		ret = c->fd = control__open_fifo(spec->ctl_path, err);
		if (ret >= 0 && spec->ack_path[0])
			ret = c->ack_fd = control__open_fifo(spec->ack_path, err);
	} else {
		ret = control__check_fd(spec->ctl_fd, "the command", err);
		if (!ret && spec->ack_fd >= 0)
			ret = control__check_fd(spec->ack_fd, "the ack", err);
		if (!ret) {
			c->fd = spec->ctl_fd;
			c->ack_fd = spec->ack_fd;
			/* As perf: the command fd is read until EAGAIN. */
			if (fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) | O_NONBLOCK))
				ret = prec_err__set(err, -errno, "--control: %s", strerror(errno));
		}
	}
	if (ret < 0) {
		control__exit(c);
		return ret;
	}
	return 0;
}

/* perf's ack; a failed write is reported and the recording goes on. */
static void control__ack(struct control *c)
{
	if (c->ack_fd < 0)
		return;
	if (write(c->ack_fd, CONTROL_ACK, CONTROL_ACK_LEN) != (ssize_t)CONTROL_ACK_LEN)
		pr_warn("--control: cannot write the ack: %s (read the ack channel)",
			strerror(errno));
}

/*
 * snapshot: what SIGUSR2 does (--overwrite: dump the flight recorder;
 * --switch-output: rotate; else nothing, as perf without an AUX area).
 * This runs on the main loop's thread, awake: the request is taken after
 * the pass that follows.
 */
static void control__snapshot(struct control *c)
{
	if (!c->snapshot_switches) {
		control__ack(c);
		return;
	}
	signals__request_switch();
	if (c->ack_between)
		c->snapshot_pending = true;
	else
		control__ack(c);
}

/* One command line; acked as perf acks it. */
static void control__run(struct control *c, const char *line, size_t len)
{
	const char *arg;
	size_t arg_len;
	bool malformed;
	enum control_cmd cmd = control_cmd__parse(line, len, &arg, &arg_len, &malformed);

	pr_debug("--control: \"%.*s\"\n", (int)len, line);
	if (malformed) {
		pr_info("failed: wrong command\n");
		control__ack(c);
		return;
	}
	switch (cmd) {
	case CONTROL_ENABLE:
	case CONTROL_DISABLE:
		control_evlist__toggle(c->evlist, arg, arg_len, cmd == CONTROL_ENABLE);
		break;
	case CONTROL_EVLIST: {
		int flag = control_evlist__flag(arg, arg_len);

		if (flag < 0)
			pr_info("failed: wrong command\n");
		else
			control_evlist__print(c->evlist, flag, stderr);
		break;
	}
	case CONTROL_SNAPSHOT:
		control__snapshot(c);
		return; /* acked when taken */
	case CONTROL_STOP:
		c->stop = true;
		break;
	case CONTROL_PING:
		break;
	case CONTROL_UNKNOWN:
		return; /* perf acks nothing it does not know */
	}
	control__ack(c);
}

bool control__ready(void *ctl, short revents)
{
	struct control *c = ctl;
	char buf[4096];
	size_t have = 0;
	bool end = false;

	if (c->fd < 0)
		return false;
	if (revents & POLLIN) {
		/* Everything there now; a command is what ends at "\n" or "\0",
		 * at CONTROL_CMD_MAX - 1 bytes, or, as perf reads it, where the
		 * bytes written so far end. */
		for (;;) {
			ssize_t n = read(c->fd, buf + have, sizeof(buf) - have);

			if (n < 0 && errno == EINTR)
				continue;
			if (n == 0)
				end = true;
			if (n <= 0)
				break;
			have += (size_t)n;
			if (have == sizeof(buf))
				break; /* the rest when poll says so again */
		}
		for (size_t start = 0; start < have;) {
			size_t len = 0;

			while (start + len < have && len < CONTROL_CMD_MAX - 1 &&
			       buf[start + len] != '\n' && buf[start + len] != '\0')
				len++;
			if (len)
				control__run(c, buf + start, len);
			start += len;
			if (start < have && (buf[start] == '\n' || buf[start] == '\0'))
				start++;
		}
	}
	/* The writer of an fd: channel is gone: stop polling it, as perf does;
	 * the recording goes on. */
	if (end || ((revents & (POLLHUP | POLLERR | POLLNVAL)) && !(revents & POLLIN))) {
		pr_verbose("--control: the command channel hung up; no more commands\n");
		return false;
	}
	return true;
}

/* A between-pass step added after the output's: the ack of a snapshot
 * the output has taken in the same pass's steps. */
static int control__between(void *arg)
{
	struct control *c = arg;

	if (c->snapshot_pending) {
		c->snapshot_pending = false;
		control__ack(c);
	}
	return DRAIN_GO_ON;
}

int control__attach(struct control *c, struct drain *d, bool takes_switch)
{
	int ret;

	if (c->fd < 0 || !d || !takes_switch)
		return 0;
	ret = drain__add_between(d, control__between, c);
	c->ack_between = !ret;
	return ret;
}

bool control__stopped(const struct control *c)
{
	return c->stop;
}

void control__exit(struct control *c)
{
	if (c->own_fds) {
		if (c->fd >= 0)
			close(c->fd);
		if (c->ack_fd >= 0)
			close(c->ack_fd);
	}
	c->fd = c->ack_fd = -1;
	c->own_fds = false;
}
