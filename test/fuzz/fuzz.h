/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the libFuzzer targets (docs/fuzzing.md).  The readers take a
 * file name, so the input goes into an anonymous in-memory file and the
 * reader opens /proc/self/fd/N: a regular file, like the ones users give.
 */
#ifndef DL_FUZZ_H
#define DL_FUZZ_H

#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Write data[size] to a fresh memfd; its path in path[len]; returns the
 * fd to close after the reader, or -1. */
static inline int fuzz_file(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("dlasim-fuzz", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

/* data[size] as a NUL-terminated string (malloc'd); embedded NULs end it. */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}

#endif
