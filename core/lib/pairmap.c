/* SPDX-License-Identifier: MIT */
#include "pairmap.h"

/* Never 0, which marks an empty slot. */
static uint64_t key_of(int a, int b)
{
	return ((uint64_t)(uint32_t)a << 32 | (uint32_t)b) + 1;
}

static const struct dl_hashkey pairs = { dl_hash64, NULL };

void dl_pairmap_init(struct dl_pairmap *m)
{
	dl_hashmap_init(&m->map);
}

void dl_pairmap_free(struct dl_pairmap *m)
{
	dl_hashmap_free(&m->map);
}

int dl_pairmap_put(struct dl_pairmap *m, int a, int b, int val)
{
	return dl_hashmap_put(&m->map, &pairs, key_of(a, b), val);
}

int dl_pairmap_get(const struct dl_pairmap *m, int a, int b)
{
	return dl_hashmap_get(&m->map, &pairs, key_of(a, b));
}
