#ifndef PREC_OPTIONS_H
#define PREC_OPTIONS_H
/*
 * What the command line asks for. options__parse fills struct record_opts
 * from argv; options__validate is the one place that checks how the options
 * combine, applies perf record's implied settings and resolves the defaults.
 * After it the options are final: the rest of prec takes them const.
 */
#include <stdbool.h>
#include <stddef.h>

#include "prec/error.h"
#include <stdint.h>

#define PREC_DEFAULT_OUTPUT "perf.data"
#define PREC_DEFAULT_FREQ 4000
/* --names-cache-max's default: 512 MiB of JIT ELFs in the build-id cache. */
#define PREC_NAMES_CACHE_MAX (512ULL << 20)

/* --affinity: where the drain thread runs while it reads a ring. */
enum record_affinity {
	RECORD_AFFINITY_SYS, /* the default: wherever the scheduler puts it */
	RECORD_AFFINITY_NODE, /* on the CPUs of the ring's NUMA node */
	RECORD_AFFINITY_CPU, /* on the ring's CPU */
};

/* --aio: at most this many asynchronous writes in flight (perf's limit). */
#define PREC_AIO_MAX 4

/* --synth: which side-band of existing tasks perf record synthesizes (its
 * PERF_SYNTH_* bits); mmap implies task. */
enum record_synth {
	RECORD_SYNTH_TASK = 1 << 0, /* FORK/COMM/NAMESPACES of existing threads */
	RECORD_SYNTH_MMAP = 1 << 1, /* and their MMAP2s */
	RECORD_SYNTH_CGROUP = 1 << 2, /* CGROUP records (with --all-cgroups) */
	RECORD_SYNTH_ALL = (1 << 3) - 1,
};

/* A --filter (or --exclude-perf) and the -e argument it follows. */
struct record_filter {
	int after_events; /* how many -e arguments came before it */
	const char *filter; /* NULL for --exclude-perf */
};

struct record_opts {
	const char *output; /* -o; NULL after parse means the default, which
			     * options__validate resolves ("-" for a stream) */
	char **events; /* -e strings in command-line order (each may be a list) */
	int nr_events;
	uint64_t freq; /* -F; 0 when not given (validate: PREC_DEFAULT_FREQ without -c) */
	bool user_freq; /* -F given (tracepoints and breakpoints keep period 1 otherwise) */
	bool freq_max; /* -F max */
	uint64_t period; /* -c; 0 when not given */
	uint64_t mmap_bytes; /* -m as bytes of ring data; 0 means the default */
	/* Targets: none of these means the command alone. */
	bool system_wide; /* -a (validate: also with no command and no target) */
	const char *cpu_list; /* -C */
	const char *pid_list; /* -p */
	const char *tid_list; /* -t */
	const char *uid_str; /* -u: a user name or uid */
	bool per_thread; /* --per-thread: one ring per thread, events on any CPU */
	bool threads; /* --threads: parallel drain streams, a perf.data directory */
	const char *threads_spec; /* its SPEC ("" for none: one per CPU), recorder/drain/threads.h */
	bool no_inherit; /* -i */
	const char *cgroup; /* -G (with -a/-C) */
	long delay_ms; /* -D: enable after this many ms; -1 start disabled */
	const char *control; /* --control fifo:CTL[,ACK] or fd:CTL[,ACK] (recorder/live/control.h) */
	/* Sample contents (perf record's flags of the same names). */
	bool sample_time; /* -T: TIME is always sampled; accepted for perf's command lines */
	bool sample_addr; /* -d: ADDR (implied by DWARF call graphs); validate: implies
			   * sample_data_src, and data_mmap unless --no-data-mmap */
	bool sample_data_src; /* --sample-mem-info: DATA_SRC (perf 6.16) */
	bool data_mmap; /* --data-mmap: MMAP2s of data mappings too (perf 7.0's split of -d) */
	bool no_data_mmap; /* --no-data-mmap: -d without them */
	bool sample_cpu; /* --sample-cpu */
	bool raw_samples; /* -R */
	bool sample_weight; /* -W */
	bool phys_data; /* --phys-data */
	bool data_page_size; /* --data-page-size */
	bool code_page_size; /* --code-page-size */
	bool inherit_stat; /* -s */
	bool no_samples; /* -n */
	bool switch_events; /* --switch-events (implied by --latency) */
	bool latency; /* --latency: data for perf report --latency (perf 6.15), not with -a */
	bool sample_identifier; /* --sample-identifier */
	bool sample_period; /* -P: PERIOD even with -c */
	bool namespaces; /* --namespaces */
	bool all_cgroups; /* --all-cgroups */
	uint64_t branch_filter; /* -b / -j: branch_sample_type; 0 none */
	int comp_level; /* -z: zstd level 1..22; 0 without -z */
	bool no_buildid; /* -B: no HEADER_BUILD_ID, no build-id cache */
	bool no_buildid_cache; /* -N: HEADER_BUILD_ID but no build-id cache */
	bool buildid_all; /* --buildid-all: every mapped DSO's build-id */
	bool no_keep_names; /* --no-keep-names: no JIT ELFs, binaries read by path */
	/* --names-cache-max (or prec.names-cache-max): bytes of prec's JIT ELFs
	 * kept in the build-id cache, oldest pruned; 0 unbounded;
	 * options__validate: PREC_NAMES_CACHE_MAX unless given */
	uint64_t names_cache_max;
	bool names_cache_max_given;
	bool buildid_mmap; /* --buildid-mmap: attr.build_id, synthesized MMAP2 ids;
			    * implies no HEADER_BUILD_ID and no cache, as perf */
	bool pipe_output; /* set by options__validate: -o -, or no -o and stdout a FIFO */
	/* Output management (perf record's options of the same names). */
	int realtime_prio; /* -r: SCHED_FIFO priority of the drain thread(s), 1..99; 0 none */
	int affinity; /* --affinity: enum record_affinity */
	int nr_cblocks; /* --aio[=N]: data writes in flight at once, 1..PREC_AIO_MAX; 0 none */
	uint64_t mmap_flush; /* --mmap-flush: bytes a ring must hold to be drained; 0: 1 */
	bool switch_output; /* --switch-output given (any mode) */
	bool switch_signal; /* --switch-output[=signal]: SIGUSR2 rotates */
	uint64_t switch_size; /* --switch-output=SIZE: rotate at this many bytes; 0 none */
	uint64_t switch_time_ms; /* --switch-output=TIME: rotate this often; 0 none */
	int switch_max_files; /* --switch-max-files: rotated files kept; 0 all */
	bool timestamp_filename; /* --timestamp-filename (implied by --switch-output) */
	uint64_t max_size; /* --max-size: stop at this many output bytes; 0 none */
	bool overwrite; /* --overwrite: every event in a backward (flight recorder) ring */
	bool tail_synthesize; /* --tail-synthesize (implied by --overwrite) */
	bool no_buffering; /* --no-buffering: a wakeup per record */
	bool synth_given; /* --synth given; options__validate: else RECORD_SYNTH_ALL */
	int synth; /* --synth: enum record_synth bits, 0 for no */
	unsigned nr_threads_synthesize; /* --num-thread-synthesize: 0 prec's default */
	unsigned proc_map_timeout_ms; /* --proc-map-timeout: 0 perf's 500 ms */
	bool no_bpf_event; /* --no-bpf-event: no BPF side-band, attr.bpf_event off */
	const char *switch_output_event; /* --switch-output-event: its records rotate
					  * (implies --switch-output=signal); NULL none */
	bool timestamp_boundary; /* --timestamp-boundary: SAMPLE_TIME in every mode */
	bool strict_freq; /* --strict-freq: -F over the kernel's limit fails */
	bool running_time; /* --running-time: read_format TOTAL_TIME_ENABLED|RUNNING */
	bool sample_transaction; /* --transaction: PERF_SAMPLE_TRANSACTION */
	bool group; /* --group: every event in one group, led by the first */
	bool dry_run; /* --dry-run: check everything, then exit 0 without recording */
	bool kcore; /* --kcore: a perf.data directory with kcore_dir/ (kcore, kallsyms, modules) */
	const char *vmlinux; /* --vmlinux: the kernel's file (validate: an ELF file that exists) */
	bool debuginfod; /* --debuginfod[=URLS]: hit DSOs' debug info fetched into the cache */
	/* its URLS; options__validate: else $DEBUGINFOD_URLS (perf's "system"); the
	 * servers the build-id cache asks; NULL: none known */
	const char *debuginfod_urls;
	int callchain_mode; /* -g / --call-graph: enum callchain_mode, 0 none */
	uint32_t callchain_dump; /* --call-graph dwarf,SIZE */
	/* --call-graph fp,N, else call-graph.record-mode's fp,N: the depth of
	 * every callchain -g or --call-graph records, as perf; 0: the sysctl's */
	uint32_t callchain_max_stack;
	/* --call-graph dwarf given: perf samples data addresses with it
	 * (options__validate: -d); -g with a dwarf default does not */
	bool callchain_sample_addr;
	bool unwind_record; /* --unwind=record: DWARF user stacks unwound while recording */
	bool user_callchains; /* --user-callchains */
	bool kernel_callchains; /* --kernel-callchains */
	uint64_t user_regs; /* --user-regs: REGS_USER mask; 0 none */
	uint64_t intr_regs; /* -I: REGS_INTR mask; 0 none */
	bool all_user; /* --all-user: exclude_kernel on every event */
	bool all_kernel; /* --all-kernel: exclude_user on every event */
	struct record_filter *filters; /* --filter and --exclude-perf, in order */
	int nr_filters;
	/* Features that need an AUX area PMU or BPF (recorder/evlist/aux_area.h says
	 * why each is refused where it cannot work). */
	bool aux_snapshot; /* -S/--snapshot[=OPTS] */
	const char *aux_snapshot_opts; /* its OPTS, NULL for none */
	bool aux_sample; /* --aux-sample[=OPTS] */
	const char *aux_sample_opts;
	bool off_cpu; /* --off-cpu */
	/* --off-cpu-thresh: a block at least this long is written when it
	 * ends, with its own time (nanoseconds; perf's 500 ms by default) */
	uint64_t off_cpu_thresh_ns;
	bool off_cpu_thresh_set;
#define PREC_OFF_CPU_THRESH_NS 500000000ULL
	const char *clang_path; /* --clang-path: for -e FILE.c BPF scriptlets */
	const char *clang_opt; /* --clang-opt */
	bool use_clockid; /* -k given */
	int clockid; /* -k: the clock sample times come from */
	int verbose; /* -v count */
	bool quiet; /* -q */
	bool help; /* -h */
	bool list_events; /* --list-events or "prec list" */
	const char *setup_filter; /* --setup-filter pin|unpin (perf 6.12): that, no recording */
	bool version; /* --version */
	int argc; /* the workload: argv[0..argc-1], NULL-terminated */
	char **argv;
	/* Not an option: $PREC_TEST_SYSROOT (options_env), the tests' fixture
	 * root the machine's facts are read below; NULL: "/" */
	const char *test_sysroot;
	/* From perf's configuration (perfconfig.h), set before the command line: */
	int callchain_default; /* what -g records (call-graph.record-mode); 0: fp */
	uint32_t callchain_default_dump; /* its dwarf dump size (call-graph.dump-size); 0: 8192 */
	bool aio_from_config; /* nr_cblocks is record.aio's (not --aio's): files only */
	bool debuginfod_from_config; /* debuginfod is record.debuginfod's (not the option's) */
	const char *buildid_dir; /* buildid.dir: the build-id cache; NULL: $HOME/.debug */
};

/*
 * Parses argv (argv[0] is prec itself; a leading "record" word is skipped).
 * Only the syntax and each value on its own are checked here. Returns 0, or
 * -EINVAL with one line of explanation in e. Never exits and never
 * prints. opts->events is allocated; release with options__exit.
 */
int options__parse(struct record_opts *opts, int argc, char **argv, struct prec_err *e);

/*
 * options__parse over perf's configuration: cfg's settings (perfconfig.h,
 * resolved; NULL for none) are applied first, then argv, which wins.
 */
struct perfconfig;
int options__parse_with(struct record_opts *opts, const struct perfconfig *cfg, int argc,
			char **argv, struct prec_err *e);

/* --synth's value as perf parses it: a comma list of task, mmap, cgroup,
 * where "no"/"none" or "all" decides at once (any case). Pure. The enum
 * record_synth bits, or -EINVAL for an empty or unknown word. */
int options__parse_synth(const char *s);

/*
 * The test seam, never for users: a directory prec reads the facts of the
 * machine it records below instead of "/" (/proc and /sys: sysinfo, --kcore's
 * kcore, kallsyms and modules), so the tests can stand fixture trees for
 * machines they do not run on; the events still open on this machine.
 */
#define PREC_TEST_SYSROOT_ENV "PREC_TEST_SYSROOT"

/*
 * What options__validate needs to know of prec's own process: its standard
 * output, and the environment variables that stand for options (read here
 * once, so nothing after reads or changes the environment).
 */
struct options_env {
	bool stdout_closed; /* fd 1 is not open */
	bool stdout_fifo; /* fd 1 is a FIFO: no -o means a stream, as in perf */
	bool stdout_tty; /* fd 1 is a terminal */
	const char *debuginfod_urls; /* $DEBUGINFOD_URLS, NULL unset */
	const char *test_sysroot; /* $PREC_TEST_SYSROOT (see above), NULL unset */
};

/* Reads env from this process's fd 1 and environment (the strings stay the
 * environment's). */
void options_env__read(struct options_env *env);

/*
 * The options after parse made final: the combinations checked, perf's
 * implied settings applied (--switch-output: --timestamp-filename,
 * --overwrite: --tail-synthesize, --call-graph dwarf: -d), the defaults
 * resolved (output path and pipe_output, -F, -a without command or target,
 * --debuginfod's servers), env's test seam copied in. Pure but for a stat of
 * the output path. Returns 0, -EINVAL for a command line that cannot work,
 * or -EBADF when a stream has no standard output; on error one line in e.
 * The caller still calls options__exit.
 */
int options__validate(struct record_opts *opts, const struct options_env *env, struct prec_err *e);

/* Frees what options__parse allocated. */
void options__exit(struct record_opts *opts);

/* Prints the usage text to stdout, in sections. */
void options__usage(void);

/*
 * The fix for a command prec cannot find: for perf's other commands (prec
 * report, prec help, prec version...) a pointer to what the user meant,
 * else "check the command name and $PATH".
 */
const char *options__not_found_hint(const char *command);

/*
 * `prec -h NAME...`: prints to stdout the usage lines of the options the
 * names pick (perf record -h's rule: a letter, -c, --name, a long name, or a
 * word of the help). Returns 0, or -ENOENT with one line in e naming the
 * words that picked nothing (then nothing is printed).
 */
int options__usage_of(int nr, char *const *names, struct prec_err *e);

#endif
