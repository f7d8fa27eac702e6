/* SPDX-License-Identifier: MIT */
#include "strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

void dl_strmap_init(struct dl_strmap *m)
{
	memset(m, 0, sizeof(*m));
}

void dl_strmap_free(struct dl_strmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

static size_t slot(const struct dl_strmap *m, const char *key)
{
	size_t i = hash(key) & (m->cap - 1);

	while (m->keys[i] && strcmp(m->keys[i], key) != 0)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static int grow(struct dl_strmap *m)
{
	struct dl_strmap bigger = { .cap = m->cap ? 2 * m->cap : 64 };

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
	dl_strmap_free(m);
	*m = bigger;
	return 0;
}

int dl_strmap_put(struct dl_strmap *m, const char *key, int val)
{
	size_t i;

	if ((m->len + 1) * 2 > m->cap && grow(m) != 0)
		return -1;
	i = slot(m, key);
	if (!m->keys[i]) {
		m->keys[i] = key;
		m->len++;
	}
	m->vals[i] = val;
	return 0;
}

int dl_strmap_get(const struct dl_strmap *m, const char *key)
{
	size_t i;

	if (!m->cap)
		return -1;
	i = slot(m, key);
	return m->keys[i] ? m->vals[i] : -1;
}
