// SPDX-License-Identifier: GPL-2.0-only
/*
 * Encoders for the features that describe the machine and the command:
 * HOSTNAME .. CMDLINE, byte for byte as perf 6.1's write_*() in
 * tools/perf/util/header.c. Strings are perf's padded strings
 * (feat_sink__put_string). What sysinfo could not read is left out
 * (-ENOENT), except HOSTNAME.
 */
#include <errno.h>

#include "prec/sysinfo.h"
#include "features.h"

/* A utsname field sysinfo left empty: nothing to say. */
static int put_nonempty(struct feat_sink *s, const char *str)
{
	if (!str || !str[0])
		return -ENOENT;
	return feat_sink__put_string(s, str);
}

int feat__write_hostname(struct feat_sink *s, const struct writer_meta *meta)
{
	/* Always written, even empty: perf's reader uses this bit to tell
	 * whether the feature sections need byte-swapping. */
	return feat_sink__put_string(s, meta->si ? meta->si->hostname : "");
}

int feat__write_osrelease(struct feat_sink *s, const struct writer_meta *meta)
{
	return put_nonempty(s, meta->si ? meta->si->osrelease : NULL);
}

int feat__write_version(struct feat_sink *s, const struct writer_meta *meta)
{
	return put_nonempty(s, meta->version);
}

int feat__write_arch(struct feat_sink *s, const struct writer_meta *meta)
{
	return put_nonempty(s, meta->si ? meta->si->arch : NULL);
}

int feat__write_nrcpus(struct feat_sink *s, const struct writer_meta *meta)
{
	const struct sysinfo *si = meta->si;

	/* perf sizes its per-CPU topology arrays by nr_cpus_avail: a zero is
	 * worse than no feature at all. */
	if (!si || !si->nr_cpus_avail || !si->nr_cpus_online)
		return -ENOENT;
	/* Available (max present + 1) first, then online: the order of perf's
	 * write_nrcpus()/process_nrcpus(), though it prints online first. */
	feat_sink__put_u32(s, si->nr_cpus_avail);
	return feat_sink__put_u32(s, si->nr_cpus_online);
}

int feat__write_cpudesc(struct feat_sink *s, const struct writer_meta *meta)
{
	return put_nonempty(s, meta->si ? meta->si->cpudesc : NULL);
}

int feat__write_cpuid(struct feat_sink *s, const struct writer_meta *meta)
{
	/* perf drops CPUID when get_cpuid() fails; so do we. */
	return put_nonempty(s, meta->si ? meta->si->cpuid : NULL);
}

int feat__write_total_mem(struct feat_sink *s, const struct writer_meta *meta)
{
	if (!meta->si || !meta->si->total_mem_kb)
		return -ENOENT;
	return feat_sink__put_u64(s, meta->si->total_mem_kb);
}

int feat__write_cmdline(struct feat_sink *s, const struct writer_meta *meta)
{
	const char *exe = meta->exe;
	uint32_t nr_args = 0;

	/* argv[0] is replaced by the recorder's own path, as perf puts
	 * perf_exe() first; without either there is no command line. */
	if (!exe && meta->argc > 0 && meta->argv)
		exe = meta->argv[0];
	if (!exe)
		return -ENOENT;
	/* Trust argv only up to its NULL terminator, whatever argc says. */
	if (meta->argv) {
		while ((int)nr_args + 1 < meta->argc && meta->argv[nr_args + 1])
			nr_args++;
	}
	feat_sink__put_u32(s, nr_args + 1);
	feat_sink__put_string(s, exe);
	for (uint32_t i = 1; i <= nr_args; i++)
		feat_sink__put_string(s, meta->argv[i]);
	return feat_sink__err(s);
}
