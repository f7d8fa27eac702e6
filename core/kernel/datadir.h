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

#endif
