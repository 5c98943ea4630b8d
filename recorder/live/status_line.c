// SPDX-License-Identifier: GPL-2.0-only
/*
 * The live status line (status_line.h): when it is wanted, the counts it
 * gathers between passes, its text and the terminal sequences around it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "prec/mono_clock.h"
#include "drain/drain.h"
#include "live/status_line.h"
#include "drain/streams.h"

/* Room for the text at any width a terminal reports, and its sequences. */
#define STATUS_LINE_MAX 512

bool status_line__wanted(const struct status_line_config *c, int fd)
{
	const char *no = getenv("PREC_NO_STATUS");
	const char *term = getenv("TERM");

	if (c->quiet || fd < 0 || !isatty(fd))
		return false;
	if (no && *no && strcmp(no, "0"))
		return false;
	/* A terminal that cannot move its cursor gets no row of its own. */
	return term && *term && strcmp(term, "dumb");
}

/* The coarse clock is a vDSO read of the tick: this runs every pass. */
static uint64_t status_line__now_ms(void)
{
	return mono_clock__ns(true) / 1000000;
}

void status_line__init(struct status_line *s, const struct status_line_config *c, int fd,
		       struct drain *d)
{
	memset(s, 0, sizeof(*s));
	s->fd = status_line__wanted(c, fd) ? fd : -1;
	/* A quiet drain sleeps up to a second between passes: the clock on
	 * the line would stall. A drain whose ticks are all taken (-ENOSPC)
	 * redraws at its own, slower. */
	if (s->fd >= 0 && d)
		(void)drain__want_tick(d, STATUS_LINE_PERIOD_MS);
	s->comp = c->comp;
	s->rotating = c->rotating;
	s->start_ms = status_line__now_ms();
	/* The first after two periods: a short recording leaves no trace. */
	s->next_ms = s->start_ms + 2 * STATUS_LINE_PERIOD_MS;
}

int status_line__size(char *buf, size_t len, uint64_t bytes)
{
	if (bytes < 1024)
		return snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	if (bytes < 1024 * 1024)
		return snprintf(buf, len, "%.1f KB", (double)bytes / 1024.0);
	if (bytes < 1024ull * 1024 * 1024)
		return snprintf(buf, len, "%.2f MB", (double)bytes / 1048576.0);
	return snprintf(buf, len, "%.2f GB", (double)bytes / 1073741824.0);
}

/* Elapsed time as "7.3s", "2m05s" or "1h02m05s". */
static int status_line__elapsed(char *buf, size_t len, uint64_t ms)
{
	uint64_t s = ms / 1000;

	if (s < 60)
		return snprintf(buf, len, "%llu.%llus", (unsigned long long)s,
				(unsigned long long)(ms % 1000) / 100);
	if (s < 3600)
		return snprintf(buf, len, "%llum%02llus", (unsigned long long)s / 60,
				(unsigned long long)s % 60);
	return snprintf(buf, len, "%lluh%02llum%02llus", (unsigned long long)s / 3600,
			(unsigned long long)(s / 60) % 60, (unsigned long long)s % 60);
}

int status_line__format(char *buf, size_t len, const struct status_counts *c, int width)
{
	char t[32], b[32], z[32], rot[32] = "";
	int n;

	if (!len)
		return 0;
	status_line__elapsed(t, sizeof(t), c->elapsed_ms);
	status_line__size(b, sizeof(b), c->bytes);
	if (c->comp) {
		char zs[24];

		status_line__size(zs, sizeof(zs), c->comp_bytes);
		snprintf(z, sizeof(z), " (zstd %s)", zs);
	} else {
		z[0] = '\0';
	}
	if (c->rotating)
		snprintf(rot, sizeof(rot), "  %u rotation%s", c->rotations,
			 c->rotations == 1 ? "" : "s");
	n = snprintf(buf, len, "prec: %s  %llu samples  %s%s written  %llu lost%s", t,
		     (unsigned long long)c->samples, b, z, (unsigned long long)c->lost, rot);
	if (n < 0)
		n = 0;
	if ((size_t)n >= len)
		n = (int)len - 1;
	if (width >= 0 && n > width)
		n = width;
	buf[n] = '\0';
	return n;
}

int status_line__setup_seq(char *buf, size_t len, int rows, bool make_room)
{
	/* Setting the region homes the cursor: save and restore around it.
	 * The newline first takes a blank bottom row (scrolling the screen
	 * when the cursor is there), and the cursor goes back up into the
	 * region. */
	if (make_room)
		return snprintf(buf, len, "\n\0337\033[1;%dr\0338\033[1A", rows - 1);
	return snprintf(buf, len, "\0337\033[1;%dr\0338", rows - 1);
}

int status_line__draw_seq(char *buf, size_t len, int rows, const char *text)
{
	return snprintf(buf, len, "\0337\033[%d;1H\033[K%s\0338", rows, text);
}

int status_line__erase_seq(char *buf, size_t len, int rows)
{
	return snprintf(buf, len, "\0337\033[%d;1H\033[K\033[r\0338", rows);
}

/* One write: the terminal takes it whole (tty writes hold its write lock),
 * so the command's output never lands inside a sequence. */
static void status_line__write(struct status_line *s, const char *buf, int n)
{
	if (n > 0 && write(s->fd, buf, (size_t)n) < 0 && errno != EINTR && errno != EAGAIN)
		s->fd = -1; /* the terminal is gone: nothing more to draw */
}

/* The streams' counts, read while their threads add to them: each field a
 * relaxed load of what drain_stats__add stores (no lock, no torn value). */
static void status_line__add_stats(struct status_counts *c, const struct drain_stats *st)
{
	c->samples += __atomic_load_n(&st->samples, __ATOMIC_RELAXED);
	c->bytes += __atomic_load_n(&st->bytes, __ATOMIC_RELAXED);
	c->lost += __atomic_load_n(&st->lost, __ATOMIC_RELAXED);
}

static void status_line__gather(struct status_line *s, struct status_counts *c,
				const struct streams *ss, const struct status_output *so)
{
	for (int i = 0; i < ss->nr; i++)
		status_line__add_stats(c, &ss->s[i].d.stats);
	c->rotations = so->rotations;
	c->rotating = s->rotating;
	c->comp = s->comp && so->comp_known;
	c->comp_bytes = so->comp_bytes;
}

/* prec run with & (or stopped and sent to the background): the terminal
 * is the foreground job's, and lines from here would land in it. A
 * terminal that is not prec's controlling one has no foreground to ask. */
static bool status_line__background(const struct status_line *s)
{
	pid_t fg = tcgetpgrp(s->fd);

	return fg >= 0 && fg != getpgrp();
}

/* The terminal's size now (a resize moves the bottom row). */
static void status_line__measure(const struct status_line *s, int *rows, int *cols)
{
	struct winsize ws;

	if (ioctl(s->fd, TIOCGWINSZ, &ws) || !ws.ws_row || !ws.ws_col) {
		*rows = STATUS_LINE_ROWS;
		*cols = STATUS_LINE_COLS;
		return;
	}
	*rows = ws.ws_row;
	*cols = ws.ws_col;
}

void status_line__tick(struct status_line *s, const struct streams *ss,
		       const struct status_output *so)
{
	struct status_counts c = { 0 };
	char text[STATUS_LINE_MAX], buf[2 * STATUS_LINE_MAX];
	uint64_t now;
	int rows, cols, n = 0;

	if (s->fd < 0)
		return;
	now = status_line__now_ms();
	/* The drain's passes come one sleep of the period apart, give or take
	 * a tick of the coarse clock: an eighth early counts as on time. */
	if (now + STATUS_LINE_PERIOD_MS / 8 < s->next_ms)
		return;
	s->next_ms = now + STATUS_LINE_PERIOD_MS;
	if (status_line__background(s))
		return;
	status_line__measure(s, &rows, &cols);
	if (rows < 2)
		return;
	if (rows != s->rows) {
		/* First draw, or a resize: (re)take the bottom row; the old one,
		 * when still on the screen, is cleared. */
		if (s->rows && s->rows < rows)
			n = snprintf(buf, sizeof(buf), "\0337\033[%d;1H\033[K\0338", s->rows);
		n += status_line__setup_seq(buf + n, sizeof(buf) - (size_t)n, rows, !s->rows);
		s->rows = rows;
	}
	s->cols = cols;
	c.elapsed_ms = now - s->start_ms;
	status_line__gather(s, &c, ss, so);
	/* One column short of the width: the last column would wrap on some
	 * terminals, scrolling the screen. */
	status_line__format(text, sizeof(text), &c, cols - 1);
	n += status_line__draw_seq(buf + n, sizeof(buf) - (size_t)n, rows, text);
	status_line__write(s, buf, n < (int)sizeof(buf) ? n : (int)sizeof(buf) - 1);
}

void status_line__end(struct status_line *s)
{
	char buf[64];

	if (s->fd >= 0 && s->rows)
		status_line__write(s, buf, status_line__erase_seq(buf, sizeof(buf), s->rows));
	s->fd = -1;
	s->rows = 0;
}
