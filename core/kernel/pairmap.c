/* SPDX-License-Identifier: MIT */
#include "pairmap.h"

#include <stdlib.h>
#include <string.h>

static uint64_t key_of(int a, int b)
{
	return ((uint64_t)(uint32_t)a << 32 | (uint32_t)b) + 1;
}

uint64_t dl_hash64(uint64_t k)
{
	k ^= k >> 33;		/* murmur3's 64-bit finalizer */
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ull;
	k ^= k >> 33;
	return k;
}

void dl_pairmap_init(struct dl_pairmap *m)
{
	memset(m, 0, sizeof(*m));
}

void dl_pairmap_free(struct dl_pairmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

static size_t slot(const struct dl_pairmap *m, uint64_t k)
{
	size_t i = (size_t)dl_hash64(k) & (m->cap - 1);

	while (m->keys[i] && m->keys[i] != k)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static int grow(struct dl_pairmap *m)
{
	struct dl_pairmap bigger = { .cap = m->cap ? 2 * m->cap : 64 };

	bigger.keys = calloc(bigger.cap, sizeof(*bigger.keys));
	bigger.vals = calloc(bigger.cap, sizeof(*bigger.vals));
	if (!bigger.keys || !bigger.vals) {
		free(bigger.keys);
		free(bigger.vals);
		return -1;
	}
	for (size_t i = 0; i < m->cap; i++) {
		if (m->keys[i]) {
			size_t j = slot(&bigger, m->keys[i]);

			bigger.keys[j] = m->keys[i];
			bigger.vals[j] = m->vals[i];
			bigger.len++;
		}
	}
	dl_pairmap_free(m);
	*m = bigger;
	return 0;
}

int dl_pairmap_put(struct dl_pairmap *m, int a, int b, int val)
{
	uint64_t k = key_of(a, b);
	size_t i;

	if ((m->len + 1) * 2 > m->cap && grow(m) != 0)
		return -1;
	i = slot(m, k);
	if (!m->keys[i]) {
		m->keys[i] = k;
		m->len++;
	}
	m->vals[i] = val;
	return 0;
}

int dl_pairmap_get(const struct dl_pairmap *m, int a, int b)
{
	size_t i;

	if (!m->cap)
		return -1;
	i = slot(m, key_of(a, b));
	return m->keys[i] ? m->vals[i] : -1;
}
