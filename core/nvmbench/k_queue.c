/* SPDX-License-Identifier: MIT */
/*
 * ChainQueue (section 4.5.1): enqueue at the tail or dequeue from the head
 * of a persistent linked FIFO (as PMDK's fifo example), which starts with
 * 1 000 elements; the head, tail and count share the queue's line.
 */
#include <stdio.h>

#include "kernels.h"

#define START 1000

struct qnode {
	long val;
	struct qnode *next;
};

struct queue {
	struct qnode *head, *tail;
	long count;
	struct kheap *heap;
};

static int enqueue(struct queue *q, struct krec *rec, long v)
{
	struct qnode *n = kheap_alloc(q->heap, sizeof(*n)), *tail;

	if (!n)
		return -1;
	KW(rec, n->val, v);
	KW(rec, n->next, NULL);
	tail = KR(rec, q->tail);
	if (tail)
		KW(rec, tail->next, n);
	else
		KW(rec, q->head, n);
	KW(rec, q->tail, n);
	KW(rec, q->count, KR(rec, q->count) + 1);
	return 0;
}

static void dequeue(struct queue *q, struct krec *rec)
{
	struct qnode *n = KR(rec, q->head);

	KW(rec, q->head, KR(rec, n->next));
	if (!q->head)
		KW(rec, q->tail, NULL);
	kheap_release(q->heap, n, sizeof(*n));
	KW(rec, q->count, KR(rec, q->count) - 1);
}

static bool queue_check(const void *root, char *why, size_t len)
{
	const struct queue *q = root;
	const struct qnode *last = NULL;
	long n = 0;

	for (const struct qnode *x = q->head; x; x = x->next, n++)
		last = x;
	if (n != q->count || last != q->tail) {
		snprintf(why, len, "%ld nodes, count %ld, %s tail", n, q->count,
			 last == q->tail ? "right" : "wrong");
		return false;
	}
	return true;
}

static void *queue_setup(struct kheap *h, struct krng *r)
{
	struct queue *q = kheap_array(h, sizeof(*q));

	if (!q)
		return NULL;
	q->heap = h;
	for (long i = 0; i < START; i++)
		if (enqueue(q, NULL, (long)krng_next(r)))
			return NULL;
	return q;
}

static int queue_tx(void *root, struct krec *rec, struct krng *r)
{
	struct queue *q = root;

	if (!q->count || krng_below(r, 2))
		return enqueue(q, rec, (long)krng_next(r));
	dequeue(q, rec);
	return 0;
}

const struct kernel_desc kernel_queue = {
	.name = "chainqueue",
	.title = "ChainQueue",
	.heap_bytes = 8 << 20,
	.setup = queue_setup,
	.tx = queue_tx,
	.check = queue_check,
};
