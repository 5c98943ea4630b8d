// SPDX-License-Identifier: GPL-2.0-only
/*
 * The live status line (recorder/live/status_line.c): its sizes and text (KB, MB,
 * GB, elapsed forms, -z, lost, rotations, cut to the width), the terminal
 * sequences around it, when it is wanted (a terminal, -q, PREC_NO_STATUS,
 * TERM), and a tick and an end on a real pseudo-terminal.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "recorder/drain/drain.h"
#include "recorder/drain/streams.h"
#include "recorder/live/status_line.h"

static void test_sizes(void **state)
{
	static const struct {
		uint64_t bytes;
		const char *text;
	} sizes[] = {
		{ 0, "0 B" },
		{ 1023, "1023 B" },
		{ 1024, "1.0 KB" },
		{ 1536 * 10, "15.0 KB" },
		{ 1024 * 1024 - 1, "1024.0 KB" }, /* rounded, still counted in KB */
		{ 1024 * 1024, "1.00 MB" },
		{ 12345678, "11.77 MB" },
		{ 3ull << 30, "3.00 GB" },
		{ 5000ull << 30, "5000.00 GB" },
	};
	char b[32];

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		int n = status_line__size(b, sizeof(b), sizes[i].bytes);

		assert_string_equal(b, sizes[i].text);
		assert_int_equal(n, (int)strlen(sizes[i].text));
	}
}

static void test_text(void **state)
{
	struct status_counts c = { .elapsed_ms = 7349, .samples = 45678, .bytes = 2 << 20 };
	char b[256];
	int n;

	(void)state;
	n = status_line__format(b, sizeof(b), &c, 200);
	assert_string_equal(b, "prec: 7.3s  45678 samples  2.00 MB written  0 lost");
	assert_int_equal(n, (int)strlen(b));

	/* -z, losses, rotations (and the singular), minutes. */
	c = (struct status_counts){ .elapsed_ms = 125000,
				    .samples = 1,
				    .bytes = 3ull << 30,
				    .comp = true,
				    .comp_bytes = 300ull << 20,
				    .lost = 17,
				    .rotating = true,
				    .rotations = 1 };
	status_line__format(b, sizeof(b), &c, 200);
	assert_string_equal(
		b, "prec: 2m05s  1 samples  3.00 GB (zstd 300.00 MB) written  17 lost  1 rotation");
	c.rotations = 12;
	c.elapsed_ms = 3600000 + 2 * 60000 + 5000;
	status_line__format(b, sizeof(b), &c, 200);
	assert_string_equal(
		b,
		"prec: 1h02m05s  1 samples  3.00 GB (zstd 300.00 MB) written  17 lost  12 rotations");
	c.rotations = 0;
	status_line__format(b, sizeof(b), &c, 200);
	assert_non_null(strstr(b, "  0 rotations"));

	/* Exactly 59.9 s stays in seconds; 60 s turns to minutes. */
	c = (struct status_counts){ .elapsed_ms = 59999 };
	status_line__format(b, sizeof(b), &c, 200);
	assert_string_equal(b, "prec: 59.9s  0 samples  0 B written  0 lost");
	c.elapsed_ms = 60000;
	status_line__format(b, sizeof(b), &c, 200);
	assert_string_equal(b, "prec: 1m00s  0 samples  0 B written  0 lost");
}

static void test_width(void **state)
{
	struct status_counts c = { .elapsed_ms = 1000, .samples = 123456789, .bytes = 1 << 20 };
	char b[256], small[16];
	int n;

	(void)state;
	n = status_line__format(b, sizeof(b), &c, 20);
	assert_int_equal(n, 20);
	assert_string_equal(b, "prec: 1.0s  12345678");
	n = status_line__format(b, sizeof(b), &c, 0);
	assert_int_equal(n, 0);
	assert_string_equal(b, "");
	/* A buffer shorter than the text: cut to it, terminated. */
	n = status_line__format(small, sizeof(small), &c, 200);
	assert_int_equal(n, (int)sizeof(small) - 1);
	assert_int_equal(strlen(small), sizeof(small) - 1);
	/* Never a control byte inside the text. */
	n = status_line__format(b, sizeof(b), &c, 200);
	for (int i = 0; i < n; i++)
		assert_true(b[i] >= ' ' && b[i] < 0x7f);
}

static void test_sequences(void **state)
{
	char b[128];

	(void)state;
	/* The bottom row out of the scrolling region, the cursor back in it. */
	status_line__setup_seq(b, sizeof(b), 30, true);
	assert_string_equal(b, "\n\0337\033[1;29r\0338\033[1A");
	status_line__setup_seq(b, sizeof(b), 50, false);
	assert_string_equal(b, "\0337\033[1;49r\0338");
	/* A draw: saved cursor, bottom row, erased, text, cursor back. */
	status_line__draw_seq(b, sizeof(b), 30, "prec: 1.0s");
	assert_string_equal(b, "\0337\033[30;1H\033[Kprec: 1.0s\0338");
	/* The end: the row erased, the whole screen scrolling again. */
	status_line__erase_seq(b, sizeof(b), 30);
	assert_string_equal(b, "\0337\033[30;1H\033[K\033[r\0338");
}

/* A pseudo-terminal of rows x cols: its slave in *slave, the master returned. */
static int open_pty(int *slave, unsigned short rows, unsigned short cols)
{
	struct winsize ws = { .ws_row = rows, .ws_col = cols };
	int m = posix_openpt(O_RDWR | O_NOCTTY);

	assert_true(m >= 0);
	assert_int_equal(grantpt(m), 0);
	assert_int_equal(unlockpt(m), 0);
	*slave = open(ptsname(m), O_RDWR | O_NOCTTY);
	assert_true(*slave >= 0);
	assert_int_equal(ioctl(*slave, TIOCSWINSZ, &ws), 0);
	return m;
}

/* What the master side has to read now ("" when nothing). */
static void read_pty(int m, char *buf, size_t len)
{
	struct pollfd p = { .fd = m, .events = POLLIN };
	size_t got = 0;

	while (got + 1 < len && poll(&p, 1, 100) > 0) {
		ssize_t n = read(m, buf + got, len - 1 - got);

		if (n <= 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
}

static void test_wanted(void **state)
{
	struct status_line_config o = { 0 };
	int fds[2], slave, m = open_pty(&slave, 24, 80);

	(void)state;
	assert_int_equal(pipe(fds), 0);
	setenv("TERM", "xterm", 1);
	unsetenv("PREC_NO_STATUS");
	assert_true(status_line__wanted(&o, slave));
	assert_false(status_line__wanted(&o, fds[1])); /* a pipe */
	assert_false(status_line__wanted(&o, -1));
	o.quiet = true;
	assert_false(status_line__wanted(&o, slave));
	o.quiet = false;
	setenv("PREC_NO_STATUS", "1", 1);
	assert_false(status_line__wanted(&o, slave));
	setenv("PREC_NO_STATUS", "0", 1); /* "0" and "" keep it */
	assert_true(status_line__wanted(&o, slave));
	setenv("PREC_NO_STATUS", "", 1);
	assert_true(status_line__wanted(&o, slave));
	setenv("TERM", "dumb", 1);
	assert_false(status_line__wanted(&o, slave));
	unsetenv("TERM");
	assert_false(status_line__wanted(&o, slave));
	setenv("TERM", "xterm", 1);
	close(fds[0]);
	close(fds[1]);
	close(slave);
	close(m);
}

static void test_tick_on_pty(void **state)
{
	struct status_line_config o = { .comp = false, .rotating = true };
	struct stream one = { .d = { .ticks = { 1000 } } };
	struct streams ss = { .s = &one, .nr = 1 };
	struct status_output out = { .rotations = 2 };
	struct status_line s;
	char buf[1024];
	int slave, m = open_pty(&slave, 40, 60);
	struct termios t;

	(void)state;
	/* Raw output: the bytes come back as written (no \n -> \r\n). */
	assert_int_equal(tcgetattr(slave, &t), 0);
	cfmakeraw(&t);
	assert_int_equal(tcsetattr(slave, TCSANOW, &t), 0);
	setenv("TERM", "xterm", 1);
	unsetenv("PREC_NO_STATUS");
	status_line__init(&s, &o, slave, &one.d);
	assert_int_equal(s.fd, slave);
	assert_int_equal(drain__tick_ms(&one.d), STATUS_LINE_PERIOD_MS);

	/* Not due yet: nothing written. */
	status_line__tick(&s, &ss, &out);
	read_pty(m, buf, sizeof(buf));
	assert_string_equal(buf, "");

	/* Due: the region taken once, then the line in row 40, cut to 59. */
	one.d.stats.samples = 4321;
	one.d.stats.bytes = 5 << 20;
	one.d.stats.lost = 3;
	s.next_ms = 0;
	status_line__tick(&s, &ss, &out);
	read_pty(m, buf, sizeof(buf));
	assert_non_null(strstr(buf, "\n\0337\033[1;39r\0338\033[1A"));
	assert_non_null(strstr(buf, "\0337\033[40;1H\033[Kprec: "));
	assert_non_null(strstr(buf, "  4321 samples  5.00 MB written  3 lost  2 rota"));
	assert_null(strstr(buf, "rotations")); /* 59 columns reach "2 rota" */
	assert_int_equal(s.rows, 40);

	/* The next draw: no second region, the line only. */
	s.next_ms = 0;
	status_line__tick(&s, &ss, &out);
	read_pty(m, buf, sizeof(buf));
	assert_null(strstr(buf, "r\0338\033[1A"));
	assert_int_equal(strncmp(buf, "\0337\033[40;1H\033[Kprec: ", 16), 0);

	/* The end: erased, the region given back; a second end says nothing. */
	status_line__end(&s);
	read_pty(m, buf, sizeof(buf));
	assert_string_equal(buf, "\0337\033[40;1H\033[K\033[r\0338");
	status_line__end(&s);
	s.next_ms = 0;
	status_line__tick(&s, &ss, &out);
	read_pty(m, buf, sizeof(buf));
	assert_string_equal(buf, "");
	close(slave);
	close(m);
}

static void test_off_never_writes(void **state)
{
	struct status_line_config o = { .quiet = true };
	struct stream one = { .d = { .ticks = { 1000 } } };
	struct streams ss = { .s = &one, .nr = 1 };
	struct status_output out = { 0 };
	struct status_line s;
	char buf[256];
	int slave, m = open_pty(&slave, 24, 80);

	(void)state;
	status_line__init(&s, &o, slave, &one.d);
	assert_int_equal(s.fd, -1);
	assert_int_equal(drain__tick_ms(&one.d), 1000); /* the drain's sleep untouched */
	s.next_ms = 0;
	status_line__tick(&s, &ss, &out);
	status_line__end(&s);
	read_pty(m, buf, sizeof(buf));
	assert_string_equal(buf, "");
	close(slave);
	close(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_width),
		cmocka_unit_test(test_sequences),
		cmocka_unit_test(test_wanted),
		cmocka_unit_test(test_tick_on_pty),
		cmocka_unit_test(test_off_never_writes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
