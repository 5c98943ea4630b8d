/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PREC_BUILDID_CACHE_H
#define PREC_BUILDID_CACHE_H
/*
 * The build-id cache that perf record fills at the end of a recording (perf
 * 6.1's build_id_cache__add), so that `perf report` still finds a DSO's
 * symbols after the file was rebuilt or deleted. Under the cache root:
 *
 *   NAME/SBUILDID/elf        a hard link to the DSO's file (a copy when the
 *                            link fails, mode 0755); NAME is its realpath
 *   NAME/SBUILDID/debug      the distribution's debuginfo for that id
 *                            (/usr/lib/debug/.build-id/xx/rest.debug), when
 *                            there is one; not for kernel modules (.ko)
 *   NAME/SBUILDID/probes     empty (perf's SDT probe cache, filled by perf
 *                            itself for files with SDT notes)
 *   [kernel.kallsyms]/SBUILDID/kallsyms   a copy of /proc/kallsyms, 0755
 *   [vdso]/SBUILDID/vdso     the vdso image, 0600 (perf links its temp file)
 *   [vdso]/SBUILDID/probes
 *   .build-id/xx/rest        symlink -> ../../NAME/SBUILDID
 *
 * Directories are made 0755. Nothing that is already there is replaced, as
 * perf: a cache entry is immutable once written. New files appear under
 * their final name only when complete (a temp file, then link()).
 *
 * The root: $PERF_BUILDID_DIR, else perf's config buildid.dir, else
 * $HOME/.debug (perf 6.1 itself reads only the config and $HOME; it sets
 * PERF_BUILDID_DIR for the commands it runs, which is why prec honours it).
 * The configuration is read by the recorder at start-up
 * (recorder/options/perfconfig.h), never here.
 */
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct build_id;
struct writer_buildid;

enum buildid_cache_kind {
	BUILDID_CACHE_ELF, /* a file: "elf" (+ "debug", "probes") */
	BUILDID_CACHE_KALLSYMS, /* the kernel: "kallsyms" */
	BUILDID_CACHE_VDSO, /* the vdso: "vdso" (+ "probes") */
};

/* Every path one cache entry touches. */
struct buildid_cache_paths {
	char dir[PATH_MAX]; /* ROOT/NAME/SBUILDID */
	char file[PATH_MAX]; /* dir/elf, dir/kallsyms or dir/vdso */
	char debug[PATH_MAX]; /* dir/debug; "" for the kernel and the vdso */
	char probes[PATH_MAX]; /* dir/probes; "" for the kernel */
	char link[PATH_MAX]; /* ROOT/.build-id/SB[0:2]/SB[2:] */
	char target[PATH_MAX]; /* the link's text: ../../NAME/SBUILDID */
};

/*
 * The paths of the entry for name (an absolute, normalized path for
 * BUILDID_CACHE_ELF; "[kernel.kallsyms]", "[vdso]" or any other bracketed
 * name for the others) and sbid (lower-case hex, 2..40 digits). Pure.
 * Returns 0; -EINVAL for an empty root, a bad sbid, an ELF name that is not
 * absolute or has "." or ".." components (the cache must not be escaped), a
 * kernel or vdso name with a '/'; -ENAMETOOLONG when a path exceeds PATH_MAX.
 */
int buildid_cache__paths(const char *root, const char *name, const char *sbid,
			 enum buildid_cache_kind kind, struct buildid_cache_paths *p);

/*
 * The cache root, as described above: $PERF_BUILDID_DIR, else config_dir
 * (perf's buildid.dir, which the caller read from perf's configuration at
 * start-up; NULL or "": none), else $HOME/.debug (".debug" when there is no
 * HOME, as perf). Reads only the environment, never a file. 0, or
 * -ENAMETOOLONG.
 */
int buildid_cache__root(const char *config_dir, char *buf, size_t len);

/* Where one filling of the cache reads from; buildid_cache__init sets the
 * machine's, tests point them at fixtures. */
struct buildid_cache {
	const char *root;
	const char *kallsyms; /* the file copied for the kernel: "/proc/kallsyms" */
	const char *debug_dir; /* distro debuginfo: "/usr/lib/debug" */
	const void *vdso; /* the vdso image; NULL: this process's own */
	size_t vdso_len;
	/* --debuginfod: the servers (space-separated, as $DEBUGINFOD_URLS
	 * lists them) asked for the debug file of each DSO cached without one
	 * (buildid_cache__fetch_debug); NULL: none asked, whatever the
	 * environment says */
	const char *debuginfod_urls;
	int debuginfod_stall_ms; /* a query making no progress this long is given up */
};

/* How long a debuginfod query may make no progress (a dead server's cost). */
#define BUILDID_CACHE_STALL_MS 10000

/* Machine defaults for root (which must outlive c); no debuginfod servers
 * (the caller sets debuginfod_urls for --debuginfod). */
void buildid_cache__init(struct buildid_cache *c, const char *root);

/*
 * Adds one DSO whose build-id is bid: name is its file for ELF (resolved
 * with realpath), the bracketed name otherwise. The file linked or copied is
 * checked to carry bid (a DSO rebuilt since it was read is not cached under
 * the old id). Returns 0 (also when the entry was already there); -ESTALE
 * when the file now has another build-id; -ENOENT when the file is gone or
 * there is no vdso image; -errno of the step that failed. Never prints.
 */
int buildid_cache__add(const struct buildid_cache *c, const char *name, const struct build_id *bid,
		       enum buildid_cache_kind kind);

/* Every missing directory of path, 0755 as perf's mkdir_p. 0 or -errno. */
int buildid_cache__mkdir(const char *path);

/*
 * buildid_cache__add of an ELF whose bytes are read from source (a kept
 * descriptor, "/proc/self/fd/N") whenever name does not hold a file of id
 * bid (gone, replaced, or only in a container's mounts): the entry is
 * filed under name as it is, which must be absolute and clean. source
 * NULL: buildid_cache__add. Same returns.
 */
int buildid_cache__add_from(const struct buildid_cache *c, const char *name, const char *source,
			    const struct build_id *bid);

/*
 * --debuginfod: the debug file of name's entry (made by buildid_cache__add)
 * fetched from c->debuginfod_urls and linked (or copied) as
 * NAME/SBUILDID/debug, as perf's build_id_cache__add does with
 * libdebuginfod. 0; -EEXIST when the entry has a debug file already;
 * -ENOENT when there is no entry or no server has it; -EINVAL without
 * servers; -ETIMEDOUT, -ENOTSUP
 * and the other errors of debuginfod__find_debuginfo. Never prints.
 */
int buildid_cache__fetch_debug(const struct buildid_cache *c, const char *name,
			       const struct build_id *bid);

/*
 * Adds each DSO of a HEADER_BUILD_ID list, as perf record does at its end:
 * the kernel, the vdso, files and kernel modules named by a path (modules
 * known only as "[name]" have no file to cache and are skipped). The root is
 * created (one level, as perf) when missing. Failures are reported under -v only
 * and never stop the others. With c->debuginfod_urls, each file cached without
 * a debug file gets one from the servers when they have it; the first
 * query that finds them unreachable or stalled ends the queries (reported
 * under -v). Returns the number of DSOs now in the cache.
 */
uint32_t buildid_cache__add_list(const struct buildid_cache *c, const struct writer_buildid *v,
				 uint32_t nr);

/*
 * prec's own entries (--names-cache-max), one set per recording that kept
 * names (recorder/names/):
 *
 *   ROOT/jit/prec-PID-TIME/            the JIT ELFs, jitted-PID.so
 *   ROOT/REAL/prec-PID-TIME/           what buildid_cache__add made of them
 *                                      (jitted-PID.so/SBUILDID/elf, probes),
 *                                      REAL being realpath(ROOT/jit)
 *   .build-id/xx/rest                  each link whose text is the entry of
 *                                      one of those ELFs
 *
 * PID is the recorder's, TIME its start in seconds since the epoch. Nothing
 * else is prec's: perf's entries, perf inject's jit/java-jit-* and any name
 * that is not prec-DIGITS-DIGITS are never looked at, let alone removed.
 *
 * Sizes are disk use: st_blocks * 512 of every file, directory and link of
 * a recording's set, a file linked twice (the ELF and its entry's elf) counted
 * once, plus the two directories that hold the sets (ROOT/jit, ROOT/REAL),
 * so the total is what `du` says of them and the links.
 */
struct buildid_cache_prune {
	uint64_t max_bytes; /* the cap on the total; 0: unbounded, nothing is done */
	/* Out. */
	uint32_t recordings; /* prec's recordings found */
	uint32_t removed; /* of them, removed (the oldest) */
	uint32_t running; /* of them, kept because their recorder still runs */
	uint32_t links_removed; /* .build-id links removed with them */
	uint64_t bytes_before, bytes_after; /* the total before and after */
};

/*
 * Removes prec's recordings under root (above), oldest first (by TIME, then
 * PID), until the total is at most p->max_bytes. A recording whose PID is a
 * running process (kill(PID, 0) succeeds or says EPERM) is never removed:
 * the caller's own (the newest), and any other recording under way; a PID
 * that a later process took keeps its old recording until that process
 * ends. So the total stays over the cap when the running ones alone exceed
 * it (bytes_after says so). Symbolic links are never followed: a link in a
 * set is removed, not what it points at; of .build-id, only the links to a
 * removed entry go. Returns 0 (nothing to do included: no jit directory,
 * max_bytes 0), or the first -errno of a removal that failed (the others
 * are still tried; the out fields count what was done). Never prints.
 */
int buildid_cache__prune_jit(const char *root, struct buildid_cache_prune *p);

#endif
