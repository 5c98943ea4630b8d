// SPDX-License-Identifier: GPL-2.0-only
/*
 * Encoders for the event sources: PMU_MAPPINGS, CPU_PMU_CAPS,
 * HYBRID_TOPOLOGY and PMU_CAPS, byte for byte as perf 6.1's
 * write_pmu_mappings(), write_cpu_pmu_caps(), write_hybrid_topology() and
 * write_pmu_caps(). The PMUs come from sysinfo in directory order, which is
 * the order perf_pmu__scan() walks them.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "prec/number.h"
#include "prec/sysinfo.h"
#include "features.h"

/*
 * perf 6.1's perf_pmu__hybrid_mounted(): a "cpu_*" PMU whose cpus file
 * fscanf("%u") can read a number from (cpu_core, cpu_atom on Intel hybrid
 * parts): blanks, an optional sign, a digit.
 */
static bool pmu_is_hybrid(const struct sysinfo_pmu *p)
{
	const char *c = p->cpus;

	if (!p->name || strncmp(p->name, "cpu_", 4) || !c)
		return false;
	while (text__is_blank(*c))
		c++;
	if (*c == '+' || *c == '-')
		c++;
	return isdigit((unsigned char)*c);
}

static bool pmu_is_cpu(const struct sysinfo_pmu *p)
{
	return p->name && !strcmp(p->name, "cpu");
}

static bool pmu_named(const struct sysinfo_pmu *p)
{
	return p->name != NULL;
}

/* PMU_CAPS counts every PMU but "cpu" (that is CPU_PMU_CAPS) with caps. */
static bool pmu_caps_counted(const struct sysinfo_pmu *p)
{
	return p->name && !pmu_is_cpu(p) && p->nr_caps;
}

static bool pmus_ok(const struct sysinfo *si)
{
	return !si->nr_pmus || si->pmus;
}

/* How many of meta's PMUs counted() takes, in *nr. 0, -ENOENT without
 * sysinfo, -EINVAL for a PMU list that is not there. */
static int count_pmus(const struct writer_meta *meta, bool (*counted)(const struct sysinfo_pmu *),
		      uint32_t *nr)
{
	const struct sysinfo *si = meta->si;

	*nr = 0;
	if (!si)
		return -ENOENT;
	if (!pmus_ok(si))
		return -EINVAL;
	for (uint32_t i = 0; i < si->nr_pmus; i++)
		*nr += counted(&si->pmus[i]);
	return 0;
}

/* u32 nr_caps, then {string name, string value} for each caps/ file. */
static int put_caps(struct feat_sink *s, const struct sysinfo_pmu *p)
{
	if (p->nr_caps && !p->caps)
		return -EINVAL;
	feat_sink__put_u32(s, p->nr_caps);
	for (uint32_t i = 0; i < p->nr_caps; i++) {
		feat_sink__put_string(s, p->caps[i].name);
		feat_sink__put_string(s, p->caps[i].value);
	}
	return feat_sink__err(s);
}

/*
 * u32 nr, then {u32 type, string name} per PMU. Written on every machine:
 * perf writes nr 0 when it finds no event source (event_source/devices
 * missing or empty: a hidden or stripped sysfs; perf report then prints the
 * PMUs of the machine that reads the file, for perf's file and ours alike).
 */
int feat__write_pmu_mappings(struct feat_sink *s, const struct writer_meta *meta)
{
	const struct sysinfo *si = meta->si;
	uint32_t nr;
	int err = count_pmus(meta, pmu_named, &nr);

	if (err)
		return err;
	feat_sink__put_u32(s, nr);
	for (uint32_t i = 0; i < si->nr_pmus; i++) {
		const struct sysinfo_pmu *p = &si->pmus[i];

		if (!p->name)
			continue;
		feat_sink__put_u32(s, p->type);
		feat_sink__put_string(s, p->name);
	}
	return feat_sink__err(s);
}

/*
 * The caps of the PMU named "cpu", without its name. Only when that PMU
 * exists (not on hybrid parts, not in most VMs); when it has no caps/
 * directory perf still writes it, with nr 0, and prints "cpu pmu
 * capabilities: not available". A caps/ perf cannot list (opendir fails)
 * makes perf_pmu__caps_parse return -EINVAL, and the feature is dropped.
 */
int feat__write_cpu_pmu_caps(struct feat_sink *s, const struct writer_meta *meta)
{
	const struct sysinfo *si = meta->si;

	if (!si || !pmus_ok(si))
		return si ? -EINVAL : -ENOENT;
	for (uint32_t i = 0; i < si->nr_pmus; i++) {
		if (!pmu_is_cpu(&si->pmus[i]))
			continue;
		if (si->pmus[i].caps_unreadable)
			return -ENOENT;
		return put_caps(s, &si->pmus[i]);
	}
	return -ENOENT;
}

/* u32 nr, then {string pmu name, string cpus} per hybrid core PMU; only on
 * hybrid parts. */
int feat__write_hybrid_topology(struct feat_sink *s, const struct writer_meta *meta)
{
	const struct sysinfo *si = meta->si;
	uint32_t nr;
	int err = count_pmus(meta, pmu_is_hybrid, &nr);

	if (err)
		return err;
	if (!nr)
		return -ENOENT;
	feat_sink__put_u32(s, nr);
	for (uint32_t i = 0; i < si->nr_pmus; i++) {
		const struct sysinfo_pmu *p = &si->pmus[i];

		if (!pmu_is_hybrid(p))
			continue;
		feat_sink__put_string(s, p->name);
		feat_sink__put_string(s, p->cpus);
	}
	return feat_sink__err(s);
}

/*
 * u32 nr_pmu, then per PMU: u32 nr_caps, the {name, value} pairs, string pmu
 * name. Written on every machine, as perf 6.1's write_pmu_caps() lays it out:
 *  - nr_pmu counts the PMUs other than "cpu" that have caps; when it is 0
 *    nothing follows;
 *  - else the hybrid core PMUs come first, each of them, caps or not ("to
 *    maintain compatibility with older perf tool", which read only those),
 *    then the other PMUs with caps in directory order.
 * A hybrid PMU without caps is thus written without being counted, and the
 * reader, which reads nr_pmu entries, never sees the last ones: perf's
 * layout, kept because perf prints what it reads (the count is the header).
 */
int feat__write_pmu_caps(struct feat_sink *s, const struct writer_meta *meta)
{
	const struct sysinfo *si = meta->si;
	uint32_t nr;
	int err = count_pmus(meta, pmu_caps_counted, &nr);

	if (err)
		return err;
	feat_sink__put_u32(s, nr);
	if (!nr)
		return feat_sink__err(s);
	for (int pass = 1; pass >= 0; pass--) {
		for (uint32_t i = 0; i < si->nr_pmus; i++) {
			const struct sysinfo_pmu *p = &si->pmus[i];

			if (!p->name || pmu_is_cpu(p) || pmu_is_hybrid(p) != pass)
				continue;
			if (!pass && !p->nr_caps)
				continue;
			err = put_caps(s, p);
			if (err)
				return err;
			feat_sink__put_string(s, p->name);
		}
	}
	return feat_sink__err(s);
}
