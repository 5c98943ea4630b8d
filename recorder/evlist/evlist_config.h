#ifndef PREC_EVLIST_CONFIG_H
#define PREC_EVLIST_CONFIG_H
/*
 * The part of the command line the events are configured from, and the
 * target's shape: filled once from the final options (evlist_config__init,
 * recorder/record_prepare.c), read by evlist__init and evsel__config, so the
 * events never see the whole options struct. Zero is "not asked for" in every
 * field but cgroup_fd.
 */
#include <stdbool.h>
#include <stdint.h>

struct evlist_config {
	/* The target. */
	bool has_cpu; /* -a or -C: per-CPU events for any task (perf's target__has_cpu) */
	bool workload_only; /* only a forked command: its events are enabled at exec */
	bool inherit; /* children inherit the events (not -i, -t, --per-thread) */
	bool delayed; /* -D: the events wait; a tracking dummy carries the side-band */
	bool stream; /* a pipe: ID is sampled even for one event */
	const char *cpu_list; /* -C as written, for the hybrid warnings; NULL without */
	int cgroup_fd; /* -G's directory (PERF_FLAG_PID_CGROUP); -1 none */
	/* How often. */
	uint64_t period; /* -c; 0 samples by freq */
	uint64_t freq; /* the effective -F (the kernel's limit applied) */
	bool user_freq; /* -F given: tracepoints and breakpoints sample by it too */
	bool no_samples; /* -n: count, never sample */
	bool use_clockid; /* -k */
	int clockid;
	/* What each sample holds (perf record's flags of the same names). */
	bool no_sample_time; /* --per-thread without -T: no ring needs ordering */
	bool sample_addr, sample_cpu, raw_samples, sample_weight, phys_data;
	bool sample_data_src; /* --sample-mem-info, or -d */
	bool data_mmap; /* --data-mmap, or -d: the tracking event's mmap_data */
	bool data_page_size, code_page_size, sample_identifier, sample_period;
	bool inherit_stat, all_cgroups;
	bool sample_transaction, running_time; /* --transaction, --running-time */
	uint64_t branch_filter; /* -b / -j; 0 none */
	uint64_t user_regs, intr_regs; /* --user-regs, -I masks; 0 none */
	int callchain_mode; /* enum callchain_mode (recorder/options/callchain.h), 0 none */
	uint32_t callchain_dump; /* --call-graph dwarf,SIZE; 0: the default */
	uint32_t callchain_max_stack; /* fp,N's depth, of every callchain; 0: the sysctl's */
	bool user_callchains, kernel_callchains;
	/* The rings and the privilege levels. */
	bool overwrite; /* --overwrite: backward rings */
	bool no_buffering; /* a wakeup per record */
	bool all_user, all_kernel;
	/* Side-band on the tracking event. */
	bool switch_events, namespaces, buildid_mmap;
	bool no_bpf_event; /* --no-bpf-event: attr.bpf_event off, as perf */
	/* --kcore: perf's system-wide dummy:u for text_poke and ksymbol, which
	 * then leave the tracking event (perf 6.1's opts->text_poke). */
	bool text_poke;
};

#endif
