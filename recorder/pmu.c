// SPDX-License-Identifier: GPL-2.0-only
/*
 * sysfs PMU lookup for the -e grammar: type, format/ bit ranges and events/
 * aliases, read the way perf 6.1 reads them (util/pmu.c), so the same string
 * gives the same attr.
 */
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

#include "prec/pmu.h"

/* Reads a small text file, trimmed at both ends. Returns its length or -errno. */
static int read_text(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	size_t len, start = 0;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	len = (size_t)n;
	buf[len] = '\0';
	if (memchr(buf, '\0', len))
		return -EINVAL;
	while (len && isspace((unsigned char)buf[len - 1]))
		buf[--len] = '\0';
	while (start < len && isspace((unsigned char)buf[start]))
		start++;
	memmove(buf, buf + start, len - start + 1);
	return (int)(len - start);
}

static bool is_plain_name(const char *name)
{
	return name[0] && strcmp(name, ".") && strcmp(name, "..") && !strchr(name, '/');
}

static bool path_exists(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return false;
	return stat(path, &st) == 0;
}

int pmu_format__parse(const char *text, enum pmu_config_field *field, uint64_t *bits)
{
	const char *p = text;
	uint64_t mask = 0;

	while (isspace((unsigned char)*p))
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
	while (isspace((unsigned char)*p))
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

static int pmu__load_formats(struct pmu *pmu, const char *dir)
{
	char path[PATH_MAX], text[256];
	struct dirent *d;
	DIR *dp;
	int ret = 0;

	if (snprintf(path, sizeof(path), "%s/format", dir) >= (int)sizeof(path))
		return 0;
	dp = opendir(path);
	if (!dp) /* a PMU without formats takes only config= terms */
		return errno == ENOMEM ? -ENOMEM : 0;
	while ((d = readdir(dp))) {
		struct pmu_format f = { 0 }, *v;
		char file[PATH_MAX];

		if (d->d_name[0] == '.')
			continue;
		if (snprintf(file, sizeof(file), "%s/%s", path, d->d_name) >= (int)sizeof(file))
			continue;
		if (read_text(file, text, sizeof(text)) < 0 ||
		    pmu_format__parse(text, &f.field, &f.bits))
			continue;
		f.name = strdup(d->d_name);
		v = realloc(pmu->formats, (pmu->nr_formats + 1) * sizeof(*v));
		if (!f.name || !v) {
			free(f.name);
			if (v)
				pmu->formats = v;
			ret = -ENOMEM;
			break;
		}
		pmu->formats = v;
		pmu->formats[pmu->nr_formats++] = f;
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
static char *alias__side_file(const char *dir, const char *name, const char *suffix, bool *oom)
{
	char path[PATH_MAX], text[256];
	char *s;

	if (snprintf(path, sizeof(path), "%s/%s%s", dir, name, suffix) >= (int)sizeof(path))
		return NULL;
	if (read_text(path, text, sizeof(text)) < 0)
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

static int pmu__load_aliases(struct pmu *pmu, const char *dir)
{
	char path[PATH_MAX], text[4096];
	struct dirent *d;
	DIR *dp;
	int ret = 0;

	if (snprintf(path, sizeof(path), "%s/events", dir) >= (int)sizeof(path))
		return 0;
	dp = opendir(path);
	if (!dp)
		return errno == ENOMEM ? -ENOMEM : 0;
	while ((d = readdir(dp))) {
		struct pmu_alias a = { 0 }, *v;
		char file[PATH_MAX];
		bool oom = false;
		char *flag;
		struct stat st;

		/* perf: the side files describe an alias, they are not one. */
		if (d->d_name[0] == '.' || has_suffix(d->d_name, ".scale") ||
		    has_suffix(d->d_name, ".unit") || has_suffix(d->d_name, ".per-pkg") ||
		    has_suffix(d->d_name, ".snapshot"))
			continue;
		if (snprintf(file, sizeof(file), "%s/%s", path, d->d_name) >= (int)sizeof(file))
			continue;
		if (stat(file, &st) || !S_ISREG(st.st_mode))
			continue;
		if (read_text(file, text, sizeof(text)) < 0)
			continue;
		a.name = strdup(d->d_name);
		a.terms = strdup(text);
		a.unit = alias__side_file(path, d->d_name, ".unit", &oom);
		a.scale = alias__side_file(path, d->d_name, ".scale", &oom);
		flag = alias__side_file(path, d->d_name, ".per-pkg", &oom);
		a.per_pkg = flag && !strcmp(flag, "1");
		free(flag);
		flag = alias__side_file(path, d->d_name, ".snapshot", &oom);
		a.snapshot = flag && !strcmp(flag, "1");
		free(flag);
		v = oom || !a.name || !a.terms ?
			    NULL :
			    realloc(pmu->aliases, (pmu->nr_aliases + 1) * sizeof(*v));
		if (!v) {
			alias__exit(&a);
			ret = -ENOMEM;
			break;
		}
		pmu->aliases = v;
		pmu->aliases[pmu->nr_aliases++] = a;
	}
	closedir(dp);
	if (pmu->nr_aliases > 1)
		qsort(pmu->aliases, pmu->nr_aliases, sizeof(*pmu->aliases), alias_cmp);
	return ret;
}

/* PMUs perf record cannot sample with, known by name when sysfs does not tell. */
static bool pmu__is_counting_only(const struct pmu *pmu, const char *dir)
{
	static const char *const sampling_with_cpumask[] = { "arm_spe", "hisi_ptt" };

	if (!strcmp(pmu->name, "msr"))
		return true;
	if (!path_exists(dir, "cpumask"))
		return false;
	for (size_t i = 0; i < sizeof(sampling_with_cpumask) / sizeof(sampling_with_cpumask[0]);
	     i++)
		if (!strncmp(pmu->name, sampling_with_cpumask[i], strlen(sampling_with_cpumask[i])))
			return false;
	return true;
}

int pmu__load(struct pmu *pmu, const char *sysfs, const char *name)
{
	char dir[PATH_MAX], path[PATH_MAX], text[64];
	unsigned long long type;
	char *end;
	int ret;

	memset(pmu, 0, sizeof(*pmu));
	if (!is_plain_name(name))
		return -ENOENT;
	if (snprintf(dir, sizeof(dir), "%s/" PMU_DEVICES_DIR "/%s", sysfs, name) >=
		    (int)sizeof(dir) ||
	    snprintf(path, sizeof(path), "%s/type", dir) >= (int)sizeof(path))
		return -ENOENT;
	ret = read_text(path, text, sizeof(text));
	if (ret == -ENOENT || ret == -ENOTDIR)
		return -ENOENT;
	if (ret <= 0)
		return -EINVAL;
	errno = 0;
	type = strtoull(text, &end, 10);
	if (errno || *end || !isdigit((unsigned char)text[0]) || type > UINT32_MAX)
		return -EINVAL;
	pmu->type = (uint32_t)type;
	pmu->name = strdup(name);
	if (!pmu->name)
		return -ENOMEM;
	ret = pmu__load_formats(pmu, dir);
	if (!ret)
		ret = pmu__load_aliases(pmu, dir);
	if (ret) {
		pmu__exit(pmu);
		return ret;
	}
	pmu->is_core = !strcmp(name, "cpu") || !strcmp(name, "cpum_cf") || path_exists(dir, "cpus");
	pmu->is_uncore = path_exists(dir, "cpumask");
	pmu->counting_only = pmu__is_counting_only(pmu, dir);
	return 0;
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
	char dir[PATH_MAX];
	struct dirent *d;
	DIR *dp;
	int ret = 0;

	memset(pmus, 0, sizeof(*pmus));
	if (snprintf(dir, sizeof(dir), "%s/" PMU_DEVICES_DIR, sysfs) >= (int)sizeof(dir))
		return -ENOENT;
	dp = opendir(dir);
	if (!dp)
		return errno == ENOMEM ? -ENOMEM : -ENOENT;
	while ((d = readdir(dp))) {
		struct pmu pmu, *v;

		if (d->d_name[0] == '.')
			continue;
		ret = pmu__load(&pmu, sysfs, d->d_name);
		if (ret == -ENOMEM)
			break;
		ret = 0;
		if (!pmu.name)
			continue;
		v = realloc(pmus->v, (pmus->nr + 1) * sizeof(*v));
		if (!v) {
			pmu__exit(&pmu);
			ret = -ENOMEM;
			break;
		}
		pmus->v = v;
		pmus->v[pmus->nr++] = pmu;
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
