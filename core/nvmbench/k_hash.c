/* SPDX-License-Identifier: MIT */
/*
 * HashTable (section 4.5.1): insert a new key or delete a present one in a
 * persistent chained hash table (as PMDK's hashmap_tx example) of 131 072
 * buckets filled with 100 000 keys.  A new entry goes to the head of its
 * chain; the entry count sits in the table's header line.
 */
#include <stdio.h>

#include "kernels.h"

#define KEYS 100000
#define BUCKETS (1L << 17)

struct entry {
	long key, val;
	struct entry *next;
};

struct table {
	long count;
	long pad[7];			/* the header has its line */
	struct entry **bucket;
	struct kheap *heap;
	struct kpool pool;
};

static long hash(long key)
{
	return (long)(((unsigned long)key * 0x9e3779b97f4a7c15ul) >> 47);
}

static int hash_insert(struct table *t, struct krec *rec, long key)
{
	struct entry *e = kheap_alloc(t->heap, sizeof(*e));
	struct entry **b = &t->bucket[hash(key) & (BUCKETS - 1)];

	if (!e)
		return -1;
	KW(rec, e->key, key);
	KW(rec, e->val, key);
	KW(rec, e->next, KR(rec, *b));
	KW(rec, *b, e);
	KW(rec, t->count, KR(rec, t->count) + 1);
	return 0;
}

static void hash_delete(struct table *t, struct krec *rec, long key)
{
	struct entry **link = &t->bucket[hash(key) & (BUCKETS - 1)], *e;

	while ((e = KR(rec, *link)) && KR(rec, e->key) != key)
		link = &e->next;
	if (!e)
		return;
	KW(rec, *link, KR(rec, e->next));
	kheap_release(t->heap, e, sizeof(*e));
	KW(rec, t->count, KR(rec, t->count) - 1);
}

static bool hash_check(const void *root, char *why, size_t len)
{
	const struct table *t = root;
	long n = 0;

	for (long b = 0; b < BUCKETS; b++)
		for (const struct entry *e = t->bucket[b]; e; e = e->next, n++)
			if ((hash(e->key) & (BUCKETS - 1)) != b) {
				snprintf(why, len, "key %ld in bucket %ld", e->key, b);
				return false;
			}
	if (n != t->count || n != t->pool.n) {
		snprintf(why, len, "%ld entries, count %ld, the driver inserted %ld", n, t->count,
			 t->pool.n);
		return false;
	}
	return true;
}

static void *hash_setup(struct kheap *h, struct krng *r)
{
	struct table *t = kheap_array(h, sizeof(*t));

	if (!t || kpool_init(&t->pool, h, 2 * KEYS) ||
	    !(t->bucket = kheap_array(h, BUCKETS * sizeof(*t->bucket))))
		return NULL;
	t->heap = h;
	for (long i = 0; i < KEYS; i++) {
		long k = kpool_fresh(r);

		if (hash_insert(t, NULL, k))
			return NULL;
		kpool_add(&t->pool, k);
	}
	return t;
}

static int hash_tx(void *root, struct krec *rec, struct krng *r)
{
	struct table *t = root;

	if (kpool_insert_next(&t->pool, r)) {
		long k = kpool_fresh(r);

		if (hash_insert(t, rec, k))
			return -1;
		kpool_add(&t->pool, k);
		return 0;
	}
	hash_delete(t, rec, kpool_take(&t->pool, r));
	return 0;
}

const struct kernel_desc kernel_hash = {
	.name = "hashtable",
	.title = "HashTable",
	.heap_bytes = 16 << 20,
	.setup = hash_setup,
	.tx = hash_tx,
	.check = hash_check,
};
