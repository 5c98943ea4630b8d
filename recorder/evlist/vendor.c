// SPDX-License-Identifier: GPL-2.0-only
/* The machine-dependent rules of perf 6.1's record path (see vendor.h). */
#include <string.h>

#include "prec/sysinfo.h"
#include "evlist/vendor.h"

/* arm64's PERF_REG_ARM64_LR (arch/arm64/include/uapi/asm/perf_regs.h). */
#define ARM64_REG_LR 30

/* AMD IBS filter bits perf 6.1 checks (arch/x86/util/evsel.c). */
#define IBS_FETCH_L3MISSONLY (1ULL << 59)
#define IBS_OP_L3MISSONLY (1ULL << 16)

bool vendor__cpuid_is_amd(const char *cpuid)
{
	return cpuid && !strncmp(cpuid, "AuthenticAMD", strlen("AuthenticAMD"));
}

void vendor__machine(struct event_machine *m, const struct sysinfo *si, bool can_profile_kernel)
{
	memset(m, 0, sizeof(*m));
	m->can_profile_kernel = can_profile_kernel;
	if (!si)
		return;
	m->amd = vendor__cpuid_is_amd(si->cpuid);
	for (uint32_t i = 0; i < si->nr_pmus; i++) {
		const struct sysinfo_pmu *p = &si->pmus[i];

		if (!p->name)
			continue;
		if (!strcmp(p->name, "ibs_fetch"))
			m->ibs_fetch_type = p->type;
		else if (!strcmp(p->name, "ibs_op"))
			m->ibs_op_type = p->type;
	}
}

int vendor__hybrid_pmus(const struct sysinfo *si, struct default_event_pmu *out, int max)
{
	int n = 0;

	for (uint32_t i = 0; si && i < si->nr_pmus && n < max; i++) {
		const struct sysinfo_pmu *p = &si->pmus[i];

		/* sysinfo keeps cpus only for what perf 6.1 takes as hybrid. */
		if (!p->name || !p->cpus || strncmp(p->name, "cpu_", 4))
			continue;
		out[n].name = p->name;
		out[n].type = p->type;
		out[n].cpus = p->cpus;
		n++;
	}
	return n;
}

const char *vendor__build_arch(void)
{
#if defined(__x86_64__)
	return "x86_64";
#elif defined(__i386__)
	return "i686";
#elif defined(__aarch64__)
	return "aarch64";
#elif defined(__arm__)
	return "armv7l";
#elif defined(__powerpc64__)
	return "ppc64le";
#elif defined(__s390x__)
	return "s390x";
#elif defined(__riscv)
	return "riscv64";
#else
	return "unknown";
#endif
}

static bool arch__is_x86(const char *arch)
{
	return arch && (!strcmp(arch, "x86_64") || !strcmp(arch, "x86") ||
			(arch[0] == 'i' && arch[1] && !strcmp(arch + 2, "86")));
}

uint64_t vendor__weight_bit(const char *arch)
{
	return arch__is_x86(arch) ? PERF_SAMPLE_WEIGHT_STRUCT : PERF_SAMPLE_WEIGHT;
}

uint64_t vendor__fp_leaf_regs(const char *arch)
{
	if (arch && (!strcmp(arch, "aarch64") || !strcmp(arch, "arm64")))
		return 1ULL << ARM64_REG_LR;
	return 0;
}

bool vendor__is_amd_ibs(const struct event_machine *m, const struct perf_event_attr *attr,
			const char *pmu_name)
{
	if (!m->amd)
		return false;
	if (attr->precise_ip || (pmu_name && !strncmp(pmu_name, "ibs", 3)))
		return true;
	return (m->ibs_fetch_type && attr->type == m->ibs_fetch_type) ||
	       (m->ibs_op_type && attr->type == m->ibs_op_type);
}

const char *vendor__einval_hint(const struct event_machine *m, const struct perf_event_attr *attr,
				const char *pmu_name, bool has_cpu)
{
	if (!vendor__is_amd_ibs(m, attr, pmu_name))
		return NULL;
	/* perf 6.1's order: per-thread mode first (IBS was no per-task PMU
	 * before Linux 6.2), then the kernel filter, then the rest. */
	if (!has_cpu)
		return "AMD IBS events may be invalid in per-thread mode: record system wide with -a";
	if (attr->exclude_kernel)
		return "AMD IBS can't exclude kernel events: try running at a higher privilege level";
	/* Every event is "not system-wide" to perf 6.1 here (only its own
	 * helper events are), so this is what it says, -a given or not. */
	return "AMD IBS may only be available in system-wide/per-cpu mode: try using -a, or -C and workload affinity";
}

bool vendor__ibs_l3miss(const struct event_machine *m, const struct perf_event_attr *attr,
			const char *pmu_name)
{
	bool fetch, op;

	if (!m->amd)
		return false;
	fetch = (pmu_name && !strcmp(pmu_name, "ibs_fetch")) ||
		(m->ibs_fetch_type && attr->type == m->ibs_fetch_type);
	op = (pmu_name && !strcmp(pmu_name, "ibs_op")) ||
	     (m->ibs_op_type && attr->type == m->ibs_op_type);
	if (fetch)
		return attr->config & IBS_FETCH_L3MISSONLY;
	if (op)
		return attr->config & IBS_OP_L3MISSONLY;
	return false;
}
