/* SPDX-License-Identifier: MIT */
/*
 * The benchmark kernels of the dissertation's Tables 3.3 and 4.5.1, each
 * a real data structure in a persistent heap whose transactions are
 * recorded (ktrace.h): Array Random, B-Tree, RB-Tree, HashTable,
 * ChainQueue, TPC-C NEW_ORDER and TATP UPDATE_LOCATION.  docs/nvm.md
 * gives each one's shape and sizes.
 */
#ifndef DL_NVM_KERNELS_H
#define DL_NVM_KERNELS_H

#include "ktrace.h"

struct kernel_desc {
	const char *name;		/* command-line name, e.g. "btree" */
	const char *title;		/* "B-Tree" */
	size_t heap_bytes;
	/* Build the initial structure (nothing recorded): its root, or NULL
	 * when the heap is too small. */
	void *(*setup)(struct kheap *h, struct krng *r);
	/* One transaction, recorded by `rec`: 0, or -1 when the heap is full. */
	int (*tx)(void *root, struct krec *rec, struct krng *r);
	/* Is the structure whole (its invariants hold)?  NULL: nothing to
	 * check.  On failure, why in why[]. */
	bool (*check)(const void *root, char *why, size_t len);
};

extern const struct kernel_desc kernel_array, kernel_btree, kernel_rbtree, kernel_hash,
	kernel_queue, kernel_tpcc, kernel_tatp;

/* Every kernel, in the order the outputs list them. */
extern const struct kernel_desc *const nvm_kernels[];
extern const int nvm_nkernels;
const struct kernel_desc *kernel_find(const char *name);

/* The trace of `ntx` transactions of `k` on a heap at NVM address `base`,
 * with random numbers from `seed`. */
int kernel_trace(const struct kernel_desc *k, long base, uint64_t seed, int ntx,
		 struct ktrace *out);

#endif
