// SPDX-License-Identifier: GPL-2.0-only
/*
 * What an output path's place says about a failure (output_fs.h): a
 * kernel filesystem by its statfs magic, and a lock's holder in
 * /proc/locks.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>

#include "output/output_fs.h"

/* The kernel's filesystems that hold no regular files one could record
 * into (linux/magic.h's numbers, which are ABI). */
static const struct {
	unsigned long magic;
	const char *name;
} pseudo_fs[] = {
	{ 0x9fa0, "proc" },	      { 0x62656572, "sysfs" },	     { 0x27e0eb, "cgroup" },
	{ 0x63677270, "cgroup2" },    { 0x64626720, "debugfs" },     { 0x74726163, "tracefs" },
	{ 0x73636673, "securityfs" }, { 0xcafe4a11, "bpf" },	     { 0x6165676c, "pstore" },
	{ 0xde5e81e4, "efivarfs" },   { 0x42494e4d, "binfmt_misc" }, { 0x1cd1, "devpts" },
	{ 0x50495045, "pipefs" },     { 0x534f434b, "sockfs" },	     { 0x6e736673, "nsfs" },
	{ 0xf97cff8c, "selinuxfs" },  { 0x2bad1dea, "inotifyfs" },
};

const char *output_fs__pseudo(const char *path)
{
	struct statfs sfs;

	if (statfs(path, &sfs))
		return NULL;
	for (size_t i = 0; i < sizeof(pseudo_fs) / sizeof(pseudo_fs[0]); i++)
		if ((unsigned long)sfs.f_type == pseudo_fs[i].magic)
			return pseudo_fs[i].name;
	return NULL;
}

pid_t output_fs__lock_holder(const char *locks, dev_t dev, ino_t ino)
{
	const char *line = locks;

	/* "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"; a waiter's line
	 * has "->" after its number and never holds the lock. */
	while (line && *line) {
		char kind[16], type[16], mode[16];
		unsigned int maj, min;
		unsigned long long inode;
		long pid;

		if (sscanf(line, "%*d: %15s %15s %15s %ld %x:%x:%llu", kind, type, mode, &pid, &maj,
			   &min, &inode) == 7 &&
		    !strcmp(kind, "FLOCK") && maj == major(dev) && min == minor(dev) &&
		    inode == (unsigned long long)ino && pid > 0)
			return (pid_t)pid;
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return 0;
}

pid_t output_fs__holder(dev_t dev, ino_t ino)
{
	FILE *f = fopen("/proc/locks", "re");
	char *line = NULL;
	size_t cap = 0;
	pid_t pid = 0;

	if (!f)
		return 0;
	while (!pid && getline(&line, &cap, f) > 0)
		pid = output_fs__lock_holder(line, dev, ino);
	free(line);
	fclose(f);
	return pid;
}
