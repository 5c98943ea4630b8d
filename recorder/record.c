// SPDX-License-Identifier: GPL-2.0-only
/*
 * The orchestrator: each step below is one call into the file that owns it.
 * Nothing the user can get wrong reaches the kernel or the disk before it is
 * checked, so bad input never leaves a file behind.
 */
#include <errno.h>
#include <fcntl.h>
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
#include "record_int.h"
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

static int exit_status(const struct workload *w)
{
	if (WIFEXITED(w->status))
		return WEXITSTATUS(w->status);
	if (WIFSIGNALED(w->status))
		return 128 + WTERMSIG(w->status);
	return PREC_EXIT_FAILURE;
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
	struct kallsyms_scan ks;
	int have_ks;
	int ret;

	if (evlist->nr_rings) {
		ret = synth__time_conv(w, evlist->rings[0].ctl);
		if (ret && ret != -EBUSY)
			return ret;
	}
	ret = synth__id_index(w, evlist, threads->pid[0]);
	if (ret)
		return ret;
	/* /proc/kallsyms is the costliest file synthesis reads: once. */
	have_ks = !kallsyms__scan("/proc", &ks);
	ret = have_ks ? synth__kernel_mmap_scan(w, &ks, evlist->id_hdr_size) : -ENOENT;
	if ((ret == -EACCES || ret == -ENOENT) && evlist__exclude_kernel(evlist)) {
		ret = 0; /* no kernel samples to resolve: nothing to warn about */
	} else if (ret == -EACCES || ret == -ENOENT) {
		pr_warn("kernel addresses are hidden, kernel samples will not resolve (check /proc/sys/kernel/kptr_restrict and /proc/kallsyms permission)");
		ret = 0; /* said once; the recording goes on */
	}
	if (!ret && synth__module_mmaps(w, "/proc", evlist->id_hdr_size))
		pr_verbose("Problems creating module maps, continuing anyway...\n");
	/* A stream names its events here; a file does in EVENT_DESC. */
	if (!ret && writer__is_pipe(w))
		ret = synth__event_update_names(w, evlist);
	if (!ret)
		ret = synth__thread_map_n(w, threads->pid, NULL, (size_t)threads->nr);
	if (!ret)
		ret = synth__cpu_map(w, evlist);
	if (!ret)
		ret = synth__bpf_scan(w, si->bpf, have_ks ? &ks : NULL, evlist->id_hdr_size);
	if (have_ks)
		kallsyms_scan__exit(&ks);
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

/* The one line for a write that failed: a reader gone, or a full disk. */
static void write_error(const char *verb, const char *output, int err)
{
	if (err == -EPIPE)
		pr_err("the reader of the output pipe exited: recording stopped (keep the reader running until prec ends, or record to a file with -o)");
	else
		pr_err("cannot %s '%s': %s (check free space)", verb, output, strerror(-err));
}

/* perf's rule: no -o and stdout is a FIFO means a stream; so does -o -. */
static bool output_is_pipe(const char *output)
{
	struct stat st;

	if (output)
		return !strcmp(output, "-");
	return !fstat(STDOUT_FILENO, &st) && S_ISFIFO(st.st_mode);
}

int prec_record(const struct record_opts *opts_in, int argc, char **argv, int *fatal_sig)
{
	struct record_opts opts = *opts_in;
	const char *output;
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
	struct record_meta rm = { 0 };
	bool have_meta = false;
	sigset_t block, orig;
	struct sigaction sa;
	char err[512], path[PATH_MAX];
	size_t data_bytes;
	int status = PREC_EXIT_FAILURE;
	int ret;

	*fatal_sig = 0;
	opts.pipe_output = output_is_pipe(opts.output);
	output = opts.pipe_output ? "-" : opts.output ? opts.output : PREC_DEFAULT_OUTPUT;
	if (opts.pipe_output && fcntl(STDOUT_FILENO, F_GETFL) < 0) {
		pr_err("-o -: standard output is closed (give the stream a reader, e.g. 'prec -o - -- cmd | perf report -i -', or give -o FILE)");
		goto out;
	}
	/* A closed 0, 1 or 2 would be reused by the next open (an event fd, the
	 * output file) and written to by accident: park /dev/null there. */
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFL) < 0 && open("/dev/null", O_RDWR) != fd)
			break;
	if (opts.pipe_output && isatty(STDOUT_FILENO)) {
		pr_err("-o -: standard output is a terminal (pipe it into a reader, e.g. 'prec -o - -- cmd | perf report -i -', or give -o FILE)");
		status = PREC_EXIT_USAGE;
		goto out;
	}

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
	opts.mmap_bytes = data_bytes; /* HEADER_COMPRESSED's mmap_len */

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
	ret = opts.pipe_output ? writer__open_pipe(&w, STDOUT_FILENO) : writer__open(&w, output);
	if (ret && opts.pipe_output) {
		pr_err("cannot write the stream to standard output: %s (run prec with its output open, e.g. piped into 'perf report -i -')",
		       strerror(-ret));
		goto out_kill;
	} else if (ret) {
		pr_err("cannot create the output file '%s': %s (%s)", output, strerror(-ret),
		       output_hint(output, ret));
		goto out_kill;
	}
	wev = calloc((size_t)evlist.nr, sizeof(*wev));
	if (!wev || fill_events(wev, &evlist, &idbuf))
		goto out_abort;
	ret = writer__begin(w, wev, (uint32_t)evlist.nr);
	if (ret == -E2BIG && opts.pipe_output) {
		pr_err("too many event ids for one pipe record (fewer CPUs or threads, or record to a file with -o)");
		goto out_abort;
	}
	if (!ret && opts.pipe_output) {
		/* A stream cannot be patched: its features go first, from what is
		 * known now, as perf sends them. */
		ret = record_meta__init(&rm, &si, wev, &evlist, &clk, &opts, argc, argv);
		have_meta = true;
		if (!ret)
			ret = writer__send_features(w, &rm.meta);
	}
	if (!ret) {
		/* The build-id hit set sees every record: synthesized ones through
		 * the writer's observer, the kernel's in the drain loop. */
		struct dso_track_layout tl;

		dso_track__layout(evlist.evsel[0].attr.sample_type,
				  evlist.evsel[0].attr.sample_id_all, &tl);
		if (!dso_track__new(&track, &tl))
			writer__set_observer(w, dso_track__stream, track);
		ret = synthesize(w, &evlist, &si, &opts, wl.pid);
		/* -z: the ring data from here on; synthesized records stay raw, as perf. */
		if (!ret && opts.comp_level)
			ret = writer__set_compression(w, opts.comp_level);
	}
	if (ret) {
		write_error("write", output, ret);
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
	if (!ret && opts.pipe_output) {
		/* The stream's fd joins the poll set: POLLERR when its reader exits. */
		struct pollfd *more = realloc(pfd, ((size_t)nr_pfd + 1) * sizeof(*pfd));

		if (more) {
			pfd = more;
			pfd[nr_pfd] = (struct pollfd){ .fd = STDOUT_FILENO, .events = 0 };
			drain.out_pfd = nr_pfd++;
		}
	}
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
		write_error("write", output, ret);
		goto out_abort;
	}

	/* 8. Finish: feature sections, final header, summary. */
	uint64_t bytes = writer__data_size(w), comp_in, comp_out;

	comp_in = comp_out = 0;
	if (opts.comp_level)
		writer__compression_stats(w, &comp_in, &comp_out);
	if (!have_meta) {
		ret = record_meta__init(&rm, &si, wev, &evlist, &clk, &opts, argc, argv);
		have_meta = true;
		if (ret) {
			write_error("finish", output, ret);
			goto out_abort;
		}
	}
	ret = finish(w, &rm, &drain.stats, track);
	w = NULL;
	if (ret) {
		write_error("finish", output, ret);
		goto out_signals;
	}
	print_summary(&drain.stats, bytes, output, comp_in, comp_out);
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
	if (have_meta)
		record_meta__exit(&rm);
	free(wev);
	free(idbuf);
	sysinfo__exit(&si);
	evlist__exit(&evlist);
	event_specs__exit(&specs);
	return status;
}
