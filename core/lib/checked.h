/* SPDX-License-Identifier: MIT */
/*
 * A stream on `fd` (closed with it) that keeps in *err the errno of its
 * first write or close that failed: stdio forgets it by the next call,
 * and a full disk would be reported as "Input/output error".  *err must
 * outlive the stream.  NULL out of memory.  The writers of results
 * (results/outfile.h) and standard output (args.c) are such streams.
 */
#ifndef DL_CHECKED_H
#define DL_CHECKED_H

#include <stdio.h>

FILE *dl_checked_fdopen(int fd, int *err);

#endif
