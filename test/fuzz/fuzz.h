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
#include <unistd.h>

#include "machine/memfile.h"

/* Write data[size] to a fresh memfd; its path in path[len]; returns the
 * fd to close after the reader, or -1. */
static inline int fuzz_file(const uint8_t *data, size_t size, char *path, size_t len)
{
	return dl_memory_file("dlasim-fuzz", data, size, path, len);
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
