// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostname, osrelease and arch: what perf takes from uname(2) for HOSTNAME,
 * OSRELEASE and ARCH. We read the /proc/sys/kernel copies so a fixture root
 * can stand in for another machine; on the live root uname(2) fills any gap
 * (proc/sys/kernel/arch is new in 6.1, and /proc may be mounted oddly).
 */
#include "sysinfo_int.h"
#include "fsread.h"

#include <prec/sysinfo.h>

#include <string.h>
#include <sys/utsname.h>

/* Fills dst from rootfd/path verbatim (first line, no newline); "" when unreadable. */
static bool uts__field(int rootfd, const char *path, char dst[SYSINFO_STR_MAX])
{
	/* "" is not a value any kernel prints; treat it as missing so uname can step in. */
	return fsread__line(rootfd, path, dst, SYSINFO_STR_MAX) == 0 && dst[0];
}

/* Copies a utsname field, which the kernel NUL-terminates within 65 bytes. */
static void uts__copy(char dst[SYSINFO_STR_MAX], const char *src)
{
	size_t n = strnlen(src, SYSINFO_STR_MAX - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

int sysinfo__read_uts(struct sysinfo *si, int rootfd, bool live)
{
	bool host, rel, arch;
	struct utsname u;

	host = uts__field(rootfd, "proc/sys/kernel/hostname", si->hostname);
	rel = uts__field(rootfd, "proc/sys/kernel/osrelease", si->osrelease);
	arch = uts__field(rootfd, "proc/sys/kernel/arch", si->arch);
	/* A fixture describes another machine: our own uname would be a lie there. */
	if (!live || (host && rel && arch))
		return 0;
	if (uname(&u) < 0)
		return 0;
	if (!host)
		uts__copy(si->hostname, u.nodename);
	if (!rel)
		uts__copy(si->osrelease, u.release);
	if (!arch)
		uts__copy(si->arch, u.machine);
	return 0;
}
