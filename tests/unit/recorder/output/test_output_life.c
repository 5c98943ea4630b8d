// SPDX-License-Identifier: GPL-2.0-only
/*
 * The output's whole life over the drain tests' fixture ring (ring_fixture.h):
 * output__open -> output__begin -> the engine's passes -> a rotation asked
 * for as SIGUSR2 asks (take_switch) -> the tail -> output__finish, to files
 * in a temp dir, with the machine's facts from a fixture sysroot. Each file
 * is then read back: a perf.data header (magic, one attr, a data section
 * that is exactly its records, feature bits), the fixture's records in it
 * in ring order followed by FINISHED_ROUND, and --switch-output's
 * timestamped names. With --threads, the directory's stream files made as
 * the output begins, before any drain is attached.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/clock.h"
#include "prec/perf_file.h"
#include "prec/sysinfo.h"
#include "prec/writer.h"
#include "recorder/drain/drain.h"
#include "recorder/drain/streams.h"
#include "recorder/drain/threads.h"
#include "recorder/evlist/evlist.h"
#include "recorder/evlist/evsel.h"
#include "recorder/output/output.h"
#include "recorder/output/output_config.h"
#include "recorder/synth/synth_config.h"
#include "recorder/targets/cpu_map.h"
#include "recorder/targets/thread_map.h"
#include "tests/unit/fixture_path.h"
/* The fixture's records to publish are its struct stream, not the engine's. */
#define stream fx_records
#include "../drain/ring_fixture.h"
#undef stream

/* How many times the output asked whether to rotate; it rotates at the first. */
static int switch_asks;

static bool take_switch(void)
{
	return ++switch_asks == 1;
}

struct rig {
	struct fixture *f;
	struct output_config cfg;
	struct synth_config synth;
	struct sysinfo si;
	struct clock_ref clk;
	struct evsel ev;
	int fd[1]; /* the event's, as if opened on CPU 0 */
	uint64_t id[1]; /* and its id */
	struct evlist evlist;
	struct output o;
	struct threads_masks m;
	struct streams ss;
	char *argv[2];
};

static int setup(void **state)
{
	struct rig *r = calloc(1, sizeof(*r));
	char root[PATH_MAX];
	void *fs;

	if (!r || fixture_setup(&fs))
		return -1;
	r->f = fs;
	fixture_path(root, sizeof(root), "sysinfo/vm");
	if (sysinfo__read(&r->si, root))
		return -1;
	r->ev.attr.type = PERF_TYPE_SOFTWARE;
	r->ev.attr.size = sizeof(r->ev.attr);
	r->ev.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				 PERF_SAMPLE_PERIOD;
	r->ev.name = (char *)"cpu-clock";
	/* One event as if opened on CPU 0 for any thread: /dev/null stands
	 * for its fd, which the output only counts. */
	r->fd[0] = open("/dev/null", O_RDONLY);
	r->id[0] = 42;
	r->ev.fd = r->fd;
	r->ev.id = r->id;
	r->ev.nr_cpus = 1;
	r->ev.nr_threads = 1;
	if (r->fd[0] < 0)
		return -1;
	r->evlist.evsel = &r->ev;
	r->evlist.nr = 1;
	r->evlist.workload_only = true; /* no task of /proc in the side-band */
	r->evlist.threads = thread_map__new_one(getpid());
	if (!r->evlist.threads || cpu_map__parse(&r->evlist.cpus, "0"))
		return -1;
	/* The files this test reads: rotated with timestamped names, no
	 * build-id cache or names layer writing outside the temp dir. */
	r->cfg = (struct output_config){ .path = r->f->path,
					 .switch_output = true,
					 .timestamp_filename = true,
					 .no_buildid_cache = true };
	r->synth = (struct synth_config){ .no_bpf_event = true };
	r->argv[0] = "prec";
	switch_asks = 0;
	*state = r;
	return 0;
}

static int teardown(void **state)
{
	struct rig *r = *state;
	void *fs = r->f;

	streams__exit(&r->ss);
	threads_masks__exit(&r->m);
	output__exit(&r->o);
	close(r->fd[0]);
	thread_map__delete(r->evlist.threads);
	cpu_map__delete(r->evlist.cpus);
	sysinfo__exit(&r->si);
	fixture_teardown(&fs);
	free(r);
	return 0;
}

/* The output opened and begun from what record.c gives it; stream_files:
 * --threads' directory. */
static void output_open(struct rig *r, bool stream_files)
{
	struct output_src src = { .cfg = &r->cfg,
				  .synth = &r->synth,
				  .evlist = &r->evlist,
				  .si = &r->si,
				  .clk = &r->clk,
				  .argc = 1,
				  .argv = r->argv,
				  .pid = -1,
				  .take_switch = take_switch,
				  .stream_files = stream_files };

	assert_int_equal(output__open(&r->o, &src), 0);
	assert_int_equal(output__begin(&r->o, NULL), 0);
}

/* The output of one file, begun, and one stream over the fixture's ring
 * configured and attached by it. */
static void output_start(struct rig *r)
{
	struct drain_config c = { .time_off = TIME_OFF };

	output_open(r, false);
	assert_int_equal(output__begin_streams(&r->o, 1), 0);
	output__drain_config(&r->o, &c);
	assert_int_equal(threads_masks__one(&r->m), 0);
	assert_int_equal(streams__init(&r->ss, &r->m, &r->f->ring, 1, NULL, 0, &c, false), 0);
	assert_int_equal(output__attach_streams(&r->o, &r->ss), 0);
}

static bool stop_count(void *arg)
{
	int *n = arg;

	return ++*n >= 2;
}

/* The whole of the file at path. */
static uint8_t *slurp(const char *path, size_t *len)
{
	struct stat st;
	uint8_t *b;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	b = malloc((size_t)st.st_size);
	assert_non_null(b);
	assert_int_equal(pread(fd, b, (size_t)st.st_size, 0), st.st_size);
	close(fd);
	*len = (size_t)st.st_size;
	return b;
}

/* The file at path is a perf.data file of one event whose data section is
 * exactly whole records, s's among them in ring order and then a
 * FINISHED_ROUND. */
static void check_file(const char *path, const struct fx_records *s)
{
	struct perf_file_header h;
	size_t len, at, found = SIZE_MAX;
	uint8_t *b = slurp(path, &len);
	uint64_t feats = 0;

	assert_true(len >= sizeof(h));
	memcpy(&h, b, sizeof(h));
	assert_true(h.magic == PERF_MAGIC2);
	assert_int_equal(h.size, sizeof(h));
	assert_int_equal(h.attr_size, sizeof(struct perf_file_attr));
	assert_int_equal(h.attrs.size, h.attr_size); /* one event */
	assert_true(h.data.size >= s->n + sizeof(struct perf_event_header));
	assert_true(h.data.offset + h.data.size <= len);
	for (int i = 0; i < HEADER_FEAT_BITS / 64; i++)
		feats |= h.adds_features[i];
	assert_true(feats != 0);
	assert_true(h.adds_features[HEADER_CMDLINE / 64] & (1ULL << (HEADER_CMDLINE % 64)));
	/* Whole records to the end of the section; s's bytes start one. */
	for (at = 0; at < h.data.size;) {
		struct perf_event_header eh;

		assert_true(at + sizeof(eh) <= h.data.size);
		memcpy(&eh, b + h.data.offset + at, sizeof(eh));
		assert_true(eh.size >= sizeof(eh));
		if (found == SIZE_MAX && at + s->n <= h.data.size &&
		    !memcmp(b + h.data.offset + at, s->b, s->n))
			found = at;
		at += eh.size;
	}
	assert_int_equal(at, h.data.size);
	assert_true(found != SIZE_MAX);
	/* FINISHED_ROUND right after them: the pass that wrote them ended. */
	assert_true(found + s->n + sizeof(struct perf_event_header) <= h.data.size);
	{
		struct perf_event_header eh;

		memcpy(&eh, b + h.data.offset + found + s->n, sizeof(eh));
		assert_int_equal(eh.type, PERF_RECORD_FINISHED_ROUND);
		assert_int_equal(eh.size, sizeof(eh));
	}
	free(b);
}

/* The names in dir, sorted (rotated files sort by their timestamps). */
static int list_dir(const char *dir, char names[][256], int max)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort), nr = 0;

	assert_true(n >= 0);
	for (int i = 0; i < n; i++) {
		if (ents[i]->d_name[0] != '.' && nr < max)
			snprintf(names[nr++], 256, "%s", ents[i]->d_name);
		free(ents[i]);
	}
	free(ents);
	return nr;
}

/* "perf.data." and perf's timestamp: YYYYmmddHHMMSS and hundredths. */
static void check_rotated_name(const char *name)
{
	const char *ts = name + strlen("perf.data.");

	assert_int_equal(strncmp(name, "perf.data.", strlen("perf.data.")), 0);
	assert_int_equal(strlen(ts), 16);
	assert_int_equal(strspn(ts, "0123456789"), 16);
	assert_int_equal(strncmp(ts, "20", 2), 0);
}

/* One rotation by request, the tail into the second file, the end: two
 * files, each whole and named with its timestamp, each with its records. */
static void test_rotate_and_finish(void **state)
{
	struct rig *r = *state;
	struct fx_records first, second;
	char names[4][256], path[PATH_MAX + 256];
	sigset_t mask;
	int stops = 0;

	sigemptyset(&mask);
	output_start(r);
	std_stream(&first);
	publish(r->f, TAIL, &first);
	assert_int_equal(streams__run(&r->ss, stop_count, &stops, &mask), 0);
	/* The first pass wrote the records, then its step rotated. */
	assert_true(switch_asks >= 1);
	assert_int_equal(r->o.rot.rotations, 1);
	assert_int_equal(r->o.total.samples, 3);
	assert_int_equal(r->o.file.samples, 0);
	/* The second file's records: the same, a ring later. */
	std_stream(&second);
	publish(r->f, TAIL + first.n, &second);
	assert_int_equal(streams__tail(&r->ss, NULL, NULL), 1);
	assert_int_equal(r->o.file.samples, 3);
	assert_int_equal(output__end_stream(&r->o, 0, &r->ss.s[0].d.stats), 0);
	assert_int_equal(output__finish(&r->o), 0);

	assert_int_equal(list_dir(r->f->dir, names, 4), 2);
	check_rotated_name(names[0]);
	check_rotated_name(names[1]);
	assert_true(strcmp(names[0], names[1]) < 0);
	snprintf(path, sizeof(path), "%s/%s", r->f->dir, names[0]);
	check_file(path, &first);
	snprintf(path, sizeof(path), "%s/%s", r->f->dir, names[1]);
	check_file(path, &second);
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", r->f->dir, names[i]);
		unlink(path);
	}
}

/* Whether path exists. */
static bool exists(const char *dir, const char *name)
{
	char path[PATH_MAX + 64];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !stat(path, &st);
}

/* --threads: the directory's stream files are made, and the data file's
 * features written, as the output begins (output__begin_streams), before
 * any drain is attached; attaching then only wires streams to those files
 * and refuses an engine of another size. A recording that never began
 * leaves no directory. */
static void test_stream_files_at_begin(void **state)
{
	struct rig *r = *state;
	struct perf_file_header h;
	struct drain_config c = { .time_off = TIME_OFF };
	char data[PATH_MAX + 8];
	int fd;

	r->cfg.switch_output = r->cfg.timestamp_filename = false;
	output_open(r, true);
	assert_false(exists(r->f->path, "data.0"));
	assert_int_equal(output__begin_streams(&r->o, 2), 0);
	assert_true(exists(r->f->path, "data.0"));
	assert_true(exists(r->f->path, "data.1"));
	assert_false(exists(r->f->path, "data.2"));
	snprintf(data, sizeof(data), "%s/data", r->f->path);
	fd = open(data, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &h, sizeof(h), 0), sizeof(h));
	close(fd);
	assert_true(h.magic == PERF_MAGIC2);
	assert_true(h.adds_features[HEADER_DIR_FORMAT / 64] & (1ULL << (HEADER_DIR_FORMAT % 64)));
	/* One stream for two files: refused, nothing attached. */
	output__drain_config(&r->o, &c);
	assert_null(c.writer);
	assert_int_equal(threads_masks__one(&r->m), 0);
	assert_int_equal(streams__init(&r->ss, &r->m, &r->f->ring, 1, NULL, 0, &c, false), 0);
	assert_int_equal(output__attach_streams(&r->o, &r->ss), -EINVAL);
	output__discard(&r->o);
	assert_false(exists(r->f->dir, "perf.data"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rotate_and_finish, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_files_at_begin, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
