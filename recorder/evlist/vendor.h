#ifndef PREC_RECORDER_VENDOR_H
#define PREC_RECORDER_VENDOR_H
/*
 * Everything perf 6.1's record path does differently by CPU vendor, PMU or
 * the architecture it was built for, as pure functions of those facts, so
 * each rule is tested with the strings of every kind of machine (Intel,
 * AMD, Hygon, hybrid, arm64, unknown) whatever machine runs the tests.
 * The rules and where perf 6.1 has them:
 *
 *  - AMD (cpuid starts with "AuthenticAMD", Hygon excluded): the default
 *    cycles event keeps exclude_guest = 0 (arch_evsel__fixup_new_cycles);
 *    EINVAL on an IBS event (precise, or an ibs_* PMU) gets perf's IBS
 *    advice (evsel__open_strerror); ibs_fetch/ibs_op with the L3 miss
 *    filter warn that the period is skewed (arch__post_evsel_config).
 *  - Hybrid core PMUs: one default cycles event per PMU on its CPUs
 *    (evlist__add_default_hybrid), parse_events__add_default.
 *  - Built for x86: -W samples PERF_SAMPLE_WEIGHT_STRUCT, elsewhere
 *    PERF_SAMPLE_WEIGHT (arch_evsel__set_sample_weight).
 *  - Built for arm64: --call-graph fp also samples the user LR, so the
 *    leaf's caller is known (perf's arch__add_leaf_frame_record_* hook).
 */
#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "events/parse_events.h"

struct sysinfo;

/* perf 6.1's AMD test on a HEADER_CPUID string: it starts with "AuthenticAMD". */
bool vendor__cpuid_is_amd(const char *cpuid);

/*
 * Fills *m from a machine snapshot (NULL: nothing known) and whether the
 * kernel may be profiled. Pure.
 */
void vendor__machine(struct event_machine *m, const struct sysinfo *si, bool can_profile_kernel);

/*
 * The hybrid core PMUs of si (perf 6.1: a "cpu_*" PMU with a cpus list), in
 * sysfs order, pointing into si. Returns how many were written to out (at
 * most max).
 */
int vendor__hybrid_pmus(const struct sysinfo *si, struct default_event_pmu *out, int max);

/* The architecture prec was built for, as uname -m spells it ("x86_64"). */
const char *vendor__build_arch(void);

/* The sample_type bit -W asks for on a perf built for arch (uname -m). */
uint64_t vendor__weight_bit(const char *arch);

/* The user registers --call-graph fp adds on a perf built for arch (0: none). */
uint64_t vendor__fp_leaf_regs(const char *arch);

/*
 * perf 6.1's is_amd_ibs: on AMD, an event that goes to IBS (precise_ip set,
 * or an ibs_* PMU, by name or by type).
 */
bool vendor__is_amd_ibs(const struct event_machine *m, const struct perf_event_attr *attr,
			const char *pmu_name);

/*
 * perf 6.1's advice for EINVAL on an AMD IBS event (evsel__open_strerror,
 * in its order: per-thread mode, then an excluded kernel, then the rest),
 * or NULL when the event is no AMD IBS event.
 */
const char *vendor__einval_hint(const struct event_machine *m, const struct perf_event_attr *attr,
				const char *pmu_name, bool has_cpu);

/*
 * Whether the event is an AMD IBS fetch or op event with the L3 miss filter
 * (ibs_fetch config bit 59, ibs_op bit 16), which perf 6.1 warns about.
 */
bool vendor__ibs_l3miss(const struct event_machine *m, const struct perf_event_attr *attr,
			const char *pmu_name);

#endif
