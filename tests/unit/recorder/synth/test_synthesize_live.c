// SPDX-License-Identifier: GPL-2.0-only
/*
 * prec's side-band against perf record's on this machine, record for record.
 *
 * A target process is started with what makes maps hard: an executable file
 * in a directory with a space, a deleted executable file, a shared data map,
 * an anonymous map, and two named threads; prec_bpf_hold (when built) keeps
 * two BPF programs loaded. Then
 *   perf record -a --namespaces --all-cgroups -d   and   perf record -p TARGET
 * run, and the records perf synthesized before FINISHED_INIT for the target
 * and for kthreadd (FORK, NAMESPACES, COMM, MMAP2), the CGROUP, THREAD_MAP,
 * CPU_MAP, TIME_CONV records, and the KSYMBOL/BPF_EVENT records of the held
 * programs must equal, byte for byte, what synth__* write for the same
 * machine with the same sample_id trailer size.
 *
 * Skipped (not failed) where perf cannot record: no perf, no privilege.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "recorder/targets/cpu_map.h"
#include "prec/event.h"
#include "prec/writer.h"
#include "recorder/synth/synthesize.h"
#include "prec/bpf.h"

#define PERF_BIN "/usr/bin/perf"

/* ---- perf.data reading: the records before FINISHED_INIT ---- */

struct recs {
	uint8_t *file;
	size_t len;
	const uint8_t **rec; /* each record's first byte */
	size_t n;
	size_t id_hdr_size; /* from the first attr, as perf computes it */
};

static void recs_free(struct recs *r)
{
	free(r->file);
	free(r->rec);
	memset(r, 0, sizeof(*r));
}

static uint16_t rsize(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p + 6, 2);
	return v;
}

static uint32_t rtype(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint32_t rpid(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p + 8, 4);
	return v;
}

static int recs_load(const char *path, struct recs *r)
{
	uint64_t attrs_off, data_off, data_size;
	struct perf_event_attr attr;
	struct stat st;
	size_t off, cap = 0;
	int fd;

	memset(r, 0, sizeof(*r));
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		return -1;
	r->len = (size_t)st.st_size;
	r->file = malloc(r->len + 1);
	assert_non_null(r->file);
	assert_int_equal(pread(fd, r->file, r->len, 0), (ssize_t)r->len);
	close(fd);
	assert_memory_equal(r->file, "PERFILE2", 8);
	memcpy(&attrs_off, r->file + 24, 8);
	memcpy(&data_off, r->file + 40, 8);
	memcpy(&data_size, r->file + 48, 8);
	memset(&attr, 0, sizeof(attr));
	memcpy(&attr, r->file + attrs_off, 120);
	if (attr.sample_id_all) {
		static const uint64_t bits[] = { PERF_SAMPLE_TID, PERF_SAMPLE_TIME,
						 PERF_SAMPLE_ID,  PERF_SAMPLE_STREAM_ID,
						 PERF_SAMPLE_CPU, PERF_SAMPLE_IDENTIFIER };

		for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
			r->id_hdr_size += attr.sample_type & bits[i] ? 8 : 0;
	}
	for (off = data_off; off + 8 <= data_off + data_size && off + 8 <= r->len;) {
		const uint8_t *p = r->file + off;

		if (rtype(p) == PERF_RECORD_FINISHED_INIT || rsize(p) < 8)
			break;
		if (r->n == cap) {
			cap = cap * 2 + 256;
			r->rec = realloc(r->rec, cap * sizeof(*r->rec));
			assert_non_null(r->rec);
		}
		r->rec[r->n++] = p;
		off += rsize(p);
	}
	return 0;
}

/* The records of the given types whose pid field is one of pids (any pid
 * when npids is 0), concatenated. */
static uint8_t *pick(const struct recs *r, const uint32_t *types, int ntypes, const uint32_t *pids,
		     int npids, size_t *len)
{
	uint8_t *out = malloc(1);
	size_t n = 0;

	for (size_t i = 0; i < r->n; i++) {
		const uint8_t *p = r->rec[i];
		bool t = false, pid = npids == 0;

		for (int k = 0; k < ntypes; k++)
			t |= rtype(p) == types[k];
		for (int k = 0; k < npids; k++)
			pid |= rpid(p) == pids[k];
		if (!t || !pid)
			continue;
		out = realloc(out, n + rsize(p));
		assert_non_null(out);
		memcpy(out + n, p, rsize(p));
		n += rsize(p);
	}
	*len = n;
	return out;
}

static void assert_same(const char *what, const uint8_t *perf, size_t plen, const uint8_t *prec,
			size_t qlen)
{
	size_t off = 0;
	int i = 0;

	while (off < plen && off < qlen) {
		uint16_t a = rsize(perf + off), b = rsize(prec + off);

		if (a != b || memcmp(perf + off, prec + off, a)) {
			size_t k = 0;

			while (k < a && k < b && perf[off + k] == prec[off + k])
				k++;
			fail_msg(
				"%s: record %d (type %u, pid %u) differs at byte %zu (sizes perf %u, "
				"prec %u)",
				what, i, rtype(perf + off), rpid(perf + off), k, a, b);
		}
		off += a;
		i++;
	}
	if (plen != qlen)
		fail_msg("%s: perf wrote %zu bytes, prec %zu", what, plen, qlen);
}

/* ---- the target process ---- */

struct live {
	char dir[64];
	pid_t target;
	pid_t tids[3];
	pid_t hold; /* prec_bpf_hold, 0 when not running */
	uint32_t prog_ids[2];
	char perf_a[128], perf_p[128];
	bool skip;
};

static pthread_barrier_t barrier;

static void *worker(void *arg)
{
	char name[16];

	snprintf(name, sizeof(name), "live worker %d", (int)(intptr_t)arg);
	prctl(PR_SET_NAME, name);
	pthread_barrier_wait(&barrier);
	for (;;)
		pause();
	return NULL;
}

static void *map_file(const char *path, size_t len, off_t off, int prot, int flags)
{
	int fd = open(path, O_RDWR | O_CREAT, 0644);
	void *p;

	if (fd < 0 || ftruncate(fd, 16384))
		_exit(2);
	p = mmap(NULL, len, prot, flags, fd, off);
	if (p == MAP_FAILED)
		_exit(3);
	close(fd);
	return p;
}

static void target_main(const char *dir, int ready)
{
	char path[256];
	pthread_t th[2];

	prctl(PR_SET_NAME, "prec live tgt");
	snprintf(path, sizeof(path), "%s/a dir", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/a dir/lib x.so", dir);
	map_file(path, 8192, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE);
	snprintf(path, sizeof(path), "%s/gone.so", dir);
	map_file(path, 4096, 0, PROT_READ | PROT_EXEC, MAP_PRIVATE);
	unlink(path);
	snprintf(path, sizeof(path), "%s/shared.dat", dir);
	map_file(path, 4096, 0, PROT_READ | PROT_WRITE, MAP_SHARED);
	if (mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) ==
	    MAP_FAILED)
		_exit(4);
	pthread_barrier_init(&barrier, NULL, 3);
	for (intptr_t i = 0; i < 2; i++)
		if (pthread_create(&th[i], NULL, worker, (void *)(i + 1)))
			_exit(5);
	pthread_barrier_wait(&barrier);
	if (write(ready, "r", 1) != 1)
		_exit(6);
	for (;;)
		pause();
}

/* prec_bpf_hold next to the test binaries, started; its programs' ids. */
static void start_hold(struct live *l)
{
	char exe[512], path[600], line[256] = "";
	int p[2];
	ssize_t n, k = 0;
	unsigned int prog = 0, btf = 0, multi = 0;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return;
	exe[n] = '\0';
	snprintf(path, sizeof(path), "%s/fixtures/prec_bpf_hold", dirname(exe));
	if (access(path, X_OK) || pipe(p))
		return;
	l->hold = fork();
	if (l->hold == 0) {
		dup2(p[1], 1);
		close(p[0]);
		execl(path, path, "60", (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	while (k < (ssize_t)sizeof(line) - 1 && (n = read(p[0], line + k, 1)) == 1 &&
	       line[k] != '\n')
		k++;
	close(p[0]);
	if (sscanf(line, "prog_id=%u btf_id=%u multi_id=%u", &prog, &btf, &multi) < 1 || !prog) {
		kill(l->hold, SIGKILL);
		waitpid(l->hold, NULL, 0);
		l->hold = 0;
		return;
	}
	l->prog_ids[0] = prog;
	l->prog_ids[1] = multi;
}

static int run_quiet(const char *cmd)
{
	char full[1024];

	snprintf(full, sizeof(full), "%s >/dev/null 2>&1", cmd);
	return system(full);
}

static int group_setup(void **state)
{
	struct live *l = calloc(1, sizeof(*l));
	char cmd[512], task[64];
	int p[2];
	char c;

	if (!l)
		return -1;
	*state = l;
	if (access(PERF_BIN, X_OK) || geteuid() != 0) {
		l->skip = true;
		return 0;
	}
	strcpy(l->dir, "/tmp/prec-test-live-XXXXXX");
	if (!mkdtemp(l->dir) || pipe(p))
		return -1;
	l->target = fork();
	if (l->target == 0) {
		close(p[0]);
		target_main(l->dir, p[1]);
	}
	close(p[1]);
	if (read(p[0], &c, 1) != 1)
		return -1;
	close(p[0]);
	/* its threads, in the order the task directory lists them */
	{
		FILE *f;
		int n = 0;

		snprintf(task, sizeof(task), "ls -U /proc/%d/task", (int)l->target);
		f = popen(task, "r");
		while (f && n < 3 && fscanf(f, "%d", &l->tids[n]) == 1)
			n++;
		if (f)
			pclose(f);
		if (n != 3)
			return -1;
	}
	start_hold(l);

	snprintf(l->perf_a, sizeof(l->perf_a), "%s/a.data", l->dir);
	snprintf(l->perf_p, sizeof(l->perf_p), "%s/p.data", l->dir);
	snprintf(cmd, sizeof(cmd),
		 PERF_BIN " record -a --namespaces --all-cgroups -d -o '%s' -- sleep 0.01",
		 l->perf_a);
	if (run_quiet(cmd)) {
		l->skip = true; /* perf cannot record here */
		return 0;
	}
	snprintf(cmd, sizeof(cmd), PERF_BIN " record -p %d -o '%s' -- sleep 0.01", (int)l->target,
		 l->perf_p);
	if (run_quiet(cmd))
		l->skip = true;
	return 0;
}

static int group_teardown(void **state)
{
	struct live *l = *state;
	char path[256];

	if (l->target > 0) {
		kill(l->target, SIGKILL);
		waitpid(l->target, NULL, 0);
	}
	if (l->hold > 0) {
		kill(l->hold, SIGKILL);
		waitpid(l->hold, NULL, 0);
	}
	if (l->dir[0]) {
		const char *files[] = { "a.data",     "p.data",	    "prec.data", "a dir/lib x.so",
					"shared.dat", "a.data.old", "p.data.old" };

		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s", l->dir, files[i]);
			unlink(path);
		}
		snprintf(path, sizeof(path), "%s/a dir", l->dir);
		rmdir(path);
		rmdir(l->dir);
	}
	free(l);
	return 0;
}

/* ---- prec's records for the same machine ---- */

struct ours {
	struct writer *w;
	char path[160];
};

static const uint64_t one_id[1] = { 1 };
static struct perf_event_attr one_attr = {
	.type = PERF_TYPE_SOFTWARE,
	.size = sizeof(struct perf_event_attr),
	.config = PERF_COUNT_SW_DUMMY,
};
static const struct writer_event one_event = { &one_attr, "dummy", one_id, 1 };

static void ours_begin(struct ours *o, const struct live *l)
{
	snprintf(o->path, sizeof(o->path), "%s/prec.data", l->dir);
	assert_int_equal(writer__open(&o->w, o->path), 0);
	assert_int_equal(writer__begin(o->w, &one_event, 1), 0);
}

static void ours_end(struct ours *o, struct recs *r, size_t id_hdr_size)
{
	assert_int_equal(writer__finish(o->w, NULL), 0);
	assert_int_equal(recs_load(o->path, r), 0);
	r->id_hdr_size = id_hdr_size;
	unlink(o->path);
}

#define SKIP_IF(l)               \
	do {                     \
		if ((l)->skip) { \
			skip();  \
			return;  \
		}                \
	} while (0)

static const uint32_t task_types[] = { PERF_RECORD_FORK, PERF_RECORD_NAMESPACES, PERF_RECORD_COMM,
				       PERF_RECORD_MMAP2 };

/* -a: FORK/NAMESPACES/COMM/MMAP2 of the target and of kthreadd, CGROUP,
 * THREAD_MAP, CPU_MAP (perf 6.1's form), TIME_CONV. */
static void test_system_wide(void **state)
{
	struct live *l = *state;
	struct recs perf, prec;
	struct ours o;
	struct synth_opts opts;
	char cg[4096], huge[4096];
	const uint32_t pids[2] = { 2, (uint32_t)l->target };
	const uint32_t cgroup_t[] = { PERF_RECORD_CGROUP }, maps_t[] = { PERF_RECORD_THREAD_MAP },
		       cpus_t[] = { PERF_RECORD_CPU_MAP }, time_t_[] = { PERF_RECORD_TIME_CONV };
	struct cpu_map *online;
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE,
					.size = sizeof(attr),
					.config = PERF_COUNT_SW_DUMMY };
	void *page = MAP_FAILED;
	uint8_t *a, *b;
	size_t alen, blen;
	int fd;

	SKIP_IF(l);
	assert_int_equal(recs_load(l->perf_a, &perf), 0);
	memset(&opts, 0, sizeof(opts));
	opts.id_hdr_size = perf.id_hdr_size;
	opts.data_mmaps = true;
	opts.namespaces = true;
	opts.cgroups = synth__cgroup_mount("/proc", cg, sizeof(cg)) == 0;
	opts.cgroup_mnt = opts.cgroups ? cg : NULL;
	opts.hugetlbfs_mnt = synth__hugetlbfs_mount("/proc", huge, sizeof(huge)) ? NULL : huge;

	ours_begin(&o, l);
	/* the control page of a ring, where TIME_CONV comes from */
	fd = (int)syscall(SYS_perf_event_open, &attr, -1, 0, -1, 0);
	if (fd >= 0)
		page = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
	assert_int_equal(synth__time_conv(SYNTH_OUT(o.w), page == MAP_FAILED ? NULL : page), 0);
	assert_int_equal(synth__thread_map(SYNTH_OUT(o.w), -1), 0);
	assert_int_equal(cpu_map__online(&online), 0);
	assert_int_equal(
		synth__cpu_map_cpus(SYNTH_OUT(o.w), online->cpu, (size_t)online->nr, SYNTH_CPU_MAP_PERF61), 0);
	cpu_map__delete(online);
	assert_int_equal(synth__threads(SYNTH_OUT(o.w), "/proc", NULL, 0, &opts), 0);
	ours_end(&o, &prec, perf.id_hdr_size);
	if (page != MAP_FAILED)
		munmap(page, (size_t)sysconf(_SC_PAGESIZE));
	if (fd >= 0)
		close(fd);

	a = pick(&perf, task_types, 4, pids, 2, &alen);
	b = pick(&prec, task_types, 4, pids, 2, &blen);
	/* the hard cases are there, in perf's records too */
	assert_non_null(memmem(a, alen, "/a dir/lib x.so", 15));
	assert_non_null(memmem(a, alen, "/gone.so (deleted)", 18));
	assert_non_null(memmem(a, alen, "/shared.dat", 11));
	assert_non_null(memmem(a, alen, "live worker 2", 13));
	assert_non_null(memmem(a, alen, "kthreadd", 8));
	assert_same("target and kthreadd", a, alen, b, blen);
	print_message("-a: %zu bytes of target and kthreadd records alike\n", alen);
	free(a);
	free(b);
	a = pick(&perf, cgroup_t, 1, NULL, 0, &alen);
	b = pick(&prec, cgroup_t, 1, NULL, 0, &blen);
	assert_same("CGROUP", a, alen, b, blen);
	free(a);
	free(b);
	a = pick(&perf, maps_t, 1, NULL, 0, &alen);
	b = pick(&prec, maps_t, 1, NULL, 0, &blen);
	assert_same("THREAD_MAP", a, alen, b, blen);
	free(a);
	free(b);
	a = pick(&perf, cpus_t, 1, NULL, 0, &alen);
	b = pick(&prec, cpus_t, 1, NULL, 0, &blen);
	assert_same("CPU_MAP", a, alen, b, blen);
	free(a);
	free(b);
	/* perf writes TIME_CONV only where the kernel offers user time */
	a = pick(&perf, time_t_, 1, NULL, 0, &alen);
	b = pick(&prec, time_t_, 1, NULL, 0, &blen);
	print_message("TIME_CONV written by perf here: %s\n", alen ? "yes" : "no");
	assert_same("TIME_CONV", a, alen, b, blen);
	free(a);
	free(b);
	recs_free(&perf);
	recs_free(&prec);
}

/* -p: COMM of each thread, the leader's MMAP2, and the THREAD_MAP. */
static void test_pid(void **state)
{
	struct live *l = *state;
	struct recs perf, prec;
	struct ours o;
	struct synth_opts opts;
	const uint32_t pids[1] = { (uint32_t)l->target };
	const uint32_t maps_t[] = { PERF_RECORD_THREAD_MAP };
	uint8_t *a, *b;
	size_t alen, blen;

	SKIP_IF(l);
	assert_int_equal(recs_load(l->perf_p, &perf), 0);
	memset(&opts, 0, sizeof(opts));
	opts.id_hdr_size = perf.id_hdr_size;
	ours_begin(&o, l);
	assert_int_equal(synth__thread_map_n(SYNTH_OUT(o.w), l->tids, NULL, 3), 0);
	assert_int_equal(synth__threads(SYNTH_OUT(o.w), "/proc", l->tids, 3, &opts), 0);
	ours_end(&o, &prec, perf.id_hdr_size);

	a = pick(&perf, task_types, 4, pids, 1, &alen);
	b = pick(&prec, task_types, 4, pids, 1, &blen);
	assert_non_null(memmem(a, alen, "/gone.so (deleted)", 18));
	assert_non_null(memmem(a, alen, "live worker 1", 13));
	assert_same("-p target", a, alen, b, blen);
	print_message("-p: %zu bytes of target records alike\n", alen);
	free(a);
	free(b);
	a = pick(&perf, maps_t, 1, NULL, 0, &alen);
	b = pick(&prec, maps_t, 1, NULL, 0, &blen);
	assert_same("THREAD_MAP", a, alen, b, blen);
	free(a);
	free(b);
	recs_free(&perf);
	recs_free(&prec);
}

/* One program's KSYMBOLs and its BPF_EVENT, found by the event's id. */
static uint8_t *bpf_group(const struct recs *r, uint32_t id, size_t *len)
{
	size_t first = 0;

	*len = 0;
	for (size_t i = 0; i < r->n; i++) {
		const uint8_t *p = r->rec[i];
		uint32_t pid;

		if (rtype(p) != PERF_RECORD_BPF_EVENT) {
			if (rtype(p) != PERF_RECORD_KSYMBOL)
				first = i + 1;
			continue;
		}
		memcpy(&pid, p + 12, 4);
		if (pid == id) {
			uint8_t *out = malloc(65536);

			assert_non_null(out);
			for (size_t k = first; k <= i; k++) {
				memcpy(out + *len, r->rec[k], rsize(r->rec[k]));
				*len += rsize(r->rec[k]);
			}
			return out;
		}
		first = i + 1;
	}
	return NULL;
}

static void test_bpf(void **state)
{
	struct live *l = *state;
	struct recs perf, prec;
	struct sysinfo_bpf *bpf = NULL;
	struct ours o;
	int checked = 0;

	SKIP_IF(l);
	if (!l->hold) {
		print_message("prec_bpf_hold not available: nothing to compare\n");
		skip();
		return;
	}
	assert_int_equal(recs_load(l->perf_a, &perf), 0);
	assert_int_equal(sysinfo__read_bpf(&bpf), 0);
	ours_begin(&o, l);
	assert_int_equal(synth__bpf(SYNTH_OUT(o.w), bpf, "/proc", perf.id_hdr_size), 0);
	ours_end(&o, &prec, perf.id_hdr_size);
	sysinfo_bpf__delete(bpf);

	for (int i = 0; i < 2; i++) {
		size_t alen, blen;
		uint8_t *a, *b;

		if (!l->prog_ids[i])
			continue;
		a = bpf_group(&perf, l->prog_ids[i], &alen);
		b = bpf_group(&prec, l->prog_ids[i], &blen);
		assert_non_null(a);
		assert_non_null(b);
		assert_same("BPF program", a, alen, b, blen);
		free(a);
		free(b);
		checked++;
	}
	assert_true(checked > 0);
	print_message("%d BPF programs alike\n", checked);
	recs_free(&perf);
	recs_free(&prec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_system_wide),
		cmocka_unit_test(test_pid),
		cmocka_unit_test(test_bpf),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
