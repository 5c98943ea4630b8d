// SPDX-License-Identifier: GPL-2.0-only
/*
 * The -e view of the PMUs (prec/pmu.h): type, format/ bit ranges and events/
 * aliases, read the way perf 6.1 reads them (util/pmu.c), so the same string
 * gives the same attr. The directory reads go through sysinfo's one PMU
 * directory reader (pmu_dir__*, fsread__*), relative to the sysfs root fd.
 */
#define _GNU_SOURCE /* O_PATH */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache_pmu.h"
#include "fsread.h"
#include "prec/pmu.h"

/* Format and side files are a few bytes; an alias's term list a few dozen. */
#define FORMAT_TEXT_MAX 256
#define ALIAS_TEXT_MAX 4096

/* arr (nr items of size bytes) grown by one, item copied in last; NULL (arr
 * untouched) on ENOMEM. The caller stores the result and counts the item. */
static void *vec__push(void *arr, int nr, size_t size, const void *item)
{
	char *n = realloc(arr, ((size_t)nr + 1) * size);

	if (n)
		memcpy(n + (size_t)nr * size, item, size);
	return n;
}

static bool is_plain_name(const char *name)
{
	return name[0] && strcmp(name, ".") && strcmp(name, "..") && !strchr(name, '/');
}

int pmu_format__parse(const char *text, enum pmu_config_field *field, uint64_t *bits)
{
	const char *p = text;
	uint64_t mask = 0;

	while (text__is_blank(*p))
		p++;
	if (!strncmp(p, "config1:", 8)) {
		*field = PMU_CONFIG1;
		p += 8;
	} else if (!strncmp(p, "config2:", 8)) {
		*field = PMU_CONFIG2;
		p += 8;
	} else if (!strncmp(p, "config:", 7)) {
		*field = PMU_CONFIG;
		p += 7;
	} else {
		return -EINVAL;
	}
	for (;;) {
		unsigned long lo, hi;
		char *end;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		lo = strtoul(p, &end, 10);
		p = end;
		hi = lo;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				return -EINVAL;
			hi = strtoul(p, &end, 10);
			p = end;
		}
		if (lo > 63 || hi > 63 || lo > hi)
			return -EINVAL;
		for (unsigned long b = lo; b <= hi; b++)
			mask |= 1ULL << b;
		if (*p != ',')
			break;
		p++;
	}
	while (text__is_blank(*p))
		p++;
	if (*p)
		return -EINVAL;
	*bits = mask;
	return 0;
}

uint64_t pmu_format__max(uint64_t bits)
{
	int w = __builtin_popcountll(bits);

	if (!w)
		return 0;
	return w < 64 ? (1ULL << w) - 1 : UINT64_MAX;
}

void pmu_format__apply(uint64_t bits, uint64_t value, uint64_t *config)
{
	int vbit = 0;

	for (int b = 0; b < 64; b++) {
		if (!(bits & (1ULL << b)))
			continue;
		if (vbit < 64 && (value & (1ULL << vbit)))
			*config |= 1ULL << b;
		vbit++;
	}
}

bool pmu__name_matches(const char *pmu_name, const char *tok)
{
	size_t n = strlen(tok);
	const char *p;

	if (!strncmp(pmu_name, "uncore_", 7) && strncmp(tok, "uncore_", 7))
		pmu_name += 7;
	if (!n || strncmp(pmu_name, tok, n))
		return false;
	p = pmu_name + n;
	if (!*p)
		return true;
	if (*p == '_')
		p++;
	if (!*p)
		return false;
	for (; *p; p++)
		if (!isdigit((unsigned char)*p))
			return false;
	return true;
}

static int format_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pmu_format *)a)->name, ((const struct pmu_format *)b)->name);
}

static int alias_cmp(const void *a, const void *b)
{
	return strcmp(((const struct pmu_alias *)a)->name, ((const struct pmu_alias *)b)->name);
}

/* Opens pmufd/sub as a directory stream; NULL (and *ret -ENOMEM on ENOMEM) without one. */
static DIR *pmu__subdir(int pmufd, const char *sub, int *ret)
{
	DIR *dp = fsread__opendir(pmufd, sub);

	*ret = !dp && errno == ENOMEM ? -ENOMEM : 0;
	return dp;
}

static int pmu__load_formats(struct pmu *pmu, int pmufd)
{
	char text[FORMAT_TEXT_MAX];
	struct dirent *d;
	int ret;
	DIR *dp = pmu__subdir(pmufd, "format", &ret);

	if (!dp) /* a PMU without formats takes only config= terms */
		return ret;
	while ((d = readdir(dp))) {
		struct pmu_format f = { 0 }, *v;

		if (d->d_name[0] == '.')
			continue;
		if (fsread__str(dirfd(dp), d->d_name, text, sizeof(text)) ||
		    pmu_format__parse(text, &f.field, &f.bits))
			continue;
		f.name = strdup(d->d_name);
		v = f.name ? vec__push(pmu->formats, pmu->nr_formats, sizeof(f), &f) : NULL;
		if (!v) {
			free(f.name);
			ret = -ENOMEM;
			break;
		}
		pmu->formats = v;
		pmu->nr_formats++;
	}
	closedir(dp);
	if (pmu->nr_formats > 1)
		qsort(pmu->formats, pmu->nr_formats, sizeof(*pmu->formats), format_cmp);
	return ret;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && !strcmp(s + n - m, suffix);
}

/* NAME.suffix's text, or NULL (missing or unreadable); *oom on failure to copy. */
static char *alias__side_file(int eventsfd, const char *name, const char *suffix, bool *oom)
{
	char path[NAME_MAX + 16], text[FORMAT_TEXT_MAX];
	char *s;

	if (snprintf(path, sizeof(path), "%s%s", name, suffix) >= (int)sizeof(path))
		return NULL;
	if (fsread__str(eventsfd, path, text, sizeof(text)))
		return NULL;
	s = strdup(text);
	if (!s)
		*oom = true;
	return s;
}

static void alias__exit(struct pmu_alias *a)
{
	free(a->name);
	free(a->terms);
	free(a->unit);
	free(a->scale);
}

static int pmu__load_aliases(struct pmu *pmu, int pmufd)
{
	char text[ALIAS_TEXT_MAX];
	struct dirent *d;
	int ret;
	DIR *dp = pmu__subdir(pmufd, "events", &ret);

	if (!dp)
		return ret;
	while ((d = readdir(dp))) {
		struct pmu_alias a = { 0 }, *v;
		bool oom = false;
		char *flag;
		struct stat st;

		/* perf: the side files describe an alias, they are not one. */
		if (d->d_name[0] == '.' || has_suffix(d->d_name, ".scale") ||
		    has_suffix(d->d_name, ".unit") || has_suffix(d->d_name, ".per-pkg") ||
		    has_suffix(d->d_name, ".snapshot"))
			continue;
		if (fstatat(dirfd(dp), d->d_name, &st, 0) || !S_ISREG(st.st_mode))
			continue;
		if (fsread__str(dirfd(dp), d->d_name, text, sizeof(text)))
			continue;
		a.name = strdup(d->d_name);
		a.terms = strdup(text);
		a.unit = alias__side_file(dirfd(dp), d->d_name, ".unit", &oom);
		a.scale = alias__side_file(dirfd(dp), d->d_name, ".scale", &oom);
		flag = alias__side_file(dirfd(dp), d->d_name, ".per-pkg", &oom);
		a.per_pkg = flag && !strcmp(flag, "1");
		free(flag);
		flag = alias__side_file(dirfd(dp), d->d_name, ".snapshot", &oom);
		a.snapshot = flag && !strcmp(flag, "1");
		free(flag);
		v = oom || !a.name || !a.terms ?
			    NULL :
			    vec__push(pmu->aliases, pmu->nr_aliases, sizeof(a), &a);
		if (!v) {
			alias__exit(&a);
			ret = -ENOMEM;
			break;
		}
		pmu->aliases = v;
		pmu->nr_aliases++;
	}
	closedir(dp);
	if (pmu->nr_aliases > 1)
		qsort(pmu->aliases, pmu->nr_aliases, sizeof(*pmu->aliases), alias_cmp);
	return ret;
}

/* PMUs perf record cannot sample with, known by name when sysfs does not tell. */
static bool pmu__is_counting_only(const struct pmu *pmu, int pmufd)
{
	static const char *const sampling_with_cpumask[] = { "arm_spe", "hisi_ptt" };

	if (!strcmp(pmu->name, "msr"))
		return true;
	if (!pmu_dir__has(pmufd, "cpumask"))
		return false;
	for (size_t i = 0; i < sizeof(sampling_with_cpumask) / sizeof(sampling_with_cpumask[0]);
	     i++)
		if (!strncmp(pmu->name, sampling_with_cpumask[i], strlen(sampling_with_cpumask[i])))
			return false;
	return true;
}

/* pmu__load for the entry name of the devices directory devfd. */
static int pmu__load_at(struct pmu *pmu, int devfd, const char *name)
{
	int pmufd, ret;

	memset(pmu, 0, sizeof(*pmu));
	if (!is_plain_name(name))
		return -ENOENT;
	pmufd = openat(devfd, name, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (pmufd < 0)
		return errno == ENOMEM ? -ENOMEM : -ENOENT;
	ret = pmu_dir__type(pmufd, &pmu->type);
	if (ret) {
		close(pmufd);
		return ret == -ENOENT || ret == -ENOTDIR ? -ENOENT : ret == -ENOMEM ? ret : -EINVAL;
	}
	pmu->name = strdup(name);
	ret = pmu->name ? pmu__load_formats(pmu, pmufd) : -ENOMEM;
	if (!ret)
		ret = pmu__load_aliases(pmu, pmufd);
	if (!ret && !strncmp(name, "cpu_", 4)) {
		ret = pmu_dir__hybrid_cpus(pmufd, name, &pmu->cpus);
		ret = ret == 1 ? 0 : ret;
	}
	if (!ret) {
		pmu->is_core = !strcmp(name, "cpu") || !strcmp(name, "cpum_cf") ||
			       pmu_dir__has(pmufd, "cpus");
		pmu->is_uncore = pmu_dir__has(pmufd, "cpumask");
		pmu->counting_only = pmu__is_counting_only(pmu, pmufd);
	}
	close(pmufd);
	if (ret)
		pmu__exit(pmu);
	return ret;
}

/* The devices directory below the sysfs mount point, or -errno. */
static int pmu__devices_fd(const char *sysfs)
{
	char dir[PATH_MAX];
	int fd;

	if (snprintf(dir, sizeof(dir), "%s/" PMU_DEVICES_DIR, sysfs) >= (int)sizeof(dir))
		return -ENOENT;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? (errno == ENOMEM ? -ENOMEM : -ENOENT) : fd;
}

bool pmu__exists(const char *sysfs, const char *name)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/" PMU_DEVICES_DIR "/%s", sysfs, name) >=
	    (int)sizeof(path))
		return false;
	return access(path, F_OK) == 0;
}

int pmu__load(struct pmu *pmu, const char *sysfs, const char *name)
{
	int devfd = pmu__devices_fd(sysfs), ret;

	memset(pmu, 0, sizeof(*pmu));
	if (devfd < 0)
		return devfd == -ENOMEM ? devfd : -ENOENT;
	ret = pmu__load_at(pmu, devfd, name);
	close(devfd);
	return ret;
}

void pmu__exit(struct pmu *pmu)
{
	if (!pmu)
		return;
	for (int i = 0; i < pmu->nr_formats; i++)
		free(pmu->formats[i].name);
	free(pmu->formats);
	for (int i = 0; i < pmu->nr_aliases; i++)
		alias__exit(&pmu->aliases[i]);
	free(pmu->aliases);
	free(pmu->name);
	free(pmu->cpus);
	memset(pmu, 0, sizeof(*pmu));
}

/* Names compared with digit runs as numbers, so uncore_imc_2 < uncore_imc_10. */
static int natural_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			const char *ea = a, *eb = b;

			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			ea = a;
			eb = b;
			while (isdigit((unsigned char)*ea))
				ea++;
			while (isdigit((unsigned char)*eb))
				eb++;
			if (ea - a != eb - b)
				return (ea - a) < (eb - b) ? -1 : 1;
			for (; a < ea; a++, b++)
				if (*a != *b)
					return *a < *b ? -1 : 1;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

static int pmu_cmp(const void *a, const void *b)
{
	return natural_cmp(((const struct pmu *)a)->name, ((const struct pmu *)b)->name);
}

int pmus__load(struct pmus *pmus, const char *sysfs)
{
	int devfd = pmu__devices_fd(sysfs);
	struct dirent *d;
	DIR *dp;
	int ret = 0;

	memset(pmus, 0, sizeof(*pmus));
	if (devfd < 0)
		return devfd;
	dp = fdopendir(devfd);
	if (!dp) {
		close(devfd);
		return -ENOMEM;
	}
	while ((d = readdir(dp))) {
		struct pmu pmu, *v;

		if (d->d_name[0] == '.')
			continue;
		ret = pmu__load_at(&pmu, dirfd(dp), d->d_name);
		if (ret == -ENOMEM)
			break;
		ret = 0;
		if (!pmu.name)
			continue;
		pmu.dir_index = pmus->nr;
		v = vec__push(pmus->v, pmus->nr, sizeof(pmu), &pmu);
		if (!v) {
			pmu__exit(&pmu);
			ret = -ENOMEM;
			break;
		}
		pmus->v = v;
		pmus->nr++;
	}
	closedir(dp);
	if (ret) {
		pmus__exit(pmus);
		return ret;
	}
	if (pmus->nr > 1)
		qsort(pmus->v, pmus->nr, sizeof(*pmus->v), pmu_cmp);
	return 0;
}

void pmus__exit(struct pmus *pmus)
{
	if (!pmus)
		return;
	for (int i = 0; i < pmus->nr; i++)
		pmu__exit(&pmus->v[i]);
	free(pmus->v);
	pmus->v = NULL;
	pmus->nr = 0;
}

const struct pmu *pmus__find(const struct pmus *pmus, const char *name)
{
	for (int i = 0; i < pmus->nr; i++)
		if (!strcmp(pmus->v[i].name, name))
			return &pmus->v[i];
	return NULL;
}

const struct pmu *pmus__next_hybrid(const struct pmus *pmus, const struct pmu *prev)
{
	const struct pmu *best = NULL;

	for (int i = 0; i < pmus->nr; i++) {
		const struct pmu *p = &pmus->v[i];

		if (p->cpus && (!prev || p->dir_index > prev->dir_index) &&
		    (!best || p->dir_index < best->dir_index))
			best = p;
	}
	return best;
}

const struct pmu_format *pmu__format(const struct pmu *pmu, const char *name)
{
	for (int i = 0; i < pmu->nr_formats; i++)
		if (!strcmp(pmu->formats[i].name, name))
			return &pmu->formats[i];
	return NULL;
}

const struct pmu_alias *pmu__alias(const struct pmu *pmu, const char *name)
{
	for (int i = 0; i < pmu->nr_aliases; i++)
		if (!strcasecmp(pmu->aliases[i].name, name))
			return &pmu->aliases[i];
	return NULL;
}
