// SPDX-License-Identifier: GPL-2.0-only
/* argv -> options__parse -> options__validate -> prec_record -> exit status. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "prec/error.h"
#include "prec/log.h"
#include "bpf/filter_pin.h"
#include "options/options.h"
#include "options/perfconfig.h"
#include "events/parse_events.h"
#include "evlist/evlist.h"
#include "entry.h"
#include "names/names_reader.h"
#include "prec/version.h"
#include "signals.h"

/* Prints the one line of a failure: e's, or ret's errno when the callee
 * filled nothing (out of memory too is a line). */
static void print_failure(struct prec_err *e, int ret)
{
	if (!prec_err__is_set(e))
		prec_err__set(e, ret, "%s",
			      ret == -ENOMEM ? "out of memory (free some memory and retry)" :
					       strerror(-ret));
	prec_err__print(e, NULL);
}

/* -h [NAME...], --list-events, --version: answered without recording. The
 * exit status when one was, else -1. */
static int answer_query(const struct record_opts *opts)
{
	struct prec_err e = PREC_ERR_INIT;
	int ret;

	if (opts->help && opts->argc) {
		ret = options__usage_of(opts->argc, opts->argv, &e);
		if (ret) {
			print_failure(&e, ret);
			return PREC_EXIT_USAGE;
		}
	} else if (opts->help) {
		options__usage();
		printf("\n Events this version accepts (-e NAME[:MODIFIERS]):\n");
		parse_events__print_known(stdout);
	} else if (opts->list_events) {
		/* The live roots, with perf's probe of what opens here. */
		const struct parse_events_ctx live = { .supported = evlist__event_supported };

		parse_events__print_list(stdout, &live);
	} else if (opts->version) {
		printf("prec version %s\n", PREC_VERSION);
	} else {
		return -1; /* no query: the run records */
	}
	return 0;
}

/* perf's configuration's lines, once the log is set: a file prec cannot
 * take is printed only when the run records (-h and --version answer
 * whatever the files hold). 0, or the exit status. */
static int config_print(const struct perfconfig *cfg, int load_ret, struct prec_err *load_err)
{
	if (load_ret) {
		print_failure(load_err, load_ret);
		return PREC_EXIT_FAILURE;
	}
	for (int i = 0; i < cfg->nr_warnings; i++)
		pr_warn("%s", cfg->warnings[i]);
	return 0;
}

int main(int argc, char **argv)
{
	struct record_opts opts;
	struct options_env env;
	struct perfconfig_env cenv;
	struct perfconfig cfg;
	struct prec_err e = PREC_ERR_INIT, ce = PREC_ERR_INIT;
	int fatal_sig = 0;
	int status, ret, cret;

	/* prec started by itself as the reader of JIT names: that, only. */
	names_reader__run_if_asked();
	/* A closed stderr or output pipe must be an error return, not a kill. */
	signals__init();
	/* perf's configuration, before the command line, as perf reads it. */
	perfconfig_env__read(&cenv);
	cret = perfconfig__load(&cfg, &cenv, &ce);
	ret = options__parse_with(&opts, cret ? NULL : &cfg, argc, argv, &e);
	if (ret) {
		print_failure(&e, ret);
		prec_err__clear(&ce);
		perfconfig__exit(&cfg);
		return PREC_EXIT_USAGE;
	}
	status = answer_query(&opts);
	if (status < 0) {
		log__set_level(opts.quiet ? LOG_QUIET : opts.verbose);
		status = config_print(&cfg, cret, &ce) ? PREC_EXIT_FAILURE : -1;
	}
	prec_err__clear(&ce);
	if (status >= 0) {
		options__exit(&opts);
		perfconfig__exit(&cfg);
		return status;
	}
	options_env__read(&env);
	ret = options__validate(&opts, &env, &e);
	if (ret) {
		print_failure(&e, ret);
		options__exit(&opts);
		perfconfig__exit(&cfg);
		/* A stream with nowhere to go is a failure, not a bad command line. */
		return ret == -EBADF ? PREC_EXIT_FAILURE : PREC_EXIT_USAGE;
	}
	if (opts.setup_filter) {
		/* perf 6.12: pin or unpin the BPF filter, and record nothing. */
		ret = filter_pin__setup(opts.setup_filter, &e);
		status = ret ? PREC_EXIT_FAILURE : 0;
		if (ret)
			print_failure(&e, ret);
	} else {
		status = prec_record(&opts, argc, argv, &fatal_sig);
	}
	options__exit(&opts);
	/* opts held the configuration's strings until here. */
	perfconfig__exit(&cfg);
	/* Die of the same signal, as perf does, so shells and supervisors see
	 * it (status 128+N), now that the file is finished. */
	if (fatal_sig)
		signals__die_of(fatal_sig);
	return status;
}
