// SPDX-License-Identifier: GPL-2.0-only
/* The main loop's wake-up eventfd (wake.h). */
#include <errno.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "drain/wake.h"

int wake__init(struct wake *w)
{
	w->fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	return w->fd < 0 ? -errno : 0;
}

void wake__poke(struct wake *w)
{
	uint64_t one = 1;

	/* EAGAIN: the counter is full, so the loop is woken anyway. */
	if (w && w->fd >= 0 && write(w->fd, &one, sizeof(one)) < 0)
		return;
}

bool wake__clear(struct wake *w)
{
	uint64_t n = 0;

	return w->fd >= 0 && read(w->fd, &n, sizeof(n)) == sizeof(n) && n;
}

void wake__exit(struct wake *w)
{
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
}
