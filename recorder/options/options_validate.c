// SPDX-License-Identifier: GPL-2.0-only
/*
 * options__validate: the one place where the options meet each other. The
 * parser checks each value on its own; here the combinations are checked,
 * perf record's implied settings applied and the defaults resolved, so that
 * everything after sees final, read-only options. Defaults that depend on
 * the machine (the -F limit, the ring size, the default events) are not
 * options: they are derived from the machine's facts where those are read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "options/options.h"
#include "options/callchain.h"
#include "options/control_spec.h"
#include "prec/debuginfod.h"

void options_env__read(struct options_env *env)
{
	struct stat st;

	env->stdout_closed = fcntl(STDOUT_FILENO, F_GETFL) < 0;
	env->stdout_fifo = !fstat(STDOUT_FILENO, &st) && S_ISFIFO(st.st_mode);
	env->stdout_tty = isatty(STDOUT_FILENO);
	env->debuginfod_urls = getenv("DEBUGINFOD_URLS");
	env->test_sysroot = getenv(PREC_TEST_SYSROOT_ENV);
}

/* Which targets were named; perf's rules on how they combine. */
static int check_targets(const struct record_opts *opts, struct prec_err *e)
{
	bool threads = opts->pid_list || opts->tid_list || opts->uid_str;
	bool cpus = opts->system_wide || opts->cpu_list;
	const char *msg = NULL;

	if (opts->cgroup && !cpus)
		msg = "-G/--cgroup works per CPU only: add -a or -C";
	else if (!!opts->pid_list + !!opts->tid_list + !!opts->uid_str > 1)
		msg = "give only one of -p, -t and -u";
	else if (threads && cpus)
		/* perf lets -a win silently; a target the user named must not be dropped. */
		msg = "-p/-t/-u and -a/-C are exclusive (pick threads or CPUs)";
	else if (opts->per_thread && cpus)
		msg = "--per-thread cannot be combined with -a or -C";
	if (!msg)
		return 0;
	return prec_err__set(e, -EINVAL, "%s", msg);
}

/*
 * --switch-output and --timestamp-filename rename the output when it ends (and
 * --switch-max-files removes old ones): only a regular file may be renamed,
 * never a device such as /dev/null or a FIFO. 0, or -EINVAL with one line.
 */
static int check_renamed_output(const struct record_opts *opts, struct prec_err *e)
{
	const char *out = opts->output ? opts->output : PREC_DEFAULT_OUTPUT;
	struct stat st;

	if (opts->switch_max_files && !opts->switch_output)
		return prec_err__set(e, -EINVAL, "--switch-max-files needs --switch-output");
	if (!opts->switch_output && !opts->timestamp_filename)
		return 0;
	if (!strcmp(out, "-") || stat(out, &st) || S_ISREG(st.st_mode))
		return 0;
	return prec_err__set(
		e, -EINVAL,
		"%s renames the output when it ends, and '%s' is not a regular file (give -o a file path)",
		opts->switch_output ? "--switch-output" : "--timestamp-filename", out);
}

/*
 * perf's rule: no -o and stdout a FIFO means a stream; so does -o -. A
 * stream needs an open standard output that is not a terminal, and names
 * no files.
 */
static int resolve_output(struct record_opts *opts, const struct options_env *env,
			  struct prec_err *e)
{
	opts->pipe_output = opts->output ? !strcmp(opts->output, "-") : env->stdout_fifo;
	if (opts->pipe_output && opts->aio_from_config)
		opts->nr_cblocks = 0;
	if (!opts->pipe_output) {
		if (!opts->output)
			opts->output = PREC_DEFAULT_OUTPUT;
		return 0;
	}
	opts->output = "-";
	/* perf 6.1 queues them at lseek's offset, which a pipe has not. */
	if (opts->nr_cblocks)
		return prec_err__set(
			e, -EINVAL,
			"--aio writes at file offsets: not with a pipe (give -o FILE, or leave --aio out)");
	if (opts->switch_output || opts->timestamp_filename)
		return prec_err__set(
			e, -EINVAL,
			"--switch-output and --timestamp-filename name files: not with a pipe (give -o FILE)");
	if (env->stdout_closed)
		return prec_err__set(
			e, -EBADF,
			"-o -: standard output is closed (give the stream a reader, e.g. 'prec -o - -- cmd | perf report -i -', or give -o FILE)");
	if (env->stdout_tty)
		return prec_err__set(
			e, -EINVAL,
			"-o -: standard output is a terminal (pipe it into a reader, e.g. 'prec -o - -- cmd | perf report -i -', or give -o FILE)");
	return 0;
}

/* --threads writes a directory of streams, which some outputs cannot be;
 * perf refuses the same combinations (it only warns for --switch-output and
 * --timestamp-filename, and drops them: here they are refused, never dropped). */
static int check_threads(const struct record_opts *opts, struct prec_err *e)
{
	const char *msg = NULL;

	if (!opts->threads)
		return 0;
	if (opts->pipe_output)
		msg = "parallel trace streaming (--threads) is not available in pipe mode (give -o DIR)";
	else if (opts->per_thread)
		msg = "--per-thread option is mutually exclusive to parallel streaming mode (--threads)";
	else if (opts->affinity)
		/* Each stream's thread is bound to its own mask already. */
		msg = "--affinity option is mutually exclusive to parallel streaming mode (--threads binds each stream's thread: give masks, e.g. --threads=0-1/0:2-3/2)";
	else if (opts->nr_cblocks)
		msg = "asynchronous streaming mode (--aio) is mutually exclusive to parallel streaming mode (--threads) (drop one)";
	else if (opts->switch_output || opts->timestamp_filename)
		msg = "--switch-output and --timestamp-filename are not available with --threads (drop one)";
	if (!msg)
		return 0;
	return prec_err__set(e, -EINVAL, "%s", msg);
}

/*
 * --kcore writes a directory, which a stream cannot be; --vmlinux names a
 * file perf would take silently even when missing or not ELF (it fails much
 * later, or caches nothing): here it must be an ELF file now.
 */
static int check_kernel_files(const struct record_opts *opts, struct prec_err *e)
{
	unsigned char magic[4] = { 0 };
	int fd, n = -1;

	if (opts->kcore && opts->pipe_output)
		return prec_err__set(
			e, -EINVAL,
			"--kcore writes a perf.data directory: not with a pipe (give -o DIR)");
	if (opts->kcore && (opts->switch_output || opts->timestamp_filename))
		return prec_err__set(
			e, -EINVAL,
			"--switch-output and --timestamp-filename are not available with --kcore (drop one)");
	if (!opts->vmlinux)
		return 0;
	fd = open(opts->vmlinux, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = (int)read(fd, magic, sizeof(magic));
		close(fd);
	}
	if (fd < 0)
		prec_err__set(
			e, -EINVAL,
			"--vmlinux '%s': %s (give the path of the kernel's uncompressed ELF image, e.g. /usr/lib/debug/boot/vmlinux-$(uname -r))",
			opts->vmlinux, strerror(errno));
	else if (n != 4 || memcmp(magic, "\177ELF", 4))
		prec_err__set(
			e, -EINVAL,
			"--vmlinux '%s' is not an ELF file (give the uncompressed vmlinux with symbols, not a vmlinuz or bzImage)",
			opts->vmlinux);
	else
		return 0;
	return -EINVAL;
}

/* --switch-output-event: perf makes the event's records --switch-output's
 * signal. 0 or -EINVAL (e says why). */
static int check_switch_event(struct record_opts *opts, struct prec_err *e)
{
	if (!opts->switch_output_event)
		return 0;
	if (!*opts->switch_output_event)
		return prec_err__set(
			e, -EINVAL,
			"empty --switch-output-event (give an event, e.g. syscalls:sys_enter_getsid)");
	if (opts->threads || (opts->output && !strcmp(opts->output, "-")))
		return prec_err__set(e, -EINVAL,
				     "--switch-output-event rotates files: not with %s (drop one)",
				     opts->threads ? "--threads" : "-o -");
	opts->switch_output = opts->switch_signal = true;
	return 0;
}

int options__validate(struct record_opts *opts, const struct options_env *env, struct prec_err *e)
{
	int ret;

	if (opts->help || opts->version || opts->list_events)
		return 0;
	/* perf 6.12: the action alone, whatever else the line asks for. */
	if (opts->setup_filter) {
		if (!strcmp(opts->setup_filter, "pin") || !strcmp(opts->setup_filter, "unpin"))
			return 0;
		return prec_err__set(e, -EINVAL,
				     "unknown --setup-filter action '%s' (pin, or unpin)",
				     opts->setup_filter);
	}
	ret = check_switch_event(opts, e);
	if (ret)
		return ret;
	ret = check_targets(opts, e);
	if (!ret)
		ret = check_renamed_output(opts, e);
	if (!ret && opts->control) {
		/* The syntax here, as perf; the FIFOs are opened by the recording. */
		struct control_spec spec;

		ret = control_spec__parse(opts->control, &spec, e);
	}
	if (ret)
		return ret;
	if (opts->unwind_record && opts->callchain_mode != CALLCHAIN_DWARF)
		return prec_err__set(
			e, -EINVAL,
			"--unwind=record needs DWARF call graphs (add --call-graph dwarf)");

	/* perf 6.1's record_opts__config: a rate and a period are two answers
	 * to one question. */
	if (opts->user_freq && opts->period)
		return prec_err__set(
			e, -EINVAL,
			"cannot set frequency and period at the same time: -F samples at a rate, -c every N events (give one)");
	if (opts->off_cpu_thresh_set && !opts->off_cpu)
		return prec_err__set(
			e, -EINVAL,
			"--off-cpu-thresh sets when an off-CPU block is a sample of its own: add --off-cpu");
	if (!opts->off_cpu_thresh_set)
		opts->off_cpu_thresh_ns = PREC_OFF_CPU_THRESH_NS;

	/* perf's implied settings. Rotated files are named by time. */
	if (opts->switch_output)
		opts->timestamp_filename = true;
	/* A flight recorder's side-band is what is alive when it is read. */
	if (opts->overwrite)
		opts->tail_synthesize = true;
	/* perf synthesizes everything unless --synth says otherwise. */
	if (!opts->synth_given)
		opts->synth = RECORD_SYNTH_ALL;
	if (!opts->names_cache_max_given)
		opts->names_cache_max = PREC_NAMES_CACHE_MAX;
	/* --call-graph dwarf samples data addresses too (-d); as in perf, -g
	 * recording dwarf by perf's configuration does not. */
	if (opts->callchain_sample_addr)
		opts->sample_addr = true;
	/* perf 6.16 split the data source from -d; -d still records it. */
	if (opts->sample_addr)
		opts->sample_data_src = true;
	/* perf 7.0 split the data mappings from -d too; -d keeps them unless
	 * told not to. perf takes the last of the two: here one is refused. */
	if (opts->data_mmap && opts->no_data_mmap)
		return prec_err__set(
			e, -EINVAL,
			"--data-mmap and --no-data-mmap contradict each other (give one)");
	if (opts->sample_addr && !opts->no_data_mmap)
		opts->data_mmap = true;
	/* perf's configured record.aio is for files: a stream or --threads'
	 * streams record without it (perf 6.1 spins on a pipe with it). */
	if (opts->aio_from_config && opts->threads)
		opts->nr_cblocks = 0;

	/* The defaults. As perf: no command and no target records the whole
	 * system; with a target, a command only sets how long to record. */
	if (!opts->argc && !opts->pid_list && !opts->tid_list && !opts->uid_str && !opts->cpu_list)
		opts->system_wide = true;
	/* -c wins over the default frequency (an explicit -F stays, unused). */
	if (!opts->period && !opts->freq && !opts->freq_max)
		opts->freq = PREC_DEFAULT_FREQ;
	/* perf's perf_debuginfod_setup: --debuginfod with no URLs asks the
	 * user's servers (none set: the recording says so). */
	if (opts->debuginfod && !opts->debuginfod_urls && env->debuginfod_urls &&
	    *env->debuginfod_urls)
		opts->debuginfod_urls = env->debuginfod_urls;
	/* perf's configured record.debuginfod asks servers when there are
	 * some and prec can ask them; else nothing, quietly, as perf. */
	if (opts->debuginfod_from_config && (!opts->debuginfod_urls || !debuginfod__available()))
		opts->debuginfod = false;
	/* perf 6.15: parallelism comes from the workload's context switches;
	 * what it means system-wide is not settled, so perf refuses it. */
	if (opts->latency && opts->system_wide)
		return prec_err__set(
			e, -EINVAL,
			"--latency is not supported with system-wide collection (give a command, -p or -t, and no -a)");
	if (opts->latency)
		opts->switch_events = true;
	opts->test_sysroot = env->test_sysroot;
	ret = resolve_output(opts, env, e);
	if (!ret)
		ret = check_kernel_files(opts, e);
	return ret ? ret : check_threads(opts, e);
}
