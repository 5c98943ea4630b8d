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
#include "output/output_config.h"
#include "output/output_names.h"

int output_names__new(struct names **out, const struct output_config *cfg)
{
	struct names_config nc = { .binaries = true };
	char root[PATH_MAX], dir[PATH_MAX];
	int err;

	*out = NULL;
	if (cfg->pipe || !cfg->keep_names)
		return 0;
	if (!buildid_cache__root(cfg->buildid_dir, root, sizeof(root)) &&
	    snprintf(dir, sizeof(dir), "%s/jit/prec-%d-%lld", root, (int)getpid(),
		     (long long)time(NULL)) < (int)sizeof(dir))
		nc.jit_dir = dir;
	err = names__new(out, &nc);
	/* Out of descriptors: the recording goes on as perf record's would. */
	if (err == -EMFILE || err == -ENFILE) {
		pr_warn("the names of JIT code and binaries are not kept: %s (raise the open-file limit with 'ulimit -n 4096', or record with --no-keep-names)",
			strerror(-err));
		return 0;
	}
	if (err)
		pr_err("cannot keep the names of JIT code and binaries: %s (record with --no-keep-names)",
		       strerror(-err));
	return err ? -ECANCELED : 0;
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
	pr_verbose(
		"names: %u processes with JIT code (%u perf maps, %u jitdumps read, %u files refused, %llu bad lines or records), %u ELFs of %llu symbols; %u binaries read through their mappings, %u held for the build-id cache\n",
		st.procs, st.maps, st.dumps, st.refused, (unsigned long long)st.malformed, st.elfs,
		(unsigned long long)st.syms, st.bins, st.bins_kept);
}
