/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "memfile.h"

#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

int dl_memory_file(const char *name, const void *data, size_t len, char *path, size_t size)
{
	int fd = memfd_create(name, MFD_CLOEXEC);
	size_t done = 0;

	if (fd < 0)
		return -1;
	while (done < len) {
		ssize_t n = write(fd, (const char *)data + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto fail;
		done += (size_t)n;
	}
	snprintf(path, size, "/proc/self/fd/%d", fd);
	if (access(path, R_OK) != 0)
		goto fail;
	return fd;
fail:
	close(fd);
	return -1;
}
