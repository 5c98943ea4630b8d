// SPDX-License-Identifier: GPL-2.0-only
/*
 * What needs AUX area tracing or BPF, and the line prec gives for it
 * (aux_area.h). perf 6.1 reads the AUX area of Intel PT/BTS, CoreSight,
 * SPE, PTT and s390 sampling PMUs with per-PMU decoders' setup (the
 * AUXTRACE_INFO record); prec maps no AUX area, so recording such an event
 * would give a file with no trace in it: it is refused with what to use.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "events/parse_events.h"
#include "evlist/aux_area.h"

/* perf's arch/ * /util/auxtrace.c PMUs; some are numbered (arm_spe_0,
 * hisi_ptt0_2), so a digit or '_' may follow the name. */
static const char *const aux_pmus[] = { "intel_pt", "intel_bts", "cs_etm", "arm_spe",
					"hisi_ptt", "cpum_sf" };

bool aux_area__pmu(const char *pmu_name)
{
	if (!pmu_name)
		return false;
	for (size_t i = 0; i < sizeof(aux_pmus) / sizeof(aux_pmus[0]); i++) {
		size_t n = strlen(aux_pmus[i]);

		if (!strncmp(pmu_name, aux_pmus[i], n) &&
		    (pmu_name[n] == '\0' || pmu_name[n] == '_' ||
		     (pmu_name[n] >= '0' && pmu_name[n] <= '9')))
			return true;
	}
	return false;
}

bool aux_area__bpf_scriptlet(const char *event)
{
	size_t n = strlen(event);
	struct stat st;

	if (n < 3 || event[n - 2] != '.' || (event[n - 1] != 'c' && event[n - 1] != 'o'))
		return false;
	return !stat(event, &st) && S_ISREG(st.st_mode);
}

static const struct event_spec *first_aux_event(const struct event_specs *specs)
{
	for (int i = 0; i < specs->nr; i++)
		if (aux_area__pmu(specs->v[i].pmu_name))
			return &specs->v[i];
	return NULL;
}

int aux_area__check(const struct event_specs *specs, bool snapshot, bool sample,
		    struct prec_err *e)
{
	const struct event_spec *aux = first_aux_event(specs);

	if (aux)
		return prec_err__set(
			e, -EINVAL,
			"event '%s': prec does not record AUX area traces (%s): record it with perf record",
			aux->name, aux->pmu_name);
	for (int i = 0; i < specs->nr; i++) {
		if (specs->v[i].terms.set & (EVENT_TERM_AUX_OUTPUT | EVENT_TERM_AUX_SAMPLE_SIZE))
			return prec_err__set(
				e, -EINVAL,
				"event '%s': aux-output and aux-sample-size need an AUX area event in the group (e.g. intel_pt//), and this recording has none",
				specs->v[i].name);
	}
	/* perf's own words, then the fix. */
	if (snapshot)
		return prec_err__set(
			e, -EINVAL,
			"No AUX area tracing to snapshot (-S/--snapshot needs an AUX area event such as -e intel_pt//; for a flight recorder of these events use --overwrite and SIGUSR2)");
	if (sample)
		return prec_err__set(
			e, -EINVAL,
			"No AUX area event to sample (--aux-sample needs an AUX area event grouped with the sampled one, e.g. -e '{intel_pt//,cycles}')");
	return 0;
}
