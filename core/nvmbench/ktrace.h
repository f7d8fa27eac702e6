/* SPDX-License-Identifier: MIT */
/*
 * What the benchmark kernels run on and what they leave behind.
 *
 * A kernel keeps its data structure in a persistent heap: real memory that
 * stands for a region of the NVM, so that every object has an NVM address.
 * Inside a transaction the kernel reports each load and store it makes to
 * the heap (krec_read, krec_write, or the KR/KW macros); at the end the
 * recorder turns them into the transaction's trace: a read of every line
 * at its first touch (a cache lookup, and a fetch on a miss), a write of
 * every line the transaction modified after its last store there (the
 * line then goes to the memory controller), and between them the
 * instructions executed, counted from the accesses (docs/nvm.md).
 */
#ifndef DL_NVM_KTRACE_H
#define DL_NVM_KTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* xorshift64*: the kernels' deterministic random numbers. */
struct krng {
	uint64_t s;
};

void krng_seed(struct krng *r, uint64_t seed);
uint64_t krng_next(struct krng *r);
/* Uniform in [0, n). */
long krng_below(struct krng *r, long n);
/* Uniform in [lo, hi]. */
long krng_range(struct krng *r, long lo, long hi);

/*
 * A persistent heap: `bytes` (at most KHEAP_MAX) of memory standing for a
 * region of the NVM from `nvm_base`.  As an operating system's page
 * allocator does, the region's 4 KB frames hold the heap's pages in an
 * arbitrary order: page v is at frame perm(v), a bijection drawn from
 * `frame_key`.  Lines of one page stay together.
 */
#define KHEAP_MAX (1L << 30)

struct kheap {
	char *mem;
	size_t bytes, used;
	long nvm_base;
	uint32_t frame_key;
	void *free_list[64];	/* freed objects by size class of 16 B */
	struct krec *rec;	/* records allocator metadata writes, or NULL */
};

int kheap_init(struct kheap *h, size_t bytes, long nvm_base, uint32_t frame_key);
void kheap_free(struct kheap *h);
/* A zeroed object of `bytes` (<= 1008), 16 B aligned, after a 16 B
 * allocation header that the allocator writes; NULL when full. */
void *kheap_alloc(struct kheap *h, size_t bytes);
void kheap_release(struct kheap *h, void *p, size_t bytes);
/* Room for a large array set up before the run (no header); NULL when full. */
void *kheap_array(struct kheap *h, size_t bytes);
/* The NVM address of heap byte p. */
long kheap_addr(const struct kheap *h, const void *p);

/* One operation of a transaction's trace. */
struct kop {
	long addr;		/* 64 B line address */
	uint32_t insns;		/* instructions before it */
	bool write;
};

/* The trace of one core: transactions one after the other. */
struct ktrace {
	int ntx;
	long nops;
	struct kop *op;
	long *first;		/* ntx + 1: tx i is op[first[i]] .. op[first[i+1] - 1] */
	uint32_t *tail;		/* instructions after tx i's last op, to tx_end */
	long cap_ops;
	int cap_tx;
};

void ktrace_free(struct ktrace *t);
/* Lines tx i writes. */
int ktrace_writes(const struct ktrace *t, int i);

/* Records one transaction at a time into a trace. */
struct krec {
	struct kheap *heap;
	struct ktrace *trace;
	struct kacc {
		long line;
		uint32_t pos;
		bool write;
	} *acc;			/* this transaction's accesses */
	long nacc, cap_acc;
	uint32_t pos;		/* word accesses so far in this transaction */
	bool failed;		/* out of memory: the trace is unusable */
	bool over;		/* krec_end() failed: KTRACE_MAX_OPS reached */
};

/* Operations all live traces of a process may hold: 2^27 of 16 bytes,
 * 2 GiB (TPC-C: about 400,000 transactions on each of 4 cores);
 * ktrace_set_limit() sets another (the tests), returns the one before. */
#define KTRACE_MAX_OPS (1L << 27)
long ktrace_limit(void);
long ktrace_set_limit(long ops);

/* Instructions per recorded word access and per transaction (tx_begin,
 * tx_end, the benchmark's driver); docs/nvm.md. */
#define KREC_INSNS_PER_ACCESS 3
#define KREC_INSNS_PER_TX 100

void krec_init(struct krec *r, struct kheap *h, struct ktrace *t);
void krec_free(struct krec *r);
void krec_begin(struct krec *r);
/* A NULL recorder records nothing (a kernel filling its structure before
 * the run). */
void krec_read(struct krec *r, const void *p, size_t bytes);
void krec_write(struct krec *r, const void *p, size_t bytes);
/* End the transaction: append it to the trace.  -1 out of memory. */
int krec_end(struct krec *r);

/* A key pool: the benchmark driver's list of the keys present, to delete
 * one that exists and insert one that does not (kept in the heap's memory
 * but never recorded: it is not part of the data structure). */
struct kpool {
	long *key;
	long n, cap;
};

int kpool_init(struct kpool *p, struct kheap *h, long cap);
/* Insert (true) or delete next: a fair coin unless full or empty. */
bool kpool_insert_next(const struct kpool *p, struct krng *r);
void kpool_add(struct kpool *p, long key);
/* Remove and return a random key of the pool (n > 0). */
long kpool_take(struct kpool *p, struct krng *r);
/* A random key, most likely not in the pool (61 random bits). */
long kpool_fresh(struct krng *r);

/* Load or store one field of a heap object, recording it. */
#define KR(rec, lv) (krec_read((rec), &(lv), sizeof(lv)), (lv))
#define KW(rec, lv, v) do { krec_write((rec), &(lv), sizeof(lv)); (lv) = (v); } while (0)

#endif
