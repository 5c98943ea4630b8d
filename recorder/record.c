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
#include <poll.h>
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
#include "evlist/evlist.h"
#include "prec/kcore.h"
#include "prec/log.h"
#include "events/parse_events.h"
#include "options/options.h"
#include "record.h"
#include "prec/sysinfo.h"
#include "targets/thread_map.h"
#include "targets/workload.h"
#include "prec/writer.h"
#include "drain/affinity.h"
#include "live/control.h"
#include "drain/drain.h"
#include "output/output.h"
#include "unwind/unwind.h"
#include "record_prepare.h"
#include "live/sideband_event.h"
#include "signals.h"
#include "live/status_line.h"
#include "targets/target.h"
#include "drain/threads.h"
#include "drain/streams.h"

/* Everything one recording holds; released at the end of prec_record. */
struct recording {
	const struct record_opts *opts;
	struct event_specs specs;
	struct sysinfo si;
	struct cpu_map *cpus; /* until the evlist takes them */
	struct thread_map *threads;
	int cgroup_fd; /* -G's directory; -1 none */
	uint64_t freq; /* -F as the kernel takes it */
	size_t data_bytes; /* each ring's data area */
	struct evlist evlist;
	struct workload wl;
	struct pollfd *pfd;
	int nr_pfd;
	struct unwinder *unw;
	struct drain drain;
	struct affinity aff; /* --affinity: the drain's before_ring step */
	struct threads_masks masks; /* --threads: the streams' CPUs */
	struct streams streams; /* --threads: the drain loops, one thread each */
	struct clock_ref clk;
	struct output out;
	struct control ctl; /* --control; fd -1 without */
	struct sideband_event sb; /* --switch-output-event */
	sigset_t orig; /* the signal mask before prec blocked its own */
	struct status_line status; /* the live line on a terminal (status_line.h) */
};

/* After every drain pass (and the output's own check, output.h): a stop
 * (a signal, --control's stop), the end of the command. */
static bool should_stop(void *arg)
{
	struct recording *r = arg;

	status_line__tick(&r->status, &r->drain, &r->streams, &r->out);
	if (signals__stop_signal() || control__stopped(&r->ctl))
		return true;
	return signals__child_done() && workload__reap(&r->wl, false);
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
		struct timespec now, end;

		/* Sleeps the whole delay, but ends it for a stop signal or
		 * SIGCHLD; other wake-ups (SIGUSR1: the background side-band is
		 * ready; a user's SIGUSR2) sleep on until the end. */
		clock_gettime(CLOCK_MONOTONIC, &end);
		end.tv_sec += opts->delay_ms / 1000;
		end.tv_nsec += (opts->delay_ms % 1000) * 1000000L;
		if (end.tv_nsec >= 1000000000L) {
			end.tv_sec++;
			end.tv_nsec -= 1000000000L;
		}
		for (;;) {
			struct timespec left;

			clock_gettime(CLOCK_MONOTONIC, &now);
			left.tv_sec = end.tv_sec - now.tv_sec;
			left.tv_nsec = end.tv_nsec - now.tv_nsec;
			if (left.tv_nsec < 0) {
				left.tv_sec--;
				left.tv_nsec += 1000000000L;
			}
			if (left.tv_sec < 0)
				break;
			ppoll(NULL, 0, &left, sigmask);
			if (signals__stop_signal())
				return 1;
			if (signals__child_done())
				break;
		}
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

/* The one line for a write that failed: a reader gone, a full disk, a
 * limit; output__hint names the fix for each errno. */
static void write_error(const char *verb, const char *output, int err)
{
	if (err == -EPIPE)
		pr_err("the reader of the output pipe exited: recording stopped (keep the reader running until prec ends, or record to a file with -o)");
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

/* --kcore's source: perf's machine root_dir/proc (the tests' sysroot). */
static void kcore_proc_dir(const struct record_opts *opts, char *buf, size_t len)
{
	snprintf(buf, len, "%s/proc", opts->test_sysroot ? opts->test_sysroot : "");
}

/* --kcore, before anything is created: kcore must be readable, and kallsyms
 * must show the addresses that say which parts of it to copy. */
static int recording__check_kcore(const struct record_opts *opts)
{
	char dir[PATH_MAX];
	int ret;

	kcore_proc_dir(opts, dir, sizeof(dir));
	ret = kcore__check(dir);
	if (ret)
		pr_err("--kcore: cannot use %s/kcore: %s (%s)", dir,
		       ret == -EADDRNOTAVAIL ? "kallsyms shows no kernel addresses" : strerror(-ret),
		       ret == -ENOENT ? "this kernel has no /proc/kcore, CONFIG_PROC_KCORE is not set: record without --kcore" :
		       ret == -EADDRNOTAVAIL ? "run as root with sysctl kernel.kptr_restrict=0" :
		       ret == -EACCES || ret == -EPERM ? "kcore needs root (CAP_SYS_RAWIO): run prec as root" :
						       "record without --kcore");
	return ret ? PREC_EXIT_FAILURE : 0;
}

/* perf's perf_debuginfod_setup says which servers the build-id cache asks
 * (none without --debuginfod). They reach it through the options; the
 * environment, the command's included, stays the one the user gave. */
static void debuginfod_env(const struct record_opts *opts)
{
	pr_verbose("DEBUGINFOD_URLS=%s\n",
		   opts->debuginfod && opts->debuginfod_urls ? opts->debuginfod_urls : "");
}

/* Step 1: the events, the command and the clock the options name, checked
 * against this machine before any side effect; then what -F and -m become
 * here. 0 or the exit status, explained. */
static int recording__check(struct recording *r)
{
	const struct record_opts *opts = r->opts;
	char err[512], path[PATH_MAX];
	int ret;

	if (event_specs__parse_options(&r->specs, opts, err, sizeof(err))) {
		pr_err("%s", err);
		return PREC_EXIT_USAGE;
	}
	ret = opts->argc ? workload__resolve(opts->argv[0], path, sizeof(path)) : 0;
	if (ret) {
		pr_err("cannot run '%s': %s (%s)", opts->argv[0], strerror(-ret),
		       ret == -ENOENT ? "check the command name and $PATH" :
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
	if (opts->switch_output_event &&
	    sideband_event__parse(&r->sb, opts->switch_output_event, err, sizeof(err))) {
		pr_err("%s", err);
		return PREC_EXIT_USAGE;
	}
	r->freq = opts->period ? 0 : options__effective_freq(opts);
	if (!opts->period && !r->freq)
		return PREC_EXIT_USAGE; /* --strict-freq, said */
	r->data_bytes = options__ring_bytes(opts);
	if (opts->control) {
		struct control_spec spec;

		/* Opened before any file exists: a missing FIFO leaves none. */
		if (control_spec__parse(opts->control, &spec, err, sizeof(err)) ||
		    control__open(&r->ctl, &spec, &r->evlist, err, sizeof(err))) {
			pr_err("%s", err);
			return PREC_EXIT_USAGE;
		}
		r->ctl.snapshot_switches = opts->switch_signal || opts->overwrite;
	}
	if (opts->debuginfod && !debuginfod__available()) {
		pr_err("--debuginfod: %s", DEBUGINFOD_MISSING_HINT);
		return PREC_EXIT_USAGE;
	}
	if (opts->debuginfod && !opts->debuginfod_urls) {
		pr_err("--debuginfod: DEBUGINFOD_URLS is not set (give the servers, e.g. --debuginfod=https://debuginfod.debian.net)");
		return PREC_EXIT_USAGE;
	}
	return opts->kcore ? recording__check_kcore(opts) : 0;
}

/* Step 2: the machine: the CPUs to open on, -G's cgroup, the sysinfo
 * snapshot for the header, the default events for this machine. */
static int recording__machine(struct recording *r)
{
	const char *sysroot = r->opts->test_sysroot;

	if (target__cpus(r->opts, &r->cpus))
		return PREC_EXIT_FAILURE;
	if (r->opts->cgroup) {
		r->cgroup_fd = target__cgroup_fd(r->opts->cgroup);
		if (r->cgroup_fd < 0)
			return PREC_EXIT_FAILURE;
	}
	sysinfo__read(&r->si, sysroot);
	if (r->opts->threads) {
		char err[256];

		if (threads_masks__for_machine(r->opts->threads_spec, &r->si, r->cpus, &r->masks, err,
					       sizeof(err))) {
			pr_err("%s", err);
			return PREC_EXIT_USAGE;
		}
		pr_verbose("--threads: %u drain streams\n", r->masks.nr);
	}
	if (event_specs__for_machine(&r->specs, sysroot ? NULL : &r->si))
		return PREC_EXIT_FAILURE;
	if (!event_specs__scan_pmus(&r->specs))
		sysinfo__pmus_perf_record_order(&r->si);
	return 0;
}

/* -p/-t: the recording ends when every target thread is gone. */
static bool recording__stop_on_hup(const struct record_opts *opts)
{
	return !opts->argc && !opts->system_wide && !opts->cpu_list;
}

/* Step 4: fork the command corked, find the threads, open the events, map
 * the rings. 0 or the exit status, explained. */
static int recording__open(struct recording *r)
{
	const struct record_opts *opts = r->opts;
	struct evlist_config cfg;
	int ret;

	if (opts->argc) {
		ret = workload__prepare(&r->wl, opts->argv, &r->orig, opts->pipe_output);
		if (ret) {
			pr_err("cannot fork the workload: %s (%s)", strerror(-ret),
			       ret == -EMFILE ? "raise the open-file limit, e.g. ulimit -n 4096" :
			       ret == -ENFILE ? "the system's open-file table is full (fs.file-max)" :
			       ret == -EAGAIN ? "raise the process limit (ulimit -u) or end some processes" :
						"free some memory and retry");
			return PREC_EXIT_FAILURE;
		}
	}
	if (target__threads(opts, r->wl.pid, &r->threads))
		return PREC_EXIT_USAGE;
	evlist_config__init(&cfg, opts, r->freq, r->cgroup_fd);
	ret = evlist__init(&r->evlist, &r->specs, &cfg, r->cpus, r->threads);
	r->cpus = NULL;
	r->threads = NULL;
	if (ret) {
		pr_err("cannot set up the events: %s", strerror(-ret));
		return PREC_EXIT_FAILURE;
	}
	if (!r->data_bytes)
		r->data_bytes = options__default_ring_bytes(&r->evlist, r->si.total_mem_kb);
	pr_verbose("mmap size %zuB\n", r->data_bytes + (size_t)sysconf(_SC_PAGESIZE));
	if (evlist__open(&r->evlist) || evlist__mmap(&r->evlist, r->data_bytes))
		return PREC_EXIT_FAILURE;
	r->nr_pfd = evlist__pollfds(&r->evlist, &r->pfd);
	return r->nr_pfd < 0 ? PREC_EXIT_FAILURE : 0;
}

/* Step 5: the output: header, attrs with their ids, the synthesized
 * side-band. 0, or -errno (said). */
static int recording__begin_output(struct recording *r, int argc, char **argv)
{
	const struct record_opts *opts = r->opts;
	struct output_src src = {
		.opts = opts, .evlist = &r->evlist, .si = &r->si, .clk = &r->clk,
		.argc = argc, .argv = argv, .pid = r->wl.pid,
		.take_switch = signals__take_switch,
	};
	int ret;

	ret = output__open(&r->out, &src, opts->output);
	/* --kcore: copied after the events opened, before the side-band, as perf. */
	if (!ret && opts->kcore) {
		char proc[PATH_MAX];

		kcore_proc_dir(opts, proc, sizeof(proc));
		ret = output_dir__copy_kcore(&r->out.dir, proc);
	}
	/* --unwind=record: the attrs written describe the rewritten samples. */
	if (!ret && opts->unwind_record)
		ret = unwinder__setup(&r->unw, r->out.wev, (uint32_t)r->evlist.nr);
	if (ret)
		return ret; /* said, but for -ENOMEM */
	ret = output__begin(&r->out, r->unw);
	if (ret == -E2BIG && opts->pipe_output)
		pr_err("too many event ids for one pipe record (fewer CPUs or threads, or record to a file with -o)");
	else if (ret)
		write_error("write", opts->output, ret);
	return ret;
}

/* --threads: one drain loop per mask, each writing its own stream file. */
static int recording__streams_init(struct recording *r)
{
	int ret = streams__init(&r->streams, &r->masks, r->evlist.rings, r->evlist.nr_rings,
				r->drain.time_off, r->drain.flush, recording__stop_on_hup(r->opts));

	if (!ret)
		ret = output__open_streams(&r->out, r->streams.nr);
	/* The background side-band reaches the data file from this thread. */
	r->streams.between = output__between;
	r->streams.between_arg = &r->out;
	for (int i = 0; !ret && i < r->streams.nr; i++) {
		r->streams.s[i].d.mmap2_build_ids = r->opts->buildid_mmap;
		ret = output__attach_stream(&r->out, i, &r->streams.s[i].d);
	}
	return ret;
}

/* --control: its fd polled where the recording sleeps (the drain, or the
 * main thread under --threads), run on that thread. 0 or -ENOMEM. */
static int recording__control_init(struct recording *r)
{
	struct pollfd *more;

	if (r->ctl.fd < 0)
		return 0;
	if (r->opts->threads) {
		r->streams.side_fd = r->ctl.fd;
		r->streams.on_side = control__ready;
		r->streams.side_arg = &r->ctl;
		return 0;
	}
	more = realloc(r->pfd, ((size_t)r->nr_pfd + 1) * sizeof(*r->pfd));
	if (!more)
		return -ENOMEM;
	r->pfd = more;
	r->pfd[r->nr_pfd] = (struct pollfd){ .fd = r->ctl.fd, .events = POLLIN };
	r->drain.side_pfd = r->nr_pfd++;
	r->drain.on_side = control__ready;
	r->drain.side_arg = &r->ctl;
	control__attach(&r->ctl, &r->drain);
	return 0;
}

/* Step 6: the drain, ready before anything can stop the recording. */
static int recording__drain_init(struct recording *r)
{
	const struct record_opts *opts = r->opts;
	struct drain *drain = &r->drain;
	int ret;

	/* --threads: the rings are the streams'; this drain, with none, only
	 * carries the output's hooks for the data file. */
	ret = drain__init(drain, r->evlist.rings, opts->threads ? 0 : r->evlist.nr_rings, NULL,
			  evlist__sample_time_offset(&r->evlist));
	drain->mmap2_build_ids = opts->buildid_mmap;
	/* --mmap-flush: at most a quarter of the ring, as perf. */
	drain->flush = opts->mmap_flush > r->data_bytes / 4 ? r->data_bytes / 4 : opts->mmap_flush;
	if (opts->mmap_flush)
		pr_verbose("mmap flush: %llu\n", (unsigned long long)drain->flush);
	if (!ret)
		ret = affinity__attach(&r->aff, drain, opts->affinity, &r->si);
	if (!ret)
		ret = output__attach(&r->out, drain);
	if (!ret && opts->threads)
		ret = recording__streams_init(r);
	if (!ret && opts->pipe_output) {
		/* The stream's fd joins the poll set: POLLERR when its reader exits. */
		struct pollfd *more = realloc(r->pfd, ((size_t)r->nr_pfd + 1) * sizeof(*r->pfd));

		if (more) {
			r->pfd = more;
			r->pfd[r->nr_pfd] = (struct pollfd){ .fd = STDOUT_FILENO, .events = 0 };
			drain->out_pfd = r->nr_pfd++;
		}
	}
	if (!ret)
		ret = recording__control_init(r);
	if (ret)
		pr_err("cannot set up the drain: %s", strerror(-ret));
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
	struct timespec disabled_at;

	sideband_event__stop(&r->sb); /* no rotation asked after this */
	evlist__disable(&r->evlist);
	if (r->clk.use && !clock_gettime(r->clk.id, &disabled_at))
		/* For whoever checks the order: no sample is later than this. */
		pr_verbose("events disabled at %lld.%09ld (-k clock)\n",
			   (long long)disabled_at.tv_sec, disabled_at.tv_nsec);
	if (!ret && !r->out.size_limit && r->opts->threads)
		ret = streams__tail(&r->streams, signals__stop_again, NULL);
	if (!ret && !r->out.size_limit) {
		ret = drain__tail(&r->drain, signals__stop_again, NULL);
		if (ret >= 0) {
			pr_verbose("the tail after the disable took %d pass(es) with data%s\n", ret,
				   signals__stop_again(NULL) ? "; cut short by a second signal" : "");
			ret = 0;
		}
	}
	workload__end(&r->wl, &r->orig);
	workload__reap(&r->wl, true);
	return ret;
}

/* Step 8 with --threads: the loops on their threads, this one waiting. */
static int recording__run_streams(struct recording *r)
{
	int ret = streams__start(&r->streams);

	if (ret)
		pr_err("cannot start the drain threads: %s (lower the number of streams, e.g. --threads=numa)",
		       strerror(-ret));
	ret = streams__wait(&r->streams, should_stop, r, &r->orig) ?: ret;
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
	drain__exit(&r->drain);
	affinity__exit(&r->aff);
	output__exit(&r->out);
	unwinder__delete(r->unw);
	control__exit(&r->ctl);
	sideband_event__exit(&r->sb);
	sysinfo__exit(&r->si);
	evlist__exit(&r->evlist);
	event_specs__exit(&r->specs);
}

int prec_record(const struct record_opts *opts, int argc, char **argv, int *fatal_sig)
{
	struct recording rec = {
		.opts = opts,
		.cgroup_fd = -1,
		.sb = { .stop_fd = -1 },
		.wl = { .pid = -1, .go_fd = -1, .err_fd = -1 },
		.clk = { .use = opts->use_clockid, .id = opts->clockid },
		.ctl = { .fd = -1, .ack_fd = -1 },
	};
	struct recording *r = &rec;
	int status, ret;

	*fatal_sig = 0;
	park_std_fds();

	/* 1. The events, the command and the clock, checked. 2. The machine. */
	status = recording__check(r);
	if (!status)
		status = recording__machine(r);
	/* --dry-run: everything checked, nothing opened or written. */
	if (status || opts->dry_run)
		goto out;

	/* 3. Signals: blocked except inside ppoll, so none is ever missed. */
	signals__install(opts->switch_signal || opts->overwrite, opts->pipe_output, &r->orig);

	/* 4. Fork the command corked, find the threads, open the events, map. */
	status = recording__open(r);
	debuginfod_env(opts);
	/* -r (or the drain's nice) after the fork, as perf: the command keeps
	 * its own policy. */
	if (!status && opts->realtime_prio && affinity__set_realtime(opts->realtime_prio))
		status = PREC_EXIT_FAILURE;
	else if (!status && !opts->realtime_prio)
		affinity__raise_drain(); /* best effort: said under -v */
	if (status)
		goto out_kill; /* nothing to kill when the fork failed */

	/* 5. The output and its front. 6. The drain. */
	status = PREC_EXIT_FAILURE;
	if (recording__begin_output(r, argc, argv) || recording__drain_init(r))
		goto out_abort; /* nothing to abort when the output did not open */
	if (opts->switch_output_event &&
	    sideband_event__start(&r->sb, &r->evlist, opts->pid_list || opts->tid_list || opts->uid_str))
		goto out_abort;

	/* 7. Go: the kernel enables the events at exec. The reference reading
	 * of the -k clock is taken right before, as perf does. */
	if (r->clk.use)
		clock__snapshot(r->clk.id, &r->clk.res_ns, &r->clk.tod_ns, &r->clk.clock_ns);
	status_line__init(&r->status, opts, STDERR_FILENO, &r->drain);
	ret = opts->argc ? workload__start(&r->wl) : 0;
	if (ret) {
		pr_err("cannot run '%s': %s", opts->argv[0], strerror(-ret));
		status = ret == -ENOENT ? PREC_EXIT_NOTFOUND : PREC_EXIT_NOEXEC;
		goto out_abort;
	}
	if (start_events(&r->evlist, opts, &r->orig))
		goto out_stopped;

	/* 8. Drain until the command ends, every target thread is gone, or
	 * prec is told to stop. */
	ret = opts->threads ? recording__run_streams(r) :
			      drain__run(&r->drain, r->pfd, r->nr_pfd, recording__stop_on_hup(opts),
					 should_stop, r, &r->orig);
out_stopped:
	status_line__end(&r->status); /* gone before anything else is said */
	/* 9. Stop: the events, their tail, the command. */
	ret = recording__stop(r, ret);
	if (ret == -ECANCELED)
		goto out_abort; /* a rotation failed and said why; what came after
				 * it does not count */
	if (ret) {
		write_error("write", opts->output, ret);
		goto out_abort;
	}

	/* 10. Finish: the stream files, feature sections, final header, summary. */
	for (int i = 0; i < r->streams.nr && !ret; i++)
		ret = output__end_stream(&r->out, i, &r->streams.s[i].d.stats);
	if (!ret)
		ret = output__finish(&r->out);
	if (ret) {
		write_error("finish", opts->output, ret);
		goto out_abort;
	}
	output__summary(&r->out);
	/* --max-size ended it on purpose: the recording is complete. */
	status = r->out.size_limit ? 0 : workload__exit_status(&r->wl);
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
