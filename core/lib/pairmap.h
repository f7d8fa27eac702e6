/* SPDX-License-Identifier: MIT */
/* (int, int) -> int map, for tables keyed by two indices such as the
 * routes of a platform (source, destination). */
#ifndef DL_PAIRMAP_H
#define DL_PAIRMAP_H

#include "hashmap.h"

struct dl_pairmap {
	struct dl_hashmap map;	/* keys: (a << 32 | b) + 1 */
};

void dl_pairmap_init(struct dl_pairmap *m);
void dl_pairmap_free(struct dl_pairmap *m);
/* a, b >= 0.  0 on success, -1 out of memory.  Replaces an existing value. */
int dl_pairmap_put(struct dl_pairmap *m, int a, int b, int val);
/* The value, or -1 when absent. */
int dl_pairmap_get(const struct dl_pairmap *m, int a, int b);

#endif
