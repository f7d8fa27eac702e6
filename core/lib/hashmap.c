/* SPDX-License-Identifier: MIT */
#include "hashmap.h"

#include <stdlib.h>
#include <string.h>

uint64_t dl_hash64(uint64_t k)
{
	k ^= k >> 33;		/* murmur3's 64-bit finalizer */
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ull;
	k ^= k >> 33;
	return k;
}

void dl_hashmap_init(struct dl_hashmap *m)
{
	memset(m, 0, sizeof(*m));
}

void dl_hashmap_free(struct dl_hashmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

static inline bool same(const struct dl_hashkey *k, uint64_t a, uint64_t b)
{
	return k->same ? k->same(a, b) : a == b;
}

/* The key's slot, or the empty slot where it would go. */
static size_t slot(const struct dl_hashmap *m, const struct dl_hashkey *k, uint64_t key)
{
	size_t i = (size_t)k->hash(key) & (m->cap - 1);

	while (m->keys[i] && !same(k, m->keys[i], key))
		i = (i + 1) & (m->cap - 1);
	return i;
}

static int grow(struct dl_hashmap *m, const struct dl_hashkey *k)
{
	struct dl_hashmap bigger = { .cap = m->cap ? 2 * m->cap : 64 };

	bigger.keys = calloc(bigger.cap, sizeof(*bigger.keys));
	bigger.vals = calloc(bigger.cap, sizeof(*bigger.vals));
	if (!bigger.keys || !bigger.vals) {
		free(bigger.keys);
		free(bigger.vals);
		return -1;
	}
	for (size_t i = 0; i < m->cap; i++) {
		if (m->keys[i]) {
			size_t j = slot(&bigger, k, m->keys[i]);

			bigger.keys[j] = m->keys[i];
			bigger.vals[j] = m->vals[i];
			bigger.len++;
		}
	}
	dl_hashmap_free(m);
	*m = bigger;
	return 0;
}

int dl_hashmap_put(struct dl_hashmap *m, const struct dl_hashkey *k, uint64_t key, int val)
{
	size_t i;

	/* At most half full, so that a probe ends soon at an empty slot. */
	if ((m->len + 1) * 2 > m->cap && grow(m, k) != 0)
		return -1;
	i = slot(m, k, key);
	if (!m->keys[i]) {
		m->keys[i] = key;
		m->len++;
	}
	m->vals[i] = val;
	return 0;
}

int dl_hashmap_get(const struct dl_hashmap *m, const struct dl_hashkey *k, uint64_t key)
{
	size_t i;

	if (!m->cap)
		return -1;
	i = slot(m, k, key);
	return m->keys[i] ? m->vals[i] : -1;
}
