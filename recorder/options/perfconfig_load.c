// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf's configuration files, found and read as perf 6.1 finds them
 * (perfconfig.h), but never blocking: a file is looked at before it is
 * opened, opened O_NONBLOCK, and read only when it is a regular file.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "options/perfconfig.h"
#include "prec/grow.h"

void perfconfig_env__read(struct perfconfig_env *env)
{
	env->perf_config = getenv("PERF_CONFIG");
	env->nosystem = getenv("PERF_CONFIG_NOSYSTEM");
	env->noglobal = getenv("PERF_CONFIG_NOGLOBAL");
	env->home = getenv("HOME");
	env->system_path = PERFCONFIG_SYSTEM;
	env->euid = (unsigned)geteuid();
}

/* perf_config_bool on an environment variable: unset, "", false, no, off
 * and 0 are false; true, yes, on and other numbers are true; anything else
 * perf warns about and takes as true. */
static bool env_bool(struct perfconfig *cfg, const char *name, const char *v)
{
	char *end;
	long n;

	if (!v || !*v || !strcasecmp(v, "false") || !strcasecmp(v, "no") || !strcasecmp(v, "off"))
		return false;
	if (!strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcasecmp(v, "on"))
		return true;
	n = strtol(v, &end, 0);
	if (end != v && (!*end || (!end[1] && strchr("kKmMgG", *end))))
		return n != 0;
	perfconfig__warn(cfg, "%s=%s is not a boolean: taken as set, as perf takes it (use 1 or 0)",
			 name, v);
	return true;
}

static const char *file_type(mode_t mode)
{
	return S_ISFIFO(mode) ? "FIFO" :
	       S_ISDIR(mode)  ? "directory" :
	       S_ISCHR(mode)  ? "character device" :
	       S_ISBLK(mode)  ? "block device" :
	       S_ISSOCK(mode) ? "socket" :
				"special file";
}

static bool is_dev_null(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 && minor(st->st_rdev) == 3;
}

enum cfg_kind { CFG_EXCLUSIVE, CFG_SYSTEM, CFG_USER };

/* What a file that is not a regular one gets: $PERF_CONFIG's is refused
 * (perf would block on a FIFO or a terminal, at start-up or at its end),
 * the others are skipped. */
static int not_regular(struct perfconfig *cfg, const char *path, mode_t mode, enum cfg_kind kind,
		       struct prec_err *e)
{
	if (kind == CFG_EXCLUSIVE)
		return perfconfig__error(
			e, -EINVAL,
			"PERF_CONFIG=%s is a %s, not a file: perf's configuration is read from regular files only (point PERF_CONFIG at a perf config file, or set PERF_CONFIG=/dev/null to read none)",
			path, file_type(mode));
	perfconfig__warn(cfg, "perf's configuration %s is a %s, not a file: ignored (remove it)",
			 path, file_type(mode));
	return 0;
}

/* The whole of a regular file, opened without blocking, of any size, as
 * perf reads one (a file too big for memory is -ENOMEM). 0 and *text
 * (malloc'ed, len bytes); -errno; -ENODEV when it turned out not to be a
 * regular file after all (replaced since it was looked at; *mode says what
 * it is now). */
static int read_text(const char *path, char **text, size_t *len, mode_t *mode)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	size_t n = 0, cap = 0;
	struct stat st;
	char *buf = NULL;
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		*mode = st.st_mode;
		close(fd);
		return -ENODEV;
	}
	for (;;) {
		ssize_t r;

		/* Any size, as perf reads one: memory is the bound. */
		if (grow__array(&buf, &cap, n + 1, 1, 4096, GROW_MEMORY)) {
			ret = -ENOMEM;
			break;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -errno;
			break;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (ret) {
		free(buf);
		return ret;
	}
	*text = buf;
	*len = n;
	return 0;
}

/* One file into the set. 0 (read, or nothing to read), 1 when a line perf
 * cannot read ended it (warned), or -errno with e. */
static int load_file(struct perfconfig *cfg, const char *path, enum cfg_kind kind,
		     struct prec_err *e)
{
	struct stat st;
	size_t len = 0;
	char *text = NULL;
	mode_t mode = 0;
	int ret;

	if (stat(path, &st)) {
		if (kind == CFG_EXCLUSIVE)
			perfconfig__warn(
				cfg,
				"PERF_CONFIG=%s: %s: no perf configuration is read (set PERF_CONFIG=/dev/null to read none on purpose)",
				path, strerror(errno));
		return 0;
	}
	if (is_dev_null(&st))
		return 0;
	if (!S_ISREG(st.st_mode))
		return not_regular(cfg, path, st.st_mode, kind, e);
	ret = read_text(path, &text, &len, &mode);
	if (ret == -ENODEV)
		return not_regular(cfg, path, mode, kind, e);
	if (ret == -ENOMEM)
		return perfconfig__error(
			e, ret,
			"perf's configuration %s does not fit in memory (%s, or free some memory)",
			path,
			kind == CFG_EXCLUSIVE ?
				"point PERF_CONFIG at a smaller file, or set PERF_CONFIG=/dev/null" :
				"remove it, or set PERF_CONFIG=/dev/null");
	if (ret) {
		perfconfig__warn(
			cfg, "cannot read perf's configuration %s: %s: ignored, as perf ignores it",
			path, strerror(-ret));
		return 0;
	}
	ret = perfconfig__add_text(cfg, path, text, len, e);
	free(text);
	return ret == -EINVAL ? 1 : ret;
}

/* ~/.perfconfig, when perf would read it: there, not empty, and owned by
 * the user or root. */
static int load_user(struct perfconfig *cfg, const struct perfconfig_env *env, struct prec_err *e)
{
	char path[PATH_MAX];
	struct stat st;

	if (!env->home || !*env->home || env_bool(cfg, "PERF_CONFIG_NOGLOBAL", env->noglobal))
		return 0;
	if (snprintf(path, sizeof(path), "%s/.perfconfig", env->home) >= (int)sizeof(path) ||
	    stat(path, &st))
		return 0;
	if (st.st_uid && st.st_uid != env->euid) {
		perfconfig__warn(
			cfg,
			"%s is owned by uid %u, not by you or root: ignored, as perf ignores it (chown it, or name it in PERF_CONFIG)",
			path, (unsigned)st.st_uid);
		return 0;
	}
	/* perf skips a file with no size (a FIFO too). */
	if (!st.st_size)
		return 0;
	return load_file(cfg, path, CFG_USER, e);
}

int perfconfig__load(struct perfconfig *cfg, const struct perfconfig_env *env, struct prec_err *e)
{
	int ret = 0;

	perfconfig__init(cfg);
	if (env->perf_config) {
		/* $PERF_CONFIG makes perf read that file alone ("": none). */
		if (*env->perf_config)
			ret = load_file(cfg, env->perf_config, CFG_EXCLUSIVE, e);
	} else {
		if (!env_bool(cfg, "PERF_CONFIG_NOSYSTEM", env->nosystem) &&
		    !access(env->system_path, R_OK))
			ret = load_file(cfg, env->system_path, CFG_SYSTEM, e);
		/* perf reads ~/.perfconfig only when /etc/perfconfig read well. */
		if (ret == 1)
			perfconfig__warn(
				cfg,
				"so ~/.perfconfig is not read either, as perf does not read it (fix %s)",
				env->system_path);
		else if (!ret)
			ret = load_user(cfg, env, e);
	}
	if (ret < 0)
		return ret;
	return perfconfig__resolve(cfg, e);
}
