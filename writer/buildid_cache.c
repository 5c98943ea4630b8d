// SPDX-License-Identifier: GPL-2.0-only
/*
 * The build-id cache (buildid_cache.h): where it is, what one entry's paths
 * are, and filling it the way perf record 6.1 does at its end, with the
 * same names, modes and symlinks, so perf's readers cannot tell who wrote it.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prec/buildid.h"
#include "prec/buildid_cache.h"
#include "prec/debuginfod.h"
#include "prec/log.h"
#include "prec/writer.h"
#include "prec/write_all.h"

#define KALLSYMS_NAME "[kernel.kallsyms]"
#define VDSO_NAME "[vdso]"

/* ---- paths ---- */

static bool sbid_ok(const char *sbid)
{
	size_t n = strlen(sbid);

	if (n < 2 || n > 2 * BUILD_ID_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)sbid[i]) && (sbid[i] < 'a' || sbid[i] > 'f'))
			return false;
	return true;
}

/* An absolute path without empty, "." or ".." components: realpath's form. */
static bool abs_path_ok(const char *name)
{
	const char *p = name;

	if (name[0] != '/' || !name[1])
		return false;
	while (*p == '/') {
		const char *c = ++p;
		size_t n = strcspn(c, "/");

		if (!n || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		p = c + n;
	}
	return true;
}

/* snprintf into a PATH_MAX buffer; -ENAMETOOLONG when it does not fit. */
__attribute__((format(printf, 2, 3))) static int put(char *dst, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(dst, PATH_MAX, fmt, ap);
	va_end(ap);
	return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

int buildid_cache__paths(const char *root, const char *name, const char *sbid,
			 enum buildid_cache_kind kind, struct buildid_cache_paths *p)
{
	/* NAME as it sits below the root: perf joins a path straight on, a
	 * bracketed name with a '/'. */
	const char *sep = kind == BUILDID_CACHE_ELF ? "" : "/";
	const char *file = kind == BUILDID_CACHE_ELF	  ? "elf" :
			   kind == BUILDID_CACHE_KALLSYMS ? "kallsyms" :
							    "vdso";
	char short_id[3];
	int err;

	if (!root || !*root || !name || !sbid || !p || !sbid_ok(sbid))
		return -EINVAL;
	if (kind == BUILDID_CACHE_ELF ?
		    !abs_path_ok(name) :
		    (!name[0] || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..")))
		return -EINVAL;
	memcpy(short_id, sbid, 2);
	short_id[2] = '\0';
	err = put(p->dir, "%s%s%s/%s", root, sep, name, sbid);
	if (!err)
		err = put(p->file, "%s/%s", p->dir, file);
	p->debug[0] = p->probes[0] = '\0';
	if (!err && kind == BUILDID_CACHE_ELF)
		err = put(p->debug, "%s/debug", p->dir);
	if (!err && kind != BUILDID_CACHE_KALLSYMS)
		err = put(p->probes, "%s/probes", p->dir);
	if (!err)
		err = put(p->link, "%s/.build-id/%s/%s", root, short_id, sbid + 2);
	if (!err)
		err = put(p->target, "../..%s%s/%s", sep, name, sbid);
	return err;
}

/* ---- the root ---- */

int buildid_cache__root(const char *config_dir, char *buf, size_t len)
{
	const char *env = getenv("PERF_BUILDID_DIR");
	const char *home = getenv("HOME");
	int n;

	if (env && *env)
		n = snprintf(buf, len, "%s", env);
	else if (config_dir && *config_dir)
		n = snprintf(buf, len, "%s", config_dir);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.debug", home);
	else
		n = snprintf(buf, len, ".debug");
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

void buildid_cache__init(struct buildid_cache *c, const char *root)
{
	memset(c, 0, sizeof(*c));
	c->root = root;
	c->kallsyms = "/proc/kallsyms";
	c->debug_dir = "/usr/lib/debug";
	c->debuginfod_stall_ms = BUILDID_CACHE_STALL_MS;
}

/* ---- filling ---- */

int buildid_cache__mkdir(const char *path)
{
	char buf[PATH_MAX];
	size_t n = strlen(path);

	if (n >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, n + 1);
	for (char *p = buf + 1;; p++) {
		if (*p != '/' && *p)
			continue;
		char c = *p;

		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		if (!c)
			return 0;
		*p = c;
	}
}

/* fd's bytes to the end (procfs files report size 0: read, do not stat). */
static int copy_fd(int from, int to)
{
	char buf[128 << 10];

	for (;;) {
		ssize_t n = read(from, buf, sizeof(buf));
		int err;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return 0;
		err = fd__write_all(to, buf, (size_t)n, NULL);
		if (err)
			return err;
	}
}

/*
 * dst made from the file src (or the bytes image) with mode, as perf's
 * copyfile: a temp file ".NAME.XXXXXX" beside dst, then link() to dst, so
 * dst is never seen half-written. An existing dst is kept (0).
 */
static int copy_to(const char *dst, const char *src, const void *image, size_t len, mode_t mode)
{
	char tmp[PATH_MAX];
	const char *base = strrchr(dst, '/');
	int fd, from, err;

	if (!base || snprintf(tmp, sizeof(tmp), "%.*s/.%s.XXXXXX", (int)(base - dst), dst,
			      base + 1) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = fchmod(fd, mode) ? -errno : 0;
	if (!err && src) {
		from = open(src, O_RDONLY | O_CLOEXEC);
		err = from < 0 ? -errno : copy_fd(from, fd);
		if (from >= 0)
			close(from);
	} else if (!err) {
		err = fd__write_all(fd, image, len, NULL);
	}
	if (close(fd) && !err)
		err = -errno;
	if (!err && link(tmp, dst) && errno != EEXIST)
		err = -errno;
	unlink(tmp);
	return err;
}

/* perf's way into the cache: a hard link, a copy (0755) where that fails. */
static int link_or_copy(const char *src, const char *dst)
{
	if (!link(src, dst) || errno == EEXIST)
		return 0;
	return copy_to(dst, src, NULL, 0, 0755);
}

static bool bid_equal(const struct build_id *a, const struct build_id *b)
{
	return a->size == b->size && !memcmp(a->data, b->data, a->size);
}

static bool file_has_id(const char *path, const struct build_id *bid)
{
	struct build_id got;

	return !buildid__read_file(path, &got) && bid_equal(&got, bid);
}

/* The entry's main file: elf, kallsyms or vdso. */
static int add_file(const struct buildid_cache *c, const struct buildid_cache_paths *p,
		    const char *real, const struct build_id *bid, enum buildid_cache_kind kind)
{
	struct build_id got;
	const void *image = c->vdso;
	size_t len = c->vdso_len;
	int err;

	if (!access(p->file, F_OK))
		return 0; /* cached before: entries never change */
	switch (kind) {
	case BUILDID_CACHE_KALLSYMS:
		return copy_to(p->file, c->kallsyms, NULL, 0, 0755);
	case BUILDID_CACHE_VDSO:
		if (!image && buildid__vdso_image(&image, &len))
			return -ENOENT;
		/* Only an image of the id recorded: a vdso of another kernel
		 * (a test's, a checkpointed process's) must not be cached. */
		if (buildid__from_elf(image, len, &got) || !bid_equal(&got, bid))
			return -ESTALE;
		return copy_to(p->file, NULL, image, len, 0600);
	case BUILDID_CACHE_ELF:
		break;
	}
	err = link_or_copy(real, p->file);
	if (err)
		return err;
	/* perf links whatever the path holds now; a DSO rebuilt since its id
	 * was read would sit under the old id and mislead every later report. */
	if (buildid__read_file(p->file, &got) || !bid_equal(&got, bid)) {
		unlink(p->file);
		return -ESTALE;
	}
	return 0;
}

/* The distribution's separate debuginfo for this id, when installed. */
static int add_debug(const struct buildid_cache *c, const struct buildid_cache_paths *p,
		     const char *real, const char *sbid)
{
	char want[PATH_MAX], *debug;
	size_t n = strlen(real);
	int err = 0;

	if (n > 3 && !strcmp(real + n - 3, ".ko"))
		return 0; /* perf keeps no debuginfo for modules */
	if (snprintf(want, sizeof(want), "%s/.build-id/%.2s/%s.debug", c->debug_dir, sbid,
		     sbid + 2) >= (int)sizeof(want))
		return -ENAMETOOLONG;
	debug = realpath(want, NULL);
	if (!debug || access(debug, R_OK)) {
		free(debug);
		return 0;
	}
	if (access(p->debug, F_OK))
		err = link_or_copy(debug, p->debug);
	free(debug);
	return err;
}

static int add_link(const struct buildid_cache_paths *p)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(p->link, '/');
	int err;

	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - p->link), p->link);
	err = buildid_cache__mkdir(dir);
	if (err)
		return err;
	/* An existing link stays, as in perf, even if it names another DSO
	 * of the same id (the same bytes under another name). */
	if (symlink(p->target, p->link) && errno != EEXIST)
		return -errno;
	return 0;
}

/* The entry of paths p for the file real (or name), its bytes read from
 * src: the file, its debuginfo, the link, the probe cache. */
static int add_entry(const struct buildid_cache *c, struct buildid_cache_paths *p,
		     const char *real, const char *src, const char *sbid,
		     const struct build_id *bid, enum buildid_cache_kind kind)
{
	int fd, err;

	err = buildid_cache__mkdir(p->dir);
	if (!err)
		err = add_file(c, p, src, bid, kind);
	if (!err && kind == BUILDID_CACHE_ELF && real)
		err = add_debug(c, p, real, sbid);
	if (!err)
		err = add_link(p);
	if (!err && p->probes[0]) {
		/* perf's SDT probe cache; perf fills it for files with SDT notes. */
		fd = open(p->probes, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0)
			err = -errno;
		else
			close(fd);
	}
	return err;
}

int buildid_cache__add(const struct buildid_cache *c, const char *name, const struct build_id *bid,
		       enum buildid_cache_kind kind)
{
	struct buildid_cache_paths *p;
	char sbid[SBUILD_ID_LEN], *real = NULL;
	int err;

	if (!c || !c->root || !name || !bid || !bid->size || bid->size > BUILD_ID_MAX)
		return -EINVAL;
	buildid__snprintf(bid, sbid, sizeof(sbid));
	if (kind == BUILDID_CACHE_ELF) {
		real = realpath(name, NULL);
		if (!real)
			return -errno;
	}
	p = malloc(sizeof(*p));
	err = p ? buildid_cache__paths(c->root, real ? real : name, sbid, kind, p) : -ENOMEM;
	/* A file of another id (a --vmlinux of another kernel) leaves no
	 * trace in the cache, not even its directory, as in perf. */
	if (!err && real && access(p->file, F_OK) && !file_has_id(real, bid))
		err = -ESTALE;
	if (!err)
		err = add_entry(c, p, real, real, sbid, bid, kind);
	free(p);
	free(real);
	return err;
}

int buildid_cache__add_from(const struct buildid_cache *c, const char *name, const char *source,
			    const struct build_id *bid)
{
	struct buildid_cache_paths *p;
	char sbid[SBUILD_ID_LEN], *real;
	int err;

	if (!source)
		return buildid_cache__add(c, name, bid, BUILDID_CACHE_ELF);
	if (!c || !c->root || !name || !bid || !bid->size || bid->size > BUILD_ID_MAX)
		return -EINVAL;
	real = realpath(name, NULL);
	if (real && file_has_id(real, bid)) {
		free(real);
		return buildid_cache__add(c, name, bid, BUILDID_CACHE_ELF);
	}
	free(real);
	if (!abs_path_ok(name))
		return -EINVAL;
	buildid__snprintf(bid, sbid, sizeof(sbid));
	p = malloc(sizeof(*p));
	err = p ? buildid_cache__paths(c->root, name, sbid, BUILDID_CACHE_ELF, p) : -ENOMEM;
	if (!err && access(p->file, F_OK) && !file_has_id(source, bid))
		err = -ESTALE;
	/* No debuginfo: the distribution's is for the host's file, not this. */
	if (!err)
		err = add_entry(c, p, NULL, source, sbid, bid, BUILDID_CACHE_ELF);
	free(p);
	return err;
}

int buildid_cache__fetch_debug(const struct buildid_cache *c, const char *name,
			       const struct build_id *bid)
{
	struct buildid_cache_paths *p;
	char sbid[SBUILD_ID_LEN], *real, *got = NULL;
	int err;

	if (!c || !c->root || !c->debuginfod_urls || !name || !bid || !bid->size ||
	    bid->size > BUILD_ID_MAX)
		return -EINVAL;
	buildid__snprintf(bid, sbid, sizeof(sbid));
	real = realpath(name, NULL);
	if (!real)
		return -errno;
	p = malloc(sizeof(*p));
	err = p ? buildid_cache__paths(c->root, real, sbid, BUILDID_CACHE_ELF, p) : -ENOMEM;
	/* Only into an entry buildid_cache__add made, and only once. */
	if (!err && access(p->dir, F_OK))
		err = -ENOENT;
	if (!err && !access(p->debug, F_OK))
		err = -EEXIST;
	if (!err)
		err = debuginfod__find_debuginfo(c->debuginfod_urls, sbid, c->debuginfod_stall_ms,
						 &got);
	if (!err)
		err = link_or_copy(got, p->debug);
	free(got);
	free(p);
	free(real);
	return err;
}

/* --debuginfod: the debug file of an entry just cached, when it has none
 * yet. Returns false once the servers cannot be reached, so that a dead
 * one costs one stall, not one per DSO. */
static bool fetch_one(const struct buildid_cache *c, const struct writer_buildid *b,
		      const struct build_id *bid, uint32_t *fetched)
{
	size_t n = strlen(b->filename);
	int err;

	if (n > 3 && !strcmp(b->filename + n - 3, ".ko"))
		return true; /* perf keeps no debuginfo for modules */
	err = buildid_cache__fetch_debug(c, b->filename, bid);
	if (!err) {
		(*fetched)++;
		return true;
	}
	if (err != -EEXIST)
		pr_verbose("debuginfod: no debug info for %s: %s\n", b->filename,
			   err == -ENOENT ? "no server has it" :
			   err == -ETIMEDOUT ? "the server stopped answering" : strerror(-err));
	if (!debuginfod__unreachable(err))
		return true;
	pr_verbose("debuginfod: the servers in DEBUGINFOD_URLS cannot be reached: no more queries\n");
	return false;
}

/* How a HEADER_BUILD_ID entry is cached; -ENOENT: it is not. */
static int kind_of(const struct writer_buildid *b, enum buildid_cache_kind *kind)
{
	if (b->filename[0] == '/' || (b->filename[0] != '[' && b->filename[0]))
		*kind = BUILDID_CACHE_ELF; /* a user DSO, a module's .ko, --vmlinux's file */
	else if (!strcmp(b->filename, KALLSYMS_NAME))
		*kind = BUILDID_CACHE_KALLSYMS;
	else if (!strcmp(b->filename, VDSO_NAME))
		*kind = BUILDID_CACHE_VDSO;
	else
		return -ENOENT; /* "[module]" without its file */
	return 0;
}

uint32_t buildid_cache__add_list(const struct buildid_cache *c, const struct writer_buildid *v,
				 uint32_t nr)
{
	bool fetch = c->debuginfod_urls != NULL;
	uint32_t added = 0, fetched = 0;

	if (!nr)
		return 0;
	if (mkdir(c->root, 0755) && errno != EEXIST) {
		pr_verbose(
			"build-id cache: cannot create %s: %s (set HOME or PERF_BUILDID_DIR to a writable directory)\n",
			c->root, strerror(errno));
		return 0;
	}
	for (uint32_t i = 0; i < nr; i++) {
		enum buildid_cache_kind kind;
		struct build_id bid = { .size = v[i].size };
		int err;

		if (kind_of(&v[i], &kind)) {
			pr_verbose("build-id cache: %s skipped: no file to keep\n", v[i].filename);
			continue;
		}
		memcpy(bid.data, v[i].id, sizeof(bid.data));
		err = kind == BUILDID_CACHE_ELF && v[i].source ?
			      buildid_cache__add_from(c, v[i].filename, v[i].source, &bid) :
			      buildid_cache__add(c, v[i].filename, &bid, kind);
		if (!err) {
			added++;
			if (fetch && kind == BUILDID_CACHE_ELF)
				fetch = fetch_one(c, &v[i], &bid, &fetched);
		} else {
			pr_verbose("build-id cache: cannot add %s: %s\n", v[i].filename,
				   err == -ESTALE ? "it changed since it was recorded" :
						    strerror(-err));
		}
	}
	if (c->debuginfod_urls)
		pr_verbose("debuginfod: %u debug files fetched into %s\n", fetched, c->root);
	return added;
}
