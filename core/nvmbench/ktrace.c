/* SPDX-License-Identifier: MIT */
#include "ktrace.h"

#include <stdlib.h>
#include <string.h>

#define LINE 64
#define HDR 16

/* ---- random numbers ---- */

void krng_seed(struct krng *r, uint64_t seed)
{
	/* splitmix64 of the seed: any seed, even 0, gives a good state. */
	uint64_t z = seed + 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	r->s = (z ^ (z >> 31)) | 1;
}

uint64_t krng_next(struct krng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dull;
}

long krng_below(struct krng *r, long n)
{
	return n > 0 ? (long)(krng_next(r) % (uint64_t)n) : 0;
}

long krng_range(struct krng *r, long lo, long hi)
{
	return lo + krng_below(r, hi - lo + 1);
}

/* ---- the heap ---- */

int kheap_init(struct kheap *h, size_t bytes, long nvm_base, uint32_t frame_key)
{
	memset(h, 0, sizeof(*h));
	if (bytes > KHEAP_MAX || !(h->mem = calloc(1, bytes)))
		return -1;
	h->bytes = bytes;
	h->nvm_base = nvm_base;
	h->frame_key = frame_key;
	return 0;
}

void kheap_free(struct kheap *h)
{
	free(h->mem);
	h->mem = NULL;
}

/* A bijection of the 18-bit page numbers of a 1 GiB region: each step
 * (xor, multiplication by an odd number, xor-shift) is one. */
static uint32_t frame_of(uint32_t page, uint32_t key)
{
	const uint32_t mask = (1u << 18) - 1;
	uint32_t x = (page ^ key) & mask;

	x = (x * 0x2f3b5u) & mask;
	x ^= x >> 9;
	x = (x * 0x1d4c3u) & mask;
	x ^= x >> 7;
	return x;
}

long kheap_addr(const struct kheap *h, const void *p)
{
	long off = (long)((const char *)p - h->mem);

	return h->nvm_base + ((long)frame_of((uint32_t)(off >> 12), h->frame_key) << 12) +
	       (off & 4095);
}

void *kheap_array(struct kheap *h, size_t bytes)
{
	size_t at = (h->used + LINE - 1) / LINE * LINE;

	if (at + bytes > h->bytes)
		return NULL;
	h->used = at + bytes;
	return h->mem + at;
}

static size_t size_class(size_t bytes)
{
	return (bytes + HDR - 1) / HDR;
}

/* The allocator writes the object's header (size, in use) in the
 * transaction that allocates or frees it, as a persistent allocator does. */
void *kheap_alloc(struct kheap *h, size_t bytes)
{
	size_t cls = size_class(bytes);
	char *p;

	if (cls == 0 || cls >= 64)
		return NULL;
	if (h->free_list[cls]) {
		p = h->free_list[cls];
		h->free_list[cls] = *(void **)p;
	} else {
		if (h->used + HDR + cls * HDR > h->bytes)
			return NULL;
		p = h->mem + h->used + HDR;
		h->used += HDR + cls * HDR;
	}
	memset(p, 0, cls * HDR);
	if (h->rec)
		krec_write(h->rec, p - HDR, HDR);
	return p;
}

void kheap_release(struct kheap *h, void *p, size_t bytes)
{
	size_t cls = size_class(bytes);

	if (!p)
		return;
	if (h->rec)
		krec_write(h->rec, (char *)p - HDR, HDR);
	*(void **)p = h->free_list[cls];
	h->free_list[cls] = p;
}

/* ---- traces ---- */

/* Operations in the traces not yet freed, and their bound. */
static long live_ops, max_ops = KTRACE_MAX_OPS;

long ktrace_limit(void)
{
	return max_ops;
}

long ktrace_set_limit(long ops)
{
	long old = max_ops;

	max_ops = ops;
	return old;
}

void ktrace_free(struct ktrace *t)
{
	live_ops -= t->nops;
	free(t->op);
	free(t->first);
	free(t->tail);
	memset(t, 0, sizeof(*t));
}

int ktrace_writes(const struct ktrace *t, int i)
{
	int n = 0;

	for (long o = t->first[i]; o < t->first[i + 1]; o++)
		n += t->op[o].write;
	return n;
}

/* ---- the recorder ---- */

void krec_init(struct krec *r, struct kheap *h, struct ktrace *t)
{
	memset(r, 0, sizeof(*r));
	memset(t, 0, sizeof(*t));
	r->heap = h;
	r->trace = t;
	h->rec = r;
}

void krec_free(struct krec *r)
{
	if (r->heap)
		r->heap->rec = NULL;
	free(r->acc);
	r->acc = NULL;
}

void krec_begin(struct krec *r)
{
	r->nacc = 0;
	r->pos = 0;
}

static void access_range(struct krec *r, const void *p, size_t bytes, bool write)
{
	long a, first, last;

	if (!r || !bytes)
		return;
	a = kheap_addr(r->heap, p);
	first = a / LINE;
	last = (a + (long)bytes - 1) / LINE;
	r->pos += (uint32_t)((bytes + 7) / 8);	/* one access per 8 B word */
	for (long line = first; line <= last; line++) {
		if (r->nacc == r->cap_acc) {
			long cap = r->cap_acc ? 2 * r->cap_acc : 256;
			struct kacc *grown = realloc(r->acc, (size_t)cap * sizeof(*grown));

			if (!grown) {
				r->failed = true;
				return;
			}
			r->acc = grown;
			r->cap_acc = cap;
		}
		r->acc[r->nacc++] = (struct kacc){ line, r->pos, write };
	}
}

void krec_read(struct krec *r, const void *p, size_t bytes)
{
	access_range(r, p, bytes, false);
}

void krec_write(struct krec *r, const void *p, size_t bytes)
{
	access_range(r, p, bytes, true);
}

static int by_line_then_pos(const void *a, const void *b)
{
	const struct kacc *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int by_pos(const void *a, const void *b)
{
	const struct kop *x = a, *y = b;

	/* insns holds the position until the gaps are computed; a line's
	 * read comes before its write at the same position. */
	if (x->insns != y->insns)
		return x->insns < y->insns ? -1 : 1;
	return x->write - y->write;
}

static int grow_trace(struct ktrace *t, long more)
{
	if (t->nops + more > t->cap_ops) {
		long cap = t->cap_ops ? 2 * t->cap_ops : 4096;
		struct kop *grown;

		while (cap < t->nops + more)
			cap *= 2;
		grown = realloc(t->op, (size_t)cap * sizeof(*grown));
		if (!grown)
			return -1;
		t->op = grown;
		t->cap_ops = cap;
	}
	if (t->ntx + 2 > t->cap_tx) {
		int cap = t->cap_tx ? 2 * t->cap_tx : 256;
		long *first = realloc(t->first, (size_t)cap * sizeof(*first));
		uint32_t *tail;

		if (!first)
			return -1;
		t->first = first;
		tail = realloc(t->tail, (size_t)cap * sizeof(*tail));
		if (!tail)
			return -1;
		t->tail = tail;
		t->cap_tx = cap;
	}
	return 0;
}

int krec_end(struct krec *r)
{
	struct ktrace *t = r->trace;
	long start = t->nops, n = 0;
	uint32_t prev = 0;

	if (live_ops + 2 * r->nacc > max_ops) {
		r->over = true;
		return -1;
	}
	if (r->failed || grow_trace(t, 2 * r->nacc))
		return -1;
	if (!t->ntx)
		t->first[0] = 0;
	/* Per line: a read at its first access, a write at its last store. */
	qsort(r->acc, (size_t)r->nacc, sizeof(*r->acc), by_line_then_pos);
	for (long i = 0; i < r->nacc;) {
		long line = r->acc[i].line, j = i;
		uint32_t last_write = 0;
		bool written = false;

		for (; j < r->nacc && r->acc[j].line == line; j++)
			if (r->acc[j].write) {
				written = true;
				last_write = r->acc[j].pos;
			}
		t->op[start + n++] = (struct kop){ line * LINE, r->acc[i].pos, false };
		if (written)
			t->op[start + n++] = (struct kop){ line * LINE, last_write, true };
		i = j;
	}
	qsort(t->op + start, (size_t)n, sizeof(*t->op), by_pos);
	for (long i = 0; i < n; i++) {
		uint32_t pos = t->op[start + i].insns;

		t->op[start + i].insns = (pos - prev) * KREC_INSNS_PER_ACCESS;
		prev = pos;
	}
	if (n)
		t->op[start].insns += KREC_INSNS_PER_TX;
	t->tail[t->ntx] = (r->pos - prev) * KREC_INSNS_PER_ACCESS + (n ? 0 : KREC_INSNS_PER_TX);
	t->nops += n;
	live_ops += n;
	t->ntx++;
	t->first[t->ntx] = t->nops;
	return 0;
}

/* ---- key pools ---- */

int kpool_init(struct kpool *p, struct kheap *h, long cap)
{
	p->key = kheap_array(h, (size_t)cap * sizeof(*p->key));
	p->n = 0;
	p->cap = cap;
	return p->key ? 0 : -1;
}

bool kpool_insert_next(const struct kpool *p, struct krng *r)
{
	if (p->n == 0)
		return true;
	if (p->n == p->cap)
		return false;
	return krng_below(r, 2);
}

void kpool_add(struct kpool *p, long key)
{
	if (p->n < p->cap)
		p->key[p->n++] = key;
}

long kpool_take(struct kpool *p, struct krng *r)
{
	long i = krng_below(r, p->n), key = p->key[i];

	p->key[i] = p->key[--p->n];
	return key;
}

long kpool_fresh(struct krng *r)
{
	return (long)(krng_next(r) >> 3);
}
