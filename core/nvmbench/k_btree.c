/* SPDX-License-Identifier: MIT */
/*
 * B-Tree (Tables 3.3 and 4.5.1): insert a new key or delete a present one
 * in a persistent B-tree of order 8 (seven 8-byte keys and values and
 * eight children per node, as PMDK's btree_map example), filled with
 * 100 000 keys.  Insertion splits full nodes on the way down and deletion
 * merges or borrows on the way down (Cormen et al., chapter 18), so one
 * pass touches each level once.
 */
#include <stdio.h>
#include <string.h>

#include "kernels.h"

#define T 4			/* minimum degree */
#define MAXK (2 * T - 1)
#define KEYS 100000

struct bnode {
	long n;
	long leaf;
	long key[MAXK];
	long val[MAXK];
	struct bnode *c[2 * T];
};

struct btree {
	struct bnode *root;
	struct kheap *heap;
	struct kpool pool;
};

/* Move `count` elements of `size` bytes from src to dst (overlap allowed). */
static void move(struct krec *rec, void *dst, const void *src, long count, size_t size)
{
	if (count <= 0)
		return;
	krec_read(rec, src, (size_t)count * size);
	krec_write(rec, dst, (size_t)count * size);
	memmove(dst, src, (size_t)count * size);
}

/* Item i of x (key, value) moves to slot j of y. */
static void move_item(struct krec *rec, struct bnode *y, long j, struct bnode *x, long i)
{
	KW(rec, y->key[j], KR(rec, x->key[i]));
	KW(rec, y->val[j], KR(rec, x->val[i]));
}

static struct bnode *new_node(struct btree *t, struct krec *rec, long leaf)
{
	struct bnode *x = kheap_alloc(t->heap, sizeof(*x));

	if (x) {
		KW(rec, x->leaf, leaf);
		KW(rec, x->n, 0);
	}
	return x;
}

/* ---- insertion ---- */

/* x->c[i] is full: split it around its median, which moves up into x. */
static int split_child(struct btree *t, struct krec *rec, struct bnode *x, long i)
{
	struct bnode *y = KR(rec, x->c[i]), *z = new_node(t, rec, KR(rec, y->leaf));
	long n = KR(rec, x->n);

	if (!z)
		return -1;
	move(rec, z->key, y->key + T, T - 1, sizeof(long));
	move(rec, z->val, y->val + T, T - 1, sizeof(long));
	if (!y->leaf)
		move(rec, z->c, y->c + T, T, sizeof(z->c[0]));
	KW(rec, z->n, T - 1);
	KW(rec, y->n, T - 1);
	move(rec, x->c + i + 2, x->c + i + 1, n - i, sizeof(x->c[0]));
	KW(rec, x->c[i + 1], z);
	move(rec, x->key + i + 1, x->key + i, n - i, sizeof(long));
	move(rec, x->val + i + 1, x->val + i, n - i, sizeof(long));
	move_item(rec, x, i, y, T - 1);
	KW(rec, x->n, n + 1);
	return 0;
}

static int insert_nonfull(struct btree *t, struct krec *rec, struct bnode *x, long k, long v)
{
	for (;;) {
		long i = KR(rec, x->n) - 1;

		if (KR(rec, x->leaf)) {
			long j = i;

			while (j >= 0 && KR(rec, x->key[j]) > k)
				j--;
			move(rec, x->key + j + 2, x->key + j + 1, i - j, sizeof(long));
			move(rec, x->val + j + 2, x->val + j + 1, i - j, sizeof(long));
			KW(rec, x->key[j + 1], k);
			KW(rec, x->val[j + 1], v);
			KW(rec, x->n, i + 2);
			return 0;
		}
		while (i >= 0 && KR(rec, x->key[i]) > k)
			i--;
		i++;
		if (KR(rec, x->c[i]->n) == MAXK) {
			if (split_child(t, rec, x, i))
				return -1;
			if (k > KR(rec, x->key[i]))
				i++;
		}
		x = KR(rec, x->c[i]);
	}
}

static int btree_insert(struct btree *t, struct krec *rec, long k, long v)
{
	struct bnode *r = KR(rec, t->root);

	if (KR(rec, r->n) == MAXK) {
		struct bnode *s = new_node(t, rec, 0);

		if (!s)
			return -1;
		KW(rec, s->c[0], r);
		KW(rec, t->root, s);
		if (split_child(t, rec, s, 0))
			return -1;
		r = s;
	}
	return insert_nonfull(t, rec, r, k, v);
}

/* ---- deletion ---- */

/* Remove item i and child i + 1 from x. */
static void remove_item(struct krec *rec, struct bnode *x, long i, bool with_child)
{
	long n = KR(rec, x->n);

	move(rec, x->key + i, x->key + i + 1, n - i - 1, sizeof(long));
	move(rec, x->val + i, x->val + i + 1, n - i - 1, sizeof(long));
	if (with_child)
		move(rec, x->c + i + 1, x->c + i + 2, n - i - 1, sizeof(x->c[0]));
	KW(rec, x->n, n - 1);
}

/* Merge x->c[i + 1] and item i of x into x->c[i]. */
static void merge(struct btree *t, struct krec *rec, struct bnode *x, long i)
{
	struct bnode *y = KR(rec, x->c[i]), *z = KR(rec, x->c[i + 1]);
	long yn = KR(rec, y->n), zn = KR(rec, z->n);

	move_item(rec, y, yn, x, i);
	move(rec, y->key + yn + 1, z->key, zn, sizeof(long));
	move(rec, y->val + yn + 1, z->val, zn, sizeof(long));
	if (!KR(rec, y->leaf))
		move(rec, y->c + yn + 1, z->c, zn + 1, sizeof(y->c[0]));
	KW(rec, y->n, yn + zn + 1);
	remove_item(rec, x, i, true);
	kheap_release(t->heap, z, sizeof(*z));
}

/* x->c[i] has T - 1 keys: give it one from a sibling through x, or merge
 * it with one.  Returns the child to descend into. */
static struct bnode *fill_child(struct btree *t, struct krec *rec, struct bnode *x, long i)
{
	long n = KR(rec, x->n);
	struct bnode *c = KR(rec, x->c[i]);
	long cn = KR(rec, c->n);

	if (i > 0 && KR(rec, x->c[i - 1]->n) >= T) {
		struct bnode *l = x->c[i - 1];
		long ln = l->n;

		move(rec, c->key + 1, c->key, cn, sizeof(long));
		move(rec, c->val + 1, c->val, cn, sizeof(long));
		if (!KR(rec, c->leaf))
			move(rec, c->c + 1, c->c, cn + 1, sizeof(c->c[0]));
		move_item(rec, c, 0, x, i - 1);
		if (!c->leaf)
			KW(rec, c->c[0], KR(rec, l->c[ln]));
		move_item(rec, x, i - 1, l, ln - 1);
		KW(rec, l->n, ln - 1);
		KW(rec, c->n, cn + 1);
		return c;
	}
	if (i < n && KR(rec, x->c[i + 1]->n) >= T) {
		struct bnode *r = x->c[i + 1];
		long rn = r->n;

		move_item(rec, c, cn, x, i);
		if (!KR(rec, c->leaf))
			KW(rec, c->c[cn + 1], KR(rec, r->c[0]));
		move_item(rec, x, i, r, 0);
		remove_item(rec, r, 0, false);
		if (!r->leaf)
			move(rec, r->c, r->c + 1, rn, sizeof(r->c[0]));
		KW(rec, c->n, cn + 1);
		return c;
	}
	if (i == n)
		i--;
	merge(t, rec, x, i);
	return KR(rec, x->c[i]);
}

static void btree_delete(struct btree *t, struct krec *rec, struct bnode *x, long k)
{
	for (;;) {
		long n = KR(rec, x->n), i = 0;

		while (i < n && KR(rec, x->key[i]) < k)
			i++;
		if (i < n && x->key[i] == k) {
			struct bnode *y, *z;

			if (KR(rec, x->leaf)) {
				remove_item(rec, x, i, false);
				return;
			}
			y = KR(rec, x->c[i]);
			z = KR(rec, x->c[i + 1]);
			if (KR(rec, y->n) >= T || KR(rec, z->n) >= T) {
				/* Replace k by its predecessor (or successor), then
				 * delete that one below. */
				bool pred = y->n >= T;
				struct bnode *w = pred ? y : z;

				while (!KR(rec, w->leaf))
					w = KR(rec, w->c[pred ? KR(rec, w->n) : 0]);
				k = KR(rec, w->key[pred ? w->n - 1 : 0]);
				KW(rec, x->key[i], k);
				KW(rec, x->val[i], KR(rec, w->val[pred ? w->n - 1 : 0]));
				x = pred ? y : z;
				continue;
			}
			merge(t, rec, x, i);
			x = y;
			continue;
		}
		if (KR(rec, x->leaf))
			return;		/* not present */
		x = KR(rec, x->c[i]->n) < T ? fill_child(t, rec, x, i) : x->c[i];
	}
}

static void btree_shrink(struct btree *t, struct krec *rec)
{
	struct bnode *r = KR(rec, t->root);

	if (KR(rec, r->n) == 0 && !KR(rec, r->leaf)) {
		KW(rec, t->root, KR(rec, r->c[0]));
		kheap_release(t->heap, r, sizeof(*r));
	}
}

/* ---- its invariants ---- */

struct bcheck {
	long keys, leaf_depth;
	long last;
	bool first;
	char *why;
	size_t len;
};

static bool bcheck_node(const struct bnode *x, long depth, bool root, struct bcheck *c)
{
	if (x->n > MAXK || (!root && x->n < T - 1)) {
		snprintf(c->why, c->len, "a node holds %ld keys", x->n);
		return false;
	}
	if (x->leaf && c->leaf_depth < 0)
		c->leaf_depth = depth;
	if (x->leaf && depth != c->leaf_depth) {
		snprintf(c->why, c->len, "leaves at depths %ld and %ld", c->leaf_depth, depth);
		return false;
	}
	for (long i = 0; i <= x->n; i++) {
		if (!x->leaf && !bcheck_node(x->c[i], depth + 1, false, c))
			return false;
		if (i == x->n)
			break;
		if (!c->first && x->key[i] <= c->last) {
			snprintf(c->why, c->len, "keys out of order");
			return false;
		}
		c->first = false;
		c->last = x->key[i];
		c->keys++;
	}
	return true;
}

static bool btree_check(const void *root, char *why, size_t len)
{
	const struct btree *t = root;
	struct bcheck c = { .leaf_depth = -1, .first = true, .why = why, .len = len };

	if (!bcheck_node(t->root, 0, true, &c))
		return false;
	if (c.keys != t->pool.n) {
		snprintf(why, len, "%ld keys, the driver inserted %ld", c.keys, t->pool.n);
		return false;
	}
	return true;
}

/* ---- the kernel ---- */

static void *btree_setup(struct kheap *h, struct krng *r)
{
	struct btree *t = kheap_array(h, sizeof(*t));

	if (!t || kpool_init(&t->pool, h, 2 * KEYS))
		return NULL;
	t->heap = h;
	t->root = new_node(t, NULL, 1);
	if (!t->root)
		return NULL;
	for (long i = 0; i < KEYS; i++) {
		long k = kpool_fresh(r);

		if (btree_insert(t, NULL, k, k))
			return NULL;
		kpool_add(&t->pool, k);
	}
	return t;
}

static int btree_tx(void *root, struct krec *rec, struct krng *r)
{
	struct btree *t = root;

	if (kpool_insert_next(&t->pool, r)) {
		long k = kpool_fresh(r);

		if (btree_insert(t, rec, k, k))
			return -1;
		kpool_add(&t->pool, k);
		return 0;
	}
	btree_delete(t, rec, KR(rec, t->root), kpool_take(&t->pool, r));
	btree_shrink(t, rec);
	return 0;
}

const struct kernel_desc kernel_btree = {
	.name = "btree",
	.title = "B-Tree",
	.heap_bytes = 64 << 20,
	.setup = btree_setup,
	.tx = btree_tx,
	.check = btree_check,
};
