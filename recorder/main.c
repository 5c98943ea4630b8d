// SPDX-License-Identifier: GPL-2.0-only
/* argv -> options -> validate -> prec_record -> exit status. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "prec/log.h"
#include "prec/parse_events.h"
#include "prec/record.h"
#include "prec/version.h"

int main(int argc, char **argv)
{
	struct record_opts opts;
	char err[512];
	int fatal_sig = 0;
	int status;

	/* A closed stderr or output pipe must be an error return, not a kill. */
	signal(SIGPIPE, SIG_IGN);
	if (options__parse(&opts, argc, argv, err, sizeof(err))) {
		pr_err("%s", err);
		return PREC_EXIT_USAGE;
	}
	if (opts.help) {
		options__usage();
		printf("\n Events this version accepts (-e NAME[:MODIFIERS]):\n");
		parse_events__print_known(stdout);
		options__exit(&opts);
		return 0;
	}
	if (opts.list_events) {
		parse_events__print_list(stdout, &parse_events__live);
		options__exit(&opts);
		return 0;
	}
	if (opts.version) {
		printf("prec version %s\n", PREC_VERSION);
		options__exit(&opts);
		return 0;
	}
	log__set_level(opts.quiet ? LOG_QUIET : opts.verbose);
	status = prec_record(&opts, argc, argv, &fatal_sig);
	options__exit(&opts);
	if (fatal_sig) {
		/* Die of the same signal, as perf does, so shells see it. */
		signal(fatal_sig, SIG_DFL);
		raise(fatal_sig);
	}
	return status;
}
