// SPDX-License-Identifier: GPL-2.0-only
/*
 * The writer end to end: a complete perf.data written to a temp dir, parsed
 * back here with an independent reader (not the writer's own structs'
 * helpers), and, when stock perf is installed, read by perf itself.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/event.h"
#include "prec/perf_file.h"
#include "prec/sysinfo.h"
#include "prec/writer.h"

#define PERF_BIN "/usr/bin/perf"

struct tdir {
	char dir[64];
	char path[128];
};

static int tdir_setup(void **state)
{
	struct tdir *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	strcpy(t->dir, "/tmp/prec-test-writer-XXXXXX");
	if (!mkdtemp(t->dir)) {
		free(t);
		return -1;
	}
	snprintf(t->path, sizeof(t->path), "%s/perf.data", t->dir);
	*state = t;
	return 0;
}

static int tdir_teardown(void **state)
{
	struct tdir *t = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->dir);
	if (system(cmd) != 0)
		return -1;
	free(t);
	return 0;
}

/* ---- an independent byte builder for the expected bytes ---- */

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

static void tb_str(struct tbuf *t, const char *s)
{
	uint32_t len = (uint32_t)(((strlen(s) + 1) + 63) / 64 * 64);
	uint8_t zero[64] = { 0 };
	size_t left = len;

	tb_u32(t, len);
	tb_put(t, s, strlen(s));
	left -= strlen(s);
	while (left) {
		size_t n = left < 64 ? left : 64;

		tb_put(t, zero, n);
		left -= n;
	}
}

/* ---- the recording we write ---- */

static const uint64_t ids_cpu[] = { 12, 13 };
static const uint64_t ids_task[] = { 14, 15 };

/* As perf 6.1 sets up `-e cpu-clock,task-clock` for a workload. */
static void fill_attr(struct perf_event_attr *a, uint64_t config, int tracking)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_SOFTWARE;
	a->size = sizeof(*a);
	a->config = config;
	a->sample_freq = 4000;
	a->freq = 1;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			 PERF_SAMPLE_PERIOD;
	a->read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	a->disabled = 1;
	a->inherit = 1;
	a->enable_on_exec = 1;
	a->sample_id_all = 1;
	a->exclude_guest = 1;
	if (tracking) {
		a->mmap = 1;
		a->comm = 1;
		a->task = 1;
		a->mmap2 = 1;
		a->comm_exec = 1;
		a->ksymbol = 1;
		a->bpf_event = 1;
	}
}

static struct perf_event_attr attr_cpu, attr_task;
static struct writer_event events[2];

static void fill_events(void)
{
	fill_attr(&attr_cpu, PERF_COUNT_SW_CPU_CLOCK, 1);
	fill_attr(&attr_task, PERF_COUNT_SW_TASK_CLOCK, 0);
	events[0] = (struct writer_event){ &attr_cpu, "cpu-clock", ids_cpu, 2 };
	events[1] = (struct writer_event){ &attr_task, "task-clock", ids_task, 2 };
}

static void fill_sysinfo(struct sysinfo *si, uint32_t avail, uint32_t online)
{
	memset(si, 0, sizeof(*si));
	strcpy(si->hostname, "prec-test-host");
	strcpy(si->osrelease, "6.1.0-prec-test");
	strcpy(si->arch, "x86_64");
	si->nr_cpus_avail = avail;
	si->nr_cpus_online = online;
	si->cpudesc = (char *)"Intel(R) Xeon(R) Processor";
	si->cpuid = (char *)"GenuineIntel,6,167,1";
	si->total_mem_kb = 24684084;
}

static char *test_argv[] = { "prec", "record", "-o", "perf.data", "--", "sleep", "1", NULL };

static void fill_meta(struct writer_meta *m, const struct sysinfo *si)
{
	memset(m, 0, sizeof(*m));
	m->si = si;
	m->events = events;
	m->nr_events = 2;
	m->exe = "/usr/local/bin/prec";
	m->argc = 7;
	m->argv = test_argv;
	m->version = "0.1.0";
	m->first_sample_time = 1000000000ULL;
	m->last_sample_time = 1500000000ULL;
}

/* A PERF_RECORD_COMM with the sample_id trailer {pid,tid, time, id} that
 * sample_id_all adds for this sample_type. comm must fit 16 bytes. */
static void comm_record(struct tbuf *t, uint32_t pid, const char *comm, uint64_t time)
{
	struct perf_event_header h = { PERF_RECORD_COMM, 0, 8 + 8 + 16 + 24 };
	char name[16] = { 0 };

	strncpy(name, comm, sizeof(name) - 1);
	tb_put(t, &h, sizeof(h));
	tb_u32(t, pid);
	tb_u32(t, pid);
	tb_put(t, name, sizeof(name));
	tb_u32(t, pid);
	tb_u32(t, pid);
	tb_u64(t, time);
	tb_u64(t, ids_cpu[0]);
}

static void round_record(struct tbuf *t)
{
	struct perf_event_header h = { PERF_RECORD_FINISHED_ROUND, 0, 8 };

	tb_put(t, &h, sizeof(h));
}

/* Writes the records through every path (write, one- and two-span writev);
 * returns the bytes perf should find in the data section. */
static struct tbuf write_records(struct writer *w)
{
	struct tbuf data = { 0 }, r1 = { 0 }, r2 = { 0 }, fin = { 0 };
	struct iovec iov[2];

	comm_record(&r1, 4242, "workload", 1000000000ULL);
	comm_record(&r2, 4243, "sleep", 1200000000ULL);
	round_record(&fin);

	assert_int_equal(writer__write(w, r1.b, r1.n), 0);
	iov[0] = (struct iovec){ fin.b, fin.n };
	assert_int_equal(writer__writev(w, iov, 1), 0);
	/* A record wrapped at the end of a ring: two spans. */
	iov[0] = (struct iovec){ r2.b, 20 };
	iov[1] = (struct iovec){ r2.b + 20, r2.n - 20 };
	assert_int_equal(writer__writev(w, iov, 2), 0);
	assert_int_equal(writer__write(w, fin.b, fin.n), 0);

	tb_put(&data, r1.b, r1.n);
	tb_put(&data, fin.b, fin.n);
	tb_put(&data, r2.b, r2.n);
	tb_put(&data, fin.b, fin.n);
	assert_int_equal(writer__data_size(w), data.n);
	free(r1.b);
	free(r2.b);
	free(fin.b);
	return data;
}

static uint8_t *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t n = 0;
	long end;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	end = ftell(f);
	assert_true(end >= 0);
	rewind(f);
	buf = malloc((size_t)end + 1);
	assert_non_null(buf);
	n = fread(buf, 1, (size_t)end, f);
	assert_int_equal(n, (size_t)end);
	fclose(f);
	*len = n;
	return buf;
}

/* Each feature this meta should produce, as perf 6.1 would write it. */
static struct tbuf expected_feature(int id, const struct writer_meta *m)
{
	struct tbuf t = { 0 };
	const struct sysinfo *si = m->si;

	switch (id) {
	case HEADER_HOSTNAME:
		tb_str(&t, si ? si->hostname : "");
		break;
	case HEADER_OSRELEASE:
		tb_str(&t, si->osrelease);
		break;
	case HEADER_VERSION:
		tb_str(&t, m->version);
		break;
	case HEADER_ARCH:
		tb_str(&t, si->arch);
		break;
	case HEADER_NRCPUS:
		tb_u32(&t, si->nr_cpus_avail);
		tb_u32(&t, si->nr_cpus_online);
		break;
	case HEADER_CPUDESC:
		tb_str(&t, si->cpudesc);
		break;
	case HEADER_CPUID:
		tb_str(&t, si->cpuid);
		break;
	case HEADER_TOTAL_MEM:
		tb_u64(&t, si->total_mem_kb);
		break;
	case HEADER_CMDLINE:
		tb_u32(&t, (uint32_t)m->argc);
		tb_str(&t, m->exe);
		for (int i = 1; i < m->argc; i++)
			tb_str(&t, m->argv[i]);
		break;
	case HEADER_EVENT_DESC:
		tb_u32(&t, m->nr_events);
		tb_u32(&t, 128);
		for (uint32_t i = 0; i < m->nr_events; i++) {
			struct perf_event_attr a = *m->events[i].attr;

			a.size = 128;
			tb_put(&t, &a, 128);
			tb_u32(&t, m->events[i].nr_ids);
			tb_str(&t, m->events[i].name);
			tb_put(&t, m->events[i].ids, m->events[i].nr_ids * 8);
		}
		break;
	case HEADER_SAMPLE_TIME:
		tb_u64(&t, m->first_sample_time);
		tb_u64(&t, m->last_sample_time);
		break;
	case HEADER_BPF_PROG_INFO:
	case HEADER_BPF_BTF:
	case HEADER_PMU_MAPPINGS:
	case HEADER_PMU_CAPS:
		/* Written as perf does even when empty: a count of 0 (the hand-made
		 * sysinfo here has no BPF programs, no PMU, no PMU with caps). */
		tb_u32(&t, 0);
		break;
	default:
		fail_msg("unexpected feature %d", id);
	}
	return t;
}

/*
 * Checks the whole file against what perf 6.1 writes: header, ids, attrs,
 * data bytes, then the feature table (bits in order, no gaps, no slack) and
 * each payload. nr_events/events as given to writer__begin.
 */
static void check_file(const char *path, const struct tbuf *data, const struct writer_meta *m,
		       uint64_t want_bits)
{
	struct perf_file_header h;
	uint64_t ids_total = 0, off, sec_off, end;
	size_t len;
	uint8_t *f = read_all(path, &len);
	int nr = 0;

	assert_true(len >= sizeof(h));
	memcpy(&h, f, sizeof(h));
	assert_memory_equal(f, "PERFILE2", 8);
	assert_int_equal(h.size, 104);
	assert_int_equal(h.attr_size, 144);
	for (uint32_t i = 0; i < m->nr_events; i++)
		ids_total += m->events[i].nr_ids;
	assert_int_equal(h.attrs.offset, 104 + 8 * ids_total);
	assert_int_equal(h.attrs.size, 144 * m->nr_events);
	assert_int_equal(h.data.offset, h.attrs.offset + h.attrs.size);
	assert_int_equal(h.data.size, data->n);
	assert_int_equal(h.event_types.offset, 0);
	assert_int_equal(h.event_types.size, 0);
	assert_int_equal(h.adds_features[0], want_bits);
	for (int i = 1; i < 4; i++)
		assert_int_equal(h.adds_features[i], 0);

	/* ids back to back, then perf_file_attr pointing at them. */
	off = 104;
	for (uint32_t i = 0; i < m->nr_events; i++) {
		const struct writer_event *ev = &m->events[i];
		struct perf_file_attr fa;
		struct perf_event_attr a = *ev->attr;

		assert_memory_equal(f + off, ev->ids, ev->nr_ids * 8);
		memcpy(&fa, f + h.attrs.offset + 144 * i, sizeof(fa));
		a.size = 128;
		assert_memory_equal(fa.attr, &a, 128);
		assert_int_equal(fa.ids.offset, off);
		assert_int_equal(fa.ids.size, ev->nr_ids * 8);
		off += ev->nr_ids * 8;
	}
	assert_memory_equal(f + h.data.offset, data->b, data->n);

	/* Feature table right after the data, one entry per bit, then payloads
	 * in the same order, contiguous up to the end of the file. */
	sec_off = h.data.offset + h.data.size;
	nr = __builtin_popcountll(want_bits);
	end = sec_off + 16 * (uint64_t)nr;
	for (int id = 1, i = 0; id < 64; id++) {
		struct perf_file_section sec;
		struct tbuf want;

		if (!(want_bits & (1ULL << id)))
			continue;
		memcpy(&sec, f + sec_off + 16 * i++, sizeof(sec));
		want = expected_feature(id, m);
		assert_int_equal(sec.offset, end);
		assert_int_equal(sec.size, want.n);
		assert_true(sec.offset + sec.size <= len);
		assert_memory_equal(f + sec.offset, want.b, want.n);
		end += sec.size;
		free(want.b);
	}
	assert_int_equal(end, len);
	free(f);
}

#define BIT(id) (1ULL << (id))
#define ALL_BITS                                                                                 \
	(BIT(HEADER_HOSTNAME) | BIT(HEADER_OSRELEASE) | BIT(HEADER_VERSION) | BIT(HEADER_ARCH) | \
	 BIT(HEADER_NRCPUS) | BIT(HEADER_CPUDESC) | BIT(HEADER_CPUID) | BIT(HEADER_TOTAL_MEM) |  \
	 BIT(HEADER_CMDLINE) | BIT(HEADER_EVENT_DESC) | BIT(HEADER_PMU_MAPPINGS) |               \
	 BIT(HEADER_SAMPLE_TIME) | BIT(HEADER_BPF_PROG_INFO) | BIT(HEADER_BPF_BTF) |             \
	 BIT(HEADER_PMU_CAPS))
/* Always written, also without a sysinfo: perf's empty BPF sections. */
#define BPF_BITS (BIT(HEADER_BPF_PROG_INFO) | BIT(HEADER_BPF_BTF))

/* Runs "perf report <args> -i path"; returns its stdout, *err its stderr
 * (both malloc'd), or NULL when perf is not installed. */
static char *perf_report(const char *args, const char *path, char **err)
{
	char cmd[512], errpath[160];
	size_t len;
	FILE *p;
	char *out;

	if (access(PERF_BIN, X_OK))
		return NULL;
	snprintf(errpath, sizeof(errpath), "%s.stderr", path);
	snprintf(cmd, sizeof(cmd), PERF_BIN " report %s -i '%s' 2>'%s'", args, path, errpath);
	p = popen(cmd, "r");
	assert_non_null(p);
	out = calloc(1, 1 << 20);
	assert_non_null(out);
	len = fread(out, 1, (1 << 20) - 1, p);
	out[len] = '\0';
	pclose(p);
	*err = (char *)read_all(errpath, &len);
	(*err)[len] = '\0';
	unlink(errpath);
	return out;
}

static char *perf_header(const char *path, char **err)
{
	return perf_report("--header-only -I", path, err);
}

static void assert_contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("\"%s\" not in:\n%s", needle, hay);
}

static void assert_perf_clean(const char *err)
{
	if (strstr(err, "WARNING") || strstr(err, "failed") || strstr(err, "Error"))
		fail_msg("perf complained:\n%s", err);
}

static void test_complete_file(void **state)
{
	struct tdir *t = *state;
	struct writer_meta m;
	struct sysinfo si;
	struct writer *w;
	struct tbuf data;
	char *out, *err;

	fill_events();
	fill_sysinfo(&si, 2, 2);
	fill_meta(&m, &si);
	assert_int_equal(writer__open(&w, t->path), 0);
	assert_string_equal(writer__path(w), t->path);
	assert_int_equal(writer__begin(w, events, 2), 0);
	assert_int_equal(writer__file_size(w), 104 + 32 + 288);
	data = write_records(w);
	assert_int_equal(writer__file_size(w), 104 + 32 + 288 + data.n);
	assert_int_equal(writer__finish(w, &m), 0);
	check_file(t->path, &data, &m, ALL_BITS);
	free(data.b);

	out = perf_header(t->path, &err);
	if (!out)
		return; /* no stock perf here: the byte checks above stand alone */
	assert_perf_clean(err);
	assert_contains(out, "# hostname : prec-test-host");
	assert_contains(out, "# os release : 6.1.0-prec-test");
	assert_contains(out, "# perf version : 0.1.0");
	assert_contains(out, "# arch : x86_64");
	assert_contains(out, "nrcpus online : 2");
	assert_contains(out, "nrcpus avail : 2");
	assert_contains(out, "cpudesc : Intel(R) Xeon(R) Processor");
	assert_contains(out, "cpuid : GenuineIntel,6,167,1");
	assert_contains(out, "total memory : 24684084 kB");
	assert_contains(out, "cmdline : /usr/local/bin/prec record -o perf.data -- sleep 1");
	assert_contains(out, "event : name = cpu-clock, , id = { 12, 13 }");
	assert_contains(out, "event : name = task-clock, , id = { 14, 15 }");
	assert_contains(out, "time of first sample : 1.000000");
	assert_contains(out, "time of last sample : 1.500000");
	free(out);
	free(err);

	/* perf walks the data section record by record: sizes and offsets agree. */
	out = perf_report("-D", t->path, &err);
	assert_non_null(out);
	assert_perf_clean(err);
	assert_contains(out, "PERF_RECORD_COMM: workload:4242/4242");
	assert_contains(out, "PERF_RECORD_COMM: sleep:4243/4243");
	assert_contains(out, "PERF_RECORD_FINISHED_ROUND");
	assert_contains(out, "TOTAL events:          4");
	free(out);
	free(err);
}

/* The order of the two NRCPUS words only shows when they differ. */
static void test_nrcpus_order_perf(void **state)
{
	struct tdir *t = *state;
	struct writer_meta m;
	struct sysinfo si;
	struct writer *w;
	char *out, *err;

	fill_events();
	fill_sysinfo(&si, 4, 2);
	fill_meta(&m, &si);
	assert_int_equal(writer__open(&w, t->path), 0);
	assert_int_equal(writer__begin(w, events, 2), 0);
	free(write_records(w).b); /* perf warns about an empty data section */
	assert_int_equal(writer__finish(w, &m), 0);
	out = perf_header(t->path, &err);
	if (!out)
		skip();
	assert_perf_clean(err);
	assert_contains(out, "nrcpus online : 2");
	assert_contains(out, "nrcpus avail : 4");
	free(out);
	free(err);
}

/* Many spans: writev is chunked at IOV_MAX and nothing is lost or reordered. */
static void test_writev_many_spans(void **state)
{
	struct tdir *t = *state;
	enum { N = 3000 };
	struct iovec *iov = calloc(N, sizeof(*iov));
	struct perf_event_header *recs = calloc(N, sizeof(*recs));
	struct writer_meta m;
	struct sysinfo si;
	struct tbuf data = { 0 };
	struct writer *w;

	assert_non_null(iov);
	assert_non_null(recs);
	fill_events();
	fill_sysinfo(&si, 2, 2);
	fill_meta(&m, &si);
	for (int i = 0; i < N; i++) {
		/* misc carries the index so a reordering would show. */
		recs[i] = (struct perf_event_header){ PERF_RECORD_FINISHED_ROUND, (uint16_t)i, 8 };
		iov[i] = (struct iovec){ &recs[i], i % 7 == 3 ? 0 : sizeof(recs[i]) };
		tb_put(&data, &recs[i], iov[i].iov_len);
	}
	assert_int_equal(writer__open(&w, t->path), 0);
	assert_int_equal(writer__begin(w, events, 2), 0);
	assert_int_equal(writer__writev(w, iov, N), 0);
	assert_int_equal(writer__writev(w, iov, 0), 0);
	assert_int_equal(writer__data_size(w), data.n);
	assert_int_equal(writer__finish(w, &m), 0);
	check_file(t->path, &data, &m, ALL_BITS);
	free(data.b);
	free(iov);
	free(recs);
}

/* Writes bigger than the buffer, and enough small ones to flush it often. */
static void test_write_buffering(void **state)
{
	struct tdir *t = *state;
	size_t big = 600 * 1024;
	uint8_t *blob = malloc(big);
	struct writer_meta m;
	struct sysinfo si;
	struct tbuf data = { 0 };
	struct writer *w;

	assert_non_null(blob);
	for (size_t i = 0; i < big; i++)
		blob[i] = (uint8_t)(i * 7 + 1);
	fill_events();
	fill_sysinfo(&si, 2, 2);
	fill_meta(&m, &si);
	assert_int_equal(writer__open(&w, t->path), 0);
	assert_int_equal(writer__write(w, blob, 8), -EINVAL); /* before begin */
	assert_int_equal(writer__begin(w, events, 2), 0);
	assert_int_equal(writer__begin(w, events, 2), -EINVAL);
	for (size_t off = 0; off + 24 <= 300 * 1024; off += 24) {
		assert_int_equal(writer__write(w, blob + off, 24), 0);
		tb_put(&data, blob + off, 24);
	}
	assert_int_equal(writer__write(w, blob, big), 0);
	tb_put(&data, blob, big);
	assert_int_equal(writer__write(w, blob, 0), 0);
	assert_int_equal(writer__data_size(w), data.n);
	assert_int_equal(writer__finish(w, &m), 0);
	check_file(t->path, &data, &m, ALL_BITS);
	free(data.b);
	free(blob);
}

/* Hostile metadata: a 10 KB event name, argc 1, no sysinfo at all. */
static void test_hostile_meta(void **state)
{
	struct tdir *t = *state;
	struct writer_meta m;
	struct writer_event ev;
	struct writer *w;
	struct tbuf data = { 0 };
	char *name = malloc(10 * 1024 + 1), *out, *err;

	assert_non_null(name);
	memset(name, 'e', 10 * 1024);
	name[10 * 1024] = '\0';
	fill_events();
	ev = (struct writer_event){ &attr_cpu, name, ids_cpu, 2 };
	memset(&m, 0, sizeof(m));
	m.events = &ev;
	m.nr_events = 1;
	m.exe = "/usr/local/bin/prec";
	m.argc = 1;
	m.argv = test_argv;
	assert_int_equal(writer__open(&w, t->path), 0);
	assert_int_equal(writer__begin(w, &ev, 1), 0);
	round_record(&data); /* perf warns about an empty data section */
	assert_int_equal(writer__write(w, data.b, data.n), 0);
	assert_int_equal(writer__finish(w, &m), 0);
	/* No sysinfo: HOSTNAME still there (empty); the rest left out cleanly. */
	check_file(t->path, &data, &m,
		   BIT(HEADER_HOSTNAME) | BIT(HEADER_CMDLINE) | BIT(HEADER_EVENT_DESC) |
			   BIT(HEADER_SAMPLE_TIME) | BPF_BITS);
	out = perf_header(t->path, &err);
	if (out) {
		assert_perf_clean(err);
		assert_contains(out, "cmdline : /usr/local/bin/prec \n");
		assert_contains(out, "event : name = eeeeeeee");
		free(out);
		free(err);
	}
	free(data.b);
	free(name);
}

/* No events, no meta: a file perf can still open, with EVENT_DESC left out. */
static void test_zero_events(void **state)
{
	struct tdir *t = *state;
	struct writer_meta m;
	struct writer *w;
	struct tbuf data = { 0 };

	memset(&m, 0, sizeof(m));
	assert_int_equal(writer__open(&w, t->path), 0);
	assert_int_equal(writer__begin(w, NULL, 0), 0);
	assert_int_equal(writer__file_size(w), 104);
	assert_int_equal(writer__finish(w, NULL), 0);
	check_file(t->path, &data, &m, BIT(HEADER_HOSTNAME) | BIT(HEADER_SAMPLE_TIME) | BPF_BITS);
}

/* meta without events: EVENT_DESC describes the events given to begin. */
static void test_meta_events_default(void **state)
{
	struct tdir *t = *state;
	struct writer_meta m, want;
	struct sysinfo si;
	struct writer *w;
	struct tbuf data = { 0 };

	fill_events();
	fill_sysinfo(&si, 2, 2);
	fill_meta(&m, &si);
	m.events = NULL;
	m.nr_events = 0;
	assert_int_equal(writer__open(&w, t->path), 0);
	assert_int_equal(writer__begin(w, events, 2), 0);
	assert_int_equal(writer__finish(w, &m), 0);
	fill_meta(&want, &si);
	check_file(t->path, &data, &want, ALL_BITS);
}

static void test_bad_events(void **state)
{
	struct tdir *t = *state;
	struct writer_event ev = { NULL, "x", ids_cpu, 2 };
	struct writer *w;

	assert_int_equal(writer__open(&w, t->path), 0);
	assert_int_equal(writer__begin(w, &ev, 1), -EINVAL);
	assert_int_equal(writer__begin(w, NULL, 3), -EINVAL);
	/* finish without a successful begin fails and removes the file */
	assert_int_equal(writer__finish(w, NULL), -EINVAL);
	assert_int_equal(access(t->path, F_OK), -1);
	assert_int_equal(writer__finish(NULL, NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_complete_file, tdir_setup, tdir_teardown),
		cmocka_unit_test_setup_teardown(test_nrcpus_order_perf, tdir_setup, tdir_teardown),
		cmocka_unit_test_setup_teardown(test_writev_many_spans, tdir_setup, tdir_teardown),
		cmocka_unit_test_setup_teardown(test_write_buffering, tdir_setup, tdir_teardown),
		cmocka_unit_test_setup_teardown(test_hostile_meta, tdir_setup, tdir_teardown),
		cmocka_unit_test_setup_teardown(test_zero_events, tdir_setup, tdir_teardown),
		cmocka_unit_test_setup_teardown(test_meta_events_default, tdir_setup,
						tdir_teardown),
		cmocka_unit_test_setup_teardown(test_bad_events, tdir_setup, tdir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
