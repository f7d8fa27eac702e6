/* SPDX-License-Identifier: MIT */
/*
 * RB-Tree (Tables 3.3 and 4.5.1): insert a new key or delete a present one
 * in a persistent red-black tree with a sentinel node (Cormen et al.,
 * chapter 13, as PMDK's rbtree_map example), filled with 100 000 keys.
 * A node (key, value, colour, three links) and its allocation header fill
 * one 64 B line.
 */
#include <stdio.h>

#include "kernels.h"

#define KEYS 100000

enum { BLACK, RED };

struct rbnode {
	long key, val, color;
	struct rbnode *p, *l, *r;
};

struct rbtree {
	struct rbnode *root;
	struct rbnode *nil;
	struct kheap *heap;
	struct kpool pool;
};

static void rotate(struct rbtree *t, struct krec *rec, struct rbnode *x, bool left)
{
	struct rbnode *y = left ? KR(rec, x->r) : KR(rec, x->l);
	struct rbnode *inner = left ? KR(rec, y->l) : KR(rec, y->r);
	struct rbnode *xp = KR(rec, x->p);

	if (left)
		KW(rec, x->r, inner);
	else
		KW(rec, x->l, inner);
	if (inner != t->nil)
		KW(rec, inner->p, x);
	KW(rec, y->p, xp);
	if (xp == t->nil)
		KW(rec, t->root, y);
	else if (x == KR(rec, xp->l))
		KW(rec, xp->l, y);
	else
		KW(rec, xp->r, y);
	if (left)
		KW(rec, y->l, x);
	else
		KW(rec, y->r, x);
	KW(rec, x->p, y);
}

static void insert_fixup(struct rbtree *t, struct krec *rec, struct rbnode *z)
{
	while (KR(rec, KR(rec, z->p)->color) == RED) {
		struct rbnode *p = z->p, *g = KR(rec, p->p);
		bool left = p == KR(rec, g->l);
		struct rbnode *u = left ? KR(rec, g->r) : g->l;

		if (KR(rec, u->color) == RED) {
			KW(rec, p->color, BLACK);
			KW(rec, u->color, BLACK);
			KW(rec, g->color, RED);
			z = g;
			continue;
		}
		if (z == (left ? KR(rec, p->r) : KR(rec, p->l))) {
			z = p;
			rotate(t, rec, z, left);
			p = KR(rec, z->p);
			g = KR(rec, p->p);
		}
		KW(rec, p->color, BLACK);
		KW(rec, g->color, RED);
		rotate(t, rec, g, !left);
	}
	KW(rec, KR(rec, t->root)->color, BLACK);
}

static int rb_insert(struct rbtree *t, struct krec *rec, long key)
{
	struct rbnode *z = kheap_alloc(t->heap, sizeof(*z)), *y = t->nil, *x = KR(rec, t->root);

	if (!z)
		return -1;
	while (x != t->nil) {
		y = x;
		x = key < KR(rec, x->key) ? KR(rec, x->l) : KR(rec, x->r);
	}
	KW(rec, z->key, key);
	KW(rec, z->val, key);
	KW(rec, z->p, y);
	if (y == t->nil)
		KW(rec, t->root, z);
	else if (key < y->key)
		KW(rec, y->l, z);
	else
		KW(rec, y->r, z);
	KW(rec, z->l, t->nil);
	KW(rec, z->r, t->nil);
	KW(rec, z->color, RED);
	insert_fixup(t, rec, z);
	return 0;
}

static void transplant(struct rbtree *t, struct krec *rec, struct rbnode *u, struct rbnode *v)
{
	struct rbnode *up = KR(rec, u->p);

	if (up == t->nil)
		KW(rec, t->root, v);
	else if (u == KR(rec, up->l))
		KW(rec, up->l, v);
	else
		KW(rec, up->r, v);
	KW(rec, v->p, up);
}

static void delete_fixup(struct rbtree *t, struct krec *rec, struct rbnode *x)
{
	while (x != KR(rec, t->root) && KR(rec, x->color) == BLACK) {
		struct rbnode *p = KR(rec, x->p);
		bool left = x == KR(rec, p->l);
		struct rbnode *w = left ? KR(rec, p->r) : p->l;

		if (KR(rec, w->color) == RED) {
			KW(rec, w->color, BLACK);
			KW(rec, p->color, RED);
			rotate(t, rec, p, left);
			w = left ? KR(rec, p->r) : KR(rec, p->l);
		}
		if (KR(rec, KR(rec, w->l)->color) == BLACK && KR(rec, KR(rec, w->r)->color) == BLACK) {
			KW(rec, w->color, RED);
			x = p;
			continue;
		}
		if (KR(rec, (left ? w->r : w->l)->color) == BLACK) {
			KW(rec, (left ? w->l : w->r)->color, BLACK);
			KW(rec, w->color, RED);
			rotate(t, rec, w, !left);
			w = left ? KR(rec, p->r) : KR(rec, p->l);
		}
		KW(rec, w->color, KR(rec, p->color));
		KW(rec, p->color, BLACK);
		KW(rec, (left ? w->r : w->l)->color, BLACK);
		rotate(t, rec, p, left);
		x = KR(rec, t->root);
	}
	KW(rec, x->color, BLACK);
}

static void rb_delete(struct rbtree *t, struct krec *rec, long key)
{
	struct rbnode *z = KR(rec, t->root), *y, *x;
	long y_color;

	while (z != t->nil && KR(rec, z->key) != key)
		z = key < z->key ? KR(rec, z->l) : KR(rec, z->r);
	if (z == t->nil)
		return;
	y = z;
	y_color = KR(rec, y->color);
	if (KR(rec, z->l) == t->nil) {
		x = KR(rec, z->r);
		transplant(t, rec, z, x);
	} else if (KR(rec, z->r) == t->nil) {
		x = z->l;
		transplant(t, rec, z, x);
	} else {
		y = z->r;
		while (KR(rec, y->l) != t->nil)
			y = y->l;
		y_color = KR(rec, y->color);
		x = KR(rec, y->r);
		if (KR(rec, y->p) == z) {
			KW(rec, x->p, y);
		} else {
			transplant(t, rec, y, x);
			KW(rec, y->r, KR(rec, z->r));
			KW(rec, y->r->p, y);
		}
		transplant(t, rec, z, y);
		KW(rec, y->l, KR(rec, z->l));
		KW(rec, y->l->p, y);
		KW(rec, y->color, KR(rec, z->color));
	}
	if (y_color == BLACK)
		delete_fixup(t, rec, x);
	kheap_release(t->heap, z, sizeof(*z));
}

/* Black height of the subtree at x (-1 when broken), counting its keys. */
static long black_height(const struct rbtree *t, const struct rbnode *x, long *keys,
			 char *why, size_t len)
{
	long l, r;

	if (x == t->nil)
		return 1;
	if ((x->l != t->nil && (x->l->key >= x->key || x->l->p != x)) ||
	    (x->r != t->nil && (x->r->key <= x->key || x->r->p != x))) {
		snprintf(why, len, "a child out of order or with the wrong parent");
		return -1;
	}
	if (x->color == RED && (x->l->color == RED || x->r->color == RED)) {
		snprintf(why, len, "a red node with a red child");
		return -1;
	}
	(*keys)++;
	l = black_height(t, x->l, keys, why, len);
	r = l < 0 ? -1 : black_height(t, x->r, keys, why, len);
	if (r < 0)
		return -1;
	if (l != r) {
		snprintf(why, len, "black heights %ld and %ld under one node", l, r);
		return -1;
	}
	return l + (x->color == BLACK);
}

static bool rbtree_check(const void *root, char *why, size_t len)
{
	const struct rbtree *t = root;
	long keys = 0;

	if (t->root->color != BLACK || t->nil->color != BLACK) {
		snprintf(why, len, "a red root or sentinel");
		return false;
	}
	if (black_height(t, t->root, &keys, why, len) < 0)
		return false;
	if (keys != t->pool.n) {
		snprintf(why, len, "%ld keys, the driver inserted %ld", keys, t->pool.n);
		return false;
	}
	return true;
}

static void *rbtree_setup(struct kheap *h, struct krng *r)
{
	struct rbtree *t = kheap_array(h, sizeof(*t));

	if (!t || kpool_init(&t->pool, h, 2 * KEYS))
		return NULL;
	t->heap = h;
	t->nil = kheap_alloc(h, sizeof(*t->nil));
	if (!t->nil)
		return NULL;
	t->nil->color = BLACK;
	t->nil->p = t->nil->l = t->nil->r = t->nil;
	t->root = t->nil;
	for (long i = 0; i < KEYS; i++) {
		long k = kpool_fresh(r);

		if (rb_insert(t, NULL, k))
			return NULL;
		kpool_add(&t->pool, k);
	}
	return t;
}

static int rbtree_tx(void *root, struct krec *rec, struct krng *r)
{
	struct rbtree *t = root;

	if (kpool_insert_next(&t->pool, r)) {
		long k = kpool_fresh(r);

		if (rb_insert(t, rec, k))
			return -1;
		kpool_add(&t->pool, k);
		return 0;
	}
	rb_delete(t, rec, kpool_take(&t->pool, r));
	return 0;
}

const struct kernel_desc kernel_rbtree = {
	.name = "rbtree",
	.title = "RB-Tree",
	.heap_bytes = 32 << 20,
	.setup = rbtree_setup,
	.tx = rbtree_tx,
	.check = rbtree_check,
};
