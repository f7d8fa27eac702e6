/* SPDX-License-Identifier: MIT */
/*
 * Where dlasim's shipped data (workloads/, platforms/) are: beside the
 * build directory in the source tree (<exe dir>/../NAME), or in the install
 * tree (<exe dir>/../share/dlasim/NAME).
 */
#ifndef DL_DATADIR_H
#define DL_DATADIR_H

#include <stddef.h>

/* Write the first of those directories that exists into buf (the source
 * tree's when neither does); returns buf. */
const char *dl_data_dir(const char *name, char *buf, size_t len);

/*
 * A file or directory option such as --platform dc-8: `name` itself when
 * it exists or holds a '/'; else the shipped one of that bare name,
 * DIR/name or DIR/name followed by one of `exts` (NULL-terminated, e.g.
 * ".xml"), DIR being dl_data_dir(kind) and its subfolders one level down
 * (workloads/tm/gpt3.tm is "gpt3").  When nothing matches, `name`
 * unchanged, for the caller's usual "no such file".  Uses buf.
 */
const char *dl_data_find(const char *kind, const char *name, const char *const *exts,
			 char *buf, size_t len);

/* The extensions of shipped platforms and workloads. */
extern const char *const dl_platform_exts[];
extern const char *const dl_workload_exts[];

#endif
