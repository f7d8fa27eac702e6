/* SPDX-License-Identifier: MIT */
/* String -> int map (open addressing); keys are borrowed, not copied. */
#ifndef DL_STRMAP_H
#define DL_STRMAP_H

#include <stddef.h>

struct dl_strmap {
	const char **keys;
	int *vals;
	size_t cap, len;
};

void dl_strmap_init(struct dl_strmap *m);
void dl_strmap_free(struct dl_strmap *m);
/* 0 on success, -1 out of memory.  Replaces an existing value. */
int dl_strmap_put(struct dl_strmap *m, const char *key, int val);
/* The value, or -1 when absent. */
int dl_strmap_get(const struct dl_strmap *m, const char *key);

#endif
