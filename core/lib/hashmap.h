/* SPDX-License-Identifier: MIT */
/*
 * Open-addressing table from non-zero 64-bit keys to int: the part that
 * strmap (keys: pointers to strings) and pairmap (keys: two indices)
 * share.  What a key hashes to, and when two keys are the same, come with
 * each call (struct dl_hashkey).
 */
#ifndef DL_HASHMAP_H
#define DL_HASHMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dl_hashmap {
	uint64_t *keys;		/* 0 marks an empty slot */
	int *vals;
	size_t cap, len;
};

struct dl_hashkey {
	uint64_t (*hash)(uint64_t key);
	bool (*same)(uint64_t a, uint64_t b);	/* NULL: the same number */
};

void dl_hashmap_init(struct dl_hashmap *m);
void dl_hashmap_free(struct dl_hashmap *m);
/* key != 0.  0 on success, -1 out of memory.  Replaces an existing value. */
int dl_hashmap_put(struct dl_hashmap *m, const struct dl_hashkey *k, uint64_t key, int val);
/* The value, or -1 when absent. */
int dl_hashmap_get(const struct dl_hashmap *m, const struct dl_hashkey *k, uint64_t key);
/* A 64-bit mix of the bits of k (murmur3's finalizer). */
uint64_t dl_hash64(uint64_t k);

#endif
