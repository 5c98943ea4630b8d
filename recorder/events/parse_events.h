#ifndef PREC_PARSE_EVENTS_H
#define PREC_PARSE_EVENTS_H
/*
 * The -e grammar -> event specs, as perf 6.1 parses it:
 *
 *   events := item (',' item)*
 *   item   := [NAME] '{' event (',' event)* '}' [':' MODS]      a group
 *           | event
 *   event  := SYMBOL ['/' TERMS '/' | '//'] [MODS']             cycles, cpu-clock, ...
 *           | CACHE ['/' TERMS '/'] [':' MODS]                  L1-dcache-load-misses
 *           | rHEX ['/' TERMS '/'] [':' MODS]                   raw
 *           | TYPE ':' CONFIG ['/' TERMS '/'] [':' MODS]        numeric (1:0)
 *           | SYS ':' NAME ['/' TERMS '/'] [':' MODS]           tracepoint; globs * ?
 *           | 'mem:' ADDR ['/' LEN] [':' rwx] [':' MODS]        breakpoint
 *           | PMU '/' [TERMS] '/' [MODS']                       sysfs PMU (imc/ = uncore_imc_N/)
 *           | ALIAS ['/' TERMS '/'] [MODS']                     a PMU's events/ alias
 *   MODS   := [ukhpPGHSDIWeb]+   (MODS' may also follow the closing '/' directly, as perf)
 *   TERMS  := TERM (',' TERM)*,  TERM := KEY ['=' (NUM | 0xHEX | STRING | 'QUOTED')]
 *
 * Pure but for reads of sysfs and tracefs below the roots the context
 * names, so tests point them at fixture trees. No perf_event_open: what
 * depends on the machine or the privileges comes in through the context
 * (struct parse_events_ctx, struct default_event_env, struct event_machine).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/perf_event.h>

#include "prec/error.h"

/*
 * The parser's context: where it looks things up and what it may ask of the
 * machine, all from the caller (the parser links nothing above sysinfo/).
 * NULL members mean the live system's roots; a NULL context is all NULL.
 */
struct parse_events_ctx {
	const char *sysfs; /* sysfs mount ("/sys"): PMUs below bus/event_source/devices */
	const char *tracefs; /* tracefs mount: tracepoints below events/ */
	/*
	 * Whether this machine opens an event: for the event list (perf lists
	 * hardware, cache and software events only then) and, on a hybrid
	 * machine, which core PMUs count a cache event (perf's
	 * is_event_supported). The recorder passes evlist__event_supported;
	 * NULL takes every one as supported.
	 */
	bool (*supported)(const struct perf_event_attr *attr);
};

/* Which per-event terms the user gave; the recorder applies each over its defaults. */
enum event_term_bit {
	EVENT_TERM_PERIOD = 1u << 0, /* sample_period = period, freq = 0 */
	EVENT_TERM_FREQ = 1u << 1, /* sample_freq = freq, freq = 1, PERF_SAMPLE_PERIOD */
	EVENT_TERM_CALLGRAPH = 1u << 2, /* call_graph as --call-graph ("no": none) */
	EVENT_TERM_STACKSIZE = 1u << 3, /* dwarf stack dump size */
	EVENT_TERM_MAX_STACK = 1u << 4, /* attr.sample_max_stack */
	EVENT_TERM_INHERIT = 1u << 5, /* attr.inherit = inherit (inherit / no-inherit) */
	EVENT_TERM_OVERWRITE = 1u << 6, /* write_backward ring (overwrite / no-overwrite) */
	EVENT_TERM_TIME = 1u << 7, /* PERF_SAMPLE_TIME on or off */
	EVENT_TERM_BRANCH_TYPE = 1u << 8, /* branch stack with branch_sample_type (0: none) */
	EVENT_TERM_MAX_EVENTS = 1u << 9, /* nr=: stop after this many samples */
	EVENT_TERM_PERCORE = 1u << 10, /* perf stat only */
	EVENT_TERM_AUX_OUTPUT = 1u << 11, /* attr.aux_output */
	EVENT_TERM_AUX_SAMPLE_SIZE = 1u << 12, /* attr.aux_sample_size, PERF_SAMPLE_AUX */
	EVENT_TERM_METRIC_ID = 1u << 13, /* perf stat only */
	EVENT_TERM_CPU = 1u << 14, /* cpu=N (perf 6.16): open on the CPUs of cpus only */
};

/* The highest CPU a cpu= term names (the recorder's CPU lists end there too). */
#define EVENT_TERM_CPU_MAX 65535

/*
 * Per-event terms (pmu/period=1000,call-graph=dwarf/). perf applies them in
 * the order given, so of period= and freq= only the later one is set.
 */
struct event_terms {
	uint32_t set; /* EVENT_TERM_* */
	uint64_t period;
	uint64_t freq;
	char *call_graph;
	uint64_t stack_size;
	uint64_t max_stack;
	uint64_t max_events;
	uint64_t aux_sample_size;
	uint64_t branch_sample_type; /* PERF_SAMPLE_BRANCH_*, from branch_type= */
	char *metric_id;
	/* cpu= terms (repeatable, merged): the CPUs as given, joined ("0,2") */
	char *cpus;
	bool inherit;
	bool overwrite;
	bool time;
	bool percore;
	bool aux_output;
};

struct event_spec {
	char *name; /* perf's evsel name: the event as written, a name= term, sys:name */
	/*
	 * type, config*, bp_*, modifier bits, exclude_guest as perf defaults it;
	 * tracepoints and breakpoints (and bpf-output) come with the
	 * sample_period (1) and sample_type bits perf gives them at creation:
	 * keep them unless -c/-F asks otherwise, and OR sample_type.
	 */
	struct perf_event_attr attr;
	bool precise_max; /* :P, or the default event: highest precise_ip that opens */
	bool name_from_attr; /* recompute the name from the attr (default event) */

	/* Groups; indexes are into event_specs.v. */
	int leader; /* this event's group leader; its own index when not in a group */
	int nr_members; /* on a leader: the events of its group, itself included (1: none) */
	char *group_name; /* on a leader: NAME of NAME{...}, else NULL */
	bool sample_read; /* :S; in a group, the leader's samples read the members */
	bool weak_group; /* :W: open the members ungrouped when the group does not fit */

	char *pmu_name; /* the sysfs PMU of pmu/.../ and alias events, else NULL */
	/*
	 * The CPUs this event counts on (a hybrid core PMU's "cpus" list, e.g.
	 * "0-15"); NULL: every CPU of the recording.
	 */
	char *cpus;
	bool exclude_GH; /* :G or :H given: the PMU must honour them (no fallback) */
	bool counting_only; /* that PMU cannot sample (msr, uncore): perf record fails */
	/* --filter / --exclude-perf: a tracepoint's ftrace filter, or for any
	 * other event a BPF sample filter (filter_bpf; events/bpf_filter_parse.h) */
	char *filter;
	bool filter_bpf;
	struct event_terms terms;
};

/*
 * The facts about the machine that perf 6.1's record path turns into
 * defaults, fallbacks and error advice: the answers of the rules in
 * recorder/evlist/vendor.h, filled by the recorder (vendor__machine), never
 * looked up here. Zeroed: a machine perf knows nothing about (the rules for
 * an unknown CPU).
 */
struct event_machine {
	/* perf 6.1's AMD test: the cpuid string starts with "AuthenticAMD" (a
	 * Hygon CPU is not AMD to perf 6.1) */
	bool amd;
	/* perf_event_paranoid_check(1): CAP_PERFMON or CAP_SYS_ADMIN, or
	 * kernel.perf_event_paranoid <= 1 */
	bool can_profile_kernel;
	uint32_t ibs_fetch_type; /* attr.type of the ibs_fetch PMU, 0 when absent */
	uint32_t ibs_op_type; /* attr.type of the ibs_op PMU, 0 when absent */
	/* a hybrid machine (several core PMUs): perf 6.1 adds its tracking
	 * dummy event there whatever the target */
	bool hybrid;
};

struct event_specs {
	struct event_spec *v;
	int nr;
	int last_arg; /* index of the first event the last -e argument added */
	struct event_machine machine; /* the recorder's event_specs__for_machine fills it */
};

/*
 * Parses one -e argument and appends its events to specs, looking PMUs and
 * tracepoints up below ctx's roots (NULL ctx: the live ones). All or
 * nothing: returns 0, or -EINVAL with one line in err naming the offending
 * token, its offset and what is accepted there, or -ENOMEM; on failure
 * specs is as it was. specs owns what it holds; free with
 * event_specs__exit. On a hybrid machine (core PMUs cpu_core and cpu_atom,
 * each with its CPUs) the hardware, raw and cache events are perf 6.1's
 * one per core PMU, named "cpu_core/cycles/" (events/pe_hybrid.c), with
 * the context's probe deciding which PMU counts a cache event.
 */
int parse_events_ctx(struct event_specs *specs, const char *str, const struct parse_events_ctx *ctx,
		     struct prec_err *e);

/*
 * The groups from index from on whose events belong to two core PMUs of a
 * hybrid machine or more ({cycles,instructions} there: cycles and
 * instructions of cpu_atom, and of cpu_core) become one group per core PMU,
 * in the order the PMUs first appear, each event in its own PMU's group and
 * the events of no core PMU in the group's first PMU's; the group's name
 * and pinned/exclusive modifiers go to every new leader. perf 6.1 keeps one
 * group, which the kernel refuses (a group counts on its leader's CPU);
 * perf 6.4 and later split it so. parse_events_ctx does it for each
 * argument; --group calls it again. 0, or -ENOMEM with specs unchanged.
 */
int event_specs__split_hybrid_groups(struct event_specs *specs, int from);

/* parse_events_ctx with the live sysfs and tracefs. */
int parse_events(struct event_specs *specs, const char *str, struct prec_err *e);

/* A hybrid core PMU (cpu_core, cpu_atom): perf 6.1 records cycles on each. */
struct default_event_pmu {
	const char *name;
	uint32_t type; /* goes into config bits 32-63 (PERF_PMU_TYPE_SHIFT) */
	const char *cpus; /* its "cpus" list */
};

/* What perf 6.1's default event depends on, answered by the caller. */
struct default_event_env {
	bool amd; /* as event_machine's (vendor__cpuid_is_amd of HEADER_CPUID's string) */
	bool can_profile_kernel; /* as event_machine's */
	const struct default_event_pmu *hybrid; /* in perf's order; none: one plain event */
	int nr_hybrid;
};

/*
 * Appends perf 6.1's default event (evsel__new_cycles): cycles, named
 * "cycles" ("cycles:u" and exclude_kernel when the kernel may not be
 * profiled), host only but on AMD (exclude_guest 0: precise cycles go
 * through IBS, which cannot filter guests), at the highest precise level
 * that opens. On a hybrid machine one per hybrid PMU (evlist__add_default_hybrid),
 * its PMU type in config's high bits, counting on that PMU's CPUs only, and
 * named "cpu_core/cycles/" (record__uniquify_name).
 * Pure. 0 or -ENOMEM (specs as it was).
 */
int parse_events__add_default(struct event_specs *specs, const struct default_event_env *env);

/*
 * --off-cpu: perf 6.1's offcpu-time event (off_cpu_config): bpf-output named
 * offcpu-time, sampling its callchain, period 1. The kernel never writes it:
 * prec writes its samples from what the BPF program summed. 0 or -ENOMEM.
 */
int event_specs__add_off_cpu(struct event_specs *specs);
#define OFF_CPU_EVENT "offcpu-time"
/* What perf 6.1's off_cpu_write fills in; the event samples nothing else. */
#define OFF_CPU_SAMPLE_TYPES                                                                 \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |       \
	 PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN |      \
	 PERF_SAMPLE_CGROUP)
/* Whether spec is that event (perf's test: a bpf-output named offcpu-time). */
bool event_spec__is_off_cpu(const struct event_spec *spec);

/*
 * --filter and --exclude-perf: appends filter to every event the last -e
 * argument added. On a tracepoint it is the kernel's ftrace filter, "(old)
 * && (new)" when one is there already, as perf. On any other event --filter
 * is a BPF sample filter (perf 6.4), parsed here and joined to an earlier
 * one with ','. Returns 0, or -EINVAL with one line in err naming option
 * when there is no -e yet, when --exclude-perf follows an event that is not
 * a tracepoint, or naming the filter and the problem when it does not
 * parse; -ENOMEM.
 */
int event_specs__add_filter(struct event_specs *specs, const char *filter, const char *option,
			    struct prec_err *e);

/* Frees every spec. Accepts an empty or already freed set. */
void event_specs__exit(struct event_specs *specs);

/*
 * Writes perf's name for an event from its attr: base name plus modifiers
 * (":u", ":pppH", ...) exactly as perf prints them. Returns the length.
 */
int event_name__from_attr(char *buf, size_t size, const char *base,
			  const struct perf_event_attr *attr);

/* The symbolic name of a software or hardware config ("cpu-clock"), or NULL. */
const char *event_name__symbol(uint32_t type, uint64_t config);

/*
 * perf's name for a PERF_TYPE_HW_CACHE config ("L1-dcache-load-misses",
 * "LLC-loads"). Returns the length, or -EINVAL for a config perf has no
 * name for.
 */
int event_name__hw_cache(char *buf, size_t size, uint64_t config);

/* Prints the symbolic events this version accepts, for --help. */
void parse_events__print_known(void *stream);

/*
 * prec --list-events: what this machine offers, grouped and ordered as
 * perf list prints them (Hardware event, Software event, Tool event,
 * Hardware cache event, Kernel PMU event, Raw hardware event descriptor,
 * Hardware breakpoint, Tracepoint event).
 */
void parse_events__print_list(FILE *f, const struct parse_events_ctx *ctx);

#endif
