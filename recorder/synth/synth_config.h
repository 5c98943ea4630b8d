/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_SYNTH_CONFIG_H
#define PREC_SYNTH_CONFIG_H
/*
 * The part of the command line the side-band is synthesized from: filled
 * once from the final options (synth_config__init, recorder/record_prepare.c),
 * read by sideband.c and background.c (and the output, which calls them), so
 * the synthesis never sees the whole options struct. Zero is "not asked for".
 */
#include <stdbool.h>

struct synth_config {
	/* Which records of the existing tasks (--synth's words). */
	bool tasks; /* FORK/COMM/NAMESPACES of existing threads */
	bool mmaps; /* and their MMAP2s */
	bool cgroups; /* CGROUP records: --all-cgroups with --synth's cgroup */
	/* What the records hold (perf record's flags of the same names). */
	bool data_mmap; /* MMAP2s of data mappings too */
	bool namespaces; /* NAMESPACES records */
	bool buildid_mmap; /* MMAP2 with build-ids, kernel and modules too */
	bool no_bpf_event; /* no KSYMBOL/BPF_EVENT of loaded programs */
	/* When and how. */
	bool tail; /* --tail-synthesize: after the data, not before */
	unsigned nr_threads; /* --num-thread-synthesize: 0 prec's default */
	unsigned proc_map_timeout_ms; /* --proc-map-timeout: 0 perf's 500 ms */
	const char *buildid_dir; /* buildid.dir, for the cached kallsyms; NULL: $HOME/.debug */
};

#endif
