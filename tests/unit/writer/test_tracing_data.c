// SPDX-License-Identifier: GPL-2.0-only
/*
 * TRACING_DATA: the blob tracing_data__build() makes from the fixture
 * tracefs (tests/fixtures/tracefs, copied from the development VM's
 * /sys/kernel/tracing), byte for byte against an independent builder; the
 * rules perf 6.1 follows for missing files; the feature encoder (the
 * tracefs lookup is test_base_mounts.c's). As root with perf installed, two checks against stock
 * perf: perf script prints the fields of sched_switch samples in a file
 * whose TRACING_DATA we built from the live tracefs, and our blob has the
 * same structure as the one perf record writes for the same event.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/event.h"
#include "prec/perf_file.h"
#include "prec/tracing_data.h"
#include "prec/writer.h"
#include "writer/features.h"
#include "tests/unit/fixture_path.h"

/* Until writer/features.h declares it. */
int feat_tracing_data__write(struct feat_sink *sink, const struct writer_meta *meta);

#define PERF_BIN "/usr/bin/perf"

/* The fixture's ids (events/<sys>/<name>/id). */
#define ID_FUNCTION 1
#define ID_IRQ_HANDLER_ENTRY 225
#define ID_SCHED_SWITCH 372
#define ID_SCHED_WAKEUP 374

static char tracefs_dir[512];
static char proc_dir[512];

/* ---- helpers ---- */

struct tbuf {
	uint8_t *b;
	size_t n;
};

static void tb_put(struct tbuf *t, const void *p, size_t n)
{
	t->b = realloc(t->b, t->n + n + 1);
	assert_non_null(t->b);
	memcpy(t->b + t->n, p, n);
	t->n += n;
}

static void tb_u32(struct tbuf *t, uint32_t v)
{
	tb_put(t, &v, 4);
}

static void tb_u64(struct tbuf *t, uint64_t v)
{
	tb_put(t, &v, 8);
}

static void tb_cstr(struct tbuf *t, const char *s)
{
	tb_put(t, s, strlen(s) + 1);
}

/* The whole file at path (malloc'd, NUL after the end); NULL when missing. */
static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f)
		return NULL;
	for (;;) {
		size_t r;

		if (cap - n < 4096) {
			cap = cap ? cap * 2 : 8192;
			buf = realloc(buf, cap + 1);
			assert_non_null(buf);
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (!r)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* Appends the file root/rel behind a hdr-byte size, as perf's record_file. */
static void tb_file(struct tbuf *t, const char *root, const char *rel, size_t hdr)
{
	char path[1024];
	size_t len;
	uint8_t *data;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	data = slurp(path, &len);
	if (!data)
		fail_msg("fixture %s missing", path);
	if (hdr == 4)
		tb_u32(t, (uint32_t)len);
	else
		tb_u64(t, len);
	tb_put(t, data, len);
	free(data);
}

/* The names of names[] in the directory order of root/rel (perf's order). */
static size_t dir_order(const char *root, const char *rel, const char *const *names, size_t n,
			const char **out)
{
	char path[1024];
	struct dirent *de;
	size_t k = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	d = opendir(path);
	assert_non_null(d);
	while ((de = readdir(d)))
		for (size_t i = 0; i < n; i++)
			if (!strcmp(de->d_name, names[i]))
				out[k++] = names[i];
	closedir(d);
	assert_int_equal(k, n);
	return k;
}

static void tb_preamble(struct tbuf *t)
{
	static const char magic[] = "\027\010Dtracing";
	uint8_t endian = 0, long_size = sizeof(long);

	tb_put(t, magic, 10);
	tb_cstr(t, "0.6");
	tb_put(t, &endian, 1);
	tb_put(t, &long_size, 1);
	tb_u32(t, (uint32_t)sysconf(_SC_PAGESIZE));
}

static void tb_headers(struct tbuf *t, const char *root)
{
	tb_cstr(t, "header_page");
	tb_file(t, root, "events/header_page", 8);
	tb_cstr(t, "header_event");
	tb_file(t, root, "events/header_event", 8);
}

/* kallsyms (never recorded), then printk formats and saved cmdlines. */
static void tb_tail(struct tbuf *t, const char *root)
{
	tb_u32(t, 0);
	tb_file(t, root, "printk_formats", 4);
	tb_file(t, root, "saved_cmdlines", 8);
}

static void assert_blob(const void *blob, size_t len, const struct tbuf *want)
{
	const uint8_t *b = blob;

	for (size_t i = 0; i < len && i < want->n; i++)
		if (b[i] != want->b[i])
			fail_msg("blob differs at byte %zu of %zu: %#x, want %#x", i, len, b[i],
				 want->b[i]);
	assert_int_equal(len, want->n);
}

/* A scratch copy of the fixture tree that a test may break. */
static void scratch_tree(char *dir, size_t size)
{
	char cmd[1200];

	snprintf(dir, size, "/tmp/prec-test-tracefs-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "cp -R '%s/.' '%s/'", tracefs_dir, dir);
	assert_int_equal(system(cmd), 0);
}

static void scratch_remove(const char *dir)
{
	char cmd[600];

	assert_int_equal(strncmp(dir, "/tmp/prec-test-", 15), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void scratch_unlink(const char *dir, const char *rel)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	assert_int_equal(unlink(path), 0);
}

/* ---- the blob from the fixture ---- */

/* Two events of one system: header files, no ftrace event, one system with
 * both formats in directory order, no kallsyms, printk, cmdlines. */
static void test_layout_one_system(void **state)
{
	static const uint64_t ids[] = { ID_SCHED_SWITCH, ID_SCHED_WAKEUP };
	static const char *const names[] = { "sched_switch", "sched_wakeup" };
	const char *order[2];
	struct tbuf want = { 0 };
	char rel[128];
	void *blob;
	size_t len;

	(void)state;
	assert_int_equal(tracing_data__build(tracefs_dir, proc_dir, ids, 2, &blob, &len), 0);
	tb_preamble(&want);
	tb_headers(&want, tracefs_dir);
	tb_u32(&want, 0); /* ftrace: no recorded event is named like one of its */
	tb_u32(&want, 1);
	tb_cstr(&want, "sched");
	tb_u32(&want, 2);
	dir_order(tracefs_dir, "events/sched", names, 2, order);
	for (int i = 0; i < 2; i++) {
		snprintf(rel, sizeof(rel), "events/sched/%s/format", order[i]);
		tb_file(&want, tracefs_dir, rel, 8);
	}
	tb_tail(&want, tracefs_dir);
	assert_blob(blob, len, &want);
	free(blob);
	free(want.b);
}

/* Systems in the directory order of events/, not the order of the ids;
 * a system holds only the recorded events; duplicate ids count once. */
static void test_layout_two_systems(void **state)
{
	static const uint64_t ids[] = { ID_SCHED_SWITCH, ID_IRQ_HANDLER_ENTRY, ID_SCHED_SWITCH };
	static const char *const systems[] = { "sched", "irq" };
	const char *order[2];
	struct tbuf want = { 0 };
	void *blob;
	size_t len;

	(void)state;
	assert_int_equal(tracing_data__build(tracefs_dir, NULL, ids, 3, &blob, &len), 0);
	tb_preamble(&want);
	tb_headers(&want, tracefs_dir);
	tb_u32(&want, 0);
	tb_u32(&want, 2);
	dir_order(tracefs_dir, "events", systems, 2, order);
	for (int i = 0; i < 2; i++) {
		tb_cstr(&want, order[i]);
		tb_u32(&want, 1);
		tb_file(&want, tracefs_dir,
			!strcmp(order[i], "sched") ? "events/sched/sched_switch/format" :
						     "events/irq/irq_handler_entry/format",
			8);
	}
	tb_tail(&want, tracefs_dir);
	assert_blob(blob, len, &want);
	free(blob);
	free(want.b);
}

/* An ftrace event goes into the ftrace list, never into the systems. */
static void test_layout_ftrace_event(void **state)
{
	static const uint64_t ids[] = { ID_FUNCTION };
	struct tbuf want = { 0 };
	void *blob;
	size_t len;

	(void)state;
	assert_int_equal(tracing_data__build(tracefs_dir, proc_dir, ids, 1, &blob, &len), 0);
	tb_preamble(&want);
	tb_headers(&want, tracefs_dir);
	tb_u32(&want, 1);
	tb_file(&want, tracefs_dir, "events/ftrace/function/format", 8);
	tb_u32(&want, 0);
	tb_tail(&want, tracefs_dir);
	assert_blob(blob, len, &want);
	free(blob);
	free(want.b);
}

static void test_bad_arguments(void **state)
{
	static const uint64_t ids[] = { ID_SCHED_SWITCH, 999999 };
	void *blob = (void *)1;
	size_t len = 7;

	(void)state;
	/* An id no tracepoint has: perf gives up on the feature. */
	assert_int_equal(tracing_data__build(tracefs_dir, proc_dir, ids, 2, &blob, &len), -ENOENT);
	assert_null(blob);
	assert_int_equal(len, 0);
	assert_int_equal(tracing_data__build(tracefs_dir, proc_dir, ids, 0, &blob, &len), -ENOENT);
	assert_null(blob);
	assert_int_equal(tracing_data__build(NULL, proc_dir, ids, 1, &blob, &len), -EINVAL);
	assert_int_equal(tracing_data__build(tracefs_dir, proc_dir, NULL, 1, &blob, &len), -EINVAL);
	assert_int_equal(tracing_data__build(tracefs_dir, proc_dir, ids, 1, NULL, &len), -EINVAL);
	assert_int_equal(tracing_data__build("/nonexistent/tracefs", NULL, ids, 1, &blob, &len),
			 -ENOENT);
	assert_null(blob);
}

/* printk_formats and saved_cmdlines missing: zero sizes of their widths. */
static void test_missing_optional_files(void **state)
{
	static const uint64_t ids[] = { ID_SCHED_SWITCH };
	struct tbuf want = { 0 };
	char dir[64];
	void *blob;
	size_t len;

	(void)state;
	scratch_tree(dir, sizeof(dir));
	scratch_unlink(dir, "printk_formats");
	scratch_unlink(dir, "saved_cmdlines");
	assert_int_equal(tracing_data__build(dir, proc_dir, ids, 1, &blob, &len), 0);
	tb_preamble(&want);
	tb_headers(&want, dir);
	tb_u32(&want, 0);
	tb_u32(&want, 1);
	tb_cstr(&want, "sched");
	tb_u32(&want, 1);
	tb_file(&want, dir, "events/sched/sched_switch/format", 8);
	tb_u32(&want, 0); /* kallsyms */
	tb_u32(&want, 0); /* printk_formats */
	tb_u64(&want, 0); /* saved_cmdlines */
	assert_blob(blob, len, &want);
	free(blob);
	free(want.b);
	scratch_remove(dir);
}

/* An event directory without a format is passed over (not counted). */
static void test_event_without_format(void **state)
{
	static const uint64_t ids[] = { ID_SCHED_WAKEUP, ID_SCHED_SWITCH };
	struct tbuf want = { 0 };
	char dir[64];
	void *blob;
	size_t len;

	(void)state;
	scratch_tree(dir, sizeof(dir));
	scratch_unlink(dir, "events/sched/sched_wakeup/format");
	assert_int_equal(tracing_data__build(dir, NULL, ids, 2, &blob, &len), 0);
	tb_preamble(&want);
	tb_headers(&want, dir);
	tb_u32(&want, 0);
	tb_u32(&want, 1);
	tb_cstr(&want, "sched");
	tb_u32(&want, 1);
	tb_file(&want, dir, "events/sched/sched_switch/format", 8);
	tb_tail(&want, dir);
	assert_blob(blob, len, &want);
	free(blob);
	free(want.b);
	scratch_remove(dir);
}

/* The files perf cannot do without: no blob at all, as perf. */
static void test_missing_required_files(void **state)
{
	static const char *const required[] = { "events/header_page", "events/header_event",
						"events/ftrace/function/format",
						"events/ftrace/function/id" };
	static const uint64_t ids[] = { ID_SCHED_SWITCH };
	char dir[64], cmd[200];
	void *blob;
	size_t len;

	(void)state;
	for (int i = 0; i < 2; i++) {
		scratch_tree(dir, sizeof(dir));
		scratch_unlink(dir, required[i]);
		assert_int_equal(tracing_data__build(dir, NULL, ids, 1, &blob, &len), -ENOENT);
		assert_null(blob);
		assert_int_equal(len, 0);
		scratch_remove(dir);
	}
	/* No events/ftrace directory: perf's copy_event_system fails. */
	scratch_tree(dir, sizeof(dir));
	scratch_unlink(dir, required[2]);
	scratch_unlink(dir, required[3]);
	snprintf(cmd, sizeof(cmd), "rmdir '%s/events/ftrace/function' '%s/events/ftrace'", dir,
		 dir);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(tracing_data__build(dir, NULL, ids, 1, &blob, &len), -ENOENT);
	assert_null(blob);
	scratch_remove(dir);
}

/* ---- the feature encoder ---- */

static void test_feature_writer(void **state)
{
	static const uint8_t bytes[] = { 23, 8, 'D', 't', 'r', 'a', 'c', 'i', 'n', 'g', 1, 2, 3 };
	struct writer_meta meta = { 0 };
	struct feat_sink s;

	(void)state;
	feat_sink__init(&s);
	assert_int_equal(feat_tracing_data__write(&s, &meta), -ENOENT);
	meta.tracing_data = bytes;
	assert_int_equal(feat_tracing_data__write(&s, &meta), -ENOENT); /* len 0 */
	assert_int_equal(feat_sink__len(&s), 0);
	meta.tracing_data_len = sizeof(bytes);
	assert_int_equal(feat_tracing_data__write(&s, &meta), 0);
	assert_int_equal(feat_sink__len(&s), sizeof(bytes));
	assert_memory_equal(feat_sink__data(&s), bytes, sizeof(bytes));
	feat_sink__exit(&s);
}

/* ---- against stock perf (root, perf installed) ---- */

static bool live_ok(char *tracefs, size_t len, uint64_t *id)
{
	char path[4200];
	char *text;
	size_t n;

	if (geteuid() != 0 || access(PERF_BIN, X_OK))
		return false;
	if (tracefs__find(tracefs, len))
		return false;
	snprintf(path, sizeof(path), "%s/events/sched/sched_switch/id", tracefs);
	text = (char *)slurp(path, &n);
	if (!text)
		return false;
	*id = strtoull(text, NULL, 10);
	free(text);
	return *id != 0;
}

/* One field of a format file: where it sits in the raw record. */
struct tp_field {
	char name[64];
	unsigned int offset, size;
};

/* Parses the "field:TYPE NAME;\toffset:N;\tsize:N;" lines of a format. */
static size_t parse_format(const char *text, struct tp_field *f, size_t max)
{
	size_t n = 0;

	for (const char *p = strstr(text, "field:"); p && n < max; p = strstr(p + 1, "field:")) {
		const char *semi = strchr(p, ';'), *name = semi, *br;
		size_t nl;

		if (!semi)
			break;
		while (name > p && name[-1] != ' ')
			name--;
		br = memchr(name, '[', (size_t)(semi - name));
		nl = (size_t)((br ? br : semi) - name);
		assert_true(nl < sizeof(f[n].name));
		memcpy(f[n].name, name, nl);
		f[n].name[nl] = '\0';
		assert_int_equal(sscanf(semi, ";\toffset:%u;\tsize:%u;", &f[n].offset, &f[n].size),
				 2);
		n++;
	}
	return n;
}

static void set_field(uint8_t *rec, const struct tp_field *f, size_t nf, const char *name,
		      const void *val, size_t len)
{
	for (size_t i = 0; i < nf; i++) {
		if (strcmp(f[i].name, name))
			continue;
		assert_true(len <= f[i].size);
		memset(rec + f[i].offset, 0, f[i].size);
		memcpy(rec + f[i].offset, val, len);
		return;
	}
	fail_msg("no field %s in sched_switch's format", name);
}

static void set_int(uint8_t *rec, const struct tp_field *f, size_t nf, const char *name, int64_t v)
{
	for (size_t i = 0; i < nf; i++) {
		if (!strcmp(f[i].name, name)) {
			/* little or big endian alike: the low bytes of v */
			uint8_t b[8];
			int64_t x = v;

			assert_true(f[i].size <= 8);
			if (f[i].size == 1) {
				int8_t y = (int8_t)x;
				memcpy(b, &y, 1);
			} else if (f[i].size == 2) {
				int16_t y = (int16_t)x;
				memcpy(b, &y, 2);
			} else if (f[i].size == 4) {
				int32_t y = (int32_t)x;
				memcpy(b, &y, 4);
			} else {
				memcpy(b, &x, 8);
			}
			memcpy(rec + f[i].offset, b, f[i].size);
			return;
		}
	}
	fail_msg("no field %s in sched_switch's format", name);
}

/* A PERF_RECORD_SAMPLE of IP|TID|TIME|CPU|PERIOD|RAW holding a sched_switch
 * record built from the live format. Returns its size. */
static size_t make_sample(uint8_t *out, size_t cap, const struct tp_field *f, size_t nf,
			  uint64_t id, uint32_t pid, uint64_t time, uint32_t cpu, const char *prev,
			  const char *next, uint32_t next_pid)
{
	uint8_t rec[512] = { 0 };
	unsigned int rec_len = 0;
	uint32_t raw_size;
	size_t n = 0;

	for (size_t i = 0; i < nf; i++)
		if (f[i].offset + f[i].size > rec_len)
			rec_len = f[i].offset + f[i].size;
	assert_true(rec_len <= sizeof(rec));
	set_int(rec, f, nf, "common_type", (int64_t)id);
	set_int(rec, f, nf, "common_pid", pid);
	set_field(rec, f, nf, "prev_comm", prev, strlen(prev));
	set_int(rec, f, nf, "prev_pid", pid);
	set_int(rec, f, nf, "prev_prio", 120);
	set_int(rec, f, nf, "prev_state", 1); /* S */
	set_field(rec, f, nf, "next_comm", next, strlen(next));
	set_int(rec, f, nf, "next_pid", next_pid);
	set_int(rec, f, nf, "next_prio", 120);
	/* The kernel pads the raw data so that u32 size + data is u64 aligned. */
	raw_size = ((rec_len + 4 + 7) & ~7u) - 4;

	struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, 0 };
	uint64_t ip = 0xffffffff81000000ULL, period = 1;
	uint32_t pidtid[2] = { pid, pid }, cpures[2] = { cpu, 0 };

	h.size = (uint16_t)(sizeof(h) + 8 + 8 + 8 + 8 + 8 + 4 + raw_size);
	assert_true(h.size <= cap);
	memcpy(out + n, &h, sizeof(h)), n += sizeof(h);
	memcpy(out + n, &ip, 8), n += 8;
	memcpy(out + n, pidtid, 8), n += 8;
	memcpy(out + n, &time, 8), n += 8;
	memcpy(out + n, cpures, 8), n += 8;
	memcpy(out + n, &period, 8), n += 8;
	memcpy(out + n, &raw_size, 4), n += 4;
	memset(out + n, 0, raw_size);
	memcpy(out + n, rec, rec_len), n += raw_size;
	assert_int_equal(n, h.size);
	return n;
}

/* Runs cmd; returns its stdout and stderr together (malloc'd). */
static char *run(const char *cmd)
{
	char *out = calloc(1, 1 << 20);
	size_t len;
	FILE *p;

	assert_non_null(out);
	p = popen(cmd, "r");
	assert_non_null(p);
	len = fread(out, 1, (1 << 20) - 1, p);
	out[len] = '\0';
	pclose(p);
	return out;
}

static void test_perf_script_prints_fields(void **state)
{
	char tracefs[4096], fmt_path[4200], dir[64], path[128], cmd[400];
	struct tp_field fields[32];
	struct perf_event_attr attr = { 0 };
	struct writer_meta meta = { 0 };
	struct writer_event ev;
	struct writer *w;
	uint8_t rec[1024];
	uint64_t id, sid = 1;
	size_t nf, n, len;
	void *blob;
	char *fmt, *out;

	(void)state;
	if (!live_ok(tracefs, sizeof(tracefs), &id))
		skip();
	if (!feat_ops[HEADER_TRACING_DATA].write) {
		print_message("TRACING_DATA is not in writer/features.c's table yet\n");
		skip();
	}
	snprintf(fmt_path, sizeof(fmt_path), "%s/events/sched/sched_switch/format", tracefs);
	fmt = (char *)slurp(fmt_path, &n);
	assert_non_null(fmt);
	nf = parse_format(fmt, fields, 32);
	free(fmt);
	assert_true(nf >= 11);

	assert_int_equal(tracing_data__build(tracefs, "/proc", &id, 1, &blob, &len), 0);

	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = id;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			   PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW;
	ev.attr = &attr;
	ev.name = "sched:sched_switch";
	ev.ids = &sid;
	ev.nr_ids = 1;

	strcpy(dir, "/tmp/prec-test-tracing-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	assert_int_equal(writer__open(&w, path), 0);
	assert_int_equal(writer__begin(w, &ev, 1), 0);
	n = make_sample(rec, sizeof(rec), fields, nf, id, 4242, 1000000000ULL, 1, "prec-worker",
			"swapper/1", 0);
	assert_int_equal(writer__write(w, rec, n), 0);
	n = make_sample(rec, sizeof(rec), fields, nf, id, 4243, 1000500000ULL, 0, "kworker/0:1",
			"prec-worker", 4242);
	assert_int_equal(writer__write(w, rec, n), 0);
	meta.tracing_data = blob;
	meta.tracing_data_len = len;
	meta.first_sample_time = 1000000000ULL;
	meta.last_sample_time = 1000500000ULL;
	assert_int_equal(writer__finish(w, &meta), 0);
	free(blob);

	snprintf(cmd, sizeof(cmd), PERF_BIN " script -i '%s' 2>&1", path);
	out = run(cmd);
	if (!strstr(out, "prev_comm=prec-worker prev_pid=4242 prev_prio=120 prev_state=S ==> "
			 "next_comm=swapper/1 next_pid=0 next_prio=120") ||
	    !strstr(out, "prev_comm=kworker/0:1 prev_pid=4243 prev_prio=120 prev_state=S ==> "
			 "next_comm=prec-worker next_pid=4242 next_prio=120") ||
	    strstr(out, "unknown") || strstr(out, "Error") || strstr(out, "FAILED"))
		fail_msg("perf script:\n%s", out);
	free(out);
	unlink(path);
	rmdir(dir);
}

/* Walks a blob's structure; fills what test_same_structure_as_perf compares. */
struct blob_shape {
	uint8_t preamble[20];
	const uint8_t *header_page, *header_event;
	uint64_t header_page_len, header_event_len;
	uint32_t nr_ftrace, nr_systems;
	char systems[8][64];
	uint32_t nr_formats[8];
	const uint8_t *formats[8][8];
	uint64_t format_len[8][8];
	uint32_t kallsyms_len, printk_len;
	const uint8_t *printk;
	uint64_t cmdlines_len;
};

static void shape(const uint8_t *b, size_t len, struct blob_shape *s)
{
	size_t p = 20;

#define NEED(n) assert_true(p + (n) <= len)
	memset(s, 0, sizeof(*s));
	NEED(20);
	memcpy(s->preamble, b, 20);
	for (int i = 0; i < 2; i++) {
		const char *name = (const char *)b + p;
		uint64_t sz;

		p += strnlen(name, len - p) + 1;
		NEED(8);
		memcpy(&sz, b + p, 8);
		p += 8;
		NEED(sz);
		if (!strcmp(name, "header_page"))
			s->header_page = b + p, s->header_page_len = sz;
		else
			s->header_event = b + p, s->header_event_len = sz;
		p += sz;
	}
	NEED(4);
	memcpy(&s->nr_ftrace, b + p, 4);
	p += 4;
	for (uint32_t i = 0; i < s->nr_ftrace; i++) {
		uint64_t sz;

		NEED(8);
		memcpy(&sz, b + p, 8);
		p += 8 + sz;
	}
	NEED(4);
	memcpy(&s->nr_systems, b + p, 4);
	p += 4;
	assert_true(s->nr_systems <= 8);
	for (uint32_t i = 0; i < s->nr_systems; i++) {
		size_t nl = strnlen((const char *)b + p, len - p);

		assert_true(nl < 64);
		memcpy(s->systems[i], b + p, nl + 1);
		p += nl + 1;
		NEED(4);
		memcpy(&s->nr_formats[i], b + p, 4);
		p += 4;
		assert_true(s->nr_formats[i] <= 8);
		for (uint32_t j = 0; j < s->nr_formats[i]; j++) {
			NEED(8);
			memcpy(&s->format_len[i][j], b + p, 8);
			p += 8;
			NEED(s->format_len[i][j]);
			s->formats[i][j] = b + p;
			p += s->format_len[i][j];
		}
	}
	NEED(4);
	memcpy(&s->kallsyms_len, b + p, 4);
	p += 4 + s->kallsyms_len;
	NEED(4);
	memcpy(&s->printk_len, b + p, 4);
	p += 4;
	NEED(s->printk_len);
	s->printk = b + p;
	p += s->printk_len;
	NEED(8);
	memcpy(&s->cmdlines_len, b + p, 8);
	p += 8;
	assert_int_equal(p + s->cmdlines_len, len);
#undef NEED
}

/* The TRACING_DATA section of a perf.data (malloc'd copy), or NULL. */
static uint8_t *tracing_section(const char *path, size_t *n)
{
	struct perf_file_header h;
	struct perf_file_section sec;
	size_t len;
	uint8_t *f = slurp(path, &len), *out;

	assert_non_null(f);
	assert_true(len >= sizeof(h));
	memcpy(&h, f, sizeof(h));
	if (!(h.adds_features[0] & (1ULL << HEADER_TRACING_DATA))) {
		free(f);
		return NULL;
	}
	/* TRACING_DATA is bit 1: the first section unless nothing precedes it */
	memcpy(&sec, f + h.data.offset + h.data.size, sizeof(sec));
	assert_true(sec.offset + sec.size <= len);
	out = malloc(sec.size + 1);
	assert_non_null(out);
	memcpy(out, f + sec.offset, sec.size);
	*n = sec.size;
	free(f);
	return out;
}

static void test_same_structure_as_perf(void **state)
{
	char tracefs[4096], dir[64], path[128], cmd[400];
	struct blob_shape ours, theirs;
	uint64_t id;
	uint8_t *perf_blob;
	size_t len, perf_len = 0;
	void *blob;
	char *out;

	(void)state;
	if (!live_ok(tracefs, sizeof(tracefs), &id))
		skip();
	strcpy(dir, "/tmp/prec-test-tracing-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	snprintf(cmd, sizeof(cmd),
		 PERF_BIN " record -q -e sched:sched_switch -a -o '%s' -- sleep 0.05 2>&1", path);
	out = run(cmd);
	perf_blob = tracing_section(path, &perf_len);
	if (!perf_blob)
		fail_msg("perf record wrote no TRACING_DATA:\n%s", out);
	free(out);
	assert_int_equal(tracing_data__build(tracefs, "/proc", &id, 1, &blob, &len), 0);

	shape(perf_blob, perf_len, &theirs);
	shape(blob, len, &ours);
	assert_memory_equal(ours.preamble, theirs.preamble, 20);
	assert_int_equal(ours.header_page_len, theirs.header_page_len);
	assert_memory_equal(ours.header_page, theirs.header_page, ours.header_page_len);
	assert_int_equal(ours.header_event_len, theirs.header_event_len);
	assert_memory_equal(ours.header_event, theirs.header_event, ours.header_event_len);
	assert_int_equal(ours.nr_ftrace, theirs.nr_ftrace);
	assert_int_equal(ours.nr_systems, theirs.nr_systems);
	for (uint32_t i = 0; i < ours.nr_systems; i++) {
		assert_string_equal(ours.systems[i], theirs.systems[i]);
		assert_int_equal(ours.nr_formats[i], theirs.nr_formats[i]);
		for (uint32_t j = 0; j < ours.nr_formats[i]; j++) {
			assert_int_equal(ours.format_len[i][j], theirs.format_len[i][j]);
			assert_memory_equal(ours.formats[i][j], theirs.formats[i][j],
					    ours.format_len[i][j]);
		}
	}
	assert_int_equal(ours.kallsyms_len, theirs.kallsyms_len);
	assert_int_equal(ours.printk_len, theirs.printk_len);
	assert_memory_equal(ours.printk, theirs.printk, ours.printk_len);
	/* saved_cmdlines changes as tasks come and go: only its place is compared */
	free(blob);
	free(perf_blob);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	fixture_path(tracefs_dir, sizeof(tracefs_dir), "tracefs");
	fixture_path(proc_dir, sizeof(proc_dir), "proc/tracing");

	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_one_system),
		cmocka_unit_test(test_layout_two_systems),
		cmocka_unit_test(test_layout_ftrace_event),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_missing_optional_files),
		cmocka_unit_test(test_event_without_format),
		cmocka_unit_test(test_missing_required_files),
		cmocka_unit_test(test_feature_writer),
		cmocka_unit_test(test_perf_script_prints_fields),
		cmocka_unit_test(test_same_structure_as_perf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
