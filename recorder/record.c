// SPDX-License-Identifier: GPL-2.0-only
/*
 * The orchestrator: prec_record's numbered steps, each one call (or a few)
 * into the object that owns it. The options arrive final (options__validate)
 * and stay const; what depends on the machine (the -F limit, the ring size,
 * the default events) is derived here once and handed on. Nothing the user
 * can get wrong reaches the kernel or the disk before it is checked, so bad
 * input never leaves a file behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "prec/clock.h"
#include "targets/cpu_map.h"
#include "prec/debuginfod.h"
#include "prec/error.h"
#include "evlist/evlist.h"
#include "prec/log.h"
#include "events/parse_events.h"
#include "options/options.h"
#include "entry.h"
#include "prec/sysinfo.h"
#include "targets/thread_map.h"
#include "targets/workload.h"
#include "prec/writer.h"
#include "drain/affinity.h"
#include "drain/streams.h"
#include "drain/threads.h"
#include "drain/wake.h"
#include "live/control.h"
#include "live/sideband_event.h"
#include "live/status_line.h"
#include "output/output.h"
#include "record_prepare.h"
#include "signals.h"
#include "targets/target.h"
#include "unwind/unwind.h"
#include "bpf/bpf_layer.h"
#include "bpf/filter.h"
#include "bpf/off_cpu.h"
#include "synth/synth_config.h"

/* Everything one recording holds; released at the end of prec_record. */
struct recording {
	const struct record_opts *opts;
	/* The narrow configs, built from opts once (record_prepare.c). */
	struct target_config target;
	struct synth_config synth;
	struct off_cpu_config off_cpu;
	struct output_config outcfg;
	struct event_specs specs;
	struct sysinfo si;
	struct cpu_map *cpus; /* until the evlist takes them */
	struct thread_map *threads;
	int cgroup_fd; /* -G's directory; -1 none */
	uint64_t freq; /* -F as the kernel takes it */
	size_t data_bytes; /* each ring's data area */
	struct evlist evlist;
	struct workload wl;
	struct pollfd *pfd; /* every event's fd, for the one stream */
	int nr_pfd;
	struct unwinder *unw;
	struct affinity aff; /* --affinity: the drain's before_ring step */
	struct threads_masks masks; /* the streams' CPUs: one, or --threads' */
	struct streams streams; /* the engine: its drain loops */
	struct wake wake; /* how other threads wake the main loop */
	struct clock_ref clk;
	struct output out;
	struct control ctl; /* --control; fd -1 without */
	struct sideband_event sb; /* --switch-output-event */
	sigset_t orig; /* the signal mask before prec blocked its own */
	struct status_line status; /* the live line on a terminal (status_line.h) */
	struct off_cpu *oc; /* --off-cpu's BPF program, or NULL */
};

/* After every drain pass (and the output's own check, output.h): a stop
 * (a signal, --control's stop), the end of the command. */
static bool should_stop(void *arg)
{
	struct recording *r = arg;
	struct status_output so;

	if (r->status.fd >= 0) {
		output__status(&r->out, &so);
		status_line__tick(&r->status, &r->streams, &so);
	}
	return signals__stop_signal() || control__stopped(&r->ctl) ||
	       (signals__child_done() && workload__reap(&r->wl, false));
}

/*
 * Targets other than a lone command are enabled here, after the side-band
 * (perf does the same); -D delays that, -D -1 leaves them disabled. Returns
 * nonzero when a signal ended the delay.
 */
static int start_events(struct evlist *evlist, const struct record_opts *opts,
			const sigset_t *sigmask)
{
	if (opts->delay_ms > 0 && signals__sleep((uint64_t)opts->delay_ms, sigmask))
		return 1;
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

/* The one line for a write that failed: a reader gone, a full disk, a
 * limit; output__hint names the fix for each errno. -E2BIG is no write's:
 * write(2) never says it, only a record built larger than its u16 size,
 * and then the path is not the cause. */
static void write_error(const char *verb, const char *output, int err)
{
	if (err == -EPIPE)
		pr_err("the reader of the output pipe exited: recording stopped (keep the reader running until prec ends, or record to a file with -o)");
	else if (err == -E2BIG)
		pr_err("cannot %s '%s': a record would pass the 64 KiB a perf record can hold, and prec has no way to split it (a bug in prec: report the command line; fewer threads or CPUs avoid it)",
		       verb, output);
	else
		pr_err("cannot %s '%s': %s (%s)", verb, output, strerror(-err),
		       output__hint(output, err));
}

/* A closed 0, 1 or 2 would be reused by the next open (an event fd, the
 * output file) and written to by accident: park /dev/null there. */
static void park_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFL) < 0 && open("/dev/null", O_RDWR) != fd)
			break;
}

/* perf's perf_debuginfod_setup says which servers the build-id cache asks
 * (none without --debuginfod). They reach it through the options; the
 * environment, the command's included, stays the one the user gave. */
static void debuginfod_say(const struct record_opts *opts)
{
	pr_verbose("DEBUGINFOD_URLS=%s\n",
		   opts->debuginfod && opts->debuginfod_urls ? opts->debuginfod_urls : "");
}

/* A step's failure: e's line, printed once; the exit status. */
static int recording__fail(struct prec_err *e, int status)
{
	prec_err__print(e, NULL);
	return status;
}

/* Step 1: the narrow configs; the events, the command and the clock the
 * options name, checked against this machine before any side effect; then
 * what -F and -m become here. 0 or the exit status, explained. */
static int recording__check(struct recording *r)
{
	const struct record_opts *opts = r->opts;
	struct prec_err e = PREC_ERR_INIT;
	char path[PATH_MAX];
	int ret;

	target_config__init(&r->target, opts);
	synth_config__init(&r->synth, opts);
	off_cpu_config__init(&r->off_cpu, opts);
	output_config__init(&r->outcfg, opts);
	if (event_specs__parse_options(&r->specs, opts, &e)) {
		prec_err__print(&e, NULL);
		return PREC_EXIT_USAGE;
	}
	ret = opts->argc ? workload__resolve(opts->argv[0], path, sizeof(path)) : 0;
	if (ret) {
		pr_err("cannot run '%s': %s (%s)", opts->argv[0], strerror(-ret),
		       ret == -ENOENT ? options__not_found_hint(opts->argv[0]) :
					"it is not an executable file");
		return ret == -ENOENT ? PREC_EXIT_NOTFOUND : PREC_EXIT_NOEXEC;
	}
	if (r->clk.use) {
		ret = clock__snapshot(r->clk.id, &r->clk.res_ns, &r->clk.tod_ns, &r->clk.clock_ns);
		if (ret) {
			pr_err("cannot use clock %d for -k: %s (pick one this kernel has, e.g. -k monotonic)",
			       r->clk.id, strerror(-ret));
			return PREC_EXIT_USAGE;
		}
	}
	if (sideband_event__parse(&r->sb, opts->switch_output_event, &e) ||
	    (!opts->period && prepare__freq(opts, &r->freq, &e))) {
		prec_err__print(&e, NULL);
		return PREC_EXIT_USAGE;
	}
	r->data_bytes = prepare__ring_bytes(opts);
	if (opts->debuginfod && !debuginfod__available()) {
		pr_err("--debuginfod: %s", debuginfod__missing());
		return PREC_EXIT_USAGE;
	}
	if (opts->off_cpu && bpf_layer__check("--off-cpu", NULL, &e)) {
		prec_err__print(&e, "--off-cpu");
		return PREC_EXIT_FAILURE;
	}
	if (opts->debuginfod && !opts->debuginfod_urls) {
		pr_err("--debuginfod: DEBUGINFOD_URLS is not set (give the servers, e.g. --debuginfod=https://debuginfod.debian.net)");
		return PREC_EXIT_USAGE;
	}
	if (opts->kcore && prepare__kcore_check(opts->test_sysroot, &e))
		return recording__fail(&e, PREC_EXIT_FAILURE);
	return 0;
}

/* Step 2: the machine: the CPUs to open on, -G's cgroup, the sysinfo
 * snapshot for the header, the default events for this machine. */
static int recording__machine(struct recording *r)
{
	const char *sysroot = r->opts->test_sysroot;
	struct prec_err e = PREC_ERR_INIT;

	if (target__cpus(&r->target, &r->cpus, &e))
		return recording__fail(&e, PREC_EXIT_FAILURE);
	if (r->target.cgroup) {
		r->cgroup_fd = target__cgroup_fd(r->target.cgroup, &e);
		if (r->cgroup_fd < 0)
			return recording__fail(&e, PREC_EXIT_FAILURE);
	}
	sysinfo__read(&r->si, sysroot);
	/* --threads chooses the number of streams and their masks: the
	 * engine is the same with one. */
	if (r->opts->threads) {
		if (threads_masks__for_machine(r->opts->threads_spec, &r->si, r->cpus, &r->masks,
					       &e))
			return recording__fail(&e, PREC_EXIT_USAGE);
		pr_verbose("--threads: %u drain streams\n", r->masks.nr);
	} else if (threads_masks__one(&r->masks)) {
		return PREC_EXIT_FAILURE;
	}
	if (event_specs__for_machine(&r->specs, sysroot ? NULL : &r->si))
		return PREC_EXIT_FAILURE;
	/* --off-cpu: perf's offcpu-time event after the others (the default
	 * event included). */
	if (r->opts->off_cpu && event_specs__add_off_cpu(&r->specs))
		return PREC_EXIT_FAILURE;
	if (!event_specs__scan_pmus(&r->specs))
		sysinfo__pmus_perf_record_order(&r->si);
	return 0;
}

/* --control, once the events it acts on exist; before any file does, so
 * a missing FIFO leaves none. 0 or the exit status, explained. */
static int recording__control(struct recording *r)
{
	struct control_spec spec;
	struct prec_err e = PREC_ERR_INIT;

	if (!r->opts->control)
		return 0;
	if (control_spec__parse(r->opts->control, &spec, NULL) || /* options__validate checked it */
	    control__open(&r->ctl, &spec, &r->evlist, &e)) {
		prec_err__print(&e, "--control");
		return PREC_EXIT_USAGE;
	}
	r->ctl.snapshot_switches = r->opts->switch_signal || r->opts->overwrite;
	return 0;
}

/* After the fork: the drain's scheduling (-r, or the drain's nice), which
 * the command does not inherit. 0 or the exit status, explained. */
static int recording__schedule(const struct record_opts *opts)
{
	struct prec_err e = PREC_ERR_INIT;

	if (opts->realtime_prio)
		return affinity__set_realtime(opts->realtime_prio, &e) ?
			       recording__fail(&e, PREC_EXIT_FAILURE) :
			       0;
	affinity__raise_drain(); /* best effort: printed under -v */
	return 0;
}

/* Step 4: fork the command corked, find the threads, open the events, map
 * the rings. 0 or the exit status, explained. */
static int recording__open(struct recording *r)
{
	const struct record_opts *opts = r->opts;
	struct prec_err e = PREC_ERR_INIT;
	struct evlist_config cfg;
	int ret;

	if (opts->argc && workload__prepare(&r->wl, opts->argv, &r->orig, opts->pipe_output, &e))
		return recording__fail(&e, PREC_EXIT_FAILURE);
	/* After the fork: the command keeps its environment and its policy. */
	debuginfod_say(opts);
	ret = recording__schedule(opts);
	if (ret)
		return ret;
	if (target__threads(&r->target, r->wl.pid, &r->threads, &e))
		return recording__fail(&e, PREC_EXIT_USAGE);
	evlist_config__init(&cfg, opts, r->freq, r->cgroup_fd);
	ret = evlist__init(&r->evlist, &r->specs, &cfg, r->cpus, r->threads, &e);
	r->cpus = NULL;
	r->threads = NULL;
	if (ret)
		return recording__fail(&e, PREC_EXIT_FAILURE);
	if (!r->data_bytes)
		r->data_bytes = prepare__default_ring_bytes(&r->evlist, r->si.total_mem_kb);
	pr_verbose("mmap size %zuB\n", r->data_bytes + (size_t)sysconf(_SC_PAGESIZE));
	if (evlist__open(&r->evlist, &e) || bpf_filters__attach(&r->evlist, &e) ||
	    evlist__mmap(&r->evlist, r->data_bytes, &e))
		return recording__fail(&e, PREC_EXIT_FAILURE);
	r->nr_pfd = evlist__pollfds(&r->evlist, &r->pfd);
	if (r->nr_pfd < 0)
		return PREC_EXIT_FAILURE;
	/* The wake, before any thread that pokes it (the background side-band)
	 * and before the side-band takes fds: at the open-file limit the
	 * recording fails here, in one line. */
	ret = wake__init(&r->wake);
	if (ret) {
		pr_err("cannot set up the drain: %s (%s)", strerror(-ret),
		       output__hint(opts->output, ret));
		return PREC_EXIT_FAILURE;
	}
	/* --off-cpu, once the events are open (bpf/off_cpu_target.c). */
	if (opts->off_cpu && off_cpu__open_for(&r->oc, &r->off_cpu, &r->target, &r->evlist,
					       r->wl.pid, r->cgroup_fd, &e))
		return recording__fail(&e, PREC_EXIT_FAILURE);
	return recording__control(r);
}

/* Step 5: the output: header, attrs with their ids, the synthesized
 * side-band. 0, or -errno (printed). */
static int recording__begin_output(struct recording *r, int argc, char **argv)
{
	const struct record_opts *opts = r->opts;
	struct output_src src = {
		.cfg = &r->outcfg,
		.synth = &r->synth,
		.evlist = &r->evlist,
		.si = &r->si,
		.clk = &r->clk,
		.argc = argc,
		.argv = argv,
		.pid = r->wl.pid,
		.take_switch = signals__take_switch,
		.stream_files = r->masks.threaded,
		.wake = &r->wake,
		.off_cpu = r->oc,
	};
	struct prec_err e = PREC_ERR_INIT;
	int ret;

	ret = output__open(&r->out, &src);
	/* --kcore: copied after the events opened, before the side-band, as perf. */
	if (!ret && opts->kcore) {
		char proc[PATH_MAX];

		prepare__kcore_dir(opts->test_sysroot, proc, sizeof(proc));
		ret = output_dir__copy_kcore(&r->out.dir, proc);
	}
	/* --unwind=record: the attrs written describe the rewritten samples. */
	if (!ret && opts->unwind_record)
		ret = unwinder__setup(&r->unw, r->out.wev, (uint32_t)r->evlist.nr, &e);
	if (ret) {
		prec_err__print(&e, "cannot set up the output");
		return ret;
	}
	ret = output__begin(&r->out, r->unw);
	if (ret == -E2BIG && opts->pipe_output)
		pr_err("too many event ids for one pipe record (fewer CPUs or threads, or record to a file with -o)");
	else if (ret && ret != -ECANCELED) /* -ECANCELED: printed */
		write_error("write", opts->output, ret);
	return ret;
}

/* Step 6: the engine, ready before anything can stop the recording: with
 * --threads first the output's stream files and the data file's features
 * (output__begin_streams: a failed write), then its streams, their writers
 * and hooks from the output, the main loop's fds. */
static int recording__streams(struct recording *r)
{
	const struct record_opts *opts = r->opts;
	struct streams *ss = &r->streams;
	/* --mmap-flush: at most a quarter of the ring, as perf. */
	struct drain_config dc = { .time_off = evlist__sample_time_offset(&r->evlist),
				   .flush = opts->mmap_flush > r->data_bytes / 4 ?
						    r->data_bytes / 4 :
						    opts->mmap_flush };
	/* --control's channel; the stream's fd: POLLERR when its reader exits. */
	struct streams_main watch = { .side_fd = r->ctl.fd,
				      .on_side = control__ready,
				      .side_arg = &r->ctl,
				      .wake = &r->wake,
				      .out_fd = opts->pipe_output ? STDOUT_FILENO : -1 };
	int ret;

	if (opts->mmap_flush)
		pr_verbose("mmap flush: %llu\n", (unsigned long long)dc.flush);
	/* --threads: the directory's stream files, one per stream. */
	ret = output__begin_streams(&r->out, (int)r->masks.nr);
	output__drain_config(&r->out, &dc);
	if (!ret)
		ret = affinity__attach(&r->aff, &dc, opts->affinity, &r->si);
	if (!ret)
		ret = streams__init(ss, &r->masks, r->evlist.rings, r->evlist.nr_rings, r->pfd,
				    r->nr_pfd, &dc, target__ends_with_threads(&r->target));
	if (!ret)
		ret = output__attach_streams(&r->out, ss);
	if (!ret) /* the snapshot's ack after the output's step */
		ret = control__attach(&r->ctl, streams__main_drain(ss), !r->masks.threaded);
	streams__set_main(ss, &watch);
	if (ret == -EFBIG || ret == -ENOSPC || ret == -EDQUOT || ret == -EIO)
		write_error("write", opts->output, ret);
	else if (ret)
		pr_err("cannot set up the drain: %s (%s)", strerror(-ret),
		       ret == -ENOMEM ? "free some memory and retry" :
					output__hint(opts->output, ret));
	return ret;
}

/*
 * Step 9: stop the events first, so that what is left in the rings is finite
 * (system-wide, prec's own writing would otherwise be sampled as fast as it
 * drains), then that tail, bounded, then the command if it still runs.
 * ret is the drain's result; returns it with the tail's.
 */
static int recording__stop(struct recording *r, int ret)
{
	uint64_t disabled_at;

	sideband_event__stop(&r->sb); /* no rotation asked after this */
	evlist__disable(&r->evlist);
	off_cpu__disable(r->oc);
	if (r->clk.use && !clock__now_ns(r->clk.id, &disabled_at))
		/* For whoever checks the order: no sample is later than this. */
		pr_verbose("events disabled at %llu.%09llu (-k clock)\n",
			   (unsigned long long)(disabled_at / 1000000000),
			   (unsigned long long)(disabled_at % 1000000000));
	if (!ret && !output__size_reached(&r->out)) {
		ret = streams__tail(&r->streams, signals__stop_again, NULL);
		if (ret >= 0) {
			pr_verbose("the tail after the disable took %d pass(es) with data%s\n", ret,
				   signals__stop_again(NULL) ? "; cut short by a second signal" :
							       "");
			ret = 0;
		}
	}
	workload__end(&r->wl, &r->orig);
	workload__reap(&r->wl, true);
	return ret;
}

static void recording__exit(struct recording *r)
{
	if (r->cgroup_fd >= 0)
		close(r->cgroup_fd);
	free(r->pfd);
	cpu_map__delete(r->cpus);
	thread_map__delete(r->threads);
	streams__exit(&r->streams);
	threads_masks__exit(&r->masks);
	wake__exit(&r->wake);
	affinity__exit(&r->aff);
	output__exit(&r->out);
	unwinder__delete(r->unw);
	off_cpu__delete(r->oc);
	control__exit(&r->ctl);
	sideband_event__exit(&r->sb);
	sysinfo__exit(&r->si);
	bpf_filters__detach(&r->evlist);
	evlist__exit(&r->evlist);
	event_specs__exit(&r->specs);
}

/* Step 7: go. The side-band event's thread, the reference reading of the
 * -k clock right before the kernel enables the events at exec (as perf),
 * the status line, the command, the events of other targets. 0, or the
 * exit status (printed); *stopped when a stop signal ended -D's delay. */
static int recording__go(struct recording *r, bool *stopped)
{
	const struct record_opts *opts = r->opts;
	struct prec_err e = PREC_ERR_INIT;
	struct status_line_config slc;
	int ret;

	if (opts->switch_output_event &&
	    sideband_event__start(&r->sb, &r->evlist,
				  opts->pid_list || opts->tid_list || opts->uid_str, &r->wake, &e))
		return recording__fail(&e, PREC_EXIT_FAILURE);
	if (r->clk.use)
		clock__snapshot(r->clk.id, &r->clk.res_ns, &r->clk.tod_ns, &r->clk.clock_ns);
	status_line_config__init(&slc, opts);
	status_line__init(&r->status, &slc, STDERR_FILENO, streams__main_drain(&r->streams));
	/* Off-CPU time counts from where perf 6.1 calls its record_start
	 * hook: at once, or at the end of a -D delay. */
	if (opts->delay_ms <= 0)
		off_cpu__enable(r->oc);
	ret = opts->argc ? workload__start(&r->wl) : 0;
	if (ret) {
		pr_err("cannot run '%s': %s", opts->argv[0], strerror(-ret));
		return ret == -ENOENT ? PREC_EXIT_NOTFOUND : PREC_EXIT_NOEXEC;
	}
	*stopped = start_events(&r->evlist, opts, &r->orig) != 0;
	if (opts->delay_ms > 0 && !*stopped)
		off_cpu__enable(r->oc);
	return 0;
}

/* Step 10: finish: the stream files, feature sections, final header,
 * summary. The exit status: the command's, or 0 when --max-size ended the
 * recording on purpose (it is complete); -1 after saying why it failed. */
static int recording__finish(struct recording *r)
{
	int ret = 0;

	for (int i = 0; i < r->streams.nr && !ret; i++)
		ret = output__end_stream(&r->out, i, &r->streams.s[i].d.stats);
	ret = ret ?: output__finish(&r->out);
	if (ret) {
		write_error("finish", r->opts->output, ret);
		return -1;
	}
	output__summary(&r->out);
	return output__size_reached(&r->out) ? 0 : workload__exit_status(&r->wl);
}

/* A recording that holds nothing yet: every fd closed. */
#define RECORDING_INIT(o)                                                \
	{                                                                \
		.opts = (o), .cgroup_fd = -1, .sb = { .stop_fd = -1 },   \
		.wl = { .pid = -1, .go_fd = -1, .err_fd = -1 },          \
		.clk = { .use = (o)->use_clockid, .id = (o)->clockid },  \
		.ctl = { .fd = -1, .ack_fd = -1 }, .wake = { .fd = -1 }, \
	}

int prec_record(const struct record_opts *opts, int argc, char **argv, int *fatal_sig)
{
	struct recording rec = RECORDING_INIT(opts), *r = &rec;
	bool stopped = false;
	int status, ret = 0;

	*fatal_sig = 0;
	park_std_fds();
	/* 1. The events, the command and the clock, checked. 2. The machine.
	 * --dry-run: everything checked, nothing opened or written. */
	status = recording__check(r) ?: recording__machine(r);
	if (status || opts->dry_run)
		goto out;
	/* 3. Signals: blocked except inside ppoll, so none is ever missed. */
	signals__install(opts->switch_signal || opts->overwrite, opts->pipe_output, &r->orig);
	/* 4. Fork the command corked, open the events, map, --control. */
	status = recording__open(r);
	if (status)
		goto out_kill; /* nothing to kill when the fork failed */
	/* 5. The output and its front. 6. The engine's streams. 7. Go. */
	status = PREC_EXIT_FAILURE;
	if (recording__begin_output(r, argc, argv) || recording__streams(r)) {
		/* Nothing was recorded: no file passes for an empty recording. */
		output__discard(&r->out);
		goto out_kill;
	}
	status = recording__go(r, &stopped);
	if (status)
		goto out_abort;
	/* 8. Drain until the command ends, every target thread is gone, or
	 * prec is told to stop (not when a signal ended -D's delay). */
	ret = stopped ? 0 : streams__run(&r->streams, should_stop, r, &r->orig);
	status_line__end(&r->status); /* gone before anything else is printed */
	/* 9. Stop: the events, their tail, the command (-ECANCELED: reported). */
	ret = recording__stop(r, ret);
	if (prec_err__is_set(&r->streams.err))
		prec_err__print(&r->streams.err, NULL);
	else if (ret && ret != -ECANCELED)
		write_error("write", opts->output, ret);
	status = ret ? -1 : recording__finish(r); /* 10. Finish. */
	if (status < 0) {
		status = PREC_EXIT_FAILURE;
		goto out_abort;
	}
	/* Taken after the mask is restored: a stop signal that came while the
	 * file was being finished is delivered then, and counts too. */
	signals__restore(&r->orig);
	*fatal_sig = signals__stop_signal();
	goto out;
out_abort:
	output__abort(&r->out);
out_kill:
	workload__kill(&r->wl, SIGKILL);
	signals__restore(&r->orig);
out:
	recording__exit(r);
	return status;
}
