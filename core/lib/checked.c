/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "checked.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

struct checked {
	int fd;
	int *err;
};

static ssize_t checked_write(void *cookie, const char *buf, size_t n)
{
	struct checked *c = cookie;
	size_t done = 0;

	while (done < n) {
		ssize_t w = write(c->fd, buf + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!*c->err)
				*c->err = w < 0 ? errno : EIO;
			return -1;
		}
		done += (size_t)w;
	}
	return (ssize_t)n;
}

static int checked_close(void *cookie)
{
	struct checked *c = cookie;
	int ret = close(c->fd);

	if (ret != 0 && !*c->err)
		*c->err = errno;
	free(c);
	return ret;
}

FILE *dl_checked_fdopen(int fd, int *err)
{
	static const cookie_io_functions_t io = { .write = checked_write, .close = checked_close };
	struct checked *c = malloc(sizeof(*c));
	FILE *f;

	if (!c)
		return NULL;
	c->fd = fd;
	c->err = err;
	*err = 0;
	f = fopencookie(c, "w", io);
	if (!f)
		free(c);
	return f;
}
