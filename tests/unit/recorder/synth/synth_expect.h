/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_TESTS_SYNTH_EXPECT_H
#define PREC_TESTS_SYNTH_EXPECT_H
/*
 * Shared by the synthesis tests (test_synthesize*.c): a real writer into a
 * perf.data under a mkdtemp dir, with one fake event, a fixture proc dir
 * beside it, and a reader of the data section written so far, so each test
 * compares the bytes a synth__ function wrote with records built by hand.
 * Include after cmocka.h.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/writer.h"

struct tw {
	char dir[64];
	char path[128];
	char proc[128];
	struct writer *w;
	uint64_t data_off;
};

static const uint64_t fake_ids[1] = { 1 };
static struct perf_event_attr fake_attr = {
	.type = PERF_TYPE_SOFTWARE,
	.size = sizeof(struct perf_event_attr),
	.config = PERF_COUNT_SW_CPU_CLOCK,
};
static const struct writer_event fake_event = {
	.attr = &fake_attr,
	.name = "cpu-clock",
	.ids = fake_ids,
	.nr_ids = 1,
};

static inline int tw_setup(void **state)
{
	struct tw *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	strcpy(t->dir, "/tmp/prec-test-synth-XXXXXX");
	if (!mkdtemp(t->dir))
		return -1;
	snprintf(t->path, sizeof(t->path), "%s/perf.data", t->dir);
	snprintf(t->proc, sizeof(t->proc), "%s/proc", t->dir);
	if (mkdir(t->proc, 0700))
		return -1;
	if (writer__open(&t->w, t->path) || writer__begin(t->w, &fake_event, 1))
		return -1;
	t->data_off = writer__file_size(t->w);
	*state = t;
	return 0;
}

static inline int tw_teardown(void **state)
{
	struct tw *t = *state;
	char p[192];

	writer__abort(t->w);
	snprintf(p, sizeof(p), "%s/kallsyms", t->proc);
	unlink(p);
	snprintf(p, sizeof(p), "%s/modules", t->proc);
	unlink(p);
	rmdir(t->proc);
	rmdir(t->dir);
	free(t);
	return 0;
}

static inline void tw_proc_file(struct tw *t, const char *name, const char *text)
{
	char p[192];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", t->proc, name);
	f = fopen(p, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

/* Everything written to the data section so far (flushed first). */
static inline size_t tw_data(struct tw *t, uint8_t *buf, size_t cap)
{
	uint64_t n;
	int fd;

	/* An empty writev flushes the buffered records without adding any. */
	assert_int_equal(writer__writev(t->w, NULL, 0), 0);
	n = writer__data_size(t->w);
	assert_true(n <= cap);
	fd = open(t->path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, buf, n, (off_t)t->data_off), (ssize_t)n);
	close(fd);
	return (size_t)n;
}

#endif
