/* SPDX-License-Identifier: MIT */
#ifndef DL_PLOT_CSV_H
#define DL_PLOT_CSV_H

#include "results/jsonread.h"

/* A study's --csv output `text` (from `file`) as the tree of its --json
 * into *doc (free with dl_jv_free); -1 after one message. */
int plot_csv_read(const char *text, const char *file, struct dl_jv *doc);

#endif
