// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysinfo caches and PMUs of each fixture machine, and stock perf as the
 * judge: on the live system, and (as root, where a private mount namespace
 * can be had) on every fixture, by bind-mounting its sysfs parts over /sys for
 * a `perf record` and comparing what `perf report --header-only -I` prints.
 * Fixture trees live under tests/fixtures/sysinfo (tests/unit/fixture_path.h).
 * The pure parsers are test_sysinfo_pmu_parsers.c's, hostile trees
 * test_sysinfo_cache_pmu_trees.c's.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sysinfo_tree.h"

/* ---- fixtures: caches --------------------------------------------------- */
static const struct exp_cache arm64_caches[] = {
	D(1, 128, 4, "32K", "0"),            I(1, 128, 4, "32K", "0"),
	D(1, 128, 4, "32K", "1"),            I(1, 128, 4, "32K", "1"),
	D(1, 128, 4, "32K", "2"),            I(1, 128, 4, "32K", "2"),
	D(1, 128, 4, "32K", "3"),            I(1, 128, 4, "32K", "3"),
	D(1, 256, 4, "64K", "4"),            I(1, 256, 4, "64K", "4"),
	D(1, 256, 4, "64K", "5"),            I(1, 256, 4, "64K", "5"),
	D(1, 256, 4, "64K", "6"),            I(1, 256, 4, "64K", "6"),
	D(1, 256, 4, "64K", "7"),            I(1, 256, 4, "64K", "7"),
	U(2, 512, 4, "128K", "0"),           U(2, 512, 4, "128K", "1"),
	U(2, 512, 4, "128K", "2"),           U(2, 512, 4, "128K", "3"),
	U(2, 1024, 8, "512K", "4"),          U(2, 1024, 8, "512K", "5"),
	U(2, 1024, 8, "512K", "6"),          U(2, 1024, 8, "512K", "7"),
	U(3, 4096, 12, "3072K", "0-7"),
};

/* CPUs 6 and 7 are offline: no cache/ for them, and gone from their siblings' maps. */
static const struct exp_cache numa2s_caches[] = {
	D(1, 64, 8, "32K", "0,8"),           I(1, 64, 8, "32K", "0,8"),
	D(1, 64, 8, "32K", "1,9"),           I(1, 64, 8, "32K", "1,9"),
	D(1, 64, 8, "32K", "2,10"),          I(1, 64, 8, "32K", "2,10"),
	D(1, 64, 8, "32K", "3,11"),          I(1, 64, 8, "32K", "3,11"),
	D(1, 64, 8, "32K", "4,12"),          I(1, 64, 8, "32K", "4,12"),
	D(1, 64, 8, "32K", "5,13"),          I(1, 64, 8, "32K", "5,13"),
	D(1, 64, 8, "32K", "14"),            I(1, 64, 8, "32K", "14"),
	D(1, 64, 8, "32K", "15"),            I(1, 64, 8, "32K", "15"),
	U(2, 512, 8, "256K", "0,8"),         U(2, 512, 8, "256K", "1,9"),
	U(2, 512, 8, "256K", "2,10"),        U(2, 512, 8, "256K", "3,11"),
	U(2, 512, 8, "256K", "4,12"),        U(2, 512, 8, "256K", "5,13"),
	U(2, 512, 8, "256K", "14"),          U(2, 512, 8, "256K", "15"),
	U(3, 12288, 20, "15360K", "0-3,8-11"), U(3, 12288, 20, "15360K", "4-5,12-15"),
};

/* SMT pairs share L1/L2; two L3s that differ only in their map both stay. */
static const struct exp_cache multidie_caches[] = {
	D(1, 64, 8, "32K", "0-1"),           I(1, 64, 8, "32K", "0-1"),
	D(1, 64, 8, "32K", "2-3"),           I(1, 64, 8, "32K", "2-3"),
	D(1, 64, 8, "32K", "4-5"),           I(1, 64, 8, "32K", "4-5"),
	D(1, 64, 8, "32K", "6-7"),           I(1, 64, 8, "32K", "6-7"),
	U(2, 4096, 16, "4096K", "0-1"),      U(2, 4096, 16, "4096K", "2-3"),
	U(2, 4096, 16, "4096K", "4-5"),      U(2, 4096, 16, "4096K", "6-7"),
	U(3, 16384, 16, "16384K", "0-3"),    U(3, 16384, 16, "16384K", "4-7"),
};

static const struct exp_cache hybrid_caches[] = {
	D(1, 64, 12, "48K", "0-1"),          I(1, 64, 8, "32K", "0-1"),
	D(1, 64, 12, "48K", "2-3"),          I(1, 64, 8, "32K", "2-3"),
	D(1, 64, 12, "48K", "4-5"),          I(1, 64, 8, "32K", "4-5"),
	D(1, 64, 12, "48K", "6-7"),          I(1, 64, 8, "32K", "6-7"),
	D(1, 64, 8, "32K", "8"),             I(1, 128, 8, "64K", "8"),
	D(1, 64, 8, "32K", "9"),             I(1, 128, 8, "64K", "9"),
	D(1, 64, 8, "32K", "10"),            I(1, 128, 8, "64K", "10"),
	D(1, 64, 8, "32K", "11"),            I(1, 128, 8, "64K", "11"),
	D(1, 64, 8, "32K", "12"),            I(1, 128, 8, "64K", "12"),
	D(1, 64, 8, "32K", "13"),            I(1, 128, 8, "64K", "13"),
	D(1, 64, 8, "32K", "14"),            I(1, 128, 8, "64K", "14"),
	D(1, 64, 8, "32K", "15"),            I(1, 128, 8, "64K", "15"),
	U(2, 2048, 10, "1280K", "0-1"),      U(2, 2048, 10, "1280K", "2-3"),
	U(2, 2048, 10, "1280K", "4-5"),      U(2, 2048, 10, "1280K", "6-7"),
	U(2, 2048, 16, "2048K", "8-11"),     U(2, 2048, 16, "2048K", "12-15"),
	U(3, 24576, 12, "18432K", "0-15"),
};

#undef D
#undef I
#undef U
/* clang-format on */

struct exp_pmu {
	const char *name;
	uint32_t type;
	const char *cpus; /* NULL: not hybrid */
	const char *caps; /* "name=value;..." in any order, NULL: none */
};

static const struct exp_pmu vm_pmus[] = {
	{ "software", 1, NULL, NULL },	 { "tracepoint", 2, NULL, NULL },
	{ "breakpoint", 5, NULL, NULL }, { "uprobe", 8, NULL, NULL },
	{ "msr", 9, NULL, NULL },
};

static const struct exp_pmu arm64_pmus[] = {
	{ "software", 1, NULL, NULL },
	{ "tracepoint", 2, NULL, NULL },
	{ "breakpoint", 5, NULL, NULL },
	{ "kprobe", 6, NULL, NULL },
	{ "uprobe", 7, NULL, NULL },
	/* Per-cluster PMUs with a cpus file, but not "hybrid" to perf 6.1. */
	{ "armv8_cortex_a55", 8, NULL, "slots=0x00000000" },
	{ "armv8_cortex_a76", 9, NULL, "slots=0x00000000" },
};

#define PT_CAPS_SKL_ADL                                                                           \
	"cr3_filtering=1;cycle_thresholds=3fff;event_trace=0;ip_filtering=1;max_subleaf=1;mtc=1;" \
	"mtc_periods=249;num_address_ranges=2;output_subsys=0;payloads_lip=0;psb_cyc=1;"          \
	"psb_periods=3f;single_range_output=1;tnt_disable=0;topa_multiple_entries=1;topa_output=1"

/* Broadwell-EP: PT without CYC, MTC or IP filters. */
#define PT_CAPS_BDW                                                                              \
	"cr3_filtering=1;cycle_thresholds=0;event_trace=0;ip_filtering=0;max_subleaf=0;mtc=0;"   \
	"mtc_periods=0;num_address_ranges=0;output_subsys=0;payloads_lip=0;power_event_trace=0;" \
	"psb_cyc=0;psb_periods=0;ptwrite=0;single_range_output=1;tnt_disable=0;"                 \
	"topa_multiple_entries=1;topa_output=1"

static const struct exp_pmu numa2s_pmus[] = {
	{ "software", 1, NULL, NULL },
	{ "tracepoint", 2, NULL, NULL },
	{ "cpu", 4, NULL, "branches=16;max_precise=3;pmu_name=broadwell" },
	{ "breakpoint", 5, NULL, NULL },
	{ "kprobe", 6, NULL, NULL },
	{ "uprobe", 7, NULL, NULL },
	{ "intel_bts", 8, NULL, NULL },
	{ "cstate_core", 9, NULL, NULL },
	{ "cstate_pkg", 10, NULL, NULL },
	{ "intel_pt", 11, NULL, PT_CAPS_BDW },
	{ "msr", 12, NULL, NULL },
	{ "power", 13, NULL, NULL },
	{ "uncore_imc_0", 14, NULL, NULL },
	{ "uncore_imc_1", 15, NULL, NULL },
	{ "uncore_cbox_0", 16, NULL, NULL },
	{ "uncore_qpi_0", 17, NULL, NULL },
};

/* A KVM guest's vPMU: no PEBS, no LBR (so no "branches"). */
static const struct exp_pmu multidie_pmus[] = {
	{ "software", 1, NULL, NULL },
	{ "tracepoint", 2, NULL, NULL },
	{ "cpu", 4, NULL, "max_precise=0;pmu_name=skylake" },
	{ "breakpoint", 5, NULL, NULL },
	{ "kprobe", 6, NULL, NULL },
	{ "uprobe", 7, NULL, NULL },
	{ "msr", 8, NULL, NULL },
};

static const struct exp_pmu hybrid_pmus[] = {
	{ "software", 1, NULL, NULL },
	{ "tracepoint", 2, NULL, NULL },
	{ "cpu_core", 4, "0-7", "branches=32;max_precise=3;pmu_name=alderlake_hybrid" },
	{ "breakpoint", 5, NULL, NULL },
	{ "kprobe", 6, NULL, NULL },
	{ "uprobe", 7, NULL, NULL },
	{ "cpu_atom", 8, "8-15", "branches=32;max_precise=3;pmu_name=alderlake_hybrid" },
	{ "cstate_core", 9, NULL, NULL },
	{ "cstate_pkg", 10, NULL, NULL },
	{ "intel_pt", 11, NULL, PT_CAPS_SKL_ADL ";power_event_trace=1;ptwrite=1" },
	{ "msr", 12, NULL, NULL },
	{ "power", 13, NULL, NULL },
	{ "uncore_clock", 14, NULL, NULL },
};

static void check_pmus(const struct sysinfo *si, const char *root, const struct exp_pmu *e,
		       size_t n)
{
	size_t nr_dir, k = 0;
	char **dir = readdir_names(root, "sys/bus/event_source/devices", &nr_dir);

	assert_int_equal(si->nr_pmus, n);
	for (size_t d = 0; d < nr_dir; d++) {
		const struct exp_pmu *want = NULL;
		const struct sysinfo_pmu *p;
		char rel[PATH_MAX];
		size_t nr_caps = 0, nr_files;
		char **files;

		for (size_t j = 0; j < n; j++)
			if (!strcmp(e[j].name, dir[d]))
				want = &e[j];
		if (!want)
			continue;
		assert_true(k < si->nr_pmus);
		p = &si->pmus[k++];
		assert_string_equal(p->name, want->name);
		assert_int_equal(p->type, want->type);
		if (want->cpus)
			assert_string_equal(p->cpus, want->cpus);
		else
			assert_null(p->cpus);

		if (want->caps) {
			char *list = strdup(want->caps), *save = NULL;

			for (char *kv = strtok_r(list, ";", &save); kv;
			     kv = strtok_r(NULL, ";", &save)) {
				char *eq = strchr(kv, '=');
				const char *got;

				*eq = '\0';
				got = cap_of(p, kv);
				if (!got || strcmp(got, eq + 1))
					fail_msg("%s cap %s: got %s, want %s", p->name, kv,
						 got ? got : "(none)", eq + 1);
				nr_caps++;
			}
			free(list);
		}
		assert_int_equal(p->nr_caps, nr_caps);
		if (!nr_caps)
			assert_null(p->caps);
		/* Caps come in readdir order, as perf lists them. */
		fmt(rel, sizeof(rel), "sys/bus/event_source/devices/%s/caps", p->name);
		files = readdir_names(root, rel, &nr_files);
		assert_int_equal(nr_files, nr_caps);
		for (size_t j = 0; j < nr_files; j++)
			assert_string_equal(p->caps[j].name, files[j]);
		free_names(files);
	}
	assert_int_equal(k, n);
	free_names(dir);
}

struct fixture {
	const char *name;
	uint32_t nr_cpus; /* what sysinfo__read_cpu finds there */
	const char *possible, *online; /* for perf, when the tree has none */
	const struct exp_cache *caches;
	size_t nr_caches;
	const struct exp_pmu *pmus;
	size_t nr_pmus;
};

static const struct fixture fixtures[] = {
	{ "vm", 2, "0-1", "0-1", vm_caches, N(vm_caches), vm_pmus, N(vm_pmus) },
	{ "arm64", 8, "0-7", "0-7", arm64_caches, N(arm64_caches), arm64_pmus, N(arm64_pmus) },
	{ "numa2s", 16, "0-15", "0-5,8-15", numa2s_caches, N(numa2s_caches), numa2s_pmus,
	  N(numa2s_pmus) },
	{ "multidie", 8, "0-7", "0-7", multidie_caches, N(multidie_caches), multidie_pmus,
	  N(multidie_pmus) },
	{ "hybrid", 16, "0-15", "0-15", hybrid_caches, N(hybrid_caches), hybrid_pmus,
	  N(hybrid_pmus) },
};

static void test_fixture(void **state)
{
	const struct fixture *f = *state;
	char root[PATH_MAX];
	struct sysinfo si;

	fixture_path(root, sizeof(root), "sysinfo/%s", f->name);
	read_tree(&si, root, f->nr_cpus);
	check_caches(&si, f->caches, f->nr_caches);
	check_pmus(&si, root, f->pmus, f->nr_pmus);
	sysinfo__free_cache_pmu(&si);
	assert_null(si.caches);
	assert_null(si.pmus);
	assert_int_equal(si.nr_caches, 0);
	assert_int_equal(si.nr_pmus, 0);
	/* Without cpu/possible the walk falls back to nr_cpus_avail: same answer here. */
	read_tree(&si, root, f->nr_cpus);
	check_caches(&si, f->caches, f->nr_caches);
	sysinfo__free_cache_pmu(&si);
}

/* The garbled machines: nothing here for us, and nothing breaks. */
static void test_fixture_broken(void **state)
{
	static const char *const names[] = { "broken", "broken-arm64" };
	char root[PATH_MAX];
	struct sysinfo si;

	(void)state;
	for (size_t i = 0; i < N(names); i++) {
		fixture_path(root, sizeof(root), "sysinfo/%s", names[i]);
		read_tree(&si, root, 4);
		assert_int_equal(si.nr_caches, 0);
		assert_null(si.caches);
		assert_int_equal(si.nr_pmus, 0);
		assert_null(si.pmus);
		sysinfo__free_cache_pmu(&si);
	}
}

/* ---- perf as the judge -------------------------------------------------- */

/* The value after "# <key>" on its line, or NULL. */
static const char *header_line(const char *text, const char *prefix, char *buf, size_t size)
{
	const char *p = text;

	while ((p = strstr(p, prefix))) {
		if (p == text || p[-1] == '\n') {
			const char *v = p + strlen(prefix), *eol = strchr(v, '\n');
			size_t n = eol ? (size_t)(eol - v) : strlen(v);

			if (n >= size)
				n = size - 1;
			memcpy(buf, v, n);
			buf[n] = '\0';
			return buf;
		}
		p++;
	}
	return NULL;
}

/* Compares what we read with what perf printed for the same tree. */
static void check_against_perf(const struct sysinfo *si, const char *text)
{
	char line[8192], want[8192], prefix[300];
	const char *p;
	uint32_t i = 0;
	size_t off = 0;

	/* PMU_MAPPINGS: "# pmu mappings: software = 1, uprobe = 8, ..." */
	assert_non_null(header_line(text, "# pmu mappings: ", line, sizeof(line)));
	want[0] = '\0';
	for (uint32_t k = 0; k < si->nr_pmus; k++)
		off += (size_t)snprintf(want + off, sizeof(want) - off, "%s%s = %u", k ? ", " : "",
					si->pmus[k].name, si->pmus[k].type);
	assert_string_equal(line, want);

	/* CACHE: "#  L1 Data                 48K [0]", in order. */
	for (p = strstr(text, "\n#  L"); p; p = strstr(p + 1, "\n#  L")) {
		char type[64], size[64], map[1024];
		unsigned int level;

		assert_int_equal(
			sscanf(p, "\n#  L%u %63s %63s [%1023[^]]]", &level, type, size, map), 4);
		assert_true(i < si->nr_caches);
		assert_int_equal(level, si->caches[i].level);
		assert_string_equal(type, si->caches[i].type);
		assert_string_equal(size, si->caches[i].size);
		assert_string_equal(map, si->caches[i].map);
		i++;
	}
	assert_int_equal(i, si->nr_caches);

	/* CPU_PMU_CAPS / PMU_CAPS: "# <pmu> pmu capabilities: a=1, b=2", caps in our order. */
	for (uint32_t k = 0; k < si->nr_pmus; k++) {
		const struct sysinfo_pmu *pmu = &si->pmus[k];

		fmt(prefix, sizeof(prefix), "# %s pmu capabilities: ", pmu->name);
		if (!pmu->nr_caps) {
			assert_null(header_line(text, prefix, line, sizeof(line)));
			continue;
		}
		assert_non_null(header_line(text, prefix, line, sizeof(line)));
		off = 0;
		for (uint32_t c = 0; c < pmu->nr_caps; c++)
			off += (size_t)snprintf(want + off, sizeof(want) - off, "%s%s=%s",
						c ? ", " : "", pmu->caps[c].name,
						pmu->caps[c].value);
		assert_string_equal(line, want);
	}

	/* HYBRID_TOPOLOGY: "# cpu_core cpu list : 0-7" for each hybrid PMU, none otherwise. */
	for (uint32_t k = 0; k < si->nr_pmus; k++) {
		const struct sysinfo_pmu *pmu = &si->pmus[k];

		fmt(prefix, sizeof(prefix), "# %s cpu list : ", pmu->name);
		if (!pmu->cpus)
			continue;
		assert_non_null(header_line(text, prefix, line, sizeof(line)));
		assert_string_equal(line, pmu->cpus);
	}
}

static char *slurp(const char *path)
{
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(buf);
	if (!f) {
		free(buf);
		return NULL;
	}
	while ((n = fread(buf + len, 1, cap - 1 - len, f)) > 0) {
		len += n;
		if (len == cap - 1) {
			cap *= 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}

/* Whether stock perf can be run here; prints why not. */
static bool perf_usable(void)
{
	if (access(PERF_BIN, X_OK)) {
		print_message("%s missing; skipping the comparison with perf\n", PERF_BIN);
		return false;
	}
	return true;
}

/* Records `true` with perf into dir/perf.data and returns its header text, or NULL. */
static char *perf_header_of_run(const char *dir)
{
	char cmd[PATH_MAX * 3], path[PATH_MAX];

	fmt(cmd, sizeof(cmd),
	    "cd %s && (" PERF_BIN " record -q -B --no-bpf-event -o perf.data -- true || " PERF_BIN
	    " record -q -B --no-bpf-event -e task-clock -o perf.data -- true || " PERF_BIN
	    " record -q -B --no-bpf-event -e dummy -C 0 -o perf.data -- true) >/dev/null 2>&1 && " PERF_BIN
	    " report --header-only -I -i perf.data > header.txt 2>/dev/null",
	    dir);
	if (system(cmd) != 0)
		return NULL;
	fmt(path, sizeof(path), "%s/header.txt", dir);
	return slurp(path);
}

static void test_live_matches_perf(void **state)
{
	char dir[] = "/tmp/prec-cache-pmu-live.XXXXXX";
	struct sysinfo si;
	char *text;
	int fd;

	(void)state;
	/* The live tree: CPU counts from sysinfo__read, then our parts from "/". */
	assert_int_equal(sysinfo__read(&si, "/"), 0);
	sysinfo__free_cache_pmu(&si); /* in case sysinfo__read already filled them */
	fd = open_root("/");
	assert_int_equal(sysinfo__read_caches(&si, fd), 0);
	assert_int_equal(sysinfo__read_pmus(&si, fd), 0);
	close(fd);
	/* Every Linux with perf events has these. */
	assert_true(si.nr_pmus > 0);
	for (uint32_t i = 0; i < si.nr_pmus; i++)
		if (!strcmp(si.pmus[i].name, "software"))
			assert_int_equal(si.pmus[i].type, 1);

	if (perf_usable()) {
		assert_non_null(mkdtemp(dir));
		text = perf_header_of_run(dir);
		if (!text) {
			print_message("perf record failed here; skipping the comparison\n");
		} else {
			/* perf ran with its default event: auxtrace PMUs come first. */
			sysinfo__pmus_perf_record_order(&si);
			check_against_perf(&si, text);
			free(text);
		}
		rm_rf(dir);
	}
	sysinfo__free_cache_pmu(&si);
	sysinfo__exit(&si);
}

/*
 * Runs perf with the fixture's CPU directory (a copy, with possible/present/
 * online added where the tree has none) and its event_source/devices (bound
 * as is, so readdir order is the tree's) over /sys, in a private mount
 * namespace. Returns the header text; NULL, with a message, when this
 * machine cannot do it (not root, no namespaces, perf refusing).
 */
static char *perf_header_of_fixture(const char *root, const struct fixture *f, const char *dir)
{
	char cpu_src[PATH_MAX], cpu_copy[PATH_MAX], devs[PATH_MAX], cmd[PATH_MAX * 3];
	static const char *const files[] = { "possible", "present", "online" };
	int status;
	pid_t pid;

	fmt(cpu_src, sizeof(cpu_src), "%s/sys/devices/system/cpu", root);
	fmt(cpu_copy, sizeof(cpu_copy), "%s/cpu", dir);
	fmt(devs, sizeof(devs), "%s/sys/bus/event_source/devices", root);
	fmt(cmd, sizeof(cmd), "cp -a '%s' '%s'", cpu_src, cpu_copy);
	if (system(cmd) != 0)
		return NULL;
	for (size_t i = 0; i < N(files); i++) {
		char path[PATH_MAX];

		fmt(path, sizeof(path), "%s/%s", cpu_copy, files[i]);
		if (access(path, F_OK)) {
			FILE *fp = fopen(path, "w");

			assert_non_null(fp);
			fprintf(fp, "%s\n", i == 2 ? f->online : f->possible);
			fclose(fp);
		}
	}

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (unshare(CLONE_NEWNS) || mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) ||
		    mount(cpu_copy, "/sys/devices/system/cpu", "none", MS_BIND, NULL) ||
		    mount(devs, "/sys/bus/event_source/devices", "none", MS_BIND, NULL))
			_exit(77);
		fmt(cmd, sizeof(cmd),
		    "cd %s && (" PERF_BIN
		    " record -q -B --no-bpf-event -e task-clock -o perf.data -- true || " PERF_BIN
		    " record -q -B --no-bpf-event -e dummy -C 0 -o perf.data -- true) >/dev/null 2>&1"
		    " && " PERF_BIN " report --header-only -I -i perf.data > header.txt "
		    "2>/dev/null",
		    dir);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		print_message("%s: no private mount namespace or perf refused (status %d); "
			      "skipping the comparison with perf\n",
			      f->name, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return NULL;
	}
	fmt(cmd, sizeof(cmd), "%s/header.txt", dir);
	return slurp(cmd);
}

static void test_fixtures_match_perf(void **state)
{
	struct sysinfo live;

	(void)state;
	if (!perf_usable())
		skip();
	if (geteuid() != 0) {
		print_message("not root: no bind mounts over /sys; skipping\n");
		skip();
	}
	assert_int_equal(sysinfo__read(&live, "/"), 0);
	for (size_t i = 0; i < N(fixtures); i++) {
		char root[PATH_MAX], dir[] = "/tmp/prec-cache-pmu-perf.XXXXXX";
		struct sysinfo si;
		char *text;

		fixture_path(root, sizeof(root), "sysinfo/%s", fixtures[i].name);
		assert_non_null(mkdtemp(dir));
		text = perf_header_of_fixture(root, &fixtures[i], dir);
		if (text) {
			read_tree(&si, root, fixtures[i].nr_cpus);
			/*
			 * The judge is this machine's perf, built for x86, run on
			 * software events: it orders the PMUs by its own CPU's
			 * vendor (the cpuid instruction), not the fixture's.
			 */
			strcpy(si.arch, "x86_64");
			si.cpuid = live.cpuid;
			sysinfo__pmus_perf_record_order(&si);
			si.cpuid = NULL;
			check_against_perf(&si, text);
			sysinfo__free_cache_pmu(&si);
			free(text);
		}
		rm_rf(dir);
	}
	sysinfo__exit(&live);
}

#define SCRATCH(fn) cmocka_unit_test_setup_teardown(fn, scratch__setup, scratch__teardown)
#define FIXTURE(i) cmocka_unit_test_prestate(test_fixture, (void *)&fixtures[i])

int main(void)
{
	const struct CMUnitTest tests[] = {
		FIXTURE(0),
		FIXTURE(1),
		FIXTURE(2),
		FIXTURE(3),
		FIXTURE(4),
		cmocka_unit_test(test_fixture_broken),
		cmocka_unit_test(test_live_matches_perf),
		cmocka_unit_test(test_fixtures_match_perf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}


