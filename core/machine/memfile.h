/* SPDX-License-Identifier: MIT */
/*
 * Bytes in an anonymous memory file that readers taking a file name can
 * open as /proc/self/fd/N, a regular file (SimGrid's platform loader; the
 * fuzz targets' readers).
 */
#ifndef DL_MEMFILE_H
#define DL_MEMFILE_H

#include <stddef.h>

/* A memory file named `name` holding data[0..len); its path in
 * path[0..size).  Its descriptor, to close once read, or -1 (no memory
 * file, a short write, no /proc), without a message. */
int dl_memory_file(const char *name, const void *data, size_t len, char *path, size_t size);

#endif
