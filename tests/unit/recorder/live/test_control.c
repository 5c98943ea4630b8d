// SPDX-License-Identifier: GPL-2.0-only
/*
 * --control (recorder/live/control.c, control_evlist.c): the argument's syntax,
 * the command lines as perf reads them (prefixes, arguments, the 63-byte
 * cut, "\0" and "\n" ends), the acks on a real FIFO and pipe, the end of an
 * fd: channel, and evlist's lines in perf's format.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recorder/evlist/evlist.h"
#include "prec/error.h"
#include "recorder/live/control.h"
#include "recorder/live/control_evlist.h"

static void test_spec(void **state)
{
	struct control_spec s;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	assert_int_equal(control_spec__parse("fifo:a.fifo,b.fifo", &s, &e), 0);
	assert_true(s.fifo);
	assert_string_equal(s.ctl_path, "a.fifo");
	assert_string_equal(s.ack_path, "b.fifo");
	assert_int_equal(control_spec__parse("fifo:/x/ctl", &s, &e), 0);
	assert_string_equal(s.ctl_path, "/x/ctl");
	assert_string_equal(s.ack_path, "");
	/* perf: an empty ack after the comma is no ack. */
	assert_int_equal(control_spec__parse("fifo:c,", &s, &e), 0);
	assert_string_equal(s.ack_path, "");
	assert_int_equal(control_spec__parse("fd:3", &s, &e), 0);
	assert_false(s.fifo);
	assert_int_equal(s.ctl_fd, 3);
	assert_int_equal(s.ack_fd, -1);
	assert_int_equal(control_spec__parse("fd:0x10,010", &s, &e), 0);
	assert_int_equal(s.ctl_fd, 16);
	assert_int_equal(s.ack_fd, 8);

	static const char *const bad[] = { "foo",	"",	  "fd:",   "fd:abc",	    "fd:3,",
					   "fd:,4",	"fd:3x",  "fd:-1", "fd:3,4,5",	    "fifo:",
					   "fifo:,ack", "FIFO:c", "fd: 3", "fd:99999999999" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		prec_err__clear(&e);
		assert_int_equal(control_spec__parse(bad[i], &s, &e), -EINVAL);
		assert_non_null(strstr(prec_err__msg(&e), "--control"));
		assert_non_null(strstr(prec_err__msg(&e), "fifo:CTL[,ACK]")); /* the fix */
	}
}

static enum control_cmd parse(const char *line, const char **arg, size_t *arg_len, bool *malformed)
{
	return control_cmd__parse(line, strlen(line), arg, arg_len, malformed);
}

static void test_commands(void **state)
{
	const char *arg;
	size_t len;
	bool bad;

	(void)state;
	assert_int_equal(parse("enable", &arg, &len, &bad), CONTROL_ENABLE);
	assert_null(arg);
	assert_false(bad);
	assert_int_equal(parse("disable cpu-clock", &arg, &len, &bad), CONTROL_DISABLE);
	assert_int_equal(len, 9);
	assert_memory_equal(arg, "cpu-clock", 9);
	assert_int_equal(parse("evlist -v", &arg, &len, &bad), CONTROL_EVLIST);
	assert_int_equal(control_evlist__flag(arg, len), CONTROL_EVLIST_VERBOSE);
	assert_int_equal(parse("snapshot", &arg, &len, &bad), CONTROL_SNAPSHOT);
	assert_int_equal(parse("stop", &arg, &len, &bad), CONTROL_STOP);
	assert_int_equal(parse("ping", &arg, &len, &bad), CONTROL_PING);
	/* perf matches prefixes: these are commands, two of them malformed. */
	assert_int_equal(parse("enablex", &arg, &len, &bad), CONTROL_ENABLE);
	assert_true(bad);
	assert_int_equal(parse("evlist-v", &arg, &len, &bad), CONTROL_EVLIST);
	assert_true(bad);
	assert_int_equal(parse("stopnow", &arg, &len, &bad), CONTROL_STOP);
	assert_false(bad);
	assert_int_equal(parse("pingpong", &arg, &len, &bad), CONTROL_PING);
	/* Not commands. */
	assert_int_equal(parse("", &arg, &len, &bad), CONTROL_UNKNOWN);
	assert_int_equal(parse("enabl", &arg, &len, &bad), CONTROL_UNKNOWN);
	assert_int_equal(parse(" enable", &arg, &len, &bad), CONTROL_UNKNOWN);
	assert_int_equal(parse("ack", &arg, &len, &bad), CONTROL_UNKNOWN);
	assert_int_equal(parse("ENABLE", &arg, &len, &bad), CONTROL_UNKNOWN);

	assert_int_equal(control_evlist__flag(NULL, 0), CONTROL_EVLIST_NAMES);
	assert_int_equal(control_evlist__flag("-g", 2), CONTROL_EVLIST_GROUPS);
	assert_int_equal(control_evlist__flag("-F", 2), CONTROL_EVLIST_FREQ);
	assert_int_equal(control_evlist__flag("-x", 2), -EINVAL);
	assert_int_equal(control_evlist__flag("-vv", 3), -EINVAL);
	assert_int_equal(control_evlist__flag("", 0), -EINVAL);
}

/* A FIFO channel in a temp dir, opened as prec opens it. */
struct chan {
	char dir[64], ctl[96], ack[96];
	struct control c;
	struct evlist ev;
	int w, r; /* the harness's ends */
};

static void chan__open(struct chan *ch)
{
	struct control_spec s;
	char spec[256];

	memset(ch, 0, sizeof(*ch));
	strcpy(ch->dir, "/tmp/prec-test-control.XXXXXX");
	assert_non_null(mkdtemp(ch->dir));
	snprintf(ch->ctl, sizeof(ch->ctl), "%s/ctl", ch->dir);
	snprintf(ch->ack, sizeof(ch->ack), "%s/ack", ch->dir);
	assert_int_equal(mkfifo(ch->ctl, 0600), 0);
	assert_int_equal(mkfifo(ch->ack, 0600), 0);
	snprintf(spec, sizeof(spec), "fifo:%s,%s", ch->ctl, ch->ack);
	assert_int_equal(control_spec__parse(spec, &s, NULL), 0);
	assert_int_equal(control__open(&ch->c, &s, &ch->ev, NULL), 0);
	ch->w = open(ch->ctl, O_WRONLY | O_NONBLOCK);
	ch->r = open(ch->ack, O_RDONLY | O_NONBLOCK);
	assert_true(ch->w >= 0 && ch->r >= 0);
}

static void chan__close(struct chan *ch)
{
	control__exit(&ch->c);
	close(ch->w);
	close(ch->r);
	unlink(ch->ctl);
	unlink(ch->ack);
	rmdir(ch->dir);
}

/* Writes bytes, runs the channel once, returns the acks it wrote. */
static int chan__send(struct chan *ch, const char *bytes, size_t len)
{
	char buf[256];
	ssize_t n;

	assert_int_equal(write(ch->w, bytes, len), (ssize_t)len);
	assert_true(control__ready(&ch->c, POLLIN));
	n = read(ch->r, buf, sizeof(buf));
	if (n <= 0)
		return 0;
	assert_int_equal(n % CONTROL_ACK_LEN, 0);
	for (ssize_t i = 0; i < n; i += CONTROL_ACK_LEN)
		assert_memory_equal(buf + i, "ack\n", CONTROL_ACK_LEN); /* with its NUL */
	return (int)(n / CONTROL_ACK_LEN);
}

static void test_fifo_acks(void **state)
{
	struct chan ch;
	char line[200];

	(void)state;
	chan__open(&ch);
	assert_int_equal(chan__send(&ch, "ping\n", 5), 1);
	assert_int_equal(chan__send(&ch, "bogus\n", 6), 0);
	/* Several at once, "\0" ends one as "\n" does, the last without an end. */
	assert_int_equal(chan__send(&ch, "ping\nbogus\0ping\0enable\nping", 27), 4);
	/* No switch asked for: snapshot is acked at once, as perf. */
	assert_int_equal(chan__send(&ch, "snapshot\n", 9), 1);
	/* A line longer than 63 bytes is cut there, as perf cuts it: 63 x's
	 * (unknown, no ack), then "ping" (acked). */
	memset(line, 'x', sizeof(line));
	memcpy(line + 63, "ping\n", 5);
	assert_int_equal(chan__send(&ch, line, 68), 1);
	assert_false(control__stopped(&ch.c));
	assert_int_equal(chan__send(&ch, "stop\n", 5), 1);
	assert_true(control__stopped(&ch.c));
	/* The harness closes its end: O_RDWR keeps the channel open, no EOF. */
	close(ch.w);
	assert_true(control__ready(&ch.c, POLLIN));
	ch.w = open(ch.ctl, O_WRONLY | O_NONBLOCK);
	assert_int_equal(chan__send(&ch, "ping\n", 5), 1);
	chan__close(&ch);
}

static void test_fd_end(void **state)
{
	struct control c;
	struct control_spec s;
	struct evlist ev = { 0 };
	struct prec_err e = PREC_ERR_INIT;
	char spec[64];
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	snprintf(spec, sizeof(spec), "fd:%d", p[0]);
	assert_int_equal(control_spec__parse(spec, &s, NULL), 0);
	assert_int_equal(control__open(&c, &s, &ev, &e), 0);
	assert_false(prec_err__is_set(&e));
	assert_true(fcntl(p[0], F_GETFL) & O_NONBLOCK);
	assert_int_equal(write(p[1], "stop", 4), 4);
	close(p[1]);
	/* The command, then the end: stop polling, the stop still counts. */
	assert_false(control__ready(&c, POLLIN | POLLHUP));
	assert_true(control__stopped(&c));
	control__exit(&c);
	/* fd: mode's fds are the caller's: still open. */
	assert_true(fcntl(p[0], F_GETFL) >= 0);
	close(p[0]);

	/* An fd that is not open is refused, naming it. */
	snprintf(spec, sizeof(spec), "fd:%d", p[0]);
	assert_int_equal(control_spec__parse(spec, &s, NULL), 0);
	assert_int_equal(control__open(&c, &s, &ev, &e), -EBADF);
	assert_int_equal(e.code, -EBADF);
	assert_non_null(strstr(prec_err__msg(&e), "not open"));
	/* A FIFO that does not exist, and a path that is no FIFO. */
	assert_int_equal(control_spec__parse("fifo:/nonexistent/ctl", &s, NULL), 0);
	assert_int_equal(control__open(&c, &s, &ev, &e), -ENOENT);
	assert_non_null(strstr(prec_err__msg(&e), "mkfifo"));
	assert_int_equal(control_spec__parse("fifo:/dev/null", &s, NULL), 0);
	assert_int_equal(control__open(&c, &s, &ev, &e), -EINVAL);
	assert_non_null(strstr(prec_err__msg(&e), "not a FIFO"));
	prec_err__clear(&e);
}

static void test_attr_text(void **state)
{
	struct perf_event_attr a = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);

	(void)state;
	a.type = PERF_TYPE_SOFTWARE;
	a.size = 128;
	a.config = 1;
	a.sample_freq = 4000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD |
			PERF_SAMPLE_IDENTIFIER;
	a.read_format = PERF_FORMAT_ID | (1u << 4);
	a.disabled = a.inherit = a.freq = a.sample_id_all = a.exclude_guest = 1;
	attr__fprint(&a, fp);
	fclose(fp);
	/* perf evlist -v's line for -e task-clock, after the name. */
	assert_string_equal(
		text,
		": type: 1, size: 128, config: 0x1, { sample_period, sample_freq }: 4000, sample_type: IP|TID|TIME|PERIOD|IDENTIFIER, read_format: ID|LOST, disabled: 1, inherit: 1, freq: 1, sample_id_all: 1, exclude_guest: 1");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec),	  cmocka_unit_test(test_commands),
		cmocka_unit_test(test_fifo_acks), cmocka_unit_test(test_fd_end),
		cmocka_unit_test(test_attr_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
