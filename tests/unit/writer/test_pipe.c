// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pipe mode: a stream written to a file descriptor parses back, with a reader
 * written here, into the same attrs, ids and feature payloads as the seekable
 * file the same metadata makes; features too large for one record are split
 * or reduced, never cut; the stream ends with the build-id records.
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
#include <unistd.h>

#include "prec/event.h"
#include "prec/perf_file.h"
#include "prec/sysinfo.h"
#include "prec/writer.h"
#include "tests/unit/fixture_path.h"

/* ---- a reader independent of the writer ---- */

struct parsed {
	uint8_t attr[8][PREC_ATTR_SIZE];
	uint64_t ids[8][8];
	uint32_t nr_ids[8];
	uint32_t nr_attrs;
	/* per feature id: payload bytes (records of one id concatenated) */
	uint8_t *feat[HEADER_LAST_FEATURE + 1];
	size_t feat_len[HEADER_LAST_FEATURE + 1];
	uint32_t feat_records[HEADER_LAST_FEATURE + 1];
	bool end_marker;
	size_t tracing_len;
	const uint8_t *tracing;
	uint32_t buildids;
	uint32_t other_records;
};

static void feat_add(struct parsed *p, uint64_t id, const uint8_t *b, size_t n)
{
	assert_true(id <= HEADER_LAST_FEATURE);
	p->feat[id] = realloc(p->feat[id], p->feat_len[id] + n + 1);
	assert_non_null(p->feat[id]);
	memcpy(p->feat[id] + p->feat_len[id], b, n);
	p->feat_len[id] += n;
	p->feat_records[id]++;
}

static void parse_stream(const uint8_t *b, size_t len, struct parsed *p)
{
	size_t off = 16;
	uint64_t magic, hsize;

	memset(p, 0, sizeof(*p));
	assert_true(len >= 16);
	memcpy(&magic, b, 8);
	memcpy(&hsize, b + 8, 8);
	assert_true(magic == PERF_MAGIC2);
	assert_int_equal(hsize, 16);
	while (off < len) {
		struct perf_event_header h;

		assert_true(off + sizeof(h) <= len);
		memcpy(&h, b + off, sizeof(h));
		assert_true(h.size >= sizeof(h));
		assert_true(off + h.size <= len);
		switch (h.type) {
		case PERF_RECORD_HEADER_ATTR: {
			uint32_t i = p->nr_attrs++;

			assert_true(i < 8);
			memcpy(p->attr[i], b + off + 8, PREC_ATTR_SIZE);
			p->nr_ids[i] = (uint32_t)((h.size - 8 - PREC_ATTR_SIZE) / 8);
			assert_true(p->nr_ids[i] <= 8);
			memcpy(p->ids[i], b + off + 8 + PREC_ATTR_SIZE, p->nr_ids[i] * 8);
			break;
		}
		case PERF_RECORD_HEADER_FEATURE: {
			uint64_t id;

			memcpy(&id, b + off + 8, 8);
			if (id == HEADER_LAST_FEATURE) {
				assert_int_equal(h.size, 16);
				p->end_marker = true;
			} else {
				assert_false(p->end_marker);
				feat_add(p, id, b + off + 16, h.size - 16u);
			}
			break;
		}
		case PERF_RECORD_HEADER_TRACING_DATA: {
			uint32_t size;

			memcpy(&size, b + off + 8, 4);
			assert_int_equal(h.size, 16);
			assert_int_equal(size % 8, 0);
			p->tracing = b + off + 16;
			p->tracing_len = size;
			off += size; /* the blob follows, outside the record */
			break;
		}
		case PERF_RECORD_HEADER_BUILD_ID:
			p->buildids++;
			break;
		default:
			p->other_records++;
			/* Records come after the front: attrs, features, marker. */
			assert_true(p->end_marker);
		}
		off += h.size;
	}
	assert_int_equal(off, len);
}

static void parsed_free(struct parsed *p)
{
	for (int i = 0; i <= HEADER_LAST_FEATURE; i++)
		free(p->feat[i]);
}

static uint8_t *slurp(int fd, size_t *len)
{
	off_t end = lseek(fd, 0, SEEK_END);
	uint8_t *b = malloc((size_t)end + 1);

	assert_non_null(b);
	assert_int_equal(pread(fd, b, (size_t)end, 0), end);
	*len = (size_t)end;
	return b;
}

static int tmpfd(void)
{
	char path[] = "/tmp/prec-test-pipe-XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	unlink(path);
	return fd;
}

/* ---- the metadata both modes are written from ---- */

static struct perf_event_attr attrs[2];
static const uint64_t ids0[] = { 7, 8 }, ids1[] = { 9, 10 };
static struct writer_event events[2];
static char *argv_small[] = { "prec", "record", "-o", "-", "--", "sleep", "1", NULL };

static void fill(struct writer_meta *m, struct sysinfo *si)
{
	char root[512];

	for (int i = 0; i < 2; i++) {
		memset(&attrs[i], 0, sizeof(attrs[i]));
		attrs[i].type = PERF_TYPE_SOFTWARE;
		attrs[i].size = sizeof(attrs[i]);
		attrs[i].config = (uint64_t)i;
		attrs[i].sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				       PERF_SAMPLE_ID;
		attrs[i].sample_id_all = 1;
	}
	events[0] = (struct writer_event){ &attrs[0], "cpu-clock", ids0, 2 };
	events[1] = (struct writer_event){ &attrs[1], "task-clock", ids1, 2 };
	fixture_path(root, sizeof(root), "sysinfo/vm");
	memset(si, 0, sizeof(*si));
	sysinfo__read(si, root);
	memset(m, 0, sizeof(*m));
	m->si = si;
	m->events = events;
	m->nr_events = 2;
	m->exe = "/usr/bin/prec";
	m->argc = 7;
	m->argv = argv_small;
	m->version = "0.1.0";
}

/* A file's feature payloads, by its section table. */
static void parse_file(const uint8_t *b, size_t len, struct parsed *p)
{
	struct perf_file_header h;
	size_t sec_off;

	memset(p, 0, sizeof(*p));
	assert_true(len >= sizeof(h));
	memcpy(&h, b, sizeof(h));
	p->nr_attrs = (uint32_t)(h.attrs.size / sizeof(struct perf_file_attr));
	for (uint32_t i = 0; i < p->nr_attrs; i++) {
		struct perf_file_attr fa;

		memcpy(&fa, b + h.attrs.offset + i * sizeof(fa), sizeof(fa));
		memcpy(p->attr[i], fa.attr, PREC_ATTR_SIZE);
		p->nr_ids[i] = (uint32_t)(fa.ids.size / 8);
		memcpy(p->ids[i], b + fa.ids.offset, fa.ids.size);
	}
	sec_off = h.data.offset + h.data.size;
	for (int id = 0; id < HEADER_LAST_FEATURE; id++) {
		struct perf_file_section s;

		if (!(h.adds_features[id / 64] & (1ULL << (id % 64))))
			continue;
		memcpy(&s, b + sec_off, sizeof(s));
		sec_off += sizeof(s);
		assert_true(s.offset + s.size <= len);
		feat_add(p, (uint64_t)id, b + s.offset, s.size);
	}
}

static void test_same_as_file(void **state)
{
	static const uint8_t blob[] = "tracing-data-blob";
	struct writer_meta m;
	struct sysinfo si;
	struct parsed pp, fp;
	struct writer *w;
	uint8_t *sb, *fb;
	size_t slen, flen;
	int sfd = tmpfd(), ffd;
	char fpath[] = "/tmp/prec-test-pipe-file-XXXXXX";

	(void)state;
	fill(&m, &si);
	m.tracing_data = blob;
	m.tracing_data_len = sizeof(blob); /* 18: padded to 24 in the stream */

	assert_int_equal(writer__open_pipe(&w, dup(sfd)), 0);
	assert_true(writer__is_pipe(w));
	assert_int_equal(writer__begin(w, events, 2), 0);
	assert_int_equal(writer__send_features(w, &m), 0);
	assert_int_equal(writer__finish(w, &m), 0);
	sb = slurp(sfd, &slen);
	parse_stream(sb, slen, &pp);

	ffd = mkstemp(fpath);
	assert_true(ffd >= 0);
	assert_int_equal(writer__open(&w, fpath), 0);
	assert_false(writer__is_pipe(w));
	assert_int_equal(writer__send_features(w, &m), -EINVAL);
	assert_int_equal(writer__begin(w, events, 2), 0);
	assert_int_equal(writer__finish(w, &m), 0);
	fb = slurp(ffd, &flen);
	parse_file(fb, flen, &fp);
	unlink(fpath);

	assert_int_equal(pp.nr_attrs, 2);
	assert_int_equal(fp.nr_attrs, 2);
	for (uint32_t i = 0; i < 2; i++) {
		assert_memory_equal(pp.attr[i], fp.attr[i], PREC_ATTR_SIZE);
		assert_int_equal(pp.nr_ids[i], fp.nr_ids[i]);
		assert_memory_equal(pp.ids[i], fp.ids[i], 8 * fp.nr_ids[i]);
	}
	assert_true(pp.end_marker);
	/* Every feature perf sends in a pipe has the file's bytes; the
	 * file-only ones (TRACING_DATA, CACHE, ...) are not sent as features. */
	for (int id = 1; id < HEADER_LAST_FEATURE; id++) {
		bool piped = id != HEADER_TRACING_DATA && id != HEADER_BUILD_ID &&
			     id != HEADER_BRANCH_STACK && id != HEADER_AUXTRACE &&
			     id != HEADER_CACHE && id != HEADER_DIR_FORMAT &&
			     id != HEADER_HYBRID_TOPOLOGY && id != HEADER_STAT;

		if (!piped) {
			assert_int_equal(pp.feat_records[id], 0);
			continue;
		}
		assert_int_equal(pp.feat_len[id], fp.feat_len[id]);
		if (fp.feat_len[id])
			assert_memory_equal(pp.feat[id], fp.feat[id], fp.feat_len[id]);
	}
	assert_true(pp.feat_len[HEADER_HOSTNAME] > 0);
	assert_true(pp.feat_len[HEADER_CPU_TOPOLOGY] > 0);
	/* The tracing blob, padded, right after the marker. */
	assert_int_equal(pp.tracing_len, 24);
	assert_memory_equal(pp.tracing, blob, sizeof(blob));
	assert_int_equal(fp.feat_len[HEADER_TRACING_DATA], sizeof(blob));
	parsed_free(&pp);
	parsed_free(&fp);
	free(sb);
	free(fb);
	close(sfd);
	close(ffd);
	sysinfo__exit(&si);
}

/* 3000 events with long names: EVENT_DESC cannot fit one record. */
static void test_event_desc_split(void **state)
{
	enum { N = 3000 };
	struct writer_event *ev = calloc(N, sizeof(*ev));
	char (*names)[64] = calloc(N, 64);
	uint64_t *ids = calloc(N, sizeof(*ids));
	struct writer_meta m;
	struct sysinfo si;
	struct parsed pp;
	struct writer *w;
	uint8_t *sb;
	size_t slen, off;
	uint32_t total = 0;
	int sfd = tmpfd();

	(void)state;
	assert_non_null(ev);
	assert_non_null(names);
	assert_non_null(ids);
	fill(&m, &si);
	for (int i = 0; i < N; i++) {
		snprintf(names[i], 64, "event-with-a-long-name-%d", i);
		ids[i] = (uint64_t)i + 100;
		ev[i] = (struct writer_event){ &attrs[0], names[i], &ids[i], 1 };
	}
	m.events = ev;
	m.nr_events = N;
	assert_int_equal(writer__open_pipe(&w, dup(sfd)), 0);
	assert_int_equal(writer__begin(w, events, 2), 0);
	assert_int_equal(writer__send_features(w, &m), 0);
	assert_int_equal(writer__finish(w, NULL), 0);
	sb = slurp(sfd, &slen);
	parse_stream(sb, slen, &pp);
	assert_true(pp.feat_records[HEADER_EVENT_DESC] > 1);
	/* Each part is a whole EVENT_DESC: {nr, attr_size, events...}; the
	 * counts add up to every event. Parts are walked in the stream. */
	off = 16;
	while (off < slen) {
		struct perf_event_header h;
		uint64_t id;

		memcpy(&h, sb + off, sizeof(h));
		memcpy(&id, sb + off + 8, 8);
		if (h.type == PERF_RECORD_HEADER_FEATURE && id == HEADER_EVENT_DESC) {
			uint32_t nr, asz;

			memcpy(&nr, sb + off + 16, 4);
			memcpy(&asz, sb + off + 20, 4);
			assert_int_equal(asz, PREC_ATTR_SIZE);
			assert_true(nr > 0);
			total += nr;
		}
		off += h.size;
	}
	assert_int_equal(total, N);
	parsed_free(&pp);
	free(sb);
	close(sfd);
	free(ev);
	free(names);
	free(ids);
	sysinfo__exit(&si);
}

/* A command line over 64 KiB: CMDLINE is sent with fewer arguments. */
static void test_cmdline_reduced(void **state)
{
	enum { N = 4000 };
	char **argv = calloc(N + 1, sizeof(*argv));
	char arg[40];
	struct writer_meta m;
	struct sysinfo si;
	struct parsed pp;
	struct writer *w;
	uint8_t *sb;
	size_t slen;
	uint32_t nr;
	int sfd = tmpfd();

	(void)state;
	assert_non_null(argv);
	fill(&m, &si);
	for (int i = 0; i < N; i++) {
		snprintf(arg, sizeof(arg), "argument-%d", i);
		argv[i] = strdup(arg);
	}
	m.argc = N;
	m.argv = argv;
	assert_int_equal(writer__open_pipe(&w, dup(sfd)), 0);
	assert_int_equal(writer__begin(w, events, 2), 0);
	assert_int_equal(writer__send_features(w, &m), 0);
	assert_int_equal(writer__finish(w, NULL), 0);
	sb = slurp(sfd, &slen);
	parse_stream(sb, slen, &pp);
	assert_int_equal(pp.feat_records[HEADER_CMDLINE], 1);
	assert_true(pp.feat_len[HEADER_CMDLINE] <= 0xffff - 16);
	memcpy(&nr, pp.feat[HEADER_CMDLINE], 4);
	assert_true(nr > 1 && nr < N);
	parsed_free(&pp);
	free(sb);
	close(sfd);
	for (int i = 0; i < N; i++)
		free(argv[i]);
	free(argv);
	sysinfo__exit(&si);
}

static void test_buildids_at_end(void **state)
{
	struct writer_buildid b[2] = {
		{ -1, PERF_RECORD_MISC_KERNEL, 20, { 1, 2, 3 }, "[kernel.kallsyms]", NULL },
		{ -1, PERF_RECORD_MISC_USER, 20, { 4, 5, 6 }, "/usr/bin/true", NULL },
	};
	uint64_t rec[3] = { 0 };
	struct perf_event_header *h = (struct perf_event_header *)rec;
	struct writer_meta m;
	struct sysinfo si;
	struct parsed pp;
	struct writer *w;
	uint8_t *sb;
	size_t slen;
	int sfd = tmpfd();

	(void)state;
	fill(&m, &si);
	h->type = PERF_RECORD_FINISHED_ROUND;
	h->size = 8;
	assert_int_equal(writer__open_pipe(&w, dup(sfd)), 0);
	assert_int_equal(writer__begin(w, events, 2), 0);
	assert_int_equal(writer__send_features(w, &m), 0);
	assert_int_equal(writer__write(w, rec, 8), 0);
	m.buildids = b;
	m.nr_buildids = 2;
	assert_int_equal(writer__finish(w, &m), 0);
	sb = slurp(sfd, &slen);
	parse_stream(sb, slen, &pp);
	assert_int_equal(pp.buildids, 2);
	assert_int_equal(pp.other_records, 1);
	/* The last record is a build-id: nothing comes after them. */
	assert_memory_equal(sb + slen - 100 + 8 + 4, b[1].id, 3);
	parsed_free(&pp);
	free(sb);
	close(sfd);
	sysinfo__exit(&si);
}

static void test_closed_fd(void **state)
{
	struct writer *w = (struct writer *)1;
	int fd = tmpfd();

	(void)state;
	close(fd);
	assert_int_equal(writer__open_pipe(&w, fd), -EBADF);
	assert_null(w);
	assert_int_equal(writer__open_pipe(&w, -1), -EINVAL);
}

/* A write to a pipe whose reader is gone fails with -EPIPE, and the
 * writer stays failed; abort leaves nothing to remove. */
static void test_reader_gone(void **state)
{
	static uint8_t big[300 * 1024];
	struct writer_meta m;
	struct sysinfo si;
	struct writer *w;
	int p[2];

	(void)state;
	fill(&m, &si);
	sysinfo__exit(&si);
	assert_int_equal(pipe(p), 0);
	close(p[0]);
	assert_int_equal(writer__open_pipe(&w, p[1]), 0);
	assert_int_equal(writer__begin(w, events, 2), 0);
	assert_int_equal(writer__write(w, big, sizeof(big)), -EPIPE);
	assert_int_equal(writer__write(w, big, 8), -EPIPE);
	writer__abort(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_file),
		cmocka_unit_test(test_event_desc_split),
		cmocka_unit_test(test_cmdline_reduced),
		cmocka_unit_test(test_buildids_at_end),
		cmocka_unit_test(test_closed_fd),
		cmocka_unit_test(test_reader_gone),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
