/* SPDX-License-Identifier: MIT */
/* String -> int map; keys are borrowed, not copied. */
#ifndef DL_STRMAP_H
#define DL_STRMAP_H

#include "hashmap.h"

struct dl_strmap {
	struct dl_hashmap map;	/* keys: the strings' addresses */
};

void dl_strmap_init(struct dl_strmap *m);
void dl_strmap_free(struct dl_strmap *m);
/* 0 on success, -1 out of memory.  Replaces an existing value. */
int dl_strmap_put(struct dl_strmap *m, const char *key, int val);
/* The value, or -1 when absent. */
int dl_strmap_get(const struct dl_strmap *m, const char *key);

/* The index of `key` in the n strings of `list` (a short list, read
 * linearly), or -1 when absent or key is NULL. */
int dl_str_index(const char *const *list, int n, const char *key);

#endif
