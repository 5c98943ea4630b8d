// SPDX-License-Identifier: GPL-2.0-only
/*
 * The orchestrator: each step below is one call into the file that owns it.
 * Nothing the user can get wrong reaches the kernel or the disk before it is
 * checked, so bad input never leaves a file behind.
 */
#include <errno.h>
#include <poll.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "prec/clock.h"
#include "prec/cpu_map.h"
#include "prec/event.h"
#include "prec/evlist.h"
#include "prec/log.h"
#include "prec/parse_events.h"
#include "prec/record.h"
#include "prec/sysinfo.h"
#include "prec/thread_map.h"
#include "prec/tracing_data.h"
#include "prec/version.h"
#include "prec/workload.h"
#include "prec/writer.h"
#include "callchain.h"
#include "drain.h"
#include "prec/dso_track.h"
#include "synthesize.h"
#include "target.h"

static volatile sig_atomic_t child_done;
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	if (sig == SIGCHLD)
		child_done = 1;
	else
		stop_signal = sig;
}

static bool should_stop(void *arg)
{
	struct workload *w = arg;

	if (stop_signal)
		return true;
	return child_done && workload__reap(w, false);
}

/* Whether perf's parser would have scanned the PMUs for these events: any
 * event but the default and the software ones (PMU_MAPPINGS order). */
static bool events_scan_pmus(const struct event_specs *specs)
{
	for (int i = 0; i < specs->nr; i++)
		if (specs->v[i].attr.type != PERF_TYPE_SOFTWARE && !specs->v[i].name_from_attr)
			return true;
	return false;
}

/* The per-event terms later versions of prec implement: refused, never ignored. */
static const char *unsupported_term(const struct event_terms *t)
{
	if (t->set & EVENT_TERM_MAX_EVENTS)
		return "nr";
	if (t->set & (EVENT_TERM_AUX_OUTPUT | EVENT_TERM_AUX_SAMPLE_SIZE))
		return "aux-output/aux-sample-size";
	return NULL;
}

/*
 * Every -e with the --filter / --exclude-perf that follow it, then the
 * checks perf makes before opening anything. 0, or -EINVAL with one line.
 */
static int parse_all_events(struct event_specs *specs, const struct record_opts *opts, char *err,
			    size_t errlen)
{
	char msg[400], pidf[64];
	int f = 0;

	for (int i = 0; i < opts->nr_events; i++) {
		if (parse_events(specs, opts->events[i], msg, sizeof(msg))) {
			snprintf(err, errlen, "invalid event: %s", msg);
			return -EINVAL;
		}
		for (; f < opts->nr_filters && opts->filters[f].after_events == i + 1; f++) {
			const struct record_filter *rf = &opts->filters[f];

			snprintf(pidf, sizeof(pidf), "common_pid != %d", (int)getpid());
			if (event_specs__add_filter(specs, rf->filter ? rf->filter : pidf,
						    rf->filter ? "--filter" : "--exclude-perf", msg,
						    sizeof(msg))) {
				snprintf(err, errlen, "%s", msg);
				return -EINVAL;
			}
		}
	}
	for (int i = 0; i < specs->nr; i++) {
		const struct event_spec *spec = &specs->v[i];
		const char *term = unsupported_term(&spec->terms);

		if (term) {
			snprintf(err, errlen, "event '%s': the %s term is not supported yet",
				 spec->name, term);
			return -EINVAL;
		}
		if (spec->terms.set & EVENT_TERM_CALLGRAPH) {
			struct callchain_param cp;

			if (callchain__parse(spec->terms.call_graph, &cp, msg, sizeof(msg))) {
				snprintf(err, errlen, "event '%s': %s", spec->name, msg);
				return -EINVAL;
			}
		}
		/* perf's message: a counting-only PMU cannot sample a task. */
		if (spec->counting_only && !opts->system_wide && !opts->cpu_list) {
			snprintf(err, errlen,
				 "Invalid event (%s) in per-thread mode, enable system wide with '-a'.",
				 spec->name);
			return -EINVAL;
		}
	}
	return 0;
}

static uint64_t read_sysctl_u64(const char *path, uint64_t dflt)
{
	unsigned long long v;
	FILE *f = fopen(path, "re");

	if (!f)
		return dflt;
	if (fscanf(f, "%llu", &v) != 1)
		v = dflt;
	fclose(f);
	return v;
}

/* perf's rules for -F: 'max' and values over the kernel's limit. */
static uint64_t effective_freq(const struct record_opts *opts)
{
	uint64_t max = read_sysctl_u64("/proc/sys/kernel/perf_event_max_sample_rate", 0);
	uint64_t freq = opts->freq ? opts->freq : PREC_DEFAULT_FREQ;

	if (opts->freq_max) {
		pr_info("info: Using a maximum frequency rate of %llu Hz\n",
			(unsigned long long)max);
		return max ? max : PREC_DEFAULT_FREQ;
	}
	if (max && freq > max) {
		pr_info("warning: Maximum frequency rate (%llu Hz) exceeded, throttling from %llu Hz to %llu Hz.\n"
			"         The limit can be raised via /proc/sys/kernel/perf_event_max_sample_rate.\n"
			"         The kernel will lower it when perf's interrupts take too long.\n",
			(unsigned long long)max, (unsigned long long)freq, (unsigned long long)max);
		freq = max;
	}
	return freq;
}

static void size_label(char *buf, size_t len, uint64_t bytes)
{
	static const char units[] = "BKMG";
	int u = 0;

	while (u < 3 && bytes >= 1024 && bytes % 1024 == 0) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu%c", (unsigned long long)bytes, units[u]);
}

/* Ring data bytes per CPU: -m rounded up to a power of two of pages, or
 * perf's default (what perf_event_mlock_kb allows, 512 KiB here). */
static size_t ring_bytes(const struct record_opts *opts)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t pages, p2 = 1;
	char label[32];

	if (!opts->mmap_bytes) {
		uint64_t kb = read_sysctl_u64("/proc/sys/kernel/perf_event_mlock_kb", 516);

		pages = kb * 1024 / page;
		pages = pages > 1 ? pages - 1 : 1;
		while (p2 * 2 <= pages)
			p2 *= 2;
		return p2 * page;
	}
	pages = opts->mmap_bytes / page;
	while (p2 < pages)
		p2 *= 2;
	if (p2 != pages) {
		size_label(label, sizeof(label), p2 * page);
		pr_info("rounding mmap pages size to %s (%zu pages)\n", label, p2);
	}
	return p2 * page;
}

static int exit_status(const struct workload *w)
{
	if (WIFEXITED(w->status))
		return WEXITSTATUS(w->status);
	if (WIFSIGNALED(w->status))
		return 128 + WTERMSIG(w->status);
	return PREC_EXIT_FAILURE;
}

/*
 * The events as the file lists them, with the ids of the fds that opened
 * (a thread that exited before opening has none). The ids live in *idbuf,
 * which the caller frees.
 */
static int fill_events(struct writer_event *out, const struct evlist *evlist, uint64_t **idbuf)
{
	size_t total = 0, n = 0;
	uint64_t *ids;

	for (int i = 0; i < evlist->nr; i++)
		total += (size_t)evlist->evsel[i].nr_cpus * (size_t)evlist->evsel[i].nr_threads;
	ids = calloc(total ? total : 1, sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	for (int i = 0; i < evlist->nr; i++) {
		const struct evsel *evsel = &evlist->evsel[i];

		out[i].attr = &evsel->attr;
		out[i].name = evsel->name;
		out[i].ids = ids + n;
		out[i].nr_ids = 0;
		for (int k = 0; k < evsel->nr_cpus * evsel->nr_threads; k++) {
			if (evsel->fd[k] < 0)
				continue;
			ids[n++] = evsel->id[k];
			out[i].nr_ids++;
		}
	}
	*idbuf = ids;
	return 0;
}

/*
 * Targets other than a lone command are enabled here, after the side-band
 * (perf does the same); -D delays that, -D -1 leaves them disabled. Returns
 * nonzero when a signal ended the delay.
 */
static int start_events(struct evlist *evlist, const struct record_opts *opts,
			const sigset_t *sigmask)
{
	if (opts->delay_ms > 0) {
		struct timespec ts = { opts->delay_ms / 1000, (opts->delay_ms % 1000) * 1000000L };

		/* Sleeps, but wakes for SIGINT/SIGTERM/SIGCHLD. */
		ppoll(NULL, 0, &ts, sigmask);
		if (stop_signal)
			return 1;
	}
	if (opts->delay_ms < 0) {
		pr_info("Events disabled\n");
		return 0;
	}
	if (!evlist->workload_only || opts->delay_ms > 0) {
		evlist__enable(evlist);
		if (opts->delay_ms > 0)
			pr_info("Events enabled\n");
	}
	return 0;
}

/*
 * The side-band perf record writes before the kernel's records, in perf's
 * order: time conversion, ids, kernel and module maps, thread and cpu maps,
 * loaded BPF programs, the target's existing threads (COMM, FORK, MMAP2 from
 * /proc), the forked command's COMM, FINISHED_INIT.
 */
static int synthesize(struct writer *w, const struct evlist *evlist, const struct sysinfo *si,
		      const struct record_opts *opts, pid_t pid)
{
	const struct thread_map *threads = evlist->threads;
	char cgroup_mnt[512], huge_mnt[512];
	struct synth_opts so = {
		.id_hdr_size = evlist->id_hdr_size,
		.data_mmaps = opts->sample_addr,
		.namespaces = opts->namespaces,
		.cgroups = opts->all_cgroups,
	};
	int ret;

	if (evlist->nr_rings) {
		ret = synth__time_conv(w, evlist->rings[0].ctl);
		if (ret && ret != -EBUSY)
			return ret;
	}
	ret = synth__id_index(w, evlist, threads->pid[0]);
	if (ret)
		return ret;
	ret = synth__kernel_mmap(w, "/proc", evlist->id_hdr_size);
	if ((ret == -EACCES || ret == -ENOENT) && evlist__exclude_kernel(evlist)) {
		ret = 0; /* no kernel samples to resolve: nothing to warn about */
	} else if (ret == -EACCES || ret == -ENOENT) {
		pr_warn("kernel addresses are hidden, kernel samples will not resolve (check /proc/sys/kernel/kptr_restrict and /proc/kallsyms permission)");
	} else if (ret) {
		return ret;
	}
	ret = synth__module_mmaps(w, "/proc", evlist->id_hdr_size);
	if (ret)
		pr_verbose("Problems creating module maps, continuing anyway...\n");
	ret = synth__thread_map_n(w, threads->pid, NULL, (size_t)threads->nr);
	if (!ret)
		ret = synth__cpu_map(w, evlist);
	if (!ret)
		ret = synth__bpf(w, si->bpf, "/proc", evlist->id_hdr_size);
	if (ret)
		return ret;

	/* Threads that existed before the recording: all of them for -a/-C, the
	 * targets for -p/-t/-u; a forked command has none yet. */
	if (!evlist->workload_only) {
		bool any = threads->nr == 1 && threads->pid[0] == -1;

		if (so.cgroups && !synth__cgroup_mount("/proc", cgroup_mnt, sizeof(cgroup_mnt)))
			so.cgroup_mnt = cgroup_mnt;
		if (!synth__hugetlbfs_mount("/proc", huge_mnt, sizeof(huge_mnt)))
			so.hugetlbfs_mnt = huge_mnt;
		ret = synth__threads(w, "/proc", any ? NULL : threads->pid,
				     any ? 0 : (size_t)threads->nr, &so);
		if (ret == -ENOENT || ret == -EACCES) {
			pr_warn("cannot list /proc: existing processes will not resolve (is /proc mounted?)");
			ret = 0;
		}
		if (ret)
			return ret;
	}
	/* The forked command, named until its exec renames it. */
	if (pid > 0) {
		ret = synth__comm(w, pid, pid, "prec-exec", evlist->id_hdr_size);
		if (!ret && opts->namespaces)
			ret = synth__namespaces(w, "/proc", pid, pid, evlist->id_hdr_size);
		if (ret)
			return ret;
	}
	return synth__marker(w, PERF_RECORD_FINISHED_INIT);
}

/*
 * Overwrite events kept only their newest records, in backward rings: pause
 * them and write what they hold, counted like the rest.
 */
static int drain_backward(struct evlist *evlist, struct writer *w, struct drain *fwd)
{
	struct drain bw;
	int64_t n;

	evlist__pause_backward(evlist);
	n = drain__init(&bw, evlist->bw_rings, evlist->nr_bw_rings, w, fwd->time_off);
	if (!n)
		n = drain__pass(&bw);
	if (n >= 0) {
		fwd->stats.samples += bw.stats.samples;
		fwd->stats.lost += bw.stats.lost;
		fwd->stats.lost_records += bw.stats.lost_records;
		if (bw.stats.first_time &&
		    (!fwd->stats.first_time || bw.stats.first_time < fwd->stats.first_time))
			fwd->stats.first_time = bw.stats.first_time;
		if (bw.stats.last_time > fwd->stats.last_time)
			fwd->stats.last_time = bw.stats.last_time;
	}
	drain__exit(&bw);
	return n < 0 ? (int)n : 0;
}

static void print_summary(const struct drain_stats *st, uint64_t bytes, const char *path)
{
	pr_info("[ prec record: Woken up %llu times to write data ]\n",
		(unsigned long long)st->wakeups);
	if (st->lost_samples)
		pr_warn("%llu samples lost: the kernel dropped them (try a lower -F)",
			(unsigned long long)st->lost_samples);
	if (st->lost)
		pr_warn("%llu events lost in %llu chunks: the ring buffer filled up (try a larger -m or a lower -F)",
			(unsigned long long)st->lost, (unsigned long long)st->lost_records);
	pr_info("[ prec record: Captured and wrote %.3f MB %s (%llu samples) ]\n",
		(double)bytes / 1024.0 / 1024.0, path, (unsigned long long)st->samples);
}

/* The -k clock's resolution and a reading beside the time of day (CLOCK_DATA). */
struct clock_ref {
	bool use;
	int id;
	uint64_t res_ns, tod_ns, clock_ns;
};

/*
 * perf's tracing data for the tracepoint events, so readers can decode their
 * raw fields. Returns the blob (caller frees) or NULL when there are no
 * tracepoints or it cannot be built (said once; the feature is left out).
 */
static void *tracing_blob(const struct evlist *evlist, size_t *len)
{
	uint64_t *ids = calloc((size_t)evlist->nr, sizeof(*ids));
	char tracefs[512];
	void *blob = NULL;
	size_t n = 0;
	int ret;

	*len = 0;
	if (!ids)
		return NULL;
	for (int i = 0; i < evlist->nr; i++)
		if (evlist->evsel[i].attr.type == PERF_TYPE_TRACEPOINT)
			ids[n++] = evlist->evsel[i].attr.config;
	if (n) {
		ret = tracing_data__find_tracefs(tracefs, sizeof(tracefs));
		if (!ret)
			ret = tracing_data__build(tracefs, "/proc", ids, n, &blob, len);
		if (ret)
			pr_warn("cannot read the tracepoint formats: %s (perf script will not decode their fields; is tracefs mounted?)",
				strerror(-ret));
	}
	free(ids);
	if (!*len) {
		free(blob);
		return NULL;
	}
	return blob;
}

static int finish(struct writer *w, const struct sysinfo *si, const struct writer_event *wev,
		  const struct evlist *evlist, const struct drain_stats *st,
		  const struct clock_ref *clk, const struct record_opts *opts, int argc, char **argv,
		  struct dso_track *track)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct writer_group *groups;
	int ret;
	struct writer_meta meta = {
		.si = si,
		.events = wev,
		.nr_events = (uint32_t)evlist->nr,
		.exe = exe,
		.argc = argc,
		.argv = argv,
		.version = PREC_VERSION,
		.first_sample_time = st->first_time,
		.last_sample_time = st->last_time,
		.use_clockid = clk->use,
		.clockid = clk->id,
		.clockid_res_ns = clk->res_ns,
		.clock_tod_ns = clk->tod_ns,
		.clock_clockid_ns = clk->clock_ns,
		.branch_stack = opts->branch_filter != 0,
	};

	if (n > 0)
		exe[n] = '\0';
	else
		snprintf(exe, sizeof(exe), "%s", argv[0]);
	meta.tracing_data = tracing_blob(evlist, &meta.tracing_data_len);
	/* GROUP_DESC: every group of more than one event, leaders in order. */
	groups = calloc((size_t)evlist->nr, sizeof(*groups));
	for (int i = 0; groups && i < evlist->nr; i++) {
		const struct evsel *evsel = &evlist->evsel[i];

		if (evsel->leader != i || evsel->nr_members < 2)
			continue;
		groups[meta.nr_groups].name = evsel->group_name;
		groups[meta.nr_groups].leader_idx = (uint32_t)i;
		groups[meta.nr_groups].nr_members = (uint32_t)evsel->nr_members;
		meta.nr_groups++;
	}
	meta.groups = groups;
	if (track) {
		/* The hit set is complete: no more records will be written. */
		writer__set_observer(w, NULL, NULL);
		if (!dso_track__finish(track, &meta.buildids, &meta.nr_buildids))
			pr_verbose("build-ids of %u hit DSOs\n", meta.nr_buildids);
	}
	ret = writer__finish(w, &meta);
	free(groups);
	free((void *)meta.tracing_data);
	return ret;
}

static const char *output_hint(const char *output, int err)
{
	char dir[PATH_MAX];
	struct stat st;
	const char *slash = strrchr(output, '/');

	if (err == -EACCES || err == -EPERM || err == -EROFS)
		return "choose a writable place with -o";
	if (err != -ENOENT)
		return "choose another path with -o";
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - output) + 1 : 1,
		 slash ? output : ".");
	if (stat(dir, &st) == 0)
		/* The directory is there (e.g. /proc): its filesystem takes no new files. */
		return "that filesystem does not take new files; choose another path with -o";
	return "its directory does not exist; create it or choose another path with -o";
}

int prec_record(const struct record_opts *opts_in, int argc, char **argv, int *fatal_sig)
{
	struct record_opts opts = *opts_in;
	const char *output = opts.output ? opts.output : PREC_DEFAULT_OUTPUT;
	struct event_specs specs = { 0 };
	struct evlist evlist = { 0 };
	struct workload wl = { .pid = -1, .go_fd = -1, .err_fd = -1 };
	struct sysinfo si = { 0 };
	struct writer *w = NULL;
	struct writer_event *wev = NULL;
	uint64_t *idbuf = NULL;
	struct cpu_map *cpus = NULL;
	struct thread_map *threads = NULL;
	struct pollfd *pfd = NULL;
	int nr_pfd = 0;
	struct drain drain = { 0 };
	struct dso_track *track = NULL;
	struct clock_ref clk = { .use = opts_in->use_clockid, .id = opts_in->clockid };
	sigset_t block, orig;
	struct sigaction sa;
	char err[512], path[PATH_MAX];
	size_t data_bytes;
	int status = PREC_EXIT_FAILURE;
	int ret;

	*fatal_sig = 0;

	/* 1. Everything from the command line, checked before any side effect. */
	if (parse_all_events(&specs, &opts, err, sizeof(err))) {
		pr_err("%s", err);
		status = PREC_EXIT_USAGE;
		goto out;
	}
	if (!specs.nr && parse_events__add_default(&specs))
		goto out;
	ret = opts.argc ? workload__resolve(opts.argv[0], path, sizeof(path)) : 0;
	if (ret) {
		pr_err("cannot run '%s': %s (%s)", opts.argv[0], strerror(-ret),
		       ret == -ENOENT ? "check the command name and $PATH" :
					"it is not an executable file");
		status = ret == -ENOENT ? PREC_EXIT_NOTFOUND : PREC_EXIT_NOEXEC;
		goto out;
	}
	if (clk.use) {
		ret = clock__snapshot(clk.id, &clk.res_ns, &clk.tod_ns, &clk.clock_ns);
		if (ret) {
			pr_err("cannot use clock %d for -k: %s (pick one this kernel has, e.g. -k monotonic)",
			       clk.id, strerror(-ret));
			status = PREC_EXIT_USAGE;
			goto out;
		}
	}
	/* perf: DWARF call graphs sample data addresses too (-d). */
	if (opts.callchain_mode == CALLCHAIN_DWARF)
		opts.sample_addr = true;
	if (!opts.period)
		opts.freq = effective_freq(&opts);
	data_bytes = ring_bytes(&opts);

	/* 2. The machine: the CPUs to open on, the sysinfo snapshot for the header. */
	if (target__cpus(&opts, &cpus))
		goto out;
	if (opts.cgroup) {
		opts.cgroup_fd = target__cgroup_fd(opts.cgroup);
		if (opts.cgroup_fd < 0)
			goto out;
	}
	sysinfo__read(&si, getenv(PREC_SYSROOT_ENV));
	if (!events_scan_pmus(&specs))
		sysinfo__pmus_perf_record_order(&si);

	/* 3. Signals: blocked except inside ppoll, so none is ever missed. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &orig);

	/* 4. Fork the command corked, find the threads, open the events, map. */
	if (opts.argc) {
		ret = workload__prepare(&wl, opts.argv, &orig);
		if (ret) {
			pr_err("cannot fork the workload: %s", strerror(-ret));
			goto out_signals;
		}
	}
	if (target__threads(&opts, wl.pid, &threads)) {
		status = PREC_EXIT_USAGE;
		goto out_kill;
	}
	ret = evlist__init(&evlist, &specs, &opts, cpus, threads);
	cpus = NULL;
	threads = NULL;
	if (ret) {
		pr_err("cannot set up the events: %s", strerror(-ret));
		goto out_kill;
	}
	pr_verbose("mmap size %zuB\n", data_bytes + (size_t)sysconf(_SC_PAGESIZE));
	if (evlist__open(&evlist) || evlist__mmap(&evlist, data_bytes))
		goto out_kill;
	nr_pfd = evlist__pollfds(&evlist, &pfd);
	if (nr_pfd < 0)
		goto out_kill;

	/* 5. The file: header, attrs with their ids, the synthesized side-band. */
	ret = writer__open(&w, output);
	if (ret) {
		pr_err("cannot create the output file '%s': %s (%s)", output, strerror(-ret),
		       output_hint(output, ret));
		goto out_kill;
	}
	wev = calloc((size_t)evlist.nr, sizeof(*wev));
	if (!wev || fill_events(wev, &evlist, &idbuf))
		goto out_abort;
	ret = writer__begin(w, wev, (uint32_t)evlist.nr);
	if (!ret) {
		/* The build-id hit set sees every record: synthesized ones through
		 * the writer's observer, the kernel's in the drain loop. */
		struct dso_track_layout tl;

		dso_track__layout(evlist.evsel[0].attr.sample_type,
				  evlist.evsel[0].attr.sample_id_all, &tl);
		if (!dso_track__new(&track, &tl))
			writer__set_observer(w, dso_track__stream, track);
		ret = synthesize(w, &evlist, &si, &opts, wl.pid);
	}
	if (ret) {
		pr_err("cannot write '%s': %s (check free space)", output, strerror(-ret));
		goto out_abort;
	}

	/* 6. Go: the kernel enables the events at exec. The reference reading
	 * of the -k clock is taken right before, as perf does. */
	if (clk.use)
		clock__snapshot(clk.id, &clk.res_ns, &clk.tod_ns, &clk.clock_ns);
	ret = opts.argc ? workload__start(&wl) : 0;
	if (ret) {
		pr_err("cannot run '%s': %s", opts.argv[0], strerror(-ret));
		status = ret == -ENOENT ? PREC_EXIT_NOTFOUND : PREC_EXIT_NOEXEC;
		goto out_abort;
	}
	if (start_events(&evlist, &opts, &orig))
		goto out_stopped;

	/* 7. Drain until the command ends, every target thread is gone, or
	 * prec is told to stop. */
	ret = drain__init(&drain, evlist.rings, evlist.nr_rings, w,
			  evlist__sample_time_offset(&evlist));
	drain.track = track;
	if (!ret)
		ret = drain__run(&drain, pfd, nr_pfd, !opts.argc && !opts.system_wide &&
			         !opts.cpu_list, should_stop, &wl, &orig);
out_stopped:
	if (ret && !wl.exited) {
		/* The file cannot take more: do not wait for the workload. */
		workload__kill(&wl, SIGTERM);
	} else if (stop_signal && !wl.exited) {
		/* As perf: the workload is asked to end, then its tail drained. */
		workload__kill(&wl, SIGTERM);
		drain__pass(&drain);
		drain__pass(&drain);
	}
	workload__reap(&wl, true);
	if (!ret && evlist.nr_bw_rings)
		ret = drain_backward(&evlist, w, &drain);
	if (!ret)
		ret = synth__lost_samples(w, &evlist, wl.pid, &drain.stats.lost_samples);
	if (ret) {
		pr_err("cannot write '%s': %s (check free space)", output, strerror(-ret));
		goto out_abort;
	}

	/* 8. Finish: feature sections, final header, summary. */
	uint64_t bytes = writer__data_size(w);

	ret = finish(w, &si, wev, &evlist, &drain.stats, &clk, &opts, argc, argv, track);
	w = NULL;
	if (ret) {
		pr_err("cannot finish '%s': %s (check free space)", output, strerror(-ret));
		goto out_signals;
	}
	print_summary(&drain.stats, bytes, output);
	status = exit_status(&wl);
	*fatal_sig = stop_signal;
	goto out_signals;

out_abort:
	writer__abort(w);
	w = NULL;
out_kill:
	workload__kill(&wl, SIGKILL);
out_signals:
	sigprocmask(SIG_SETMASK, &orig, NULL);
out:
	if (opts.cgroup_fd >= 0)
		close(opts.cgroup_fd);
	free(pfd);
	cpu_map__delete(cpus);
	thread_map__delete(threads);
	drain__exit(&drain);
	dso_track__delete(track);
	free(wev);
	free(idbuf);
	sysinfo__exit(&si);
	evlist__exit(&evlist);
	event_specs__exit(&specs);
	return status;
}
