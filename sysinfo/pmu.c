// SPDX-License-Identifier: GPL-2.0-only
/*
 * The event sources perf 6.1 knows (util/pmu.c: pmu_read_sysfs, pmu_lookup,
 * perf_pmu__caps_parse), for PMU_MAPPINGS, CPU_PMU_CAPS, PMU_CAPS and
 * HYBRID_TOPOLOGY. perf lists sys/bus/event_source/devices in readdir order
 * and keeps a PMU only when pmu_lookup succeeds; we apply the same tests so
 * that the list, its order and the caps come out as perf's would. The
 * per-directory reads (type, file presence) are shared with the -e view of
 * the same PMUs (pmu_events.c): one reader of a PMU directory.
 */
#define _GNU_SOURCE /* strndup */
#include "cache_pmu.h"
#include "fsread.h"

#include <prec/grow.h>
#include <prec/sysinfo.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int pmu_cap__value(const char *s, size_t len, char **out)
{
	const char *p;
	size_t n;

	*out = NULL;
	if (!len)
		return -ENODATA;
	n = len < PMU_CAP_LINE_MAX - 1 ? len : PMU_CAP_LINE_MAX - 1;
	p = memchr(s, '\n', n);
	if (p)
		n = (size_t)(p - s) + 1;
	p = memchr(s, '\0', n);
	if (p)
		n = (size_t)(p - s);
	/* perf: strndup(value, strlen(value) - 1), an empty string staying empty. */
	if (n)
		n--;
	*out = strndup(s, n);
	return *out ? 0 : -ENOMEM;
}

bool pmu_cpus__hybrid(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && text__is_blank(s[i]))
		i++;
	if (i < len && (s[i] == '+' || s[i] == '-'))
		i++;
	return i < len && is_digit(s[i]);
}

/* Tokens of perf 6.1's format lexer (util/pmu.l). */
enum fmt_tok { FMT_END, FMT_CONFIG, FMT_VALUE, FMT_DASH, FMT_COLON, FMT_COMMA, FMT_ERROR };

struct fmt_lexer {
	const char *s;
	size_t len, pos;
};

static enum fmt_tok fmt__next(struct fmt_lexer *lx)
{
	static const char kw[] = "config";
	const size_t kwlen = sizeof(kw) - 1;

	while (lx->pos < lx->len) {
		const char *s = lx->s + lx->pos;
		size_t left = lx->len - lx->pos;

		if (is_digit(*s)) {
			uint64_t v = 0;
			bool overflow = false;
			size_t n = 0;

			/* strtoul with errno: past ULONG_MAX is PP_ERROR. */
			for (; n < left && is_digit(s[n]); n++) {
				unsigned int d = (unsigned int)(s[n] - '0');

				if (v > (UINT64_MAX - d) / 10)
					overflow = true;
				else
					v = v * 10 + d;
			}
			lx->pos += n;
			return overflow ? FMT_ERROR : FMT_VALUE;
		}
		if (left >= kwlen && !memcmp(s, kw, kwlen)) {
			/* Longest match: config1 and config2 are their own tokens. */
			lx->pos += kwlen;
			if (left > kwlen && (s[kwlen] == '1' || s[kwlen] == '2'))
				lx->pos++;
			return FMT_CONFIG;
		}
		lx->pos++;
		switch (*s) {
		case '-':
			return FMT_DASH;
		case ':':
			return FMT_COLON;
		case ',':
			return FMT_COMMA;
		default:
			break; /* every other byte is skipped by the lexer */
		}
	}
	return FMT_END;
}

bool pmu_format__valid(const char *s, size_t len)
{
	struct fmt_lexer lx = { .s = s, .len = len };
	enum fmt_tok t = fmt__next(&lx);
	unsigned int terms = 0;

	/* format: term+ ; term: CONFIG ':' bits ; bits: bit (',' bit)* ; bit: N | N '-' N */
	while (t != FMT_END) {
		if (t != FMT_CONFIG || fmt__next(&lx) != FMT_COLON)
			return false;
		for (;;) {
			if (fmt__next(&lx) != FMT_VALUE)
				return false;
			t = fmt__next(&lx);
			if (t == FMT_DASH) {
				if (fmt__next(&lx) != FMT_VALUE)
					return false;
				t = fmt__next(&lx);
			}
			if (t != FMT_COMMA)
				break;
		}
		terms++;
	}
	return terms > 0;
}

bool pmu_dir__has(int dirfd, const char *name)
{
	struct stat st;

	return fstatat(dirfd, name, &st, 0) == 0;
}

int pmu_dir__type(int pmufd, uint32_t *type)
{
	return fsread__u32(pmufd, "type", type);
}

int pmu_dir__hybrid_cpus(int pmufd, const char *name, char **cpus)
{
	const char *nl;
	size_t len;
	char *buf;
	int err;

	*cpus = NULL;
	if (strncmp(name, "cpu_", 4))
		return 1;
	err = fsread__file(pmufd, "cpus", &buf, &len);
	if (err)
		return err == -ENOMEM ? err : 1;
	if (!pmu_cpus__hybrid(buf, len)) {
		free(buf);
		return 1;
	}
	/* HYBRID_TOPOLOGY holds the first line, newline dropped (load_hybrid_node). */
	nl = memchr(buf, '\n', len);
	*cpus = strndup(buf, nl ? (size_t)(nl - buf) : len);
	free(buf);
	return *cpus ? 0 : -ENOMEM;
}

/*
 * Reads at most size-1 bytes from the start of dirfd/name into buf (NUL
 * added), for files perf reads one line of. Returns the byte count, -EINVAL
 * when it is not a regular file, or the -errno of reading it.
 */
static ssize_t read_head(int dirfd, const char *name, char *buf, size_t size)
{
	struct stat st;
	size_t len = 0;
	int fd;

	/* O_NONBLOCK: a FIFO must not hang us (perf would block forever). */
	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	while (len < size - 1) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return (ssize_t)len;
}

/* Every file in format/ must parse, or perf's pmu_lookup gives up on the PMU. */
static bool pmu__formats_ok(int pmufd)
{
	struct dirent *de;
	bool ok = true;
	DIR *dir;

	if (!pmu_dir__has(pmufd, "format"))
		return true;
	dir = fsread__opendir(pmufd, "format");
	if (!dir)
		return false;
	while (ok && (de = readdir(dir))) {
		size_t len;
		char *buf;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fsread__file(dirfd(dir), de->d_name, &buf, &len)) {
			ok = false;
			break;
		}
		ok = pmu_format__valid(buf, len);
		free(buf);
	}
	closedir(dir);
	return ok;
}

/* perf parses events/ when it exists; one it cannot open drops the PMU. */
static bool pmu__events_ok(int pmufd)
{
	int fd;

	if (!pmu_dir__has(pmufd, "events"))
		return true;
	fd = openat(pmufd, "events", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static void pmu__clear(struct sysinfo_pmu *p)
{
	for (uint32_t i = 0; i < p->nr_caps; i++) {
		free(p->caps[i].name);
		free(p->caps[i].value);
	}
	free(p->caps);
	free(p->name);
	free(p->cpus);
	memset(p, 0, sizeof(*p));
}

/* caps/ in readdir order; a file perf's fgets gets no line from is left out. */
static int pmu__read_caps(int pmufd, struct sysinfo_pmu *p)
{
	size_t alloc = 0;
	struct dirent *de;
	int err = 0;
	DIR *dir;

	if (!pmu_dir__has(pmufd, "caps"))
		return 0;
	dir = fsread__opendir(pmufd, "caps");
	if (!dir) {
		/* perf's opendir fails: -EINVAL, which drops CPU_PMU_CAPS. */
		p->caps_unreadable = true;
		return errno == ENOMEM ? -ENOMEM : 0;
	}
	while ((de = readdir(dir))) {
		char line[PMU_CAP_LINE_MAX];
		struct sysinfo_pmu_cap cap;
		ssize_t n;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		n = read_head(dirfd(dir), de->d_name, line, sizeof(line));
		if (n < 0)
			continue;
		err = pmu_cap__value(line, (size_t)n, &cap.value);
		if (err == -ENODATA) {
			err = 0;
			continue;
		}
		if (err)
			break;
		cap.name = strdup(de->d_name);
		if (!cap.name) {
			free(cap.value);
			err = -ENOMEM;
			break;
		}
		/* nr_caps counts them in a uint32_t. */
		err = GROW(&p->caps, &alloc, (size_t)p->nr_caps + 1, UINT32_MAX);
		if (err) {
			free(cap.name);
			free(cap.value);
			break;
		}
		p->caps[p->nr_caps++] = cap;
	}
	closedir(dir);
	return err;
}

/*
 * perf 6.1's pmu_lookup for one directory entry. Returns 0 with *p filled, 1
 * when perf would not list it, or -ENOMEM.
 */
static int pmu__read(int devfd, const char *name, struct sysinfo_pmu *p)
{
	int pmufd, err;

	memset(p, 0, sizeof(*p));
	pmufd = openat(devfd, name, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (pmufd < 0)
		return 1;

	/* A cpu_* PMU is real only with a cpus file that scans as "%u". */
	if (!strncmp(name, "cpu_", 4)) {
		err = pmu_dir__hybrid_cpus(pmufd, name, &p->cpus);
		if (err)
			goto out;
	}

	err = 1;
	if (!pmu__formats_ok(pmufd))
		goto out;
	if (pmu_dir__type(pmufd, &p->type))
		goto out;
	if (!pmu__events_ok(pmufd))
		goto out;

	err = -ENOMEM;
	p->name = strdup(name);
	if (!p->name)
		goto out;
	err = pmu__read_caps(pmufd, p);
out:
	close(pmufd);
	if (err)
		pmu__clear(p);
	return err;
}

/* The PMUs' half of sysinfo__free_cache_pmu (si must not be NULL). */
static void sysinfo__free_pmus(struct sysinfo *si)
{
	for (uint32_t i = 0; i < si->nr_pmus; i++)
		pmu__clear(&si->pmus[i]);
	free(si->pmus);
	si->pmus = NULL;
	si->nr_pmus = 0;
}

int sysinfo__read_pmus(struct sysinfo *si, int rootfd)
{
	struct sysinfo_pmu *pmus = NULL;
	uint32_t nr = 0;
	size_t alloc = 0;
	struct dirent *de;
	int err = 0;
	DIR *dir;

	si->pmus = NULL;
	si->nr_pmus = 0;
	dir = fsread__opendir(rootfd, "sys/bus/event_source/devices");
	if (!dir)
		return errno == ENOMEM ? -ENOMEM : 0;
	while ((de = readdir(dir))) {
		struct sysinfo_pmu p;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		err = pmu__read(dirfd(dir), de->d_name, &p);
		if (err == 1) {
			err = 0;
			continue;
		}
		if (err)
			break;
		/* nr_pmus counts them in a uint32_t. */
		err = grow__array(&pmus, &alloc, (size_t)nr + 1, sizeof(*pmus), 16, UINT32_MAX);
		if (err) {
			pmu__clear(&p);
			break;
		}
		pmus[nr++] = p;
	}
	closedir(dir);
	si->pmus = pmus;
	si->nr_pmus = nr;
	if (err)
		sysinfo__free_pmus(si);
	return err;
}

static bool arch__is_x86(const char *arch)
{
	return !strcmp(arch, "x86_64") || !strcmp(arch, "x86") ||
	       (arch[0] == 'i' && arch[1] >= '3' && arch[1] <= '6' && !strcmp(arch + 2, "86"));
}

static bool arch__is_arm(const char *arch)
{
	return !strncmp(arch, "arm", 3) || !strncmp(arch, "aarch64", 7);
}

/* N of "arm_spe_N", or -1 for any other name. */
static long arm_spe__index(const char *name, uint32_t nr_cpus)
{
	static const char prefix[] = "arm_spe_";
	const char *p = name + sizeof(prefix) - 1;
	long n = 0;

	if (strncmp(name, prefix, sizeof(prefix) - 1) || !is_digit(*p))
		return -1;
	for (; *p; p++) {
		if (!is_digit(*p) || n > 100000000)
			return -1;
		n = n * 10 + (*p - '0');
	}
	/* perf probes arm_spe_0 .. arm_spe_<nr cpus - 1> by name; others come with the scan. */
	if (nr_cpus && (unsigned long)n >= nr_cpus)
		return -1;
	return n;
}

/* Moves pmus[i] (i > *front) to position *front, shifting the ones between. */
static void pmus__move(struct sysinfo_pmu *pmus, uint32_t i, uint32_t *front)
{
	struct sysinfo_pmu p = pmus[i];

	memmove(&pmus[*front + 1], &pmus[*front], (i - *front) * sizeof(*pmus));
	pmus[(*front)++] = p;
}

static void pmus__name_to_front(struct sysinfo *si, const char *name, uint32_t *front)
{
	for (uint32_t i = *front; i < si->nr_pmus; i++)
		if (!strcmp(si->pmus[i].name, name)) {
			pmus__move(si->pmus, i, front);
			return;
		}
}

void sysinfo__pmus_perf_record_order(struct sysinfo *si)
{
	uint32_t front = 0;

	if (arch__is_x86(si->arch)) {
		/* auxtrace_record__init asks get_cpuid() first and looks the
		 * two up only on Intel; elsewhere nothing is found by name. */
		if (!si->cpuid || strncmp(si->cpuid, "GenuineIntel,", 13))
			return;
		pmus__name_to_front(si, "intel_pt", &front);
		pmus__name_to_front(si, "intel_bts", &front);
	} else if (arch__is_arm(si->arch)) {
		pmus__name_to_front(si, "cs_etm", &front);
		/* arm_spe_N in N order: a selection sort over the few there are. */
		for (;;) {
			long best = -1;
			uint32_t at = 0;

			for (uint32_t i = front; i < si->nr_pmus; i++) {
				long n = arm_spe__index(si->pmus[i].name, si->nr_cpus_avail);

				if (n >= 0 && (best < 0 || n < best)) {
					best = n;
					at = i;
				}
			}
			if (best < 0)
				break;
			pmus__move(si->pmus, at, &front);
		}
		for (uint32_t i = front; i < si->nr_pmus; i++)
			if (strstr(si->pmus[i].name, "hisi_ptt"))
				pmus__move(si->pmus, i, &front);
	}
}

void sysinfo__free_cache_pmu(struct sysinfo *si)
{
	if (!si)
		return;
	sysinfo__free_caches(si);
	sysinfo__free_pmus(si);
}
