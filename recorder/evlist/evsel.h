#ifndef PREC_EVSEL_H
#define PREC_EVSEL_H
/* One event: its attr, its name, and an fd and id per CPU once opened. */
#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct bpf_filter;
struct cpu_map;
struct event_machine;
struct event_spec;
struct evlist_config;

struct evsel {
	struct perf_event_attr attr;
	char *name; /* owned */
	int idx; /* position in the evlist */
	bool precise_max; /* lower precise_ip until the kernel accepts it */
	uint8_t precise_ip_original; /* what precise_max started from (perf's, kept once set) */
	bool exclude_GH; /* :G/:H given: no falling back to a PMU without them */
	bool name_from_attr; /* rename from the attr after a fallback */
	bool immediate; /* enabled at open, not by evlist__enable (tracking dummy) */
	int cgroup_fd; /* -G: open for this cgroup (PERF_FLAG_PID_CGROUP); -1 none */
	int leader; /* index of the group leader in the evlist; its own index if none */
	int nr_members; /* on a leader: the group's events, itself included */
	const char *group_name; /* on a leader: NAME{...}; owned by the specs */
	/* --filter, owned by the specs: a tracepoint's ftrace filter, or a BPF
	 * sample filter (filter_bpf), loaded by bpf_filters__attach (bpf/filter.h) into
	 * bpf_filter, which bpf_filters__detach frees */
	const char *filter;
	bool filter_bpf;
	struct bpf_filter *bpf_filter;
	const char *pmu_name; /* sysfs PMU (cpu_core, ibs_op), else NULL; owned by the specs */
	/*
	 * The only CPUs it opens on (a hybrid PMU's), owned; NULL: every CPU of
	 * the recording. The fd and id slots of the others stay -1 and 0.
	 */
	struct cpu_map *pmu_cpus;
	bool weak_group; /* on a leader (:W): open the members alone if the group does not fit */
	/*
	 * perf's core.system_wide: opened for any thread (pid -1) on every
	 * CPU of own_cpus (all online, owned), whatever the target; its fds
	 * write into the ring of their CPU, or one of their own.
	 */
	bool system_wide;
	struct cpu_map *own_cpus;
	const int *open_cpus; /* the CPU of each cpu index, as opened (borrowed from a map) */
	const int *open_tids; /* the tid of each thread index (-1: any), as opened (borrowed) */
	int nr_cpus;
	int nr_threads;
	int *fd; /* [cpu index * nr_threads + thread index], -1 when not open */
	uint64_t *id; /* same index, the kernel's event id (0 when not open) */
};

/* The fd slot of one (cpu index, thread index) pair. */
#define EVSEL_FD(e, c, t) ((e)->fd[(c) * (e)->nr_threads + (t)])
#define EVSEL_ID(e, c, t) ((e)->id[(c) * (e)->nr_threads + (t)])

/*
 * Configures the attr (which starts as the spec's) as perf record does for
 * cfg: sample_type, read_format, frequency or period, inherit,
 * enable_on_exec, the side-band bits when tracking; then the -e string's own
 * terms, then the machine's rules (vendor.h) for m. *warned: a once-per-
 * recording warning was given (set here).
 */
void evsel__config(struct evsel *evsel, const struct event_spec *spec,
		   const struct event_machine *m, const struct evlist_config *cfg, bool tracking,
		   bool *warned);

/*
 * Makes the evsel perf's tracking dummy for -a/-C and -D: it records the
 * side-band from the moment it is opened (immediately enabled, or at exec
 * for a delayed workload), while the sampling events may start later.
 */
void evsel__config_dummy(struct evsel *evsel, const struct evlist_config *cfg);

/*
 * Opens the event for every (cpu, thread) pair (but the CPUs pmu_cpus leaves
 * out), in leader's group when leader is not NULL (its fds must be open) (a
 * cpu or thread of -1 means any), retrying with perf 6.1's fallbacks in its
 * order: on any error precise_ip lowered one by one (precise_max events; back
 * to where it started once 0 fails too); on EINVAL at the first open the
 * kernel features it may lack (read_format LOST, WEIGHT_STRUCT) and a PMU
 * without exclude_guest/host; then hardware -> cpu-clock, and the kernel
 * excluded when kernel.perf_event_paranoid > 1 refuses it (not for an event
 * that excludes user space: nothing would be left). A thread that has
 * exited (ESRCH) is skipped while others remain. Fills fd[] and id[].
 * Returns 0, or a negative errno with nothing left open and *failed_cpu /
 * *failed_thread naming the pair that failed.
 */
int evsel__open(struct evsel *evsel, const struct evsel *leader, const int *cpus, int nr_cpus,
		const int *threads, int nr_threads, int *failed_cpu, int *failed_thread);

/*
 * Renames the event to base plus perf's modifier suffix for its attr (e.g.
 * "cpu-clock:pppH"), as perf names an event it had to change. 0 or -ENOMEM.
 */
int evsel__rename_from_attr(struct evsel *evsel, const char *base);

/*
 * Makes the evsel perf 6.1's text_poke dummy for --kcore
 * (record__config_text_poke over evlist__add_dummy_on_all_cpus): dummy:u,
 * user space only, text_poke and ksymbol, TIME sampled, immediately enabled,
 * system-wide on all online CPUs, with no callchain or branch stack. 0 or
 * -errno (reading the online CPUs).
 */
int evsel__config_text_poke(struct evsel *evsel, const struct evlist_config *cfg);

/* Closes every fd; safe to call twice. */
void evsel__close(struct evsel *evsel);

/* Frees fd[], id[] and the name (not the struct, which lives in an array). */
void evsel__exit(struct evsel *evsel);

#endif
