// SPDX-License-Identifier: GPL-2.0-only
/*
 * A file readable at every instant (writer/commit.c): the header follows the
 * data, -z says its COMPRESSED feature in the data, a checkpoint writes the
 * features early, and a write that fails (RLIMIT_FSIZE standing in for a
 * full disk, in a child so the limit stays there) keeps the whole records
 * written, in a file and in a stream into a file, and the side-band of the
 * data it cuts back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "prec/event.h"
#include "prec/perf_file.h"
#include "prec/writer.h"

/* Records of REC bytes: a COMM header and a counter, as the ring holds them. */
#define REC 24

struct tfile {
	char dir[64];
	char path[128];
	struct perf_event_attr attr;
	uint64_t id;
	struct writer_event ev;
};

static int setup(void **state)
{
	struct tfile *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	strcpy(t->dir, "/tmp/prec-test-wcommit-XXXXXX");
	if (!mkdtemp(t->dir)) {
		free(t);
		return -1;
	}
	snprintf(t->path, sizeof(t->path), "%s/perf.data", t->dir);
	t->attr.size = sizeof(t->attr);
	t->attr.sample_type = PERF_SAMPLE_IP;
	t->id = 7;
	t->ev = (struct writer_event){ .attr = &t->attr, .name = "x", .ids = &t->id, .nr_ids = 1 };
	*state = t;
	return 0;
}

/* Each test writes perf.data alone in its directory. */
static int teardown(void **state)
{
	struct tfile *t = *state;
	int err = unlink(t->path) && errno != ENOENT ? -1 : rmdir(t->dir);

	free(t);
	return err ? -1 : 0;
}

/* Every names_every-th record (when set) is side-band (an MMAP), the others
 * samples. */
static uint32_t names_every;

static bool is_name(uint64_t v)
{
	return names_every && v % names_every == names_every - 1;
}

/* n records numbered from first, as one ring pass (two spans, the second
 * the wrapped half of a record, as a ring gives them). */
static int write_pass(struct writer *w, uint32_t first, uint32_t n)
{
	static uint8_t buf[64 * REC];
	struct iovec iov[2];

	for (uint32_t i = 0; i < n; i++) {
		uint64_t v = first + i;
		struct perf_event_header h = {
			.type = is_name(v) ? PERF_RECORD_MMAP : PERF_RECORD_SAMPLE, .size = REC
		};

		memcpy(buf + i * REC, &h, sizeof(h));
		memcpy(buf + i * REC + 8, &v, sizeof(v));
	}
	iov[0] = (struct iovec){ buf, n * REC - REC / 2 };
	iov[1] = (struct iovec){ buf + n * REC - REC / 2, REC / 2 };
	return writer__writev_ring(w, iov, 2, false);
}

static void read_header(const char *path, struct perf_file_header *h, off_t *size)
{
	struct stat st;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, h, sizeof(*h), 0), sizeof(*h));
	assert_int_equal(fstat(fd, &st), 0);
	*size = st.st_size;
	close(fd);
}

static bool no_features(const struct perf_file_header *h)
{
	for (size_t i = 0; i < HEADER_FEAT_BITS / 64; i++)
		if (h->adds_features[i])
			return false;
	return true;
}

/* The header says the data written so far, with no feature to look for. */
static void test_commit_follows_data(void **state)
{
	struct tfile *t = *state;
	struct perf_file_header h;
	struct writer *w;
	off_t size;

	assert_int_equal(writer__open(&w, t->path), 0);
	assert_int_equal(writer__begin(w, &t->ev, 1), 0);
	read_header(t->path, &h, &size);
	assert_int_equal(h.data.size, 0);
	/* The first pass commits (none was made yet). */
	assert_int_equal(write_pass(w, 0, 10), 0);
	read_header(t->path, &h, &size);
	assert_int_equal(h.data.size, 10 * REC);
	assert_true(no_features(&h));
	/* Buffered records go in with an explicit commit. */
	assert_int_equal(writer__write(w, "\x44\0\0\0\0\0\x08\0", 8), 0);
	assert_int_equal(writer__commit(w), 0);
	read_header(t->path, &h, &size);
	assert_int_equal(h.data.size, 10 * REC + 8);
	assert_int_equal((uint64_t)size, h.data.offset + h.data.size);
	assert_false(writer__failed(w));
	assert_int_equal(writer__finish(w, NULL), 0);
	read_header(t->path, &h, &size);
	assert_int_equal(h.data.size, 10 * REC + 8);
	assert_false(no_features(&h));
}

/* -z: a HEADER_FEATURE(COMPRESSED) record heads the ring data, carrying the
 * buffer size a reader needs, before any COMPRESSED record. */
static void test_compression_says_its_feature(void **state)
{
	struct tfile *t = *state;
	struct perf_file_header h;
	uint8_t rec[64];
	struct writer *w;
	uint64_t feat;
	uint32_t mmap_len;
	off_t size;
	int fd;

	assert_int_equal(writer__open(&w, t->path), 0);
	assert_int_equal(writer__begin(w, &t->ev, 1), 0);
	assert_int_equal(writer__set_compression(w, 1, 528384), 0);
	assert_int_equal(write_pass(w, 0, 20), 0);
	read_header(t->path, &h, &size);
	fd = open(t->path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, rec, sizeof(rec), (off_t)h.data.offset), sizeof(rec));
	close(fd);
	assert_int_equal(((struct perf_event_header *)rec)->type, PERF_RECORD_HEADER_FEATURE);
	memcpy(&feat, rec + 8, sizeof(feat));
	assert_int_equal(feat, HEADER_COMPRESSED);
	/* u32 version, type, level, ratio, then mmap_len. */
	memcpy(&mmap_len, rec + 16 + 16, sizeof(mmap_len));
	assert_int_equal(mmap_len, 528384);
	assert_true(h.data.size > ((struct perf_event_header *)rec)->size);
	/* The COMPRESSED record follows it. */
	assert_int_equal(((struct perf_event_header *)(rec + ((struct perf_event_header *)rec)->size))->type,
			 PERF_RECORD_COMPRESSED);
	assert_int_equal(writer__finish(w, NULL), 0);
}

/* A checkpoint writes the features after the data now; writes after it go
 * over them, and finish leaves no stale byte behind its own. */
static void test_checkpoint(void **state)
{
	struct tfile *t = *state;
	struct writer_meta m = { 0 };
	struct perf_file_header h;
	struct writer *w;
	off_t size, early;

	assert_int_equal(writer__open(&w, t->path), 0);
	assert_int_equal(writer__begin(w, &t->ev, 1), 0);
	assert_int_equal(writer__write(w, "\x44\0\0\0\0\0\x08\0", 8), 0);
	m.dir_version = 1;
	assert_int_equal(writer__checkpoint(w, &m), 0);
	read_header(t->path, &h, &early);
	assert_int_equal(h.data.size, 8);
	assert_false(no_features(&h));
	assert_true((uint64_t)early > h.data.offset + 8);
	assert_int_equal(writer__finish(w, NULL), 0);
	read_header(t->path, &h, &size);
	assert_int_equal(h.data.size, 8);
	/* Without DIR_FORMAT the features are shorter: nothing of the
	 * checkpoint's is left at the end. */
	assert_true(size < early);
}

/* In a child: RLIMIT_FSIZE at limit, SIGXFSZ ignored, as prec runs. */
static void limit_fsize(rlim_t limit)
{
	struct rlimit rl = { limit, limit };

	signal(SIGXFSZ, SIG_IGN);
	if (setrlimit(RLIMIT_FSIZE, &rl))
		_exit(90);
}

static void wait_ok(pid_t pid)
{
	int status;

	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* Passes until the limit says EFBIG, and the finish that says it too. */
static bool fill_and_finish(struct writer *w)
{
	uint32_t n = 0;
	int err = 0;

	while (!err && n < 100000) {
		err = write_pass(w, n, 50);
		n += 50;
	}
	return err == -EFBIG && writer__finish(w, NULL) == -EFBIG;
}

/* Every record in [from, from + len) of fd whole, numbered on from first. */
static int records_whole(int fd, uint64_t from, uint64_t len, uint32_t *count)
{
	uint8_t rec[REC];

	*count = 0;
	for (uint64_t off = 0; off < len; off += REC) {
		uint64_t v;

		if (pread(fd, rec, REC, (off_t)(from + off)) != REC ||
		    ((struct perf_event_header *)rec)->size != REC)
			return -1;
		memcpy(&v, rec + 8, sizeof(v));
		if (v != *count)
			return -1;
		(*count)++;
	}
	return 0;
}

/*
 * A file that reaches the limit mid-pass: finish says EFBIG, and keeps the
 * file: data cut at the last whole record (read back past the last pass
 * that went in whole), features when they fit, under the limit.
 */
static void test_salvage_file(void **state)
{
	struct tfile *t = *state;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		struct perf_file_header h;
		struct writer *w;
		struct stat st;
		uint32_t n = 0, whole;
		int err = 0, fd;

		limit_fsize(64 * 1024);
		if (writer__open(&w, t->path) || writer__begin(w, &t->ev, 1))
			_exit(10);
		while (!err && n < 100000) {
			err = write_pass(w, n, 50);
			n += 50;
		}
		if (err != -EFBIG || !writer__failed(w))
			_exit(11);
		if (writer__finish(w, NULL) != -EFBIG)
			_exit(12);
		fd = open(t->path, O_RDONLY);
		if (fd < 0 || pread(fd, &h, sizeof(h), 0) != sizeof(h) || fstat(fd, &st))
			_exit(13);
		if (st.st_size > 64 * 1024 || h.data.size % REC || !h.data.size)
			_exit(14);
		if (records_whole(fd, h.data.offset, h.data.size, &whole))
			_exit(15);
		/* With features after the data, or the data alone to the end. */
		if (no_features(&h) && (uint64_t)st.st_size != h.data.offset + h.data.size)
			_exit(16);
		/* At most the salvage's cut-back lost: the limit less ~16 KB. */
		if (h.data.size < 32 * 1024)
			_exit(17);
		_exit(0);
	}
	wait_ok(pid);
}

/*
 * The features fit only when the data is cut back: to the last record that
 * leaves them room, whatever the marks (none below 64 KB; one just under
 * the end at 66 KB, where an attempt there tears what follows it), and the
 * file reads whole. Limits too small for the features keep all the data
 * and none of them.
 */
static void test_salvage_cut_to_fit(void **state)
{
	static const rlim_t limits[] = { 600, 64 * 1024, 66 * 1024 + 100, 200 * 1024 + 7 };
	struct tfile *t = *state;

	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		pid_t pid;

		unlink(t->path); /* not kept as perf.data.old */
		pid = fork();

		assert_true(pid >= 0);
		if (pid == 0) {
			rlim_t limit = limits[i];
			struct perf_file_header h;
			struct writer *w;
			struct stat st;
			uint64_t sec[2];
			uint32_t whole;
			int fd;

			limit_fsize(limit);
			if (writer__open(&w, t->path) || writer__begin(w, &t->ev, 1))
				_exit(10);
			if (!fill_and_finish(w))
				_exit(11);
			fd = open(t->path, O_RDONLY);
			if (fd < 0 || pread(fd, &h, sizeof(h), 0) != sizeof(h) || fstat(fd, &st))
				_exit(12);
			if ((rlim_t)st.st_size > limit || !h.data.size ||
			    records_whole(fd, h.data.offset, h.data.size, &whole))
				_exit(13);
			if (i == 0) {
				/* No room for the features: all the data. */
				if (!no_features(&h) || (uint64_t)st.st_size != h.data.offset + h.data.size)
					_exit(14);
				_exit(0);
			}
			/* The feature table right after the data (its first
			 * section behind it), the cut the last record before
			 * the room they need. */
			if (no_features(&h) ||
			    pread(fd, sec, sizeof(sec), (off_t)(h.data.offset + h.data.size)) != sizeof(sec) ||
			    sec[0] <= h.data.offset + h.data.size || sec[0] + sec[1] > (uint64_t)st.st_size ||
			    (rlim_t)st.st_size <= limit - REC)
				_exit(15);
			_exit(0);
		}
		wait_ok(pid);
	}
}

/*
 * The cut that makes room for the features drops samples, not the side-band
 * among them (a late walk's maps name the samples before them): every MMAP
 * written before the failure is in the file, those of the part cut away
 * after the samples kept, in their order.
 */
static void test_salvage_keeps_names(void **state)
{
	struct tfile *t = *state;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		struct perf_file_header h;
		struct writer *w;
		uint64_t last_sample = 0, next_name = 3, carried = 0;
		uint8_t rec[REC];
		int fd;

		names_every = 4;
		limit_fsize(200 * 1024 + 7);
		if (writer__open(&w, t->path) || writer__begin(w, &t->ev, 1))
			_exit(10);
		if (!fill_and_finish(w))
			_exit(11);
		fd = open(t->path, O_RDONLY);
		if (fd < 0 || pread(fd, &h, sizeof(h), 0) != sizeof(h) || no_features(&h) ||
		    h.data.size % REC)
			_exit(12);
		for (uint64_t off = 0; off < h.data.size; off += REC) {
			const struct perf_event_header *eh = (const void *)rec;
			uint64_t v;

			if (pread(fd, rec, REC, (off_t)(h.data.offset + off)) != REC)
				_exit(13);
			memcpy(&v, rec + 8, sizeof(v));
			if (eh->type == PERF_RECORD_SAMPLE) {
				/* Samples in order, none after a carried map. */
				if (is_name(v) || (off && v <= last_sample) || v > next_name)
					_exit(14);
				last_sample = v;
			} else if (eh->type == PERF_RECORD_MMAP) {
				/* Every map, in order, none missing. */
				if (v != next_name)
					_exit(15);
				next_name += names_every;
			} else {
				_exit(16);
			}
		}
		/* Some were cut away after the samples kept, and carried. */
		carried = (next_name - names_every - last_sample) / names_every;
		if (next_name - names_every < last_sample || !carried)
			_exit(17);
		_exit(0);
	}
	wait_ok(pid);
}

/* A stream into a regular file opened write-only (`-o - > file`): cut at
 * its last whole record. */
static void test_salvage_stream_file(void **state)
{
	struct tfile *t = *state;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		struct writer *w;
		struct stat st;
		uint32_t whole;
		int fd;

		limit_fsize(32 * 1024 + 5);
		fd = open(t->path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || writer__open_pipe(&w, fd) || writer__begin(w, NULL, 0))
			_exit(10);
		if (!fill_and_finish(w))
			_exit(11);
		/* The pipe header (16 bytes), then the records. */
		fd = open(t->path, O_RDONLY);
		if (fd < 0 || fstat(fd, &st) || st.st_size < 16 || (st.st_size - 16) % REC)
			_exit(12);
		if (records_whole(fd, 16, (uint64_t)st.st_size - 16, &whole) || whole < 1000)
			_exit(13);
		_exit(0);
	}
	wait_ok(pid);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_commit_follows_data, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compression_says_its_feature, setup, teardown),
		cmocka_unit_test_setup_teardown(test_checkpoint, setup, teardown),
		cmocka_unit_test_setup_teardown(test_salvage_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_salvage_cut_to_fit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_salvage_keeps_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_salvage_stream_file, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
