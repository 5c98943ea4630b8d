// SPDX-License-Identifier: GPL-2.0-only
/* The recording's names layer, from the options (output_names.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "prec/buildid_cache.h"
#include "prec/log.h"
#include "names/names.h"
#include "options/options.h"
#include "output/output_names.h"

int output_names__new(struct names **out, const struct record_opts *opts)
{
	struct names_config cfg = { .binaries = true };
	char root[PATH_MAX], dir[PATH_MAX];
	int err;

	*out = NULL;
	if (opts->pipe_output || opts->no_keep_names)
		return 0;
	if (!buildid_cache__root(opts->buildid_dir, root, sizeof(root)) &&
	    snprintf(dir, sizeof(dir), "%s/jit/prec-%d-%lld", root, (int)getpid(),
		     (long long)time(NULL)) < (int)sizeof(dir))
		cfg.jit_dir = dir;
	err = names__new(out, &cfg);
	if (err)
		pr_err("cannot keep the names of JIT code and binaries: %s (record with --no-keep-names)",
		       strerror(-err));
	return err;
}

void output_names__write(struct names *n, bool at_exit)
{
	struct names_stats st;
	int err;

	if (!n)
		return;
	err = names__write_elfs(n);
	if (err)
		pr_warn("some JIT code's names could not be written: %s (its samples keep only addresses; is the build-id cache's directory writable?)",
			strerror(-err));
	if (!at_exit)
		return;
	names__stats(n, &st);
	pr_verbose("names: %u processes with JIT code (%u perf maps, %u jitdumps read, %u files refused, %llu bad lines or records), %u ELFs of %llu symbols; %u binaries read through their mappings, %u held for the build-id cache\n",
		   st.procs, st.maps, st.dumps, st.refused, (unsigned long long)st.malformed,
		   st.elfs, (unsigned long long)st.syms, st.bins, st.bins_kept);
}
