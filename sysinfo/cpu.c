// SPDX-License-Identifier: GPL-2.0-only
/*
 * CPU counts, CPUDESC and CPUID, byte for byte as perf 6.1 writes them, and
 * the one reader of the online CPU list (sysinfo__cpus_online, cpu__online).
 * perf decides by the architecture it was built for; we decide by the arch
 * string we read, so a fixture of another machine comes out as perf on that
 * machine would have written it.
 */
#define _GNU_SOURCE /* asprintf */
#include "sysinfo_int.h"
#include "fsread.h"

#include <prec/sysinfo.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The online CPUs: every reader of them comes through this file. */
#define CPU_ONLINE "sys/devices/system/cpu/online"

static bool has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* perf's x86 get_cpuid covers 32- and 64-bit builds alike. */
static bool arch__is_x86(const char *arch)
{
	return !strcmp(arch, "x86_64") || !strcmp(arch, "x86") || !strcmp(arch, "i386") ||
	       !strcmp(arch, "i486") || !strcmp(arch, "i586") || !strcmp(arch, "i686");
}

static bool arch__is_arm64(const char *arch)
{
	return !strcmp(arch, "aarch64") || !strcmp(arch, "aarch64_be") || !strcmp(arch, "arm64");
}

const char *const *cpudesc__keys(const char *arch)
{
	/* The CPUINFO_PROC table of perf 6.1's write_cpudesc, keyed by uname machine. */
	static const char *const cpu[] = { "cpu", NULL };
	static const char *const s390[] = { "vendor_id", NULL };
	static const char *const sh[] = { "cpu type", NULL };
	static const char *const cpu_model[] = { "cpu model", NULL };
	static const char *const arm[] = { "model name", "Processor", NULL };
	static const char *const arc[] = { "Processor", NULL };
	static const char *const xtensa[] = { "core ID", NULL };
	/* Everything else, x86 and aarch64 included. */
	static const char *const dflt[] = { "model name", NULL };

	if (!arch)
		return dflt;
	if (has_prefix(arch, "ppc") || has_prefix(arch, "parisc") || has_prefix(arch, "sparc"))
		return cpu;
	if (has_prefix(arch, "s390"))
		return s390;
	if (has_prefix(arch, "sh"))
		return sh;
	if (has_prefix(arch, "alpha") || has_prefix(arch, "mips"))
		return cpu_model;
	/* 32-bit ARM reports armv7l and friends; "arm64" is aarch64's other name. */
	if (has_prefix(arch, "arm") && strcmp(arch, "arm64"))
		return arm;
	if (!strcmp(arch, "arc") || has_prefix(arch, "arcv"))
		return arc;
	if (!strcmp(arch, "xtensa"))
		return xtensa;
	return dflt;
}

int cpuinfo__find(const char *buf, size_t len, const char *key, bool first_block, const char **val,
		  size_t *vlen)
{
	size_t klen = strlen(key);
	const char *p = buf, *end = buf + len;
	bool in_block = false;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *colon, *k_end, *v, *v_end;
		bool blank = true;

		if (!eol)
			eol = end;
		for (const char *q = p; q < eol; q++)
			if (!text__is_blank(*q)) {
				blank = false;
				break;
			}
		if (blank) {
			if (first_block && in_block)
				break;
			p = eol + 1;
			continue;
		}
		in_block = true;
		colon = memchr(p, ':', (size_t)(eol - p));
		if (colon) {
			k_end = colon;
			while (k_end > p && text__is_blank(k_end[-1]))
				k_end--;
			if ((size_t)(k_end - p) == klen && !memcmp(p, key, klen)) {
				v = colon + 1;
				v_end = eol;
				while (v < v_end && text__is_blank(*v))
					v++;
				while (v_end > v && text__is_blank(v_end[-1]))
					v_end--;
				*val = v;
				*vlen = (size_t)(v_end - v);
				return 0;
			}
		}
		p = eol + 1;
	}
	return -ENOENT;
}

int cpuinfo__cpudesc(const char *buf, size_t len, const char *arch, char **desc)
{
	const char *const *keys = cpudesc__keys(arch);
	const char *v;
	size_t vlen, n = 0;
	char *out;

	*desc = NULL;
	for (; *keys; keys++)
		if (!cpuinfo__find(buf, len, *keys, false, &v, &vlen) && vlen)
			break;
	if (!*keys)
		return -ENOENT;
	if (memchr(v, '\0', vlen))
		return -ENOENT;
	out = malloc(vlen + 1);
	if (!out)
		return -ENOMEM;
	/*
	 * perf squashes every whitespace run to one space (Intel brand strings
	 * come padded); the ends are already trimmed, as the kernel trims x86's.
	 */
	for (size_t i = 0; i < vlen; i++) {
		if (text__is_blank(v[i])) {
			if (n && out[n - 1] == ' ')
				continue;
			out[n++] = ' ';
		} else {
			out[n++] = v[i];
		}
	}
	out[n] = '\0';
	*desc = out;
	return 0;
}

/* A cpuinfo value that must be a decimal number that fits perf's %u. */
static int cpuinfo__u32(const char *buf, size_t len, const char *key, uint32_t *out)
{
	const char *v;
	size_t vlen;
	uint64_t n;
	int err;

	err = cpuinfo__find(buf, len, key, true, &v, &vlen);
	if (err)
		return err;
	err = u64__parse(v, vlen, 10, &n);
	if (err)
		return err;
	if (n > UINT32_MAX)
		return -ERANGE;
	*out = (uint32_t)n;
	return 0;
}

int cpuinfo__x86_cpuid(const char *buf, size_t len, char **cpuid)
{
	uint32_t family, model, stepping;
	const char *vendor;
	size_t vlen;
	int err, n;

	*cpuid = NULL;
	err = cpuinfo__find(buf, len, "vendor_id", true, &vendor, &vlen);
	if (err)
		return err;
	/* cpuid leaf 0 gives 12 bytes; anything longer, blank or binary is not a vendor. */
	if (!vlen || vlen > 12 || memchr(vendor, '\0', vlen))
		return -EINVAL;
	for (size_t i = 0; i < vlen; i++)
		if (text__is_blank(vendor[i]) || vendor[i] == ',')
			return -EINVAL;
	err = cpuinfo__u32(buf, len, "cpu family", &family);
	if (!err)
		err = cpuinfo__u32(buf, len, "model", &model);
	if (!err)
		err = cpuinfo__u32(buf, len, "stepping", &stepping);
	if (err)
		return err;
	n = asprintf(cpuid, "%.*s,%" PRIu32 ",%" PRIu32 ",%" PRIu32, (int)vlen, vendor, family,
		     model, stepping);
	if (n < 0) {
		*cpuid = NULL;
		return -ENOMEM;
	}
	return 0;
}

int midr__cpuid(uint64_t midr, char **cpuid)
{
	/* Variant and revision differ between steppings of one core; perf's tables key on the rest. */
	const uint64_t variant = UINT64_C(0xf) << 20, revision = 0xf;

	*cpuid = NULL;
	midr &= ~(variant | revision);
	if (!midr)
		return -EINVAL;
	if (asprintf(cpuid, "0x%016" PRIx64, midr) < 0) {
		*cpuid = NULL;
		return -ENOMEM;
	}
	return 0;
}

/*
 * perf 6.1 reads MIDR_EL1 of the first online CPU whose sysfs file it can
 * read. We skip garbled files too; a fixture may lack the online list, so the
 * present list stands in for it.
 */
static int cpu__arm64_cpuid(int rootfd, const struct cpulist *cpus, char **cpuid)
{
	char path[96];
	uint64_t midr;

	*cpuid = NULL;
	for (int c = cpulist__next(cpus, 0); c >= 0; c = cpulist__next(cpus, (uint32_t)c + 1)) {
		snprintf(path, sizeof(path),
			 "sys/devices/system/cpu/cpu%d/regs/identification/midr_el1", c);
		if (fsread__u64(rootfd, path, 16, &midr) == 0)
			return midr__cpuid(midr, cpuid);
	}
	return -ENOENT;
}

int cpu__online(int rootfd, struct cpulist *online)
{
	return fsread__cpulist(rootfd, CPU_ONLINE, online);
}

int sysinfo__cpus_online(char **text)
{
	int rootfd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	int err;

	*text = NULL;
	if (rootfd < 0)
		return -errno;
	err = fsread__first_line(rootfd, CPU_ONLINE, text);
	close(rootfd);
	return err;
}

int sysinfo__read_cpu(struct sysinfo *si, int rootfd)
{
	struct cpulist present, online;
	char *cpuinfo = NULL;
	size_t len = 0;
	int err = 0;

	if (!fsread__cpulist(rootfd, "sys/devices/system/cpu/present", &present))
		si->nr_cpus_avail = (uint32_t)cpulist__max(&present) + 1;
	if (!cpu__online(rootfd, &online))
		si->nr_cpus_online = cpulist__count(&online);

	if (!fsread__file(rootfd, "proc/cpuinfo", &cpuinfo, &len)) {
		if (cpuinfo__cpudesc(cpuinfo, len, si->arch, &si->cpudesc) == -ENOMEM)
			err = -ENOMEM;
		if (arch__is_x86(si->arch) &&
		    cpuinfo__x86_cpuid(cpuinfo, len, &si->cpuid) == -ENOMEM)
			err = -ENOMEM;
	}
	if (arch__is_arm64(si->arch) &&
	    cpu__arm64_cpuid(rootfd, online.bits ? &online : &present, &si->cpuid) == -ENOMEM)
		err = -ENOMEM;

	free(cpuinfo);
	cpulist__exit(&online);
	cpulist__exit(&present);
	return err;
}
