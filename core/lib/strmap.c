/* SPDX-License-Identifier: MIT */
#include "strmap.h"

#include <string.h>

static const char *str(uint64_t key)
{
	return (const char *)(uintptr_t)key;
}

static uint64_t hash(uint64_t key)
{
	const char *s = str(key);
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static bool same(uint64_t a, uint64_t b)
{
	return strcmp(str(a), str(b)) == 0;
}

static const struct dl_hashkey strings = { hash, same };

void dl_strmap_init(struct dl_strmap *m)
{
	dl_hashmap_init(&m->map);
}

void dl_strmap_free(struct dl_strmap *m)
{
	dl_hashmap_free(&m->map);
}

int dl_strmap_put(struct dl_strmap *m, const char *key, int val)
{
	return dl_hashmap_put(&m->map, &strings, (uintptr_t)key, val);
}

int dl_strmap_get(const struct dl_strmap *m, const char *key)
{
	return dl_hashmap_get(&m->map, &strings, (uintptr_t)key);
}

int dl_str_index(const char *const *list, int n, const char *key)
{
	for (int i = 0; key && i < n; i++)
		if (strcmp(list[i], key) == 0)
			return i;
	return -1;
}
