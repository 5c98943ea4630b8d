// SPDX-License-Identifier: GPL-2.0-only
/*
 * options__parse and options__validate: perf record's option names and
 * meanings, never exits, never prints. Each accepted row lists every field of
 * record_opts it must produce after both (the others must stay zero, the
 * defaults resolved); each rejected row the piece of the one-line error it
 * must give, from either. Then validate's own cases: each combination check,
 * each implied setting, each default, on a fixed standard output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recorder/evlist/evlist_config.h"
#include "recorder/options/options.h"
#include "recorder/entry.h"
#include "recorder/record_prepare.h"

#define MAX_ARGS 12

/* A standard output that is a plain file: no -o means perf.data. */
static const struct options_env plain_stdout;

struct accept_row {
	const char *args[MAX_ARGS]; /* after argv[0] = "prec", NULL-terminated */
	const char *output;
	const char *events[4];
	uint64_t freq;
	bool freq_max;
	uint64_t period;
	uint64_t mmap_pages; /* expected mmap_bytes = pages * page size, */
	uint64_t mmap_size; /* or this size rounded up to whole pages */
	int verbose;
	bool quiet, help, version;
	const char *cmd[5]; /* the workload's argv */
	/* targets (all zero/NULL unless named) */
	bool system_wide, per_thread, no_inherit, use_clockid;
	const char *cpu_list, *pid_list, *tid_list, *uid_str, *cgroup;
	long delay_ms;
	int clockid;
};

static const struct accept_row accept_rows[] = {
	{ .args = { "true" }, .cmd = { "true" } },
	/* no command and no target: system-wide until SIGINT, as perf */
	{ .args = { NULL }, .system_wide = true },
	{ .args = { "-q" }, .quiet = true, .system_wide = true },
	{ .args = { "record" }, .system_wide = true },
	{ .args = { "-q", "--" }, .quiet = true, .system_wide = true },
	{ .args = { "-e", "cpu-clock" }, .events = { "cpu-clock" }, .system_wide = true },
	/* targets */
	{ .args = { "-a", "true" }, .system_wide = true, .cmd = { "true" } },
	{ .args = { "--all-cpus", "true" }, .system_wide = true, .cmd = { "true" } },
	{ .args = { "-e", "cpu-clock", "-a" }, .events = { "cpu-clock" }, .system_wide = true },
	{ .args = { "-C", "0", "true" }, .cpu_list = "0", .cmd = { "true" } },
	{ .args = { "-C1" }, .cpu_list = "1" },
	{ .args = { "-p", "1" }, .pid_list = "1" },
	{ .args = { "--pid=1,2" }, .pid_list = "1,2" },
	{ .args = { "-p", "1", "--", "sleep", "1" }, .pid_list = "1", .cmd = { "sleep", "1" } },
	{ .args = { "-t", "5" }, .tid_list = "5" },
	{ .args = { "-u", "root" }, .uid_str = "root" },
	{ .args = { "--per-thread", "-p", "7" }, .per_thread = true, .pid_list = "7" },
	{ .args = { "-i", "true" }, .no_inherit = true, .cmd = { "true" } },
	/* sample contents: accepted (their attrs are checked by the integration tests) */
	{ .args = { "-T", "true" }, .cmd = { "true" } },
	{ .args = { "-g", "true" }, .cmd = { "true" } },
	{ .args = { "-qg", "true" }, .quiet = true, .cmd = { "true" } },
	{ .args = { "--call-graph=dwarf,4096", "true" }, .cmd = { "true" } },
	{ .args = { "-b", "true" }, .cmd = { "true" } },
	{ .args = { "-d", "--sample-cpu", "-R", "-W", "true" }, .cmd = { "true" } },
	{ .args = { "--user-regs=ax,bx", "-I", "true" }, .cmd = { "true" } },
	{ .args = { "-a", "-G", "system.slice" }, .system_wide = true, .cgroup = "system.slice" },
	{ .args = { "-D", "100", "true" }, .delay_ms = 100, .cmd = { "true" } },
	{ .args = { "--delay=-1", "true" }, .delay_ms = -1, .cmd = { "true" } },
	{ .args = { "-k", "mono", "true" }, .use_clockid = true, .clockid = 1, .cmd = { "true" } },
	{ .args = { "--clockid=4", "true" }, .use_clockid = true, .clockid = 4, .cmd = { "true" } },
	{ .args = { "true", "a", "b" }, .cmd = { "true", "a", "b" } },
	/* -o */
	{ .args = { "-o", "out.data", "true" }, .output = "out.data", .cmd = { "true" } },
	{ .args = { "--output", "out.data", "true" }, .output = "out.data", .cmd = { "true" } },
	{ .args = { "--output=out.data", "true" }, .output = "out.data", .cmd = { "true" } },
	/* -o -: pipe mode */
	{ .args = { "-o", "-", "true" }, .output = "-", .cmd = { "true" } },
	{ .args = { "--output=-", "true" }, .output = "-", .cmd = { "true" } },
	{ .args = { "-o-", "true" }, .output = "-", .cmd = { "true" } },
	{ .args = { "-oout.data", "true" }, .output = "out.data", .cmd = { "true" } },
	{ .args = { "-o", "a", "-o", "b", "true" }, .output = "b", .cmd = { "true" } },
	{ .args = { "--output=x=y", "true" }, .output = "x=y", .cmd = { "true" } },
	/* -e, repeatable, kept as written and in order */
	{ .args = { "-e", "cpu-clock", "true" }, .events = { "cpu-clock" }, .cmd = { "true" } },
	{ .args = { "-e", "cpu-clock", "-e", "task-clock,faults", "true" },
	  .events = { "cpu-clock", "task-clock,faults" },
	  .cmd = { "true" } },
	{ .args = { "--event=cpu-clock:u", "--event", "faults", "-ecs", "true" },
	  .events = { "cpu-clock:u", "faults", "cs" },
	  .cmd = { "true" } },
	/* -F */
	{ .args = { "-F", "1000", "true" }, .freq = 1000, .cmd = { "true" } },
	{ .args = { "-F1000", "true" }, .freq = 1000, .cmd = { "true" } },
	{ .args = { "--freq=99", "true" }, .freq = 99, .cmd = { "true" } },
	{ .args = { "--freq", "1", "true" }, .freq = 1, .cmd = { "true" } },
	{ .args = { "-F", "max", "true" }, .freq_max = true, .cmd = { "true" } },
	{ .args = { "-Fmax", "true" }, .freq_max = true, .cmd = { "true" } },
	/* perf 6.1 compares with strcasecmp */
	{ .args = { "-F", "MAX", "true" }, .freq_max = true, .cmd = { "true" } },
	{ .args = { "--freq=Max", "true" }, .freq_max = true, .cmd = { "true" } },
	{ .args = { "-F", "1000", "-F", "max", "true" }, .freq_max = true, .cmd = { "true" } },
	{ .args = { "-F", "max", "-F", "10", "true" }, .freq = 10, .cmd = { "true" } },
	/* -c */
	{ .args = { "-c", "100000", "true" }, .period = 100000, .cmd = { "true" } },
	{ .args = { "-c1", "true" }, .period = 1, .cmd = { "true" } },
	{ .args = { "--count=7", "true" }, .period = 7, .cmd = { "true" } },
	/* -m: pages (power-of-two rounding is record.c's job) or sizes */
	{ .args = { "-m", "128", "true" }, .mmap_pages = 128, .cmd = { "true" } },
	{ .args = { "-m", "3", "true" }, .mmap_pages = 3, .cmd = { "true" } },
	{ .args = { "-m1", "true" }, .mmap_pages = 1, .cmd = { "true" } },
	{ .args = { "--mmap-pages=64", "true" }, .mmap_pages = 64, .cmd = { "true" } },
	{ .args = { "-m", "16K", "true" }, .mmap_size = 16 << 10, .cmd = { "true" } },
	{ .args = { "-m", "16k", "true" }, .mmap_size = 16 << 10, .cmd = { "true" } },
	{ .args = { "-m", "1M", "true" }, .mmap_size = 1 << 20, .cmd = { "true" } },
	{ .args = { "--mmap-pages", "2m", "true" }, .mmap_size = 2 << 20, .cmd = { "true" } },
	{ .args = { "-m", "1G", "true" }, .mmap_size = 1ULL << 30, .cmd = { "true" } },
	{ .args = { "-m", "8192B", "true" }, .mmap_size = 8192, .cmd = { "true" } },
	{ .args = { "-m", "1b", "true" }, .mmap_size = 1, .cmd = { "true" } },
	{ .args = { "-m", "5000B", "true" }, .mmap_size = 5000, .cmd = { "true" } },
	/* -q -v -h --version */
	{ .args = { "-q", "true" }, .quiet = true, .cmd = { "true" } },
	{ .args = { "--quiet", "true" }, .quiet = true, .cmd = { "true" } },
	{ .args = { "-v", "true" }, .verbose = 1, .cmd = { "true" } },
	{ .args = { "-v", "-vv", "true" }, .verbose = 3, .cmd = { "true" } },
	{ .args = { "--verbose", "-v", "true" }, .verbose = 2, .cmd = { "true" } },
	{ .args = { "-h" }, .help = true },
	{ .args = { "--help" }, .help = true },
	{ .args = { "--version" }, .version = true },
	{ .args = { "-q", "--version" }, .quiet = true, .version = true },
	/* clusters */
	{ .args = { "-qv", "true" }, .quiet = true, .verbose = 1, .cmd = { "true" } },
	{ .args = { "-vqv", "true" }, .quiet = true, .verbose = 2, .cmd = { "true" } },
	{ .args = { "-qvF1000", "true" },
	  .quiet = true,
	  .verbose = 1,
	  .freq = 1000,
	  .cmd = { "true" } },
	{ .args = { "-qo", "out", "true" }, .quiet = true, .output = "out", .cmd = { "true" } },
	{ .args = { "-qF", "max", "true" }, .quiet = true, .freq_max = true, .cmd = { "true" } },
	/* "record" word, "--", where the command starts */
	{ .args = { "record", "true" }, .cmd = { "true" } },
	{ .args = { "record", "-q", "true" }, .quiet = true, .cmd = { "true" } },
	{ .args = { "record", "record" }, .cmd = { "record" } },
	{ .args = { "-q", "record" }, .quiet = true, .cmd = { "record" } },
	{ .args = { "--", "true" }, .cmd = { "true" } },
	{ .args = { "-q", "--", "-x", "y" }, .quiet = true, .cmd = { "-x", "y" } },
	{ .args = { "-q", "--", "--" }, .quiet = true, .cmd = { "--" } },
	{ .args = { "-q", "sleep", "-x" }, .quiet = true, .cmd = { "sleep", "-x" } },
	{ .args = { "sleep", "-e", "cycles", "-q" }, .cmd = { "sleep", "-e", "cycles", "-q" } },
	{ .args = { "sleep", "--", "1" }, .cmd = { "sleep", "--", "1" } },
	{ .args = { "-", "x" }, .cmd = { "-", "x" } },
	{ .args = { "-o", "-x", "true" }, .output = "-x", .cmd = { "true" } },
	{ .args = { "-e", "-x", "true" }, .events = { "-x" }, .cmd = { "true" } },
};

static int nargs(const char *const *v, int max)
{
	int n = 0;

	while (n < max && v[n])
		n++;
	return n;
}

static int build_argv(char **argv, const char *const *args)
{
	int argc = 0;

	argv[argc++] = (char *)"prec";
	for (int i = 0; i < MAX_ARGS && args[i]; i++)
		argv[argc++] = (char *)args[i];
	argv[argc] = NULL;
	return argc;
}

static void row_label(char *buf, size_t len, const char *const *args)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < MAX_ARGS && args[i] && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, " '%s'", args[i]);
}

/* -F after validate: as given, else the default unless -c or -F max. */
static uint64_t want_freq(const struct accept_row *r)
{
	if (r->freq || r->freq_max || r->period || r->help || r->version)
		return r->freq;
	return 4000;
}

static uint64_t want_mmap_bytes(const struct accept_row *r)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);

	if (r->mmap_pages)
		return r->mmap_pages * page;
	if (r->mmap_size)
		return (r->mmap_size + page - 1) / page * page;
	return 0;
}

#define ROW_CHECK(cond, ...)                                                \
	do {                                                                \
		if (!(cond)) {                                              \
			print_error("row %zu [%s]: " #cond ": ", i, label); \
			print_error(__VA_ARGS__);                           \
			print_error("\n");                                  \
			ok = false;                                         \
		}                                                           \
	} while (0)

static bool accept_row__check(size_t i, const struct accept_row *r)
{
	char *argv[MAX_ARGS + 2];
	int argc = build_argv(argv, r->args);
	struct record_opts opts;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	char label[256];
	int nev = nargs(r->events, 4), ncmd = nargs(r->cmd, 5);
	bool ok = true;
	int ret;

	row_label(label, sizeof(label), r->args);
	memset(&opts, 0xa5, sizeof(opts)); /* the parser must clear it */
	ret = options__parse(&opts, argc, argv, &e);
	if (ret) {
		print_error("row %zu [%s]: ret %d err '%s'\n", i, label, ret, prec_err__msg(&e));
		return false;
	}
	ROW_CHECK(!prec_err__is_set(&e), "err '%.40s'", prec_err__msg(&e));
	ret = options__validate(&opts, &plain_stdout, &e);
	if (ret) {
		print_error("row %zu [%s]: validate ret %d err '%s'\n", i, label, ret,
			    prec_err__msg(&e));
		options__exit(&opts);
		return false;
	}
	if (r->help || r->version)
		ROW_CHECK(opts.output == NULL, "output '%s'", opts.output);
	else
		ROW_CHECK(opts.output && !strcmp(opts.output, r->output ? r->output : "perf.data"),
			  "output '%s'", opts.output ? opts.output : "(null)");
	ROW_CHECK(opts.nr_events == nev, "nr_events %d", opts.nr_events);
	for (int k = 0; k < nev && k < opts.nr_events; k++)
		ROW_CHECK(!strcmp(opts.events[k], r->events[k]), "event %d '%s'", k,
			  opts.events[k]);
	if (!nev)
		ROW_CHECK(opts.events == NULL, "events %p", (void *)opts.events);
	ROW_CHECK(opts.freq == want_freq(r), "freq %" PRIu64, opts.freq);
	ROW_CHECK(opts.freq_max == r->freq_max, "freq_max %d", opts.freq_max);
	ROW_CHECK(opts.period == r->period, "period %" PRIu64, opts.period);
	ROW_CHECK(opts.mmap_bytes == want_mmap_bytes(r), "mmap_bytes %" PRIu64 " want %" PRIu64,
		  opts.mmap_bytes, want_mmap_bytes(r));
	ROW_CHECK(opts.verbose == r->verbose, "verbose %d", opts.verbose);
	ROW_CHECK(opts.quiet == r->quiet, "quiet %d", opts.quiet);
	ROW_CHECK(opts.help == r->help, "help %d", opts.help);
	ROW_CHECK(opts.version == r->version, "version %d", opts.version);
	ROW_CHECK(opts.system_wide == r->system_wide, "system_wide %d", opts.system_wide);
	ROW_CHECK(opts.per_thread == r->per_thread, "per_thread %d", opts.per_thread);
	ROW_CHECK(opts.no_inherit == r->no_inherit, "no_inherit %d", opts.no_inherit);
	ROW_CHECK(opts.use_clockid == r->use_clockid, "use_clockid %d", opts.use_clockid);
	if (r->use_clockid)
		ROW_CHECK(opts.clockid == r->clockid, "clockid %d", opts.clockid);
	ROW_CHECK(opts.delay_ms == r->delay_ms, "delay_ms %ld", opts.delay_ms);
#define STR_FIELD(f)                                                                   \
	ROW_CHECK(r->f ? (opts.f && !strcmp(opts.f, r->f)) : opts.f == NULL, #f " '%s'", \
		  opts.f ? opts.f : "(null)")
	STR_FIELD(cpu_list);
	STR_FIELD(pid_list);
	STR_FIELD(tid_list);
	STR_FIELD(uid_str);
	STR_FIELD(cgroup);
#undef STR_FIELD
	if (!r->help && !r->version) {
		ROW_CHECK(opts.argc == ncmd, "argc %d", opts.argc);
		if (ncmd == 0)
			ROW_CHECK(opts.argc == 0 && opts.argv == NULL, "argv set without a command");
		else if (opts.argc == ncmd) {
			for (int a = 0; a < ncmd; a++)
				ROW_CHECK(!strcmp(opts.argv[a], r->cmd[a]), "argv[%d] '%s'", a,
					  opts.argv[a]);
			/* argv is a view into the caller's NULL-terminated array */
			ROW_CHECK(opts.argv[ncmd] == NULL, "argv not NULL-terminated");
			ROW_CHECK(opts.argv + ncmd == argv + argc, "argv is not the tail");
		}
	}
	options__exit(&opts);
	ROW_CHECK(opts.events == NULL && opts.nr_events == 0, "options__exit left events");
	return ok;
}

static void test_accepted_table(void **state)
{
	int failed = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(accept_rows) / sizeof(accept_rows[0]); i++)
		failed += !accept_row__check(i, &accept_rows[i]);
	assert_int_equal(failed, 0);
}

struct reject_row {
	const char *args[MAX_ARGS];
	const char *err_has; /* a piece of the message */
};

static const struct reject_row reject_rows[] = {
	/* targets that do not go together, or bad values */
	{ { "-G", "x", "true" }, "add -a or -C" },
	/* an empty name would widen -G to every cgroup */
	{ { "-a", "-G", "", "true" }, "empty -G/--cgroup name" },
	{ { "-a", "--cgroup=", "true" }, "empty -G/--cgroup name" },
	/* empty register and branch lists: perf's 'unknown register ""' */
	{ { "-j", "", "true" }, "unknown branch filter '' for -j" },
	{ { "-j", "u,", "true" }, "unknown branch filter '' for -j" },
	{ { "--user-regs=", "true" }, "unknown register ''" },
	{ { "--intr-regs=", "true" }, "unknown register ''" },
	{ { "--user-regs=ax,,bx", "true" }, "unknown register ''" },
	{ { "-p", "1", "-t", "2" }, "only one of -p, -t and -u" },
	{ { "-p", "1", "-a" }, "exclusive" },
	{ { "-C", "0", "-u", "root" }, "exclusive" },
	{ { "--per-thread", "-a" }, "--per-thread cannot" },
	{ { "-D", "abc", "true" }, "-D/--delay" },
	{ { "-D", "-2", "true" }, "-D/--delay" },
	{ { "-D", "", "true" }, "-D/--delay" },
	{ { "-u", "", "true" }, "-u/--uid" },
	{ { "-k", "nosuch", "true" }, "unknown clockid" },
	{ { "-p" }, "needs a value" },
	/* -F and -c, in either order: perf 6.1 refuses both together */
	{ { "-c", "5", "-F", "100", "true" }, "frequency and period at the same time" },
	{ { "-F", "max", "-c", "5", "true" }, "frequency and period at the same time" },
	/* -F */
	{ { "-F0", "true" }, "-F" },
	{ { "-F", "0", "true" }, "'0'" },
	{ { "--freq=0", "true" }, "'0'" },
	{ { "-Fabc", "true" }, "'abc'" },
	{ { "-F", "-1", "true" }, "'-1'" },
	{ { "-F", "", "true" }, "-F" },
	{ { "--freq=", "true" }, "-F" },
	{ { "-F", "1.5", "true" }, "'1.5'" },
	{ { "-F", "100Hz", "true" }, "'100Hz'" },
	{ { "-F", " 100", "true" }, "' 100'" },
	{ { "-F", "+100", "true" }, "'+100'" },
	{ { "-F", "18446744073709551616", "true" }, "-F" },
	{ { "-F", "99999999999999999999999", "true" }, "-F" },
	{ { "-F", "maxx", "true" }, "'maxx'" },
	{ { "-F", "ma", "true" }, "'ma'" },
	{ { "-F" }, "needs a value" },
	{ { "--freq" }, "needs a value" },
	/* -c */
	{ { "-c", "0", "true" }, "-c" },
	{ { "-c", "abc", "true" }, "'abc'" },
	{ { "-c", "-5", "true" }, "'-5'" },
	{ { "-c", "9223372036854775808", "true" }, "from 1 to 9223372036854775807" },
	{ { "-c", "18446744073709551616", "true" }, "'18446744073709551616'" },
	{ { "--count=", "true" }, "-c" },
	{ { "-c" }, "needs a value" },
	/* -m */
	{ { "-m", "abc", "true" }, "'abc'" },
	{ { "-m", "0", "true" }, "'0'" },
	{ { "-m", "-1", "true" }, "'-1'" },
	{ { "-m", "", "true" }, "-m" },
	{ { "-m", "K", "true" }, "'K'" },
	{ { "-m", "0K", "true" }, "'0K'" },
	{ { "-m", "1T", "true" }, "'1T'" },
	{ { "-m", "1.5M", "true" }, "'1.5M'" },
	{ { "-m", "16KB", "true" }, "'16KB'" },
	{ { "-m", "99999999999999", "true" }, "too large" },
	{ { "-m", "99999999999G", "true" }, "too large" },
	{ { "-m", "123456789012345678901234567890", "true" }, "-m" },
	{ { "--mmap-pages" }, "needs a value" },
	/* -o */
	{ { "-o", "", "true" }, "empty" },
	{ { "--output=", "true" }, "empty" },
	{ { "-o" }, "needs a value" },
	{ { "--output" }, "needs a value" },
	{ { "-e" }, "needs a value" },
	/* unknown and malformed */
	{ { "-x", "true" }, "'-x'" },
	{ { "-qx", "true" }, "'-x'" },
	{ { "--nosuch", "true" }, "'--nosuch'" },
	{ { "--nosuch=1", "true" }, "'--nosuch'" },
	{ { "--quiet=1", "true" }, "takes no value" },
	{ { "--version=2" }, "takes no value" },
	{ { "--help=x" }, "takes no value" },
	{ { "--nosuch", "-h" }, "'--nosuch'" }, /* after -h, words name options */
	/* options of later issues: refused, never ignored */
	{ { "--call-graph=nosuch", "true" }, "unknown --call-graph mode" },
	{ { "--call-graph", "dwarf,70000", "true" }, "stack dump size" },
	{ { "--call-graph", "lbr,100", "true" }, "only --call-graph dwarf" },
	{ { "--call-graph", "fp,32x", "true" }, "incorrect --call-graph fp depth '32x'" },
	{ { "--call-graph", "fp,", "true" }, "fp depth" },
	{ { "--call-graph", "fp,-1", "true" }, "fp depth" },
	{ { "--call-graph", "fp,65536", "true" }, "fp depth" },
	{ { "--call-graph", "dwarf,", "true" }, "stack dump size" },
	{ { "--call-graph", "dwarf,-8", "true" }, "stack dump size" },
	{ { "-z", "0", "true" }, "compression-level" },
	{ { "-z23", "true" }, "compression-level" },
	{ { "--compression-level=abc", "true" }, "compression-level" },
	{ { "--affinity=x", "true" }, "invalid --affinity value 'x' (use node or cpu" },
	{ { "--affinity", "true" }, "invalid --affinity value 'true'" },
	{ { "--aio=0", "true" }, "invalid --aio value '0' (give the writes in flight, 1 to 4)" },
	{ { "--aio=5", "true" }, "invalid --aio value '5'" },
	{ { "--aio=abc", "true" }, "invalid --aio value 'abc'" },
	{ { "-r", "100", "true" }, "invalid -r/--realtime value '100' (give a SCHED_FIFO priority from 1 to 99)" },
	{ { "--realtime=-1", "true" }, "invalid -r/--realtime value '-1'" },
	{ { "-r", "abc", "true" }, "invalid -r/--realtime value 'abc'" },
	{ { "--switch-output=7q", "true" }, "invalid --switch-output value '7q'" },
	{ { "--switch-output=10", "true" }, "invalid --switch-output value '10'" },
	{ { "--switch-output=M", "true" }, "invalid --switch-output value 'M'" },
	{ { "--switch-output=0s", "true" }, "invalid --switch-output value '0s'" },
	{ { "--max-size=-1", "true" }, "invalid --max-size value '-1'" },
	{ { "--max-size", "10X", "true" }, "invalid --max-size value '10X'" },
	{ { "--max-size=99999999999999999999G", "true" }, "invalid --max-size" },
	{ { "--mmap-flush=1.5K", "true" }, "invalid --mmap-flush value '1.5K'" },
	{ { "--names-cache-max=abc", "true" }, "invalid --names-cache-max value 'abc'" },
	{ { "--names-cache-max=-1", "true" }, "invalid --names-cache-max value '-1'" },
	{ { "--switch-max-files=2", "true" }, "--switch-max-files needs --switch-output" },
	{ { "--switch-output", "--switch-max-files=-1", "true" }, "invalid --switch-max-files" },
	{ { "--buildid-all=1", "true" }, "takes no value" },
	/* the end-of-file rename must never move a device away */
	{ { "--timestamp-filename", "-o", "/dev/null", "true" },
	  "'/dev/null' is not a regular file" },
	{ { "--switch-output", "-o", "/dev/null", "true" }, "--switch-output renames the output" },
};

/* Leaves a recognisable pattern where the next call's locals will live, so a
 * message built from an uninitialised buffer shows as 'ZZZ...', not by luck
 * as the right text. */
static __attribute__((noinline)) void dirty_stack(void)
{
	volatile char junk[16384];

	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = 'Z';
}

static bool reject_row__check(size_t i, const struct reject_row *r)
{
	char *argv[MAX_ARGS + 2];
	int argc = build_argv(argv, r->args);
	struct record_opts opts;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	char label[256];
	bool ok = true;
	int ret;

	row_label(label, sizeof(label), r->args);
	dirty_stack();
	ret = options__parse(&opts, argc, argv, &e);
	if (ret) {
		/* On a parse failure nothing is left allocated. */
		ROW_CHECK(opts.events == NULL && opts.nr_events == 0, "events left: %d",
			  opts.nr_events);
	} else {
		ret = options__validate(&opts, &plain_stdout, &e);
	}
	ROW_CHECK(ret == -EINVAL, "ret %d", ret);
	ROW_CHECK(prec_err__is_set(&e) && !strchr(prec_err__msg(&e), '\n'), "err '%s'",
		  prec_err__msg(&e));
	ROW_CHECK(strstr(prec_err__msg(&e), r->err_has) != NULL, "err '%s' lacks '%s'",
		  prec_err__msg(&e), r->err_has);
	options__exit(&opts);
	return ok;
}

static void test_rejected_table(void **state)
{
	int failed = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(reject_rows) / sizeof(reject_rows[0]); i++)
		failed += !reject_row__check(i, &reject_rows[i]);
	assert_int_equal(failed, 0);
}

/* The output-management values as perf reads them: B/K/M/G sizes, s/m/h/d
 * times (so 10M is a size and 10m a time), signal by default. */
static void test_output_management(void **state)
{
	struct record_opts opts;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	struct {
		const char *args[4];
		bool sig;
		uint64_t size, time_ms, max_size, flush;
		int max_files;
		bool ts, overwrite, tail, nobuf;
	} rows[] = {
		{ { "--switch-output", "true" }, .sig = true, .ts = true },
		{ { "--switch-output=signal", "true" }, .sig = true, .ts = true },
		{ { "--switch-output=10M", "true" }, .size = 10 << 20, .ts = true },
		{ { "--switch-output=512K", "true" }, .size = 512 << 10, .ts = true },
		{ { "--switch-output=100B", "true" }, .size = 100, .ts = true },
		{ { "--switch-output=30s", "true" }, .time_ms = 30000, .ts = true },
		{ { "--switch-output=10m", "true" }, .time_ms = 600000, .ts = true },
		{ { "--switch-output=2h", "true" }, .time_ms = 7200000, .ts = true },
		{ { "--switch-output=1d", "true" }, .time_ms = 86400000, .ts = true },
		{ { "--switch-output", "--switch-max-files=3", "true" }, .sig = true, .ts = true,
		  .max_files = 3 },
		{ { "--max-size=2K", "true" }, .max_size = 2048 },
		{ { "--max-size", "1000", "true" }, .max_size = 1000 },
		{ { "--mmap-flush=16K", "true" }, .flush = 16384 },
		{ { "--mmap-flush=0", "true" }, .flush = 0 },
		{ { "--timestamp-filename", "true" }, .ts = true },
		{ { "--overwrite", "true" }, .overwrite = true, .tail = true },
		{ { "--tail-synthesize", "true" }, .tail = true },
		{ { "--no-buffering", "true" }, .nobuf = true },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char *argv[6] = { "prec" };
		int argc = 1;

		for (int k = 0; rows[i].args[k]; k++)
			argv[argc++] = (char *)rows[i].args[k];
		assert_int_equal(options__parse(&opts, argc, argv, &e), 0);
		assert_int_equal(options__validate(&opts, &plain_stdout, &e), 0);
		assert_int_equal(opts.switch_signal, rows[i].sig);
		assert_int_equal(opts.switch_output, rows[i].sig || rows[i].size || rows[i].time_ms);
		assert_int_equal(opts.switch_size, rows[i].size);
		assert_int_equal(opts.switch_time_ms, rows[i].time_ms);
		assert_int_equal(opts.switch_max_files, rows[i].max_files);
		assert_int_equal(opts.max_size, rows[i].max_size);
		assert_int_equal(opts.mmap_flush, rows[i].flush);
		assert_int_equal(opts.timestamp_filename, rows[i].ts);
		assert_int_equal(opts.overwrite, rows[i].overwrite);
		assert_int_equal(opts.tail_synthesize, rows[i].tail);
		assert_int_equal(opts.no_buffering, rows[i].nobuf);
		options__exit(&opts);
	}
}

/* The messages name the option the way the user can find it in --help. */
static void test_error_messages(void **state)
{
	char *argv[MAX_ARGS + 2];
	struct record_opts opts;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	int argc;

	(void)state;
	/* -S and --aux-sample take an optional value, attached as perf's
	 * (-Se, --snapshot=e); whether they can work is judged once the
	 * events are known (recorder/evlist/aux_area.c). */
	argc = build_argv(argv, (const char *const[]){ "-S", "true", NULL });
	assert_int_equal(options__parse(&opts, argc, argv, &e), 0);
	assert_true(opts.aux_snapshot);
	assert_null(opts.aux_snapshot_opts);
	assert_int_equal(opts.argc, 1);
	options__exit(&opts);
	argc = build_argv(argv, (const char *const[]){ "-Se", "--aux-sample=size=4096", "--off-cpu",
						       "--clang-path", "/usr/bin/clang", "true", NULL });
	assert_int_equal(options__parse(&opts, argc, argv, &e), 0);
	assert_string_equal(opts.aux_snapshot_opts, "e");
	assert_true(opts.aux_sample);
	assert_string_equal(opts.aux_sample_opts, "size=4096");
	assert_true(opts.off_cpu);
	assert_string_equal(opts.clang_path, "/usr/bin/clang");
	options__exit(&opts);

	/* How the drain runs: -r, --affinity, --aio (default 1). */
	argc = build_argv(argv, (const char *const[]){ "-r", "10", "--affinity=node", "--aio", "true", NULL });
	assert_int_equal(options__parse(&opts, argc, argv, &e), 0);
	assert_int_equal(opts.realtime_prio, 10);
	assert_int_equal(opts.affinity, RECORD_AFFINITY_NODE);
	assert_int_equal(opts.nr_cblocks, 1);
	options__exit(&opts);
	argc = build_argv(argv, (const char *const[]){ "--affinity", "cpu", "--aio=4", "-r0", "true", NULL });
	assert_int_equal(options__parse(&opts, argc, argv, &e), 0);
	assert_int_equal(opts.realtime_prio, 0);
	assert_int_equal(opts.affinity, RECORD_AFFINITY_CPU);
	assert_int_equal(opts.nr_cblocks, 4);
	options__exit(&opts);

	/* -z takes digits after it as its level; otherwise 1. */
	argc = build_argv(argv, (const char *const[]){ "-z", "7", "true", NULL });
	assert_int_equal(options__parse(&opts, argc, argv, &e), 0);
	assert_int_equal(opts.comp_level, 7);
	assert_int_equal(opts.argc, 1);
	options__exit(&opts);
	argc = build_argv(argv, (const char *const[]){ "-z", "true", NULL });
	assert_int_equal(options__parse(&opts, argc, argv, &e), 0);
	assert_int_equal(opts.comp_level, 1);
	assert_string_equal(opts.argv[0], "true");
	options__exit(&opts);

	argc = build_argv(argv, (const char *const[]){ "--call-graph=lbrx", "true", NULL });
	assert_int_equal(options__parse(&opts, argc, argv, &e), -EINVAL);
	assert_string_equal(prec_err__msg(&e),
			    "unknown --call-graph mode 'lbrx' (use fp, dwarf[,size], lbr or no)");

	argc = build_argv(argv, (const char *const[]){ "-y", "true", NULL });
	assert_int_equal(options__parse(&opts, argc, argv, &e), -EINVAL);
	assert_string_equal(prec_err__msg(&e), "unknown option '-y' (see 'prec --help')");

	argc = build_argv(argv, (const char *const[]){ "-F", "0", "true", NULL });
	assert_int_equal(options__parse(&opts, argc, argv, &e), -EINVAL);
	assert_string_equal(
		prec_err__msg(&e),
		"invalid -F/--freq value '0' (give a frequency in Hz above 0, or 'max')");
}

/* Events collected before a later error are freed by the parser itself. */
static void test_failure_frees_events(void **state)
{
	char *argv[MAX_ARGS + 2];
	struct record_opts opts;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	int argc;

	(void)state;
	argc = build_argv(argv, (const char *const[]){ "-e", "a", "-e", "b", "-F0", "true", NULL });
	assert_int_equal(options__parse(&opts, argc, argv, &e), -EINVAL);
	assert_null(opts.events);
	assert_int_equal(opts.nr_events, 0);
	options__exit(&opts); /* twice is harmless */
}

/* A long line is whole: no buffer cuts the option the user typed. */
static void test_err_whole(void **state)
{
	char *argv[MAX_ARGS + 2], name[600];
	struct record_opts opts;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;
	int argc;

	(void)state;
	memset(name, 'x', sizeof(name) - 1);
	memcpy(name, "--", 2);
	name[sizeof(name) - 1] = '\0';
	argc = build_argv(argv, (const char *const[]){ name, NULL });
	assert_int_equal(options__parse(&opts, argc, argv, &e), -EINVAL);
	assert_int_equal(e.code, -EINVAL);
	assert_int_equal(strlen(prec_err__msg(&e)),
			 strlen("unknown option '' (see 'prec --help')") + strlen(name));
}

/* The usage text goes to stdout and lists only what this version accepts. */
static void test_usage(void **state)
{
	FILE *tmp = tmpfile();
	char text[16384];
	size_t n;
	int saved;

	(void)state;
	assert_non_null(tmp);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	assert_true(saved >= 0);
	assert_int_equal(dup2(fileno(tmp), STDOUT_FILENO), STDOUT_FILENO);
	options__usage();
	fflush(stdout);
	assert_int_equal(dup2(saved, STDOUT_FILENO), STDOUT_FILENO);
	close(saved);
	rewind(tmp);
	n = fread(text, 1, sizeof(text) - 1, tmp);
	fclose(tmp);
	text[n] = '\0';
	assert_non_null(strstr(text, "Usage: prec [record] [<options>] [--] <command> [<args>]"));
	assert_non_null(strstr(text, "-o, --output <file>"));
	assert_non_null(strstr(text, "-e, --event <event>"));
	assert_non_null(strstr(text, "-F, --freq <freq|max>"));
	assert_non_null(strstr(text, "-m, --mmap-pages <pages|size>"));
	assert_non_null(strstr(text, "    --version"));
	assert_non_null(strstr(text, "-a, --all-cpus"));
	assert_non_null(strstr(text, "-p, --pid <pid>"));
	assert_non_null(strstr(text, "--call-graph <mode>"));
}

/* perf's build-id switches: plain flags, each on its own. */
static void test_buildid_flags(void **state)
{
	static const struct {
		const char *arg;
		bool b, n, all, mmap;
	} rows[] = {
		{ "-B", true, false, false, false },
		{ "--no-buildid", true, false, false, false },
		{ "-N", false, true, false, false },
		{ "--no-buildid-cache", false, true, false, false },
		{ "--buildid-all", false, false, true, false },
		{ "--buildid-mmap", false, false, false, true },
		{ "--buildid-m", false, false, false, true }, /* an unambiguous prefix */
	};
	char *argv[MAX_ARGS + 2];
	struct record_opts opts;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int argc = build_argv(argv, (const char *const[]){ rows[i].arg, "true", NULL });

		assert_int_equal(options__parse(&opts, argc, argv, &e), 0);
		assert_int_equal(opts.no_buildid, rows[i].b);
		assert_int_equal(opts.no_buildid_cache, rows[i].n);
		assert_int_equal(opts.buildid_all, rows[i].all);
		assert_int_equal(opts.buildid_mmap, rows[i].mmap);
		assert_int_equal(opts.argc, 1);
		options__exit(&opts);
	}
	{
		int argc = build_argv(argv, (const char *const[]){ "-BN", "true", NULL });

		assert_int_equal(options__parse(&opts, argc, argv, &e), 0);
		assert_true(opts.no_buildid && opts.no_buildid_cache);
		options__exit(&opts);
	}
}

/* ---- options__validate on its own: what parse accepts, validate judges ---- */

static const struct options_env fifo_stdout = { .stdout_fifo = true };
static const struct options_env tty_stdout = { .stdout_tty = true };
static const struct options_env closed_stdout = { .stdout_closed = true };

/* Parses args (they must parse) and validates them against env. */
static int parse_validate(struct record_opts *opts, const char *const *args,
			  const struct options_env *env, struct prec_err *e)
{
	char *argv[MAX_ARGS + 2];
	int argc = build_argv(argv, args);

	assert_int_equal(options__parse(opts, argc, argv, e), 0);
	return options__validate(opts, env, e);
}

/* Each combination check: its errno and a piece of its one line. */
static void test_validate_combinations(void **state)
{
	static const struct {
		const char *args[MAX_ARGS];
		const struct options_env *env;
		int ret;
		const char *err_has;
	} rows[] = {
		{ { "-G", "x", "true" }, &plain_stdout, -EINVAL, "-G/--cgroup works per CPU only" },
		{ { "-p", "1", "-u", "root" }, &plain_stdout, -EINVAL, "only one of -p, -t and -u" },
		{ { "-t", "1", "-C", "0" }, &plain_stdout, -EINVAL, "exclusive" },
		{ { "--per-thread", "-C", "0" }, &plain_stdout, -EINVAL, "--per-thread cannot" },
		{ { "--switch-max-files=1", "true" }, &plain_stdout, -EINVAL,
		  "--switch-max-files needs --switch-output" },
		{ { "--timestamp-filename", "-o", "/dev/null", "true" }, &plain_stdout, -EINVAL,
		  "--timestamp-filename renames the output" },
		{ { "--unwind=record", "-g", "true" }, &plain_stdout, -EINVAL,
		  "--unwind=record needs DWARF call graphs" },
		/* a stream names no files, needs a reader and no terminal */
		{ { "-o", "-", "--switch-output", "true" }, &plain_stdout, -EINVAL, "not with a pipe" },
		{ { "--timestamp-filename", "true" }, &fifo_stdout, -EINVAL, "not with a pipe" },
		{ { "-o", "-", "true" }, &closed_stdout, -EBADF, "standard output is closed" },
		{ { "-o", "-", "true" }, &tty_stdout, -EINVAL, "standard output is a terminal" },
		/* the first check that fails is the one said */
		{ { "-G", "x", "-p", "1", "-t", "2" }, &plain_stdout, -EINVAL, "-G/--cgroup" },
	};
	struct record_opts opts;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int ret = parse_validate(&opts, rows[i].args, rows[i].env, &e);

		if (ret != rows[i].ret || !strstr(prec_err__msg(&e), rows[i].err_has) ||
		    strchr(prec_err__msg(&e), '\n'))
			fail_msg("row %zu: ret %d err '%s'", i, ret, prec_err__msg(&e));
		options__exit(&opts);
	}
}

/* The same command lines are fine where the combination is not met. */
static void test_validate_accepts(void **state)
{
	static const struct {
		const char *args[MAX_ARGS];
		const struct options_env *env;
	} rows[] = {
		{ { "-G", "x", "-a" }, &plain_stdout },
		{ { "--switch-max-files=1", "--switch-output", "true" }, &plain_stdout },
		{ { "--unwind=record", "--call-graph=dwarf", "true" }, &plain_stdout },
		/* a file named by -o does not care what stdout is */
		{ { "-o", "x.data", "true" }, &closed_stdout },
		{ { "-o", "x.data", "true" }, &tty_stdout },
		/* no -o, stdout closed or a terminal: perf.data */
		{ { "true" }, &closed_stdout },
		{ { "true" }, &tty_stdout },
		/* queries skip the checks: main answers them before validate */
		{ { "-h", "-p", "1", "-t", "2" }, &plain_stdout },
		{ { "--version", "-G", "x" }, &plain_stdout },
	};
	struct record_opts opts;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int ret = parse_validate(&opts, rows[i].args, rows[i].env, &e);

		if (ret || prec_err__is_set(&e))
			fail_msg("row %zu: ret %d err '%s'", i, ret, prec_err__msg(&e));
		options__exit(&opts);
	}
}

/* perf's implied settings, each on and off. */
static void test_validate_implied(void **state)
{
	static const struct {
		const char *args[MAX_ARGS];
		bool ts, tail, addr;
	} rows[] = {
		{ { "true" }, .ts = false },
		{ { "--switch-output", "true" }, .ts = true },
		{ { "--switch-output=1M", "true" }, .ts = true },
		{ { "--overwrite", "true" }, .tail = true },
		{ { "--call-graph=dwarf", "true" }, .addr = true },
		{ { "--call-graph", "dwarf,4096", "true" }, .addr = true },
		{ { "-g", "true" }, .addr = false },
		{ { "--call-graph=lbr", "true" }, .addr = false },
		{ { "-d", "true" }, .addr = true },
		{ { "--tail-synthesize", "true" }, .tail = true },
		{ { "--timestamp-filename", "true" }, .ts = true },
	};
	struct record_opts opts;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_int_equal(parse_validate(&opts, rows[i].args, &plain_stdout, &e), 0);
		if (opts.timestamp_filename != rows[i].ts || opts.tail_synthesize != rows[i].tail ||
		    opts.sample_addr != rows[i].addr)
			fail_msg("row %zu: timestamp_filename %d tail_synthesize %d sample_addr %d", i,
				 opts.timestamp_filename, opts.tail_synthesize, opts.sample_addr);
		options__exit(&opts);
	}
}

/* The defaults: the output and whether it is a stream, -F, -a. */
static void test_validate_defaults(void **state)
{
	static const struct {
		const char *args[MAX_ARGS];
		const struct options_env *env;
		const char *output;
		bool pipe, system_wide;
		uint64_t freq;
	} rows[] = {
		{ { "true" }, &plain_stdout, "perf.data", false, false, 4000 },
		{ { "true" }, &fifo_stdout, "-", true, false, 4000 },
		{ { "-o", "-", "true" }, &plain_stdout, "-", true, false, 4000 },
		{ { "-o", "x.data", "true" }, &fifo_stdout, "x.data", false, false, 4000 },
		{ { "-F", "99", "true" }, &plain_stdout, "perf.data", false, false, 99 },
		{ { "-F", "max", "true" }, &plain_stdout, "perf.data", false, false, 0 },
		{ { "-c", "1000", "true" }, &plain_stdout, "perf.data", false, false, 0 },
		/* no command and no target: the whole system, as perf */
		{ { NULL }, &plain_stdout, "perf.data", false, true, 4000 },
		{ { "-a" }, &plain_stdout, "perf.data", false, true, 4000 },
		{ { "-C", "0" }, &plain_stdout, "perf.data", false, false, 4000 },
		{ { "-p", "1" }, &plain_stdout, "perf.data", false, false, 4000 },
		{ { "-t", "1" }, &plain_stdout, "perf.data", false, false, 4000 },
		{ { "-u", "root" }, &plain_stdout, "perf.data", false, false, 4000 },
	};
	struct record_opts opts;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_int_equal(parse_validate(&opts, rows[i].args, rows[i].env, &e), 0);
		if (strcmp(opts.output, rows[i].output) || opts.pipe_output != rows[i].pipe ||
		    opts.system_wide != rows[i].system_wide || opts.freq != rows[i].freq)
			fail_msg("row %zu: output '%s' pipe %d system_wide %d freq %" PRIu64, i,
				 opts.output, opts.pipe_output, opts.system_wide, opts.freq);
		options__exit(&opts);
	}
}

/* The events' narrow config is filled from the final options in one place:
 * the target's shape and the derived values. */
static void test_evlist_config_from_options(void **state)
{
	static const struct {
		const char *args[MAX_ARGS];
		bool has_cpu, workload_only, inherit, delayed, stream, no_time;
	} rows[] = {
		{ { "true" }, .workload_only = true, .inherit = true },
		{ { "-i", "true" }, .workload_only = true },
		{ { "-a" }, .has_cpu = true, .inherit = true },
		{ { "-C", "0", "true" }, .has_cpu = true, .inherit = true },
		{ { "-p", "1" }, .inherit = true },
		{ { "-t", "1" }, .inherit = false }, /* just those threads: no children */
		{ { "--per-thread", "-p", "1" }, .no_time = true },
		{ { "--per-thread", "-T", "-p", "1" }, .no_time = false },
		{ { "-D", "10", "true" }, .workload_only = true, .inherit = true, .delayed = true },
		{ { "-D", "-1", "true" }, .workload_only = true, .inherit = true, .delayed = true },
		{ { "-o", "-", "true" }, .workload_only = true, .inherit = true, .stream = true },
	};
	struct record_opts opts;
	struct evlist_config cfg;
	struct prec_err e __attribute__((cleanup(prec_err__clear))) = PREC_ERR_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_int_equal(parse_validate(&opts, rows[i].args, &plain_stdout, &e), 0);
		evlist_config__init(&cfg, &opts, 1234, 7);
		if (cfg.has_cpu != rows[i].has_cpu || cfg.workload_only != rows[i].workload_only ||
		    cfg.inherit != rows[i].inherit || cfg.delayed != rows[i].delayed ||
		    cfg.stream != rows[i].stream || cfg.no_sample_time != rows[i].no_time)
			fail_msg("row %zu: has_cpu %d workload_only %d inherit %d delayed %d stream %d no_sample_time %d",
				 i, cfg.has_cpu, cfg.workload_only, cfg.inherit, cfg.delayed, cfg.stream,
				 cfg.no_sample_time);
		/* the derived values are the caller's, never re-read */
		assert_int_equal(cfg.freq, 1234);
		assert_int_equal(cfg.cgroup_fd, 7);
		options__exit(&opts);
	}
	/* the sampling flags pass through, the implied ones included */
	assert_int_equal(parse_validate(&opts,
					(const char *const[]){ "--call-graph=dwarf,4096", "-c",
							       "99", "-W", "-k", "mono", "true",
							       NULL },
					&plain_stdout, &e),
			 0);
	evlist_config__init(&cfg, &opts, 0, -1);
	assert_true(cfg.sample_addr && cfg.sample_weight && cfg.use_clockid);
	assert_int_equal(cfg.clockid, 1);
	assert_int_equal(cfg.period, 99);
	assert_int_equal(cfg.callchain_dump, 4096);
	assert_null(cfg.cpu_list);
	options__exit(&opts);
}

/* --synth as perf's parse_synth_opt: no/all decide at once, mmap implies task. */
static void test_parse_synth(void **state)
{
	(void)state;
	assert_int_equal(options__parse_synth("all"), RECORD_SYNTH_ALL);
	assert_int_equal(options__parse_synth("no"), 0);
	assert_int_equal(options__parse_synth("NONE"), 0);
	assert_int_equal(options__parse_synth("task"), RECORD_SYNTH_TASK);
	assert_int_equal(options__parse_synth("mmap"), RECORD_SYNTH_TASK | RECORD_SYNTH_MMAP);
	assert_int_equal(options__parse_synth("cgroup,Task"), RECORD_SYNTH_CGROUP | RECORD_SYNTH_TASK);
	assert_int_equal(options__parse_synth("task,no,bad"), 0);
	assert_int_equal(options__parse_synth("cgroup,all"), RECORD_SYNTH_ALL);
	assert_int_equal(options__parse_synth(""), -EINVAL);
	assert_int_equal(options__parse_synth("task,"), -EINVAL);
	assert_int_equal(options__parse_synth("tasks"), -EINVAL);
	assert_int_equal(options__parse_synth("mm"), -EINVAL);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepted_table),
		cmocka_unit_test(test_rejected_table),
		cmocka_unit_test(test_error_messages),
		cmocka_unit_test(test_output_management),
		cmocka_unit_test(test_failure_frees_events),
		cmocka_unit_test(test_err_whole),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_buildid_flags),
		cmocka_unit_test(test_validate_combinations),
		cmocka_unit_test(test_validate_accepts),
		cmocka_unit_test(test_validate_implied),
		cmocka_unit_test(test_validate_defaults),
		cmocka_unit_test(test_evlist_config_from_options),
		cmocka_unit_test(test_parse_synth),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, NULL, NULL);
}
