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
#include <time.h>
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
#include "output.h"
#include "unwind/unwind.h"
#include "record_int.h"
#include "target.h"

static volatile sig_atomic_t child_done;
static volatile sig_atomic_t stop_signal;
static volatile sig_atomic_t stop_count; /* SIGINTs and SIGTERMs so far */
static volatile sig_atomic_t switch_req;

static void on_signal(int sig)
{
	if (sig == SIGCHLD) {
		child_done = 1;
	} else if (sig == SIGUSR2) {
		switch_req = 1;
	} else {
		stop_signal = sig;
		stop_count++;
	}
}

/*
 * Once prec is stopping, a second SIGINT or SIGTERM means: end now, with
 * what is already written. They are blocked outside ppoll, so the pending
 * ones are taken here. One Ctrl-C reaches the command and prec at once: a
 * single signal, however it arrives, never cuts the tail.
 */
static bool stop_again(void *arg)
{
	static const struct timespec zero;
	sigset_t stops;
	int sig;

	(void)arg;
	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	while ((sig = sigtimedwait(&stops, NULL, &zero)) > 0) {
		if (!stop_signal)
			stop_signal = sig;
		stop_count++;
	}
	return stop_count >= 2;
}

/*
 * The command still runs when prec stops (a signal, a full file, an error):
 * SIGTERM, as perf, then wait for it; a second SIGINT/SIGTERM, or a command
 * that ignores SIGTERM for 5 s, gets SIGKILL so prec never hangs on it.
 */
static void end_workload(struct workload *wl, const sigset_t *sigmask)
{
	struct timespec tick = { 0, 50 * 1000000L };

	if (wl->pid <= 0 || wl->exited)
		return;
	if (wl->go_fd >= 0) {
		workload__kill(wl, SIGTERM); /* corked: it leaves by itself */
		return;
	}
	kill(wl->pid, SIGTERM);
	for (int i = 0; i < 100 && !workload__reap(wl, false); i++) {
		if (stop_again(NULL))
			break;
		ppoll(NULL, 0, &tick, sigmask); /* SIGCHLD ends the sleep */
	}
	workload__kill(wl, SIGKILL);
}

/* After every drain pass (and the output's own check, output.h): a stop,
 * the end of the command. */
static bool should_stop(void *arg)
{
	struct workload *wl = arg;

	if (stop_signal)
		return true;
	return child_done && workload__reap(wl, false);
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

/* The one line for a write that failed: a reader gone, a full disk, a
 * limit; output_hint names the fix for each errno. */
static void write_error(const char *verb, const char *output, int err)
{
	if (err == -EPIPE)
		pr_err("the reader of the output pipe exited: recording stopped (keep the reader running until prec ends, or record to a file with -o)");
	else
		pr_err("cannot %s '%s': %s (%s)", verb, output, strerror(-err),
		       output__hint(output, err));
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
	struct cpu_map *cpus = NULL;
	struct thread_map *threads = NULL;
	struct pollfd *pfd = NULL;
	int nr_pfd = 0;
	struct drain drain = { 0 };
	struct unwinder *unw = NULL;
	struct clock_ref clk = { .use = opts_in->use_clockid, .id = opts_in->clockid };
	struct output_src src;
	struct output out = { 0 };
	sigset_t block, orig;
	struct timespec disabled_at;
	struct sigaction sa;
	char err[512], path[PATH_MAX];
	size_t data_bytes;
	int status = PREC_EXIT_FAILURE;
	int ret;

	*fatal_sig = 0;
	opts.pipe_output = output_is_pipe(opts.output);
	output = opts.pipe_output ? "-" : opts.output ? opts.output : PREC_DEFAULT_OUTPUT;
	/* perf: a flight recorder's side-band is what is alive when it is read. */
	if (opts.overwrite)
		opts.tail_synthesize = true;
	if (opts.pipe_output && (opts.switch_output || opts.timestamp_filename)) {
		pr_err("--switch-output and --timestamp-filename name files: not with a pipe (give -o FILE)");
		status = PREC_EXIT_USAGE;
		goto out;
	}
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
	if (event_specs__for_machine(&specs, getenv(PREC_SYSROOT_ENV) ? NULL : &si))
		goto out;
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
	/* SIGUSR2 rotates (--switch-output) or snapshots (--overwrite); perf
	 * ignores it otherwise. */
	if (opts.switch_signal || opts.overwrite)
		sigaction(SIGUSR2, &sa, NULL);
	else
		signal(SIGUSR2, SIG_IGN);
	/* Past `ulimit -f` a write fails with EFBIG, said in one line with its
	 * fix, instead of SIGXFSZ killing prec mid-file (the command gets the
	 * default back). */
	signal(SIGXFSZ, SIG_IGN);
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGUSR2);
	sigprocmask(SIG_BLOCK, &block, &orig);

	/* 4. Fork the command corked, find the threads, open the events, map. */
	if (opts.argc) {
		ret = workload__prepare(&wl, opts.argv, &orig, opts.pipe_output);
		if (ret) {
			pr_err("cannot fork the workload: %s (%s)", strerror(-ret),
			       ret == -EMFILE ? "raise the open-file limit, e.g. ulimit -n 4096" :
			       ret == -ENFILE ? "the system's open-file table is full (fs.file-max)" :
			       ret == -EAGAIN ? "raise the process limit (ulimit -u) or end some processes" :
						"free some memory and retry");
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

	/* 5. The output: header, attrs with their ids, the synthesized side-band. */
	src = (struct output_src){ .opts = &opts, .evlist = &evlist, .si = &si, .clk = &clk,
				   .argc = argc, .argv = argv, .pid = wl.pid,
				   .switch_req = &switch_req };
	ret = output__open(&out, &src, output);
	if (ret)
		goto out_abort; /* said, but for -ENOMEM */
	/* --unwind=record: the attrs written describe the rewritten samples. */
	if (opts.unwind_record && unwinder__setup(&unw, out.wev, (uint32_t)evlist.nr))
		goto out_abort;
	ret = output__begin(&out, unw);
	if (ret == -E2BIG && opts.pipe_output) {
		pr_err("too many event ids for one pipe record (fewer CPUs or threads, or record to a file with -o)");
		goto out_abort;
	}
	if (ret) {
		write_error("write", output, ret);
		goto out_abort;
	}

	/* 6. The drain, ready before anything can stop the recording. */
	ret = drain__init(&drain, evlist.rings, evlist.nr_rings, NULL,
			  evlist__sample_time_offset(&evlist));
	/* --mmap-flush: at most a quarter of the ring, as perf. */
	drain.flush = opts.mmap_flush > data_bytes / 4 ? data_bytes / 4 : opts.mmap_flush;
	if (opts.mmap_flush)
		pr_verbose("mmap flush: %llu\n", (unsigned long long)drain.flush);
	if (!ret)
		ret = output__attach(&out, &drain);
	if (!ret && opts.pipe_output) {
		/* The stream's fd joins the poll set: POLLERR when its reader exits. */
		struct pollfd *more = realloc(pfd, ((size_t)nr_pfd + 1) * sizeof(*pfd));

		if (more) {
			pfd = more;
			pfd[nr_pfd] = (struct pollfd){ .fd = STDOUT_FILENO, .events = 0 };
			drain.out_pfd = nr_pfd++;
		}
	}
	if (ret) {
		pr_err("cannot set up the drain: %s", strerror(-ret));
		goto out_abort;
	}

	/* 7. Go: the kernel enables the events at exec. The reference reading
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

	/* 8. Drain until the command ends, every target thread is gone, or
	 * prec is told to stop. */
	ret = drain__run(&drain, pfd, nr_pfd, !opts.argc && !opts.system_wide && !opts.cpu_list,
			 should_stop, &wl, &orig);
out_stopped:
	/* 9. Stop: the events first, so that what is left in the rings is
	 * finite (system-wide, prec's own writing would otherwise be sampled
	 * as fast as it drains), then that tail, bounded, then the command if
	 * it still runs. */
	evlist__disable(&evlist);
	if (clk.use && !clock_gettime(clk.id, &disabled_at))
		/* For whoever checks the order: no sample is later than this. */
		pr_verbose("events disabled at %lld.%09ld (-k clock)\n",
			   (long long)disabled_at.tv_sec, disabled_at.tv_nsec);
	if (!ret && !out.size_limit) {
		ret = drain__tail(&drain, stop_again, NULL);
		if (ret >= 0) {
			pr_verbose("the tail after the disable took %d pass(es) with data%s\n", ret,
				   stop_again(NULL) ? "; cut short by a second signal" : "");
			ret = 0;
		}
	}
	end_workload(&wl, &orig);
	workload__reap(&wl, true);
	if (ret == -ECANCELED)
		goto out_abort; /* a rotation failed and said why; what came after
				 * it does not count */
	if (ret) {
		write_error("write", output, ret);
		goto out_abort;
	}

	/* 10. Finish: feature sections, final header, summary. */
	ret = output__finish(&out);
	if (ret) {
		write_error("finish", output, ret);
		goto out_abort;
	}
	output__summary(&out);
	/* --max-size ended it on purpose: the recording is complete. */
	status = out.size_limit ? 0 : exit_status(&wl);
	*fatal_sig = stop_signal;
	goto out_signals;

out_abort:
	output__abort(&out);
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
	output__exit(&out);
	unwinder__delete(unw);
	sysinfo__exit(&si);
	evlist__exit(&evlist);
	event_specs__exit(&specs);
	return status;
}
