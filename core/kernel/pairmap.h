/* SPDX-License-Identifier: MIT */
/* (int, int) -> int map (open addressing), for tables keyed by two indices
 * such as the routes of a platform (source, destination). */
#ifndef DL_PAIRMAP_H
#define DL_PAIRMAP_H

#include <stddef.h>
#include <stdint.h>

struct dl_pairmap {
	uint64_t *keys;		/* (a << 32 | b) + 1; 0 marks an empty slot */
	int *vals;
	size_t cap, len;
};

void dl_pairmap_init(struct dl_pairmap *m);
void dl_pairmap_free(struct dl_pairmap *m);
/* a, b >= 0.  0 on success, -1 out of memory.  Replaces an existing value. */
int dl_pairmap_put(struct dl_pairmap *m, int a, int b, int val);
/* The value, or -1 when absent. */
int dl_pairmap_get(const struct dl_pairmap *m, int a, int b);
/* The hash of the keys, for tables keyed by more than two indices. */
uint64_t dl_hash64(uint64_t k);

#endif
